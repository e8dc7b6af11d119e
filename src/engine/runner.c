/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * runner.c - process model and phases (design.md §4, dbench-compat.md §3).
 *
 * The parent forks one process per NPROCS, each running
 * --clients-per-process clients.  A child sets up its clients, marks them
 * ready in shared memory and blocks reading a pipe; the parent closes the
 * pipe's write end to release everyone at once (no SysV IPC).  Children
 * die with the parent (PR_SET_PDEATHSIG) and never print.  The parent
 * waits on a signalfd with a timeout to the next one-second tick, so a
 * dead child or a signal is seen at once and ticks do not drift.
 */
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend.h"
#include "client.h"
#include "clock.h"
#include "loadfile.h"
#include "config.h"
#include "disturb.h"
#include "result.h"
#include "shm.h"
#include "stopsig.h"
#include "ticks.h"
#include "watchdog.h"

#define SETUP_TIMEOUT_S 30

struct runner {
	const struct config *cfg;
	struct program **progs;
	int nprogs;
	const struct backend *b;
	struct be_run *run;
	struct shm *shm;
	pid_t *pids;
	bool *reaped;
	int nalive;
	int barrier[2];
	int sigfd;
	pid_t parent;
	int interrupted;	  /* first SIGINT/SIGTERM/SIGHUP */
	bool failed;		  /* a child failed or died */
	bool killed;		  /* we sent SIGKILL after a second signal */
	char deaths[4][SLOT_MSG]; /* children that died without a message */
	int ndeaths;

	/* phases, progress lines, the series */
	struct ticks *ticks;
	struct result *res;
	/* what else the machine did (disturb.c): reaped children's CPU
	 * time before this run, the snapshot at the release */
	uint64_t kids0_ns;
	struct disturb_snap dsnap0;
	struct watchdog *wd;
	FILE *out;		/* stdout, or stderr with --json - */
};

/* The program of client @id: -c A,B gives process p the file p mod 2, as
 * dbench does; the clients of one process share it. */
static struct program *prog_of(const struct runner *r, int id)
{
	return r->progs[(id / r->cfg->cpp) % r->nprogs];
}

/* ---------------------------- the children ----------------------------- */

static struct shm_hdr *child_hdr;

static void child_stop(int sig)
{
	if (!child_hdr->stop) {
		child_hdr->stop_signal = (uint32_t)sig;
		child_hdr->stop = STOP_SIGNAL;
	}
}

static void __attribute__((noreturn)) child_main(struct runner *r, int proc)
{
	const struct config *cfg = r->cfg;
	struct sigaction sa = {.sa_handler = child_stop};
	struct client *cls;
	sigset_t all;
	char c;
	int n = cfg->cpp, rc = 0;
	ssize_t got;

	child_hdr = &r->shm->hdr;
	sigaction(SIGTERM, &sa, NULL);
	if (!stopsig_inherited_ign(SIGHUP)) /* nohup: keep ignoring it */
		sigaction(SIGHUP, &sa, NULL);
	signal(SIGINT, SIG_IGN); /* Ctrl-C: the parent stops us */
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != r->parent)
		_exit(3);
	close(r->sigfd);
	close(r->barrier[1]);

	cls = calloc((size_t)n, sizeof(*cls));
	if (!cls)
		_exit(3);
	for (int i = 0; i < n; i++) {
		int id = proc * n + i;
		struct client *cl = &cls[i];

		if (client_init(cl, id, cfg, prog_of(r, id), r->b, r->run,
				r->shm) ||
		    (r->b->setup && r->b->setup(&cl->be)))
			_exit(3);
		cl->slot->state = SLOT_READY;
	}
	do {
		got = read(r->barrier[0], &c, 1);
	} while (got < 0 && errno == EINTR && !child_hdr->stop);
	if (!child_hdr->go || child_hdr->stop == STOP_SIGNAL)
		goto out; /* the parent went away before the start */

	rc = client_loop(cls, n);
