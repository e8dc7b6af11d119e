/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * runner.c - process model and phases (design.md §4, compat.md).
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
#include "checkpoint.h"
#include "client.h"
#include "clock.h"
#include "loadfile.h"
#include "config.h"
#include "coord.h"
#include "disturb.h"
#include "foreign.h"
#include "offcpu_bpf.h"
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
	bool after_end;		  /* it came once the time limit had stopped
				   * the run: not its reason (shm.h) */
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
	struct offcpu_trace *trace; /* BPF tracing for the watchdog */
	struct checkpoint *ck;	    /* the --json file's, or NULL */
	struct foreign *fg;	    /* foreign CPU wait (own latencies) */
	FILE *out;		/* stdout, or stderr with --json - */

	/* a run across hosts (coord.h; NULL: one host): this host's clients
	 * are first .. first + nclients - 1; its own result goes to res,
	 * the run's (series, figures, and on rank 0 every host's merged)
	 * to run_res */
	struct coord *co;
	int first;
	struct result *run_res;
	uint64_t alive_all;	/* every host's processes, as last agreed */
	uint64_t poll_next;	/* the next agreement between ticks */
	bool told;		/* rank 0 said another host stopped the run */
	uint64_t lost_ns;	/* when this host began to go on alone */
	uint64_t ready_t0;	/* when wait_ready() began */
};

#define POLL_NS (100 * NSEC_PER_MSEC) /* agreements once stopping */
/* a host that goes on alone (lost) is ended by mpirun a second after its
 * SIGTERM: it waits this long for its clients, then reports; the clients
 * still cleaning up finish by themselves (they are told to stop) */
#define LOST_WAIT_NS (300 * NSEC_PER_MSEC)

/* The program of client @id (every host's numbering): -c A,B gives
 * process p the file p mod 2, as dbench does; the clients of one process
 * share it. */
static struct program *prog_of(const struct runner *r, int id)
{
	return r->progs[(id / r->cfg->cpp) % r->nprogs];
}

/* ---------------------------- the children ----------------------------- */

static struct shm_hdr *child_hdr;
static volatile sig_atomic_t parent_died;

/* The first reason stays: a SIGTERM after a failure or the time limit
 * changes nothing (stop_signal counts only with STOP_SIGNAL) */
static void child_stop(int sig)
{
	uint32_t none = 0;

	__atomic_compare_exchange_n(&child_hdr->stop_signal, &none,
				    (uint32_t)sig, false, __ATOMIC_SEQ_CST,
				    __ATOMIC_SEQ_CST);
	shm_hdr_set_stop(child_hdr, STOP_SIGNAL);
}

/* PR_SET_PDEATHSIG's own signal, so that a client can tell its parent's
 * death from a SIGTERM sent to it: it stops as for SIGTERM */
static void child_parent_died(int sig)
{
	(void)sig;
	parent_died = 1;
	child_stop(SIGTERM);
}

/*
 * Whether the parent is gone, so that the last client out removes what its
 * fini would have (orphaned).  The kernel sends PR_SET_PDEATHSIG when the
 * parent's main thread exits, before the parent's other threads (the
 * watchdog) have: until the last is gone getppid() still names the parent.
 * A client that cleaned up in that gap took its parent for alive, and
 * nobody removed DIR/clients (seen beside other work).  So a client whose
 * parent died waits for its re-parenting, up to 2 s.
 */
static bool parent_gone(const struct runner *r)
{
	for (int i = 0; parent_died && i < 400; i++) {
		if (getppid() != r->parent)
			return true;
		usleep(5000);
	}
	return getppid() != r->parent;
}

