/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_slotstats.c - the sparse histograms of the slots (slotstats.h):
 * recorded and merged they equal dense histograms of the same values;
 * drained tick by tick they give the same cumulative histograms as a full
 * merge, also while a client records during the drains; a drain reads
 * only what changed; and untouched bins cost no memory.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "histogram.h"
#include "shm.h"
#include "slotstats.h"
#include "stats.h"

#define NCL 3

static uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* A latency spread over the whole range: any octave, now and then an
 * overflow (HIST_LIMIT or more) */
static uint64_t value(void)
{
	uint64_t r = rnd();

	if (r % 97 == 0)
		return HIST_LIMIT + r % 1000;
	return (r >> 8) & ((1ULL << (r % HIST_MAX_BITS)) - 1);
}

/* the dense histogram @hi of @st */
static struct hist *dense(struct stats *st, unsigned int hi)
{
	unsigned int op = hi % OP_NR;

	if (hi / OP_NR == SS_OP)
		return &st->op[op];
	if (hi / OP_NR == SS_OWN)
		return &st->own[op];
	return &st->resp[op];
}

/* One value into client @c's slot and its dense copy @d */
static void both(struct shm *shm, struct stats *d, int c, unsigned int hi,
		 uint64_t v)
{
	shm_record(shm, c, hi, v);
	hist_record(dense(&d[c], hi), v);
	/* as stats_record_resp and _own count them (stats_add merges the
	 * kind only when they are not 0) */
	if (hi / OP_NR == SS_RESP) {
		d[c].nresp++;
		shm->slot[c].st.nresp++;
	} else if (hi / OP_NR == SS_OWN) {
		d[c].nown++;
		shm->slot[c].st.nown++;
	}
}

static void assert_hist_equal(const struct hist *a, const struct hist *b)
{
	assert_int_equal(a->count, b->count);
	assert_int_equal(a->sum, b->sum);
	assert_int_equal(a->overflow, b->overflow);
	if (a->count) {
		assert_int_equal(a->min, b->min);
		assert_int_equal(a->max, b->max);
	}
	assert_memory_equal(a->bins, b->bins, sizeof(a->bins));
}

/* the dense merge of the clients @d */
static struct stats *merged(const struct stats *d, int n)
{
	struct stats *m = calloc(1, sizeof(*m));

	assert_non_null(m);
	for (int i = 0; i < n; i++)
		stats_add(m, &d[i]);
	return m;
}

/* Random values into random histograms of the clients, as in a run */
static void record_some(struct shm *shm, struct stats *d, int n)
{
	for (int k = 0; k < n; k++) {
		int c = (int)(rnd() % NCL);
		unsigned int hi = (unsigned int)(rnd() % SS_NHIST);

		both(shm, d, c, hi, value());
	}
}

/* Recorded sparse and merged by ss_final, the histograms are those of
 * dense histograms merged by stats_add, counters included */
static void test_final_equals_dense(void **state)
{
	struct shm *shm = shm_alloc(NCL);
	struct stats *d = calloc(NCL, sizeof(*d)), *m, *out;
	struct ss_sink *k = ss_sink_new(NCL);

	(void)state;
	assert_non_null(shm);
	assert_non_null(d);
	assert_non_null(k);
	rng_state = 0x1234567;
	record_some(shm, d, 20000);
	for (int c = 0; c < NCL; c++) {
		shm->slot[c].st.errors[OP_WRITEX] = (uint64_t)c + 1;
		d[c].errors[OP_WRITEX] = (uint64_t)c + 1;
		shm->slot[c].st.bytes[OP_READX] = 4096;
		d[c].bytes[OP_READX] = 4096;
	}
	m = merged(d, NCL);
	out = malloc(sizeof(*out));
	assert_non_null(out);
	ss_final(k, shm, 0, out);
	for (unsigned int hi = 0; hi < SS_NHIST; hi++)
		assert_hist_equal(dense(out, hi), dense(m, hi));
	assert_memory_equal(out->errors, m->errors, sizeof(m->errors));
	assert_memory_equal(out->bytes, m->bytes, sizeof(m->bytes));
	free(out);
	free(m);
	free(d);
	ss_sink_free(k);
	shm_free(shm, NCL);
}

/* Drained after every batch, the sink's cumulative histograms are at each
 * point the full merge of what was recorded so far; a drain with nothing
 * new reads no chunk, one value costs one chunk */
