/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sigtest_test.h - the functions of sigtest.c that only the unit tests
 * use (test_sigtest.c, test_compare.c): a mean, the p-value alone, and
 * the PRNG's uniform and normal draws for synthetic runs.
 */
#ifndef DBNG_SIGTEST_TEST_H
#define DBNG_SIGTEST_TEST_H

#include <stddef.h>

#include "sigtest.h"

/* st_mean - arithmetic mean of @x; NaN when @n is 0 */
double st_mean(const double *x, size_t n);

/* st_mwu_p - st_mwu() without @pmin */
double st_mwu_p(const double *a, size_t na, const double *b, size_t nb);

/* st_rng_uniform - uniform in [0, 1), 53 bits */
double st_rng_uniform(struct st_rng *r);

/* st_rng_normal - standard normal (Box-Muller) */
double st_rng_normal(struct st_rng *r);

#endif
