/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * histogram.c - log-linear latency histogram: merge and percentiles.
 * The layout and error bound are explained in histogram.h.
 */
#include "histogram.h"

#include <math.h>
#include <string.h>

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
}

uint64_t hist_bucket_lo(unsigned int i)
{
	unsigned int shift;

	if (i < HIST_SUB)
		return i;
	shift = (i - HIST_SUB) / HIST_SUB;
	return (uint64_t)(HIST_SUB + (i - HIST_SUB) % HIST_SUB) << shift;
}

uint64_t hist_bucket_width(unsigned int i)
{
	if (i < HIST_SUB)
		return 1;
	return 1ULL << ((i - HIST_SUB) / HIST_SUB);
}

uint64_t hist_bucket_value(const struct hist *h, unsigned int i)
{
	uint64_t v = hist_bucket_lo(i) + hist_bucket_width(i) / 2;

	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

void hist_head_add(struct hist_head *dst, const struct hist_head *src)
{
	if (!src->count)
		return;
	if (!dst->count || src->min < dst->min)
		dst->min = src->min;
	dst->count += src->count;
	dst->sum += src->sum;
	dst->overflow += src->overflow;
	if (src->max > dst->max)
		dst->max = src->max;
}

void hist_add(struct hist *dst, const struct hist *src)
{
	if (!src->count)
		return;
	hist_head_add(&dst->head, &src->head);
	for (unsigned int i = 0; i < HIST_BUCKETS; i++)
		dst->bins[i] += src->bins[i];
}

void hist_settle(struct hist *h)
{
	uint64_t n = h->overflow;

	for (unsigned int i = 0; i < HIST_BUCKETS; i++)
		n += h->bins[i];
	if (!n) /* nothing the bins hold: an empty histogram */
		hist_init(h);
	h->count = n;
}

void hist_sub(struct hist *d, const struct hist *a, const struct hist *b)
{
	uint64_t n = 0;

	for (unsigned int i = 0; i < HIST_BUCKETS; i++) {
		d->bins[i] = a->bins[i] > b->bins[i] ? a->bins[i] - b->bins[i] : 0;
		n += d->bins[i];
	}
	d->overflow = a->overflow > b->overflow ? a->overflow - b->overflow : 0;
	d->count = n + d->overflow;
	d->sum = a->sum > b->sum ? a->sum - b->sum : 0;
	d->min = 0;
	d->max = a->max;
}

double hist_mean(const struct hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}

uint64_t hist_value_at(const struct hist *h, double p)
{
	uint64_t rank, seen = 0;

	if (!h->count)
		return 0;
	if (p >= 100.0)
		return h->max;
	rank = (uint64_t)ceil(p * (double)h->count / 100.0);
	if (rank < 1)
		rank = 1;
	for (unsigned int i = 0; i < HIST_BUCKETS; i++) {
		seen += h->bins[i];
		if (seen >= rank)
			return hist_bucket_value(h, i);
	}
	return h->max; /* the rank falls among the overflow values */
}