static void test_drain_equals_full_merge(void **state)
{
	struct shm *shm = shm_alloc(NCL);
	struct stats *d = calloc(NCL, sizeof(*d));
	struct ss_sink *k = ss_sink_new(NCL);
	uint64_t chunks;

	(void)state;
	assert_non_null(shm);
	assert_non_null(d);
	assert_non_null(k);
	rng_state = 0xfeed;
	for (int round = 0; round < 20; round++) {
		struct stats *m;

		record_some(shm, d, 1000 + round * 37);
		ss_drain(k, shm, 0);
		m = merged(d, NCL);
		for (unsigned int hi = 0; hi < SS_NHIST; hi++)
			assert_hist_equal(dense(k->acc, hi), dense(m, hi));
		free(m);
	}
	chunks = k->chunks;
	ss_drain(k, shm, 0); /* nothing new: nothing read */
	assert_int_equal(k->chunks, chunks);
	both(shm, d, 1, SS_HIST(SS_OP, OP_READX), 12345);
	ss_drain(k, shm, 0);
	assert_int_equal(k->chunks, chunks + 1);
	for (int c = 0; c < NCL; c++)
		for (unsigned int w = 0; w < SS_DWORDS; w++)
			assert_int_equal(shm->slot[c].st.dirty[0][w], 0);
	free(d);
	ss_sink_free(k);
	shm_free(shm, NCL);
}

/* The last drain of generation @gen: every histogram that of @m */
static void final_is(struct ss_sink *k, struct shm *shm, unsigned int gen,
		     struct stats *m)
{
	struct stats *out = malloc(sizeof(*out));

	assert_non_null(out);
	ss_final(k, shm, gen, out);
	for (unsigned int hi = 0; hi < SS_NHIST; hi++)
		assert_hist_equal(dense(out, hi), dense(m, hi));
	free(out);
}

/* The series' drain takes the latencies and response times as ss_drain
 * does, reads no chunk of the own latencies (their dirty bits stay), and
 * the last drain still makes the whole merge of every histogram */
static void test_series_drain_leaves_own(void **state)
{
	struct shm *shm = shm_alloc(NCL);
	struct stats *d = calloc(NCL, sizeof(*d)), *m;
	struct ss_sink *k = ss_sink_new(NCL);
	uint64_t chunks;

	(void)state;
	assert_non_null(shm);
	assert_non_null(d);
	assert_non_null(k);
	rng_state = 0xabc;
	for (int round = 0; round < 10; round++) {
		record_some(shm, d, 2000);
		ss_drain_series(k, shm, 0);
		m = merged(d, NCL);
		for (unsigned int hi = 0; hi < SS_NHIST; hi++) {
			if (hi / OP_NR == SS_OWN)
				assert_int_equal(dense(k->acc, hi)->count, 0);
			else
				assert_hist_equal(dense(k->acc, hi),
						  dense(m, hi));
		}
		free(m);
	}
	/* an own latency alone: no chunk read, its bit still set */
	chunks = k->chunks;
	both(shm, d, 2, SS_HIST(SS_OWN, OP_READX), 777);
	ss_drain_series(k, shm, 0);
	assert_int_equal(k->chunks, chunks);
	assert_true(shm->slot[2].st.dirty[0][SS_HIST(SS_OWN, OP_READX) / 64] &
		    1ULL << (SS_HIST(SS_OWN, OP_READX) % 64));
	m = merged(d, NCL);
	final_is(k, shm, 0, m);
	free(m);
	free(d);
	ss_sink_free(k);
	shm_free(shm, NCL);
}

/* A generation of its own: the sink of generation 1 holds what the
 * clients recorded after they moved to it, nothing of before */
static void test_generations(void **state)
{
	struct shm *shm = shm_alloc(NCL);
	struct stats *d = calloc(NCL, sizeof(*d)), *m;
	struct ss_sink *k = ss_sink_new(NCL);

	(void)state;
	assert_non_null(shm);
	assert_non_null(d);
	assert_non_null(k);
	rng_state = 42;
	record_some(shm, d, 3000); /* the warmup */
	ss_drain(k, shm, 0);
	memset(d, 0, NCL * sizeof(*d));
	for (int c = 0; c < NCL; c++) { /* client.c: new_phase */
		ss_reset(&shm->slot[c].st);
		shm->slot[c].gen = 1;
	}
	record_some(shm, d, 3000);
	ss_drain(k, shm, 1);
	m = merged(d, NCL);
	for (unsigned int hi = 0; hi < SS_NHIST; hi++)
		assert_hist_equal(dense(k->acc, hi), dense(m, hi));
	final_is(k, shm, 1, m);
	free(m);
	free(d);
	ss_sink_free(k);
	shm_free(shm, NCL);
}

