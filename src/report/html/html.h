/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * html.h - private to src/report/html: what the parts of the HTML page
 * share (escaping, formatters, op colours, the sections of the page).
 */
#ifndef DBNG_REPORT_HTML_HTML_H
#define DBNG_REPORT_HTML_HTML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "result.h"

/* escape.c */
void html_esc(FILE *f, const char *s);	      /* text or attribute value */
void html_str(FILE *f, const char *s);	      /* escaped, or "unknown" */
void html_shell_word(FILE *f, const char *s); /* quoted, then escaped */

/* the time base of the pages (plot_time.c: html_ts_t()), as it is named
 * on their axes and in their tables */
#define HTML_TIME_AXIS                                                   \
	"s of the measured phase (0: the end of the warmup; before it, " \
	"negative: the warmup)"
/* the time base of every time on the pages: seconds of the measured
 * phase, as the text report's "s into the measured phase" (the warmup
 * before 0); @s is seconds after the release of the clients */
double html_ts_t(const struct result *r, double s);

/* format.c */
extern const char *const html_op_colour[OP_NR]; /* one colour per op */
void html_fmt_size(char *b, size_t n, uint64_t v, bool binary);
void html_fmt_lat(char *b, size_t n, double ms);
void html_fmt_pct(char *b, size_t n, int k);
double html_ns_ms(uint64_t ns);
bool html_op_shown(const struct result *r, int i);
void html_op_name(FILE *f, int i);
void html_note(FILE *f, const char *kind, const char *text);

/* opsel.c: the ops of the plots the reader picks, the HTML_OPS_SHOWN of
 * highest @score checked at first */
#define HTML_OPS_SHOWN 5
void html_opsel_top(const double score[OP_NR], const bool ran[OP_NR],
		    bool on[OP_NR]);
void html_opsel(FILE *f, const bool ran[OP_NR], const bool on[OP_NR],
		const char *what);
/* the ops that ran (html_op_shown()) and those shown at first */
void html_ops_ran(const struct result *r, bool ran[OP_NR], bool on[OP_NR]);

/* css.c: page.css, NUL-terminated */
const char *html_css_text(void);

/* page.c: the head of every page, its title written between the two */
void html_head_open(FILE *f);
void html_head_close(FILE *f);

/* the sections of the page */
void html_config_table(FILE *f, const struct config *c);   /* settings.c */
void html_env_table(FILE *f, const struct result_env *e);  /* settings.c */
void html_op_table(FILE *f, const struct result *r);	   /* op_tables.c */
void html_clients_table(FILE *f, const struct result *r);  /* op_tables.c */
void html_resp_table(FILE *f, const struct result *r);	   /* op_tables.c */
void html_stalls_section(FILE *f, const struct result *r); /* stalls.c */
/* stalls.c: "woken by client 2 in btrfs_sync_log", the waker of @ev's
 * longest sleep (BPF); false without one */
bool html_stall_waker(const struct result_stall *ev, int cpp, char *buf,
		      size_t len);
void html_plot_spectrum(FILE *f, const struct result *r);  /* plot_spectrum.c */
void html_plot_throughput(FILE *f, const struct result *r); /* plot_time.c */
void html_plot_latency(FILE *f, const struct result *r, bool p99); /* plot_latency.c */

#endif
