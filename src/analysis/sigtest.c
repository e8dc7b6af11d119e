/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sigtest.c - significance tests and intervals for comparing two sets of
 * runs: Mann-Whitney U (exact by dynamic programming over doubled
 * mid-ranks, normal approximation for large samples), the percentile
 * bootstrap of the change of medians, and Holm's correction.
 */
#include "sigtest.h"
#include "sigtest_test.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* median of @x, which is sorted in place */
static double median_sorted(double *x, size_t n)
{
	qsort(x, n, sizeof(*x), cmp_double);
	if (n % 2)
		return x[n / 2];
	return (x[n / 2 - 1] + x[n / 2]) / 2;
}

double st_median(const double *x, size_t n)
{
	double *t, m;

	if (!n)
		return NAN;
	t = malloc(n * sizeof(*t));
	if (!t)
		return NAN;
	memcpy(t, x, n * sizeof(*t));
	m = median_sorted(t, n);
	free(t);
	return m;
}

double st_mean(const double *x, size_t n)
{
	double s = 0;

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	return s / (double)n;
}

double st_rel_change(double from, double to)
{
	if (from == 0)
		return to == 0 ? 0 : (to > 0 ? INFINITY : -INFINITY);
	return to / from - 1;
}

/* ------------------------- Mann-Whitney U ------------------------------ */

struct st_obs {
	double v;
	bool in_a;
};

static int cmp_obs(const void *x, const void *y)
{
	const struct st_obs *a = x, *b = y;

	return (a->v > b->v) - (a->v < b->v);
}

/*
 * The pooled sample sorted, with doubled mid-ranks (integers: a tie group
 * over 1-based positions i..j gets i + j) in @r2.  Returns the sum of
 * t^3 - t over the tie groups, or -1 when out of memory.
 */
static double pool_ranks(const double *a, size_t na, const double *b, size_t nb,
			 struct st_obs **obs, long **r2)
{
	size_t n = na + nb;
	struct st_obs *o = malloc(n * sizeof(*o));
	long *r = malloc(n * sizeof(*r));
	double ties = 0;

	if (!o || !r) {
		free(o);
		free(r);
		return -1;
	}
	for (size_t i = 0; i < na; i++)
		o[i] = (struct st_obs){a[i], true};
	for (size_t i = 0; i < nb; i++)
		o[na + i] = (struct st_obs){b[i], false};
	qsort(o, n, sizeof(*o), cmp_obs);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		double t;

		while (j + 1 < n && o[j + 1].v == o[i].v)
			j++;
		for (size_t k = i; k <= j; k++)
			r[k] = (long)(i + 1 + j + 1);
		t = (double)(j - i + 1);
		ties += t * t * t - t;
		i = j + 1;
	}
	*obs = o;
	*r2 = r;
	return ties;
}

/*
 * Exact: count, for every doubled rank sum s, the subsets of size k of
 * the pooled ranks that sum to s (dp[kk][s], kk = 0..k).  Into @t: the
 * probabilities of a sum at or below the observed @obs and at or above
 * it, and of the smallest and largest sums (the extreme splits).
 */
struct mwu_tails {
	double lo, hi, at_min, at_max;
	bool one_sum; /* every split gives the same sum: all values tie */
};

static int mwu_exact(const long *r2, size_t n, size_t k, long obs,
		     struct mwu_tails *t)
{
	long smax = 0, slo = -1, shi = 0;
	double total = 0, lo = 0, hi = 0;
	double *dp;
	size_t w;

	for (size_t i = n - k; i < n; i++)
		smax += r2[i];
	w = (size_t)smax + 1;
	dp = calloc((k + 1) * w, sizeof(*dp));
	if (!dp)
		return -1;
	dp[0] = 1;
	for (size_t i = 0; i < n; i++) {
		long r = r2[i];
		size_t top = i + 1 < k ? i + 1 : k;

		for (size_t kk = top; kk >= 1; kk--) {
			double *to = dp + kk * w, *from = dp + (kk - 1) * w;

			for (long s = smax - r; s >= 0; s--)
				to[s + r] += from[s];
		}
	}
	for (long s = 0; s <= smax; s++) {
		double c = dp[k * w + (size_t)s];

		if (!c)
			continue;
		total += c;
		if (s <= obs)
			lo += c;
		if (s >= obs)
			hi += c;
		if (slo < 0)
			slo = s;
		shi = s;
	}
	*t = (struct mwu_tails){lo / total, hi / total,
				dp[k * w + (size_t)slo] / total,
				dp[k * w + (size_t)shi] / total, slo == shi};
	free(dp);
	return 0;
}

