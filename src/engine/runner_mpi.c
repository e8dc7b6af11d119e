/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * runner_mpi.c - a run across hosts (docs/mpi.md) as the runner sees it:
 * the barrier of every host before the release, the loop of ticks and
 * agreements until no host has a client left, and the end, where every
 * host's result goes to rank 0.  One host never calls into this file.
 */
#include <stdio.h>
#include <stdlib.h>

#include "runner_impl.h"

/* What a coordinator calls while it waits for the other hosts and the
 * signalfd is readable: true when a signal stops this host. */
bool runner_coord_events(void *arg)
{
	struct runner *r = arg;

	runner_drain_signals(r);
	return r->interrupted != 0;
}

/*
 * The end of a run across hosts: this host's own figures (its bytes over
 * the measured time, the largest latency figure of its execute points),
 * then every host's result to rank 0, which merges them into the run's
 * (lost: what it has, with the run's statistics up to its last point),
 * gives it the run's figures and prints the failures of every host.
 * Returns the run's exit status, the same on every host.
 */
int runner_coord_end(struct runner *r, int rc)
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
		use = st = runner_local_stats(r);
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
			runner_print_failures(run);
	}
	return rc;
}

/* Across hosts: the barrier before the release.  @ok: this host's
 * clients are ready.  True when every host's are. */
bool runner_all_ready(struct runner *r, bool ok)
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
		fprintf(stderr,
			"dbench-ng: host %s rank %d could not set up "
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

	if (r->told || co->rank ||
	    (c->stop != STOP_FAILED && c->stop != STOP_SIGNAL) ||
	    c->stop_rank == COORD_NO_RANK || !c->stop_rank)
		return;
	r->told = true;
	fprintf(stderr,
		"dbench-ng: host %s rank %d: %s: stopping every "
		"rank\n",
		co->host(co, (int)c->stop_rank), (int)c->stop_rank,
		c->stop == STOP_FAILED ? "a client failed"
				       : "a client process received a signal");
}

/* The loop of a run across hosts: the ticks and, once the run is
 * stopping, an agreement every 100 ms between them, until no host has a
 * client process left.  Every host makes the same ones in the same
 * order (they are the hosts' agreements): a tick that comes late skips
 * the seconds the latest host has passed, not those this one has.  Lost,
 * this host goes on alone. */
void runner_coord_loop(struct runner *r)
{
	const struct config *cfg = r->cfg;
	struct ticks *t = r->ticks;
	uint64_t start = r->shm->hdr.start_ns, next = start + NSEC_PER_SEC;

	r->poll_next = UINT64_MAX;
	while (r->co->lost
		       ? r->nalive > 0 && clock_ns() < r->lost_ns + LOST_WAIT_NS
		       : r->alive_all > 0) {
		uint64_t now, sched;

		if (r->co->lost) {
			if (!r->lost_ns) /* lost while waiting: a timeout */
				r->lost_ns = clock_ns();
			runner_wait_events(r, r->lost_ns + LOST_WAIT_NS);
			continue;
		}
		runner_wait_events(r,
				   next < r->poll_next ? next : r->poll_next);
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