out:
	for (int i = 0; i < n; i++) {
		if (cls[i].slot->state != SLOT_FAILED)
			cls[i].slot->state = SLOT_CLEANUP;
		if (!cfg->skip_cleanup) {
			client_release_all(&cls[i]);
			if (r->b->cleanup)
				r->b->cleanup(&cls[i].be);
		}
		cls[i].slot->cleaned = 1;
		if (cls[i].slot->state != SLOT_FAILED)
			cls[i].slot->state = SLOT_DONE;
	}
	/* a killed parent never runs fini: the last client out undoes
	 * what init made (DIR/clients), as fini would have */
	if (!cfg->skip_cleanup && getppid() != r->parent && r->b->orphaned)
		r->b->orphaned(r->run);
	_exit(rc);
}

/* ----------------------------- the parent ------------------------------ */


static struct client_slot *slot(struct runner *r, int id)
{
	return &r->shm->slot[id];
}

static void kill_all(struct runner *r, int sig)
{
	for (int p = 0; p < r->cfg->nprocs; p++) {
		if (!r->reaped[p])
			kill(r->pids[p], sig);
	}
}

/* The message for process @p killed by @sig: which clients, and the op
 * each was running (loadfile line) when it died. */
static void describe_death(struct runner *r, int p, pid_t pid, int sig,
			   char *buf)
{
	int cpp = r->cfg->cpp, n;

	n = snprintf(buf, SLOT_MSG, "client process %d (pid %d) was killed "
		     "by signal %d (%s)", p, (int)pid, sig, strsignal(sig));
	for (int i = p * cpp; i < (p + 1) * cpp && n > 0 && n < SLOT_MSG; i++) {
		const struct client_slot *s = slot(r, i);
		const struct program *prog = prog_of(r, i);
		const struct lf_op *op = &prog->ops[s->cur_op];

		if (s->state != SLOT_RUNNING)
			continue;
		n += snprintf(buf + n, SLOT_MSG - (size_t)n,
			      "; client %d was running %s at %s:%u", i,
			      op_info[op->type].keyword, prog->name, op->line);
	}
}

/* Reap every child that has exited; note failures. */
static void reap(struct runner *r)
{
	int st;
	pid_t pid;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		int p;

		for (p = 0; p < r->cfg->nprocs && r->pids[p] != pid; p++)
			;
		if (p == r->cfg->nprocs)
			continue;
		r->reaped[p] = true;
		r->nalive--;
		if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
			continue;
		if (r->killed && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
			continue;	/* we killed it: an interrupted run */
		r->failed = true;
		shm_set_stop(r->shm, STOP_FAILED);
		if (WIFSIGNALED(st) && r->ndeaths < 4)
			describe_death(r, p, pid, WTERMSIG(st),
				       r->deaths[r->ndeaths++]);
	}
}

/* Handle pending signals; returns false if the signalfd failed. */
static void drain_signals(struct runner *r)
{
	struct signalfd_siginfo si;

	while (read(r->sigfd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGCHLD) {
			reap(r);
			continue;
		}
		if (!r->interrupted) {
			r->interrupted = (int)si.ssi_signo;
			shm_set_stop(r->shm, STOP_SIGNAL);
			if (si.ssi_signo == SIGPIPE)
				fprintf(stderr,
					"dbench-ng: the output is a "
					"closed pipe (signal %d, %s): "
					"stopping the clients\n",
					SIGPIPE, strsignal(SIGPIPE));
			else
				fprintf(stderr,
					"dbench-ng: interrupted by "
					"signal %d (%s): stopping the "
					"clients\n",
					r->interrupted,
					strsignal(r->interrupted));
		} else if (si.ssi_signo == SIGPIPE) {
			continue; /* every later line to the pipe raises it */
		} else if (!r->killed) {
			/* a second signal: do not wait for stuck clients */
			r->killed = true;
			kill_all(r, SIGKILL);
			fprintf(stderr, "dbench-ng: signal %d (%s) again: "
				"killing the clients\n", (int)si.ssi_signo,
				strsignal((int)si.ssi_signo));
		} else {
			kill_all(r, SIGKILL);
		}
	}
}