/* Normal approximation with tie and continuity correction. */
static double mwu_normal_p(double dev_u, double sd)
{
	double z = (dev_u - 0.5) / sd;

	if (z <= 0)
		return 1;
	return fmin(1, erfc(z / M_SQRT2));
}

double st_mwu(const double *a, size_t na, const double *b, size_t nb,
	      double *pmin)
{
	size_t n = na + nb, k = na <= nb ? na : nb;
	bool small_is_a = na <= nb;
	struct st_obs *o;
	long *r2, w2 = 0, lo2 = 0, hi2 = 0, dev;
	double ties, p = 1, pm = 1, var;

	if (pmin)
		*pmin = 1;
	if (!na || !nb)
		return 1;
	ties = pool_ranks(a, na, b, nb, &o, &r2);
	if (ties < 0)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (o[i].in_a == small_is_a)
			w2 += r2[i];
	}
	dev = labs(w2 - (long)(k * (n + 1)));
	if (na * nb <= ST_MWU_EXACT_MAX) {
		struct mwu_tails t;

		/* twice the smaller tail: without ties the distribution is
		 * symmetric and that is P(|S - mean| >= |obs - mean|); with
		 * ties it is not, and counting only the deviation would let
		 * a tie group at one end (values read from the same
		 * histogram bucket in several runs) halve the p of a split
		 * at the other end */
		if (mwu_exact(r2, n, k, w2, &t)) {
			p = pm = NAN;
		} else {
			p = fmin(1, 2 * fmin(t.lo, t.hi));
			pm = t.one_sum ? 1
				       : fmin(1, 2 * fmin(t.at_min, t.at_max));
		}
		goto out;
	}
	/* U - mean(U) is half the deviation of the doubled rank sum */
	var = (double)na * (double)nb / 12.0 *
	      ((double)(n + 1) - ties / ((double)n * (double)(n - 1)));
	if (var <= 0)
		goto out;
	p = mwu_normal_p((double)dev / 2, sqrt(var));
	for (size_t i = 0; i < k; i++) {
		lo2 += r2[i];
		hi2 += r2[n - 1 - i];
	}
	pm = mwu_normal_p(fmax(labs(lo2 - (long)(k * (n + 1))),
			       labs(hi2 - (long)(k * (n + 1)))) /
				  2,
			  sqrt(var));
out:
	free(o);
	free(r2);
	if (pmin)
		*pmin = pm;
	return p;
}

double st_mwu_greater(const double *a, size_t na, const double *b, size_t nb,
		      double *pmin)
{
	size_t n = na + nb;
	struct st_obs *o;
	struct mwu_tails t;
	long *r2, w2 = 0, mean2 = (long)(nb * (n + 1)), top2 = 0;
	double ties, p = 1, pm = 1, var;

	if (pmin)
		*pmin = 1;
	if (!na || !nb)
		return 1;
	ties = pool_ranks(a, na, b, nb, &o, &r2);
	if (ties < 0)
		return NAN;
	/* the doubled rank sum of @b: large when @b lies above @a */
	for (size_t i = 0; i < n; i++) {
		if (!o[i].in_a)
			w2 += r2[i];
	}
	if (na * nb <= ST_MWU_EXACT_MAX) {
		if (mwu_exact(r2, n, nb, w2, &t)) {
			p = pm = NAN;
		} else {
			p = t.hi;
			pm = t.one_sum ? 1 : t.at_max;
		}
		goto out;
	}
	var = (double)na * (double)nb / 12.0 *
	      ((double)(n + 1) - ties / ((double)n * (double)(n - 1)));
	if (var <= 0)
		goto out;
	/* half the two-sided p on the side of @b; 1 on the other side */
	p = w2 > mean2 ? mwu_normal_p((double)(w2 - mean2) / 2, sqrt(var)) / 2
		       : 1;
	for (size_t i = 0; i < nb; i++)
		top2 += r2[n - 1 - i];
	pm = top2 > mean2
		     ? mwu_normal_p((double)(top2 - mean2) / 2, sqrt(var)) / 2
		     : 1;
out:
	free(o);
	free(r2);
	if (pmin)
		*pmin = pm;
	return p;
}

