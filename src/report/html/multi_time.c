/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * multi_time.c - the time plots of a page of several runs: every run's
 * throughput per interval on one plot, and per op a panel of every run's
 * p99 per interval (the panels are the op picker's, opsel.c).  Long runs
 * are drawn in columns of merged intervals (a column's throughput is its
 * bytes over its time, its p99 the largest of its intervals), fewer the
 * more runs and ops there are, so that the page stays small.
 */
#include "multi.h"

#include <math.h>
#include <stdlib.h>

/* the bytes of polyline points a page of several runs may spend on one
 * kind of plot, and the columns a run gets within it */
#define POINT_BUDGET 450000.0
#define POINT_BYTES  8.0

static int columns(const struct mset *m, int nplots, int most)
{
	double c = POINT_BUDGET / POINT_BYTES / m->n / (nplots ? nplots : 1);

	return c > most ? most : c < 24 ? 24 : (int)c;
}

/* the x range of the runs' time series, in the time base of the page */
static void x_range(const struct mset *m, struct frame *fr)
{
	fr->xmin = 0;
	fr->xmax = 1;
	for (int i = 0; i < m->n; i++) {
		const struct result *r = m->run[i].r;

		if (!r->npoints)
			continue;
		fr->xmin = fmin(fr->xmin, html_ts_xmin(r));
		fr->xmax = fmax(fr->xmax, html_ts_xmax(r));
	}
}

/* column c of @ncol of run @r: its intervals [*a, *b) */
static void column(const struct result *r, int c, int ncol, uint32_t *a,
		   uint32_t *b)
{
	uint32_t n = r->npoints;

	if ((uint32_t)ncol > n)
		ncol = (int)n;
	*a = (uint32_t)((uint64_t)c * n / (uint64_t)ncol);
	*b = (uint32_t)((uint64_t)(c + 1) * n / (uint64_t)ncol);
}

static double col_mid(const struct result *r, uint32_t a, uint32_t b)
{
	return html_ts_t(
		r,
		(r->points[a].t - r->points[a].dur + r->points[b - 1].t) / 2);
}

/* the throughput of intervals [a, b) of @r, MB/s; NAN without time */
static double col_mbps(const struct result *r, uint32_t a, uint32_t b)
{
	double bytes = 0, dur = 0;

	for (uint32_t i = a; i < b; i++) {
		bytes += (double)r->points[i].bytes;
		dur += r->points[i].dur;
	}
	return dur > 0 ? bytes / dur / 1e6 : NAN;
}

/* the largest p99 of @op in intervals [a, b) of @r, ms; NAN: none */
static double col_p99(const struct result *r, int op, uint32_t a, uint32_t b)
{
	double v = NAN;

	for (uint32_t i = a; i < b; i++) {
		const struct result_point *p = &r->points[i];

		if (p->count[op] && p->p99_ns[op] &&
		    !(html_ns_ms(p->p99_ns[op]) <= v))
			v = html_ns_ms(p->p99_ns[op]);
	}
	return v;
}

/* one run's line through its columns with a value (an op that ended no
 * call in a column has none: a rare op's line joins the columns it has) */
static void run_line(FILE *f, const struct mset *m, int i, const int bold[2],
		     const struct frame *fr, int ncol, int op)
{
	const struct result *r = m->run[i].r;
	struct line l = mset_line_open(f, m, i, bold);

	for (int c = 0; c < ncol && c < (int)r->npoints; c++) {
		uint32_t a, b;
		double v;

		column(r, c, ncol, &a, &b);
		v = op < 0 ? col_mbps(r, a, b) : col_p99(r, op, a, b);
		if (!isnan(v))
			svg_line_pt(&l, svg_fx(fr, col_mid(r, a, b)),
				    svg_fy(fr, v));
	}
	mset_line_close(&l);
}

/* faint runs first, the bold ones over them */
static void all_lines(FILE *f, const struct mset *m, const int bold[2],
		      const struct frame *fr, int ncol, int op)
{
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < m->n; i++) {
			bool b = !m->series && (bold[0] == i || bold[1] == i);

			if (b == (pass == 1))
				run_line(f, m, i, bold, fr, ncol, op);
		}
	}
}

static void warm_band(FILE *f, const struct frame *fr)
{
	if (fr->xmin < 0)
		fprintf(f,
			"<rect class=\"warm\" x=\"%.1f\" y=\"%.1f\" "
			"width=\"%.1f\" height=\"%.1f\"/>\n",
			fr->x0, fr->y0, svg_fx(fr, 0) - fr->x0, fr->h);
}

