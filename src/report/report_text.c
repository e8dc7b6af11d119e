/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * report_text.c - render a result as text (its op tables' rows in
 * report_table.c, the percentile options in report_pcts.c, the spread of
 * --runs in report_spread.c).
 *
 * Parsers of dbench output (mmtests, LKP, Phoronix, fsperf, autotest)
 * look for the line containing "Operation", the rows after it, lines with
 * "execute", a dashed rule, and lines starting with or containing
 * "Throughput".  So every section of ours is printed before the classic
 * table, none contains those words or a dashed rule, and none has a row
 * whose first word is an op's label (mmtests' older parser takes any such
 * line, anywhere, for a table row): ours are "NTCreateX:".  Only a
 * result prints the classic table and the Throughput line: a failed or
 * interrupted run, and each run of --runs, print their figures in our own
 * form, which no parser takes for a result (docs/compat.md).
 */
#include "report_text.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"
#include "percentiles.h"
#include "report_busy.h"
#include "report_impl.h"
#include "report_offcpu.h"
#include "str_clean.h"
#include "result.h"
#include "text_format.h"

void report_stall_ops(FILE *f, const uint64_t *count, const double *max_ms)
{
	bool first = true;

	for (int i = 0; i < OP_NR; i++) {
		if (!count[i])
			continue;
		fprintf(f, "%s%s %" PRIu64 ", max %.3f ms", first ? "" : "; ",
			op_info[i].label, count[i], max_ms[i]);
		first = false;
	}
}

void report_stall_unsampled(FILE *f, uint64_t n)
{
	fprintf(f,
		"%" PRIu64 " of them ended before their first sample: more "
		"ops were stuck at once than the watchdog samples",
		n);
}

void report_tput_line(FILE *f, double tput, double max_latency_ms,
		      const struct config *cfg)
{
	fprintf(f, TXT_TPUT_LINE, tput, cfg->sync_open ? TXT_SYNC_OPEN : "",
		cfg->sync_dirs ? TXT_SYNC_DIRS : "", cfg->nclients,
		cfg->nprocs, max_latency_ms);
}

/* The rows of a percentile table under its header @head (12 columns):
 * per op its histogram @h[op] (NULL: no row). */
static void hist_table(FILE *f, const char *head, const struct hist *const *h,
		       const struct report_pcts *pc)
{
	char label[16];
	int width = 12 + 1 + 10 + 10 * (pc->n + 2);

	fprintf(f, "%-13s %10s %9s", head, "Count", "Mean");
	for (int k = 0; k < pc->n; k++) {
		snprintf(label, sizeof(label), "p%g", pc->p[k]);
		fprintf(f, " %9s", label);
	}
	fprintf(f, "       Max\n ");
	for (int i = 0; i < width; i++)
		fputc('=', f);
	fputc('\n', f);
	for (int i = 0; i < OP_NR; i++) {
		if (!h[i] || !h[i]->count || !op_is_timed(i))
			continue;
		fprintf(f, " %-12s %10" PRIu64 " %9.3f", our_label(i, label),
			h[i]->count, hist_mean(h[i]) / 1e6);
		for (int k = 0; k < pc->n; k++)
			fprintf(f, " %9.3f", ms(hist_value_at(h[i], pc->p[k])));
		fprintf(f, " %9.3f\n", ms(h[i]->max));
	}
}

static void percentile_table(FILE *f, const struct result *r,
			     const struct report_pcts *pc)
{
	const struct hist *h[OP_NR];

	for (int i = 0; i < OP_NR; i++)
		h[i] = &r->op[i].h;
	hist_table(f, TXT_PCT_TABLE, h, pc);
	fprintf(f, "\n");
}

/* The intended starts of a paced run, in words: "-R 5 MB/s", ... */
static void pacing_words(FILE *f, const struct result *r)
{
	if (r->resp.pacing == RESP_RATE)
		fprintf(f, "the byte schedule of -R %g MB/s",
			r->cfg.target_rate);
	else
		fprintf(f, "the loadfile's timestamps");
}

/*
 * A paced run: the response times (from each op's intended start to its
 * end: the service time of the table above plus how late the op began),
 * then its late starts, and the latest start of all.
 */
