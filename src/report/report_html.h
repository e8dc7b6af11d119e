/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * report_html.h - a result as one self-contained HTML page with inline
 * SVG plots (no script, nothing fetched); several results on one page, as
 * a series (report with several files) or as a comparison of two sides
 * (compare --html, whose verdicts src/cli hands over as compare printed
 * them).
 */
#ifndef DBNG_REPORT_HTML_H
#define DBNG_REPORT_HTML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct result;

/* report_html - write the page for @r to @f.  0, or -1 on a write error */
int report_html(FILE *f, const struct result *r);

/* report_html_file - write the page to @path atomically (temporary file,
 * then rename).  0, or -1 with a message in @err. */
int report_html_file(const struct result *r, const char *path, char *err,
		     size_t errlen);

/* One run of a page of several: its result and its file. */
struct html_run {
	const struct result *r;
	const char *name; /* as given on the command line */
	int side;	  /* a comparison: 0 baseline, 1 candidate; else 0 */
};

/* report_html_series - the page of @n runs to @f; 0, or -1 on a write
 * error */
int report_html_series(FILE *f, const struct html_run *runs, int n);

/* report_html_series_file - the page of the @n runs @runs (in the order
 * given: a series of runs, a bisect's steps), overlaid; as
 * report_html_file() */
int report_html_series_file(const struct html_run *runs, int n,
			    const char *path, char *err, size_t errlen);

/* One row of a comparison's verdicts, as compare's table prints it. */
struct html_verdict {
	int op;		    /* enum op_type, -1: the run (MB/s) */
	const char *metric; /* "p99.9", "MB/s", ... */
	bool higher_worse;
	const char *base, *cand, *change, *p, *ci; /* the table's texts */
	const char *own; /* Own chg, when the comparison decided on own */
	double change_v, ci_lo, ci_hi; /* relative changes; NAN: none */
	const char *word;	       /* "REGRESSED", "no change", ... */
	int verdict;		       /* 1 regressed, -1 improved, 0 */
	bool unclear;
};

/* A comparison: the runs, baseline first, and compare's findings. */
struct html_compare {
	int nruns;
	const struct html_run *runs;
	bool regressed;	    /* compare's exit 1 */
	const char *reason; /* its last line */
	double alpha, noise, floor_ms;
	int nrows;
	const struct html_verdict *rows;
	int nnotes;
	const char *const *notes;
	bool own;	   /* decided on own latencies: an Own chg column */
	const char *scope; /* compare's lines on what decided, '\n' ends */
};

/* report_html_compare - the page of @c to @f; 0, or -1 on a write error */
int report_html_compare(FILE *f, const struct html_compare *c);

/* report_html_compare_file - the page of comparison @c; as
 * report_html_file() */
int report_html_compare_file(const struct html_compare *c, const char *path,
			     char *err, size_t errlen);

#endif
