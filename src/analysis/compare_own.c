/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare_own.c - deciding on own latencies (docs/regressions.md, "A
 * busy machine"): when runs ran beside other load and carry their own
 * latencies (each op's latency less the time its client waited for a CPU
 * another process held) and the throughput corrected alike, compare and
 * check decide on those; the raw figures stay in the table.
 */
#include "compare_impl.h"

#include "result.h"

bool cmp_run_has_own(const struct result *x)
{
	(void)x;
	return false; /* until the results carry own latencies */
}

bool cmp_own_value(const struct result *x, int op, int m, double *v)
{
	(void)x;
	(void)op;
	(void)m;
	(void)v;
	return false; /* until the results carry own latencies */
}

void cmp_own_choose(struct cmp_report *r, struct result **base,
		    struct result **cand)
{
	(void)base;
	(void)cand;
	r->own = false;
}
