/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * pace.h - when a paced client may start its next line: -R's byte rate,
 * loadfile timestamps, and the slices a long wait is cut into; and when
 * each line was due, its intended start, from which a paced run measures
 * response time (docs/design.md §5).  Pure functions of a state and the
 * time they are given (unit-tested on a fake clock in
 * tests/unit/test_pace.c); client.c reads the clock and sleeps.  The
 * pacing rules are dbench 4.0's (docs/compat.md).
 */
#ifndef DBNG_PACE_H
#define DBNG_PACE_H

#include <stdbool.h>
#include <stdint.h>

#include "clock.h"

/* a wait is cut into slices of this, so that a stop is seen in time */
#define PACE_SLICE_NS (50 * NSEC_PER_MSEC)

/* the longest wait or lag pace_rate_delay() returns, in s (2^62 ns) */
#define PACE_MAX_DELAY_S 4.611686018427387904e9

/* -R: the bytes moved since the pass start at the last paced line, and
 * when that line started (0: the pass has just begun); and where the
 * schedule of intended starts stands (pace_rate_due) */
struct pace_rate {
	uint64_t bytes;
	uint64_t ns;
	uint64_t sched;
};

/*
 * pace_rate_delay - the line that starts at @now after @bytes moved since
 * the pass start, at @rate bytes/s: > 0, the ns to sleep first; < 0, how
 * far behind the rate the client is (dbench's latency figure); 0, neither.
 * The first line of a pass, or one before any I/O, is never held.
 */
static inline int64_t pace_rate_delay(const struct pace_rate *p,
				      uint64_t bytes, uint64_t now, double rate)
{
	double delay;

	if (!p->ns || !bytes)
		return 0;
	delay = (double)(bytes - p->bytes) / rate - (double)(now - p->ns) / 1e9;
	/* a tiny rate (-R 1e-13) asks for more ns than int64_t holds: cap
	 * it at about 146 years, still a wait the time limit cuts short */
	if (!(delay < PACE_MAX_DELAY_S))
		delay = PACE_MAX_DELAY_S;
	if (delay < -PACE_MAX_DELAY_S)
		delay = -PACE_MAX_DELAY_S;
	return (int64_t)(delay * 1e9);
}

/* the bytes @b at @rate bytes/s, in ns, capped as pace_rate_delay caps */
static inline uint64_t pace_rate_ns(uint64_t b, double rate)
{
	double s = (double)b / rate;

	if (!(s < PACE_MAX_DELAY_S))
		s = PACE_MAX_DELAY_S;
	return (uint64_t)(s * 1e9);
}

/*
 * pace_rate_due - the intended start of the line that the pacer let go
 * at @now with @bytes moved since the pass start: when the byte schedule
 * allowed it, never later than @now.  The schedule stands at the intended
 * start of the previous line (p->sched) and moves on by the bytes that
 * line moved, at @rate (as pace_rate_delay charges them); a line after
 * one that moved no bytes is due with it.  The first line of a pass is
 * due when it starts (it is never held).  Where the schedule stands after a line is pace_rate_mark's
 * business.
 */
static inline uint64_t pace_rate_due(const struct pace_rate *p, uint64_t bytes,
				     uint64_t now, double rate)
{
	uint64_t due;

	if (!p->ns)
		return now;
	due = p->sched + pace_rate_ns(bytes - p->bytes, rate);
	return due < now ? due : now;
}

/*
 * pace_rate_mark - the line due at @due started at @now (after any sleep)
 * with @bytes moved; @waited: the pacer held it (pace_rate_delay > 0).
 *
 * The pacer's own schedule restarts from @now, as dbench's does: time
 * lost to a late wake-up, or to a line that ran late, is not caught up
 * (the client does not rush through the lines it fell behind on; it goes
 * on at the rate from where it is).
 *
 * The schedule of intended starts (p->sched) stays on the schedule while
 * the client is behind: after a line that ran late it stands at that
 * line's intended start, not at @now, so every line the client then runs
 * late, back to back, is measured from when it was due.  Only a line the
 * pacer held moves it to @now: a client that waits is not behind, the
 * pacer has forgiven the lag there, and a late wake-up (a timer's
 * oversleep, or the CPU came late) is the lateness of the line that woke
 * late alone, never carried on to the lines after it (they would
 * otherwise drift later by every oversleep of the run).
 */
static inline void pace_rate_mark(struct pace_rate *p, uint64_t bytes,
				  uint64_t now, uint64_t due, bool waited)
{
	p->bytes = bytes;
	p->ns = now;
	p->sched = waited ? now : due;
}

/*
 * pace_timestamp_late - a line stamped @ts_ns into a pass that began at
 * @pass_start: 0 if it is due later than @now (the client sleeps until
 * pass_start + ts_ns), otherwise how late it is.
 */
static inline uint64_t pace_timestamp_late(uint64_t pass_start,
					   uint64_t ts_ns, uint64_t now)
{
	uint64_t due = pass_start + ts_ns;

	return now < due ? 0 : now - due;
}

/*
 * pace_timestamp_due - the intended start of a line stamped @ts_ns in a
 * pass that began at @pass_start: pass_start + ts_ns, fixed whatever the
 * client did before (a client that falls behind catches up: it runs the
 * lines that are due without waiting, each measured from its own time).
 * A line without a timestamp (0) waits for nothing and is due with the
 * line before it, @prev_due (the pass start for the first line).
 */
static inline uint64_t pace_timestamp_due(uint64_t pass_start, uint64_t ts_ns,
					  uint64_t prev_due)
{
	return ts_ns ? pass_start + ts_ns : prev_due;
}

/*
 * pace_slept - where the schedule of intended starts stands after a Sleep
 * of @usec microseconds that was due at @sched (-R: p->sched; timestamps:
 * the Sleep's intended start): the pause is the loadfile's, so the
 * schedule moves on by it, and the line after it is due that much later,
 * not late by it.
 */
static inline uint64_t pace_slept(uint64_t sched, int64_t usec)
{
	return usec > 0 ? sched + (uint64_t)usec * NSEC_PER_USEC : sched;
}

/* pace_slice_end - the end of the next slice of a wait until @until. */
static inline uint64_t pace_slice_end(uint64_t now, uint64_t until)
{
	return until - now > PACE_SLICE_NS ? now + PACE_SLICE_NS : until;
}

#endif
