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
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend.h"
#include "client.h"
#include "clock.h"
#include "loadfile.h"
#include "options.h"
#include "report_text.h"
#include "result.h"
#include "shm.h"
#include "watchdog.h"

#define SETUP_TIMEOUT_S 30

enum phase { PH_WARMUP, PH_EXECUTE };

struct runner {
	const struct config *cfg;
	struct program **progs;
	int nprogs;
	const struct backend_ops *be;
	struct shm *shm;
	pid_t *pids;
	int *status; /* wait status per process */
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

	/* phases and dbench's figures */
	enum phase phase;
	bool cleanup;
	uint64_t phase_start, end_ns;
	uint64_t worst_ns; /* max of the execute-phase latency samples */
	double last_tput;  /* MB/s of the last execute line */
	bool printed_exec;

	/* what goes into the result, and the time series */
	struct result *res;
	struct watchdog *wd;
	FILE *out;		/* stdout, or stderr with --json - */
	uint64_t warmup_end_ns;
	struct stats *cum_prev;	/* merged counts at the last point */
	struct stats *cum_now;
	uint64_t prev_lines, prev_bytes, prev_point_ns;
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

		if (client_init(cl, id, cfg, prog_of(r, id), r->be,
				r->shm) ||
		    (r->be->setup && r->be->setup(cl)))
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
		if (!cfg->skip_cleanup && r->be->cleanup)
			r->be->cleanup(&cls[i]);
		cls[i].slot->cleaned = 1;
		if (cls[i].slot->state != SLOT_FAILED)
			cls[i].slot->state = SLOT_DONE;
	}
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

