/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare.h - did the candidate runs regress against the baseline runs?
 * Per op and metric, one value per run; Mann-Whitney U, a bootstrap CI
 * of the change, Holm's correction and noise floors decide (see
 * docs/regressions.md).  The API that the `compare` and `check`
 * subcommands (src/cli) call.
 */
#ifndef DBNG_COMPARE_H
#define DBNG_COMPARE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct result;

struct cmp_opts {
	double alpha;	 /* family-wise error rate, 0.05 */
	double noise;	 /* relative noise floor, 0.05 = 5 % */
	double floor_ms; /* absolute floor of latency changes, 0.05 ms */
	int boot_iters;	 /* bootstrap resamples, 2000 */
	uint64_t seed;	 /* of the bootstrap */
	/* NULL, or the only metrics compared (and corrected for): a comma
	 * list of METRIC, OP or OP:METRIC, e.g. "p99.9,Rename:over100ms" */
	const char *metric_filter;
	/* 0: one comparison, tested at alpha (compare).  Else this is one
	 * look of a sequence (check) and spends this much of the error rate
	 * (cmp_seq_alpha()): the run's throughput alone at half of it, the
	 * other metrics (Holm) at the other half, or at all of it once the
	 * throughput is rejected.  The CI stays at 1 - alpha. */
	double look_alpha;
};

/* the defaults above */
/*
 * cmp_paths_of - how the fileio calls of run @x named their paths:
 * "full" (dbench 4.0's whole paths; also every dbench 4.0 log), "dirfd"
 * (directory fds; also every dbench-ng JSON result made before --paths),
 * or NULL if unknown (a dbench-ng text log).
 */
const char *cmp_paths_of(const struct result *x);

/*
 * cmp_paths_differ - do the runs @res[0..n-1] (named @names, NULL for
 * "run N") mix --paths modes?  Their numbers are not comparable: a message
 * naming two of them in @err, and true.
 */
bool cmp_paths_differ(struct result *const *res, const char *const *names,
		      int n, char *err, size_t len);

/* cmp_paths_say - the message of runs @a and @b of modes @pa and @pb */
void cmp_paths_say(char *err, size_t len, const char *a, const char *pa,
		   const char *b, const char *pb);

void cmp_opts_default(struct cmp_opts *o);

/*
 * cmp_filter_check - whether @filter is a valid metric filter: 0, or -1
 * with a message in @err.
 */
int cmp_filter_check(const char *filter, char *err, size_t len);

/* How the verdicts were reached. */
enum cmp_mode {
	CMP_MODE_TEST,	  /* Mann-Whitney U + Holm + CI + floors */
	CMP_MODE_SMALL_N, /* several runs, too few to reach alpha */
	CMP_MODE_ONE_RUN, /* one run on a side: thresholds only */
};

struct cmp_report;

/*
 * cmp_run_named - compare @nb baseline results with @nc candidate results
 * (both >= 1).  The results are only read and may be freed afterwards.
 * Notes and the JSON name each run by its file: @base_names and
 * @cand_names (may be NULL) hold @nb and @nc names.  NULL when out of
 * memory or when o->metric_filter is invalid (check it first with
 * cmp_filter_check()).
 */
struct cmp_report *cmp_run_named(struct result **base, int nb,
				 struct result **cand, int nc,
				 const char *const *base_names,
				 const char *const *cand_names,
				 const struct cmp_opts *o);

/* cmp_print - the table for people, notes first, the reason line last */
void cmp_print(FILE *f, const struct cmp_report *r);

/* cmp_print_changed - cmp_print(), with @changed only the rows flagged
 * (regressed, improved or unclear) */
void cmp_print_changed(FILE *f, const struct cmp_report *r, bool changed);

/* cmp_write_json - the report as JSON to @path ("-": stdout), atomically;
 * 0, or -1 with a message in @err */
int cmp_write_json(const struct cmp_report *r, const char *path, char *err,
		   size_t len);

/* cmp_verdict - 0 nothing regressed, 1 something did (by the tests, or
 * by the thresholds when the tests cannot decide: see cmp_mode()) */
int cmp_verdict(const struct cmp_report *r);

/* cmp_reason - one line saying why, e.g. "regressed: Rename p99.9 0.41
 * -> 498 ms (p=0.016, 5 vs 5 runs)" */
const char *cmp_reason(const struct cmp_report *r);

/* cmp_disturbed - how many runs of the baseline (@cand false) or the
 * candidate side ran on a machine disturbed beyond the bound of
 * result_disturbed() */
