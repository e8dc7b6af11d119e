/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * faultfs.c - a FUSE pass-through filesystem that injects faults, to test
 * dbench-ng (stall detection, error reporting) against a filesystem that
 * is slow or fails on purpose.
 *
 *   faultfs BACKING_DIR MOUNTPOINT [--rule SPEC]... [--rules FILE]
 *           [--log FILE] [--pidfile FILE] [FUSE options]
 *
 * Every operation is passed through to BACKING_DIR, relative to an fd of
 * it opened before mounting (so MOUNTPOINT may even be BACKING_DIR
 * itself); open files and directories keep their backing fd in fi->fh and
 * are served with fd-based calls.  A rule (grammar in README.md) delays a
 * matching operation inside its FUSE worker thread, before doing it, or
 * fails it with an errno.  Every injection is logged with a CLOCK_MONOTONIC
 * timestamp, so that a test can line it up with what the benchmark saw.
 *
 * This file has main: the command line, mounting, the FUSE loop, the
 * SIGHUP reload of the rules file and the injection log.  The rules and
 * the decision to inject are in faultfs_rules.c, the pass-through
 * operations in faultfs_ops.c.
 */
#include "faultfs.h"

#include <fuse_lowlevel.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 128 /* default -o max_threads (libfuse says 10) */

/* ------------------------------- globals ------------------------------- */

int bfd = -1;			   /* BACKING_DIR */
long long mount_ns;		   /* CLOCK_MONOTONIC at mount */
static int log_fd = STDERR_FILENO; /* --log, or stderr */
static const char *log_path;
static const char *rules_path;
static const char *pid_path;
struct fuse_session *session; /* set before the loop starts */
uid_t self_uid;
gid_t self_gid;

/* ------------------------------- helpers ------------------------------- */

long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * NS_PER_SEC + ts.tv_nsec;
}

/* The path relative to the backing dir: "/a/b" -> "a/b", "/" -> "." */
const char *rel(const char *path)
{
	if (!path)
		return NULL;
	while (*path == '/')
		path++;
	return *path ? path : ".";
}

/* Copy @s to @d, escaping blanks, controls and '\' as \ooo. */
size_t esc(char *d, size_t n, const char *s)
{
	size_t i = 0;

	for (; *s && i + 5 < n; s++) {
		unsigned char c = (unsigned char)*s;

		if (c <= ' ' || c == '\\' || c == 0x7f)
			i += (size_t)snprintf(d + i, n - i, "\\%03o", c);
		else
			d[i++] = (char)c;
	}
	d[i] = 0;
	return i;
}

/*
 * One log line, written with one write() to an O_APPEND fd, so lines of
 * concurrent events never mix and each is on disk as soon as it happens:
 *   <monotonic ns> <UTC ISO 8601 with ms> <op> <path> <action> <event>
 * The time is @at (monotonic ns) if not 0, else now: a start is stamped
 * with the moment the rules decided, which is what a period counts.
 */
void log_event(enum op op, const char *shown, const char *action,
	       const char *event, long long at)
{
	char line[SHOWN_MAX + 256], iso[32];
	struct timespec rt;
	long long ns, real;
	struct tm tm;
	int n;

	ns = mono_ns();
	clock_gettime(CLOCK_REALTIME, &rt);
	if (at) { /* the wall-clock time of @at */
		real = (long long)rt.tv_sec * NS_PER_SEC + rt.tv_nsec -
		       (ns - at);
		rt.tv_sec = (time_t)(real / NS_PER_SEC);
		rt.tv_nsec = (long)(real % NS_PER_SEC);
		ns = at;
	}
	gmtime_r(&rt.tv_sec, &tm);
	strftime(iso, sizeof(iso), "%Y-%m-%dT%H:%M:%S", &tm);
	n = snprintf(line, sizeof(line), "%lld %s.%03ldZ %s %s %s %s\n", ns,
		     iso, rt.tv_nsec / 1000000, op_names[op], shown, action,
		     event);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = (int)sizeof(line) - 1;
	if (write(log_fd, line, (size_t)n) < 0) {
		/* nowhere to report it */
	}
}

/* ------------------------------- SIGHUP -------------------------------- */

static int open_log(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

	if (fd < 0)
		fprintf(stderr, PROG ": --log %s: %s\n", path, strerror(errno));
	return fd;
}

static void reload(void)
{
	struct ruleset rs, old;
	int fd;

	if (log_path) {
		fd = open_log(log_path);
		if (fd >= 0) {
			/* swapped in place: writers never see a closed fd */
			dup2(fd, log_fd);
			close(fd);
		}
	}
	if (!rules_path)
		return;
	if (load_rules_file(rules_path, &rs)) {
		fprintf(stderr, PROG ": keeping the previous rules\n");
		return;
	}
	pthread_mutex_lock(&rules_lock);
	old = file_rules;
	file_rules = rs;
	update_mask();
	pthread_mutex_unlock(&rules_lock);
	ruleset_free(&old);
	fprintf(stderr, PROG ": %zu rules from %s\n", rs.n, rules_path);
}

