/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * pace.h - when a paced client may start its next line: -R's byte rate,
 * loadfile timestamps, and the slices a long wait is cut into.  Pure
 * functions of a state and the time they are given (unit-tested on a fake
 * clock in tests/unit/test_pace.c); client.c reads the clock and sleeps.
 * The rules are dbench 4.0's (dbench-compat.md §3.5).
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
 * when that line started (0: the pass has just begun) */
struct pace_rate {
	uint64_t bytes;
	uint64_t ns;
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

/* pace_rate_mark - the line started at @now (after any sleep: time lost
 * to a late wake-up is not caught up, as in dbench) with @bytes moved. */
static inline void pace_rate_mark(struct pace_rate *p, uint64_t bytes,
				  uint64_t now)
{
	p->bytes = bytes;
	p->ns = now;
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

/* pace_slice_end - the end of the next slice of a wait until @until. */
static inline uint64_t pace_slice_end(uint64_t now, uint64_t until)
{
	return until - now > PACE_SLICE_NS ? now + PACE_SLICE_NS : until;
}

#endif
