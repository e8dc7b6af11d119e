/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sigtest.h - the significance tests behind `dbench-ng compare` and
 * `check`: the Mann-Whitney U test (exact for small samples, ties
 * included), a percentile bootstrap of the relative change of medians,
 * Holm's step-down correction, and a small deterministic PRNG.  Pure
 * functions, no I/O.  What only the tests use is in sigtest_test.h.
 */
#ifndef DBNG_SIGTEST_H
#define DBNG_SIGTEST_H

#include <stddef.h>
#include <stdint.h>

/*
 * Exact up to this many pairs (na * nb, i.e. 25 vs 25): the permutation
 * distribution of the rank sum is counted by dynamic programming, in
 * doubles that stay exact integers (C(50, 25) < 2^53).  Beyond it the
 * normal approximation with tie and continuity correction is used.
 */
#define ST_MWU_EXACT_MAX 625

/* st_median - median of @x (copied, not reordered); NaN when @n is 0 */
double st_median(const double *x, size_t n);

/*
 * st_rel_change - @to / @from - 1, the relative change from @from to @to.
 * For non-negative data: 0 when both are 0, +inf when only @from is 0.
 */
double st_rel_change(double from, double to);

/*
 * st_mwu - two-sided Mann-Whitney U (Wilcoxon rank-sum) test of samples
 * @a and @b.  Tied values get mid-ranks.  Returns the p-value: for
 * na * nb <= ST_MWU_EXACT_MAX twice the smaller exact tail probability
 * (at or below, at or above the observed rank sum; capped at 1) under the
 * permutation distribution of the mid-rank sum given the pooled values --
 * without ties the probability that the rank sum lies at least as far
 * from its mean as observed; with ties never below what a split as
 * extreme on the other side could give, so a tie group at one end does
 * not shrink the p of the other; beyond that the normal approximation with tie
 * and continuity correction.  When @pmin is not NULL it receives the smallest
 * p-value any split of these pooled values could give (1 when every value is
 * equal): a test whose @pmin exceeds alpha can never reject.  1 when a
 * sample is empty.
 */
double st_mwu(const double *a, size_t na, const double *b, size_t nb,
	      double *pmin);

/*
 * st_mwu_greater - one-sided Mann-Whitney U test that @b lies above @a
 * (is stochastically larger): the probability, over every split of the
 * pooled values into samples of sizes @na and @nb, of a rank sum of @b
 * at least as large as observed (mid-ranks for ties; exact up to
 * ST_MWU_EXACT_MAX pairs, else the normal approximation).  @pmin, when
 * not NULL, receives the smallest p any split could give.  1 when a
 * sample is empty.
 */
double st_mwu_greater(const double *a, size_t na, const double *b, size_t nb,
		      double *pmin);

/*
 * st_mwu_pmin_n - smallest two-sided exact p-value of samples of sizes
 * @na and @nb without ties: 2 / C(na + nb, na), at most 1.  3 vs 3 gives
 * 0.1, 4 vs 4 0.0286, 5 vs 5 0.00794, 8 vs 8 0.000155.
 */
double st_mwu_pmin_n(size_t na, size_t nb);

/*
 * st_holm - Holm's step-down adjustment of the @n p-values @p into @adj
 * (may be the same array): sorted ascending, p(i) is multiplied by
 * n - i (i from 0), capped at 1, and made monotone by a running maximum.
 * Rejecting every adj < alpha keeps the family-wise error at alpha.
 */
void st_holm(const double *p, size_t n, double *adj);

/* A splitmix64 generator: deterministic for a seed, any seed is fine. */
struct st_rng {
	uint64_t s;
};

/* st_rng_seed - start @r from @seed */
void st_rng_seed(struct st_rng *r, uint64_t seed);

/* st_rng_next - the next 64 random bits */
uint64_t st_rng_next(struct st_rng *r);

/* st_rng_below - uniform in [0, @n) without modulo bias; @n > 0 */
uint64_t st_rng_below(struct st_rng *r, uint64_t n);

/*
 * st_bootstrap_ratio_ci - percentile bootstrap confidence interval, at
 * @level (e.g. 0.95), of median(b) / median(a) - 1: @iters times, each
 * sample is resampled with replacement (within its side) and the change
 * of the medians computed as st_rel_change(); *@lo and *@hi are the
 * (1 - level) / 2 and (1 + level) / 2 quantiles of those changes
 * (linear interpolation; +inf when a resampled baseline median is 0 and
 * the candidate's is not).  Deterministic for a @seed.  NaN for empty
 * samples or @iters < 1.
 */
void st_bootstrap_ratio_ci(const double *a, size_t na, const double *b,
			   size_t nb, int iters, double level, uint64_t seed,
			   double *lo, double *hi);

#endif