static void wait_events(struct runner *r, uint64_t until)
{
	struct pollfd pfd = {.fd = r->sigfd, .events = POLLIN};
	uint64_t now = clock_ns();
	int ms = until > now ? (int)((until - now + NSEC_PER_MSEC - 1) /
				     NSEC_PER_MSEC)
			     : 0;

	if (poll(&pfd, 1, ms) > 0)
		drain_signals(r);
}

static int ready_procs(struct runner *r)
{
	int n = 0;

	for (int p = 0; p < r->cfg->nprocs; p++) {
		bool ok = true;

		for (int i = 0; i < r->cfg->cpp; i++)
			ok = ok &&
			     slot(r, p * r->cfg->cpp + i)->state == SLOT_READY;
		n += ok;
	}
	return n;
}

/* Wait until every process is at the barrier.  0, or an exit status. */
static int wait_ready(struct runner *r)
{
	uint64_t t0 = clock_ns(), next_print = t0;
	int last = -1, ready;

	for (;;) {
		uint64_t now = clock_ns();

		ready = ready_procs(r);
		if (ready != last || now >= next_print) {
			fprintf(r->out, "%d of %d processes prepared for launch %3.0f "
			       "sec\n",
			       ready, r->cfg->nprocs, (double)(now - t0) / 1e9);
			fflush(r->out);
			last = ready;
			next_print = now + NSEC_PER_SEC;
		}
		if (ready == r->cfg->nprocs)
			return 0;
		if (r->failed || r->interrupted)
			return -1;
		if (now - t0 > SETUP_TIMEOUT_S * NSEC_PER_SEC) {
			fprintf(stderr,
				"dbench-ng: only %d of %d processes "
				"were ready after %d s\n",
				ready, r->cfg->nprocs, SETUP_TIMEOUT_S);
			r->failed = true;
			return -1;
		}
		wait_events(r, now + 100 * NSEC_PER_MSEC);
	}
}

/* --------------------------- results ----------------------------------- */

/* The real path(s) of op @pc of client @id's program, for the result. */
static char *op_paths(struct runner *r, int id, uint32_t pc)
{
	struct client cl = {
		.be.id = id,
		.be.run = r->run,
		.cfg = r->cfg,
		.prog = prog_of(r, id),
	};
	const struct lf_op *op = &cl.prog->ops[pc];
	char a[1200], b[1200], both[2402];

	if (op->path[0] == LF_NONE)
		return NULL;
	client_path(&cl, op->path[0], a, sizeof(a));
	if (op->path[1] == LF_NONE)
		return strdup(a);
	snprintf(both, sizeof(both), "%s %s", a,
		 client_path(&cl, op->path[1], b, sizeof(b)));
	return strdup(both);
}

/* watchdog_describe_fn: name the op a stuck client is running. */
static void describe_stall(void *ctx, int client, uint32_t pc,
			   struct result_stall *ev)
{
	struct runner *r = ctx;
	const struct program *prog = prog_of(r, client);

	if (pc >= prog->nops)
		pc = 0;
	ev->op = prog->ops[pc].type;
	ev->line = prog->ops[pc].line;
	ev->file = strdup(prog->name);
	ev->path = op_paths(r, client, pc);
}

static void add_error(struct result *res, const char *msg)
{
	if (res->nerrors < RESULT_MAX_MSGS)
		res->errors[res->nerrors++] = strdup(msg);
}

