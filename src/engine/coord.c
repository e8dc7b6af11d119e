/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * coord.c - how the figures of the hosts of a run combine (coord.h): the
 * one definition, used by the MPI coordinator's reductions and by the
 * unit tests.  Counts add, maxima take the larger, never an average.
 */
#include "coord.h"

#include <string.h>

static inline uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

void coord_ctl_init(struct coord_ctl *c)
{
	memset(c, 0, sizeof(*c));
	c->stop_rank = COORD_NO_RANK;
}

void coord_ctl_add(struct coord_ctl *dst, const struct coord_ctl *src)
{
	/* the highest stop reason, and the lowest rank that has it */
	if (src->stop > dst->stop ||
	    (src->stop == dst->stop && src->stop_rank < dst->stop_rank)) {
		dst->stop = src->stop;
		dst->stop_rank = src->stop_rank;
	}
	dst->stop_signal = max_u64(dst->stop_signal, src->stop_signal);
	dst->warm_past = max_u64(dst->warm_past, src->warm_past);
	dst->end_past = max_u64(dst->end_past, src->end_past);
	dst->early = max_u64(dst->early, src->early);
	dst->alive += src->alive;
	dst->not_done += src->not_done;
	dst->lines += src->lines;
	dst->bytes += src->bytes;
	dst->over_ns = max_u64(dst->over_ns, src->over_ns);
	dst->over_lat = max_u64(dst->over_lat, src->over_lat);
	dst->now_ns = max_u64(dst->now_ns, src->now_ns);
}

void coord_fig_add(struct coord_fig *dst, const struct coord_fig *src)
{
	dst->lines += src->lines;
	dst->bytes += src->bytes;
	dst->lat = max_u64(dst->lat, src->lat);
	dst->active += src->active;
	for (int o = 0; o < OP_NR; o++) {
		dst->op_max[o] = max_u64(dst->op_max[o], src->op_max[o]);
		dst->resp_max[o] = max_u64(dst->resp_max[o], src->resp_max[o]);
	}
}
