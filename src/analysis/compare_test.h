/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare_test.h - what of compare only the unit tests use
 * (test_compare.c): a comparison without file names, and every row's
 * figures and verdict.
 */
#ifndef DBNG_COMPARE_TEST_H
#define DBNG_COMPARE_TEST_H

#include <stdbool.h>

#include "compare.h"

/* cmp_run - cmp_run_named() without names */
struct cmp_report *cmp_run(struct result **base, int nb, struct result **cand,
			   int nc, const struct cmp_opts *o);

/* One row of the report: an op and a metric. */
struct cmp_row_info {
	const char *op;	    /* report label, "all" for MB/s */
	const char *metric; /* "ops/s", "mean", ..., "over500ms", "MB/s" */
	double base, cand;  /* medians over runs, of the values that
			     * decide (own figures, when it decides on
			     * them) */
	double change;	    /* cand / base - 1 (+inf from 0) */
	double raw_base, raw_cand; /* the raw medians */
	int ctx;	     /* 0, or why it is context only (enum cmp_ctx) */
	bool primary;	     /* its equivalence bound decides a good */
	double p_eq;	     /* that bound's p, NAN when not a primary */
	double p, p_holm;    /* NAN when not computed */
	bool in_family;	     /* counted in the Holm correction */
	double ci_lo, ci_hi; /* NAN when not computed */
	int verdict;	     /* 1 regressed, -1 improved, 0 no change */
	bool unclear;	     /* see cmp_unclear() */
};

/* cmp_get_row - row @i (0 <= i < cmp_nrows()) into @out */
void cmp_get_row(const struct cmp_report *r, int i, struct cmp_row_info *out);

#endif