static void response_table(FILE *f, const struct result *r,
			   const struct report_pcts *pc)
{
	const struct result_resp *rr = &r->resp;
	const struct hist *h[OP_NR];
	double late_ms[OP_NR];
	uint64_t n = 0, late = 0, worst = 0;

	for (int i = 0; i < OP_NR; i++) {
		h[i] = &rr->h[i];
		late_ms[i] = ms(rr->late_max_ns[i]);
		if (!op_is_timed(i))
			continue;
		n += rr->h[i].count;
		late += rr->late[i];
		if (rr->late_max_ns[i] > worst)
			worst = rr->late_max_ns[i];
	}
	hist_table(f, TXT_RESP_TABLE, h, pc);
	fprintf(f, " from each op's intended start (");
	pacing_words(f, r);
	fprintf(f, "): its service time above plus how late it began\n");
	fprintf(f, " Late starts: %" PRIu64 " of %" PRIu64 " op%s began more "
		"than %g ms after the intended start", late, n,
		n == 1 ? "" : "s", rr->late_ms);
	if (late) {
		uint64_t cnt[OP_NR];

		for (int i = 0; i < OP_NR; i++)
			cnt[i] = op_is_timed(i) ? rr->late[i] : 0;
		fputs(" (", f);
		report_stall_ops(f, cnt, late_ms);
		fputs(")", f);
	}
	fprintf(f, "; the latest began %.3f ms late\n\n", ms(worst));
}

/* A string of the result (a path, a stack, a message: from a JSON file,
 * anything): no control character, no invalid UTF-8, no parser word. */
static void safe(FILE *f, const char *text)
{
	str_text(f, text);
}

static void warnings(FILE *f, const struct result *r)
{
	char label[16];

	fprintf(f, TXT_UNEXPECTED ": %" PRIu64 " (the run went on)\n",
		r->nwarn);
	for (int i = 0; i < OP_NR; i++) {
		if (r->op[i].errors)
			fprintf(f, " %-12s %10" PRIu64 "\n",
				our_label(i, label), r->op[i].errors);
	}
	for (int i = 0; i < r->nwarn_msgs; i++) {
		fprintf(f, "   ");
		safe(f, r->warn_msgs[i]);
		fputc('\n', f);
	}
	fprintf(f, "\n");
}

/* The ops the backend cannot execute (backend.h: not_run): how many lines
 * of each, and why.  Not timed, so not in the tables.  (Never the word
 * of dbench's progress lines: "not run".) */
static void not_run(FILE *f, const struct result *r)
{
	uint64_t total = 0;
	char label[16];

	for (int i = 0; i < OP_NR; i++)
		total += r->op[i].not_run;
	if (!total)
		return;
	fprintf(f, TXT_NOT_RUN ": %" PRIu64 " line%s of ops the backend "
		"cannot do (counted, not timed, not in the tables)\n", total,
		total == 1 ? "" : "s");
	for (int i = 0; i < OP_NR; i++) {
		if (!r->op[i].not_run)
			continue;
		fprintf(f, " %-12s %10" PRIu64 "  ", our_label(i, label),
			r->op[i].not_run);
		safe(f, r->op[i].not_run_why ? r->op[i].not_run_why : "?");
		fputc('\n', f);
	}
	fprintf(f, "\n");
}

/* The time PSI counted as stalled while the op was stuck, per resource:
 * "some" (at least one task waited) and "full" (all did).  The avg10
 * figures are left out: a 10 s average says nothing of a 100 ms stall. */
static void psi_line(FILE *f, const struct result_stall *ev)
{
	bool any = false;

	for (int i = 0; i < PSI_NR; i++) {
		const struct result_psi *a = &ev->psi_start[i],
					*b = &ev->psi_end[i];

		if (!a->valid || !b->valid)
			continue;
		fprintf(f, "%s %s some %.1f ms, full %.1f ms",
			any ? ";" : "     PSI stalled meanwhile:", psi_name[i],
			(double)(b->some_total_us - a->some_total_us) / 1e3,
			(double)(b->full_total_us - a->full_total_us) / 1e3);
		any = true;
	}
	if (any)
		fputc('\n', f);
}

/* When @s seconds after the release was, in the time base of the
 * progress lines: seconds of the warmup, or of the measured phase. */
static void when(FILE *f, const struct result *r, double s)
{
	if (s < r->warmup_s)
		fprintf(f, "%.3f s into the warmup", s);
	else
		fprintf(f, "%.3f s into the measured phase", s - r->warmup_s);
}

#define SERIES_VALUES 120 /* at most, in rows of 10 */

