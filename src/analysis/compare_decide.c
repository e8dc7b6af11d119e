/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare_decide.c - the verdict of every row: the mode (a test, or the
 * documented thresholds when the runs are too few), Mann-Whitney U with
 * Holm's correction and the bootstrap CI, the noise and latency floors,
 * and the row the reason names.  The rules are in docs/regressions.md.
 */
#include "compare_impl.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "sigtest.h"

/*
 * Thresholds of the modes without a test (1 run on a side, or too few
 * runs to reach alpha), documented in docs/regressions.md: rates, mean
 * and p50 past 2 x the noise floor, p99 past 4 x (thr_noises); p99.9 and
 * the exceedance counts by a factor of 2, max (a single op) by 4
 * (thr_factor), and so a percentile with fewer than 10 ops beyond it in
 * some run (few_beyond()); exceedance counts also by at least CMP_THR_EXC_MIN
 * per million, or from 0 in every baseline run to > 0 in every candidate run
 * for thresholds from CMP_THR_EXC_NEW_NS on.
 */
#define CMP_THR_EXC_MIN	   10.0
#define CMP_THR_EXC_NEW_NS 100000000

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

/* the absolute floor of latency metrics */
static bool past_floor(const struct cmp_report *r, const struct cmp_row *w)
{
	return !cmp_is_ms(w->metric) ||
	       fabs(w->med_b - w->med_a) > r->o.floor_ms;
}

/*
 * Whether a percentile rests on fewer than 10 ops per run beyond it (p99
 * of fewer than 1000 ops): then it is nearly the max, and judged as one.
 */
static bool few_beyond(const struct cmp_row *w)
{
	double pct = cmp_metric[w->metric].pct;

	return pct > 0 && (double)w->min_count * (1 - pct / 100) < 10;
}

/*
 * The threshold rule, for direction @worse: the change of medians past
 * the metric's threshold and floor, and with several runs per side every
 * candidate run past every baseline run by more than the noise floor.
 */
static bool thr_flag(const struct cmp_report *r, const struct cmp_row *w,
		     bool worse)
{
	const struct cmp_metric_info *mi = &cmp_metric[w->metric];
	bool up = worse == cmp_higher_worse(w->metric); /* the value grows */
	double ch = w->change, noise = r->o.noise;
	bool ok;

	if (mi->kind == CMP_K_EXC) {
		double lo_a = vmin(w->a, r->na), hi_a = vmax(w->a, r->na);
		double lo_b = vmin(w->b, r->nb), hi_b = vmax(w->b, r->nb);

		if (mi->thr_ns >= CMP_THR_EXC_NEW_NS &&
		    (up ? hi_a == 0 && lo_b > 0 : lo_a > 0 && hi_b == 0))
			return true;
		ok = up ? ch >= mi->thr_factor - 1 &&
				     w->med_b - w->med_a >= CMP_THR_EXC_MIN
			: ch <= 1 / mi->thr_factor - 1 &&
				     w->med_a - w->med_b >= CMP_THR_EXC_MIN;
	} else if (mi->kind == CMP_K_TAIL || few_beyond(w)) {
		double f = few_beyond(w) ? cmp_metric[CMP_M_MAX].thr_factor
					 : mi->thr_factor;

		ok = up ? ch >= f - 1 : ch <= 1 / f - 1;
	} else {
		ok = up ? ch > mi->thr_noises * noise
			: ch < -mi->thr_noises * noise;
	}
	if (!ok || !past_floor(r, w))
		return false;
	if (r->na < 2 || r->nb < 2)
		return true;
	if (up)
		return vmin(w->b, r->nb) > vmax(w->a, r->na) * (1 + noise);
	return vmax(w->b, r->nb) < vmin(w->a, r->na) * (1 - noise);
}

/* The test rule: Holm-significant, CI past the noise floor, past floor. */
static bool test_flag(const struct cmp_report *r, const struct cmp_row *w,
		      bool worse)
{
	bool up = worse == cmp_higher_worse(w->metric);

	if (!w->tested || !(w->p_holm < r->o.alpha) || !past_floor(r, w))
		return false;
	return up ? w->ci_lo > r->o.noise : w->ci_hi < -r->o.noise;
}

