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

/* The test rule: Holm-significant, CI past the noise floor, past floor. */
static bool test_flag(const struct cmp_report *r, const struct cmp_row *w,
		      bool worse)
{
	bool up = worse == cmp_higher_worse(w->metric);

	if (!w->tested || !(w->p_holm < w->level) || !cmp_past_floor(r, w))
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
		if (r->o.look_alpha > 0 && w->op < 0 &&
		    w->metric == CMP_M_MBS && cmp_decides(w))
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
		w->tested = cmp_decides(w) && w->pmin <= a2;
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

		if (!cmp_decides(w))
			continue; /* too few ops, or context: no verdict */
		if (test) {
			if (test_flag(r, w, true))
				w->verdict = CMP_V_WORSE;
			else if (test_flag(r, w, false))
				w->verdict = CMP_V_BETTER;
		} else {
			if (cmp_thr_flag(r, w, true))
				w->verdict = CMP_V_WORSE;
			else if (cmp_thr_flag(r, w, false))
				w->verdict = CMP_V_BETTER;
		}
		if (w->verdict == CMP_V_BETTER)
			r->nbetter++;
		if (w->verdict != CMP_V_WORSE) {
			up = cmp_higher_worse(w->metric);
			w->unclear_thr =
				test && w->verdict == CMP_V_SAME &&
				(cmp_thr_flag(r, w, true) ||
				 (cmp_thr_medians(r, w) && w->p < r->o.alpha));
			w->unclear =
				w->unclear_thr ||
				(test && w->verdict == CMP_V_SAME &&
				 w->p < r->o.alpha && cmp_past_floor(r, w) &&
				 (up ? w->change > r->o.noise
				     : w->change < -r->o.noise));
			r->nunclear += w->unclear;
			r->nunclear_thr += w->unclear_thr;
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
	r->nunclear_thr = 0;
	if (r->na < 2 || r->nb < 2) {
		r->mode = CMP_MODE_ONE_RUN;
	} else {
		if (run_tests(r))
			return -1;
		r->mode = r->reachable ? CMP_MODE_TEST : CMP_MODE_SMALL_N;
	}
	decide(r);
	cmp_equivalence(r);
	return 0;
}
