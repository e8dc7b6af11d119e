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
 * (thr_factor); exceedance counts also by at least CMP_THR_EXC_MIN
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

	if (!w->eligible)
		return false;
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
	} else if (mi->kind == CMP_K_TAIL) {
		double f = mi->thr_factor;

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

	if (!w->tested || !(w->p_holm < w->level) || !past_floor(r, w))
		return false;
	return up ? w->ci_lo > r->o.noise : w->ci_hi < -r->o.noise;
}

/*
 * The test's inputs: p, pmin and the CI of every row, then the levels.
 * One comparison (look_alpha 0): Holm over every row at alpha.  A look of
 * check's sequence: MB/s alone at half of look_alpha, the other rows
 * (Holm) at the other half, or at all of it when MB/s is rejected (the
 * weighted Bonferroni-Holm of a graph that passes MB/s's level on: the
 * family-wise error stays at look_alpha).
 */
static int run_tests(struct cmp_report *r)
{
	double lvl = r->o.look_alpha > 0 ? r->o.look_alpha : r->o.alpha;
	double *p, *adj, minp = 1, a1 = 0, a2;
	int k = 0, first = -1;

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
		if (r->o.look_alpha > 0 && w->op < 0 && w->metric == CMP_M_MBS)
			first = i;
	}
	if (first >= 0) {
		struct cmp_row *w = &r->rows[first];

		a1 = lvl / 2;
		w->tested = w->pmin <= a1;
		w->p_holm = w->tested ? w->p : NAN;
		w->level = a1;
	}
	a2 = lvl - a1;
	if (first >= 0 && r->rows[first].tested && r->rows[first].p < a1)
		a2 = lvl; /* MB/s rejected: its level passes on */
	for (int i = 0; i < r->nrows; i++) {
		struct cmp_row *w = &r->rows[i];

		if (i == first)
			continue;
		/* a test that cannot reach its level cannot reject: leaving
		 * it out of the family keeps the error rate (Tarone 1990) */
		w->tested = w->eligible && w->pmin <= a2;
		w->level = a2;
		if (w->tested) {
			p[k++] = w->p;
			minp = fmin(minp, w->pmin);
		}
	}
	st_holm(p, (size_t)k, adj);
	k = 0;
	for (int i = 0; i < r->nrows; i++) {
		if (i != first && r->rows[i].tested)
			r->rows[i].p_holm = adj[k++];
	}
	r->family = k + (first >= 0 && r->rows[first].tested);
	r->best_p = k ? fmin(1, k * minp) : 1;
	r->level1 = a1;
	r->level2 = a2;
	r->reachable = (first >= 0 && r->rows[first].tested) ||
		       (k ? r->best_p <= a2 : first < 0);
	if (st_mwu_pmin_n((size_t)r->na, (size_t)r->nb) > lvl)
		r->reachable = false;
	free(p);
	free(adj);
	return 0;
}

/*
 * How bad a change is, whatever its direction: |log ratio|, but a change
 * from 0 (infinite) ranks below any finite one, so "p99.9 0.41 -> 498 ms"
 * is named rather than "over10ms 0 -> 9000" when both regressed.
 */
static double severity(const struct cmp_row *w)
{
	double s = fabs(log1p(w->change));

	return isinf(s) ? -1 : s;
}

/*
 * The order of evidence, strongest first: the run's throughput, then the
 * means of the ops, their rates and medians, then the tails (p99 and the
 * exceedance counts, then p99.9, the max of a single op last) -- the
 * figures that rest on every op of a run before those that rest on a few.
 */
static int evidence_class(int m)
{
	static const int cls[CMP_M_NR] = {
		[CMP_M_MBS] = 0,     [CMP_M_MEAN] = 1,	  [CMP_M_OPS] = 2,
		[CMP_M_P50] = 2,     [CMP_M_P99] = 3,	  [CMP_M_OVER10] = 3,
		[CMP_M_OVER100] = 4, [CMP_M_OVER500] = 4, [CMP_M_P999] = 5,
		[CMP_M_MAX] = 6,     [CMP_M_RP50] = 2,	  [CMP_M_RP99] = 3,
		[CMP_M_LATE] = 3,    [CMP_M_RP999] = 5,	  [CMP_M_RMAX] = 6,
	};

	return cls[m];
}

int cmp_evidence_cmp(const struct cmp_report *r, int i, int j)
{
	const struct cmp_row *x = &r->rows[i], *y = &r->rows[j];
	int cx = evidence_class(x->metric), cy = evidence_class(y->metric);

	if (cx != cy)
		return cx < cy ? -1 : 1;
	if (r->mode == CMP_MODE_TEST && x->p_holm != y->p_holm)
		return x->p_holm < y->p_holm ? -1 : 1;
	/* the op of more ops per run first */
	if (x->min_count != y->min_count)
		return x->min_count > y->min_count ? -1 : 1;
	if (severity(x) != severity(y))
		return severity(x) > severity(y) ? -1 : 1;
	return i < j ? -1 : i > j;
}

static void decide(struct cmp_report *r)
{
	bool test = r->mode == CMP_MODE_TEST;

	r->worst = -1;
	for (int i = 0; i < r->nrows; i++) {
		struct cmp_row *w = &r->rows[i];
		bool up;

		if (!w->eligible)
			continue; /* too few ops to decide: no change */
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
		if (r->worst < 0 || cmp_evidence_cmp(r, i, r->worst) < 0)
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
		r->mode = r->reachable ? CMP_MODE_TEST : CMP_MODE_SMALL_N;
	}
	decide(r);
	return 0;
}

double cmp_seq_alpha(double alpha, int k, int nlooks)
{
	if (nlooks <= 1)
		return alpha;
	if (nlooks == 2)
		return alpha / 2;
	if (k <= 1)
		return alpha / 2;
	if (k >= nlooks)
		return alpha / 4;
	return alpha / 4 / (nlooks - 2);
}

enum cmp_seq_step cmp_seq_next(const struct cmp_report *r, int runs,
			       int max_runs)
{
	int need;

	if (r->mode == CMP_MODE_TEST) {
		if (cmp_verdict(r))
			return CMP_SEQ_BAD;
		if (!cmp_unclear(r))
			return CMP_SEQ_GOOD;
		return runs < max_runs ? CMP_SEQ_MORE : CMP_SEQ_UNCLEAR;
	}
	/* too few runs for a test: add runs while that can help; otherwise
	 * (one baseline run, or significance out of reach even at
	 * max_runs) the thresholds decide */
	need = cmp_cand_runs_needed(r);
	if (r->mode == CMP_MODE_SMALL_N && need && need <= max_runs) {
		if (runs < max_runs)
			return CMP_SEQ_MORE;
		return CMP_SEQ_UNCLEAR;
	}
	return cmp_verdict(r) ? CMP_SEQ_BAD : CMP_SEQ_GOOD;
}
