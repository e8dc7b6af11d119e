/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * slotstats.c - the clients' histograms in their slots and pool: a
 * client's chunk allocation, and the parent's drain of what changed into
 * its cumulative histograms (slotstats.h).
 */
#include "slotstats.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "shm.h"
#include "stats.h"

uint16_t ss_new_chunk(struct slot_stats *ss, struct ss_gen *gn, unsigned int g,
		      unsigned int hi, unsigned int ci)
{
	/* each chunk of each histogram of each generation at most once: the
	 * pool never runs out (SS_POOL_CHUNKS) */
	uint16_t c = (uint16_t)(++ss->nchunks[g]);

	/* published before any bin of it is dirty: the parent reads the
	 * number only for an octave whose dirty bit it saw */
	__atomic_store_n(&gn->chunk[hi][ci], c, __ATOMIC_RELEASE);
	return c;
}

void ss_reset(struct slot_stats *ss)
{
	for (int i = 0; i < OP_NR; i++) {
		ss->errors[i] = 0;
		ss->bytes[i] = 0;
		ss->not_run[i] = 0;
	}
	if (ss->nresp) {
		for (int i = 0; i < OP_NR; i++) {
			ss->late[i] = 0;
			ss->late_max[i] = 0;
		}
		ss->nresp = 0;
	}
	if (ss->nown) {
		for (int i = 0; i < OP_NR; i++)
			ss->foreign_ns[i] = 0;
		ss->nown = 0;
	}
}

void ss_add_counters(struct stats *dst, const struct slot_stats *src, bool own)
{
	for (int i = 0; i < OP_NR; i++) {
		dst->errors[i] += src->errors[i];
		dst->bytes[i] += src->bytes[i];
		dst->not_run[i] += src->not_run[i];
	}
	if (src->nresp) {
		dst->nresp += src->nresp;
		for (int i = 0; i < OP_NR; i++) {
			dst->late[i] += src->late[i];
			if (src->late_max[i] > dst->late_max[i])
				dst->late_max[i] = src->late_max[i];
		}
	}
	if (own && src->nown) {
		dst->nown += src->nown;
		for (int i = 0; i < OP_NR; i++)
			dst->foreign_ns[i] += src->foreign_ns[i];
	}
}

/* histogram @hi of a struct stats */
static struct hist *hist_of(struct stats *st, unsigned int hi)
{
	unsigned int op = hi % OP_NR;

	switch (hi / OP_NR) {
	case SS_OP:
		return &st->op[op];
	case SS_OWN:
		return &st->own[op];
	default:
		return &st->resp[op];
	}
}

