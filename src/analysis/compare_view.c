/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare_view.c - the report's rows, notes and options for renderings
 * other than the table and the JSON (the HTML page of compare --html):
 * each row's texts are those of cmp_print()'s table, made by the same
 * formatters (compare_reason.c) from the same figures.
 */
#include "compare_impl.h"

#include <math.h>
#include <stdio.h>

void cmp_row_text(const struct cmp_report *r, int i, struct cmp_row_text *out)
{
	const struct cmp_row *w = &r->rows[i];
	char lo[32], hi[32];

	*out = (struct cmp_row_text){
		.op = w->op,
		.metric = cmp_metric[w->metric].name,
		.higher_worse = cmp_higher_worse(w->metric),
		.change_v = w->change,
		.ci_lo = w->ci_lo,
		.ci_hi = w->ci_hi,
		.word = cmp_row_word(w),
		.verdict = w->verdict == CMP_V_WORSE	? 1
			   : w->verdict == CMP_V_BETTER ? -1
							: 0,
		.unclear = w->unclear,
	};
	/* the raw figures; the deciding (own) change beside them */
	cmp_fmt_num(out->base, sizeof(out->base), w->rmed_a);
	cmp_fmt_num(out->cand, sizeof(out->cand), w->rmed_b);
	cmp_fmt_change(out->change, sizeof(out->change), w->rchange);
	if (r->own && w->ra)
		cmp_fmt_change(out->own, sizeof(out->own), w->change);
	else if (r->own)
		snprintf(out->own, sizeof(out->own), "-");
	if (w->tested)
		snprintf(out->p, sizeof(out->p), "%.2g", w->p_holm);
	else if (!isnan(w->p))
		snprintf(out->p, sizeof(out->p), "(%.2g)", w->p);
	else
		snprintf(out->p, sizeof(out->p), "-");
	if (isnan(w->ci_lo))
		snprintf(out->ci, sizeof(out->ci), "-");
	else
		snprintf(out->ci, sizeof(out->ci), "%s..%s",
			 cmp_fmt_change(lo, sizeof(lo), w->ci_lo),
			 cmp_fmt_change(hi, sizeof(hi), w->ci_hi));
}

int cmp_nnotes(const struct cmp_report *r)
{
	return r->nnotes;
}

const char *cmp_note_text(const struct cmp_report *r, int i)
{
	return r->notes[i];
}

const struct cmp_opts *cmp_opts_of(const struct cmp_report *r)
{
	return &r->o;
}
