/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * clock-cost.c - what one read of dbench-ng's clock costs here: clock_ns()
 * of src/base/clock.h, the very function the engine calls twice per op,
 * in a loop of 20 M reads; prints the median of 5 rounds in ns per read.
 * Built and run by null-overhead.sh, which subtracts two reads from the
 * harness cost per line.
 */
#include <stdio.h>
#include <stdlib.h>

#include "clock.h"

#define READS 20000000u

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(void)
{
	volatile uint64_t sink = 0;
	double r[5];

	for (int k = 0; k < 5; k++) {
		uint64_t t0 = clock_ns();

		for (unsigned int i = 0; i < READS; i++)
			sink += clock_ns();
		r[k] = (double)(clock_ns() - t0) / READS;
	}
	qsort(r, 5, sizeof(r[0]), cmp);
	printf("%.1f\n", r[2]);
	return sink == 42; /* never; keeps the reads */
}
