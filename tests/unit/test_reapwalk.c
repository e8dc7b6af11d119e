/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_reapwalk.c - when the parent walks its children for exits no
 * SIGCHLD named, on a fake clock: never while none is owed (until
 * REAP_SAFETY_NS since the last), within REAP_WALK_NS of a SIGCHLD
 * however long the wait was meant to be, at most once per REAP_WALK_NS
 * while SIGCHLDs keep coming, and at the end of a wait while one is
 * owed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "reapwalk.h"

#define MS NSEC_PER_MSEC
#define S  NSEC_PER_SEC
#define T0 (5 * S) /* the fake clock at the first wait */

/*
 * Nothing owed: the wait keeps its end, and neither that end (a tick)
 * nor a timeout walks: no child exited unnamed since the last walk.
 * Only REAP_SAFETY_NS after the last walk does one come, at any wakeup.
 */
static void test_nothing_owed(void **state)
{
	struct reapwalk w = {.last_ns = T0};

	(void)state;
	assert_int_equal(reapwalk_until(&w, T0 + S), T0 + S);
	/* woken by another signal halfway: no walk */
	assert_false(reapwalk_due(&w, T0 + S / 2, T0 + S, false));
	/* the wait's end (a tick), a timeout: no walk either */
	assert_false(reapwalk_due(&w, T0 + S, T0 + S, false));
	assert_false(reapwalk_due(&w, T0 + S + 3 * MS, T0 + 2 * S, true));
	assert_int_equal(w.last_ns, T0);
	/* the net: a walk at the first wakeup REAP_SAFETY_NS after */
	assert_false(
		reapwalk_due(&w, T0 + REAP_SAFETY_NS - 1, T0 + 9 * S, true));
	assert_true(reapwalk_due(&w, T0 + REAP_SAFETY_NS, T0 + 9 * S, false));
	assert_int_equal(w.last_ns, T0 + REAP_SAFETY_NS);
}

/* Owed: a wait that ends walks, however soon after the last walk (a
 * SIGCHLD read just after a walk may name a child that exited before). */
static void test_owed_wait_ends(void **state)
{
	struct reapwalk w = {.last_ns = T0};

	(void)state;
	reapwalk_sigchld(&w);
	/* woken by another event before REAP_WALK_NS: not yet */
	assert_false(reapwalk_due(&w, T0 + MS, T0 + S, false));
	/* the wait's own end, 5 ms after the walk: now */
	assert_true(reapwalk_due(&w, T0 + 5 * MS, T0 + 5 * MS, false));
	assert_false(w.owed);
	reapwalk_sigchld(&w);
	assert_true(reapwalk_due(&w, T0 + 6 * MS, T0 + S, true));
}

/*
 * The last SIGCHLDs merged: one was read, no other comes.  The wait for
 * the next tick (a second away) ends REAP_WALK_NS after the last walk,
 * and that walk is due: the merged exits are reaped then, not at the
 * tick.
 */
static void test_merged_last(void **state)
{
	struct reapwalk w = {.last_ns = T0};
	uint64_t tick = T0 + S, end;

	(void)state;
	reapwalk_sigchld(&w);
	end = reapwalk_until(&w, tick);
	assert_int_equal(end, T0 + REAP_WALK_NS);
	assert_true(end < tick);
	/* the poll times out at that end */
	assert_true(reapwalk_due(&w, end, tick, true));
	assert_false(w.owed);
	/* paid: the next wait is the tick's again */
	assert_int_equal(reapwalk_until(&w, tick), tick);
	/* a wait that ends before the walk is due keeps its own end */
	reapwalk_sigchld(&w);
	assert_int_equal(reapwalk_until(&w, end + MS), end + MS);
}

/* SIGCHLDs every millisecond (ten thousand clients exiting): a walk per
 * REAP_WALK_NS, not per SIGCHLD. */
static void test_rate(void **state)
{
	struct reapwalk w = {.last_ns = T0};
	uint64_t tick = T0 + S;
	int walks = 0;

	(void)state;
	for (uint64_t t = T0 + MS; t < T0 + 200 * MS; t += MS) {
		reapwalk_sigchld(&w);
		assert_true(reapwalk_until(&w, tick) <= t + REAP_WALK_NS);
		walks += reapwalk_due(&w, t, tick, false);
	}
	assert_int_equal(walks, 199 * MS / REAP_WALK_NS);
	/* and one is still owed for the SIGCHLDs since the last */
	assert_true(w.owed);
}

/* The first SIGCHLD of a run, long after the clock's start: a walk at
 * once (nothing was walked for it yet). */
static void test_first(void **state)
{
	struct reapwalk w = {0};

	(void)state;
	reapwalk_sigchld(&w);
	assert_int_equal(reapwalk_until(&w, T0 + S), REAP_WALK_NS);
	assert_true(reapwalk_due(&w, T0, T0 + S, false));
	assert_int_equal(w.last_ns, T0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nothing_owed),
		cmocka_unit_test(test_owed_wait_ends),
		cmocka_unit_test(test_merged_last),
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
