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

#include <inttypes.h>

#include "result.h"

static const double pcts[] = {50, 90, 99, 99.9};

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static void percentile_table(FILE *f, const struct stats *st)
{
	fprintf(f, " Latency ms        Count      Mean       p50       p90"
		   "       p99     p99.9       Max\n");
	fprintf(f, " ---------------------------------------------------"
		   "----------------------------------\n");
	for (int i = 0; i < OP_NR; i++) {
		const struct hist *h = &st->op[i];

		if (!h->count)
			continue;
		fprintf(f, " %-12s %10" PRIu64 " %9.3f", op_info[i].label,
			h->count, hist_mean(h) / 1e6);
		for (size_t k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++)
			fprintf(f, " %9.3f", ms(hist_value_at(h, pcts[k])));
		fprintf(f, " %9.3f\n", ms(h->max));
	}
	fprintf(f, "\n");
}

static void warnings(FILE *f, const struct result *r)
{
	fprintf(f, " Unexpected results: %" PRIu64 " (the run went on)\n",
		r->nwarn);
	for (int i = 0; i < OP_NR; i++) {
		if (r->total->errors[i])
			fprintf(f, " %-12s %10" PRIu64 "\n", op_info[i].label,
				r->total->errors[i]);
	}
	for (int i = 0; i < r->nwarn_msgs; i++)
		fprintf(f, "   %s\n", r->warn_msgs[i]);
	fprintf(f, "\n");
}

/* The dbench 4.0 table: rows with a zero global count are omitted, and
 * --per-client-results uses the same rows for every client. */
static void classic_table(FILE *f, const struct result *r,
			  const struct stats *st)
{
	bool machine = r->cfg->machine;

	fprintf(f, " Operation      Count    AvgLat    MaxLat\n");
	fprintf(f, " ----------------------------------------\n");
	for (int i = 0; i < OP_NR; i++) {
		const struct hist *h = &st->op[i];

		if (!r->total->op[i].count || !op_is_timed(i))
			continue;
		if (machine)
			fprintf(f, ":%s:%u:%.03f:%.03f:\n", op_info[i].label,
				(unsigned int)h->count, hist_mean(h) / 1e6,
				ms(h->max));
		else
			fprintf(f, " %-12s %7u %9.03f %9.03f\n",
				op_info[i].label, (unsigned int)h->count,
				hist_mean(h) / 1e6, ms(h->max));
	}
	fprintf(f, "\n");
}

void report_text(FILE *f, const struct result *r)
{
	const struct config *cfg = r->cfg;

	if (r->interrupted && r->measured_s > 0)
		fprintf(f, "Interrupted by signal %d after %.1f s of "
			"measurement: partial results\n\n", r->interrupted,
			r->measured_s);
	else if (r->interrupted)
		fprintf(f, "Interrupted by signal %d during the warmup: the "
			"figures below are of the warmup\n\n", r->interrupted);
	if (!cfg->machine && !cfg->no_percentiles)
		percentile_table(f, r->total);
	if (r->nwarn && !cfg->machine)
		warnings(f, r);
	classic_table(f, r, r->total);
	if (cfg->per_client) {
		fprintf(f, "Per client results:\n");
		for (int i = 0; i < cfg->nclients; i++) {
			fprintf(f, "Client %u did %u lines and %.0f bytes\n",
				(unsigned int)i,
				(unsigned int)r->clients[i].lines,
				(double)r->clients[i].bytes);
			classic_table(f, r, r->clients[i].st);
		}
	}
	if (cfg->machine)
		fprintf(f, ";%g;%d;%d;%.03f;\n", r->throughput, cfg->nclients,
			cfg->nprocs, r->max_latency_ms);
	else
		fprintf(f,
			"Throughput %g MB/sec%s%s  %d clients  %d procs  "
			"max_latency=%.03f ms\n",
			r->throughput, cfg->sync_open ? " (sync open)" : "",
			cfg->sync_dirs ? " (sync dirs)" : "", cfg->nclients,
			cfg->nprocs, r->max_latency_ms);
}
