/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * svg.c - the SVG primitives of the plots: frame coordinates, log and
 * linear axes, thinned polylines, grid lines, titles, legend entries.
 */
#include "svg.h"

#include <math.h>

/* Log latency axes never go below this (ms): zero and sub-100 ns values
 * are drawn on the floor. */
#define FLOOR_MS 1e-4

double svg_fx(const struct frame *fr, double v)
{
	double t = (v - fr->xmin) / (fr->xmax - fr->xmin);

	if (!(t > 0))
		t = 0;
	if (t > 1)
		t = 1;
	return fr->x0 + t * fr->w;
}

double svg_fy(const struct frame *fr, double v)
{
	double lo = fr->ymin, hi = fr->ymax, t;

	if (fr->ylog) {
		if (!(v > lo))
			v = lo;
		v = log10(v);
		lo = log10(lo);
		hi = log10(hi);
	}
	t = (v - lo) / (hi - lo);
	if (!(t > 0))
		t = 0;
	if (t > 1)
		t = 1;
	return fr->y0 + (1 - t) * fr->h;
}

/* Whole decades around [lo, hi] ms, not below FLOOR_MS. */
void svg_log_range(struct frame *fr, double lo, double hi)
{
	if (!(lo >= FLOOR_MS) || !isfinite(lo))
		lo = FLOOR_MS;
	if (!(hi > lo) || !isfinite(hi))
		hi = lo;
	fr->ylog = true;
	fr->ymin = pow(10, floor(log10(lo)));
	fr->ymax = pow(10, ceil(log10(hi)));
	if (!(fr->ymax > fr->ymin))
		fr->ymax = fr->ymin * 10;
}

/* 1, 2 or 5 times a power of ten, near @range / @target. */
double svg_nice_step(double range, int target)
{
	double raw, mag, m;

	if (!(range > 0) || !isfinite(range))
		return 1;
	raw = range / target;
	mag = pow(10, floor(log10(raw)));
	m = raw / mag;
	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * mag;
}

void svg_line_pt(struct line *l, double x, double y)
{
	double d = l->coarse ? 1 : 0.33;

	if (l->coarse) {
		x = round(x);
		y = round(y);
	}
	if (l->n && fabs(x - l->x) < d && fabs(y - l->y) < d) {
		l->pending = true;
		l->px = x;
		l->py = y;
		return;
	}
	fprintf(l->f, l->coarse ? "%s%.0f,%.0f" : "%s%.1f,%.1f",
		l->n ? " " : "", x, y);
	l->n++;
	l->x = x;
	l->y = y;
	l->pending = false;
}

void svg_line_end(struct line *l)
{
	if (l->pending)
		fprintf(l->f, l->coarse ? " %.0f,%.0f" : " %.1f,%.1f", l->px,
			l->py);
	l->pending = false;
}

void svg_hline(FILE *f, const char *cls, double xa, double xb, double y)
{
	fprintf(f,
		"<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		"y2=\"%.1f\"/>\n",
		cls, xa, y, xb, y);
}

static void svg_vline(FILE *f, const char *cls, double x, double ya, double yb)
{
	fprintf(f,
		"<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		"y2=\"%.1f\"/>\n",
		cls, x, ya, x, yb);
}

void svg_open(FILE *f, const char *kind, double w, double h,
		     const char *label)
{
	fprintf(f,
		"<svg class=\"plot\" data-plot=\"%s\" viewBox=\"0 0 %.0f "
		"%.0f\" width=\"100%%\" role=\"img\" aria-label=\"%s\">\n",
		kind, w, h, label);
}

/* Decade grid lines (and 2..9 or 2, 5 between them when there is room)
 * of a log y axis, labelled when @labels. */
