/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * opsel.c - the reader picks the ops of the plots: a checkbox per op that
 * ran, the five that matter checked, and page.css hides the series of an
 * unchecked op (class "osN" under main:has(#osN:not(:checked))), so the
 * page still has no script.
 */
#include "html.h"

void html_opsel_top(const double score[OP_NR], const bool ran[OP_NR],
		    bool on[OP_NR])
{
	for (int i = 0; i < OP_NR; i++)
		on[i] = false;
	for (int k = 0; k < HTML_OPS_SHOWN; k++) {
		int best = -1;

		for (int i = 0; i < OP_NR; i++) {
			if (ran[i] && !on[i] &&
			    (best < 0 || score[i] > score[best]))
				best = i;
		}
		if (best < 0)
			break;
		on[best] = true;
	}
}

void html_opsel(FILE *f, const bool ran[OP_NR], const bool on[OP_NR],
		const char *what)
{
	int n = 0;

	for (int i = 0; i < OP_NR; i++)
		n += ran[i];
	if (!n)
		return;
	fprintf(f,
		"<div class=\"opsel\" data-opsel=\"1\"><b>Operations in %s:"
		"</b>",
		what);
	for (int i = 0; i < OP_NR; i++) {
		if (!ran[i])
			continue;
		fprintf(f,
			" <label><input type=\"checkbox\" id=\"os%d\" "
			"data-op=\"%s\"%s/>",
			i, op_info[i].label,
			on[i] ? " checked=\"checked\"" : "");
		html_op_name(f, i);
		fputs("</label>", f);
	}
	if (n > HTML_OPS_SHOWN)
		fprintf(f,
			" <span class=\"sub\">(the %d with the slowest calls "
			"are shown at first)</span>",
			HTML_OPS_SHOWN);
	fputs("</div>\n", f);
}

void html_ops_ran(const struct result *r, bool ran[OP_NR], bool on[OP_NR])
{
	double score[OP_NR];

	for (int i = 0; i < OP_NR; i++) {
		ran[i] = html_op_shown(r, i);
		/* the slowest call, then the most calls */
		score[i] = (double)r->op[i].h.max +
			   (double)r->op[i].h.count * 1e-12;
	}
	html_opsel_top(score, ran, on);
}
