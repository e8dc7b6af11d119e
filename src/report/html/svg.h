/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * svg.h - private to src/report/html: the SVG primitives of the plots
 * (svg.c) and what the two time plots share (plot_time.c).
 */
#ifndef DBNG_REPORT_HTML_SVG_H
#define DBNG_REPORT_HTML_SVG_H

#include "html.h"

/* A plot area (viewBox units, y downwards) and the data range it shows;
 * a log y range is in ms and spans whole decades. */
struct frame {
	double x0, y0, w, h;
	double xmin, xmax;
	double ymin, ymax;
	bool ylog;
};

/* A "points" attribute being written: vertices closer than a third of a
 * unit to the last one written are dropped (the last one is kept); a
 * @coarse line (the faint runs of a page of several) is in whole units. */
struct line {
	FILE *f;
	unsigned int n;
	double x, y;
	bool pending;
	double px, py;
	bool coarse;
};

double svg_fx(const struct frame *fr, double v);
double svg_fy(const struct frame *fr, double v);
void svg_log_range(struct frame *fr, double lo, double hi);
double svg_nice_step(double range, int target);
void svg_line_pt(struct line *l, double x, double y);
void svg_line_end(struct line *l);
void svg_hline(FILE *f, const char *cls, double xa, double xb, double y);
void svg_open(FILE *f, const char *kind, double w, double h,
	      const char *label);
void svg_y_log_axis(FILE *f, const struct frame *fr, bool labels);
void svg_y_lin_axis(FILE *f, const struct frame *fr, double step);
void svg_x_time_axis(FILE *f, const struct frame *fr);
void svg_x_pct_axis(FILE *f, const struct frame *fr);
void svg_frame_rect(FILE *f, const struct frame *fr, const char *cls);
void svg_y_title(FILE *f, double x, double y, const char *text);
void svg_legend_entry(FILE *f, double x, double y, const char *colour,
		      const char *label, bool dashed);

/* labels.c: labels that must not overlap, in the area (x0, y0)-(x1, y1) */
#define LABELS_MAX 64
struct lbox {
	double x, y, w, h;
};
struct labels {
	double x0, y0, x1, y1;
	int n;
	struct lbox b[LABELS_MAX];
};
/* the box of text @s in @px at (x, y) (its baseline), anchored at its
 * start or (@end) its end */
struct lbox html_label_box(const char *s, double px, double x, double y,
			   bool end);
bool html_label_free(struct labels *l, const struct lbox *b);
void html_label_take(struct labels *l, const struct lbox *b);
bool html_label_place(struct labels *l, const char *s, double px,
		      const char *s2, double x, double y, double *ox,
		      double *oy, bool *end);
void html_label_mark(struct labels *l, double x, double y, double r);
void html_label_text_box(struct labels *l, const char *s, double px, double x,
			 double y, bool end);

/* plot_time.c: the frame, x range, warmup bands and start of a time plot */
extern const struct frame html_ts_base;
double html_ts_xmin(const struct result *r);
double html_ts_xmax(const struct result *r);
void html_ts_warmup(FILE *f, const struct result *r, const struct frame *fr,
		    bool label);
void html_ts_begin(FILE *f, const struct result *r, const struct frame *fr,
		   const char *kind, const char *text, const char *ytitle);

#endif
