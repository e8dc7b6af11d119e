/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * multi_spectrum.c - the latency distributions of a page of several
 * runs: per op a panel (the op picker's, opsel.c) with every run's
 * percentile spectrum on a log axis, as the page of one run draws it
 * (plot_spectrum.c), each run faint and its side's median run bold.  A
 * run's line is its quantile function at evenly spaced points of the
 * percentile axis, fewer the more runs and ops, so the page stays small.
 */
#include "multi.h"

#include <math.h>
#include <stdlib.h>

#define SPECTRUM_BUDGET 450000.0 /* bytes of points, as multi_time.c */

/* the value at the ranks of percentile axis x = log10(1 / (1 - p)):
 * x0 < x1 < ..., walking the buckets once (as hist_value_at()) */
struct walk {
	const struct hist *h;
	unsigned int i;
	uint64_t seen;
};

static uint64_t walk_to(struct walk *w, double x)
{
	const struct hist *h = w->h;
	double p = 1 - pow(10, -x);
	uint64_t rank = (uint64_t)ceil(p * (double)h->count);

	if (rank < 1)
		rank = 1;
	if (rank >= h->count)
		return h->max;
	while (w->i < HIST_BUCKETS) {
		if (w->seen + h->bins[w->i] >= rank)
			return hist_bucket_value(h, w->i);
		w->seen += h->bins[w->i++];
	}
	return h->max;
}

static void run_spectrum(FILE *f, const struct mset *m, int i, int op,
			 const int bold[2], const struct frame *fr, int ncol)
{
	const struct hist *h = &m->run[i].r->op[op].h;
	double xend = fmin(log10(2.0 * (double)h->count), fr->xmax);
	struct walk w = {.h = h};
	struct line l = mset_line_open(f, m, i, bold);

	for (int c = 0; c <= ncol; c++) {
		double x = xend * c / ncol;

		if (c == ncol) /* the slowest call, at 1/(2n) */
			svg_line_pt(&l, svg_fx(fr, x),
				    svg_fy(fr, html_ns_ms(h->max)));
		else
			svg_line_pt(&l, svg_fx(fr, x),
				    svg_fy(fr, html_ns_ms(walk_to(&w, x))));
	}
	mset_line_close(&l);
}

static void panel(FILE *f, const struct mset *m, int op, int ncol)
{
	struct frame fr = {.x0 = 58, .y0 = 30, .w = 330, .h = 150};
	double lo = INFINITY, hi = 0, xmax = 5;
	double *p99 = calloc((size_t)m->n, sizeof(double));
	int bold[2] = {-1, -1}, nruns = 0;

	if (!p99)
		return;
	for (int i = 0; i < m->n; i++) {
		const struct result *r = m->run[i].r;
		const struct hist *h = &r->op[op].h;

		p99[i] = NAN;
		if (!r->has_bins || !h->count)
			continue;
		nruns++;
		p99[i] = html_ns_ms(hist_value_at(h, 99));
		if (h->min > 0)
			lo = fmin(lo, html_ns_ms(h->min));
		hi = fmax(hi, html_ns_ms(h->max));
		xmax = fmax(xmax, ceil(log10(2.0 * (double)h->count)));
	}
	for (int side = 0; side < 2 && !m->series; side++)
		bold[side] = mset_median(m, side, p99);
	if (!nruns)
		goto out;
	fr.xmax = xmax;
	svg_log_range(&fr, lo, hi);
	mset_panel_open(f, "mspectrum", op, 226, "latency by percentile", &fr);
	svg_y_log_axis(f, &fr, true);
	svg_x_pct_axis(f, &fr);
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < m->n; i++) {
			bool b = !m->series && (bold[0] == i || bold[1] == i);

			if (isnan(p99[i]) || b != (pass == 1))
				continue;
			run_spectrum(f, m, i, op, bold, &fr, ncol);
		}
	}
	svg_frame_rect(f, &fr, "frame");
	fputs("</svg>\n</div>\n", f);
out:
	free(p99);
}

void mset_plot_spectra(FILE *f, const struct mset *m, const bool ran[OP_NR])
{
	int nops = 0, ncol, bins = 0;

	for (int i = 0; i < m->n; i++)
		bins += m->run[i].r->has_bins;
	if (!bins) {
		html_note(f, "mspectrum",
			  "No latency distributions: none of these results "
			  "has histograms (dbench text logs keep only count, "
			  "mean and max per operation).");
		return;
	}
	for (int op = 0; op < OP_NR; op++)
		nops += ran[op];
	ncol = (int)(SPECTRUM_BUDGET / 8 / m->n / (nops ? nops : 1));
	ncol = ncol > 160 ? 160 : ncol < 24 ? 24 : ncol;
	fputs("<figure>\n<div class=\"multi\">\n", f);
	for (int op = 0; op < OP_NR; op++) {
		if (ran[op])
			panel(f, m, op, ncol);
	}
	fputs("</div>\n", f);
	mset_legend(f, m, "the op's p99");
	fputs("<figcaption>Per operation, the latency below which a given "
	      "share of its calls completed, for every run (x: percentile, "
	      "log scale of 1/(1&#8722;p), each step right ten times rarer; "
	      "y: latency, log scale; each line ends at its slowest call).  "
	      "Lines of one side that lie above the other's are slower "
	      "there; where they part only at the right, the tail "
	      "changed.</figcaption>\n</figure>\n",
	      f);
}
