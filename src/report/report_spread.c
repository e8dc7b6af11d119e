/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * report_spread.c - what --runs prints after its runs: per figure the
 * median over the runs with its range and coefficient of variation, the
 * one dbench table of medians, and the Throughput line last.
 */
#include "report_text.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "report_impl.h"
#include "result.h"
#include "text_format.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of @v[n], sorted in place. */
static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One row: @v[n] sorted in place; median [min .. max] and cv. */
static double spread_row(FILE *f, const char *label, double *v, int n)
{
	double mean = 0, var = 0, med = median(v, n);

	for (int i = 0; i < n; i++)
		mean += v[i] / n;
	for (int i = 0; i < n; i++)
		var += (v[i] - mean) * (v[i] - mean) / (n > 1 ? n - 1 : 1);
	fprintf(f, " %-26s %11.3f [%11.3f .. %11.3f]  cv %5.1f%%\n", label,
		med, v[0], v[n - 1], mean > 0 ? 100 * sqrt(var) / mean : 0.0);
	return med;
}

void report_spread_take(struct spread_run *s, const struct result *r)
{
	memset(s, 0, sizeof(*s));
	s->cfg = r->cfg;
	s->throughput = r->throughput;
	s->max_latency_ms = r->max_latency_ms;
	s->has_bins = r->has_bins;
	s->paced = r->resp.valid;
	for (int op = 0; op < OP_NR; op++) {
		const struct hist *h = &r->op[op].h, *rh = &r->resp.h[op];

		s->count[op] = h->count;
		s->mean_ms[op] = h->count ? hist_mean(h) / 1e6 : 0;
		s->p99_ms[op] = ms(hist_value_at(h, 99));
		s->max_ms[op] = ms(h->max);
		s->resp_count[op] = rh->count;
		s->resp_p99_ms[op] = ms(hist_value_at(rh, 99));
		s->resp_max_ms[op] = ms(hist_value_at(rh, 100));
		s->late[op] = r->resp.late[op];
	}
}

/*
 * The one dbench table of --runs: per op, the median over the runs of
 * each column (count, mean, max; a run without the op counts 0), rows
 * whose median count is 0 left out.
 */
static void median_table(FILE *f, const struct spread_run *rs, int n, double *v)
{
	const struct config *cfg = &rs[0].cfg;

	report_header(f, true);
	for (int op = 0; op < OP_NR; op++) {
		double count, mean, max;

		if (!op_is_timed(op))
			continue;
		for (int i = 0; i < n; i++)
			v[i] = (double)rs[i].count[op];
		count = median(v, n);
		if (count < 0.5)
			continue;
		for (int i = 0; i < n; i++)
			v[i] = rs[i].mean_ms[op];
		mean = median(v, n);
		for (int i = 0; i < n; i++)
			v[i] = rs[i].max_ms[op];
		max = median(v, n);
		report_row(f, true, cfg->machine, op, (uint64_t)llround(count), mean,
		    max);
	}
	fprintf(f, "\n");
}

/* The spread of a paced run's response times (when every run has them):
 * per op p99 and max, and the late starts of all ops. */
static void spread_resp(FILE *f, const struct spread_run *rs, int n, double *v)
{
	char label[64];

	for (int i = 0; i < n; i++) {
		if (!rs[i].paced)
			return;
	}
	for (int op = 0; op < OP_NR; op++) {
		bool all = op_is_timed(op);

		for (int i = 0; i < n; i++)
			all = all && rs[i].resp_count[op];
		if (!all)
			continue;
		for (int i = 0; i < n; i++)
			v[i] = rs[i].resp_p99_ms[op];
		snprintf(label, sizeof(label), "%s: response p99 ms",
			 op_info[op].label);
		spread_row(f, label, v, n);
		for (int i = 0; i < n; i++)
			v[i] = rs[i].resp_max_ms[op];
		snprintf(label, sizeof(label), "%s: response max ms",
			 op_info[op].label);
		spread_row(f, label, v, n);
	}
	for (int i = 0; i < n; i++) {
		v[i] = 0;
		for (int op = 0; op < OP_NR; op++)
			v[i] += op_is_timed(op) ? (double)rs[i].late[op] : 0;
	}
	spread_row(f, "late starts", v, n);
}

void report_spread(FILE *f, const struct spread_run *rs, int n)
{
	const struct config *cfg = &rs[0].cfg;
	double *v = calloc((size_t)n, sizeof(*v)), tput, maxlat;
	char label[64];

	if (!v)
		return;
	fprintf(f, "\nRun-to-run spread over %d runs: median [min .. max], "
		"coefficient of variation\n", n);
	for (int i = 0; i < n; i++)
		v[i] = rs[i].throughput;
	tput = spread_row(f, "MB/sec", v, n);
	for (int i = 0; i < n; i++)
		v[i] = rs[i].max_latency_ms;
	maxlat = spread_row(f, "max_latency ms", v, n);
	for (int op = 0; op < OP_NR; op++) {
		static const char *const name[] = {"mean", "p99", "max"};
		bool all = true;

		for (int i = 0; i < n; i++)
			all = all && rs[i].count[op];
		if (!all || !op_is_timed(op))
			continue;
		for (int k = 0; k < 3; k++) {
			if (k == 1 && !rs[0].has_bins)
				continue;
			for (int i = 0; i < n; i++)
				v[i] = k == 0	? rs[i].mean_ms[op]
				       : k == 1 ? rs[i].p99_ms[op]
						: rs[i].max_ms[op];
			snprintf(label, sizeof(label), "%s: %s ms",
				 op_info[op].label, name[k]);
			spread_row(f, label, v, n);
		}
	}
	spread_resp(f, rs, n, v);
	fprintf(f,
		"The table and the last line below are not one run's: "
		"each figure is its\nmedian over the %d runs (per op: the "
		"count, the mean and the max each).\n\n",
		n);
	median_table(f, rs, n, v);
	free(v);
	if (cfg->machine)
		fprintf(f, ";%g;%d;%d;%.03f;\n", tput, cfg->nclients,
			cfg->nprocs, maxlat);
	else {
		report_tput_line(f, tput, maxlat, cfg);
		fputc('\n', f);
	}
}
