/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare_own.c - deciding on own latencies (docs/regressions.md, "A
 * busy machine" and "Own latency"): when runs ran beside other load and
 * carry their own latencies (each op's latency less the time its client
 * waited for a CPU another process held) and the throughput corrected
 * alike, compare and check decide on those; the raw figures stay in the
 * table.
 */
#include "compare_impl.h"

#include <stdbool.h>

#include "result.h"
#include "result_foreign.h"

bool cmp_run_has_own(const struct result *x)
{
	return result_has_own(x) && x->foreign.own_mbps > 0;
}

bool cmp_own_value(const struct result *x, int op, int m, double *v)
{
	if (!cmp_run_has_own(x))
		return false;
	if (m == CMP_M_MBS) {
		*v = x->foreign.own_mbps;
		return true;
	}
	if (op < 0 || m == CMP_M_OPS || cmp_is_resp(m))
		return false;
	/* an op none of whose calls was measured has no own figure */
	if (x->op[op].own.count != x->op[op].h.count)
		return false;
	return cmp_hist_value(&x->op[op].own, x->has_bins, m, v);
}

/* Did run @x run beside other load: the machine past the bound of
 * result_disturbed(), or its clients waiting for CPUs other programs held
 * FOREIGN_BUSY_SHARE of their time or more (BPF's split)? */
static bool run_busy(const struct result *x)
{
	bool runq;
	double share = result_foreign_share(x, &runq);

	return result_disturbed(&x->disturb) ||
	       (!runq && share >= FOREIGN_BUSY_SHARE);
}

static void count_side(struct cmp_report *r, int s, struct result **side,
		       int n, int *busy)
{
	for (int i = 0; i < n; i++) {
		*busy += run_busy(side[i]);
		r->own_runs[s] += cmp_run_has_own(side[i]);
	}
}

void cmp_own_choose(struct cmp_report *r, struct result **base,
		    struct result **cand)
{
	int busy = 0, lack;

	r->own = false;
	r->own_runs[0] = r->own_runs[1] = 0;
	count_side(r, 0, base, r->na, &busy);
	count_side(r, 1, cand, r->nb, &busy);
	r->own_busy = busy;
	if (!busy)
		return;
	lack = r->na + r->nb - r->own_runs[0] - r->own_runs[1];
	if (!lack) {
		r->own = true;
		return;
	}
	cmp_note(r,
		 "%d of %d runs ran beside other load, but %d of them (%d "
		 "baseline, %d candidate) carry no own latencies (they need "
		 "BPF: root, or CAP_BPF and CAP_PERFMON, without --no-bpf): "
		 "decided on the raw figures, which may be the machine's",
		 busy, r->na + r->nb, lack, r->na - r->own_runs[0],
		 r->nb - r->own_runs[1]);
}