static void __attribute__((noreturn)) child_main(struct runner *r, int proc)
{
	const struct config *cfg = r->cfg;
	/* SA_RESTART: a call the signal interrupts goes on (the stop is
	 * seen after the op; the barrier's read ends with the release or
	 * the parent's death), rather than failing the op with EINTR */
	struct sigaction sa = {.sa_handler = child_stop,
			       .sa_flags = SA_RESTART};
	struct sigaction died = {.sa_handler = child_parent_died,
				 .sa_flags = SA_RESTART};
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
	/* a rank's clients leave its process group: when a rank dies,
	 * mpirun signals every other rank's group, SIGTERM then SIGKILL a
	 * second later, which would kill clients in the midst of removing
	 * their trees.  Their rank stops them, or the kernel does when it
	 * dies (PR_SET_PDEATHSIG), and they clean up as on one host */
	if (r->co)
		setpgid(0, 0);
	sigaction(SIGRTMIN + 1, &died, NULL);
	prctl(PR_SET_PDEATHSIG, SIGRTMIN + 1);
	if (getppid() != r->parent)
		_exit(3);
	close(r->sigfd);
	close(r->barrier[1]);

	cls = calloc((size_t)n, sizeof(*cls));
	if (!cls)
		_exit(3);
	for (int i = 0; i < n; i++) {
		int id = r->first + proc * n + i;
		struct client *cl = &cls[i];

		if (client_init(cl, id, cfg, prog_of(r, id), r->b, r->run,
				r->shm) ||
		    (r->b->setup && r->b->setup(&cl->be)))
			_exit(3);
		client_set_foreign(cl, foreign_counter(r->fg, proc));
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
	if (!cfg->skip_cleanup && r->b->orphaned && parent_gone(r))
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
		     "by signal %d (%s)", r->first / cpp + p, (int)pid, sig,
		     strsignal(sig));
	for (int i = p * cpp; i < (p + 1) * cpp && n > 0 && n < SLOT_MSG; i++) {
		const struct client_slot *s = slot(r, i);
		const struct program *prog = prog_of(r, r->first + i);
		const struct lf_op *op = &prog->ops[s->cur_op];

		if (s->state != SLOT_RUNNING)
			continue;
		n += snprintf(buf + n, SLOT_MSG - (size_t)n,
			      "; client %d was running %s at %s:%u", r->first + i,
			      op_info[op->type].keyword, prog->name, op->line);
	}
}

/*
 * Reap the children that have exited, @want or any (-1); note failures.
 * A wait for one pid costs the kernel a look at that child, one for any a
 * walk over every child, and 10000 clients that exit at the end made that
 * 10000 walks of 10000 (seconds): the signalfd names the child of each
 * SIGCHLD, and the walk is left to wait_events, once a wait ends (a
 * SIGCHLD that came while another was pending names no child).
 */
static void reap(struct runner *r, pid_t want)
{
	int st;
	pid_t pid;

	while ((pid = waitpid(want, &st, WNOHANG)) > 0) {
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
		if (want > 0)
			break;
	}
}

