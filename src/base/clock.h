/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * clock.h - the only source of time: CLOCK_MONOTONIC in nanoseconds.
 *
 * The logic that depends on time (ticks.c, the watchdog's bookkeeping)
 * never reads the clock itself: its caller passes the time in, so unit
 * tests run it on a fake clock by passing whatever times they like.
 */
#ifndef DBNG_CLOCK_H
#define DBNG_CLOCK_H

#include <stdint.h>
#include <time.h>

#define NSEC_PER_SEC  1000000000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_USEC 1000ULL

static inline uint64_t clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* clock_sleep_until - sleep until the monotonic time @ns (no drift). */
static inline void clock_sleep_until(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / NSEC_PER_SEC),
		.tv_nsec = (long)(ns % NSEC_PER_SEC),
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
		;
}

#endif
