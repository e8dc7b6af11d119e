/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * stats.c - per-operation statistics of one client, and their merge.
 */
#include "stats.h"

void stats_reset(struct stats *st)
{
	for (int i = 0; i < OP_NR; i++) {
		st->errors[i] = 0;
		st->bytes[i] = 0;
		st->not_run[i] = 0;
		if (st->op[i].count) /* untouched pages stay untouched */
			hist_init(&st->op[i]);
	}
	if (st->nresp) {
		for (int i = 0; i < OP_NR; i++) {
			st->late[i] = 0;
			st->late_max[i] = 0;
			if (st->resp[i].count)
				hist_init(&st->resp[i]);
		}
		st->nresp = 0;
	}
	if (st->nown) {
		for (int i = 0; i < OP_NR; i++) {
			st->foreign_ns[i] = 0;
			if (st->own[i].count)
				hist_init(&st->own[i]);
		}
		st->nown = 0;
	}
}

/* the own latencies of @src into @dst (stats.h: nown) */
static void add_own(struct stats *dst, const struct stats *src)
{
	dst->nown += src->nown;
	for (int i = 0; i < OP_NR; i++) {
		dst->foreign_ns[i] += src->foreign_ns[i];
		hist_add(&dst->own[i], &src->own[i]);
	}
}

void stats_add(struct stats *dst, const struct stats *src)
{
	stats_add_series(dst, src);
	if (src->nown)
		add_own(dst, src);
}

void stats_add_series(struct stats *dst, const struct stats *src)
{
	for (int i = 0; i < OP_NR; i++) {
		dst->errors[i] += src->errors[i];
		dst->bytes[i] += src->bytes[i];
		dst->not_run[i] += src->not_run[i];
		hist_add(&dst->op[i], &src->op[i]);
	}
	if (!src->nresp)
		return;
	dst->nresp += src->nresp;
	for (int i = 0; i < OP_NR; i++) {
		dst->late[i] += src->late[i];
		if (src->late_max[i] > dst->late_max[i])
			dst->late_max[i] = src->late_max[i];
		hist_add(&dst->resp[i], &src->resp[i]);
	}
}