/* Merge the client slots into the result: the measured phase only. */
static int fill_result(struct runner *r)
{
	const struct config *cfg = r->cfg;
	struct shm_hdr *hdr = &r->shm->hdr;
	struct result *res = r->res;
	uint64_t bytes = 0;

	res->status = r->failed ? RESULT_FAILED
		      : r->interrupted ? RESULT_INTERRUPTED : RESULT_OK;
	res->signal = r->interrupted;
	res->has_bins = true;
	res->nclients = cfg->nclients;
	res->clients = calloc((size_t)cfg->nclients, sizeof(*res->clients));
	if (!res->clients)
		return -1;
	for (int i = 0; i < cfg->nclients; i++) {
		struct client_slot *s = slot(r, i);
		struct result_client *rc = &res->clients[i];

		if (s->err_msg[0])
			add_error(res, s->err_msg);
		rc->lines = s->lines;
		if (s->gen != hdr->gen)
			continue;	/* measured nothing after the warmup */
		rc->bytes = s->bytes;
		bytes += s->bytes;
		for (int o = 0; o < OP_NR; o++) {
			struct result_op *ro = &res->op[o];
			const struct hist *h = &s->st.op[o];

			rc->count[o] = h->count;
			rc->sum_ns[o] = h->sum;
			rc->max_ns[o] = h->max;
			ro->errors += s->st.errors[o];
			ro->bytes += s->st.bytes[o];
			ro->not_run += s->st.not_run[o];
			if (h->count && (!ro->h.count || h->max > ro->h.max)) {
				free(ro->max_path);
				ro->max_client = i;
				ro->max_at_s = (double)(s->max_start_ns[o] -
							hdr->start_ns) / 1e9;
				ro->max_line = prog_of(r, i)
						       ->ops[s->max_pc[o]].line;
				ro->max_path = op_paths(r, i, s->max_pc[o]);
				free(ro->max_file);
				ro->max_file =
					strdup(prog_of(r, i)->name);
			}
			hist_add(&ro->h, h);
		}
		res->nwarn += s->nwarn;
		if (s->nwarn && res->nwarn_msgs < RESULT_MAX_MSGS)
			res->warn_msgs[res->nwarn_msgs++] = strdup(s->warn_msg);
	}
	for (int o = 0; o < OP_NR; o++) {
		const char *why = be_not_run(r->b, o);

		if (res->op[o].not_run && why &&
		    !(res->op[o].not_run_why = strdup(why)))
			return -1;
	}
	for (int i = 0; i < r->ndeaths; i++)
		add_error(res, r->deaths[i]);
	ticks_fill(r->ticks, res, bytes);
	return 0;
}

/* A client's message without its "client N at FILE:LINE: " (or "client
 * N: "), and N in *@id; the message itself and -1 if it is not one. */
static const char *msg_body(const char *m, int *id)
{
	const char *p = strstr(m, ": ");

	*id = -1;
	if (!p || sscanf(m, "client %d", id) != 1)
		return m;
	return p + 2;
}

/* The fatal messages, once each: clients that failed the same way (a
 * server that went away) are named after the first one's. */
static void print_failures(struct runner *r)
{
	char **e = r->res->errors;

	for (int i = 0; i < r->res->nerrors; i++) {
		int id, other, n = 0;
		const char *body = msg_body(e[i], &id);
		bool dup = false;

		for (int j = 0; j < i && id >= 0 && !dup; j++)
			dup = !strcmp(msg_body(e[j], &other), body) &&
			      other >= 0;
		if (dup)
			continue;
		fprintf(stderr, "dbench-ng: %s", e[i]);
		for (int j = i + 1; j < r->res->nerrors && id >= 0; j++) {
			if (!strcmp(msg_body(e[j], &other), body) &&
			    other >= 0)
				fprintf(stderr, "%s%d", n++ ? ", " : " (the same "
					"for client ", other);
		}
		fprintf(stderr, "%s\n", n ? ")" : "");
	}
	if (!r->res->nerrors)
		fprintf(stderr, "dbench-ng: a client process failed\n");
}

/* ------------------------------ the run -------------------------------- */

static int start_children(struct runner *r)
{
	const struct config *cfg = r->cfg;
	sigset_t mask;

	stopsig_set(&mask);
	sigaddset(&mask, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &mask, NULL) ||
	    (r->sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK)) < 0 ||
	    pipe2(r->barrier, O_CLOEXEC)) {
		fprintf(stderr, "dbench-ng: cannot set up signals: %s\n",
			strerror(errno));
		return -1;
	}
	fflush(r->out);
	fflush(stderr);
	for (int p = 0; p < cfg->nprocs; p++) {
		pid_t pid = fork();

		if (pid < 0) {
			fprintf(stderr,
				"dbench-ng: fork of process %d of %d "
				"failed: %s\n",
				p + 1, cfg->nprocs, strerror(errno));
			r->failed = true;
			return -1;
		}
		if (pid == 0)
			child_main(r, p);
		r->pids[p] = pid;
		r->nalive++;
	}
	close(r->barrier[0]);
	return 0;
}

