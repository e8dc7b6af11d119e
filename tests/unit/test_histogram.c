/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_histogram.c - the log-linear latency histogram: bucket layout,
 * percentiles against exact sorted values, overflow, merge and empty state.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "histogram.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------- deterministic PRNG -------------------------- */

static uint64_t rng_state;

static void rng_seed(uint64_t seed)
{
	rng_state = seed ? seed : 0x9e3779b97f4a7c15ULL;
}

static uint64_t rng_next(void)	/* xorshift64 */
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static double rng_unit(void)	/* uniform in (0, 1) */
{
	return ((double)(rng_next() >> 11) + 0.5) * 0x1p-53;
}

static double rng_gauss(void)	/* Box-Muller */
{
	double u1 = rng_unit(), u2 = rng_unit();

	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* ---------------------------- bucket layout ---------------------------- */

static void check_bucket_of(uint64_t v)
{
	unsigned int i = hist_index(v);
	uint64_t lo, w;

	assert_true(i < HIST_BUCKETS);
	lo = hist_bucket_lo(i);
	w = hist_bucket_width(i);
	if (lo > v || v - lo >= w)
		fail_msg("v=%llu in bucket %u = [%llu, +%llu)",
			 (unsigned long long)v, i, (unsigned long long)lo,
			 (unsigned long long)w);
	if (lo >= 64 && w * 64 > lo)
		fail_msg("bucket %u: width %llu > lo %llu / 64", i,
			 (unsigned long long)w, (unsigned long long)lo);
}

static void test_bucket_layout(void **state)
{
	unsigned int prev = 0;
	uint64_t v;

	(void)state;
	/* every small value, and monotonicity */
	for (v = 0; v < 10000; v++) {
		check_bucket_of(v);
		assert_true(hist_index(v) >= prev);
		prev = hist_index(v);
	}
	assert_int_equal(hist_index(63), 63);
	assert_int_equal(hist_index(64), 64);
	/* powers of two and their neighbours */
	for (unsigned int k = 0; k < HIST_MAX_BITS; k++) {
		uint64_t p = 1ULL << k;

		check_bucket_of(p - 1);
		check_bucket_of(p);
		if (p + 1 < HIST_LIMIT)
			check_bucket_of(p + 1);
		assert_true(hist_index(p - 1) <= hist_index(p));
	}
	check_bucket_of(HIST_LIMIT - 1);
	check_bucket_of(HIST_LIMIT - 2);
	assert_int_equal(hist_index(HIST_LIMIT - 1), HIST_BUCKETS - 1);

	/* the buckets tile [0, HIST_LIMIT) with no gap or overlap */
	assert_int_equal(hist_bucket_lo(0), 0);
	for (unsigned int i = 1; i < HIST_BUCKETS; i++) {
		assert_int_equal(hist_bucket_lo(i),
				 hist_bucket_lo(i - 1) +
				 hist_bucket_width(i - 1));
		assert_int_equal(hist_index(hist_bucket_lo(i)), i);
		assert_int_equal(hist_index(hist_bucket_lo(i) - 1), i - 1);
	}
	assert_int_equal(hist_bucket_lo(HIST_BUCKETS - 1) +
			 hist_bucket_width(HIST_BUCKETS - 1), HIST_LIMIT);

	/* random values over every magnitude; v <= v + d keeps its order */
	rng_seed(42);
	for (int n = 0; n < 200000; n++) {
		unsigned int bits = 1 + (unsigned int)(rng_next() % 41);
		uint64_t d = rng_next() >> (64 - bits);

		v = rng_next() >> (64 - HIST_MAX_BITS) >> (41 - bits);
		check_bucket_of(v);
		if (v + d < HIST_LIMIT)
			assert_true(hist_index(v) <= hist_index(v + d));
	}
}

/* ----------------------------- percentiles ----------------------------- */

struct dist {
	const char *name;
	size_t n;
	uint64_t seed;
	uint64_t (*gen)(size_t i);
};

static uint64_t gen_lognormal(size_t i)	/* median 20 us, sigma 1.5 */
{
	(void)i;
	return (uint64_t)llround(20000.0 * exp(1.5 * rng_gauss()));
}

static uint64_t gen_bimodal(size_t i)	/* 99% ~5 us, 1% ~500 ms */
{
	double base = rng_next() % 100 ? 5e3 : 5e8;

	(void)i;
	return (uint64_t)llround(base * exp(0.1 * rng_gauss()));
}

static uint64_t gen_pareto(size_t i)	/* x_m 1 us, alpha 1.2 */
{
	(void)i;
	return (uint64_t)llround(1000.0 / pow(rng_unit(), 1.0 / 1.2));
}

static uint64_t gen_constant(size_t i)
{
	(void)i;
	return 12345;
}

static uint64_t gen_small(size_t i)	/* exact buckets only */
{
	(void)i;
	return rng_next() % 128;
}

static uint64_t gen_fixed(size_t i)	/* tiny counts */
{
	static const uint64_t v[] = { 3000, 1000000, 70 };

	return v[i];
}

/* every operation takes 10 ns but one takes 1 ms */
static uint64_t gen_outlier(size_t i)
{
	return i == 500 ? 1000000 : 10;
}

static const struct dist dists[] = {
	{ "lognormal", 200000, 1, gen_lognormal },
	{ "bimodal", 200000, 2, gen_bimodal },
	{ "pareto", 200000, 3, gen_pareto },
	{ "constant", 200000, 4, gen_constant },
	{ "small", 20000, 5, gen_small },
	{ "one", 1, 0, gen_fixed },
	{ "two", 2, 0, gen_fixed },
	{ "three", 3, 0, gen_fixed },
};

/*
 * p/100 * n is not exact in binary floating point: 99.9 / 100 * 1000 is
 * 999.0000000000001, whose ceiling is rank 1000 (the 1 ms outlier) where
 * the exact rank is 999 (10 ns).
 */
static const struct dist rounding_dists[] = {
	{ "outlier-1000", 1000, 0, gen_outlier },
	{ "outlier-2000", 2000, 0, gen_outlier },
	{ "outlier-100000", 100000, 0, gen_outlier },
};

/* percentiles in hundredths, so the exact rank is integer arithmetic */
static const unsigned int pcts[] = {
	100, 1000, 5000, 9000, 9900, 9990, 9999, 10000,
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void check_dist(const struct dist *d, struct hist *h, uint64_t *v)
{
	uint64_t sum = 0;

	hist_init(h);
	rng_seed(d->seed);
	for (size_t i = 0; i < d->n; i++) {
		v[i] = d->gen(i);
		sum += v[i];
		hist_record(h, v[i]);
	}
	qsort(v, d->n, sizeof(*v), cmp_u64);

	assert_int_equal(h->count, d->n);
	assert_int_equal(h->sum, sum);
	assert_int_equal(h->min, v[0]);
	assert_int_equal(h->max, v[d->n - 1]);
	assert_true(hist_mean(h) == (double)sum / (double)d->n);

	for (size_t k = 0; k < ARRAY_SIZE(pcts); k++) {
		uint64_t rank = (pcts[k] * (uint64_t)d->n + 9999) / 10000;
		uint64_t exact = v[rank - 1];
		uint64_t got = hist_value_at(h, pcts[k] / 100.0);
		uint64_t diff = got > exact ? got - exact : exact - got;

		/* exact at p100, else within 1%; never outside [min, max] */
		if ((pcts[k] == 10000 ? got != exact : diff * 100 > exact) ||
		    got < v[0] || got > v[d->n - 1])
			fail_msg("%s n=%zu p%g: got %llu, exact %llu (rank "
				 "%llu)", d->name, d->n, pcts[k] / 100.0,
				 (unsigned long long)got,
				 (unsigned long long)exact,
				 (unsigned long long)rank);
	}
}

static struct hist big_h;
static uint64_t samples[200000];

static void test_percentiles(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(dists); i++) {
		assert_true(dists[i].n <= ARRAY_SIZE(samples));
		check_dist(&dists[i], &big_h, samples);
	}
}

static void test_percentile_rank_rounding(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rounding_dists); i++)
		check_dist(&rounding_dists[i], &big_h, samples);
}

