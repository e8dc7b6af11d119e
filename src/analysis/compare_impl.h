/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare_impl.h - what the files of compare share and nothing else sees:
 * the metrics, a row, the report, and the functions one file gives the
 * others (compare.h is the API).
 */
#ifndef DBNG_COMPARE_IMPL_H
#define DBNG_COMPARE_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compare.h"

struct result;

/* ------------------------- compare_metrics.c --------------------------- */

enum cmp_kind {
	CMP_K_RATE, /* ops/s, MB/s: lower is worse */
	CMP_K_MS,   /* mean, p50, p99: ms, higher is worse */
	CMP_K_TAIL, /* p99.9, max: ms, few ops behind them */
	CMP_K_EXC,  /* ops over a threshold per million ops */
};

enum cmp_metric {
	CMP_M_OPS,
	CMP_M_MEAN,
	CMP_M_P50,
	CMP_M_P99,
	CMP_M_P999,
	CMP_M_MAX,
	CMP_M_OVER10,
	CMP_M_OVER100,
	CMP_M_OVER500,
	CMP_M_MBS, /* the run's throughput, op "all" */
	/* a paced run's response times (from the intended start) and late
	 * starts: compared where every run has them */
	CMP_M_RP50,
	CMP_M_RP99,
	CMP_M_RP999,
	CMP_M_RMAX,
	CMP_M_LATE,
	CMP_M_NR
};

/* cmp_is_resp - whether metric @m is of the response times */
static inline bool cmp_is_resp(int m)
{
	return m >= CMP_M_RP50 && m <= CMP_M_LATE;
}

struct cmp_metric_info {
	const char *name; /* table, --metrics and JSON */
	const char *json; /* JSON key-style name, also taken by --metrics */
	const char *unit; /* for the reason line */
	enum cmp_kind kind;
	bool bins;	   /* needs the histogram bins (and, for a
			    * response metric, a paced run) */
	double pct;	   /* percentile metrics */
	uint64_t thr_ns;   /* exceedance metrics */
	double thr_noises; /* without a test: flag past this x noise */
	double thr_factor; /* or past this factor (tails, exceedances) */
};

extern const struct cmp_metric_info cmp_metric[CMP_M_NR];

/* cmp_higher_worse - whether a higher value of metric @m is worse */
bool cmp_higher_worse(int m);

/* cmp_is_ms - whether metric @m is a latency in ms */
bool cmp_is_ms(int m);

/*
 * The fewest ops of the op that every run must have for metric @m to
 * carry a verdict: CMP_FEW_OPS for a mean, a max, a rate or an
 * exceedance count (a run of 1 or 2 ops gives a count, not a rate, and
 * ties across runs), CMP_TAIL_OPS / (1 - p) for a percentile p, so that
 * at least CMP_TAIL_OPS ops lie beyond it (p50 20, p99 1000, p99.9
 * 10000); 0 for MB/s, the run's own figure.
 */
#define CMP_FEW_OPS  5
#define CMP_TAIL_OPS 10
uint64_t cmp_min_ops(int m);

/* cmp_metric_count - the ops of op @op in run @r that metric @m rests
 * on: those of its response times for a response metric */
uint64_t cmp_metric_count(const struct result *r, int op, int m);

/* cmp_metric_value - the value of metric @m of op @op (-1: the run) in
 * run @r, if it has it */
bool cmp_metric_value(const struct result *r, int op, int m, double *v);

/* cmp_filter_walk - whether @filter selects the row of @op and @m (1) or
 * not (0); -1 with a message in @err on a bad token */
int cmp_filter_walk(const char *filter, int op, int m, char *err, size_t len);

/* ------------------------------ compare.c ------------------------------ */

#define CMP_MAX_NOTES 32

enum cmp_v { CMP_V_SAME, CMP_V_WORSE, CMP_V_BETTER };

struct cmp_row {
	int op;		    /* enum op_type, or -1: the run's throughput */
	int metric;	    /* enum cmp_metric */
	double *a, *b;	    /* one value per run */
	uint64_t min_count; /* fewest ops of the op in a run */
	bool eligible;	    /* min_count >= cmp_min_ops(): may decide */
	double med_a, med_b, change;
	double p, pmin, p_holm; /* NAN when not computed */
	double level;		/* p_holm < level rejects */
	bool tested;		/* in the Holm family */
	double ci_lo, ci_hi;	/* NAN when not computed */
	enum cmp_v verdict;
	bool unclear;
};

struct cmp_report {
	struct cmp_opts o;
	char *filter;
	int na, nb;
	char **name_a, **name_b;
	enum cmp_mode mode;
	int nrows;
	struct cmp_row *rows;
	int family;	/* metrics in the Holm family */
	int nvarying;	/* eligible metrics whose values are not all equal */
	int nfew;	/* metrics with too few ops to decide */
	double best_p;	/* smallest Holm-adjusted p these runs allow */
	bool reachable; /* some metric can reach its level */
	double level1, level2; /* look_alpha's split (MB/s, the rest) */
	int nworse, nbetter, nunclear;
	int worst; /* row the reason names first, or -1 */
	int nnotes;
	char *notes[CMP_MAX_NOTES];
	/* what else the machine did, per side (0 baseline, 1 candidate):
	 * runs that recorded it, runs past the bound, the largest figures */
	int machine_runs[2], disturbed[2];
	double other_max[2], steal_max[2];
	char reason[768];
};

/* cmp_note - add a note to @r (at most CMP_MAX_NOTES) */
__attribute__((format(printf, 2, 3))) void cmp_note(struct cmp_report *r,
						    const char *fmt, ...);

/* cmp_op_name - the report label of @op, "all" for -1 */
const char *cmp_op_name(int op);

/* -------------------------- compare_decide.c --------------------------- */

/* cmp_decide - the mode, the tests and the verdict of every row; 0, or -1
 * when out of memory */
int cmp_decide(struct cmp_report *r);

/* cmp_evidence_cmp - whether row @i is stronger evidence (< 0) than row
 * @j (> 0): the order in which the reason names regressed metrics */
int cmp_evidence_cmp(const struct cmp_report *r, int i, int j);

/* cmp_family_size - the metrics Holm would correct for */
int cmp_family_size(const struct cmp_report *r);

/* cmp_runs_needed_equal - the runs per side that could reach alpha over
 * cmp_family_size() metrics; 0 if more than 1000 */
int cmp_runs_needed_equal(const struct cmp_report *r);

/* -------------------------- compare_reason.c --------------------------- */

/* cmp_fmt_num - @v for people: 3 significant digits, "-" for NAN */
const char *cmp_fmt_num(char *buf, size_t len, double v);

/* cmp_fmt_change - a relative change: "+4.2%", "x12", "+inf", "-" */
const char *cmp_fmt_change(char *buf, size_t len, double x);

/* cmp_why_thresholds - why the thresholds decide, e.g. "3 vs 3 runs: n
 * too small to reach alpha 0.05" */
void cmp_why_thresholds(const struct cmp_report *r, char *buf, size_t len);

/* cmp_make_reason - r->reason from the verdicts */
void cmp_make_reason(struct cmp_report *r);

/* --------------------------- compare_text.c ---------------------------- */

/* cmp_row_word - the Verdict column of row @w */
const char *cmp_row_word(const struct cmp_row *w);

#endif
