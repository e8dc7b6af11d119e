/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ticks.h - the parent's one-second tick: phases (warmup, execute,
 * cleanup), dbench 4.0's progress lines and the per-second time series,
 * read from the clients' slots.
 *
 * Time is an argument: every call takes the monotonic time @now from its
 * caller and nothing here reads a clock, so the unit tests drive a run of
 * any length on a fake clock, tick by tick.
 */
#ifndef DBNG_TICKS_H
#define DBNG_TICKS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "coord.h"
#include "histogram.h"

struct config;
struct result;
struct shm;
struct ss_sink;
struct stats;

enum ticks_phase { TICKS_WARMUP, TICKS_EXECUTE };

struct ticks {
	const struct config *cfg;
	struct shm *shm;
	struct result *res; /* the time series goes to res->points */
	FILE *out;

	enum ticks_phase phase;
	bool cleanup;		/* the clients were told to stop */
	uint64_t phase_start;	/* 0 until the release */
	uint64_t end_ns;	/* when the cleanup began */
	uint64_t warmup_end_ns; /* 0: no warmup ended */
	/* the figures of the current phase's progress lines: a run
	 * stopped in the warmup reports the warmup's (ticks_fill) */
	uint64_t worst_ns;	/* max of the lines' latency */
	double last_tput;	/* MB/s of the last line */
	bool printed_warm, printed_exec;
	uint64_t close_lat;	/* the latency figure of the last part */
	/* the execute phase ran on a second or more past its deadline (ops
	 * in flight at the end run to their end): when its last op ended,
	 * and the longest of those lines (0: it did not) */
	uint64_t over_end_ns, over_lat;

	/* the series: merged counts at the last point, and the scratch
	 * histogram of one interval; the clients' histograms are drained
	 * into sink at every point (slotstats.h), final is the exact merge
	 * of the measured phase once the clients are gone (ticks_final) */
	struct stats *cum_prev, *cum_now;
	struct ss_sink *sink;
	struct stats *final;
	bool final_done;
	uint64_t prev_lines, prev_bytes, prev_point_ns;
	struct hist d;

	/* a run across hosts (coord.h; NULL: one host).  Every decision of
	 * a tick is taken on what the hosts agreed (ctl); res gets this
	 * host's series, and rank 0 makes the run's points from every
	 * host's figures into run, and prints them */
	struct coord *coord;
	struct result *run;
	int all_clients;	/* every host's clients (cfg->nclients) */
	uint64_t alive;		/* client processes alive: this host's
				 * before a tick, every host's after it */
	struct coord_ctl ctl;	/* what the last agreement said */
	bool lost;		/* the other hosts are no longer heard */
	struct stats *gcum, *gnow; /* rank 0: the run's cumulative stats at
				    * its last point, and the scratch */
	uint64_t gprev_lines, gprev_bytes, run_point_ns;
};

/* ticks_new - a ticker for the run of @cfg on the slots of @shm; NULL
 * when out of memory. */
struct ticks *ticks_new(const struct config *cfg, struct shm *shm,
			struct result *res, FILE *out);
void ticks_free(struct ticks *t);

/* ticks_coord - make @t the ticker of one host of a run across hosts
 * (@co): rank 0 puts the run's series into @run.  -1: out of memory. */
int ticks_coord(struct ticks *t, struct coord *co, struct result *run);

/* ticks_agree - agree with the other hosts at @now between ticks (every
 * 100 ms once the run is stopping): t->alive becomes every host's, and a
 * stop of another host stops this one's clients.  Returns -1 if lost. */
int ticks_agree(struct ticks *t, uint64_t now);

/* ticks_run_stats - rank 0: the run's cumulative statistics of the
 * current phase at its last point (all hosts): what is known of the
 * run once the other hosts are lost (without own latencies: the series
 * leaves them out, stats_add_series) */
const struct stats *ticks_run_stats(const struct ticks *t);

/* ticks_final - every client process is gone: the statistics of the
 * current generation of this host's clients, exact (slotstats.h:
 * ss_final); what stats_add gave over the slots of that generation.  NULL
 * when out of memory. */
const struct stats *ticks_final(struct ticks *t);

/* ticks_prepare - before the release: read what the ticks will read of
 * every slot, so that the parent's first tick, with the clients at work,
 * does not take a page fault for each of them. */
void ticks_prepare(struct ticks *t);

/* ticks_release - the clients are released at @now: the phase clock and
 * the series start. */
void ticks_release(struct ticks *t, uint64_t now);

/* ticks_tick - one tick at @now: end the warmup or the execute phase when
 * due, print one progress line (none in the first second), add a point
 * to the series.  Returns true when a new phase began at t->phase_start,
 * from which the next ticks count whole seconds. */
bool ticks_tick(struct ticks *t, uint64_t now);

/* ticks_passes - print the passes the clients completed since the last
 * call (--show-execute-time). */
void ticks_passes(struct ticks *t);

/* ticks_end - every client process is gone at @now: close the measured
 * phase if no tick did, give the ops that ran on a second or more past
 * its end a point of their own, and print the final cleanup line. */
void ticks_end(struct ticks *t, uint64_t now);

/* ticks_fill - dbench's figures into @res: warmup and measured seconds,
 * Throughput (the last execute line's MB/s) and max_latency (the largest
 * latency of the execute lines); if the execute phase ran on a second or
 * more past its deadline, both cover the whole phase instead: bytes up to
 * the end of its last op over that time, and every latency figure of the
 * phase and of the lines that ran on.  @bytes is what the clients moved
 * in the measured phase. */
void ticks_fill(const struct ticks *t, struct result *res, uint64_t bytes);

#endif