static void *hup_thread(void *arg)
{
	const sigset_t *set = arg;
	int sig;

	for (;;)
		if (!sigwait(set, &sig))
			reload();
	return NULL;
}

/* -------------------------------- main --------------------------------- */

static const char usage_text[] =
	"Usage: " PROG " BACKING_DIR MOUNTPOINT [OPTIONS] [FUSE OPTIONS]\n"
	"Mount BACKING_DIR again at MOUNTPOINT, pass every operation through,\n"
	"and delay or fail the operations that match a rule.\n"
	"\n"
	"  --rule 'SPEC'    add a rule (repeatable)\n"
	"  --rules FILE     rules from FILE, one per line, # comments;\n"
	"                   SIGHUP re-reads it (and reopens the log)\n"
	"  --log FILE       append a line per injection event (default:\n"
	"                   stderr)\n"
	"  --pidfile FILE   write the pid there once mounted\n"
	"  -f               stay in the foreground\n"
	"  -o OPT[,OPT...]  FUSE options (default_permissions, allow_other,\n"
	"                   max_threads=N, default here 128...)\n"
	"\n"
	"SPEC: OP[:PATTERN] [delay=MS] [error=ERRNO] [every=N | period=MS]\n"
	"      [after=MS] [count=N]\n"
	"  OP         getattr readlink mknod mkdir unlink rmdir symlink\n"
	"             rename link chmod chown truncate open create read\n"
	"             write statfs flush release fsync setxattr getxattr\n"
	"             listxattr removexattr opendir readdir releasedir\n"
	"             fsyncdir access utimens fallocate lseek, or any\n"
	"  PATTERN    fnmatch glob on the path relative to the mount root\n"
	"             ('*' also matches '/'), e.g. '*/~wr*.tmp'\n"
	"  delay=MS   sleep that long, then do the operation\n"
	"  intr=1     a signal to the caller ends the delay: EINTR\n"
	"  error=E    fail it with errno E: a name (EIO, ENOSPC...) or a\n"
	"             number\n"
	"  every=N    inject on every Nth matching call (default: every)\n"
	"  period=MS  inject on the first matching call of each period\n"
	"  after=MS   only from MS after mounting\n"
	"  count=N    at most N injections\n"
	"See tests/faultfs/README.md.\n";

/*
 * --opt VALUE or --opt=VALUE at argv[*i]: sets *@val and returns 1; 0 if
 * argv[*i] is not --opt; -1 if the value is missing.
 */
static int opt_value(int argc, char *argv[], int *i, const char *opt,
		     const char **val)
{
	size_t len = strlen(opt);
	const char *a = argv[*i];

	if (strncmp(a, opt, len) || (a[len] && a[len] != '='))
		return 0;
	if (a[len] == '=') {
		*val = a + len + 1;
		return 1;
	}
	if (*i + 1 >= argc) {
		fprintf(stderr, PROG ": %s needs a value\n", opt);
		return -1;
	}
	*val = argv[++*i];
	return 1;
}

struct cmdline {
	const char *backing;
	bool user_max_threads; /* -o max_threads=N given */
	int fargc;
	char **fargv; /* what is left for libfuse */
};

/* Take our options and BACKING_DIR out of argv; 0, or the exit status. */
static int parse_args(int argc, char *argv[], struct cmdline *c)
{
	static const char *const opts[] = {"--rules", "--rule", "--log",
					   "--pidfile"};
	bool dashdash = false;
	const char *v = NULL;
	char msg[256];
	struct rule r;

	c->fargv = calloc((size_t)argc + 1, sizeof(*c->fargv));
	if (!c->fargv)
		return 1;
	c->fargv[c->fargc++] = argv[0];
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *fopt = NULL;
		int got = 0, k;

		if (dashdash || a[0] != '-') {
			if (!c->backing)
				c->backing = a;
			else
				c->fargv[c->fargc++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			dashdash = true;
			c->fargv[c->fargc++] = argv[i];
			continue;
		}
		for (k = 0; k < 4; k++) {
			got = opt_value(argc, argv, &i, opts[k], &v);
			if (got)
				break;
		}
		if (got < 0)
			return 2;
		if (!got) {
			/* a FUSE option; -o takes the next argument */
			if (!strcmp(a, "-o") && i + 1 < argc) {
				c->fargv[c->fargc++] = argv[i++];
				fopt = argv[i];
			} else if (!strncmp(a, "-o", 2)) {
				fopt = a + 2;
			}
			if (fopt && strstr(fopt, "max_threads="))
				c->user_max_threads = true;
			c->fargv[c->fargc++] = argv[i];
			continue;
		}
		switch (k) {
		case 0:
			rules_path = v;
			break;
		case 1:
			if (parse_rule(v, &r, msg, sizeof(msg))) {
				fprintf(stderr, PROG ": --rule '%s': %s\n", v,
					msg);
				return 2;
			}
			if (ruleset_add(&cli_rules, &r)) {
				rule_free(&r);
				return 1;
			}
			break;
		case 2:
			log_path = v;
			break;
		case 3:
			pid_path = v;
			break;
		}
	}
	return 0;
}