struct writer {
	struct shm *shm;
	struct stats dense; /* what it recorded, client 0's */
	volatile int done;
};

static void *write_main(void *arg)
{
	struct writer *w = arg;
	uint64_t s = 99;

	for (int i = 0; i < 300000; i++) {
		unsigned int hi = SS_HIST(SS_OP, i % 4);
		uint64_t v;

		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		v = (s >> 20) & 0xfffff;
		shm_record(w->shm, 0, hi, v);
		hist_record(dense(&w->dense, hi), v);
	}
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* A client records while the parent drains over and over: once it is
 * done, the final merge (which also reads the chunks whose dirty bit a
 * store still on its way made it miss) lost nothing and counted nothing
 * twice, however the two interleaved */
static void test_drain_while_recording(void **state)
{
	struct writer *w = calloc(1, sizeof(*w));
	struct ss_sink *k = ss_sink_new(1);
	struct stats *out;
	pthread_t th;

	(void)state;
	assert_non_null(w);
	assert_non_null(k);
	w->shm = shm_alloc(1);
	assert_non_null(w->shm);
	assert_int_equal(pthread_create(&th, NULL, write_main, w), 0);
	while (!__atomic_load_n(&w->done, __ATOMIC_ACQUIRE))
		ss_drain(k, w->shm, 0);
	pthread_join(th, NULL);
	out = malloc(sizeof(*out));
	assert_non_null(out);
	ss_final(k, w->shm, 0, out);
	for (int o = 0; o < 4; o++)
		assert_hist_equal(&out->op[o], &w->dense.op[o]);
	free(out);
	ss_sink_free(k);
	shm_free(w->shm, 1);
	free(w);
}

/* Pages of [@p, @p + @len) in memory */
static size_t resident(void *p, size_t len)
{
	size_t n = len / 4096, in = 0;
	unsigned char *v = malloc(n);

	assert_non_null(v);
	assert_int_equal(mincore(p, len, v), 0);
	for (size_t i = 0; i < n; i++)
		in += v[i] & 1;
	free(v);
	return in;
}

/* Values in octaves far apart take one page of the pool, not one per
 * octave; a drain makes no page memory; the warmup's part given back
 * holds none */
static void test_untouched_cost_nothing(void **state)
{
	struct shm *shm = shm_alloc(2);
	struct ss_sink *k = ss_sink_new(2);
	char *pool;

	(void)state;
	assert_non_null(shm);
	assert_non_null(k);
	pool = shm_pool(shm, 1, 0);
	assert_int_equal(resident(pool, SS_GEN_POOL), 0);
	for (unsigned int b = 0; b < HIST_MAX_BITS; b += 3)
		for (unsigned int op = 0; op < 4; op++)
			shm_record(shm, 1, SS_HIST(SS_OP, op), 1ULL << b);
	/* 14 octaves x 4 histograms = 56 chunks of 64 bytes: one page */
	assert_int_equal(shm->slot[1].st.nchunks[0], 56);
	assert_int_equal(resident(pool, SS_GEN_POOL), 1);
	assert_int_equal(resident(shm_pool(shm, 0, 0), SS_GEN_POOL), 0);
	ss_drain(k, shm, 0);
	assert_int_equal(resident(pool, SS_GEN_POOL), 1);
	assert_int_equal(resident(shm_pool(shm, 0, 0), SS_GEN_POOL), 0);
	assert_int_equal(k->acc->op[2].count, 14);
	/* past the warmup: its memory goes back */
	shm->slot[0].gen = shm->slot[1].gen = 1;
	shm_record(shm, 1, SS_HIST(SS_OP, 0), 1000);
	ss_drain(k, shm, 1);
	assert_int_equal(resident(shm_gen(shm, 0, 0), 2 * SS_GEN_STRIDE), 0);
	assert_int_equal(resident(shm_pool(shm, 1, 1), SS_GEN_POOL), 1);
	assert_int_equal(k->acc->op[0].count, 1);
	ss_sink_free(k);
	shm_free(shm, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_final_equals_dense),
		cmocka_unit_test(test_drain_equals_full_merge),
		cmocka_unit_test(test_series_drain_leaves_own),
		cmocka_unit_test(test_generations),
		cmocka_unit_test(test_drain_while_recording),
		cmocka_unit_test(test_untouched_cost_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
