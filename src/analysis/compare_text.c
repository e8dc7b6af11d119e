/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare_text.c - the comparison as a table for people: the header (the
 * mode, what more runs would allow, the notes), a row per op and metric,
 * and the reason line last.
 */
#include "compare_impl.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "result.h"
#include "sigtest.h"
#include "str_clean.h"

static const char *verdict_word(const struct cmp_row *w)
{
	switch (w->verdict) {
	case CMP_V_WORSE:
		return "REGRESSED";
	case CMP_V_BETTER:
		return "improved";
	default:
		break;
	}
	switch (w->ctx) {
	case CMP_CTX_RATE:
		return "see MB/s";
	case CMP_CTX_COVER:
		return "coverage";
	case CMP_CTX_RAW:
		return "raw only";
	case CMP_CTX_NONE:
		break;
	}
	return !w->eligible ? "few ops" : w->unclear ? "unclear" : "no change";
}

/* "up to 0.66 CPUs, busy in 1 of 1 runs" of side @s, or "unknown" */
static void machine_side(const struct cmp_report *r, int s, char *buf,
			 size_t len)
{
	int n = s ? r->nb : r->na;

	if (!r->machine_runs[s]) {
		snprintf(buf, len, "unknown (not recorded%s)",
			 n > 1 ? " by its runs" : " by its run");
		return;
	}
	snprintf(buf, len,
		 "other processes used up to %.2f CPUs, busy in %d "
		 "of %d run%s%s",
		 r->other_max[s], r->disturbed[s], n, n == 1 ? "" : "s",
		 r->machine_runs[s] < n ? " (" : "");
	if (r->machine_runs[s] < n) {
		size_t k = strlen(buf);

		snprintf(buf + k, len - k, "recorded by %d)",
			 r->machine_runs[s]);
	}
}

/* the lines that say what decides: own latencies, rates, coverage */
static void print_scope(FILE *f, const struct cmp_report *r)
{
	int rate = 0;

	if (r->machine_runs[0] || r->machine_runs[1]) {
		char a[160], b[160];

		machine_side(r, 0, a, sizeof(a));
		machine_side(r, 1, b, sizeof(b));
		fprintf(f,
			"machine: baseline: %s; candidate: %s (busy: %.1f "
			"CPUs of other processes or %.0f %% steal)\n",
			a, b, DISTURB_OTHER_CPUS, DISTURB_STEAL_PCT);
	} else {
		fprintf(f, "machine: unknown (not recorded by the runs: dbench "
			   "logs or older results)\n");
	}
	if (r->own)
		fprintf(f,
			"own latencies: %d of %d runs ran on a busy machine, "
			"so the verdicts rest on each op's own latency (less "
			"the time its client waited for a CPU another process "
			"held) and the throughput corrected alike (own MB/s); "
			"the table shows the raw figures, 'Own chg' the change "
			"of the own ones\n",
			r->own_busy, r->na + r->nb);
	for (int i = 0; i < r->nrows; i++)
		rate += r->rows[i].ctx == CMP_CTX_RATE;
	if (rate)
		fprintf(f,
			"rates: an op's ops/s moves with the throughput (each "
			"client replays the same loadfile), so MB/s decides "
			"for %d ops/s rows ('see MB/s')\n",
			rate);
}