/* The test's inputs: p, pmin and the CI of every row, then Holm. */
static int run_tests(struct cmp_report *r)
{
	double *p, *adj, minp = 1;
	int k = 0;

	p = malloc((size_t)r->nrows * sizeof(*p));
	adj = malloc((size_t)r->nrows * sizeof(*adj));
	if (!p || !adj) {
		free(p);
		free(adj);
		return -1;
	}
	for (int i = 0; i < r->nrows; i++) {
		struct cmp_row *w = &r->rows[i];

		w->p = st_mwu(w->a, (size_t)r->na, w->b, (size_t)r->nb,
			      &w->pmin);
		st_bootstrap_ratio_ci(w->a, (size_t)r->na, w->b, (size_t)r->nb,
				      r->o.boot_iters, 1 - r->o.alpha,
				      r->o.seed + (uint64_t)i *
							  0x9e3779b97f4a7c15ULL,
				      &w->ci_lo, &w->ci_hi);
		/* a test that cannot reach alpha cannot reject: leaving it
		 * out of the family keeps the error rate (Tarone 1990) */
		w->tested = w->pmin <= r->o.alpha;
		if (w->tested) {
			p[k++] = w->p;
			minp = fmin(minp, w->pmin);
		}
	}
	st_holm(p, (size_t)k, adj);
	k = 0;
	for (int i = 0; i < r->nrows; i++) {
		if (r->rows[i].tested)
			r->rows[i].p_holm = adj[k++];
	}
	r->family = k;
	r->best_p = k ? fmin(1, k * minp) : 1;
	free(p);
	free(adj);
	return 0;
}

/*
 * How bad a change is, whatever its direction, to pick the row the
 * reason names: |log ratio|, but a change from 0 (infinite) ranks below
 * any finite one, so "p99.9 0.41 -> 498 ms" is named rather than "over10ms
 * 0 -> 9000" when both regressed.
 */
static double severity(const struct cmp_row *w)
{
	double s = fabs(log1p(w->change));

	return isinf(s) ? -1 : s;
}

static void decide(struct cmp_report *r)
{
	bool test = r->mode == CMP_MODE_TEST;

	r->worst = -1;
	for (int i = 0; i < r->nrows; i++) {
		struct cmp_row *w = &r->rows[i];
		bool up;

		if (test) {
			if (test_flag(r, w, true))
				w->verdict = CMP_V_WORSE;
			else if (test_flag(r, w, false))
				w->verdict = CMP_V_BETTER;
		} else {
			if (thr_flag(r, w, true))
				w->verdict = CMP_V_WORSE;
			else if (thr_flag(r, w, false))
				w->verdict = CMP_V_BETTER;
		}
		if (w->verdict == CMP_V_BETTER)
			r->nbetter++;
		if (w->verdict != CMP_V_WORSE) {
			up = cmp_higher_worse(w->metric);
			w->unclear = test && w->verdict == CMP_V_SAME &&
				     (thr_flag(r, w, true) ||
				      (w->p < r->o.alpha && past_floor(r, w) &&
				       (up ? w->change > r->o.noise
					   : w->change < -r->o.noise)));
			r->nunclear += w->unclear;
			continue;
		}
		r->nworse++;
		if (r->worst < 0)
			r->worst = i;
		else if (test && w->p_holm != r->rows[r->worst].p_holm)
			r->worst = w->p_holm < r->rows[r->worst].p_holm
					   ? i
					   : r->worst;
		else if (severity(w) > severity(&r->rows[r->worst]))
			r->worst = i;
	}
}

/* the metrics Holm would correct for: the family, or if there is none
 * yet (too few runs), the metrics whose values vary */
int cmp_family_size(const struct cmp_report *r)
{
	if (r->family)
		return r->family;
	return r->nvarying ? r->nvarying : 1;
}

int cmp_runs_needed_equal(const struct cmp_report *r)
{
	for (int n = 2; n <= 1000; n++) {
		if (cmp_family_size(r) * st_mwu_pmin_n((size_t)n, (size_t)n) <=
		    r->o.alpha)
			return n;
	}
	return 0;
}

int cmp_cand_runs_needed(const struct cmp_report *r)
{
	for (int n = 1; n <= 1000; n++) {
		if (cmp_family_size(r) *
			    st_mwu_pmin_n((size_t)r->na, (size_t)n) <=
		    r->o.alpha)
			return n;
	}
	return 0;
}

int cmp_decide(struct cmp_report *r)
{
	r->family = 0;
	r->best_p = 1;
	if (r->na < 2 || r->nb < 2) {
		r->mode = CMP_MODE_ONE_RUN;
	} else {
		if (run_tests(r))
			return -1;
		if (st_mwu_pmin_n((size_t)r->na, (size_t)r->nb) > r->o.alpha ||
		    (r->family && r->best_p > r->o.alpha))
			r->mode = CMP_MODE_SMALL_N;
		else
			r->mode = CMP_MODE_TEST;
	}
	decide(r);
	return 0;
}
