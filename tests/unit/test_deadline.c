/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_deadline.c - the deadlines that end a run's phases, on a fake
 * clock: where they lie from the release, that "past" is strictly after
 * (an op ending exactly at the end of the warmup is still the warmup's,
 * one starting exactly at the end of the run still runs), and that a
 * wait is cut at the end of the run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "deadline.h"

#define MS NSEC_PER_MSEC
#define S  NSEC_PER_SEC
#define T0 (7 * S) /* the release, on the fake clock */

static void test_plan(void **state)
{
	struct deadlines d;

	(void)state;
	/* -t 3 --warmup 2: warmup until 2 s, measured until 5 s */
	d = deadline_plan(T0, 2, 3);
	assert_int_equal(d.warmup_end, T0 + 2 * S);
	assert_int_equal(d.end, T0 + 5 * S);
	/* no warmup: none ever ends, the run ends after -t */
	d = deadline_plan(T0, 0, 3);
	assert_int_equal(d.warmup_end, DEADLINE_NEVER);
	assert_int_equal(d.end, T0 + 3 * S);
	/* the largest values the options allow do not overflow */
	d = deadline_plan(T0, 100000000, 100000000);
	assert_int_equal(d.end, T0 + 200000000 * S);
	assert_true(d.end > d.warmup_end && d.warmup_end > T0);
}

static void test_past(void **state)
{
	struct deadlines d = deadline_plan(T0, 1, 3);

	(void)state;
	/* an op that ends before or at the end of the warmup is the
	 * warmup's; one that ends a nanosecond later is measured */
	assert_false(deadline_past(T0 + S - 1, d.warmup_end));
	assert_false(deadline_past(T0 + S, d.warmup_end));
	assert_true(deadline_past(T0 + S + 1, d.warmup_end));
	/* an op may start until the end, not after it */
	assert_false(deadline_past(T0 + 4 * S, d.end));
	assert_true(deadline_past(T0 + 4 * S + 1, d.end));
	assert_true(deadline_past(T0 + 600 * S, d.end));
	/* a deadline that never comes */
	assert_false(deadline_past(UINT64_MAX - 1, DEADLINE_NEVER));
	assert_false(deadline_past(UINT64_MAX, DEADLINE_NEVER));
}

static void test_wait(void **state)
{
	uint64_t end = T0 + 3 * S;

	(void)state;
	/* a wait that ends before the end of the run is kept */
	assert_int_equal(deadline_wait_end(end - MS, end), end - MS);
	assert_int_equal(deadline_wait_end(end + 1, end), end + 1);
	/* a 30 s Sleep 1 s before the end is cut at the first instant past
	 * it, so the next op sees the run is over */
	assert_int_equal(deadline_wait_end(end - S + 30 * S, end), end + 1);
	assert_true(deadline_past(deadline_wait_end(end + 30 * S, end), end));
	/* without an end, nothing is cut */
	assert_int_equal(deadline_wait_end(UINT64_MAX - 5, DEADLINE_NEVER),
			 UINT64_MAX - 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_past),
		cmocka_unit_test(test_wait),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
