/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * report_text.c - render a result as text.
 *
 * Parsers of dbench output (mmtests, LKP, Phoronix, fsperf) look for the
 * line containing "Operation", the rows after it, and the last line
 * "Throughput ...".  So every section of ours is printed before the
 * classic table, and none contains the words "Operation" or "execute".
 */
#include "report_text.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"

static const struct report_pcts default_pcts = {
	.n = 4,
	.p = { 50, 90, 99, 99.9 },
};

int report_pcts_parse(const char *s, struct report_pcts *out, char *err,
		      size_t errlen)
{
	const char *p = s;
	char *end;

	out->n = 0;
	while (*p) {
		double v;

		errno = 0;
		v = strtod(p, &end);
		if (end == p || (*end && *end != ',') || errno ||
		    !(v > 0 && v <= 100)) {
			snprintf(err, errlen, "--percentiles: '%.*s' is not a "
				 "percentile (0 < p <= 100)",
				 (int)strcspn(p, ","), p);
			return -1;
		}
		if (out->n == REPORT_MAX_PCTS) {
			snprintf(err, errlen, "--percentiles: at most %d",
				 REPORT_MAX_PCTS);
			return -1;
		}
		out->p[out->n++] = v;
		p = *end ? end + 1 : end;
	}
	if (!out->n) {
		snprintf(err, errlen, "--percentiles: no percentile given");
		return -1;
	}
	return 0;
}

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static void percentile_table(FILE *f, const struct result *r,
			     const struct report_pcts *pc)
{
	char label[16];
	int width = 12 + 1 + 10 + 10 * (pc->n + 2);

	fprintf(f, " Latency ms        Count      Mean");
	for (int k = 0; k < pc->n; k++) {
		snprintf(label, sizeof(label), "p%g", pc->p[k]);
		fprintf(f, " %9s", label);
	}
	fprintf(f, "       Max\n ");
	for (int i = 0; i < width; i++)
		fputc('-', f);
	fputc('\n', f);
	for (int i = 0; i < OP_NR; i++) {
		const struct hist *h = &r->op[i].h;

		if (!h->count || !op_is_timed(i))
			continue;
		fprintf(f, " %-12s %10" PRIu64 " %9.3f", op_info[i].label,
			h->count, hist_mean(h) / 1e6);
		for (int k = 0; k < pc->n; k++)
			fprintf(f, " %9.3f", ms(hist_value_at(h, pc->p[k])));
		fprintf(f, " %9.3f\n", ms(h->max));
	}
	fprintf(f, "\n");
}

static void warnings(FILE *f, const struct result *r)
{
	fprintf(f, " Unexpected results: %" PRIu64 " (the run went on)\n",
		r->nwarn);
	for (int i = 0; i < OP_NR; i++) {
		if (r->op[i].errors)
			fprintf(f, " %-12s %10" PRIu64 "\n", op_info[i].label,
				r->op[i].errors);
	}
	for (int i = 0; i < r->nwarn_msgs; i++)
		fprintf(f, "   %s\n", r->warn_msgs[i]);
	fprintf(f, "\n");
}

/* One row of the dbench table: count, mean and max in ms. */
static void row(FILE *f, bool machine, int op, uint64_t count, double mean,
		double max)
{
	if (machine)
		fprintf(f, ":%s:%u:%.03f:%.03f:\n", op_info[op].label,
			(unsigned int)count, mean, max);
	else
		fprintf(f, " %-12s %7u %9.03f %9.03f\n", op_info[op].label,
			(unsigned int)count, mean, max);
}

/* The dbench 4.0 table header.  Rows with a zero global count are
 * omitted, also in the per-client tables. */
static void header(FILE *f)
{
	fprintf(f, " Operation      Count    AvgLat    MaxLat\n");
	fprintf(f, " ----------------------------------------\n");
}

static bool shown(const struct result *r, int op)
{
	return r->op[op].h.count && op_is_timed(op);
}

void report_text(FILE *f, const struct result *r,
		 const struct report_pcts *pcts)
{
	const struct config *cfg = &r->cfg;

	fprintf(f, "\n");
	if (r->status == RESULT_INTERRUPTED && r->measured_s > 0)
		fprintf(f, "Interrupted by signal %d after %.1f s of "
			"measurement: partial results\n\n", r->signal,
			r->measured_s);
	else if (r->status == RESULT_INTERRUPTED)
		fprintf(f, "Interrupted by signal %d during the warmup: the "
			"figures below are of the warmup\n\n", r->signal);
	if (!cfg->machine && !cfg->no_percentiles && r->has_bins)
		percentile_table(f, r, pcts ? pcts : &default_pcts);
	if (r->nwarn && !cfg->machine)
		warnings(f, r);

	header(f);
	for (int i = 0; i < OP_NR; i++) {
		const struct hist *h = &r->op[i].h;

		if (shown(r, i))
			row(f, cfg->machine, i, h->count, hist_mean(h) / 1e6,
			    ms(h->max));
	}
	fprintf(f, "\n");
	if (cfg->per_client && r->clients) {
		fprintf(f, "Per client results:\n");
		for (int c = 0; c < r->nclients; c++) {
			const struct result_client *rc = &r->clients[c];

			fprintf(f, "Client %u did %u lines and %.0f bytes\n",
				(unsigned int)c, (unsigned int)rc->lines,
				(double)rc->bytes);
			header(f);
			for (int i = 0; i < OP_NR; i++) {
				double mean = rc->count[i] ?
					(double)rc->sum_ns[i] /
					(double)rc->count[i] / 1e6 : 0;

				if (shown(r, i))
					row(f, cfg->machine, i, rc->count[i],
					    mean, ms(rc->max_ns[i]));
			}
			fprintf(f, "\n");
		}
	}
	if (cfg->machine)
		fprintf(f, ";%g;%d;%d;%.03f;\n", r->throughput, cfg->nclients,
			cfg->nprocs, r->max_latency_ms);
	else
		fprintf(f, "Throughput %g MB/sec%s%s  %d clients  %d procs  "
			"max_latency=%.03f ms\n", r->throughput,
			cfg->sync_open ? " (sync open)" : "",
			cfg->sync_dirs ? " (sync dirs)" : "", cfg->nclients,
			cfg->nprocs, r->max_latency_ms);
}
