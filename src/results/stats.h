/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * stats.h - what one client measured: a latency histogram and an error
 * count per operation, and the lines of the ops its backend cannot run.  Plain data, no pointers: it lives in shared memory
 * and merges by addition.
 */
#ifndef DBNG_STATS_H
#define DBNG_STATS_H

#include "histogram.h"
#include "ops.h"

struct stats {
	uint64_t errors[OP_NR]; /* results that differed from the status */
	uint64_t bytes[OP_NR];	/* payload bytes (ReadX, WriteX) */
	struct hist op[OP_NR];
	uint64_t not_run[OP_NR]; /* lines of ops the backend cannot execute
				  * (backend.h: not_run): counted, not timed */
};

/* stats_reset - make @st empty; all-zero memory is already empty. */
void stats_reset(struct stats *st);

/* stats_add - @dst += @src. */
void stats_add(struct stats *dst, const struct stats *src);

#endif