/*
 * The parent's ticks must not wait behind the clients for the CPU: with far
 * more busy clients than CPUs a nice-0 parent gets 1/(N+1) of it and a tick
 * (which merges every client's histograms) took seconds.  So, after the
 * last fork (the clients keep the user's priority: what they ask of the
 * kernel is measured as the user set it) and after the watchdog thread
 * started, the main thread alone raises its priority as far as it may
 * (nice -20 with CAP_SYS_NICE, else what RLIMIT_NICE allows, else not at
 * all), and drops back once the clients are gone.  The CPU the ticks take
 * is the same either way; only when they get it changes (design.md §4).
 * Returns false if the nice value @old could not be read (nothing done).
 */
static bool raise_priority(int *old)
{
	struct rlimit rl;
	int want;

	errno = 0;
	*old = getpriority(PRIO_PROCESS, 0); /* this thread (Linux) */
	if (errno)
		return false;
	if (!setpriority(PRIO_PROCESS, 0, -20) || getrlimit(RLIMIT_NICE, &rl))
		return true;
	want = rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= 40
		       ? -20
		       : 20 - (int)rl.rlim_cur;
	if (want < *old)
		setpriority(PRIO_PROCESS, 0, want);
	return true;
}

static void run_phases(struct runner *r)
{
	const struct config *cfg = r->cfg;
	struct shm_hdr *hdr = &r->shm->hdr;
	uint64_t next;
	bool reniced;
	int nice;

	ticks_prepare(r->ticks);
	fprintf(r->out, "releasing clients\n");
	fflush(r->out);

	/* before the release: once the clients run, a nice-0 parent may
	 * wait seconds for the CPU to do either (the watchdog reads the
	 * release time only when it records a stall) */
	if (cfg->stall_ms > 0) {
		struct watchdog_cfg wc = {
			.shm = r->shm,
			.nclients = cfg->nclients,
			.threshold_ns = (uint64_t)cfg->stall_ms * NSEC_PER_MSEC,
			.poll_ns = 5 * NSEC_PER_MSEC,
			.sample_ns = 100 * NSEC_PER_MSEC,
			.proc = "/proc",
			.describe = describe_stall,
			.ctx = r,
			.out = &r->res->stalls,
		};

		r->wd = watchdog_start(&wc);
		if (!r->wd)
			fprintf(stderr, "dbench-ng: cannot start the stall "
				"watchdog: %s\n", strerror(errno));
	}
	reniced = raise_priority(&nice);
	disturb_snap("/proc", clock_ns(),
		     disturb_own_ns("/proc", r->pids, cfg->nprocs, r->kids0_ns),
		     &r->dsnap0);
	ticks_release(r->ticks, clock_ns()); /* and the deadlines */
	__atomic_store_n(&hdr->go, 1, __ATOMIC_SEQ_CST);
	close(r->barrier[1]);
	r->barrier[1] = -1;

	next = hdr->start_ns + NSEC_PER_SEC;
	while (r->nalive > 0) {
		uint64_t now;

		wait_events(r, next);
		now = clock_ns();
		if (now >= next) {
			/* ticks follow the phase start */
			if (ticks_tick(r->ticks, now))
				next = r->ticks->phase_start;
			if (cfg->show_exec_time)
				ticks_passes(r->ticks);
			fflush(r->out);
			while (next <= now)
				next += NSEC_PER_SEC;
		}
	}
	if (reniced) /* before the next --runs run forks */
		setpriority(PRIO_PROCESS, 0, nice);
	{
		struct disturb_snap end;

		/* every client reaped: their CPU time is in RUSAGE_CHILDREN */
		disturb_snap("/proc", clock_ns(),
			     disturb_own_ns("/proc", NULL, 0, r->kids0_ns),
			     &end);
		disturb_fill(&r->dsnap0, &end, sysconf(_SC_CLK_TCK), "/sys",
			     &r->res->disturb);
	}
	watchdog_stop(r->wd);
	r->wd = NULL;
	if (cfg->show_exec_time)
		ticks_passes(r->ticks);
	for (int i = 0; i < cfg->nclients; i++) {
		if (slot(r, i)->pass_dropped)
			fprintf(stderr, "dbench-ng: client %d: %" PRIu64 " pass "
				"times not printed (more than %d passes in a "
				"second)\n", i, (uint64_t)slot(r, i)->pass_dropped,
				PASS_RING);
	}
	/* every child is gone: the final cleanup line, as dbench prints */
	ticks_end(r->ticks, clock_ns());
}