/* The op that stalled most: the most events, then the longest. */
static int most_stalled(const struct result_stalls *st)
{
	int best = -1;

	for (int i = 0; i < OP_NR; i++) {
		if (st->count[i] &&
		    (best < 0 || st->count[i] > st->count[best] ||
		     (st->count[i] == st->count[best] &&
		      st->max_ms[i] > st->max_ms[best])))
			best = i;
	}
	return best;
}

/*
 * When the op that stalled most was slow: its largest latency in each
 * second of the measured phase (the time series), ten to a row, at most
 * SERIES_VALUES values (more seconds are merged, each value the max of
 * its seconds), a '*' on those at or past the stall threshold.  No row
 * starts with an op name, and no word of dbench's table is used.
 */
static void series(FILE *f, const struct result *r)
{
	const struct result_stalls *st = &r->stalls;
	int op = most_stalled(st), n = 0, first = -1, g, k = 0;

	if (op < 0)
		return;
	for (uint32_t i = 0; i < r->npoints; i++) {
		if (!r->points[i].warmup) {
			if (first < 0)
				first = (int)i;
			n++;
		}
	}
	if (!n)
		return;
	g = (n + SERIES_VALUES - 1) / SERIES_VALUES;
	fprintf(f, " Per second, %s: its largest latency in ms in each %s of "
		"the measured phase (the op that stalled most; * at or past "
		"%.0f ms)\n", op_info[op].label,
		g * r->interval_s == 1 ? "second" : "interval",
		st->threshold_ms);
	if (g * r->interval_s != 1)
		fprintf(f, "  (each value covers %g s)\n", g * r->interval_s);
	for (int i = first; i < first + n; i += g, k++) {
		const struct result_point *p = &r->points[i];
		uint64_t max = 0;

		for (int j = i; j < i + g && j < first + n; j++) {
			if (r->points[j].max_ns[op] > max)
				max = r->points[j].max_ns[op];
		}
		if (k % 10 == 0) {
			/* the seconds of the row's values, from its first
			 * point's start to its last point's end */
			int last = i + 10 * g - 1 < first + n - 1
					   ? i + 10 * g - 1
					   : first + n - 1;

			fprintf(f, "%s  s %5ld-%-5ld", k ? "\n" : "",
				lround(p->t - p->dur - r->warmup_s),
				lround(r->points[last].t - r->warmup_s));
		}
		fprintf(f, " %9.3f%c", ms(max),
			ms(max) >= st->threshold_ms && max ? '*' : ' ');
	}
	fprintf(f, "\n\n");
}

#define TEXT_STALLS 5	/* events shown in full in the text report */