/* ------------------------ overflow, merge, empty ------------------------ */

static void test_overflow(void **state)
{
	static const uint64_t vals[] = {
		100, HIST_LIMIT - 1, HIST_LIMIT, 3 * HIST_LIMIT, 7,
	};
	struct hist h;
	uint64_t sum = 0, binned = 0;

	(void)state;
	hist_init(&h);
	for (size_t i = 0; i < ARRAY_SIZE(vals); i++) {
		hist_record(&h, vals[i]);
		sum += vals[i];
	}
	assert_int_equal(h.count, 5);
	assert_int_equal(h.overflow, 2);
	assert_int_equal(h.sum, sum);
	assert_int_equal(h.min, 7);
	assert_int_equal(h.max, 3 * HIST_LIMIT);
	assert_int_equal(h.bins[HIST_BUCKETS - 1], 1);
	for (unsigned int i = 0; i < HIST_BUCKETS; i++)
		binned += h.bins[i];
	assert_int_equal(binned, 3);
	assert_int_equal(hist_value_at(&h, 100), 3 * HIST_LIMIT);
	assert_int_equal(hist_value_at(&h, 20), 7);
	assert_int_equal(hist_value_at(&h, 40), 100);
	/* rank 4 is an overflow value: not binned, so reported as >= limit */
	assert_true(hist_value_at(&h, 80) >= HIST_LIMIT);
	assert_true(hist_value_at(&h, 80) <= 3 * HIST_LIMIT);
	assert_true(hist_mean(&h) == (double)sum / 5.0);
}

