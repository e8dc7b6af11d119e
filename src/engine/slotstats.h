/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * slotstats.h - what a client measures, in its shared slot, and how the
 * parent takes it: small histogram heads in the slot, bins in a pool of
 * bin chunks allocated as they are first used, and a drain of only the
 * chunks recorded into since the last one (docs/design.md §4).
 *
 * The pool is part of the one shared mapping (shm.h), MAP_NORESERVE: a
 * page of it only becomes memory when a client first writes to it, and
 * the parent reads only chunks a client allocated.  Each client has a
 * region of SS_POOL_BYTES; a chunk is 8 bins of a histogram (64 bytes, an
 * eighth of an octave), numbered in the order the client first needed
 * it, so its chunks fill its first pages whatever the values are, and a
 * value far out in the tail costs 64 bytes, not a page.
 *
 * A chunk's bins are the client's cumulative counts, written by it alone
 * with plain increments; the parent keeps a copy of each bin as it last
 * read it (struct ss_sink: shadow) and adds the difference to its
 * cumulative bins.  The heads (count, sum, min, max, overflow) are the
 * client's cumulative figures, written by it alone.  After recording, a
 * client marks the chunk, its octave and the histogram dirty, in that
 * order (bits it sets only when they are clear); the parent clears a bit
 * before it reads what it covers, top down, so a record after that read
 * sets it again, and a drain reads only the chunks recorded into.  With
 * no barrier in the client, a count may reach the parent a drain late
 * (its store still on the way when the parent read the bin, the bit
 * already set); the last drain, with the clients gone, reads every
 * chunk (ss_final), so the result is exact.
 *
 * A generation (shm.h: gen, the warmup then the measured phase) has a
 * set of heads and chunks of its own: a client that enters the measured
 * phase switches sets, with no reset that could race with a drain.
 */
#ifndef DBNG_SLOTSTATS_H
#define DBNG_SLOTSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "histogram.h"
#include "ops.h"
#include "stats.h"

struct shm;

#define SS_CHUNK       8 /* bins per chunk: 64 bytes, a cache line */
#define SS_NCHUNK      (HIST_BUCKETS / SS_CHUNK) /* chunks per histogram */
#define SS_OCT_CHUNKS  (HIST_SUB / SS_CHUNK)	 /* chunks per octave */
#define SS_OCTS	       (HIST_BUCKETS / HIST_SUB) /* octaves per histogram */
#define SS_CHUNK_BYTES (SS_CHUNK * sizeof(uint64_t))
#define SS_GENS	       2 /* the warmup, the measured phase */

/* the histograms of a slot: latencies, response times, own latencies */
/* (op and own first: the two an unpaced run with BPF uses, side by side) */
enum ss_kind { SS_OP, SS_OWN, SS_RESP, SS_KINDS };
#define SS_NHIST	  (SS_KINDS * OP_NR)
#define SS_HIST(kind, op) ((unsigned int)(kind)*OP_NR + (unsigned int)(op))

#define SS_GEN_CHUNKS (SS_NHIST * SS_NCHUNK) /* a generation's, at most */
/* a generation's part of a client's region of the pool, in whole pages
 * (so that the warmup's can be given back, ss_release_gen) */
#define SS_GEN_POOL \
	(((size_t)SS_GEN_CHUNKS * SS_CHUNK_BYTES + 4095) & ~(size_t)4095)
#define SS_POOL_BYTES (SS_GENS * SS_GEN_POOL) /* a client's region */

_Static_assert(HIST_SUB % SS_CHUNK == 0, "whole chunks per octave");
/* the histograms' dirty bits of a generation: words of 64 */
#define SS_DWORDS ((SS_NHIST + 63) / 64)

_Static_assert(SS_OCTS <= 64, "one bitmap word of octaves");
_Static_assert(SS_GEN_CHUNKS < 65536, "a chunk number is 16 bits");

/* One generation's histograms of a client, in pages of its own. */
struct __attribute__((aligned(4096))) ss_gen {
	struct hist_head h[SS_NHIST];
	/* bit o: octave o was recorded into since the parent drained it */
	volatile uint64_t dirty[SS_NHIST];
	/* bit k of [hi][o]: chunk o * SS_OCT_CHUNKS + k of it */
	volatile uint8_t cdirty[SS_NHIST][SS_OCTS];
	/* 1 + the number of each chunk of bins in the client's pool; 0:
	 * none yet */
	volatile uint16_t chunk[SS_NHIST][SS_NCHUNK];
};