/* Handle pending signals; returns false if the signalfd failed. */
static void drain_signals(struct runner *r)
{
	struct signalfd_siginfo si;

	while (read(r->sigfd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGCHLD) {
			reap(r, (pid_t)si.ssi_pid);
			continue;
		}
		if (!r->interrupted) {
			r->interrupted = (int)si.ssi_signo;
			r->after_end = shm_set_stop(r->shm, STOP_SIGNAL) ==
				       STOP_TIME;
			/* across hosts: this one ends alone (mpirun ends the
			 * others when it ends, or sent the signal itself) */
			if (r->co)
				coord_lose(r->co);
			r->lost_ns = clock_ns();
			if (r->after_end)
				fprintf(stderr,
					"dbench-ng: signal %d (%s) after the "
					"time limit: the run is complete, "
					"its clean-up goes on\n",
					r->interrupted,
					strsignal(r->interrupted));
			else if (si.ssi_signo == SIGPIPE)
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

/* What a coordinator calls while it waits for the other hosts and the
 * signalfd is readable: true when a signal stops this host. */
static bool coord_events(void *arg)
{
	struct runner *r = arg;

	drain_signals(r);
	return r->interrupted != 0;
}

static void wait_events(struct runner *r, uint64_t until)
{
	struct pollfd pfd = {.fd = r->sigfd, .events = POLLIN};
	uint64_t now = clock_ns();
	int ms = until > now ? (int)((until - now + NSEC_PER_MSEC - 1) /
				     NSEC_PER_MSEC)
			     : 0;

	int rc = poll(&pfd, 1, ms);

	if (rc > 0)
		drain_signals(r);
	if (rc <= 0 || clock_ns() >= until)
		reap(r, -1); /* the children no SIGCHLD named */
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

	r->ready_t0 = t0;
	for (;;) {
		uint64_t now = clock_ns();

		ready = ready_procs(r);
		if (ready != last || now >= next_print) {
			fprintf(r->out, "%d of %d processes prepared for launch %3.0f "
			       "sec\n",
			       ready, r->co ? r->co->nprocs : r->cfg->nprocs,
			       (double)(now - t0) / 1e9);
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
	const struct program *prog = prog_of(r, r->first + client);

	if (pc >= prog->nops)
		pc = 0;
	ev->client = r->first + client; /* every host's numbering */
	ev->op = prog->ops[pc].type;
	ev->line = prog->ops[pc].line;
	ev->file = strdup(prog->name);
	ev->path = op_paths(r, r->first + client, pc);
}

static void add_error(struct result *res, const char *msg)
{
	if (res->nerrors < RESULT_MAX_MSGS)
		res->errors[res->nerrors++] = strdup(msg);
}

/* A paced run (client_paced: -R, or a loadfile with timestamps): the
 * response times of its paced clients, as the tables' ops (the measured
 * phase, slots of the last generation). */
static void fill_resp(struct runner *r, const struct stats *all)
{
	const struct config *cfg = r->cfg;
	struct result_resp *rr = &r->res->resp;

	/* the programs the clients run: process p runs p mod nprogs */
	for (int p = 0; p < r->nprogs && p < cfg->nprocs; p++)
		rr->valid = rr->valid || client_paced(cfg, r->progs[p]);
	if (!rr->valid)
		return;
	rr->pacing = cfg->target_rate > 0 ? RESP_RATE : RESP_TIMESTAMPS;
	rr->late_ms = (double)RESP_LATE_NS / 1e6;
	for (int o = 0; o < OP_NR; o++) {
		rr->late[o] += all->late[o];
		if (all->late_max[o] > rr->late_max_ns[o])
			rr->late_max_ns[o] = all->late_max[o];
		hist_add(&rr->h[o], &all->resp[o]);
	}
}

/*
 * Whether a signal cut the run short: one before the time limit, or a
 * second one after it that had to kill clients still in an op (the ops
 * they were in never ended, so the figures are not a whole run's).  A
 * signal after the time limit alone only hurries the clean-up: the
 * first reason, the time limit, stands.
 */
static bool cut_short(const struct runner *r)
{
	return r->interrupted && (!r->after_end || r->killed);
}

/* Merge the client slots into the result: the measured phase only. */
static int fill_result(struct runner *r)
{
	const struct config *cfg = r->cfg;
	struct shm_hdr *hdr = &r->shm->hdr;
	struct result *res = r->res;
	/* the histograms, merged exactly (ticks_final) */
	const struct stats *all = ticks_final(r->ticks);
	uint64_t bytes = 0;

	if (!all)
		return -1;
	res->status = r->failed ? RESULT_FAILED
		      : cut_short(r) ? RESULT_INTERRUPTED
				     : RESULT_OK;
	res->signal = cut_short(r) ? r->interrupted : 0;
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
			const struct hist_head *h =
				shm_head(r->shm, i, hdr->gen,
					 SS_HIST(SS_OP, o));

			rc->count[o] = h->count;
			rc->sum_ns[o] = h->sum;
			rc->max_ns[o] = h->max;
			ro->errors += s->st.errors[o];
			ro->bytes += s->st.bytes[o];
			ro->not_run += s->st.not_run[o];
			if (h->count && (!ro->h.count || h->max > ro->h.max)) {
				int id = r->first + i;

				free(ro->max_path);
				ro->max_client = id;
				ro->max_at_s = (double)(s->max_start_ns[o] -
							hdr->start_ns) / 1e9;
				ro->max_line = prog_of(r, id)
						       ->ops[s->max_pc[o]].line;
				ro->max_path = op_paths(r, id, s->max_pc[o]);
				free(ro->max_file);
				ro->max_file =
					strdup(prog_of(r, id)->name);
			}
			hist_head_add(&ro->h.head, h);
			if (s->st.nown) /* BPF: own latencies */
				ro->foreign_ns += s->st.foreign_ns[o];
		}
		res->nwarn += s->nwarn;
		if (s->nwarn && res->nwarn_msgs < RESULT_MAX_MSGS)
			res->warn_msgs[res->nwarn_msgs++] = strdup(s->warn_msg);
	}
	for (int o = 0; o < OP_NR; o++) {
		const char *why = be_not_run(r->b, o);

		res->op[o].h = all->op[o];
		if (all->own[o].count)
			res->op[o].own = all->own[o];

		if (res->op[o].not_run && why &&
		    !(res->op[o].not_run_why = strdup(why)))
			return -1;
	}
	for (int i = 0; i < r->ndeaths; i++)
		add_error(res, r->deaths[i]);
	fill_resp(r, all);
	ticks_fill(r->ticks, res, bytes);
	return foreign_fill(r->fg, res);
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
static void print_failures(const struct result *res)
{
	char *const *e = res->errors;

	for (int i = 0; i < res->nerrors; i++) {
		int id, other, n = 0;
		const char *body = msg_body(e[i], &id);
		bool dup = false;

		for (int j = 0; j < i && id >= 0 && !dup; j++)
			dup = !strcmp(msg_body(e[j], &other), body) &&
			      other >= 0;
		if (dup)
			continue;
		fprintf(stderr, "dbench-ng: %s", e[i]);
		for (int j = i + 1; j < res->nerrors && id >= 0; j++) {
			if (!strcmp(msg_body(e[j], &other), body) &&
			    other >= 0)
				fprintf(stderr, "%s%d", n++ ? ", " : " (the same "
					"for client ", other);
		}
		fprintf(stderr, "%s\n", n ? ")" : "");
	}
	if (!res->nerrors)
		fprintf(stderr, "dbench-ng: a client process failed\n");
}

/* This host's statistics of the measured phase: its clients' merged. */
static struct stats *local_stats(struct runner *r)
{
	const struct stats *all = ticks_final(r->ticks);
	struct stats *st = all ? malloc(sizeof(*st)) : NULL;

	if (st)
		*st = *all;
	return st;
}

/*
 * The end of a run across hosts: this host's own figures (its bytes over
 * the measured time, the largest latency figure of its execute points),
 * then every host's result to rank 0, which merges them into the run's
 * (lost: what it has, with the run's statistics up to its last point),
 * gives it the run's figures and prints the failures of every host.
 * Returns the run's exit status, the same on every host.
 */
static int coord_end(struct runner *r, int rc)
{
	struct coord *co = r->co;
	struct result *own = r->res, *run = r->run_res;
	struct stats *st = NULL;
	const struct stats *use;
	uint64_t bytes = 0;

	for (int o = 0; o < OP_NR; o++)
		bytes += own->op[o].bytes;
	if (own->measured_s > 0)
		own->throughput = 1e-6 * (double)bytes / own->measured_s;
	/* of the execute points, or of the warmup's for a run stopped in
	 * it (its figures are the warmup's: ticks_fill) */
	own->max_latency_ms = 0;
	for (uint32_t i = 0; i < own->npoints; i++) {
		if (own->points[i].warmup == !(own->measured_s > 0) &&
		    own->points[i].latency_ms > own->max_latency_ms)
			own->max_latency_ms = own->points[i].latency_ms;
	}
	if (co->lost) {
		use = ticks_run_stats(r->ticks);
	} else {
		use = st = local_stats(r);
		if (!st) {
			fprintf(stderr,
				"dbench-ng: out of memory for the result\n");
			coord_lose(co); /* mpirun ends the others */
			return 3;
		}
	}
	rc = co->ops->finish(co, run, own, use, rc);
	free(st);
	if (!co->rank) {
		bytes = 0;
		for (int o = 0; o < OP_NR; o++)
			bytes += run->op[o].bytes;
		ticks_fill(r->ticks, run, bytes);
		if (run->status == RESULT_FAILED)
			print_failures(run);
	}
	return rc;
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
	if (r->co) { /* watched while waiting for the other hosts */
		r->co->fd = r->sigfd;
		r->co->events = coord_events;
		r->co->arg = r;
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

/*
 * Trace the clients' off-CPU time with BPF for the watchdog (the clients
 * are at the barrier: none of their sleeps is missed), or say once why
 * not; the result says which method explained the stalls.
 */
static void start_tracing(struct runner *r)
{
	static bool said; /* once, not per run of --runs */
	struct result_offcpu_run *o = &r->res->stalls.offcpu;
	char why[400];

	r->trace = offcpu_trace_start(r->pids, r->cfg->nprocs, r->cfg->cpp,
				      r->first,
				      (uint64_t)r->cfg->stall_ms *
					      NSEC_PER_MSEC,
				      r->cfg->no_bpf, why, sizeof(why));
	if (r->trace)
		return;
	o->method = strdup("proc");
	o->method_note = strdup(why);
	if (said)
		return;
	said = true;
	if (r->cfg->no_bpf)
		fprintf(stderr, "dbench-ng: BPF tracing off (--no-bpf): "
			"stalls get /proc sampling only\n");
	else
		fprintf(stderr, "dbench-ng: BPF tracing unavailable: %s; "
			"stalls get /proc sampling only\n", why);
}

/* Across hosts: the barrier before the release.  @ok: this host's
 * clients are ready.  True when every host's are. */
static bool all_ready(struct runner *r, bool ok)
{
	struct coord *co = r->co;
	struct coord_ctl c;

	coord_ctl_init(&c);
	if (!ok) {
		c.stop = STOP_FAILED;
		c.stop_rank = (uint64_t)co->rank;
	}
	c.alive = (uint64_t)r->nalive;
	if (coord_agree(co, &c))
		return false; /* a signal: this host ends alone */
	r->alive_all = c.alive;
	if (c.stop && !co->rank && c.stop_rank != 0)
		fprintf(stderr, "dbench-ng: host %s rank %d could not set up "
			"its clients: stopping every rank\n",
			co->host(co, (int)c.stop_rank), (int)c.stop_rank);
	/* every host is ready: leave together (ok is the same for all) */
	return !c.stop && !co->ops->barrier(co);
}

/* Across hosts, rank 0: say once which host stopped the run, if another
 * one did (its own messages come with the results). */
static void remote_stop(struct runner *r)
{
	const struct coord_ctl *c = &r->ticks->ctl;
	struct coord *co = r->co;

	if (r->told || co->rank || (c->stop != STOP_FAILED &&
				     c->stop != STOP_SIGNAL) ||
	    c->stop_rank == COORD_NO_RANK || !c->stop_rank)
		return;
	r->told = true;
	fprintf(stderr, "dbench-ng: host %s rank %d: %s: stopping every "
		"rank\n", co->host(co, (int)c->stop_rank), (int)c->stop_rank,
		c->stop == STOP_FAILED ? "a client failed"
				       : "a client process received a signal");
}

/* The ticks are in the measured phase (foreign_tick) */
static bool measuring(const struct ticks *t)
{
	return t->phase == TICKS_EXECUTE && !t->cleanup;
}

/* The loop of a run across hosts: the ticks and, once the run is
 * stopping, an agreement every 100 ms between them, until no host has a
 * client process left.  Every host makes the same ones in the same
 * order (they are the hosts' agreements): a tick that comes late skips
 * the seconds the latest host has passed, not those this one has.  Lost,
 * this host goes on alone. */
static void coord_loop(struct runner *r)
{
	const struct config *cfg = r->cfg;
	struct ticks *t = r->ticks;
	uint64_t start = r->shm->hdr.start_ns, next = start + NSEC_PER_SEC;

	r->poll_next = UINT64_MAX;
	while (r->co->lost ? r->nalive > 0 && clock_ns() < r->lost_ns +
							LOST_WAIT_NS
			   : r->alive_all > 0) {
		uint64_t now, sched;

		if (r->co->lost) {
			if (!r->lost_ns) /* lost while waiting: a timeout */
				r->lost_ns = clock_ns();
			wait_events(r, r->lost_ns + LOST_WAIT_NS);
			continue;
		}
		wait_events(r, next < r->poll_next ? next : r->poll_next);
		now = clock_ns();
		if (r->co->lost)
			continue;
		if (r->poll_next < next && now >= r->poll_next) {
			t->alive = (uint64_t)r->nalive;
			if (!ticks_agree(t, now))
				r->alive_all = t->alive;
			r->poll_next += POLL_NS;
			if (r->poll_next >= next) /* the tick does it */
				r->poll_next = next + POLL_NS;
			remote_stop(r);
			continue;
		}
		if (now < next)
			continue;
		sched = next;
		t->alive = (uint64_t)r->nalive;
		/* ticks follow the phase start */
		if (ticks_tick(t, now))
			next = t->phase_start;
		ckpt_offer(r->ck, t, r->wd, now);
		foreign_tick(r->fg, measuring(t));
		if (!r->co->lost)
			r->alive_all = t->alive;
		if (cfg->show_exec_time)
			ticks_passes(t);
		fflush(r->out);
		/* the first whole second after the latest host's clock */
		while (next <= start + t->ctl.now_ns)
			next += NSEC_PER_SEC;
		if (t->ctl.stop && r->poll_next == UINT64_MAX)
			r->poll_next = sched + POLL_NS;
		remote_stop(r);
	}
}

/* Run the phases; -1 when another host could not set up its clients
 * (nothing was released). */
static int run_phases(struct runner *r)
{
	const struct config *cfg = r->cfg;
	struct shm_hdr *hdr = &r->shm->hdr;
	uint64_t next;
	bool reniced;
	int nice;

	ticks_prepare(r->ticks);
	if (!r->co) {
		fprintf(r->out, "releasing clients\n");
		fflush(r->out);
	}

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

		start_tracing(r);
		wc.offcpu = offcpu_trace_book(r->trace);
		r->wd = watchdog_start(&wc);
		if (!r->wd)
			fprintf(stderr, "dbench-ng: cannot start the stall "
				"watchdog: %s\n", strerror(errno));
	}
	reniced = raise_priority(&nice);
	foreign_attach(r->fg, r->pids, cfg->nprocs); /* before the release */
	disturb_snap("/proc", clock_ns(),
		     disturb_own_ns("/proc", r->pids, cfg->nprocs, r->kids0_ns),
		     &r->dsnap0);
	if (r->co && !all_ready(r, true)) {
		watchdog_stop(r->wd);
		r->wd = NULL;
		if (reniced)
			setpriority(PRIO_PROCESS, 0, nice);
		return -1;
	}
	/* across hosts, right after the barrier: every host's phases are
	 * timed from its own release (docs/mpi.md, "Clocks") */
	ticks_release(r->ticks, clock_ns()); /* and the deadlines */
	foreign_tick(r->fg, measuring(r->ticks));
	__atomic_store_n(&hdr->go, 1, __ATOMIC_SEQ_CST);
	close(r->barrier[1]);
	r->barrier[1] = -1;
	if (r->co) {
		r->co->release_ns = hdr->start_ns;
		fprintf(r->out, "%d of %d processes prepared for launch %3.0f "
			"sec\n", r->co->nprocs, r->co->nprocs,
			(double)(hdr->start_ns - r->ready_t0) / 1e9);
		fprintf(r->out, "releasing clients\n");
		fflush(r->out);
	}

	next = hdr->start_ns + NSEC_PER_SEC;
	if (r->co)
		coord_loop(r);
	while (!r->co && r->nalive > 0) {
		uint64_t now;

		wait_events(r, next);
		now = clock_ns();
		if (now >= next) {
			/* ticks follow the phase start */
			if (ticks_tick(r->ticks, now))
				next = r->ticks->phase_start;
			ckpt_offer(r->ck, r->ticks, r->wd, now);
			foreign_tick(r->fg, measuring(r->ticks));
			if (cfg->show_exec_time)
				ticks_passes(r->ticks);
			fflush(r->out);
			while (next <= now)
				next += NSEC_PER_SEC;
		}
	}
	/* before the next --runs run forks; a host that goes on alone
	 * (lost) has no next run, and a second to report */
	if (reniced && !(r->co && r->co->lost))
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
	offcpu_trace_stop(r->trace); /* after the watchdog's last look */
	r->trace = NULL;
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
	return 0;
}

int runner_run(const struct config *cfg, FILE *out, struct program **progs,
	       int nprogs, const struct backend *b, struct be_run *run,
	       struct coord *co, struct checkpoint *ck, struct result *res,
	       bool *measured)
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
		.co = co,
		.first = run->first_id,
		.run_res = res,
		.alive_all = 1,
		.ck = ck,
	};
	bool *dirty = NULL, ok;
	int rc = 3;

	*measured = false;
	r.shm = shm_alloc(cfg->nclients);
	r.pids = calloc((size_t)cfg->nprocs, sizeof(*r.pids));
	r.reaped = calloc((size_t)cfg->nprocs, sizeof(*r.reaped));
	dirty = calloc((size_t)cfg->nclients, sizeof(*dirty));
	if (co) /* this host's own result; res gets the run's */
		r.res = result_new();
	r.ticks = r.res ? ticks_new(cfg, r.shm, r.res, r.out) : NULL;
	if (!r.shm || !r.pids || !r.reaped || !dirty || !r.ticks ||
	    (co && ticks_coord(r.ticks, co, res))) {
		fprintf(stderr,
			"dbench-ng: cannot allocate memory for %d "
			"clients: %s\n",
			cfg->nclients, strerror(errno));
		/* no client ran: undo what init made (DIR/clients); the
		 * result (of --json) says it failed, as for a failed fork */
		if (b->orphaned)
			b->orphaned(run);
		res->status = RESULT_FAILED;
		add_error(res, "cannot allocate memory for the clients");
		goto out;
	}
	r.kids0_ns = disturb_children_ns();
	/* before the fork: the clients inherit the BPF counters' mapping */
	r.fg = foreign_new(cfg->nprocs, getpid(), cfg->no_bpf, "/proc");
	ok = start_children(&r) == 0 && wait_ready(&r) == 0;
	if (!ok && co && !co->lost)
		all_ready(&r, false); /* tell the other hosts */
	if (!ok || run_phases(&r)) {
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
		if (co)
			coord_lose(co); /* mpirun ends the others */
	} else if (r.failed) {
		/* the cause first, then what the clean-up has to say (across
		 * hosts, rank 0 prints every host's, in coord_end()) */
		if (!co)
			print_failures(r.res);
		rc = r.ticks->phase_start ? 1 : 3;
	} else {
		rc = cut_short(&r) ? 128 + r.interrupted : 0;
	}
	if (co && co->lost) {
		/* mpirun kills this rank a second after its SIGTERM: the
		 * clean-up first, and DIR/clients if it is the last one out
		 * (the others are being ended too), then the report.  Its
		 * clients still at work clean up by themselves (the last
		 * one out removes DIR/clients: orphaned) */
		if (!r.nalive && b->fini)
			b->fini(run, cfg->skip_cleanup ? NULL : dirty);
		if (!r.nalive && !cfg->skip_cleanup && b->orphaned)
			b->orphaned(run);
		rc = coord_end(&r, rc);
	} else {
		if (co)
			rc = coord_end(&r, rc);
		if (b->fini) /* NULL: keep every tree */
			b->fini(run, cfg->skip_cleanup ? NULL : dirty);
	}
	/* what was measured, also after a failure once the clients ran */
	*measured = rc != 3 && (res->status != RESULT_FAILED ||
				r.ticks->phase_start);
out:
	if (r.sigfd >= 0) /* one per run with --runs: do not leak it */
		close(r.sigfd);
	ticks_free(r.ticks);
	foreign_free(r.fg);
	if (co) {
		co->fd = -1;
		result_free(r.res);
	}
	free(dirty);
	free(r.pids);
	free(r.reaped);
	shm_free(r.shm, cfg->nclients);
	return rc;
}