static void test_merge(void **state)
{
	static struct hist hs[7];
	struct hist *all = hs, *part = hs + 1, *merged = hs + 5;
	struct hist *empty = hs + 6;
	static const unsigned int order[] = { 2, 0, 3, 1 };

	(void)state;
	hist_init(all);
	for (int k = 0; k < 4; k++)
		hist_init(&part[k]);
	rng_seed(7);
	for (int i = 0; i < 50000; i++) {
		uint64_t v = gen_lognormal(0);
		unsigned int k = (unsigned int)(rng_next() % 4);

		if (i % 9999 == 0)
			v += HIST_LIMIT;	/* a few overflows */
		hist_record(all, v);
		hist_record(&part[k], v);
	}
	/* into an empty histogram, parts in a scrambled order */
	hist_init(merged);
	for (int k = 0; k < 4; k++)
		hist_add(merged, &part[order[k]]);
	assert_int_equal(merged->count, all->count);
	assert_int_equal(merged->min, all->min);
	assert_int_equal(merged->max, all->max);
	assert_int_equal(merged->overflow, all->overflow);
	assert_memory_equal(merged, all, sizeof(*all));

	/* adding an empty histogram changes nothing */
	hist_init(empty);
	hist_add(merged, empty);
	assert_memory_equal(merged, all, sizeof(*all));

	/* empty + empty stays empty; empty + x == x */
	hist_add(empty, empty);
	assert_int_equal(empty->count, 0);
	hist_init(merged);
	hist_add(merged, &part[3]);
	assert_memory_equal(merged, &part[3], sizeof(*merged));
}

static void test_empty(void **state)
{
	struct hist h, zero;

	(void)state;
	memset(&h, 0xa5, sizeof(h));
	memset(&zero, 0, sizeof(zero));
	hist_init(&h);
	assert_memory_equal(&h, &zero, sizeof(h));
	assert_int_equal(hist_value_at(&h, 50), 0);
	assert_int_equal(hist_value_at(&h, 100), 0);
	assert_true(hist_mean(&h) == 0.0);

	/* a single zero is a valid sample, not "empty" */
	hist_record(&h, 0);
	assert_int_equal(h.count, 1);
	assert_int_equal(h.min, 0);
	assert_int_equal(h.bins[0], 1);
	assert_int_equal(hist_value_at(&h, 50), 0);
	hist_record(&h, 9);
	assert_int_equal(h.min, 0);
	assert_int_equal(h.max, 9);
}

/* a copy read mid-record: count one ahead of or behind the bins */
static void test_settle(void **state)
{
	static struct hist h, copy, zero;

	(void)state;
	hist_init(&h);
	for (uint64_t v = 1; v < 5000; v += 7)
		hist_record(&h, v * 1000);
	hist_record(&h, HIST_LIMIT + 1);
	copy = h;
	copy.count--; /* read before a bin's increment landed */
	hist_settle(&copy);
	assert_memory_equal(&copy, &h, sizeof(h));
	copy.count += 2; /* read after count's, before its bin's */
	hist_settle(&copy);
	assert_memory_equal(&copy, &h, sizeof(h));
	/* count seen, its first bin not: nothing there */
	hist_init(&copy);
	copy.count = 1;
	copy.sum = copy.min = copy.max = 42;
	hist_settle(&copy);
	memset(&zero, 0, sizeof(zero));
	assert_memory_equal(&copy, &zero, sizeof(zero));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bucket_layout),
		cmocka_unit_test(test_percentiles),
		cmocka_unit_test(test_percentile_rank_rounding),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_settle),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