struct ss_sink *ss_sink_new(int nclients)
{
	struct ss_sink *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	k->nclients = nclients;
	for (int op = 0; op < OP_NR; op++) {
		unsigned int hi = SS_HIST(SS_OWN, op);

		k->own_bits[hi / 64] |= 1ULL << (hi % 64);
	}
	k->acc = calloc(1, sizeof(*k->acc));
	k->seen = calloc((size_t)nclients * SS_NHIST, sizeof(*k->seen));
	k->shadow = mmap(NULL, (size_t)nclients * SS_GEN_POOL,
			 PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (k->shadow == MAP_FAILED)
		k->shadow = NULL;
	if (!k->acc || !k->seen || !k->shadow) {
		ss_sink_free(k);
		return NULL;
	}
	return k;
}

void ss_sink_free(struct ss_sink *k)
{
	if (!k)
		return;
	free(k->acc);
	free(k->seen);
	if (k->shadow)
		munmap(k->shadow, (size_t)k->nclients * SS_GEN_POOL);
	free(k);
}

/* A new generation: nothing of it drained yet */
static void sink_restart(struct ss_sink *k, unsigned int gen)
{
	memset(k->acc, 0, sizeof(*k->acc));
	memset(k->seen, 0, (size_t)k->nclients * SS_NHIST * sizeof(*k->seen));
	memset(k->has, 0, sizeof(k->has));
	/* private anonymous memory: zero again, and given back */
	madvise(k->shadow, (size_t)k->nclients * SS_GEN_POOL, MADV_DONTNEED);
	k->gen = gen;
}

/* What chunk @bins gained since @seen, its copy at the last drain, into
 * @to; the copy made current.  Returns the values taken. */
static uint64_t take_chunk(const uint64_t *bins, uint64_t *seen, uint64_t *to)
{
	uint64_t n = 0;

	for (unsigned int j = 0; j < SS_CHUNK; j++) {
		uint64_t v = __atomic_load_n(&bins[j], __ATOMIC_RELAXED);

		if (v == seen[j])
			continue;
		to[j] += v - seen[j];
		n += v - seen[j];
		seen[j] = v;
	}
	return n;
}

/* Client @i's shadow of its chunk @c */
static uint64_t *shadow_of(struct ss_sink *k, int i, uint16_t c)
{
	return (uint64_t *)(void *)(k->shadow + (size_t)i * SS_GEN_POOL +
				    (size_t)(c - 1) * SS_CHUNK_BYTES);
}

/* Take the dirty chunks of histogram @hi of client @i (@gn, its pool
 * @pool) into @dst's bins.  Returns the values taken. */
static uint64_t take_bins(struct ss_sink *k, int i, struct ss_gen *gn,
			  char *pool, unsigned int hi, struct hist *dst)
{
	uint64_t o = __atomic_exchange_n(&gn->dirty[hi], 0, __ATOMIC_SEQ_CST);
	uint64_t n = 0;

	while (o) {
		unsigned int oct = (unsigned int)__builtin_ctzll(o);
		uint8_t m = __atomic_exchange_n(&gn->cdirty[hi][oct], 0,
						__ATOMIC_SEQ_CST);

		o &= o - 1;
		while (m) {
			unsigned int ci = oct * SS_OCT_CHUNKS +
					  (unsigned int)__builtin_ctz(m);
			uint16_t c = __atomic_load_n(&gn->chunk[hi][ci],
						     __ATOMIC_ACQUIRE);

			m &= (uint8_t)(m - 1);
			if (!c)
				continue; /* cannot be: the number comes first
					   */
			k->chunks++;
			n += take_chunk(ss_bins(pool, c), shadow_of(k, i, c),
					&dst->bins[ci * SS_CHUNK]);
		}
	}
	return n;
}

/* Every chunk of histogram @hi of client @i, dirty or not (the last
 * drain: a count whose bit was missed).  Returns the values taken. */
static uint64_t take_all(struct ss_sink *k, int i, struct ss_gen *gn,
			 char *pool, unsigned int hi, struct hist *dst)
{
	uint64_t n = 0;

	for (unsigned int ci = 0; ci < SS_NCHUNK; ci++) {
		uint16_t c =
			__atomic_load_n(&gn->chunk[hi][ci], __ATOMIC_ACQUIRE);

		if (c)
			n += take_chunk(ss_bins(pool, c), shadow_of(k, i, c),
					&dst->bins[ci * SS_CHUNK]);
	}
	return n;
}

/* Histogram @hi of client @i (generation slots @gn) into the sink: its
 * bins, and what its head says beyond them (sum, overflow, min, max). */
static void drain_hist(struct ss_sink *k, int i, struct ss_gen *gn, char *pool,
		       unsigned int hi)
{
	struct hist *dst = hist_of(k->acc, hi);
	volatile struct hist_head *h = &gn->h[hi];
	struct ss_seen *seen = &k->seen[(size_t)i * SS_NHIST + hi];
	uint64_t had = dst->count, n, sum, ovf, count;

	n = take_bins(k, i, gn, pool, hi, dst);
	/* the head was written before the bins: it covers what was taken */
	count = h->count;
	sum = h->sum;
	ovf = h->overflow;
	if (ovf > seen->overflow) {
		n += ovf - seen->overflow;
		dst->overflow += ovf - seen->overflow;
		seen->overflow = ovf;
	}
	if (sum > seen->sum) {
		dst->sum += sum - seen->sum;
		seen->sum = sum;
	}
	dst->count += n;
	if (count) {
		uint64_t mn = h->min, mx = h->max;

		if (!had || mn < dst->min)
			dst->min = mn;
		if (mx > dst->max)
			dst->max = mx;
		k->has[hi / OP_NR] = true;
	}
}

/* The drain, leaving the histograms of @keep's bits (SS_HIST() % 64 of
 * word SS_HIST() / 64) to a later one: their dirty bits stay set. */
static void drain(struct ss_sink *k, struct shm *shm, unsigned int gen,
		  const uint64_t *keep)
{
	unsigned int g = gen % SS_GENS;

	if (gen != k->gen)
		sink_restart(k, gen);
	/* in the measured phase nothing reads the warmup's histograms
	 * again, and no client writes them (but one that took its clock
	 * before the warmup's end, and records after it: a page or two
	 * again): their memory goes back */
	if (gen && !k->released) {
		ss_release_gen(shm, k->nclients, gen - 1);
		k->released = true;
	}
	for (int i = 0; i < k->nclients; i++) {
		struct client_slot *s = &shm->slot[i];
		struct ss_gen *gn = shm_gen(shm, i, g);
		char *pool = shm_pool(shm, i, g);
		for (unsigned int d = 0; d < SS_DWORDS; d++) {
			volatile uint64_t *bits = &s->st.dirty[g][d];
			uint64_t w;

			if (!(__atomic_load_n(bits, __ATOMIC_RELAXED) &
			      ~keep[d]))
				continue;
			w = keep[d] ? __atomic_fetch_and(bits, keep[d],
							 __ATOMIC_SEQ_CST)
				    : __atomic_exchange_n(bits, 0,
							  __ATOMIC_SEQ_CST);
			w &= ~keep[d];
			while (w) {
				unsigned int hi =
					d * 64 +
					(unsigned int)__builtin_ctzll(w);

				w &= w - 1;
				drain_hist(k, i, gn, pool, hi);
			}
		}
	}
}

void ss_drain(struct ss_sink *k, struct shm *shm, unsigned int gen)
{
	static const uint64_t none[SS_DWORDS];

	drain(k, shm, gen, none);
}

void ss_drain_series(struct ss_sink *k, struct shm *shm, unsigned int gen)
{
	drain(k, shm, gen, k->own_bits);
}

void ss_release_gen(struct shm *shm, int n, unsigned int g)
{
	/* MADV_REMOVE frees shared memory (MADV_DONTNEED would only unmap
	 * it here); nothing to do if it fails: the memory stays */
	madvise(shm_gen(shm, 0, g), (size_t)n * SS_GEN_STRIDE, MADV_REMOVE);
}

void ss_final(struct ss_sink *k, struct shm *shm, unsigned int gen,
	      struct stats *out)
{
	unsigned int g = gen % SS_GENS;

