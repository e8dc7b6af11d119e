/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_sigtest.c - the significance tests of compare (sigtest.c):
 * Mann-Whitney U p-values against known values and against brute-force
 * enumeration of every split (ties included), Holm against a
 * hand-computed example, and the bootstrap CI: covers the true change,
 * deterministic for a seed.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "sigtest.h"
#include "sigtest_test.h"

static void close_to(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.12g, want %.12g (+- %g)", got, want, tol);
}

static void test_basics(void **state)
{
	const double x[] = {5, 1, 4, 2}, y[] = {3, 9, 1};

	(void)state;
	close_to(st_median(x, 4), 3, 0);
	close_to(st_median(y, 3), 3, 0);
	close_to(st_mean(x, 4), 3, 0);
	assert_true(isnan(st_median(x, 0)));
	assert_true(isnan(st_mean(x, 0)));
	/* the input is not reordered */
	assert_true(x[0] == 5 && x[3] == 2);
	close_to(st_rel_change(2, 3), 0.5, 1e-15);
	close_to(st_rel_change(0, 0), 0, 0);
	assert_true(isinf(st_rel_change(0, 1)) && st_rel_change(0, 1) > 0);
}

/* The smallest p-values of separated samples: 2 / C(2n, n). */
static void test_mwu_known(void **state)
{
	static const struct {
		int n;
		double p;
	} known[] = {
		{3, 0.1},	  {4, 2.0 / 70}, /* 0.0286 */
		{5, 2.0 / 252},			 /* 0.00794 */
		{6, 2.0 / 924},			 /* 0.00216 */
		{8, 2.0 / 12870},
	};
	double a[16], b[16], pmin;

	(void)state;
	for (size_t k = 0; k < sizeof(known) / sizeof(known[0]); k++) {
		int n = known[k].n;

		for (int i = 0; i < n; i++) {
			a[i] = 1.0 + i * 0.1;
			b[i] = 10.0 + i;
		}
		close_to(st_mwu(a, (size_t)n, b, (size_t)n, &pmin), known[k].p,
			 1e-12);
		close_to(pmin, known[k].p, 1e-12);
		/* symmetric in the sides and the direction */
		close_to(st_mwu_p(b, (size_t)n, a, (size_t)n), known[k].p,
			 1e-12);
		close_to(st_mwu_pmin_n((size_t)n, (size_t)n), known[k].p,
			 1e-12);
	}
	close_to(known[1].p, 0.0286, 5e-5);
	close_to(known[2].p, 0.00794, 5e-6);
	close_to(known[3].p, 0.00216, 5e-6);
	/* separated, one side tied (percentiles read from one histogram
	 * bucket in every run): as small as untied separated samples, not
	 * half of it (the other extreme, 5 of the tied 6, is less far from
	 * the mean and used to be left out of the two-sided p) */
	for (int i = 0; i < 6; i++) {
		a[i] = 0.2 + 0.001 * i;
		b[i] = 0.537;
	}
	close_to(st_mwu(a, 5, b, 6, &pmin), 2.0 / 462, 1e-12);
	close_to(pmin, 2.0 / 462, 1e-12);
	close_to(st_mwu_p(b, 6, a, 5), 2.0 / 462, 1e-12);
	for (int i = 0; i < 6; i++)
		b[i] = 0.5 + 0.001 * i;
	close_to(st_mwu_p(a, 5, b, 6), 2.0 / 462, 1e-12);
	/* identical samples, and all values equal */
	for (int i = 0; i < 5; i++)
		a[i] = b[i] = 1.0 + i;
	close_to(st_mwu_p(a, 5, b, 5), 1.0, 1e-12);
	for (int i = 0; i < 5; i++)
		a[i] = b[i] = 7;
	close_to(st_mwu(a, 5, b, 5, &pmin), 1.0, 0);
	close_to(pmin, 1.0, 0);
	/* an empty side */
	close_to(st_mwu_p(a, 0, b, 5), 1.0, 0);
	close_to(st_mwu_pmin_n(1, 1), 1.0, 0);
}

