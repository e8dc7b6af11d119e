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

/*
 * The one dbench table of --runs: per op, the median over the runs of
 * each column (count, mean, max; a run without the op counts 0), rows
 * whose median count is 0 left out.
 */
static void median_table(FILE *f, struct result *const *rs, int n, double *v)
{
	const struct config *cfg = &rs[0]->cfg;

	report_header(f, true);
	for (int op = 0; op < OP_NR; op++) {
		double count, mean, max;

		if (!op_is_timed(op))
			continue;
		for (int i = 0; i < n; i++)
			v[i] = (double)rs[i]->op[op].h.count;
		count = median(v, n);
		if (count < 0.5)
			continue;
		for (int i = 0; i < n; i++) {
			const struct hist *h = &rs[i]->op[op].h;

			v[i] = h->count ? hist_mean(h) / 1e6 : 0;
		}
		mean = median(v, n);
		for (int i = 0; i < n; i++)
			v[i] = ms(rs[i]->op[op].h.max);
		max = median(v, n);
		report_row(f, true, cfg->machine, op, (uint64_t)llround(count), mean,
		    max);
	}
	fprintf(f, "\n");
}

/* The spread of a paced run's response times (when every run has them):
 * per op p99 and max, and the late starts of all ops. */
static void spread_resp(FILE *f, struct result *const *rs, int n, double *v)
{
	char label[64];

	for (int i = 0; i < n; i++) {
		if (!rs[i]->resp.valid)
			return;
	}
	for (int op = 0; op < OP_NR; op++) {
		static const struct {
			const char *name;
			double p;
		} m[] = { { "response p99", 99 }, { "response max", 100 } };
		bool all = op_is_timed(op);

		for (int i = 0; i < n; i++)
			all = all && rs[i]->resp.h[op].count;
		if (!all)
			continue;
		for (size_t k = 0; k < sizeof(m) / sizeof(m[0]); k++) {
			for (int i = 0; i < n; i++)
				v[i] = ms(hist_value_at(&rs[i]->resp.h[op],
							m[k].p));
			snprintf(label, sizeof(label), "%s: %s ms",
				 op_info[op].label, m[k].name);
			spread_row(f, label, v, n);
		}
	}
	for (int i = 0; i < n; i++) {
		v[i] = 0;
		for (int op = 0; op < OP_NR; op++)
			v[i] += op_is_timed(op) ? (double)rs[i]->resp.late[op]
						: 0;
	}
	spread_row(f, "late starts", v, n);
}

void report_spread(FILE *f, struct result *const *rs, int n)
{
	const struct config *cfg = &rs[0]->cfg;
	double *v = calloc((size_t)n, sizeof(*v)), tput, maxlat;
	char label[64];

	if (!v)
		return;
	fprintf(f, "\nRun-to-run spread over %d runs: median [min .. max], "
		"coefficient of variation\n", n);
	for (int i = 0; i < n; i++)
		v[i] = rs[i]->throughput;
	tput = spread_row(f, "MB/sec", v, n);
	for (int i = 0; i < n; i++)
		v[i] = rs[i]->max_latency_ms;
	maxlat = spread_row(f, "max_latency ms", v, n);
	for (int op = 0; op < OP_NR; op++) {
		static const struct {
			const char *name;
			double p;	/* 0: mean, 100: max */
		} m[] = { { "mean", 0 }, { "p99", 99 }, { "max", 100 } };
		bool all = true;

		for (int i = 0; i < n; i++)
			all = all && rs[i]->op[op].h.count;
		if (!all || !op_is_timed(op))
			continue;
		for (size_t k = 0; k < sizeof(m) / sizeof(m[0]); k++) {
			if (m[k].p == 99 && !rs[0]->has_bins)
				continue;
			for (int i = 0; i < n; i++) {
				const struct hist *h = &rs[i]->op[op].h;

				v[i] = m[k].p == 0 ? hist_mean(h) / 1e6
				       : ms(hist_value_at(h, m[k].p));
			}
			snprintf(label, sizeof(label), "%s: %s ms",
				 op_info[op].label, m[k].name);
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
