/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * multi.h - private to src/report/html: the parts of the pages of
 * several runs (a comparison's two sides, a series), which overlay the
 * runs: each run's style (multi_style.c), the overlaid time plots
 * (multi_time.c) and spectra (multi_spectrum.c), and the tables and lanes
 * of the runs (multi_runs.c).
 */
#ifndef DBNG_REPORT_HTML_MULTI_H
#define DBNG_REPORT_HTML_MULTI_H

#include "report_html.h"
#include "svg.h"

/* The runs of a page: a comparison (two sides, each run faint in its
 * side's colour, the side's median run bold) or a series (each run its
 * own colour, from blue for the first to red for the last). */
struct mset {
	int n;
	const struct html_run *run;
	bool series;
	int nside[2]; /* runs per side */
};

/* multi_style.c */
/* "baseline" / "candidate", or "run" of a series */
const char *mset_side_name(const struct mset *m, int side);
/* "B2", "C1": run i's short name; a series' runs are "1", "2", ... */
void mset_short(const struct mset *m, int i, char *buf, size_t len);
/* run i's number within its side, from 1 */
int mset_index(const struct mset *m, int i);
const char *mset_colour(const struct mset *m, int i, char *buf, size_t len);
/* the side's median run of @v (NAN: no value), or -1 */
int mset_median(const struct mset *m, int side, const double *v);
/* the polyline of run i (bold when it is @bold[side]), its points to be
 * added with svg_line_pt(), then closed */
struct line mset_line_open(FILE *f, const struct mset *m, int i,
			   const int bold[2]);
void mset_line_close(struct line *l);
/* a legend of the sides (a comparison) or the runs (a series) */
void mset_legend(FILE *f, const struct mset *m, const char *bold_by);
/* the ops that ran in some run, those shown at first (@boost: more
 * weight, e.g. ops with a verdict), and the picker */
void mset_ops(const struct mset *m, const bool *boost, bool ran[OP_NR],
	      bool on[OP_NR]);

/* the sections of the overlaid runs, from the latency distributions to
 * the head of the differences */
void mset_overlays(FILE *f, const struct mset *m, const bool ran[OP_NR],
		   const bool on[OP_NR]);
/* a panel of op @op (the picker's): its div, its svg @h high, its title
 * "<op> <what>" and frame */
void mset_panel_open(FILE *f, const char *kind, int op, double h,
		     const char *what, const struct frame *fr);

/* multi_time.c */
void mset_plot_throughput(FILE *f, const struct mset *m);
void mset_plot_p99(FILE *f, const struct mset *m, const bool ran[OP_NR]);
/* whether some run has a per-op p99 in its time series */
bool mset_has_p99(const struct mset *m);

/* multi_spectrum.c */
void mset_plot_spectra(FILE *f, const struct mset *m, const bool ran[OP_NR]);

/* multi_runs.c */
void mset_runs_table(FILE *f, const struct mset *m);
void mset_stall_lanes(FILE *f, const struct mset *m);
void mset_machine(FILE *f, const struct mset *m);
void mset_config_diff(FILE *f, const struct mset *m);

/* plot_spectrum.c: the quantile function of @h in @fr as polyline
 * points */
void html_sp_points(FILE *f, const struct hist *h, const struct frame *fr);

#endif