/* doubled mid-ranks of the pooled @v (n values), by brute force */
static void brute_ranks(const double *v, int n, long *r2)
{
	for (int i = 0; i < n; i++) {
		int less = 0, eq = 0;

		for (int j = 0; j < n; j++) {
			less += v[j] < v[i];
			eq += v[j] == v[i];
		}
		/* positions less+1 .. less+eq, doubled mean */
		r2[i] = 2L * less + eq + 1;
	}
}

/* p-value and pmin by enumerating all C(n, na) splits of the pool: twice
 * the smaller tail at the observed rank sum, and at the extreme sums; in
 * @pg and @pgmin those of the one-sided test that @b lies above @a (the
 * rank sum of @a at or below the observed one) */
static void brute_mwu(const double *a, int na, const double *b, int nb,
		      double *p, double *pmin, double *pg, double *pgmin)
{
	double v[32];
	long r2[32], obs = 0, smin = LONG_MAX, smax = LONG_MIN;
	int n = na + nb;
	long lo = 0, hi = 0, total = 0, nmin = 0, nmax = 0;

	memcpy(v, a, (size_t)na * sizeof(double));
	memcpy(v + na, b, (size_t)nb * sizeof(double));
	brute_ranks(v, n, r2);
	for (int i = 0; i < na; i++)
		obs += r2[i];
	for (unsigned long m = 0; m < (1UL << n); m++) {
		long s = 0;

		if (__builtin_popcountl(m) != na)
			continue;
		for (int i = 0; i < n; i++) {
			if (m & (1UL << i))
				s += r2[i];
		}
		total++;
		lo += s <= obs;
		hi += s >= obs;
		if (s < smin) {
			smin = s;
			nmin = 0;
		}
		nmin += s == smin;
		if (s > smax) {
			smax = s;
			nmax = 0;
		}
		nmax += s == smax;
	}
	*p = fmin(1, 2.0 * (double)(lo < hi ? lo : hi) / (double)total);
	*pg = (double)lo / (double)total;
	*pgmin = smin == smax ? 1 : (double)nmin / (double)total;
	*pmin = smin == smax
			? 1
			: fmin(1, 2.0 * (double)(nmin < nmax ? nmin : nmax) /
					  (double)total);
}

static void test_mwu_brute_force(void **state)
{
	uint64_t seed = 42;
	int cases = 0;

	(void)state;
	for (int na = 1; na <= 7; na++) {
		for (int nb = 1; nb <= 7; nb++) {
			for (int rep = 0; rep < 12; rep++) {
				struct st_rng r;
				double a[8], b[8], p, pm, bp, bpm, g, gm, bg,
					bgm;
				/* few distinct values: many ties */
				int levels = 2 + rep % 5;

				st_rng_seed(&r, seed++);
				for (int i = 0; i < na; i++)
					a[i] = (double)st_rng_below(
						&r, (uint64_t)levels);
				for (int i = 0; i < nb; i++)
					b[i] = (double)st_rng_below(
						       &r, (uint64_t)levels) +
					       (rep % 3 == 0
							? 0.5 * (double)(rep %
									 2)
							: 0);
				p = st_mwu(a, (size_t)na, b, (size_t)nb, &pm);
				g = st_mwu_greater(a, (size_t)na, b, (size_t)nb,
						   &gm);
				brute_mwu(a, na, b, nb, &bp, &bpm, &bg, &bgm);
				close_to(p, bp, 1e-12);
				close_to(pm, bpm, 1e-12);
				close_to(g, bg, 1e-12);
				close_to(gm, bgm, 1e-12);
				cases++;
			}
		}
	}
	/* continuous data too: no ties */
	for (int rep = 0; rep < 50; rep++) {
		struct st_rng r;
		double a[8], b[8], p, pm, bp, bpm, g, gm, bg, bgm;
		int na = 2 + rep % 6, nb = 2 + (rep / 6) % 6;

		st_rng_seed(&r, 1000 + (uint64_t)rep);
		for (int i = 0; i < na; i++)
			a[i] = st_rng_normal(&r);
		for (int i = 0; i < nb; i++)
			b[i] = st_rng_normal(&r) + 0.7;
		p = st_mwu(a, (size_t)na, b, (size_t)nb, &pm);
		g = st_mwu_greater(a, (size_t)na, b, (size_t)nb, &gm);
		brute_mwu(a, na, b, nb, &bp, &bpm, &bg, &bgm);
		close_to(p, bp, 1e-12);
		close_to(pm, bpm, 1e-12);
		close_to(g, bg, 1e-12);
		close_to(gm, bgm, 1e-12);
		close_to(pm, st_mwu_pmin_n((size_t)na, (size_t)nb), 1e-12);
		/* without ties, the one-sided p is half the two-sided one
		 * on the side b lies, and its floor half the two-sided's */
		close_to(2 * gm, pm, 1e-12);
		cases++;
	}
	printf("MWU: %d random cases match brute-force enumeration\n", cases);
}

