/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * launch.c - the BPF recording of a process tree.  A command is forked
 * and held before its exec until the program is attached with the
 * child's pid "armed" (traced from its exec on, nothing of this
 * program's own work before it); running processes are put in the
 * program's table at once.  What each had open (/proc/PID/fd, with the
 * flags and positions of /proc/PID/fdinfo) and its working directory are
 * given to the writer first, stamped with the clock of the BPF program
 * (CLOCK_MONOTONIC).  The ring buffer is drained until the command
 * ends, or the processes do, or a signal says stop (for a command, the
 * signal is passed on to it: the recording goes on until it has ended).
 */
#include "launch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bpf_rec.h"

static volatile sig_atomic_t stop_sig;

static void on_signal(int sig)
{
	stop_sig = sig;
}

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void to_writer(void *ctx, const struct rec_ev *ev)
{
	rec_writer_event(ctx, ev);
}

/* the flags and position of /proc/@pid/fdinfo/@fd */
static void fdinfo(int pid, int fd, int64_t *flags, int64_t *pos)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", pid, fd);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "pos:", 4))
			*pos = strtoll(line + 4, NULL, 10);
		else if (!strncmp(line, "flags:", 6))
			*flags = strtoll(line + 6, NULL, 8);
	}
	fclose(f);
}

/* what process @pid has open and where it works, to the writer */
static void snapshot(struct rec_writer *w, int pid)
{
	char path[64], target[4096];
	struct rec_ev ev = {.pid = pid, .tgid = pid, .fd2 = -1};
	struct dirent *de;
	DIR *d;
	ssize_t n;

	ev.ts_ns = mono_ns();
	snprintf(path, sizeof(path), "/proc/%d/cwd", pid);
	n = readlink(path, target, sizeof(target) - 1);
	if (n > 0) {
		target[n] = 0;
		ev.kind = RK_CWD;
		ev.name = "chdir";
		ev.fd = -1;
		ev.path = target;
		rec_writer_event(w, &ev);
	}
	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	d = opendir(path);
	/* cppcheck-suppress readdirCalled ; a DIR of this thread alone */
	while (d && (de = readdir(d))) {
		char *end;
		long fd = strtol(de->d_name, &end, 10);

		if (*end || end == de->d_name)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/fd/%ld", pid, fd);
		n = readlink(path, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = 0;
		memset(ev.a, 0, sizeof(ev.a));
		fdinfo(pid, (int)fd, &ev.a[0], &ev.a[1]);
		ev.kind = RK_INHERIT;
		ev.name = "open";
		ev.fd = (int)fd;
		ev.path = target;
		rec_writer_event(w, &ev);
	}
	if (d)
		closedir(d);
}

static void drain(struct rec_bpf *b)
{
	int idle = 0;

	while (idle < 2) {
		int n = rec_bpf_poll(b, 50);

		idle = n > 0 ? 0 : idle + 1;
	}
}

static bool any_alive(const int *pids, int n)
{
	for (int i = 0; i < n; i++)
		if (!kill(pids[i], 0) || errno == EPERM)
			return true;
	return false;
}

static void catch_signals(struct sigaction *old)
{
	struct sigaction sa = {.sa_handler = on_signal};

	sigemptyset(&sa.sa_mask);
	stop_sig = 0;
	sigaction(SIGINT, &sa, &old[0]);
	sigaction(SIGTERM, &sa, &old[1]);
	sigaction(SIGHUP, &sa, &old[2]);
}

static void restore_signals(const struct sigaction *old)
{
	sigaction(SIGINT, &old[0], NULL);
	sigaction(SIGTERM, &old[1], NULL);
	sigaction(SIGHUP, &old[2], NULL);
}

static const char no_bpf[] =
	"cannot trace with BPF: %s; without BPF, record a log with "
	"strace -f -tt -T -y -o LOG COMMAND and convert it with "
	"dbench-ng record --from-strace LOG";

/* a command: fork it held, arm, release, follow until it ends */
static int run_command(struct launch *l, struct rec_bpf_cfg *cfg, char *why,
		       size_t len)
{
	int go[2], ex[2], err = 0;
	bool fwd = false;
	struct rec_bpf *b;
	char r[1024];
	pid_t pid;

	if (pipe2(go, O_CLOEXEC) || pipe2(ex, O_CLOEXEC)) {
		snprintf(why, len, "pipe: %s", strerror(errno));
		return 3;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(why, len, "fork: %s", strerror(errno));
		return 3;
	}
	if (pid == 0) {
		char c;

		close(go[1]);
		close(ex[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(l->cmd[0], l->cmd);
		err = errno;
		if (write(ex[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(ex[1]);
	cfg->armed = pid;
	snapshot(l->w, pid);
	b = rec_bpf_start(cfg, r, sizeof(r));
	if (!b) {
		snprintf(why, len, no_bpf, r);
		close(go[1]);
		close(ex[0]);
		waitpid(pid, NULL, 0);
		return 3;
	}
	if (write(go[1], "x", 1) != 1)
		err = errno;
	close(go[1]);
	if (!err && read(ex[0], &err, sizeof(err)) != sizeof(err))
		err = 0; /* end of file: the exec happened */
	close(ex[0]);
	if (err) {
		snprintf(why, len, "cannot run %s: %s", l->cmd[0],
			 strerror(err));
		waitpid(pid, NULL, 0);
		rec_bpf_stop(b);
		return 2;
	}
	while (waitpid(pid, &l->status, WNOHANG) == 0) {
		if (stop_sig && !fwd) { /* passed on once: it ends the command */
			kill(pid, stop_sig);
			fwd = true;
		}
		rec_bpf_poll(b, 100);
	}
	drain(b);
	l->lost = rec_bpf_lost(b);
	rec_bpf_stop(b);
	return 0;
}

static int run_pids(struct launch *l, struct rec_bpf_cfg *cfg, char *why,
		    size_t len)
{
	struct rec_bpf *b;
	char r[1024];

	for (int i = 0; i < l->npids; i++) {
		if (kill(l->pids[i], 0) && errno == ESRCH) {
			snprintf(why, len, "-p %d: no such process",
				 l->pids[i]);
			return 2;
		}
	}
	for (int i = 0; i < l->npids; i++)
		snapshot(l->w, l->pids[i]);
	b = rec_bpf_start(cfg, r, sizeof(r));
	if (!b) {
		snprintf(why, len, no_bpf, r);
		return 3;
	}
	fprintf(stderr, "dbench-ng record: tracing %d process%s; Ctrl-C "
			"ends the recording\n",
		l->npids, l->npids > 1 ? "es" : "");
	while (!stop_sig && any_alive(l->pids, l->npids))
		rec_bpf_poll(b, 100);
	l->stop_sig = stop_sig;
	drain(b);
	l->lost = rec_bpf_lost(b);
	rec_bpf_stop(b);
	return 0;
}

int launch_record(struct launch *l, char *why, size_t len)
{
	struct rec_bpf_cfg cfg = {
		.pids = l->cmd ? NULL : l->pids,
		.npids = l->cmd ? 0 : l->npids,
		.ring_mib = l->ring_mib,
		.fn = to_writer,
		.ctx = l->w,
	};
	struct sigaction old[3];
	int rc;

	catch_signals(old);
	rc = l->cmd ? run_command(l, &cfg, why, len)
		    : run_pids(l, &cfg, why, len);
	restore_signals(old);
	if (!rc && l->lost)
		rec_writer_lost(l->w, l->lost,
				"events the BPF program could not send (its "
				"ring buffer was full: --buffer)");
	return rc;
}
