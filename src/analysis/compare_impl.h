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

struct hist;
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

/* Why a row is shown without a verdict of its own (compare_scope.c). */
enum cmp_ctx {
	CMP_CTX_NONE,  /* it decides */
	CMP_CTX_RATE,  /* an op's ops/s, which moves with the throughput by
			* construction: the throughput decides */
	CMP_CTX_COVER, /* the sides reached other parts of the loadfile: the
			* throughput decides */
	CMP_CTX_RAW,   /* runs decided on own latencies, and this metric has
			* no own figure (a response time) */
};

struct cmp_row {
	int op;		    /* enum op_type, or -1: the run's throughput */
	int metric;	    /* enum cmp_metric */
	double *a, *b;	    /* the values that decide, one per run: own
			     * figures when the report decides on them */
	double *ra, *rb;    /* then the raw ones, for the table; else NULL */
	uint64_t min_count; /* fewest ops of the op in a run */
	bool eligible;	    /* min_count >= cmp_min_ops(): may decide */
	enum cmp_ctx ctx;   /* shown only, as context */
	double med_a, med_b, change;	/* of a and b */
	double rmed_a, rmed_b, rchange; /* of ra and rb (or a and b) */
	double p, pmin, p_holm;		/* NAN when not computed */
	double level;			/* p_holm < level rejects */
	bool tested;			/* in the Holm family */
	double ci_lo, ci_hi;		/* NAN when not computed */
	enum cmp_v verdict;
	bool unclear;	  /* looks worse, not significantly (cmp_unclear) */
	bool unclear_thr; /* so, past the thresholds in every run, or in the
			   * medians with a raw p below alpha: no good */
	bool primary;	  /* its equivalence bound decides check's good */
	double p_eq, p_eq_min; /* that bound's p (NAN: not a primary) */
};

/* cmp_decides - whether row @w may carry a verdict */
static inline bool cmp_decides(const struct cmp_row *w)
{
	return w->eligible && w->ctx == CMP_CTX_NONE;
}

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
	/* decided on own latencies (compare_own.c): runs that carry them */
	bool own;
	int own_runs[2];
	int own_busy; /* runs beside other load (compare_own.c) */
	/* the sides reached other ops of the loadfile (compare_scope.c) */
	bool cover;
	int nctx;      /* rows shown as context only */
	int ndeciding; /* rows that may carry a verdict */
	/* the equivalence bound of the primary rows (compare_seq.c) */
	int nprimary;
	bool equiv;	 /* every primary shown not worse than the floor */
	double eq_level; /* at this level */
	int nunclear_thr;
	char reason[1024];
};

/* cmp_note - add a note to @r (at most CMP_MAX_NOTES) */
__attribute__((format(printf, 2, 3))) void cmp_note(struct cmp_report *r,
						    const char *fmt, ...);

/* cmp_op_name - the report label of @op, "all" for -1 */
const char *cmp_op_name(int op);

/* cmp_run_name - "baseline run 2 (a.json)" into @buf */
void cmp_run_name(const struct cmp_report *r, bool cand, int i, char *buf,
		  size_t len);

/* --------------------------- compare_notes.c --------------------------- */

/*
 * cmp_config_notes - the notes on what differs between the runs of
 * @base and @cand (status, machine, options, kernel, filesystem, clients,
 * backend, ops not run, loadfile, logs, pacing).  Before the rows are
 * built.
 */
void cmp_config_notes(struct cmp_report *r, struct result **base,
		      struct result **cand);

/* --------------------------- compare_scope.c --------------------------- */

/*
 * cmp_scope - which rows decide: an op's ops/s moves with the throughput
 * (CMP_CTX_RATE), and when the sides reached other ops of the loadfile
 * only the throughput decides (CMP_CTX_COVER, with a note saying how
 * far each side got); then the counts of r->nfew, r->nvarying, r->nctx.
 */
void cmp_scope(struct cmp_report *r, struct result **base,
	       struct result **cand);

/* ---------------------------- compare_own.c ---------------------------- */

/*
 * cmp_own_choose - whether @r decides on own latencies: some run ran on
 * a busy machine and every run carries them; the notes that say so or
 * why not.  Before the rows are built.
 */
void cmp_own_choose(struct cmp_report *r, struct result **base,
		    struct result **cand);

/* cmp_hist_value - latency metric @m (mean, max, a percentile or an
 * exceedance count) of the calls binned in @h; false if it has none */
bool cmp_hist_value(const struct hist *h, bool has_bins, int m, double *v);

/* cmp_own_value - metric @m of op @op (-1: the run) of run @x from its
 * own figures, if it has them */
bool cmp_own_value(const struct result *x, int op, int m, double *v);

/* ---------------------------- compare_seq.c ---------------------------- */

/* cmp_equivalence - the equivalence bound of every primary row, at the
 * look's level (r->o.look_alpha, or alpha): r->equiv */
void cmp_equivalence(struct cmp_report *r);

/* --------------------------- compare_thresh.c -------------------------- */

/*
 * cmp_thr_flag - whether row @w is past the thresholds in direction
 * @worse (docs/regressions.md): with one run a side the calibrated
 * single-run ones, else those of the small-n mode with every candidate
 * run past every baseline run.
 */
bool cmp_thr_flag(const struct cmp_report *r, const struct cmp_row *w,
		  bool worse);

/* cmp_thr_medians - whether the change of medians of row @w is worse past
 * the small-n thresholds (whatever the separation of the runs) */
bool cmp_thr_medians(const struct cmp_report *r, const struct cmp_row *w);

/* cmp_past_floor - the absolute floor of latency metrics */
bool cmp_past_floor(const struct cmp_report *r, const struct cmp_row *w);

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