/*
 * Large samples use the normal approximation with tie and continuity
 * correction.  a = 1..30, b = 16..45 (15 tied pairs): U = 112.5,
 * var = 4573.0932, z = 4.98339; p computed independently with Python's
 * math.erfc.
 */
static void test_mwu_normal(void **state)
{
	double a[30], b[30], pex, pnorm, var, z;
	struct st_rng r;

	(void)state;
	for (int i = 0; i < 30; i++) {
		a[i] = 1 + i;
		b[i] = 16 + i;
	}
	close_to(st_mwu_p(a, 30, b, 30), 6.247984928789204e-07, 1e-15);
	close_to(st_mwu_greater(a, 30, b, 30, NULL), 6.247984928789204e-07 / 2,
		 1e-15);
	close_to(st_mwu_greater(b, 30, a, 30, NULL), 1, 0);
	/* at the exact limit (25 vs 25) exact and normal agree closely */
	st_rng_seed(&r, 7);
	for (int rep = 0; rep < 20; rep++) {
		double u = 0;

		for (int i = 0; i < 25; i++) {
			a[i] = st_rng_normal(&r);
			b[i] = st_rng_normal(&r) + 0.1 * rep;
		}
		pex = st_mwu_p(a, 25, b, 25);
		/* one-sided, b above a: half the two-sided on that side */
		if (st_mwu_greater(a, 25, b, 25, NULL) < 0.5)
			close_to(2 * st_mwu_greater(a, 25, b, 25, NULL), pex,
				 1e-12);
		for (int i = 0; i < 25; i++) {
			for (int j = 0; j < 25; j++)
				u += a[i] > b[j] ? 1 : a[i] == b[j] ? 0.5 : 0;
		}
		var = 25.0 * 25 * 51 / 12;
		z = (fabs(u - 312.5) - 0.5) / sqrt(var);
		pnorm = z <= 0 ? 1 : erfc(z / sqrt(2));
		close_to(pex, pnorm, 0.005);
	}
}

static void test_holm(void **state)
{
	/* sorted: 0.005 x4 = 0.02, 0.01 x3 = 0.03, 0.03 x2 = 0.06,
	 * 0.04 x1 = 0.04 -> 0.06 (monotone) */
	const double p[] = {0.01, 0.04, 0.03, 0.005};
	const double want[] = {0.03, 0.06, 0.06, 0.02};
	const double q[] = {0.5, 0.3, 0.2};
	double adj[4];

	(void)state;
	st_holm(p, 4, adj);
	for (int i = 0; i < 4; i++)
		close_to(adj[i], want[i], 1e-15);
	/* capped at 1, monotone, in place */
	memcpy(adj, q, sizeof(q));
	st_holm(adj, 3, adj);
	close_to(adj[2], 0.6, 1e-15);
	close_to(adj[1], 0.6, 1e-15);
	close_to(adj[0], 0.6, 1e-15);
	adj[0] = 0.9;
	adj[1] = 0.8;
	st_holm(adj, 2, adj);
	close_to(adj[0], 1.0, 0);
	close_to(adj[1], 1.0, 0);
}

