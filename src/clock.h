/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * clock.h - the only source of time: CLOCK_MONOTONIC in nanoseconds.
 *
 * Unit tests that need a fake clock define DBNG_FAKE_CLOCK and provide
 * clock_fake_ns().
 */
#ifndef DBNG_CLOCK_H
#define DBNG_CLOCK_H

#include <stdint.h>
#include <time.h>

#define NSEC_PER_SEC  1000000000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_USEC 1000ULL

#ifdef DBNG_FAKE_CLOCK
uint64_t clock_fake_ns(void);
static inline uint64_t clock_ns(void)
{
	return clock_fake_ns();
}
#else
static inline uint64_t clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}
#endif

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
