/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_pace.c - pacing on a fake clock: -R holds a byte rate (sleeps when
 * ahead, reports how late when behind, never catches up on a late
 * wake-up, never holds the first line of a pass), loadfile timestamps,
 * and the slices a long wait is cut into.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "pace.h"

#define MS NSEC_PER_MSEC
#define T0 (7 * NSEC_PER_SEC)

static void test_rate(void **state)
{
	struct pace_rate p = {0};
	const double rate = 2e6; /* -R 2: 2 MB/s */

	(void)state;
	/* the first line of a pass is never held, nor one before any I/O */
	assert_int_equal(pace_rate_delay(&p, 0, T0, rate), 0);
	pace_rate_mark(&p, 0, T0);
	assert_int_equal(pace_rate_delay(&p, 0, T0 + MS, rate), 0);
	pace_rate_mark(&p, 0, T0 + MS);
	/* 1 MB moved 100 ms later: 500 ms of rate, so 400 ms to wait */
	assert_int_equal(pace_rate_delay(&p, 1000000, T0 + 101 * MS, rate),
			 400 * MS);
	/* the sleep ended 30 ms late: the next line counts from then */
	pace_rate_mark(&p, 1000000, T0 + 531 * MS);
	/* 0.5 MB more in 10 ms: 250 ms of rate, 240 ms to wait */
	assert_int_equal(pace_rate_delay(&p, 1500000, T0 + 541 * MS, rate),
			 240 * MS);
	pace_rate_mark(&p, 1500000, T0 + 781 * MS);
	/* 0.2 MB more (100 ms of rate) 400 ms later: 300 ms behind */
	assert_int_equal(pace_rate_delay(&p, 1700000, T0 + 1181 * MS, rate),
			 -300 * (int64_t)MS);
	/* a new pass: the state is cleared and nothing is held */
	p.ns = 0;
	assert_int_equal(pace_rate_delay(&p, 65536, T0 + 2 * NSEC_PER_SEC,
					 rate), 0);
}

/* -R 1e-13 (and 1e-320, a denormal): 1e-7 bytes/s asks for a wait of
 * 6.5e11 s for 64 KiB, more ns than int64_t holds; the cast used to wrap
 * it negative (never paced, max_latency 9223372036854.775 ms) */
static void test_tiny_rate(void **state)
{
	struct pace_rate p = {0};
	const double rates[] = {1e-7, 1e-320 * 1e6, 1e-300};

	(void)state;
	for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		pace_rate_mark(&p, 0, T0);
		assert_true(pace_rate_delay(&p, 65536, T0 + MS, rates[i]) ==
			    (int64_t)(PACE_MAX_DELAY_S * 1e9));
	}
	/* and a client that fell that far behind: a lag, not a wrap */
	pace_rate_mark(&p, 1, 1);
	assert_true(pace_rate_delay(&p, 2, UINT64_MAX / 2, 1e300) < 0);
}

static void test_timestamp(void **state)
{
	(void)state;
	/* a line stamped 0.250 s into a pass: due then, late after */
	assert_int_equal(pace_timestamp_late(T0, 250 * MS, T0 + 100 * MS), 0);
	assert_int_equal(pace_timestamp_late(T0, 250 * MS, T0 + 250 * MS), 0);
	assert_int_equal(pace_timestamp_late(T0, 250 * MS, T0 + 262 * MS),
			 12 * MS);
	assert_int_equal(pace_timestamp_late(T0, 0, T0), 0);
}

static void test_slices(void **state)
{
	uint64_t now = T0, until = T0 + 120 * MS;
	int n = 0;

	(void)state;
	/* a 120 ms wait: 50 + 50 + 20 ms, so a stop is seen within 50 ms */
	while (now < until) {
		uint64_t end = pace_slice_end(now, until);

		assert_true(end > now && end - now <= PACE_SLICE_NS);
		now = end;
		n++;
	}
	assert_int_equal(n, 3);
	assert_int_equal(now, until);
	assert_int_equal(pace_slice_end(T0, T0 + 1), T0 + 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_tiny_rate),
		cmocka_unit_test(test_timestamp),
		cmocka_unit_test(test_slices),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
