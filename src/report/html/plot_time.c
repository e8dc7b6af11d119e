/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * plot_time.c - what the time plots share (frame, x axis, warmup bands)
 * and the throughput plot.
 */
#include "svg.h"

#include <math.h>

/* --------------------------------------------------------- time series */

#define TS_W 1200.0
#define TS_H 392.0

const struct frame html_ts_base = {
	.x0 = 74,
	.y0 = 36,
	.w = 950,
	.h = 300,
};

double html_ts_t(const struct result *r, double s)
{
	return s - (r->warmup_s > 0 ? r->warmup_s : 0);
}

double html_ts_xmin(const struct result *r)
{
	double m = 0;

	for (uint32_t i = 0; i < r->npoints; i++) {
		double t = html_ts_t(r, r->points[i].t - r->points[i].dur);

		if (t < m)
			m = t;
	}
	return m;
}

double html_ts_xmax(const struct result *r)
{
	double m = 0;

	for (uint32_t i = 0; i < r->npoints; i++) {
		if (html_ts_t(r, r->points[i].t) > m)
			m = html_ts_t(r, r->points[i].t);
	}
	return m > html_ts_xmin(r) ? m : html_ts_xmin(r) + 1;
}

/* Shade the warmup intervals (contiguous ones as one band), or with
 * @label write "warmup" on the bands that are wide enough. */
void html_ts_warmup(FILE *f, const struct result *r, const struct frame *fr,
		      bool label)
{
	const struct result_point *p = r->points;

	for (uint32_t i = 0; i < r->npoints;) {
		double a, b;

		if (!p[i].warmup) {
			i++;
			continue;
		}
		a = svg_fx(fr, html_ts_t(r, p[i].t - p[i].dur));
		b = a;
		while (i < r->npoints && p[i].warmup)
			b = svg_fx(fr, html_ts_t(r, p[i++].t));
		if (!label)
			fprintf(f,
				"<rect class=\"warm\" x=\"%.1f\" y=\"%.1f\" "
				"width=\"%.1f\" height=\"%.1f\"/>\n",
				a, fr->y0, b - a, fr->h);
		else if (b - a >= 44)
			fprintf(f,
				"<text class=\"wl\" x=\"%.1f\" y=\"%.1f\">"
				"warmup</text>\n",
				a + 4, fr->y0 + 12);
	}
}

void html_ts_begin(FILE *f, const struct result *r, const struct frame *fr,
		     const char *kind, const char *text, const char *ytitle)
{
	svg_open(f, kind, TS_W, TS_H, text);
	fprintf(f, "<text class=\"title\" x=\"8\" y=\"20\">%s</text>\n", text);
	svg_frame_rect(f, fr, "bg");
	html_ts_warmup(f, r, fr, false);
	svg_x_time_axis(f, fr);
	fprintf(f,
		"<text class=\"at\" x=\"%.1f\" y=\"%.1f\">" HTML_TIME_AXIS
		"</text>\n",
		fr->x0 + fr->w / 2, TS_H - 12);
	svg_y_title(f, 16, fr->y0 + fr->h / 2, ytitle);
}

static double mbps(const struct result_point *p)
{
	return (double)p->bytes / p->dur / 1e6;
}

/* The throughput staircase; @area closes it down to the x axis. */
static void tput_points(FILE *f, const struct result *r, const struct frame *fr,
			bool area)
{
	struct line l = {.f = f};
	double last = 0;

	for (uint32_t i = 0; i < r->npoints; i++) {
		const struct result_point *p = &r->points[i];
		double y;

		if (!(p->dur > 0))
			continue;
		y = svg_fy(fr, mbps(p));
		if (area && !l.n)
			svg_line_pt(&l, svg_fx(fr, html_ts_t(r, p->t - p->dur)),
				    svg_fy(fr, 0));
		svg_line_pt(&l, svg_fx(fr, html_ts_t(r, p->t - p->dur)), y);
		last = svg_fx(fr, html_ts_t(r, p->t));
		svg_line_pt(&l, last, y);
	}
	if (area && l.n)
		svg_line_pt(&l, last, svg_fy(fr, 0));
	svg_line_end(&l);
}

void html_plot_throughput(FILE *f, const struct result *r)
{
	struct frame fr = html_ts_base;
	double vmax = r->throughput, step, lx = fr.x0 + fr.w + 16;
	char b[64];

	for (uint32_t i = 0; i < r->npoints; i++) {
		if (r->points[i].dur > 0 && mbps(&r->points[i]) > vmax)
			vmax = mbps(&r->points[i]);
	}
	if (!(vmax > 0) || !isfinite(vmax))
		vmax = 1;
	step = svg_nice_step(vmax, 6);
	fr.ymax = ceil(vmax / step) * step;
	fr.xmin = html_ts_xmin(r);
	fr.xmax = html_ts_xmax(r);

	fputs("<figure>\n", f);
	html_ts_begin(f, r, &fr, "throughput", "Throughput per interval",
		 "MB/s (10\xe2\x81\xb6 bytes/s)");
	svg_y_lin_axis(f, &fr, step);
	html_ts_warmup(f, r, &fr, true);
	fputs("<polygon class=\"area\" points=\"", f);
	tput_points(f, r, &fr, true);
	fputs("\"/>\n<polyline class=\"tput\" points=\"", f);
	tput_points(f, r, &fr, false);
	fputs("\"/>\n", f);
	if (r->throughput > 0)
		svg_hline(f, "ref", fr.x0, fr.x0 + fr.w, svg_fy(&fr, r->throughput));
	svg_frame_rect(f, &fr, "frame");
	svg_legend_entry(f, lx, fr.y0 + 10, "#1f77b4", "per interval", false);
	snprintf(b, sizeof(b), "reported: %.2f", r->throughput);
	svg_legend_entry(f, lx, fr.y0 + 30, "#1e2125", b, true);
	fprintf(f,
		"<rect class=\"warm\" x=\"%.1f\" y=\"%.1f\" width=\"22\" "
		"height=\"10\"/>\n<text x=\"%.1f\" y=\"%.1f\">warmup</text>\n",
		lx, fr.y0 + 41, lx + 28, fr.y0 + 50);
	fputs("</svg>\n", f);
	fprintf(f,
		"<figcaption>Bytes read and written in each %g s interval, "
		"divided by its length.  Grey band: the warmup, not counted in "
		"the results.  Dashed: the reported throughput of the measured "
		"phase.  A stall of the filesystem shows as a dip.</figcaption>"
		"\n</figure>\n",
		r->interval_s);
}