static void stalls(FILE *f, const struct result *r)
{
	const struct result_stalls *st = &r->stalls;

	fprintf(f, " Stalls: %" PRIu64 " op%s ran longer than %.0f ms%s",
		st->total, st->total == 1 ? "" : "s", st->threshold_ms,
		st->total ? " (" : "");
	report_stall_ops(f, st->count, st->max_ms);
	fprintf(f, "%s\n", st->total ? ")" : "");
	if (st->warmup_total) {
		/* counted apart, as the tables leave the warmup out */
		fprintf(f, "  and %" PRIu64 " in the warmup, not in the tables (",
			st->warmup_total);
		report_stall_ops(f, st->warmup_count, st->warmup_max_ms);
		fprintf(f, "), marked [warmup] below\n");
	}
	if (st->unsampled) { /* the watchdog's budget (watchdog.h) */
		fputs("  ", f);
		report_stall_unsampled(f, st->unsampled);
		fputc('\n', f);
	}
	for (int k = 0; k < st->nevents && k < TEXT_STALLS; k++) {
		const struct result_stall *ev = &st->events[k];

		fprintf(f, "  #%d %s%s %.3f ms%s, client %d (pid %d",
			k + 1, ev->warmup ? "[warmup] " : "",
			op_info[ev->op].label, ev->duration_ms,
			ev->ended ? "" : " and still stuck", ev->client,
			ev->pid);
		if (ev->host) { /* a run across hosts */
			fputs(" on ", f);
			safe(f, ev->host);
			fprintf(f, " rank %d", ev->rank);
		}
		fputs("), started ", f);
		when(f, r, ev->start_s);
		fputs(" (", f);
		safe(f, ev->start_time ? ev->start_time : "?");
		fputs("), ", f);
		safe(f, ev->file ? ev->file : "?");
		fprintf(f, ":%u\n", ev->line);
		report_offcpu_headline(f, ev); /* before the /proc stacks */
		if (ev->path) {
			fprintf(f, "     ");
			safe(f, ev->path);
			fputc('\n', f);
		}
		psi_line(f, ev);
		for (int i = 0; i < ev->nsamples; i++) {
			const struct result_stall_sample *sm = &ev->samples[i];

			fprintf(f, "     at %.0f ms: state ", sm->t_ms);
			safe(f, (char[]){sm->state, 0});
			fputs(", wchan ", f);
			safe(f, sm->wchan && *sm->wchan ? sm->wchan : "-");
			if (sm->repeat)
				fprintf(f, " (same %u more time%s)", sm->repeat,
					sm->repeat == 1 ? "" : "s");
			fputc('\n', f);
			if (sm->stack && *sm->stack) {
				fprintf(f, "       ");
				safe(f, sm->stack);
				fputc('\n', f);
			}
		}
		report_offcpu_event(f, ev, r->cfg.cpp, 3);
	}
	if (st->nfolded) {
		fprintf(f, "  kernel stacks of the stalled clients (samples, "
			"outermost frame first):\n");
		for (int i = 0; i < st->nfolded; i++) {
			fprintf(f, "  %8" PRIu64 "  ", st->folded[i].count);
			safe(f, st->folded[i].stack);
			fputc('\n', f);
		}
		if (st->folded_other)
			fprintf(f, "  %8" PRIu64 "  (other stacks)\n",
				st->folded_other);
	}
	report_offcpu_table(f, r);
	if (st->note) {
		fprintf(f, "  ");
		safe(f, st->note);
		fputc('\n', f);
	}
	fprintf(f, "\n");
}

/* A run across hosts: one line on the imbalance between them, the
 * slowest host's throughput against the fastest's. */
static void hosts_line(FILE *f, const struct result *r)
{
	const struct result_host *s, *q;
	int slow, fast;

	if (!result_imbalance(r, &slow, &fast))
		return;
	s = &r->hosts[slow];
	q = &r->hosts[fast];
	fprintf(f, TXT_HOSTS "%d ranks; slowest rank %d on ", r->nhosts,
		s->rank);
	safe(f, s->name ? s->name : "?");
	fprintf(f, " %.2f MB/s, fastest rank %d on ", s->throughput, q->rank);
	safe(f, q->name ? q->name : "?");
	fprintf(f, " %.2f MB/s (%.1f %% apart)\n\n", q->throughput,
		q->throughput > 0 ? 100 * (q->throughput - s->throughput) /
					    q->throughput
				  : 0.0);
}

static bool shown(const struct result *r, int op)
{
	return r->op[op].h.count && op_is_timed(op);
}

/* Did any timed operation run (in the warmup, if it was cut short)? */
static bool ops_done(const struct result *r)
{
	for (int i = 0; i < OP_NR; i++) {
		if (r->op[i].h.count)
			return true;
	}
	return false;
}

/* How the run ended, first, before any table. */
static void status_line(FILE *f, const struct result *r)
{
	if (r->status == RESULT_INTERRUPTED && r->measured_s > 0)
		fprintf(f, TXT_INTERRUPTED "%d after %.1f s of "
			"measurement: partial results\n\n", r->signal,
			r->measured_s);
	else if (r->status == RESULT_INTERRUPTED && !ops_done(r))
		fprintf(f, TXT_INTERRUPTED "%d before any operation "
			"was measured (while the clients were set up)\n\n",
			r->signal);
	else if (r->status == RESULT_INTERRUPTED)
		fprintf(f, TXT_INTERRUPTED "%d during the warmup: the "
			"figures below are of the warmup\n\n", r->signal);
	else if (r->status == RESULT_FAILED && r->measured_s > 0)
		fprintf(f, TXT_RUN_FAILED "after %.1f s of measurement: partial "
			"results\n\n", r->measured_s);
	else if (r->status == RESULT_FAILED)
		fprintf(f, TXT_RUN_FAILED "during the warmup: the figures below "
			"are of the warmup\n\n");
	else if (r->status == RESULT_RUNNING && r->measured_s > 0)
		fprintf(f, TXT_CHECKPOINT "after %.1f s of measurement: partial "
			"results\n\n", r->measured_s);
	else if (r->status == RESULT_RUNNING && !ops_done(r))
		fprintf(f, TXT_CHECKPOINT "before any operation was "
			"measured\n\n");
	else if (r->status == RESULT_RUNNING)
		fprintf(f, TXT_CHECKPOINT "during the warmup: the figures "
			"below are of the warmup\n\n");
}

