/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * plot_spectrum.c - the latency percentile spectrum: one panel per op,
 * the quantile function of its histogram as a staircase.
 */
#include "multi.h"

#include <inttypes.h>
#include <math.h>

/* ---------------------------------------------------- percentile spectrum */

/* Small multiples: a grid of panels, one per op, sharing both axes. */
#define SP_COLS 3
#define SP_CW	392.0 /* cell */
#define SP_CH	220.0
#define SP_ML	54.0 /* plot area inside the cell */
#define SP_MR	30.0
#define SP_MT	28.0
#define SP_MB	30.0
#define SP_LEFT 24.0 /* left of the first column: the y axis title */
#define SP_TOP	34.0 /* above the first row: the title */
#define SP_FOOT 30.0 /* below the last row: the x axis title */

/* x of the spectrum for the @c-th of @n ranks: log10(1 / (1 - c/n)) */
static double sp_x(uint64_t c, uint64_t n)
{
	return log10((double)n / (double)(n - c));
}

/*
 * The quantile function of @h as a staircase in frame @fr: the values of
 * ranks (a, b] of a bucket are its midpoint (clamped to [min, max] as
 * hist_value_at() does), drawn from x(a) to x(b).  The last rank, the
 * exact max, runs from x(n - 1) to x(n - 1/2) = log10(2n).
 */
void html_sp_points(FILE *f, const struct hist *h, const struct frame *fr)
{
	struct line l = {.f = f};
	uint64_t n = h->count, cum = 0;

	for (unsigned int i = 0; i < HIST_BUCKETS && cum < n - 1; i++) {
		uint64_t v, c1;
		double y;

		if (!h->bins[i])
			continue;
		v = hist_bucket_value(h, i);
		c1 = cum + h->bins[i] < n - 1 ? cum + h->bins[i] : n - 1;
		y = svg_fy(fr, html_ns_ms(v));
		svg_line_pt(&l, svg_fx(fr, sp_x(cum, n)), y);
		svg_line_pt(&l, svg_fx(fr, sp_x(c1, n)), y);
		cum = c1;
	}
	if (cum < n - 1) /* overflow values: drawn at the max */
		svg_line_pt(&l, svg_fx(fr, sp_x(cum, n)), svg_fy(fr, html_ns_ms(h->max)));
	svg_line_pt(&l, svg_fx(fr, sp_x(n - 1, n)), svg_fy(fr, html_ns_ms(h->max)));
	svg_line_pt(&l, svg_fx(fr, log10(2.0 * (double)n)), svg_fy(fr, html_ns_ms(h->max)));
	svg_line_end(&l);
}

