/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * report_text.h - the text report: our extra sections first, then the
 * dbench 4.0 table and the Throughput line, byte-compatible and last.
 */
#ifndef DBNG_REPORT_TEXT_H
#define DBNG_REPORT_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "ops.h"

struct result;

#define REPORT_MAX_PCTS 16

/* Which percentiles the percentile table shows (NULL: PCT_TEXT_DEFAULT of
 * results/percentiles.h) */
struct report_pcts {
	int n;
	double p[REPORT_MAX_PCTS];
};

/*
 * report_pcts_parse - "50,99,99.9" into @out.  0, or -1 with a message in
 * @err naming the bad item.
 */
int report_pcts_parse(const char *s, struct report_pcts *out, char *err,
		      size_t errlen);

/* report_pcts_default - the default percentiles as "50,90,99,99.9" */
void report_pcts_default(char *buf, size_t len);

/*
 * report_tput_line - dbench's last line, "Throughput X MB/sec ...  N
 * clients  N procs  max_latency=X ms", without the newline (the text
 * report and the HTML page print it).
 */
void report_tput_line(FILE *f, double tput, double max_latency_ms,
		      const struct config *cfg);

/*
 * report_text - print the end-of-run report of @r to @f: everything after
 * the progress lines, starting with a blank line.  The live run and
 * "dbench-ng report" print it through this one function.  Only a result
 * (status ok) gets dbench's table and Throughput line; a failed or
 * interrupted run gets our table and a "Partial figures of ..." line,
 * which no dbench log parser takes for a result.
 */
void report_text(FILE *f, const struct result *r,
		 const struct report_pcts *pcts);

/*
 * report_text_run - the same for run @run of @nruns (--runs): a run that
 * went well ends with "Figures of run N of M: ..." instead of dbench's
 * table and Throughput line, which report_spread() prints once, last.
 * @run 0 is report_text().
 */
void report_text_run(FILE *f, const struct result *r,
		     const struct report_pcts *pcts, int run, int nruns);

/*
 * report_stall_ops - "Rename 2, max 503.250 ms; WriteX 1, max 900.000 ms"
 * for the ops with a count in @count[OP_NR] (their longest stall in
 * @max_ms), as the text report and the HTML page list stalls.
 */
void report_stall_ops(FILE *f, const uint64_t *count, const double *max_ms);

/*
 * report_stall_unsampled - "N of them ended before their first sample:
 * ..." (no lead, no end), the stalls the watchdog's budget left
 * unsampled (watchdog.h), as the text report and the HTML page say it.
 */
void report_stall_unsampled(FILE *f, uint64_t n);

/*
 * What the spread of --runs needs of one run: kept in place of the run's
 * result, so that the memory of --runs N does not grow with N (a result
 * holds its histograms and its series, a megabyte or more).
 */
struct spread_run {
	struct config cfg; /* the run's (with its strings borrowed) */
	double throughput, max_latency_ms;
	bool has_bins;
	bool paced; /* resp.valid: a paced run's response times */
	uint64_t count[OP_NR];
	double mean_ms[OP_NR], p99_ms[OP_NR], max_ms[OP_NR];
	uint64_t resp_count[OP_NR];
	double resp_p99_ms[OP_NR], resp_max_ms[OP_NR];
	uint64_t late[OP_NR];
};

/* report_spread_take - what report_spread() needs of @r into @s */
void report_spread_take(struct spread_run *s, const struct result *r);

/*
 * report_spread - after --runs, when every run went well: per metric the
 * median, min and max over the @n runs and the coefficient of variation,
 * then the one dbench table and Throughput line of the output, each
 * figure the median over the runs (so the last lines are still dbench's).
 */
void report_spread(FILE *f, const struct spread_run *rs, int n);

#endif
