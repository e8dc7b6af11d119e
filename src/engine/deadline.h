/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * deadline.h - the two instants that end the phases of a run: the end of
 * the warmup and the end of the measured phase, absolute CLOCK_MONOTONIC
 * ns fixed by the parent at the release of the clients (shm_hdr).  Each
 * client compares the clock reads it makes around every op with them, so
 * a run ends on time however late the parent's tick is (design.md §4).
 *
 * Pure functions of the times they are given (clock.h): unit-tested on a
 * fake clock in tests/unit/test_deadline.c.
 *
 * The rules (the ones the parent's tick followed before, made exact):
 *   - an op belongs to the phase in which it ends: one that ends after
 *     the end of the warmup is counted in the measured phase, even if it
 *     began in the warmup;
 *   - no op starts after the end of the measured phase; the op in flight
 *     at the end runs to its end and is counted;
 *   - "after" is strictly after (dbench: t > limit);
 *   - a wait (Sleep, timestamps, -R) never goes on past the end.
 */
#ifndef DBNG_DEADLINE_H
#define DBNG_DEADLINE_H

#include <stdbool.h>
#include <stdint.h>

#include "clock.h"

/* a deadline that never comes */
#define DEADLINE_NEVER UINT64_MAX

struct deadlines {
	uint64_t warmup_end; /* DEADLINE_NEVER: no warmup */
	uint64_t end;	     /* end of the measured phase */
};

/* deadline_plan - the deadlines of a run released at @release with
 * @warmup_s seconds of warmup (0: none) and @timelimit_s of measurement. */
static inline struct deadlines deadline_plan(uint64_t release, int warmup_s,
					     int timelimit_s)
{
	uint64_t w = warmup_s > 0 ? (uint64_t)warmup_s * NSEC_PER_SEC : 0;
	uint64_t t = timelimit_s > 0 ? (uint64_t)timelimit_s * NSEC_PER_SEC : 0;

	return (struct deadlines){
		.warmup_end = w ? release + w : DEADLINE_NEVER,
		.end = release + w + t,
	};
}

/* deadline_past - true once @now is after @deadline. */
static inline bool deadline_past(uint64_t now, uint64_t deadline)
{
	return now > deadline;
}

/* deadline_wait_end - a wait until @until, cut so that it ends just
 * after @end (the first instant past it) if that comes first. */
static inline uint64_t deadline_wait_end(uint64_t until, uint64_t end)
{
	return end != DEADLINE_NEVER && until > end + 1 ? end + 1 : until;
}

#endif