void svg_y_log_axis(FILE *f, const struct frame *fr, bool labels)
{
	int k0 = (int)lround(log10(fr->ymin));
	int k1 = (int)lround(log10(fr->ymax));
	double per = fr->h / (k1 - k0);
	int lstep = per >= 13 ? 1 : (int)ceil(13 / per);
	char b[32];

	for (int k = k0; k <= k1; k++) {
		double v = pow(10, k), y = svg_fy(fr, v);

		for (int m = 2; k < k1 && m <= 9; m++) {
			if (per >= 60 || (per >= 25 && (m == 2 || m == 5)))
				svg_hline(f, "minor", fr->x0, fr->x0 + fr->w,
				      svg_fy(fr, v * m));
		}
		svg_hline(f, "grid", fr->x0, fr->x0 + fr->w, y);
		if (!labels || (k - k0) % lstep)
			continue;
		html_fmt_lat(b, sizeof(b), v);
		fprintf(f,
			"<text class=\"yl\" x=\"%.1f\" y=\"%.1f\">%s</text>\n",
			fr->x0 - 5, y + 3.5, b);
	}
}

void svg_y_lin_axis(FILE *f, const struct frame *fr, double step)
{
	for (int k = 0;; k++) {
		double v = k * step, y;

		if (v > fr->ymax * (1 + 1e-9))
			break;
		y = svg_fy(fr, v);
		svg_hline(f, "grid", fr->x0, fr->x0 + fr->w, y);
		fprintf(f,
			"<text class=\"yl\" x=\"%.1f\" y=\"%.1f\">%g</text>\n",
			fr->x0 - 5, y + 3.5, v);
	}
}

void svg_x_time_axis(FILE *f, const struct frame *fr)
{
	double step = svg_nice_step(fr->xmax - fr->xmin, 12);

	for (int k = (int)ceil(fr->xmin / step - 1e-9);; k++) {
		double v = k * step, x;

		if (v > fr->xmax * (1 + 1e-9))
			break;
		x = svg_fx(fr, v);
		svg_vline(f, "grid", x, fr->y0, fr->y0 + fr->h);
		/* at the left corner: starts there, clear of the y labels */
		fprintf(f,
			"<text class=\"%s\" x=\"%.1f\" y=\"%.1f\">%g</text>\n",
			x - fr->x0 < 8 ? "xl xl0" : "xl",
			x - fr->x0 < 8 ? fr->x0 : x, fr->y0 + fr->h + 15, v);
	}
}

void svg_x_pct_axis(FILE *f, const struct frame *fr)
{
	int kmax = (int)lround(fr->xmax);
	/* the widest label, "99.9...9%" (kmax digits), in 10 px text; when
	 * two do not fit side by side, alternate between two rows, and
	 * when that is not enough either, label every lstep-th tick */
	double need = kmax * 6.4 + 3.2 + 9.5 + 5, per = fr->w / fr->xmax;
	bool stagger = per < need;
	int lstep = per * 2 >= need ? 1 : (int)ceil(need / per / 2);
	char b[32];

	for (int k = 0; k <= kmax; k++) {
		double x = svg_fx(fr, k);

		svg_vline(f, "grid", x, fr->y0, fr->y0 + fr->h);
		if (k % lstep)
			continue;
		html_fmt_pct(b, sizeof(b), k);
		/* 0% starts at the corner, clear of the lowest y label */
		fprintf(f,
			"<text class=\"%s\" x=\"%.1f\" y=\"%.1f\">%s</text>\n",
			k ? "xs" : "xs xs0", k ? x : x - 2,
			fr->y0 + fr->h + (stagger && k / lstep % 2 ? 24 : 13),
			b);
	}
}

void svg_frame_rect(FILE *f, const struct frame *fr, const char *cls)
{
	fprintf(f,
		"<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		"height=\"%.1f\"/>\n",
		cls, fr->x0, fr->y0, fr->w, fr->h);
}

void svg_y_title(FILE *f, double x, double y, const char *text)
{
	fprintf(f,
		"<text class=\"at\" transform=\"translate(%.1f %.1f) "
		"rotate(-90)\">%s</text>\n",
		x, y, text);
}

void svg_legend_entry(FILE *f, double x, double y, const char *colour,
			 const char *label, bool dashed)
{
	fprintf(f,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"%s\" stroke-width=\"2.5\"%s/>\n",
		x, y - 4, x + 22, y - 4, colour,
		dashed ? " stroke-dasharray=\"5 3\"" : "");
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", x + 28, y);
	html_esc(f, label);
	fputs("</text>\n", f);
}