int runner_run(const struct config *cfg, FILE *out, struct program **progs,
	       int nprogs, const struct backend *b, struct be_run *run,
	       struct result *res, bool *measured)
{
	struct runner r = {
		.cfg = cfg,
		.progs = progs,
		.nprogs = nprogs,
		.b = b,
		.run = run,
		.res = res,
		.out = out,
		.barrier = {-1, -1},
		.sigfd = -1,
		.parent = getpid(),
	};
	bool *dirty = NULL;
	int rc = 3;

	*measured = false;
	r.shm = shm_alloc(cfg->nclients);
	r.pids = calloc((size_t)cfg->nprocs, sizeof(*r.pids));
	r.reaped = calloc((size_t)cfg->nprocs, sizeof(*r.reaped));
	dirty = calloc((size_t)cfg->nclients, sizeof(*dirty));
	r.ticks = ticks_new(cfg, r.shm, res, r.out);
	if (!r.shm || !r.pids || !r.reaped || !dirty ||
	    !r.ticks) {
		fprintf(stderr,
			"dbench-ng: cannot allocate memory for %d "
			"clients: %s\n",
			cfg->nclients, strerror(errno));
		goto out;
	}
	r.kids0_ns = disturb_children_ns();
	if (start_children(&r) == 0 && wait_ready(&r) == 0) {
		run_phases(&r);
	} else {
		shm_set_stop(r.shm, r.interrupted ? STOP_SIGNAL : STOP_FAILED);
		if (r.barrier[1] >= 0)
			close(r.barrier[1]); /* releases them to exit */
		while (r.nalive > 0)
			wait_events(&r, clock_ns() + NSEC_PER_SEC);
		if (!r.interrupted)
			r.failed = true;
	}

	if (r.shm->hdr.stop == STOP_SIGNAL && !r.interrupted &&
	    r.shm->hdr.stop_signal) {
		/* a client process was sent SIGTERM/SIGHUP: it stopped the
		 * run, which is therefore interrupted, not complete */
		r.interrupted = (int)r.shm->hdr.stop_signal;
		fprintf(stderr, "dbench-ng: a client process received signal "
			"%d (%s): the run was stopped\n", r.interrupted,
			strsignal(r.interrupted));
	}
	for (int i = 0; i < cfg->nclients; i++)
		dirty[i] = !slot(&r, i)->cleaned;

	if (fill_result(&r)) {
		fprintf(stderr, "dbench-ng: out of memory for the result\n");
		rc = 3;
	} else if (r.failed) {
		/* the cause first, then what the clean-up has to say */
		print_failures(&r);
		rc = r.ticks->phase_start ? 1 : 3;
	} else {
		rc = r.interrupted ? 128 + r.interrupted : 0;
	}
	if (b->fini) /* NULL: keep every tree */
		b->fini(run, cfg->skip_cleanup ? NULL : dirty);
	/* what was measured, also after a failure once the clients ran */
	*measured = rc != 3 && (!r.failed || r.ticks->phase_start);
out:
	if (r.sigfd >= 0) /* one per run with --runs: do not leak it */
		close(r.sigfd);
	ticks_free(r.ticks);
	free(dirty);
	free(r.pids);
	free(r.reaped);
	shm_free(r.shm, cfg->nclients);
	return rc;
}
