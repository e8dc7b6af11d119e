/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * runner.c - one run on this host: its phases (design.md §4, compat.md).
 *
 * The parent forks one process per NPROCS, each running
 * --clients-per-process clients.  A child sets up its clients, marks them
 * ready in shared memory and blocks reading a pipe; the parent closes the
 * pipe's write end to release everyone at once (no SysV IPC).  Children
 * die with the parent (PR_SET_PDEATHSIG) and never print.  The parent
 * waits on a signalfd with a timeout to the next one-second tick, so a
 * dead child or a signal is seen at once and ticks do not drift.
 *
 * This file is the phase loop of a run on one host, read at once; the
 * processes are runner_procs.c's, the result runner_result.c's, and a
 * run across hosts runner_mpi.c's (runner_impl.h: the shared state).
 */
#include "runner.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "runner_impl.h"

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

	r->trace = offcpu_trace_start(
		r->pids, r->cfg->nprocs, r->cfg->cpp, r->first,
		(uint64_t)r->cfg->stall_ms * NSEC_PER_MSEC, r->cfg->no_bpf, why,
		sizeof(why));
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
		fprintf(stderr,
			"dbench-ng: BPF tracing unavailable: %s; "
			"stalls get /proc sampling only\n",
			why);
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
			.max_samples = WATCHDOG_SAMPLES_PER_POLL,
			.proc = "/proc",
			.describe = runner_describe_stall,
			.ctx = r,
			.out = &r->res->stalls,
		};

		start_tracing(r);
		wc.offcpu = offcpu_trace_book(r->trace);
		r->wd = watchdog_start(&wc);
		if (!r->wd)
			fprintf(stderr,
				"dbench-ng: cannot start the stall "
				"watchdog: %s\n",
				strerror(errno));
	}
	reniced = raise_priority(&nice);
	foreign_attach(r->fg, r->pids, cfg->nprocs); /* before the release */
	disturb_snap("/proc", clock_ns(),
		     disturb_own_ns("/proc", r->pids, cfg->nprocs, r->kids0_ns),
		     &r->dsnap0);
	if (r->co && !runner_all_ready(r, true)) {
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
		fprintf(r->out,
			"%d of %d processes prepared for launch %3.0f "
			"sec\n",
			r->co->nprocs, r->co->nprocs,
			(double)(hdr->start_ns - r->ready_t0) / 1e9);
		fprintf(r->out, "releasing clients\n");
		fflush(r->out);
	}

	next = hdr->start_ns + NSEC_PER_SEC;
	if (r->co)
		runner_coord_loop(r);
	while (!r->co && r->nalive > 0) {
		uint64_t now;

		runner_wait_events(r, next);
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
			fprintf(stderr,
				"dbench-ng: client %d: %" PRIu64 " pass "
				"times not printed (more than %d passes in a "
				"second)\n",
				i, (uint64_t)slot(r, i)->pass_dropped,
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
	r.shm_fd = -1;
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
		runner_add_error(res, "cannot allocate memory for the clients");
		goto out;
	}
	r.kids0_ns = disturb_children_ns();
	/* before the fork: the clients inherit the BPF counters' mapping */
	r.fg = foreign_new(cfg->nprocs, getpid(), cfg->no_bpf, "/proc");
	ok = runner_start_children(&r) == 0 && runner_wait_ready(&r) == 0;
	if (!ok && co && !co->lost)
		runner_all_ready(&r, false); /* tell the other hosts */
	if (!ok || run_phases(&r)) {
		shm_set_stop(r.shm, r.interrupted ? STOP_SIGNAL : STOP_FAILED);
		if (r.barrier[1] >= 0)
			close(r.barrier[1]); /* releases them to exit */
		while (r.nalive > 0)
			runner_wait_events(&r, clock_ns() + NSEC_PER_SEC);
		if (!r.interrupted)
			r.failed = true;
	}

	if (r.shm->hdr.stop == STOP_SIGNAL && !r.interrupted &&
	    r.shm->hdr.stop_signal) {
		/* a client process was sent SIGTERM/SIGHUP: it stopped the
		 * run, which is therefore interrupted, not complete */
		r.interrupted = (int)r.shm->hdr.stop_signal;
		fprintf(stderr,
			"dbench-ng: a client process received signal "
			"%d (%s): the run was stopped\n",
			r.interrupted, strsignal(r.interrupted));
	}
	for (int i = 0; i < cfg->nclients; i++)
		dirty[i] = !slot(&r, i)->cleaned;

	if (runner_fill_result(&r)) {
		fprintf(stderr, "dbench-ng: out of memory for the result\n");
		rc = 3;
		if (co)
			coord_lose(co); /* mpirun ends the others */
	} else if (r.failed) {
		/* the cause first, then what the clean-up has to say (across
		 * hosts, rank 0 prints every host's, in runner_coord_end()) */
		if (!co)
			runner_print_failures(r.res);
		rc = r.ticks->phase_start ? 1 : 3;
	} else {
		rc = runner_cut_short(&r) ? 128 + r.interrupted : 0;
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
		rc = runner_coord_end(&r, rc);
	} else {
		if (co)
			rc = runner_coord_end(&r, rc);
		if (b->fini) /* NULL: keep every tree */
			b->fini(run, cfg->skip_cleanup ? NULL : dirty);
	}
	/* what was measured, also after a failure once the clients ran */
	*measured = rc != 3 &&
		    (res->status != RESULT_FAILED || r.ticks->phase_start);
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