int cmp_disturbed(const struct cmp_report *r, bool cand);

/* cmp_run_has_own - whether run @x measured own latencies (ops[].own
 * and the throughput corrected alike: BPF, as root) */
bool cmp_run_has_own(const struct result *x);

/* cmp_own - whether the comparison decided on own latencies (runs on a
 * busy machine that carry them: docs/regressions.md) */
bool cmp_own(const struct cmp_report *r);

/*
 * cmp_equivalent - whether every primary metric (the throughput; with
 * --metrics those named) was shown not worse than the noise floor at the
 * level of the look: the equivalence bound of check's good verdict
 */
bool cmp_equivalent(const struct cmp_report *r);

/* cmp_mode - whether significance could be judged */
enum cmp_mode cmp_mode(const struct cmp_report *r);

/*
 * cmp_unclear - metrics that look worse past the floors with a raw p
 * below alpha, or by the thresholds, but are not significant after
 * Holm (in CMP_MODE_TEST) -- what more runs might settle.  Always 0 in
 * the threshold modes, where flags are verdicts.
 */
int cmp_unclear(const struct cmp_report *r);

/*
 * cmp_cand_runs_needed - how many candidate runs, against this report's
 * baseline runs, would let the Holm-corrected test reach alpha over the
 * metrics compared here (so that a clear change can be significant);
 * 0 if more than 1000 would be needed.
 */
int cmp_cand_runs_needed(const struct cmp_report *r);

/* cmp_nrows - the number of rows (metrics compared); 0: nothing in
 * common to compare */
int cmp_nrows(const struct cmp_report *r);

/*
 * The sequential rule of check (docs/regressions.md "Fewer runs: a
 * sequential decision"): look @k (1-based) of at most @nlooks spends
 * cmp_seq_alpha() of @alpha: all of it with one look, half each with
 * two; else half at the first look, a quarter at the last, and the
 * looks between share the last quarter.  The sum over the looks is
 * @alpha, so whatever the looks' dependence, the chance of a false alarm
 * anywhere in the sequence is at most @alpha (Bonferroni).
 */
double cmp_seq_alpha(double alpha, int k, int nlooks);

/* What check does after a look. */
enum cmp_seq_step {
	CMP_SEQ_GOOD,	 /* no regression: exit 0 */
	CMP_SEQ_BAD,	 /* regressed: exit 1 */
	CMP_SEQ_MORE,	 /* unclear: one more run */
	CMP_SEQ_UNCLEAR, /* still unclear at the last look: exit 125 */
};

/*
 * cmp_seq_next - the step after look @r with @runs candidate runs, of at
 * most @max_runs: the test decides when it can (regressed; or good:
 * nothing regressed, nothing past the thresholds, and every primary
 * metric shown not worse than the noise floor, cmp_equivalent()); any
 * other answer takes another run, up to the last; too few runs for the
 * test take more while that can help, else the thresholds decide.
 */
enum cmp_seq_step cmp_seq_next(const struct cmp_report *r, int runs,
			       int max_runs);

/*
 * The report for renderings other than cmp_print() and the JSON (compare
 * --html: src/report/html draws them): row @i (0 <= i < cmp_nrows()) as
 * cmp_print() prints it, the notes, the options.  compare_view.c.
 */
struct cmp_row_text {
	int op;		    /* enum op_type, -1: the run's MB/s */
	const char *metric; /* "ops/s", "p99.9", "MB/s", ... */
	bool higher_worse;
	char base[32], cand[32], change[32], p[32], ci[64]; /* the table's */
	char own[32];		       /* Own chg; "" unless decided on own */
	double change_v, ci_lo, ci_hi; /* deciding change; NAN: none */
	const char *word; /* the Verdict column: "REGRESSED", "no change" */
	int verdict;	  /* 1 regressed, -1 improved, 0 neither */
	bool unclear;
};
void cmp_row_text(const struct cmp_report *r, int i, struct cmp_row_text *out);
/* cmp_scope_text - the lines above the table that say what decided
 * (machine, own latencies, rates), as compare prints them, into @buf
 * (cut at @len) */
void cmp_scope_text(const struct cmp_report *r, char *buf, size_t len);
int cmp_nnotes(const struct cmp_report *r);
const char *cmp_note_text(const struct cmp_report *r, int i);
const struct cmp_opts *cmp_opts_of(const struct cmp_report *r);

/* cmp_free - release @r (NULL is fine) */
void cmp_free(struct cmp_report *r);

#endif
