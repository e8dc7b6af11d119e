/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare_page.c - the page of compare --html: the verdict and its
 * strongest evidence first (compare's reason line), the verdicts with
 * each change and its confidence interval drawn against the noise floor,
 * then both sides' runs overlaid (multi_*.c): latency distributions,
 * throughput and p99 per interval, stalls, the machine, and what differs
 * between the runs.  Every figure of the verdicts is compare's own, as
 * its table printed it (struct html_verdict); nothing is judged here.
 */
#include "multi.h"

#include "file_replace.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* the change axis of the bars: cand / base from 1/8 to 8, log scale */
#define BAR_W	 220.0
#define BAR_SPAN 3.0 /* log2 of the widest ratio */

static double bar_x(double change)
{
	double l = change <= -1 ? -BAR_SPAN : log2(1 + change);

	if (l > BAR_SPAN)
		l = BAR_SPAN;
	if (l < -BAR_SPAN)
		l = -BAR_SPAN;
	return BAR_W / 2 + l / BAR_SPAN * (BAR_W / 2 - 6);
}

static const char *verdict_colour(const struct html_verdict *v)
{
	return v->verdict > 0	? "#d62728"
	       : v->verdict < 0 ? "#2ca02c"
	       : v->unclear	? "#d9961a"
				: "#7f8a96";
}

/* the change and its CI as a bar; the noise floor as a grey band */
static void ci_bar(FILE *f, const struct html_compare *c,
		   const struct html_verdict *v)
{
	double n0 = bar_x(-c->noise), n1 = bar_x(c->noise);

	fprintf(f,
		"<svg class=\"ci\" viewBox=\"0 0 %.0f 16\" width=\"%.0f\" "
		"height=\"16\"><rect class=\"noise\" x=\"%.1f\" y=\"1\" "
		"width=\"%.1f\" height=\"14\"/><line class=\"zero\" "
		"x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"16\"/>",
		BAR_W, BAR_W, n0, n1 - n0, BAR_W / 2, BAR_W / 2);
	if (!isnan(v->ci_lo) && !isnan(v->ci_hi)) {
		double a = bar_x(v->ci_lo), b = bar_x(v->ci_hi);

		fprintf(f,
			"<rect x=\"%.1f\" y=\"5\" width=\"%.1f\" height=\"6\" "
			"fill=\"%s\" fill-opacity=\"0.55\"/>",
			a, fmax(b - a, 1.5), verdict_colour(v));
	}
	if (!isnan(v->change_v))
		fprintf(f,
			"<rect x=\"%.1f\" y=\"2\" width=\"3\" height=\"12\" "
			"fill=\"%s\"/>",
			bar_x(v->change_v) - 1.5, verdict_colour(v));
	fputs("</svg>", f);
}

/* compare's lines on what decided (machine, own latencies, rates), a
 * paragraph each, as its text prints them */
static void scope_lines(FILE *f, const struct html_compare *c)
{
	const char *s = c->scope;

	while (s && *s) {
		const char *e = strchr(s, '\n');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		char line[1024];

		snprintf(line, sizeof(line), "%.*s", (int)n, s);
		fputs("<p class=\"scope\">", f);
		html_esc(f, line);
		fputs("</p>\n", f);
		s += n + (e != NULL);
	}
}

static void verdict_table(FILE *f, const struct html_compare *c)
{
	int flagged = 0;

	for (int i = 0; i < c->nrows; i++)
		flagged += c->rows[i].verdict || c->rows[i].unclear;
	fputs("<h2>Verdicts</h2>\n", f);
	fprintf(f,
		"<div class=\"verdicts\"><label><input type=\"checkbox\" "
		"id=\"flagged\"%s/> only the %d rows that changed or are "
		"unclear (of %d)</label>\n",
		flagged ? " checked=\"checked\"" : "", flagged, c->nrows);
	scope_lines(f, c);
	fputs("<div class=\"scroll\">\n<table data-table=\"verdicts\">\n"
	      "<thead><tr><th>Op</th><th>Metric</th><th class=\"n\">Baseline"
	      "</th><th class=\"n\">Candidate</th><th class=\"n\">Change</th>",
	      f);
	if (c->own)
		fputs("<th class=\"n\">Own chg</th>", f);
	fprintf(f,
		"<th>the %schange and its CI against the noise floor</th>"
		"<th class=\"n\">CI of %schange</th><th class=\"n\">p "
		"(Holm)</th><th>Verdict</th></tr></thead>\n<tbody>\n",
		c->own ? "own " : "", c->own ? "own " : "");
	for (int i = 0; i < c->nrows; i++) {
		const struct html_verdict *v = &c->rows[i];

		fprintf(f, "<tr class=\"%s\"><td>",
			v->verdict > 0	 ? "v-worse"
			: v->verdict < 0 ? "v-better"
			: v->unclear	 ? "v-unclear"
					 : "v-same");
		if (v->op >= 0 && v->op < OP_NR)
			html_op_name(f, v->op);
		else
			fputs("all", f);
		fputs("</td><td>", f);
		html_esc(f, v->metric);
		fputs("</td><td class=\"n\">", f);
		html_esc(f, v->base);
		fputs("</td><td class=\"n\">", f);
		html_esc(f, v->cand);
		fputs("</td><td class=\"n\">", f);
		html_esc(f, v->change);
		if (c->own) {
			fputs("</td><td class=\"n\">", f);
			html_esc(f, v->own ? v->own : "-");
		}
		fputs("</td><td>", f);
		ci_bar(f, c, v);
		fputs("</td><td class=\"n\">", f);
		html_esc(f, v->ci);
		fputs("</td><td class=\"n\">", f);
		html_esc(f, v->p);
		fprintf(f, "</td><td style=\"color:%s\"><b>",
			verdict_colour(v));
		html_esc(f, v->word);
		fputs("</b></td></tr>\n", f);
	}
	fputs("</tbody>\n</table>\n</div>\n</div>\n", f);
	fprintf(f,
		"<p class=\"sub\">Values are medians over each side's runs, as "
		"compare's table prints them (latency in ms; overNms: calls "
		"slower than N ms per million).  The bar: the candidate's "
		"median over the baseline's on a log scale from &#247;8 "
		"(left) to &#215;8 (right), the thick tick the change, the "
		"band its %g%% bootstrap confidence interval, the grey band "
		"the "
		"noise floor (&#177;%g%%); for rates (ops/s, MB/s) left is "
		"worse, for latencies right.  Red: regressed, green: improved, "
		"amber: unclear (more runs may settle it).  alpha %g, latency "
		"floor %g ms (docs/regressions.md).</p>\n",
		100 * (1 - c->alpha), 100 * c->noise, c->alpha, c->floor_ms);
}

static void headline(FILE *f, const struct html_compare *c,
		     const struct mset *m)
{
	fprintf(f,
		"<header>\n<h1>dbench-ng compare: %d baseline vs %d candidate "
		"run%s</h1>\n",
		m->nside[0], m->nside[1], m->nside[1] == 1 ? "" : "s");
	fprintf(f,
		"<div class=\"banner headline %s\" data-verdict=\"%s\">"
		"<span class=\"badge %s\">%s</span> ",
		c->regressed ? "st-failed" : "st-ok",
		c->regressed ? "regressed" : "none",
		c->regressed ? "st-failed" : "st-ok",
		c->regressed ? "REGRESSED" : "no regression");
	html_esc(f, c->reason ? c->reason : "");
	fputs("</div>\n</header>\n", f);
}

static void notes(FILE *f, const struct html_compare *c)
{
	if (!c->nnotes)
		return;
	fputs("<ul class=\"notes\" data-list=\"notes\">\n", f);
	for (int i = 0; i < c->nnotes; i++) {
		fputs("<li>", f);
		html_esc(f, c->notes[i]);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
}

int report_html_compare(FILE *f, const struct html_compare *c)
{
	struct mset m = {.n = c->nruns, .run = c->runs};
	bool boost[OP_NR] = {false}, ran[OP_NR], on[OP_NR];

	for (int i = 0; i < m.n; i++)
		m.nside[m.run[i].side ? 1 : 0]++;
	for (int i = 0; i < c->nrows; i++) {
		const struct html_verdict *v = &c->rows[i];

		if (v->op >= 0 && v->op < OP_NR && (v->verdict || v->unclear))
			boost[v->op] = true;
	}
	mset_ops(&m, boost, ran, on);
	html_head_open(f);
	fprintf(f, "dbench-ng compare: %d vs %d runs: %s", m.nside[0],
		m.nside[1], c->regressed ? "REGRESSED" : "no regression");
	html_head_close(f);
	headline(f, c, &m);
	verdict_table(f, c);
	mset_overlays(f, &m, ran, on);
	notes(f, c);
	mset_config_diff(f, &m);
	fputs("<h2>The runs</h2>\n", f);
	mset_runs_table(f, &m);
	fputs("<p class=\"sub\">Written by dbench-ng compare --html; "
	      "self-contained: no script, nothing fetched.</p>\n"
	      "</main>\n</body>\n</html>\n",
	      f);
	return ferror(f) ? -1 : 0;
}

static int emit(FILE *f, const void *c)
{
	return report_html_compare(f, c);
}

int report_html_compare_file(const struct html_compare *c, const char *path,
			     char *err, size_t errlen)
{
	return file_replace(path, "--html", emit, c, err, errlen);
}
