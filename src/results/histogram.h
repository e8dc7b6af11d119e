/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * histogram.h - fixed-size log-linear latency histogram in nanoseconds.
 *
 * EXECUTIVE SUMMARY
 *
 * Values below 64 ns get one bucket each.  Every power of two above that,
 * [2^k, 2^(k+1)) for k = 6 .. 41, is cut into 64 equal buckets, so a bucket
 * is at most 1/64 of its values wide and reporting its midpoint is off by at
 * most 1/128 = 0.78 % of the true value.  The top of the range is 2^42 ns
 * (73 minutes); larger values go to an overflow count, and still update the
 * exact count, sum, min and max.  2368 buckets of 8 bytes: 18.5 KiB.
 *
 * The structure holds no pointers, so it can live in a MAP_SHARED region
 * written by a forked client and read by the parent, and two histograms
 * merge by adding their arrays.  Its head (count, sum, min, max,
 * overflow) is a struct of its own, struct hist_head, for the clients'
 * slots, which keep the heads and put the bins elsewhere, allocated as
 * they are first used (engine/slotstats.h).
 */
#ifndef DBNG_HISTOGRAM_H
#define DBNG_HISTOGRAM_H

#include <stdbool.h>
#include <stdint.h>

#define HIST_SUB_BITS 6
#define HIST_SUB      (1u << HIST_SUB_BITS)
#define HIST_MAX_BITS 42 /* values < 2^42 ns are binned */
#define HIST_BUCKETS  (HIST_SUB + (HIST_MAX_BITS - HIST_SUB_BITS) * HIST_SUB)
#define HIST_LIMIT    (1ULL << HIST_MAX_BITS)

struct hist_head {
	uint64_t count; /* values recorded, overflow included */
	uint64_t sum;	/* exact sum of the values, ns */
	uint64_t min;	/* meaningful only when count > 0 */
	uint64_t max;
	uint64_t overflow; /* values >= HIST_LIMIT */
};

struct hist {
	union { /* h->count, or the head as one: h->head */
		struct hist_head head;
		struct {
			uint64_t count, sum, min, max, overflow;
		};
	};
	uint64_t bins[HIST_BUCKETS];
};

_Static_assert(sizeof(struct hist_head) == 5 * sizeof(uint64_t),
	       "struct hist's head is its first five fields");

/* hist_init - make @h empty (all zero, so zeroed memory is empty too). */
void hist_init(struct hist *h);

/* hist_index - the bucket of value @v (< HIST_LIMIT). */
static inline unsigned int hist_index(uint64_t v)
{
	unsigned int msb, shift;

	if (v < HIST_SUB)
		return (unsigned int)v;
	msb = 63u - (unsigned int)__builtin_clzll(v);
	shift = msb - HIST_SUB_BITS;
	return HIST_SUB + shift * HIST_SUB +
	       (unsigned int)((v >> shift) - HIST_SUB);
}

/* hist_head_record - one value @v (ns) into the head @h alone: count,
 * sum, min, max and the overflow count; its bin is the caller's. */
static inline void hist_head_record(struct hist_head *h, uint64_t v)
{
	if (v < h->min || !h->count)
		h->min = v;
	h->count++;
	h->sum += v;
	if (v > h->max)
		h->max = v;
	if (v >= HIST_LIMIT)
		h->overflow++;
}

/* hist_record - add one value @v (ns).  No allocation, no branches taken
 * on the common path beyond min/max. */
static inline void hist_record(struct hist *h, uint64_t v)
{
	hist_head_record(&h->head, v);
	if (v < HIST_LIMIT)
		h->bins[hist_index(v)]++;
}

/* hist_bucket_lo - smallest value of bucket @i. */
uint64_t hist_bucket_lo(unsigned int i);

/* hist_bucket_width - number of distinct values bucket @i holds. */
uint64_t hist_bucket_width(unsigned int i);

/* hist_bucket_value - the value reported for bucket @i of @h: its
 * midpoint, clamped to [min, max] (within 0.78 % of any value in it). */
uint64_t hist_bucket_value(const struct hist *h, unsigned int i);

/* hist_add - @dst += @src (exact merge). */
void hist_add(struct hist *dst, const struct hist *src);

/* hist_head_add - @dst += @src for the heads alone (what hist_add does
 * to them: counts and sums added, min and max of both). */
void hist_head_add(struct hist_head *dst, const struct hist_head *src);

/*
 * hist_settle - make @h's count that of its bins and overflow: for a copy
 * read while its values were still being recorded, where the reader may
 * have seen count before or after a bin's increment.  Its percentiles
 * rest on the bins, so the bins are the copy's truth.
 */
void hist_settle(struct hist *h);

/*
 * hist_sub - @d = the values in @a that are not in @b, where @a is a later
 * state of the same cumulative histogram as @b: bins, count and sum are
 * differences; min is 0 and max is @a's (callers that know the interval's
 * exact max set it).
 */
void hist_sub(struct hist *d, const struct hist *a, const struct hist *b);

/* hist_mean - mean in ns, 0 for an empty histogram. */
double hist_mean(const struct hist *h);

/*
 * hist_value_at - the value at percentile @p (0 < p <= 100): the value of
 * rank ceil(p/100 * count) in sorted order, reported as its bucket's
 * midpoint clamped to [min, max].  p = 100 gives the exact max, an empty
 * histogram gives 0.
 */
uint64_t hist_value_at(const struct hist *h, double p);

#endif
