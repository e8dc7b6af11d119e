/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * stats.h - what one client measured: a latency histogram and an error
 * count per operation, and the lines of the ops its backend cannot run.  Plain data, no pointers: it lives in shared memory
 * and merges by addition.
 */
#ifndef DBNG_STATS_H
#define DBNG_STATS_H

#include "histogram.h"
#include "ops.h"

struct stats {
	uint64_t errors[OP_NR]; /* results that differed from the status */
	uint64_t bytes[OP_NR];	/* payload bytes (ReadX, WriteX) */
	struct hist op[OP_NR];
	uint64_t not_run[OP_NR]; /* lines of ops the backend cannot execute
				  * (backend.h: not_run): counted, not timed */

	/* A paced client's (-R, loadfile timestamps) response times: from
	 * each op's intended start (pace.h) to its end (docs/design.md §5).
	 * nresp counts them all: while it is 0 nothing below was written,
	 * and the merge and the reset leave those pages untouched. */
	uint64_t nresp;
	uint64_t late[OP_NR];	  /* started more than RESP_LATE_NS late */
	uint64_t late_max[OP_NR]; /* the largest lateness, ns */
	struct hist resp[OP_NR];

	/* With the BPF accounting of foreign CPU wait (engine/foreign.c):
	 * per op, its latency minus that wait ("own latency") and the wait
	 * itself.  nown counts the values: while it is 0 nothing below was
	 * written, and the merge and the reset leave those pages alone. */
	uint64_t nown;
	uint64_t foreign_ns[OP_NR];
	struct hist own[OP_NR];
};

/* An op that started more than this after its intended start is a late
 * start (docs/design.md §5): far above a timer's oversleep and the
 * scheduling noise of a busy machine, far below the stalls that make
 * ops queue. */
#define RESP_LATE_NS 10000000ULL

/* stats_reset - make @st empty; all-zero memory is already empty. */
void stats_reset(struct stats *st);

/* stats_add - @dst += @src (exact: sums, and the max of the maxima). */
void stats_add(struct stats *dst, const struct stats *src);

/* stats_add_series - stats_add without the own latencies: what the
 * per-second series reads (ticks.c), at no extra cost per tick */
void stats_add_series(struct stats *dst, const struct stats *src);

/*
 * stats_resp_count - the rule of stats_record_resp() without the
 * histogram, for any counters laid out as struct stats's (the client
 * slots' too, engine/slotstats.h): one more response time into *@nresp,
 * a late start into @late[op], the largest lateness into @late_max[op].
 * Returns the response time.
 */
static inline uint64_t stats_resp_count(uint64_t *nresp, uint64_t *late,
					uint64_t *late_max, int op,
					uint64_t due, uint64_t t0, uint64_t t1)
{
	uint64_t lt = t0 > due ? t0 - due : 0;

	(*nresp)++;
	if (lt > RESP_LATE_NS)
		late[op]++;
	if (lt > late_max[op])
		late_max[op] = lt;
	return t1 - t0 + lt;
}

/*
 * stats_record_resp - a paced op @op due at @due started at @t0 and ended
 * at @t1: its response time t1 - due into resp[op] (its service time,
 * t1 - t0, plus how late it started; an op that started before it was due
 * (a wait cut short) is measured from its start), and a late start when
 * it started more than RESP_LATE_NS after @due.  Returns the response
 * time.
 */
static inline uint64_t stats_record_resp(struct stats *st, int op,
					 uint64_t due, uint64_t t0,
					 uint64_t t1)
{
	uint64_t r = stats_resp_count(&st->nresp, st->late, st->late_max, op,
				      due, t0, t1);

	hist_record(&st->resp[op], r);
	return r;
}

/* stats_own_count - the rule of stats_record_own() without the histogram,
 * for any counters laid out as struct stats's: returns the own latency. */
static inline uint64_t stats_own_count(uint64_t *nown, uint64_t *foreign_ns,
				       int op, uint64_t d, uint64_t fw)
{
	uint64_t own = fw < d ? d - fw : 0;

	(*nown)++;
	foreign_ns[op] += d - own;
	return own;
}

/*
 * stats_record_own - a call of @op that took @d ns waited @fw ns of them
 * for a CPU that another program held: its own latency d - fw (0 when
 * the counters disagree) into own[op].  Returns it.
 */
static inline uint64_t stats_record_own(struct stats *st, int op, uint64_t d,
					uint64_t fw)
{
	uint64_t own = stats_own_count(&st->nown, st->foreign_ns, op, d, fw);

	hist_record(&st->own[op], own);
	return own;
}

#endif