void html_plot_spectrum(FILE *f, const struct result *r)
{
	int ops[OP_NR], nops = 0, cols, rows;
	double lo = INFINITY, hi = 0, xmax = 5, w, hgt;
	struct frame loc = {0};
	char b[32], b2[32];

	fputs("<h2>Latency percentile spectrum</h2>\n", f);
	if (!r->has_bins) {
		html_note(f, "spectrum",
		     "No percentile spectrum: this result has "
		     "no latency histograms (it was read from a dbench text "
		     "log, which keeps only count, mean and max per "
		     "operation).");
		return;
	}
	for (int i = 0; i < OP_NR; i++) {
		const struct hist *h = &r->op[i].h;

		if (!op_is_timed(i) || !h->count)
			continue;
		ops[nops++] = i;
		for (int k = 0; k < 2; k++) {
			if (k) /* a paced run's response times too */
				h = &r->resp.h[i];
			if (!h->count)
				continue;
			if (h->min > 0 && html_ns_ms(h->min) < lo)
				lo = html_ns_ms(h->min);
			if (html_ns_ms(h->max) > hi)
				hi = html_ns_ms(h->max);
			if (ceil(log10(2.0 * (double)h->count)) > xmax)
				xmax = ceil(log10(2.0 * (double)h->count));
		}
	}
	if (!nops) {
		html_note(f, "spectrum",
		     "No percentile spectrum: no operation was "
		     "timed.");
		return;
	}
	cols = nops < SP_COLS ? nops : SP_COLS;
	rows = (nops + cols - 1) / cols;
	w = SP_LEFT + cols * SP_CW;
	hgt = SP_TOP + rows * SP_CH + SP_FOOT;
	loc.w = SP_CW - SP_ML - SP_MR;
	loc.h = SP_CH - SP_MT - SP_MB;
	loc.xmax = xmax;
	svg_log_range(&loc, lo, hi);

	fputs("<figure>\n", f);
	fprintf(f, "<div style=\"max-width:%.0fpx;margin:0 auto\">\n", w * 1.1);
	svg_open(f, "spectrum", w, hgt,
		 "latency percentile spectrum per "
		 "operation");
	fprintf(f, "<text class=\"title\" x=\"8\" y=\"20\">Latency by "
		   "percentile, one panel per operation (others in "
		   "grey)%s</text>\n",
		r->resp.valid ? "; dashed: response time from the intended "
				"start"
			      : "");
	/* each op's staircase once, in panel coordinates */
	fputs("<defs>\n", f);
	for (int k = 0; k < nops; k++) {
		fprintf(f, "<polyline id=\"sp-%d\" fill=\"none\" points=\"",
			ops[k]);
		html_sp_points(f, &r->op[ops[k]].h, &loc);
		fputs("\"/>\n", f);
		if (!r->resp.valid || !r->resp.h[ops[k]].count)
			continue;
		fprintf(f, "<polyline id=\"sr-%d\" fill=\"none\" points=\"",
			ops[k]);
		html_sp_points(f, &r->resp.h[ops[k]], &loc);
		fputs("\"/>\n", f);
	}
	fputs("</defs>\n", f);
	for (int k = 0; k < nops; k++) {
		const struct hist *h = &r->op[ops[k]].h;
		struct frame fr = loc;
		double gx = SP_LEFT + (k % cols) * SP_CW + SP_ML;
		double gy = SP_TOP + (k / cols) * SP_CH + SP_MT;

		fr.x0 = gx;
		fr.y0 = gy;
		fprintf(f, "<g data-op=\"%s\">\n", op_info[ops[k]].label);
		svg_frame_rect(f, &fr, "bg");
		svg_y_log_axis(f, &fr, true);
		svg_x_pct_axis(f, &fr);
		for (int j = 0; j < nops; j++) {
			if (j != k)
				fprintf(f,
					"<use href=\"#sp-%d\" x=\"%.1f\" "
					"y=\"%.1f\" class=\"ctx\"/>\n",
					ops[j], gx, gy);
		}
		if (r->resp.valid && r->resp.h[ops[k]].count)
			fprintf(f,
				"<use href=\"#sr-%d\" x=\"%.1f\" y=\"%.1f\" "
				"stroke=\"%s\" stroke-width=\"1.6\" "
				"class=\"resp\"/>\n",
				ops[k], gx, gy, html_op_colour[ops[k]]);
		fprintf(f,
			"<use href=\"#sp-%d\" x=\"%.1f\" y=\"%.1f\" "
			"stroke=\"%s\" stroke-width=\"2\"/>\n",
			ops[k], gx, gy, html_op_colour[ops[k]]);
		fprintf(f,
			"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
			"fill=\"%s\"/>\n",
			svg_fx(&fr, fmin(log10(2.0 * (double)h->count), xmax)),
			svg_fy(&fr, html_ns_ms(h->max)), html_op_colour[ops[k]]);
		svg_frame_rect(f, &fr, "frame");
		fprintf(f,
			"<text class=\"pt\" x=\"%.1f\" y=\"%.1f\" "
			"fill=\"%s\">%s</text>\n",
			gx, gy - 8, html_op_colour[ops[k]], op_info[ops[k]].label);
		html_fmt_lat(b, sizeof(b), html_ns_ms(hist_value_at(h, 99)));
		html_fmt_lat(b2, sizeof(b2), html_ns_ms(h->max));
		fprintf(f,
			"<text class=\"ps\" x=\"%.1f\" y=\"%.1f\">n=%" PRIu64
			"  p99 %s  max %s",
			gx + fr.w, gy - 8, h->count, b, b2);
		if (r->resp.valid && r->resp.h[ops[k]].count) {
			html_fmt_lat(b, sizeof(b),
				     html_ns_ms(hist_value_at(
					     &r->resp.h[ops[k]], 99)));
			fprintf(f, "  resp p99 %s", b);
		}
		fputs("</text>\n", f);
		fputs("</g>\n", f);
	}
	fprintf(f,
		"<text class=\"at\" x=\"%.1f\" y=\"%.1f\">percentile "
		"(log scale of 1/(1&#8722;p): each step right is ten times "
		"rarer)</text>\n",
		w / 2, hgt - 8);
	svg_y_title(f, 14, SP_TOP + rows * SP_CH / 2, "latency (log scale)");
	fputs("</svg>\n</div>\n", f);
	fputs("<figcaption>Each panel is the latency distribution of one "
	      "operation: the value below which a given percentage of its "
	      "calls completed, so the line always rises to the right.  The "
	      "left part is the typical call (50% at x = 0.3 of the first "
	      "step), the right part the tail: 99% means 1 call in 100, "
	      "99.9% 1 in 1000.  A flat line that jumps up near the right "
	      "end means a few calls were much slower than the rest (stalls); "
	      "the dot is the slowest call.  Each line ends where the "
	      "operation runs out of calls (at 1/(2n)).  Grey lines: the "
	      "other operations, on the same axes, for comparison.  Values "
	      "are histogram bucket midpoints (within 0.8%).",
	      f);
	if (r->resp.valid)
		fputs("  Dashed, in the operation's colour: its response "
		      "time in this paced run, from each call's intended "
		      "start; where it leaves the solid line, calls began "
		      "late, queued behind slower ones.",
		      f);
	fputs("</figcaption>\n</figure>\n", f);
}
