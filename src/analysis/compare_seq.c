/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare_seq.c - check's sequential rule (docs/regressions.md, "Fewer
 * runs: a sequential decision"): the share of alpha each look spends,
 * the equivalence bound that lets a look call a candidate good, and the
 * step after a look.
 *
 * The bound: a primary metric (the throughput; with --metrics every
 * metric named) is shown not worse than the noise floor when its
 * candidate values, moved by the floor towards worse, still lie above
 * (for a rate; below, for a latency) the baseline's by the one-sided
 * Mann-Whitney U test at the look's level.  If the candidate really is
 * worse by the floor or more, its moved values are at best exchangeable
 * with the baseline's, so the test passes with probability at most that
 * level; the levels of the looks add up to alpha, so a candidate worse by
 * the floor is called good anywhere in the sequence at most alpha of the
 * time (Bonferroni), as a good one is called regressed.
 */
#include "compare_impl.h"

#include <math.h>
#include <stdlib.h>

#include "sigtest.h"

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

/* the row of the run's throughput, if it decides; else -1 */
static int mbs_row(const struct cmp_report *r)
{
	for (int i = 0; i < r->nrows; i++) {
		const struct cmp_row *w = &r->rows[i];

		if (w->op < 0 && w->metric == CMP_M_MBS && cmp_decides(w))
			return i;
	}
	return -1;
}

/*
 * The primary rows: with --metrics every row that decides (the user
 * named them); else the throughput, or if the runs moved no bytes (MB/s
 * 0) the ops/s of the ops, which are then the only rates.
 */
static void pick_primaries(struct cmp_report *r)
{
	int m = mbs_row(r);

	for (int i = 0; i < r->nrows; i++) {
		struct cmp_row *w = &r->rows[i];

		if (!cmp_decides(w))
			continue;
		if (r->filter)
			w->primary = true;
		else if (m >= 0 && r->rows[m].med_a > 0)
			w->primary = i == m;
		else
			w->primary = w->metric == CMP_M_OPS;
		r->nprimary += w->primary;
	}
}

/* the one-sided p that row @w is not worse than the noise floor */
static double equiv_p(const struct cmp_report *r, const struct cmp_row *w,
		      double *pmin)
{
	double *moved = malloc((size_t)r->nb * sizeof(*moved)), p, f;
	const struct cmp_metric_info *mi = &cmp_metric[w->metric];

	*pmin = 1;
	if (!moved)
		return 1;
	if (mi->kind == CMP_K_RATE) {
		f = 1 - r->o.noise;
		for (int i = 0; i < r->nb; i++)
			moved[i] = f > 0 ? w->b[i] / f : INFINITY;
		p = st_mwu_greater(w->a, (size_t)r->na, moved, (size_t)r->nb,
				   pmin);
	} else {
		double add = 0;

		f = 1 + r->o.noise;
		if (mi->kind == CMP_K_EXC)
			add = fmax(10, r->o.noise * w->med_a);
		else if (w->med_a > 0)
			f = fmax(f, 1 + r->o.floor_ms / w->med_a);
		for (int i = 0; i < r->nb; i++)
			moved[i] = add ? w->b[i] - add : w->b[i] / f;
		p = st_mwu_greater(moved, (size_t)r->nb, w->a, (size_t)r->na,
				   pmin);
	}
	free(moved);
	return isnan(p) ? 1 : p;
}

void cmp_equivalence(struct cmp_report *r)
{
	r->nprimary = 0;
	r->equiv = false;
	r->eq_level = r->o.look_alpha > 0 ? r->o.look_alpha : r->o.alpha;
	for (int i = 0; i < r->nrows; i++) {
		r->rows[i].primary = false;
		r->rows[i].p_eq = r->rows[i].p_eq_min = NAN;
	}
	if (r->mode == CMP_MODE_ONE_RUN)
		return; /* no test with one run a side */
	pick_primaries(r);
	r->equiv = r->nprimary > 0;
	for (int i = 0; i < r->nrows; i++) {
		struct cmp_row *w = &r->rows[i];

		if (!w->primary)
			continue;
		w->p_eq = equiv_p(r, w, &w->p_eq_min);
		if (!(w->p_eq <= r->eq_level))
			r->equiv = false;
	}
}

bool cmp_equivalent(const struct cmp_report *r)
{
	return r->equiv;
}

enum cmp_seq_step cmp_seq_next(const struct cmp_report *r, int runs,
			       int max_runs)
{
	int need;

	if (!r->ndeciding)
		return runs < max_runs ? CMP_SEQ_MORE : CMP_SEQ_UNCLEAR;
	if (r->mode == CMP_MODE_TEST) {
		if (cmp_verdict(r))
			return CMP_SEQ_BAD;
		/* good: nothing regressed, nothing past the thresholds, and
		 * the primaries shown not worse than the noise floor */
		if (r->equiv && !r->nunclear_thr)
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
