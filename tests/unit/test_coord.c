/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_coord.c - how the figures of the hosts of a run across hosts
 * combine (engine/coord.c): counts add, maxima take the larger, the stop
 * that counts is the highest with the lowest rank that has it, and the
 * combination does not depend on the order (an MPI reduction combines
 * the hosts in any order and grouping).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "coord.h"
#include "shm.h"

static struct coord_ctl ctl(uint64_t stop, uint64_t rank, uint64_t alive,
			    uint64_t over)
{
	struct coord_ctl c;

	coord_ctl_init(&c);
	c.stop = stop;
	c.stop_rank = stop == STOP_FAILED || stop == STOP_SIGNAL
			      ? rank
			      : COORD_NO_RANK;
	c.alive = alive;
	c.not_done = alive * 2;
	c.lines = 1000 * rank;
	c.bytes = 7 * rank;
	c.over_ns = over;
	c.over_lat = over / 2;
	c.warm_past = rank == 2;
	return c;
}

static void test_ctl(void **state)
{
	struct coord_ctl a = ctl(STOP_NONE, 0, 3, 0);
	struct coord_ctl b = ctl(STOP_FAILED, 2, 1, 5);
	struct coord_ctl c = ctl(STOP_FAILED, 1, 0, 9);
	struct coord_ctl d = ctl(STOP_TIME, 3, 2, 1);

	(void)state;
	coord_ctl_add(&a, &b);
	coord_ctl_add(&a, &c);
	coord_ctl_add(&a, &d);
	assert_int_equal(a.stop, STOP_FAILED);
	assert_int_equal(a.stop_rank, 1);
	assert_int_equal(a.alive, 6);
	assert_int_equal(a.not_done, 12);
	assert_int_equal(a.lines, 6000);
	assert_int_equal(a.bytes, 42);
	assert_int_equal(a.over_ns, 9);
	assert_int_equal(a.over_lat, 4);
	assert_int_equal(a.warm_past, 1);

	/* nothing stopped: no rank */
	a = ctl(STOP_NONE, 0, 1, 0);
	b = ctl(STOP_TIME, 1, 1, 0);
	coord_ctl_add(&a, &b);
	assert_int_equal(a.stop, STOP_TIME);
	assert_int_equal(a.stop_rank, COORD_NO_RANK);
}

/* Any order and grouping of 5 hosts gives the same combination. */
static void test_ctl_order(void **state)
{
	static const int perm[][5] = {
		{0, 1, 2, 3, 4}, {4, 3, 2, 1, 0}, {2, 0, 4, 1, 3},
		{1, 4, 0, 3, 2}, {3, 2, 1, 4, 0},
	};
	struct coord_ctl h[5] = {
		ctl(STOP_NONE, 0, 1, 0),   ctl(STOP_SIGNAL, 1, 2, 3),
		ctl(STOP_FAILED, 2, 3, 2), ctl(STOP_SIGNAL, 3, 0, 8),
		ctl(STOP_TIME, 4, 1, 1),
	};
	struct coord_ctl want, got, left, right;

	(void)state;
	h[3].stop_signal = 15;
	want = h[0];
	for (int i = 1; i < 5; i++)
		coord_ctl_add(&want, &h[i]);
	assert_int_equal(want.stop, STOP_SIGNAL);
	assert_int_equal(want.stop_rank, 1);
	assert_int_equal(want.stop_signal, 15);
	for (size_t p = 0; p < sizeof(perm) / sizeof(perm[0]); p++) {
		/* ((a b) c) + (d e): a tree, as a reduction builds */
		left = h[perm[p][0]];
		coord_ctl_add(&left, &h[perm[p][1]]);
		coord_ctl_add(&left, &h[perm[p][2]]);
		right = h[perm[p][3]];
		coord_ctl_add(&right, &h[perm[p][4]]);
		got = right;
		coord_ctl_add(&got, &left);
		assert_memory_equal(&got, &want, sizeof(want));
	}
}

static void test_fig(void **state)
{
	struct coord_fig a = {.lines = 10, .bytes = 100, .lat = 7, .active = 2};
	struct coord_fig b = {.lines = 5, .bytes = 1, .lat = 9, .active = 1};

	(void)state;
	a.op_max[OP_RENAME] = 50;
	b.op_max[OP_RENAME] = 40;
	b.op_max[OP_FLUSH] = 3;
	coord_fig_add(&a, &b);
	assert_int_equal(a.lines, 15);
	assert_int_equal(a.bytes, 101);
	assert_int_equal(a.lat, 9);
	assert_int_equal(a.active, 3);
	assert_int_equal(a.op_max[OP_RENAME], 50);
	assert_int_equal(a.op_max[OP_FLUSH], 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ctl),
		cmocka_unit_test(test_ctl_order),
		cmocka_unit_test(test_fig),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