static void print_header(FILE *f, const struct cmp_report *r)
{
	char why[160], ln[32];
	int eq, nc;

	fprintf(f,
		"dbench-ng compare: %d baseline run%s vs %d candidate "
		"run%s; alpha %g, noise floor %g%%, latency floor %g ms\n",
		r->na, r->na == 1 ? "" : "s", r->nb, r->nb == 1 ? "" : "s",
		r->o.alpha, 100 * r->o.noise, r->o.floor_ms);
	if (r->filter)
		fprintf(f, "metrics: %s\n", r->filter);
	fprintf(f, "values: medians over runs; latency in ms; overNms: ops "
		   "slower than N ms per million ops\n");
	switch (r->mode) {
	case CMP_MODE_TEST:
		fprintf(f,
			"p: Mann-Whitney U on per-run values, Holm-adjusted "
			"over %d metric%s ((p): cannot reach alpha, not in "
			"the family)\nCI: %g%% bootstrap interval of the "
			"change of medians (%d resamples)\n",
			r->family, r->family == 1 ? "" : "s",
			100 * (1 - r->o.alpha), r->o.boot_iters);
		break;
	case CMP_MODE_SMALL_N:
		cmp_why_thresholds(r, why, sizeof(why));
		fprintf(f, "%s (smallest possible p %s)\n", why,
			cmp_fmt_num(ln, sizeof(ln),
				    r->family ? r->best_p
					      : st_mwu_pmin_n((size_t)r->na,
							      (size_t)r->nb)));
		eq = cmp_runs_needed_equal(r);
		nc = cmp_cand_runs_needed(r);
		if (eq && nc)
			fprintf(f,
				"  for significance over %d metrics: %d vs "
				"%d runs, or %d candidate runs against these "
				"%d, or fewer metrics (--metrics)\n",
				cmp_family_size(r), eq, eq, nc, r->na);
		else if (eq)
			fprintf(f,
				"  for significance over %d metrics: %d vs "
				"%d runs, or fewer metrics (--metrics)\n",
				cmp_family_size(r), eq, eq);
		fprintf(f, "  so flagged only by the thresholds of "
			   "docs/regressions.md, with every candidate run past "
			   "every baseline run\n");
		break;
	case CMP_MODE_ONE_RUN:
		cmp_why_thresholds(r, why, sizeof(why));
		fprintf(f,
			"%s; flagged only by the thresholds of "
			"docs/regressions.md\n",
			why);
		break;
	}
	if (r->o.look_alpha > 0 && r->mode != CMP_MODE_ONE_RUN)
		fprintf(f,
			"sequential: this look spends %.3g of alpha %g: MB/s "
			"alone at %.3g, the other metrics at %.3g%s "
			"(docs/regressions.md)\n",
			r->o.look_alpha, r->o.alpha, r->level1, r->level2,
			r->level1 > 0 && r->level2 >= r->o.look_alpha
				? " (MB/s rejected: all of it)"
				: "");
	print_scope(f, r);
	if (r->nfew)
		fprintf(f,
			"few ops: %d metric%s of ops with too few ops in some "
			"run to decide (%d for a mean, rate, max or count, "
			"%d/(1-p) for a percentile p): shown, never a "
			"verdict\n",
			r->nfew, r->nfew == 1 ? "" : "s", CMP_FEW_OPS,
			CMP_TAIL_OPS);
	for (int i = 0; i < r->nnotes; i++) {
		/* a note may quote a string of a result file */
		fputs("note: ", f);
		str_text(f, r->notes[i]);
		fputc('\n', f);
	}
	fprintf(f, "\n");
}

void cmp_print(FILE *f, const struct cmp_report *r)
{
	cmp_print_changed(f, r, false);
}

void cmp_print_changed(FILE *f, const struct cmp_report *r, bool changed)
{
	static const char dashes[] = "-----------------------------------------"
				     "-----------------------------------------"
				     "-------------";

	print_header(f, r);
	fprintf(f, " %-12s %-9s %10s %10s %9s ", "Op", "Metric", "Baseline",
		"Candidate", "Change");
	if (r->own)
		fprintf(f, "%9s ", "Own chg");
	fprintf(f, "%9s %19s  %s\n", "p (Holm)",
		r->mode == CMP_MODE_ONE_RUN ? "CI"
		: r->own		    ? "CI of own change"
					    : "CI of change",
		"Verdict");
	fprintf(f, " %s%s\n", dashes, r->own ? "----------" : "");
	for (int i = 0; i < r->nrows; i++) {
		const struct cmp_row *w = &r->rows[i];
		struct cmp_row_text t;

		if (changed && w->verdict == CMP_V_SAME && !w->unclear)
			continue;
		/* the texts the HTML page shows too (compare_view.c) */
		cmp_row_text(r, i, &t);
		fprintf(f, " %-12s %-9s %10s %10s %9s ", cmp_op_name(w->op),
			t.metric, t.base, t.cand, t.change);
		if (r->own)
			fprintf(f, "%9s ", t.own);
		fprintf(f, "%9s %19s  %s\n", t.p, t.ci, t.word);
	}
	if (changed)
		fprintf(f, " (%d rows of no change not shown)\n",
			r->nrows - r->nworse - r->nbetter - r->nunclear);
	fprintf(f, "\n%s\n", r->reason);
}

void cmp_scope_text(const struct cmp_report *r, char *buf, size_t len)
{
	FILE *m = fmemopen(buf, len, "w");

	if (len)
		buf[0] = '\0';
	if (!m)
		return;
	print_scope(m, r);
	fclose(m); /* NUL-terminated, cut at len - 1 */
}

const char *cmp_row_word(const struct cmp_row *w)
{
	return verdict_word(w);
}