static int run_loop(struct fuse *fuse, struct fuse_cmdline_opts *o,
		    bool user_max_threads)
{
	int rc;

	if (o->singlethread)
		return fuse_loop(fuse);
#if FUSE_USE_VERSION >= 312
	struct fuse_loop_config *cfg = fuse_loop_cfg_create();

	if (!cfg)
		return -1;
	fuse_loop_cfg_set_clone_fd(cfg, (unsigned int)o->clone_fd);
	if (o->max_idle_threads != UINT_MAX) /* -1: not given */
		fuse_loop_cfg_set_idle_threads(cfg, o->max_idle_threads);
	fuse_loop_cfg_set_max_threads(cfg, user_max_threads ? o->max_threads
							    : MAX_THREADS);
	rc = fuse_loop_mt(fuse, cfg);
	fuse_loop_cfg_destroy(cfg);
#else
	struct fuse_loop_config cfg = {
		.clone_fd = o->clone_fd,
		.max_idle_threads = o->max_idle_threads,
	};

	(void)user_max_threads;
	rc = fuse_loop_mt(fuse, &cfg);
#endif
	return rc;
}

int main(int argc, char *argv[])
{
	struct cmdline c = {0};
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
	struct fuse_cmdline_opts o = {0};
	struct fuse_session *se;
	struct fuse *fuse;
	sigset_t hup, all, mask;
	pthread_t tid;
	int rc, err;
	FILE *pf;

	rc = parse_args(argc, argv, &c);
	if (rc)
		goto out;
	args.argc = c.fargc;
	args.argv = c.fargv;
	rc = 2;
	if (fuse_parse_cmdline(&args, &o))
		goto out;
	rc = 0;
	if (o.show_help) {
		fputs(usage_text, stdout);
		printf("\n");
		fuse_cmdline_help();
		fuse_lib_help(&args);
		goto out;
	}
	if (o.show_version) {
		printf(PROG " (libfuse %s)\n", fuse_pkgversion());
		goto out;
	}
	rc = 2;
	if (!c.backing || !o.mountpoint) {
		fprintf(stderr, PROG ": no %s\nTry '" PROG " --help'.\n",
			c.backing ? "MOUNTPOINT" : "BACKING_DIR");
		goto out;
	}
	if (rules_path && load_rules_file(rules_path, &file_rules))
		goto out;
	update_mask();
	rc = 1;
	bfd = open(c.backing, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (bfd < 0) {
		fprintf(stderr, PROG ": %s: %s\n", c.backing, strerror(errno));
		goto out;
	}
	if (log_path) {
		log_fd = open_log(log_path);
		if (log_fd < 0)
			goto out;
	}
	/* modes come from the kernel with the caller's umask applied */
	umask(0);
	self_uid = geteuid();
	self_gid = getegid();

	fuse = fuse_new(&args, &ffs_ops, sizeof(ffs_ops), NULL);
	if (!fuse)
		goto out;
	if (fuse_mount(fuse, o.mountpoint))
		goto out_destroy;
	mount_ns = mono_ns();
	se = fuse_get_session(fuse);
	session = se;
	if (fuse_daemonize(o.foreground))
		goto out_unmount;
	if (fuse_set_signal_handlers(se))
		goto out_unmount;
	/*
	 * SIGHUP is taken by one thread that blocks every signal, so SIGTERM
	 * and SIGINT go to the main thread (libfuse's workers block them)
	 * and end the loop even while a worker sleeps in a delay.
	 */
	sigemptyset(&hup);
	sigaddset(&hup, SIGHUP);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &mask);
	err = pthread_create(&tid, NULL, hup_thread, &hup);
	sigaddset(&mask, SIGHUP);
	pthread_sigmask(SIG_SETMASK, &mask, NULL);
	if (err) {
		fprintf(stderr, PROG ": cannot start the SIGHUP thread\n");
		goto out_signals;
	}
	pthread_detach(tid);
	if (pid_path) {
		pf = fopen(pid_path, "we");
		if (!pf || fprintf(pf, "%d\n", (int)getpid()) < 0 ||
		    fclose(pf)) {
			fprintf(stderr, PROG ": --pidfile %s: %s\n", pid_path,
				strerror(errno));
			goto out_signals;
		}
	}
	/* 0, a signal number (SIGTERM...) or -errno */
	rc = run_loop(fuse, &o, c.user_max_threads) < 0;
	if (pid_path)
		unlink(pid_path);
out_signals:
	fuse_remove_signal_handlers(se);
out_unmount:
	fuse_unmount(fuse);
out_destroy:
	fuse_destroy(fuse);
out:
	fuse_opt_free_args(&args);
	free(o.mountpoint);
	free(c.fargv);
	return rc;
}