void mset_plot_throughput(FILE *f, const struct mset *m)
{
	struct frame fr = html_ts_base;
	double vmax = 0, step, *tp = calloc((size_t)m->n, sizeof(double));
	int bold[2] = {-1, -1}, ncol = columns(m, 1, 400);

	if (!tp)
		return;
	for (int i = 0; i < m->n; i++) {
		const struct result *r = m->run[i].r;

		tp[i] = r->throughput;
		vmax = fmax(vmax, r->throughput);
		for (int c = 0; c < ncol && c < (int)r->npoints; c++) {
			uint32_t a, b;
			double v;

			column(r, c, ncol, &a, &b);
			v = col_mbps(r, a, b);
			if (v > vmax && isfinite(v))
				vmax = v;
		}
	}
	for (int side = 0; side < 2 && !m->series; side++)
		bold[side] = mset_median(m, side, tp);
	free(tp);
	if (!(vmax > 0))
		vmax = 1;
	step = svg_nice_step(vmax, 6);
	fr.ymax = ceil(vmax / step) * step;
	x_range(m, &fr);
	fputs("<figure>\n", f);
	svg_open(f, "mthroughput", 1200, 392,
		 "throughput per interval, every run");
	fputs("<text class=\"title\" x=\"8\" y=\"20\">Throughput per "
	      "interval, every run</text>\n",
	      f);
	svg_frame_rect(f, &fr, "bg");
	warm_band(f, &fr);
	svg_x_time_axis(f, &fr);
	fprintf(f,
		"<text class=\"at\" x=\"%.1f\" y=\"380\">" HTML_TIME_AXIS
		"</text>\n",
		fr.x0 + fr.w / 2);
	svg_y_title(f, 16, fr.y0 + fr.h / 2, "MB/s (10\xe2\x81\xb6 bytes/s)");
	svg_y_lin_axis(f, &fr, step);
	all_lines(f, m, bold, &fr, ncol, -1);
	svg_frame_rect(f, &fr, "frame");
	fputs("</svg>\n", f);
	mset_legend(f, m, "MB/s");
	fputs("<figcaption>Bytes read and written per interval over its "
	      "length, for every run, on the clock of each run's measured "
	      "phase (grey: the warmup).  A dip is a stall of the "
	      "filesystem; a side whose lines lie apart from the other's "
	      "changed.</figcaption>\n</figure>\n",
	      f);
}

/* the time labels of a panel (no grid: the panels are small) */
static void x_ticks(FILE *f, const struct frame *fr)
{
	double step = svg_nice_step(fr->xmax - fr->xmin, 6);

	for (int k = (int)ceil(fr->xmin / step - 1e-9);; k++) {
		double v = k * step, x = svg_fx(fr, v);

		if (v > fr->xmax * (1 + 1e-9))
			break;
		fprintf(f,
			"<text class=\"%s\" x=\"%.1f\" y=\"%.1f\">%g</text>\n",
			x - fr->x0 < 8 ? "xl xl0" : "xl",
			x - fr->x0 < 8 ? fr->x0 : x, fr->y0 + fr->h + 14, v);
	}
}

/* one panel: op @op of every run */
static void p99_panel(FILE *f, const struct mset *m, int op, int ncol,
		      double xmin, double xmax)
{
	struct frame fr = {.x0 = 58, .y0 = 30, .w = 330, .h = 150};
	double lo = INFINITY, hi = 0,
	       *p99 = calloc((size_t)m->n, sizeof(double));
	int bold[2] = {-1, -1};
	bool any = false;

	if (!p99)
		return;
	for (int i = 0; i < m->n; i++) {
		const struct result *r = m->run[i].r;

		p99[i] = r->has_bins && r->op[op].h.count
				 ? html_ns_ms(hist_value_at(&r->op[op].h, 99))
				 : NAN;
		for (uint32_t k = 0; k < r->npoints; k++) {
			const struct result_point *p = &r->points[k];
			double v = html_ns_ms(p->p99_ns[op]);

			if (!p->count[op] || !p->p99_ns[op])
				continue;
			any = true;
			lo = fmin(lo, v);
			hi = fmax(hi, v);
		}
	}
	for (int side = 0; side < 2 && !m->series; side++)
		bold[side] = mset_median(m, side, p99);
	free(p99);
	if (!any)
		return;
	fr.xmin = xmin;
	fr.xmax = xmax;
	svg_log_range(&fr, lo, hi);
	mset_panel_open(f, "mp99", op, 218, "p99 per interval", &fr);
	warm_band(f, &fr);
	svg_y_log_axis(f, &fr, true);
	x_ticks(f, &fr);
	all_lines(f, m, bold, &fr, ncol, op);
	svg_frame_rect(f, &fr, "frame");
	fputs("</svg>\n</div>\n", f);
}

bool mset_has_p99(const struct mset *m)
{
	for (int i = 0; i < m->n; i++) {
		const struct result *r = m->run[i].r;

		for (uint32_t k = 0; k < r->npoints; k++) {
			for (int op = 0; op < OP_NR; op++) {
				if (r->points[k].count[op] &&
				    r->points[k].p99_ns[op])
					return true;
			}
		}
	}
	return false;
}

void mset_plot_p99(FILE *f, const struct mset *m, const bool ran[OP_NR])
{
	struct frame fr = {0};
	int nops = 0;

	if (!mset_has_p99(m)) {
		html_note(f, "mp99",
			  "No p99 per interval: none of these results has "
			  "per-operation time series (dbench text logs have "
			  "none).");
		return;
	}
	for (int op = 0; op < OP_NR; op++)
		nops += ran[op];
	x_range(m, &fr);
	fputs("<figure>\n<div class=\"multi\">\n", f);
	for (int op = 0; op < OP_NR; op++) {
		if (ran[op])
			p99_panel(f, m, op, columns(m, nops, 165), fr.xmin,
				  fr.xmax);
	}
	fputs("</div>\n", f);
	mset_legend(f, m, "the op's p99");
	fputs("<figcaption>Per operation, the 99th percentile of the calls "
	      "that ended in each interval, every run (log scale; "
	      "x: " HTML_TIME_AXIS ").  Merged intervals keep their largest "
	      "p99.</figcaption>\n</figure>\n",
	      f);
}