/* What a client measured (struct stats's counters; its histograms'
 * heads and chunks per generation). */
struct slot_stats {
	uint64_t errors[OP_NR]; /* stats.h */
	uint64_t bytes[OP_NR];
	uint64_t not_run[OP_NR];
	uint64_t nresp; /* 0: late and late_max were not written */
	uint64_t late[OP_NR];
	uint64_t late_max[OP_NR];
	uint64_t nown; /* 0: foreign_ns was not written */
	uint64_t foreign_ns[OP_NR];
	/* bit SS_HIST() % 64 of word SS_HIST() / 64: the histogram was
	 * recorded into since drained */
	volatile uint64_t dirty[SS_GENS][SS_DWORDS];
	uint32_t nchunks[SS_GENS]; /* chunks of the pool in use, per gen */
};

/* A client's generation: its ss_gen, then its part of the pool.  All
 * clients' ones of a generation are side by side (shm.h: shm_gen), so
 * that one call gives the warmup's memory back (ss_release_gen). */
#define SS_GEN_STRIDE (sizeof(struct ss_gen) + SS_GEN_POOL)

/* ss_new_chunk - the first value of chunk @ci of histogram @hi in
 * generation @g: take the client's next chunk (cold, no system call). */
uint16_t ss_new_chunk(struct slot_stats *ss, struct ss_gen *gn, unsigned int g,
		      unsigned int hi, unsigned int ci);

/* ss_bins - chunk @c in a client's part @pool of a generation's pool */
static inline uint64_t *ss_bins(char *pool, uint16_t c)
{
	return (uint64_t *)(void *)(pool + (size_t)(c - 1) * SS_CHUNK_BYTES);
}

/*
 * ss_record - value @v (ns) into histogram @hi of generation @g of a
 * client (@pool: its region of the pool).  No allocation, no system call,
 * no atomic operation but, the first time since a drain, an atomic or of
 * the dirty bits.
 */
static inline __attribute__((always_inline)) void
ss_record(struct slot_stats *ss, struct ss_gen *gn, char *pool, unsigned int g,
	  unsigned int hi, uint64_t v)
{
	hist_head_record(&gn->h[hi], v);
	if (__builtin_expect(v < HIST_LIMIT, 1)) {
		unsigned int i = hist_index(v), oct = i / HIST_SUB;
		uint16_t c = gn->chunk[hi][i / SS_CHUNK];

		if (__builtin_expect(!c, 0))
			c = ss_new_chunk(ss, gn, g, hi, i / SS_CHUNK);
		uint8_t cb = (uint8_t)(1u << (i / SS_CHUNK % SS_OCT_CHUNKS));

		uint64_t *b = &ss_bins(pool, c)[i % SS_CHUNK];

		/* the client alone writes its bins, cumulative: a plain
		 * increment (the parent keeps what it saw, ss_sink.shadow) */
		__atomic_store_n(b, *b + 1, __ATOMIC_RELAXED);
		/* the chunk, its octave, the histogram: bottom up.  A chunk
		 * already marked needs nothing more: the parent clears the
		 * bits top down and then reads the chunk, so while its bit
		 * is set either the parent is about to read it or the
		 * octave's and the histogram's bits are still set (the one
		 * load the common case pays) */
		if (__atomic_load_n(&gn->cdirty[hi][oct], __ATOMIC_RELAXED) &
		    cb)
			return;
		__atomic_fetch_or(&gn->cdirty[hi][oct], cb, __ATOMIC_SEQ_CST);
		if (!(__atomic_load_n(&gn->dirty[hi], __ATOMIC_RELAXED) >> oct &
		      1))
			__atomic_fetch_or(&gn->dirty[hi], 1ULL << oct,
					  __ATOMIC_SEQ_CST);
	}
	/* an overflow (73 minutes or more) changes only the head: always
	 * the atomic or, which orders the head's stores before it */
	__atomic_fetch_or(&ss->dirty[g][hi / 64], 1ULL << (hi % 64),
			  __ATOMIC_SEQ_CST);
}