double st_mwu_p(const double *a, size_t na, const double *b, size_t nb)
{
	return st_mwu(a, na, b, nb, NULL);
}

double st_mwu_pmin_n(size_t na, size_t nb)
{
	double c = 1;
	size_t k = na < nb ? na : nb, n = na + nb;

	if (!na || !nb)
		return 1;
	for (size_t i = 1; i <= k; i++)
		c = c * (double)(n - k + i) / (double)i;
	return fmin(1, 2 / c);
}

/* ------------------------------- Holm ---------------------------------- */

struct st_pidx {
	double p;
	size_t i;
};

static int cmp_pidx(const void *x, const void *y)
{
	const struct st_pidx *a = x, *b = y;

	if (a->p != b->p)
		return (a->p > b->p) - (a->p < b->p);
	return (a->i > b->i) - (a->i < b->i);
}

void st_holm(const double *p, size_t n, double *adj)
{
	struct st_pidx *s;
	double run = 0;

	if (!n)
		return;
	s = malloc(n * sizeof(*s));
	if (!s) {
		for (size_t i = 0; i < n; i++)
			adj[i] = 1; /* reject nothing rather than wrongly */
		return;
	}
	for (size_t i = 0; i < n; i++)
		s[i] = (struct st_pidx){p[i], i};
	qsort(s, n, sizeof(*s), cmp_pidx);
	for (size_t j = 0; j < n; j++) {
		double v = fmin(1, (double)(n - j) * s[j].p);

		if (v > run)
			run = v;
		adj[s[j].i] = run;
	}
	free(s);
}

/* ------------------------------ PRNG ----------------------------------- */

void st_rng_seed(struct st_rng *r, uint64_t seed)
{
	r->s = seed;
}

uint64_t st_rng_next(struct st_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t st_rng_below(struct st_rng *r, uint64_t n)
{
	uint64_t lim = -n % n, x; /* 2^64 mod n: reject below it */

	do {
		x = st_rng_next(r);
	} while (x < lim);
	return x % n;
}

double st_rng_uniform(struct st_rng *r)
{
	return (double)(st_rng_next(r) >> 11) * 0x1.0p-53;
}

double st_rng_normal(struct st_rng *r)
{
	double u1 = 1.0 - st_rng_uniform(r), u2 = st_rng_uniform(r);

	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* ----------------------------- bootstrap ------------------------------- */

/* quantile @q of sorted @x (linear interpolation), +inf aware */
static double quantile(const double *x, size_t n, double q)
{
	double h = q * (double)(n - 1), f;
	size_t i = (size_t)h;

	if (i + 1 >= n)
		return x[n - 1];
	f = h - (double)i;
	if (f == 0)
		return x[i];
	if (isinf(x[i]) || isinf(x[i + 1]))
		return isinf(x[i]) ? x[i] : x[i + 1];
	return x[i] + f * (x[i + 1] - x[i]);
}

static double resampled_median(struct st_rng *r, const double *x, size_t n,
			       double *tmp)
{
	for (size_t i = 0; i < n; i++)
		tmp[i] = x[st_rng_below(r, n)];
	return median_sorted(tmp, n);
}

void st_bootstrap_ratio_ci(const double *a, size_t na, const double *b,
			   size_t nb, int iters, double level, uint64_t seed,
			   double *lo, double *hi)
{
	struct st_rng r;
	double *ch, *tmp;

	*lo = *hi = NAN;
	if (!na || !nb || iters < 1)
		return;
	ch = malloc((size_t)iters * sizeof(*ch));
	tmp = malloc((na > nb ? na : nb) * sizeof(*tmp));
	if (!ch || !tmp)
		goto out;
	st_rng_seed(&r, seed);
	for (int i = 0; i < iters; i++) {
		double ma = resampled_median(&r, a, na, tmp);
		double mb = resampled_median(&r, b, nb, tmp);

		ch[i] = st_rel_change(ma, mb);
	}
	qsort(ch, (size_t)iters, sizeof(*ch), cmp_double);
	*lo = quantile(ch, (size_t)iters, (1 - level) / 2);
	*hi = quantile(ch, (size_t)iters, (1 + level) / 2);
out:
	free(ch);
	free(tmp);
}
