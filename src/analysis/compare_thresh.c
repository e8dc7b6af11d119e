/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare_thresh.c - the thresholds that flag a change when no test can
 * decide (docs/regressions.md, "When the test cannot decide"): with one
 * run a side the single-run ones, set from the spreads of runs of one
 * and the same configuration on a busy machine, so that they flag only
 * what the machine's noise cannot make; with a few runs a side those of
 * the small-n mode, with every candidate run past every baseline run.
 */
#include "compare_impl.h"

#include <math.h>
#include <stdbool.h>

/*
 * The small-n mode: rates, mean and p50 past 2 x the noise floor, p99
 * past 4 x (thr_noises); p99.9 and the exceedance counts by a factor of
 * 2, max (a single op) by 4 (thr_factor); exceedance counts also by at
 * least CMP_THR_EXC_MIN per million, or from 0 in every baseline run to
 * > 0 in every candidate run for thresholds from CMP_THR_EXC_NEW_NS on.
 */
#define CMP_THR_EXC_MIN	   10.0
#define CMP_THR_EXC_NEW_NS 100000000

/*
 * One run a side (docs/regressions.md, "One run a side", with the
 * spreads they were set from and the commands that measured them):
 *  - the throughput: down by more than ONE_RATE_DROP, or ONE_RATE_BUSY
 *    when a run ran beside other load (own throughput included: on a
 *    machine whose other programs held the clients' CPUs 44 to 90 % of
 *    their time, one run's own MB/s fell 25 % below another's in 10.5 %
 *    of 552 ordered pairs of A-vs-A runs, 40 % in 0.9 %);
 *  - mean, p50, p99 (and rp50, rp99): ONE_MS_FACTOR times or more, and
 *    the worse value at ONE_MS_MIN ms or more;
 *  - p99.9 and max (rp99.9, rmax): ONE_TAIL_FACTOR times or more, and
 *    the worse value at ONE_TAIL_MIN ms or more ("x10 that also crosses
 *    100 ms": a stall, not a scheduler's hiccup);
 *  - ops over 100 or 500 ms per million: ONE_EXC_FACTOR times the
 *    other side's and ONE_EXC_OPS ops or more; ops over 10 ms and late
 *    starts (10 ms late) never alone (a busy machine makes them).
 * Improvements are the mirror image.  An op's ops/s never decides alone
 * (compare_scope.c: it moves with the throughput).
 */
#define ONE_RATE_DROP	0.25
#define ONE_RATE_BUSY	0.40
#define ONE_MS_FACTOR	3.0
#define ONE_MS_MIN	1.0
#define ONE_TAIL_FACTOR 10.0
#define ONE_TAIL_MIN	100.0
#define ONE_EXC_FACTOR	10.0
#define ONE_EXC_OPS	5.0

static double vmin(const double *x, int n)
{
	double m = x[0];

	for (int i = 1; i < n; i++)
		m = fmin(m, x[i]);
	return m;
}

static double vmax(const double *x, int n)
{
	double m = x[0];

	for (int i = 1; i < n; i++)
		m = fmax(m, x[i]);
	return m;
}

bool cmp_past_floor(const struct cmp_report *r, const struct cmp_row *w)
{
	return !cmp_is_ms(w->metric) ||
	       fabs(w->med_b - w->med_a) > r->o.floor_ms;
}

/*
 * The single-run rule: is @to worse than @from past the thresholds?  A
 * regression is baseline -> candidate, an improvement the other way.
 */
static bool one_run_flag(const struct cmp_report *r, const struct cmp_row *w,
			 double from, double to)
{
	const struct cmp_metric_info *mi = &cmp_metric[w->metric];

	switch (mi->kind) {
	case CMP_K_RATE:
		return from > 0 &&
		       to < from * (1 - (r->own_busy ? ONE_RATE_BUSY
						     : ONE_RATE_DROP));
	case CMP_K_MS:
		return to >= ONE_MS_FACTOR * from && to >= ONE_MS_MIN &&
		       to - from > r->o.floor_ms;
	case CMP_K_TAIL:
		return to >= ONE_TAIL_FACTOR * from && to >= ONE_TAIL_MIN &&
		       to - from > r->o.floor_ms;
	case CMP_K_EXC:
		if (mi->thr_ns < CMP_THR_EXC_NEW_NS)
			return false;
		/* per million of the fewest ops of a run: ops over */
		return to >= ONE_EXC_FACTOR * from &&
		       to * (double)w->min_count / 1e6 >= ONE_EXC_OPS - 1e-9;
	}
	return false;
}

/* the small-n rule; with @medians only its change of medians, not the
 * separation of every run */
static bool small_n_flag(const struct cmp_report *r, const struct cmp_row *w,
			 bool up, bool medians)
{
	const struct cmp_metric_info *mi = &cmp_metric[w->metric];
	double ch = w->change, noise = r->o.noise;
	double lo_a = vmin(w->a, r->na), hi_a = vmax(w->a, r->na);
	double lo_b = vmin(w->b, r->nb), hi_b = vmax(w->b, r->nb);
	bool ok;

	if (mi->kind == CMP_K_EXC) {
		if (mi->thr_ns >= CMP_THR_EXC_NEW_NS &&
		    (up ? hi_a == 0 && lo_b > 0 : lo_a > 0 && hi_b == 0))
			return true;
		if (medians && mi->thr_ns >= CMP_THR_EXC_NEW_NS &&
		    (up ? w->med_a == 0 && w->med_b > 0
			: w->med_a > 0 && w->med_b == 0))
			return true;
		ok = up ? ch >= mi->thr_factor - 1 &&
				     w->med_b - w->med_a >= CMP_THR_EXC_MIN
			: ch <= 1 / mi->thr_factor - 1 &&
				     w->med_a - w->med_b >= CMP_THR_EXC_MIN;
	} else if (mi->kind == CMP_K_TAIL) {
		double f = mi->thr_factor;

		ok = up ? ch >= f - 1 : ch <= 1 / f - 1;
	} else {
		ok = up ? ch > mi->thr_noises * noise
			: ch < -mi->thr_noises * noise;
	}
	if (!ok || !cmp_past_floor(r, w))
		return false;
	if (medians)
		return true;
	if (up)
		return lo_b > hi_a * (1 + noise);
	return hi_b < lo_a * (1 - noise);
}

bool cmp_thr_flag(const struct cmp_report *r, const struct cmp_row *w,
		  bool worse)
{
	bool up = worse == cmp_higher_worse(w->metric); /* the value grows */

	if (!cmp_decides(w))
		return false;
	if (r->na < 2 || r->nb < 2)
		return worse ? one_run_flag(r, w, w->med_a, w->med_b)
			     : one_run_flag(r, w, w->med_b, w->med_a);
	return small_n_flag(r, w, up, false);
}

bool cmp_thr_medians(const struct cmp_report *r, const struct cmp_row *w)
{
	if (!cmp_decides(w) || r->na < 2 || r->nb < 2)
		return false;
	return small_n_flag(r, w, cmp_higher_worse(w->metric), true);
}