/* The op table (dbench's, or ours) and the per-client ones. */
static void op_tables(FILE *f, const struct result *r, bool classic)
{
	const struct config *cfg = &r->cfg;

	report_header(f, classic);
	for (int i = 0; i < OP_NR; i++) {
		const struct hist *h = &r->op[i].h;

		if (shown(r, i))
			report_row(f, classic, cfg->machine, i, h->count,
			    hist_mean(h) / 1e6, ms(h->max));
	}
	fprintf(f, "\n");
	if (!cfg->per_client || !r->clients)
		return;
	fprintf(f, TXT_PER_CLIENT "\n");
	for (int c = 0; c < r->nclients; c++) {
		const struct result_client *rc = &r->clients[c];

		fprintf(f, TXT_CLIENT "%u did %u lines and %.0f bytes\n",
			(unsigned int)c, (unsigned int)rc->lines,
			(double)rc->bytes);
		report_header(f, classic);
		for (int i = 0; i < OP_NR; i++) {
			double mean = 0;

			if (rc->count[i])
				mean = (double)rc->sum_ns[i] /
				       (double)rc->count[i] / 1e6;
			if (shown(r, i))
				report_row(f, classic, cfg->machine, i, rc->count[i],
				    mean, ms(rc->max_ns[i]));
		}
		fprintf(f, "\n");
	}
}

/* The figures of the Throughput line after @what, for what is not a
 * result: no parser reads a line that does not start with Throughput. */
static void figures_line(FILE *f, const char *what, const struct result *r)
{
	const struct config *cfg = &r->cfg;

	fprintf(f, "%s" TXT_FIGURES "\n", what, r->throughput,
		cfg->sync_open ? TXT_SYNC_OPEN : "",
		cfg->sync_dirs ? TXT_SYNC_DIRS : "", cfg->nclients, cfg->nprocs,
		r->max_latency_ms);
}

void report_text_run(FILE *f, const struct result *r,
		     const struct report_pcts *pcts, int run, int nruns)
{
	const struct config *cfg = &r->cfg;
	bool result = r->status == RESULT_OK && !run;
	char what[64];

	fprintf(f, "\n");
	status_line(f, r);
	if (!cfg->machine && !cfg->no_percentiles && r->has_bins)
		percentile_table(f, r, pcts ? pcts : &report_default_pcts);
	if (!cfg->machine && !cfg->no_percentiles && r->resp.valid)
		response_table(f, r, pcts ? pcts : &report_default_pcts);
	if (!cfg->machine)
		not_run(f, r);
	if (r->nwarn && !cfg->machine)
		warnings(f, r);
	if ((r->stalls.total || r->stalls.warmup_total) && !cfg->machine) {
		stalls(f, r);
		series(f, r);
	}

	if (r->nhosts && !cfg->machine)
		hosts_line(f, r);
	if (!cfg->machine)
		report_busy(f, r);
	op_tables(f, r, result);
	if (!result) {
		if (r->status == RESULT_FAILED)
			snprintf(what, sizeof(what),
				 TXT_PARTIAL "a failed run: ");
		else if (r->status == RESULT_INTERRUPTED)
			snprintf(what, sizeof(what),
				 TXT_PARTIAL "an interrupted run: ");
		else if (r->status == RESULT_RUNNING)
			snprintf(what, sizeof(what),
				 TXT_PARTIAL "an unfinished run: ");
		else
			snprintf(what, sizeof(what),
				 TXT_RUN_FIGURES "%d of %d: ", run, nruns);
		figures_line(f, what, r);
	} else if (cfg->machine) {
		fprintf(f, ";%g;%d;%d;%.03f;\n", r->throughput, cfg->nclients,
			cfg->nprocs, r->max_latency_ms);
	} else {
		report_tput_line(f, r->throughput, r->max_latency_ms, cfg);
		fputc('\n', f);
	}
}

void report_text(FILE *f, const struct result *r,
		 const struct report_pcts *pcts)
{
	report_text_run(f, r, pcts, 0, 0);
}
