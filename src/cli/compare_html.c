/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare_html.c - compare --html: hand the report of src/analysis (its
 * rows as its table prints them, its reason, notes and options) and the
 * runs to the page of src/report/html.
 */
#include "compare_html.h"

#include <stdlib.h>

#include "compare.h"
#include "report_html.h"

int compare_html_file(const struct cmp_report *rep, struct result **res,
		      char *const *bnames, int nb, char *const *cnames, int nc,
		      const char *path, char *err, size_t len)
{
	const struct cmp_opts *o = cmp_opts_of(rep);
	int n = cmp_nrows(rep), rc = -1;
	struct cmp_row_text *t = calloc((size_t)n + 1, sizeof(*t));
	static char scope[2048];
	struct html_verdict *v = calloc((size_t)n + 1, sizeof(*v));
	struct html_run *runs = calloc((size_t)(nb + nc), sizeof(*runs));
	const char **notes =
		calloc((size_t)cmp_nnotes(rep) + 1, sizeof(*notes));
	struct html_compare c = {
		.nruns = nb + nc,
		.runs = runs,
		.regressed = cmp_verdict(rep) != 0,
		.reason = cmp_reason(rep),
		.alpha = o->alpha,
		.noise = o->noise,
		.floor_ms = o->floor_ms,
		.nrows = n,
		.rows = v,
		.nnotes = cmp_nnotes(rep),
		.notes = notes,
		.own = cmp_own(rep),
		.scope = scope,
	};

	if (!t || !v || !runs || !notes) {
		snprintf(err, len, "--html %s: out of memory", path);
		goto out;
	}
	cmp_scope_text(rep, scope, sizeof(scope));
	for (int i = 0; i < nb + nc; i++)
		runs[i] = (struct html_run){
			res[i], i < nb ? bnames[i] : cnames[i - nb], i >= nb};
	for (int i = 0; i < n; i++) {
		cmp_row_text(rep, i, &t[i]);
		v[i] = (struct html_verdict){
			.op = t[i].op,
			.metric = t[i].metric,
			.higher_worse = t[i].higher_worse,
			.base = t[i].base,
			.cand = t[i].cand,
			.change = t[i].change,
			.own = t[i].own,
			.p = t[i].p,
			.ci = t[i].ci,
			.change_v = t[i].change_v,
			.ci_lo = t[i].ci_lo,
			.ci_hi = t[i].ci_hi,
			.word = t[i].word,
			.verdict = t[i].verdict,
			.unclear = t[i].unclear,
		};
	}
	for (int i = 0; i < c.nnotes; i++)
		notes[i] = cmp_note_text(rep, i);
	rc = report_html_compare_file(&c, path, err, len);
out:
	free(t);
	free(v);
	free(runs);
	free(notes);
	return rc;
}