	ss_drain(k, shm, gen);
	/* and what a missed bit left behind: every chunk of every
	 * histogram a client recorded into */
	for (int i = 0; i < k->nclients; i++) {
		struct ss_gen *gn = shm_gen(shm, i, g);

		if (shm->slot[i].gen < gen)
			continue;
		for (unsigned int hi = 0; hi < SS_NHIST; hi++) {
			struct hist *dst = hist_of(k->acc, hi);

			if (gn->h[hi].count)
				dst->count += take_all(
					k, i, gn, shm_pool(shm, i, g), hi, dst);
		}
	}
	memset(out, 0, sizeof(*out));
	for (unsigned int hi = 0; hi < SS_NHIST; hi++)
		memcpy(hist_of(out, hi)->bins, hist_of(k->acc, hi)->bins,
		       sizeof(out->op[0].bins));
	for (int i = 0; i < k->nclients; i++) {
		struct client_slot *s = &shm->slot[i];

		/* the heads of every client's generation @gen: what the bins
		 * hold (none in one that never reached it: its pages are
		 * left alone); the counters of the slots in it, as stats_add */
		if (s->gen < gen)
			continue;
		for (unsigned int hi = 0; hi < SS_NHIST; hi++)
			hist_head_add(&hist_of(out, hi)->head,
				      &shm_gen(shm, i, g)->h[hi]);
		if (s->gen == gen)
			ss_add_counters(out, &s->st, true);
	}
}