/* ss_record_resp - stats_record_resp() for a slot: @op of a paced client
 * due at @due ran from @t0 to @t1.  Returns its response time. */
static inline uint64_t ss_record_resp(struct slot_stats *ss, struct ss_gen *gn,
				      char *pool, unsigned int g, int op,
				      uint64_t due, uint64_t t0, uint64_t t1)
{
	uint64_t r = stats_resp_count(&ss->nresp, ss->late, ss->late_max, op,
				      due, t0, t1);

	ss_record(ss, gn, pool, g, SS_HIST(SS_RESP, op), r);
	return r;
}

/* ss_record_own - stats_record_own() for a slot: a call of @op that took
 * @d ns waited @fw of them for a CPU another program held.  Returns its
 * own latency. */
static inline uint64_t ss_record_own(struct slot_stats *ss, struct ss_gen *gn,
				     char *pool, unsigned int g, int op,
				     uint64_t d, uint64_t fw)
{
	uint64_t own = stats_own_count(&ss->nown, ss->foreign_ns, op, d, fw);

	ss_record(ss, gn, pool, g, SS_HIST(SS_OWN, op), own);
	return own;
}

/* ss_head - the head of histogram @hi of a client's generation @gn */
static inline const struct hist_head *ss_head(const struct ss_gen *gn,
					      unsigned int hi)
{
	return &gn->h[hi];
}

/* ss_reset - the counters of a client entering a new generation (the
 * histograms of the new one are untouched, so empty). */
void ss_reset(struct slot_stats *ss);

/* ss_add_counters - @dst's counters += @src's (stats_add without the
 * histograms; @own: with the foreign wait, as stats_add has it). */
void ss_add_counters(struct stats *dst, const struct slot_stats *src, bool own);

/*
 * The parent's side: the cumulative histograms of one generation, from
 * every client, drained tick by tick.  A tick costs what the clients
 * recorded into since the last (the dirty chunks), plus a few words per
 * client.
 */
struct ss_sink {
	int nclients;
	unsigned int gen;   /* the generation in acc */
	struct stats *acc;  /* its cumulative histograms (not the counters) */
	bool has[SS_KINDS]; /* a histogram of each kind got values */
	/* per client and histogram: its head's sum and overflow count at
	 * the last drain */
	struct ss_seen {
		uint64_t sum, overflow;
	} * seen;
	bool released; /* the warmup's memory was given back */
	/* per client, a copy of its bins as the last drain saw them, at
	 * the place of its chunks (MAP_PRIVATE | MAP_NORESERVE: pages only
	 * where it has chunks) */
	char *shadow;
	uint64_t chunks; /* chunks drained, all time (for the tests) */
	uint64_t own_bits[SS_DWORDS]; /* the own latencies' histograms */
};

struct ss_sink *ss_sink_new(int nclients);
void ss_sink_free(struct ss_sink *k);

/* ss_drain - what the clients of @shm recorded into generation @gen since
 * the last drain into k->acc (a new generation starts it afresh). */
void ss_drain(struct ss_sink *k, struct shm *shm, unsigned int gen);

/* ss_drain_series - ss_drain() of what a tick's point of the series
 * reads: the own latencies (which it leaves out) stay for ss_final, and
 * their dirty bits stay set, so a client recording them pays no atomic
 * operation.  Half of a tick's chunks when the clients' off-CPU time is
 * traced (every op then records both). */
void ss_drain_series(struct ss_sink *k, struct shm *shm, unsigned int gen);

/* ss_release_gen - give back the memory of generation @g of every one of
 * the @n clients (heads, chunk numbers and chunks): they are in a later
 * one, and @g will not be drained again.  Its pages read as zeros
 * afterwards.  One call: each costs a walk over every process that
 * maps the memory. */
void ss_release_gen(struct shm *shm, int n, unsigned int g);

/*
 * ss_final - every client is gone: the exact statistics of generation @gen
 * into @out (zeroed here): the counters of the slots in it, as stats_add
 * merges them, and every histogram, whose heads are the merged heads of
 * the clients and whose bins hold all they recorded.
 */
void ss_final(struct ss_sink *k, struct shm *shm, unsigned int gen,
	      struct stats *out);

#endif