/* lognormal runs: baseline median 1, candidate median 1.2 */
static void draw(struct st_rng *r, double *a, double *b, int n, double sigma)
{
	for (int i = 0; i < n; i++) {
		a[i] = exp(sigma * st_rng_normal(r));
		b[i] = 1.2 * exp(sigma * st_rng_normal(r));
	}
}

static void test_bootstrap(void **state)
{
	double a[30], b[30], lo, hi, lo2, hi2;
	struct st_rng r;
	int cover = 0, reps = 200;

	(void)state;
	st_rng_seed(&r, 99);
	draw(&r, a, b, 30, 0.1);
	st_bootstrap_ratio_ci(a, 30, b, 30, 2000, 0.95, 5, &lo, &hi);
	printf("bootstrap: true change +20%%, 95%% CI %+.1f%% .. %+.1f%%\n",
	       100 * lo, 100 * hi);
	assert_true(lo < 0.2 && hi > 0.2 && lo > 0);
	/* deterministic for a seed, and the seed matters */
	st_bootstrap_ratio_ci(a, 30, b, 30, 2000, 0.95, 5, &lo2, &hi2);
	assert_true(lo == lo2 && hi == hi2);
	st_bootstrap_ratio_ci(a, 30, b, 30, 2000, 0.95, 6, &lo2, &hi2);
	assert_true(lo != lo2 || hi != hi2);
	/* coverage of the true change over many samples: percentile
	 * bootstrap of a median is roughly right at n = 30 */
	for (int i = 0; i < reps; i++) {
		draw(&r, a, b, 30, 0.1);
		st_bootstrap_ratio_ci(a, 30, b, 30, 1000, 0.95, (uint64_t)i,
				      &lo, &hi);
		cover += lo <= 0.2 && 0.2 <= hi;
	}
	printf("bootstrap: 95%% CI covered the true change in %d of %d "
	       "samples\n",
	       cover, reps);
	assert_true(cover >= reps * 85 / 100);
	/* a baseline of zeros: the change is infinite */
	memset(a, 0, sizeof(a));
	st_bootstrap_ratio_ci(a, 5, b, 5, 500, 0.95, 1, &lo, &hi);
	assert_true(isinf(lo) && isinf(hi) && lo > 0);
	/* both zero: no change */
	st_bootstrap_ratio_ci(a, 5, a, 5, 500, 0.95, 1, &lo, &hi);
	close_to(lo, 0, 0);
	close_to(hi, 0, 0);
	/* bad input */
	st_bootstrap_ratio_ci(a, 0, b, 5, 500, 0.95, 1, &lo, &hi);
	assert_true(isnan(lo) && isnan(hi));
}

static void test_rng(void **state)
{
	struct st_rng r, s;
	uint64_t hist[5] = {0};
	double sum = 0, sq = 0;

	(void)state;
	st_rng_seed(&r, 123);
	st_rng_seed(&s, 123);
	for (int i = 0; i < 100; i++)
		assert_true(st_rng_next(&r) == st_rng_next(&s));
	for (int i = 0; i < 50000; i++)
		hist[st_rng_below(&r, 5)]++;
	for (int i = 0; i < 5; i++)
		assert_true(hist[i] > 9500 && hist[i] < 10500);
	for (int i = 0; i < 50000; i++) {
		double z = st_rng_normal(&r);

		sum += z;
		sq += z * z;
	}
	close_to(sum / 50000, 0, 0.02);
	close_to(sq / 50000, 1, 0.03);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basics),
		cmocka_unit_test(test_mwu_known),
		cmocka_unit_test(test_mwu_brute_force),
		cmocka_unit_test(test_mwu_normal),
		cmocka_unit_test(test_holm),
		cmocka_unit_test(test_bootstrap),
		cmocka_unit_test(test_rng),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