static void set_stop(struct runner *r, enum stop_reason why)
{
	uint32_t none = STOP_NONE;

	__atomic_compare_exchange_n(&r->shm->hdr.stop, &none, why, false,
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
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
		r->status[p] = st;
		r->nalive--;
		if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
			continue;
		if (r->killed && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
			continue;	/* we killed it: an interrupted run */
		r->failed = true;
		set_stop(r, STOP_FAILED);
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
			set_stop(r, STOP_SIGNAL);
			fprintf(stderr, "dbench-ng: interrupted by signal %d "
				"(%s): stopping the clients\n",
				r->interrupted, strsignal(r->interrupted));
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

/* Print the completed passes the clients queued (--show-execute-time). */
static void drain_passes(struct runner *r)
{
	for (int i = 0; i < r->cfg->nclients; i++) {
		struct client_slot *s = slot(r, i);
		uint64_t head =
			__atomic_load_n(&s->pass_head, __ATOMIC_ACQUIRE);

		while (s->pass_tail < head) {
			struct pass_rec *p = &s->pass[s->pass_tail % PASS_RING];

			fprintf(r->out, "%4d completed in %u ms at time %u ms\n", i,
			       p->ms, p->at_ms);
			s->pass_tail++;
		}
	}
}

static int clients_not_done(struct runner *r)
{
	int n = 0;

	for (int i = 0; i < r->cfg->nclients; i++)
		n += !slot(r, i)->cleaned;
	return n;
}

static void print_cleanup(struct runner *r, double t)
{
	if (r->cfg->machine) {
		/* later dbench: active, lines per client, MB/s, s, 0 */
		uint64_t lines = 0, bytes = 0;

		for (int i = 0; i < r->cfg->nclients; i++) {
			lines += slot(r, i)->lines;
			if (slot(r, i)->gen == r->shm->hdr.gen)
				bytes += slot(r, i)->bytes;
		}
		fprintf(r->out, "@C@%d@%" PRIu64 "@%.2f@%u@%.03f@\n",
			clients_not_done(r), lines / (uint64_t)r->cfg->nclients,
			t > 0 ? 1e-6 * (double)bytes / t : 0.0,
			(unsigned int)t, 0.0);
	} else
		fprintf(r->out, "%4d  cleanup %3.0f sec\n", clients_not_done(r),
			t);
}

/* Add one interval to the time series: lines and bytes done, dbench's
 * latency figure @lat, and per op the count, exact max and p99 of the
 * calls that ended in it (from the difference of the merged cumulative
 * histograms of the clients). */
static void add_point(struct runner *r, uint64_t now, uint64_t lines,
		      uint64_t bytes, uint64_t lat)
{
	static struct hist d;
	struct result_point p = {
		.t = (double)(now - r->shm->hdr.start_ns) / 1e9,
		.dur = (double)(now - r->prev_point_ns) / 1e9,
		.warmup = r->phase == PH_WARMUP,
		.lines = lines - r->prev_lines,
		.bytes = bytes > r->prev_bytes ? bytes - r->prev_bytes : 0,
		.latency_ms = (double)lat / 1e6,
	};
	struct stats *tmp;

	memset(r->cum_now, 0, sizeof(*r->cum_now));
	for (int i = 0; i < r->cfg->nclients; i++) {
		struct client_slot *s = slot(r, i);

		for (int o = 0; o < OP_NR; o++) {
			uint64_t m = __atomic_exchange_n(&s->tick_op_max[o], 0,
							 __ATOMIC_RELAXED);

			if (m > p.max_ns[o])
				p.max_ns[o] = m;
		}
		if (s->gen == r->shm->hdr.gen)
			stats_add(r->cum_now, &s->st);
	}
	for (int o = 0; o < OP_NR; o++) {
		hist_sub(&d, &r->cum_now->op[o], &r->cum_prev->op[o]);
		d.max = p.max_ns[o];
		p.count[o] = d.count;
		p.p99_ns[o] = hist_value_at(&d, 99);
	}
	tmp = r->cum_prev;
	r->cum_prev = r->cum_now;
	r->cum_now = tmp;
	r->prev_lines = lines;
	r->prev_bytes = bytes;
	r->prev_point_ns = now;
	result_add_point(r->res, &p);
}

/* Sum the clients' lines and (this phase's) bytes, and take dbench's
 * latency figure: the longest op that ended since the last tick, or the
 * age of one still running.  Returns how many clients have done I/O. */
static int sample(struct runner *r, uint64_t now, uint64_t *lines,
		  uint64_t *bytes, uint64_t *lat)
{
	struct shm_hdr *hdr = &r->shm->hdr;
	int active = 0;

	*lines = *bytes = *lat = 0;
	for (int i = 0; i < r->cfg->nclients; i++) {
		struct client_slot *s = slot(r, i);
		uint64_t m = __atomic_exchange_n(&s->tick_max_ns, 0,
						 __ATOMIC_RELAXED);
		uint64_t start = s->last_start_ns;

		if (s->state == SLOT_RUNNING && start && now > start &&
		    now - start > m)
			m = now - start;
		if (m > *lat)
			*lat = m;
		*lines += s->lines;
		if (s->gen == hdr->gen)
			*bytes += s->bytes;
		active += s->bytes != 0;
	}
	return active;
}

/* The one-second tick: dbench 4.0's progress logic (compat §3.3). */
static void tick(struct runner *r, uint64_t now)
{
	const struct config *cfg = r->cfg;
	struct shm_hdr *hdr = &r->shm->hdr;
	double t = (double)(now - r->phase_start) / 1e9, mbs;
	uint64_t lat, bytes, lines;
	int active;

	if (r->phase == PH_WARMUP && !hdr->stop && t > cfg->warmup) {
		/* the last part of the warmup gets its point (dbench prints
		 * no line for it), so the series loses no second */
		sample(r, now, &lines, &bytes, &lat);
		add_point(r, now, lines, bytes, lat);
		r->phase = PH_EXECUTE;
		r->phase_start = now;
		r->worst_ns = 0;
		r->warmup_end_ns = now;
		__atomic_add_fetch(&hdr->gen, 1, __ATOMIC_SEQ_CST);
		for (int i = 0; i < cfg->nclients; i++) {
			struct client_slot *sl = slot(r, i);

			__atomic_exchange_n(&sl->tick_max_ns, 0,
					    __ATOMIC_RELAXED);
			for (int o = 0; o < OP_NR; o++)
				__atomic_exchange_n(&sl->tick_op_max[o], 0,
						    __ATOMIC_RELAXED);
		}
		/* the series counts the execute phase from zero */
		memset(r->cum_prev, 0, sizeof(*r->cum_prev));
		r->prev_bytes = 0;
		r->prev_lines = 0;
		for (int i = 0; i < cfg->nclients; i++)
			r->prev_lines += slot(r, i)->lines;
		r->prev_point_ns = now;
		return;
	}
	if (r->phase == PH_EXECUTE && !hdr->stop && t > cfg->timelimit)
		set_stop(r, STOP_TIME);
	if (hdr->stop && !r->cleanup) {
		r->cleanup = true;
		r->end_ns = now;
		/* the measured phase's last, partial interval: its point */
		sample(r, now, &lines, &bytes, &lat);
		add_point(r, now, lines, bytes, lat);
	}
	if (t < 1)
		return;
	if (r->cleanup) {
		print_cleanup(r, t);
		return;
	}
	active = sample(r, now, &lines, &bytes, &lat);
	mbs = 1e-6 * (double)bytes / t;
	if (r->phase == PH_EXECUTE) {
		if (lat > r->worst_ns)
			r->worst_ns = lat;
		r->last_tput = mbs;
		r->printed_exec = true;
		active = cfg->nclients;
	}
	add_point(r, now, lines, bytes, lat);
	if (cfg->machine)
		fprintf(r->out, "@%c@%d@%" PRIu64 "@%.2f@%u@%.03f@\n",
		       r->phase == PH_EXECUTE ? 'R' : 'W', active,
		       lines / (uint64_t)cfg->nclients, mbs,
		       (unsigned int)t, (double)lat / 1e6);
	else
		/* dbench's "%8d", without its int overflow on long runs */
		fprintf(r->out, "%4d  %8" PRIu64 "  %7.2f MB/sec  %s %3.0f sec  "
		       "latency %.03f ms\n",
		       active, lines / (uint64_t)cfg->nclients, mbs,
		       r->phase == PH_EXECUTE ? "execute" : "warmup", t,
		       (double)lat / 1e6);
}

/* --------------------------- results ----------------------------------- */

/* The real path(s) of op @pc of client @id's program, for the result. */
static char *op_paths(struct runner *r, int id, uint32_t pc)
{
	struct client cl = {
		.id = id,
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
	for (int i = 0; i < r->ndeaths; i++)
		add_error(res, r->deaths[i]);
	if (r->warmup_end_ns)
		res->warmup_s = (double)(r->warmup_end_ns - hdr->start_ns) / 1e9;
	if (r->phase == PH_EXECUTE && r->end_ns > r->phase_start)
		res->measured_s = (double)(r->end_ns - r->phase_start) / 1e9;
	res->throughput = r->last_tput;
	if (!r->printed_exec && res->measured_s > 0)
		res->throughput = 1e-6 * (double)bytes / res->measured_s;
	res->max_latency_ms = (double)r->worst_ns / 1e6;
	return 0;
}

static void print_failures(struct runner *r)
{
	for (int i = 0; i < r->res->nerrors; i++)
		fprintf(stderr, "dbench-ng: %s\n", r->res->errors[i]);
	if (!r->res->nerrors)
		fprintf(stderr, "dbench-ng: a client process failed\n");
}

/* ------------------------------ the run -------------------------------- */

static int start_children(struct runner *r)
{
	const struct config *cfg = r->cfg;
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
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

static void run_phases(struct runner *r)
{
	const struct config *cfg = r->cfg;
	struct shm_hdr *hdr = &r->shm->hdr;
	uint64_t next;

	fprintf(r->out, "releasing clients\n");
	fflush(r->out);
	hdr->start_ns = clock_ns();
	r->phase_start = hdr->start_ns;
	r->prev_point_ns = hdr->start_ns;	/* the first point's start */
	r->phase = cfg->warmup > 0 ? PH_WARMUP : PH_EXECUTE;
	__atomic_store_n(&hdr->go, 1, __ATOMIC_SEQ_CST);
	close(r->barrier[1]);
	r->barrier[1] = -1;

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

	next = hdr->start_ns + NSEC_PER_SEC;
	while (r->nalive > 0) {
		uint64_t now;

		wait_events(r, next);
		now = clock_ns();
		if (now >= next) {
			enum phase before = r->phase;

			tick(r, now);
			if (r->phase !=
			    before) /* ticks follow the phase start */
				next = r->phase_start;
			if (cfg->show_exec_time)
				drain_passes(r);
			fflush(r->out);
			while (next <= now)
				next += NSEC_PER_SEC;
		}
	}
	watchdog_stop(r->wd);
	r->wd = NULL;
	/* every child is gone: the final cleanup line, as dbench prints */
	if (!r->cleanup) {
		r->cleanup = true;
		r->end_ns = clock_ns();
	}
	if (cfg->show_exec_time)
		drain_passes(r);
	for (int i = 0; i < cfg->nclients; i++) {
		if (slot(r, i)->pass_dropped)
			fprintf(stderr, "dbench-ng: client %d: %" PRIu64 " pass "
				"times not printed (more than %d passes in a "
				"second)\n", i, (uint64_t)slot(r, i)->pass_dropped,
				PASS_RING);
	}
	print_cleanup(r, (double)(clock_ns() - r->phase_start) / 1e9);
}

int runner_run(const struct config *cfg, struct program **progs, int nprogs,
	       const struct backend_ops *be, struct result *res)
{
	struct runner r = {
		.cfg = cfg,
		.progs = progs,
		.nprogs = nprogs,
		.be = be,
		.res = res,
		.out = opt_out(cfg),
		.barrier = {-1, -1},
		.sigfd = -1,
		.parent = getpid(),
	};
	bool *dirty = NULL;
	int rc = 3;

	r.shm = shm_alloc(cfg->nclients);
	r.pids = calloc((size_t)cfg->nprocs, sizeof(*r.pids));
	r.status = calloc((size_t)cfg->nprocs, sizeof(*r.status));
	r.reaped = calloc((size_t)cfg->nprocs, sizeof(*r.reaped));
	dirty = calloc((size_t)cfg->nclients, sizeof(*dirty));
	r.cum_prev = calloc(1, sizeof(*r.cum_prev));
	r.cum_now = calloc(1, sizeof(*r.cum_now));
	if (!r.shm || !r.pids || !r.status || !r.reaped || !dirty ||
	    !r.cum_prev || !r.cum_now) {
		fprintf(stderr,
			"dbench-ng: cannot allocate memory for %d "
			"clients: %s\n",
			cfg->nclients, strerror(errno));
		goto out;
	}
	if (start_children(&r) == 0 && wait_ready(&r) == 0) {
		run_phases(&r);
	} else {
		set_stop(&r, r.interrupted ? STOP_SIGNAL : STOP_FAILED);
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
		rc = r.phase_start ? 1 : 3;
	} else {
		rc = r.interrupted ? 128 + r.interrupted : 0;
	}
	if (be->fini)
		be->fini(cfg, dirty);
	/* what was measured, also after a failure once the clients ran */
	if (rc != 3 && (!r.failed || r.phase_start)) {
		report_text(r.out, res, NULL);
		fflush(r.out);
	}
out:
	if (r.sigfd >= 0) /* one per run with --runs: do not leak it */
		close(r.sigfd);
	free(r.cum_prev);
	free(r.cum_now);
	free(dirty);
	free(r.pids);
	free(r.status);
	free(r.reaped);
	shm_free(r.shm, cfg->nclients);
	return rc;
}
