/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare.c - `dbench-ng compare BASELINE... -- CANDIDATE...`: pair the ops
 * of two sets of runs, reduce every run to one value per op and metric,
 * and decide per metric (regressed, improved, no change) with the tests
 * of stats_test.c, or by documented thresholds when the runs are too few
 * for a test.  The rules are explained in docs/regressions.md.
 */
#include "compare.h"

#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "num.h"
#include "result.h"
#include "result_json.h"
#include "stats_test.h"

/* ------------------------------ metrics -------------------------------- */

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
	CMP_M_NR
};

struct cmp_metric_info {
	const char *name; /* table, --metrics and JSON */
	const char *json; /* JSON key-style name, also taken by --metrics */
	const char *unit; /* for the reason line */
	enum cmp_kind kind;
	bool bins;	   /* needs the histogram bins */
	double pct;	   /* percentile metrics */
	uint64_t thr_ns;   /* exceedance metrics */
	double thr_noises; /* without a test: flag past this x noise */
	double thr_factor; /* or past this factor (tails, exceedances) */
};

/* clang-format off */
static const struct cmp_metric_info cmp_metric[CMP_M_NR] = {
	[CMP_M_OPS]     = { "ops/s", "ops_per_s", "ops/s", CMP_K_RATE,
			    .thr_noises = 2 },
	[CMP_M_MEAN]    = { "mean", "mean_ms", "ms", CMP_K_MS,
			    .thr_noises = 2 },
	[CMP_M_P50]     = { "p50", "p50_ms", "ms", CMP_K_MS, true, 50,
			    .thr_noises = 2 },
	[CMP_M_P99]     = { "p99", "p99_ms", "ms", CMP_K_MS, true, 99,
			    .thr_noises = 4 },
	[CMP_M_P999]    = { "p99.9", "p99.9_ms", "ms", CMP_K_TAIL, true, 99.9,
			    .thr_factor = 2 },
	[CMP_M_MAX]     = { "max", "max_ms", "ms", CMP_K_TAIL,
			    .thr_factor = 4 },
	[CMP_M_OVER10]  = { "over10ms", "over_10ms_per_million",
			    "per million ops", CMP_K_EXC, true, 0, 10000000,
			    .thr_factor = 2 },
	[CMP_M_OVER100] = { "over100ms", "over_100ms_per_million",
			    "per million ops", CMP_K_EXC, true, 0, 100000000,
			    .thr_factor = 2 },
	[CMP_M_OVER500] = { "over500ms", "over_500ms_per_million",
			    "per million ops", CMP_K_EXC, true, 0, 500000000,
			    .thr_factor = 2 },
	[CMP_M_MBS]     = { "MB/s", "throughput_MBps", "MB/s", CMP_K_RATE,
			    .thr_noises = 2 },
};
/* clang-format on */

/*
 * Thresholds of the modes without a test (1 run on a side, or too few
 * runs to reach alpha), documented in docs/regressions.md: rates, mean
 * and p50 past 2 x the noise floor, p99 past 4 x (thr_noises); p99.9 and
 * the exceedance counts by a factor of 2, max (a single op) by 4
 * (thr_factor), and so a percentile with fewer than 10 ops beyond it in
 * some run (few_beyond()); exceedance counts also by at least CMP_THR_EXC_MIN
 * per million, or from 0 in every baseline run to > 0 in every candidate run
 * for thresholds from CMP_THR_EXC_NEW_NS on.
 */
#define CMP_THR_EXC_MIN	   10.0
#define CMP_THR_EXC_NEW_NS 100000000

#define CMP_MAX_NOTES 32

static bool higher_worse(int m)
{
	return cmp_metric[m].kind != CMP_K_RATE;
}

static bool is_ms(int m)
{
	return cmp_metric[m].kind == CMP_K_MS ||
	       cmp_metric[m].kind == CMP_K_TAIL;
}

/*
 * Ops at or over @t_ns per million ops.  An op counts when the value its
 * bucket reports (the midpoint clamped to the exact min and max, as for
 * percentiles) is >= @t_ns, so values within half a bucket (0.78 %) of
 * the threshold may land on either side; values past the binned range
 * always count.
 */
static double over_per_million(const struct hist *h, uint64_t t_ns)
{
	uint64_t n = h->overflow;

	if (!h->count || h->max < t_ns)
		return 0;
	for (unsigned int i = hist_index(t_ns); i < HIST_BUCKETS; i++) {
		uint64_t v;

		if (!h->bins[i])
			continue;
		v = hist_bucket_value(h, i);
		if (v >= t_ns)
			n += h->bins[i];
	}
	return (double)n * 1e6 / (double)h->count;
}

/* The value of metric @m of op @op (-1: the run) in run @r, if it has it. */
static bool metric_value(const struct result *r, int op, int m, double *v)
{
	const struct hist *h;

	if (m == CMP_M_MBS) {
		*v = r->throughput;
		return true;
	}
	h = &r->op[op].h;
	if (m == CMP_M_OPS) {
		double secs = r->measured_s;

		/* a text log's last progress line comes a second or so
		 * before the end: its -t is the measured time */
		if (!r->has_bins && r->cfg.timelimit > 0)
			secs = r->cfg.timelimit;
		if (!(secs > 0))
			return false;
		*v = (double)h->count / secs;
		return true;
	}
	if (!h->count || (cmp_metric[m].bins && !r->has_bins))
		return false;
	switch (m) {
	case CMP_M_MEAN:
		*v = hist_mean(h) / 1e6;
		break;
	case CMP_M_MAX:
		*v = (double)h->max / 1e6;
		break;
	case CMP_M_P50:
	case CMP_M_P99:
	case CMP_M_P999:
		*v = (double)hist_value_at(h, cmp_metric[m].pct) / 1e6;
		break;
	default:
		*v = over_per_million(h, cmp_metric[m].thr_ns);
		break;
	}
	return true;
}

/* ----------------------------- the filter ------------------------------ */

static int filter_op(const char *s, size_t len)
{
	char buf[64];
	int op;

	if (len >= sizeof(buf))
		return -2;
	memcpy(buf, s, len);
	buf[len] = 0;
	if (!strcasecmp(buf, "all"))
		return -1;
	op = op_by_label(buf);
	if (op < 0)
		op = op_lookup(buf);
	for (int i = 0; op < 0 && i < OP_NR; i++) {
		if (!strcasecmp(buf, op_info[i].label))
			op = i;
	}
	return op < 0 || !op_is_timed(op) ? -2 : op;
}

static int filter_metric(const char *s, size_t len)
{
	for (int m = 0; m < CMP_M_NR; m++) {
		if (strlen(cmp_metric[m].name) == len &&
		    !strncasecmp(s, cmp_metric[m].name, len))
			return m;
		if (strlen(cmp_metric[m].json) == len &&
		    !strncasecmp(s, cmp_metric[m].json, len))
			return m;
	}
	if (len == 10 && !strncasecmp(s, "throughput", len))
		return CMP_M_MBS;
	return -1;
}

/*
 * Parse one token of @n chars: *@fo the op (-1 "all", -3 any), *@fm the
 * metric (-1 any).  0, or -1 when it names neither.
 */
static int filter_token(const char *t, size_t n, int *fo, int *fm)
{
	size_t c = strcspn(t, ":");

	*fo = -3;
	*fm = -1;
	if (c < n) {
		*fo = filter_op(t, c);
		*fm = filter_metric(t + c + 1, n - c - 1);
		return *fo == -2 || *fm < 0 ? -1 : 0;
	}
	*fm = filter_metric(t, n);
	if (*fm < 0)
		*fo = filter_op(t, n);
	return *fo == -2 ? -1 : 0;
}

/*
 * Walk the tokens of @filter: whether the row of @op and @m is selected
 * (1) or not (0); -1 with a message in @err on a bad token.
 */
static int filter_walk(const char *filter, int op, int m, char *err, size_t len)
{
	int hit = 0, fo, fm;

	for (const char *t = filter; *t; t += *t ? 1 : 0) {
		size_t n = strcspn(t, ",");

		if (!n)
			continue;
		if (filter_token(t, n, &fo, &fm)) {
			snprintf(err, len,
				 "--metrics: '%.*s' is not METRIC, OP or "
				 "OP:METRIC (metrics: ops/s mean p50 p99 "
				 "p99.9 max over10ms over100ms over500ms "
				 "MB/s; ops as in the report, 'all' for MB/s)",
				 (int)n, t);
			return -1;
		}
		if ((fo == -3 || fo == op) && (fm < 0 || fm == m))
			hit = 1;
		t += n;
	}
	return hit;
}

int cmp_filter_check(const char *filter, char *err, size_t len)
{
	if (!filter)
		return 0;
	if (filter_walk(filter, -5, -5, err, len) < 0)
		return -1;
	if (!filter[strspn(filter, ",")]) {
		snprintf(err, len, "--metrics: empty list");
		return -1;
	}
	return 0;
}

/* ------------------------------ the report ----------------------------- */

enum cmp_v { CMP_V_SAME, CMP_V_WORSE, CMP_V_BETTER };

struct cmp_row {
	int op;		    /* enum op_type, or -1: the run's throughput */
	int metric;	    /* enum cmp_metric */
	double *a, *b;	    /* one value per run */
	uint64_t min_count; /* fewest ops of the op in a run */
	double med_a, med_b, change;
	double p, pmin, p_holm; /* NAN when not computed */
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
	int family;    /* metrics in the Holm family */
	int nvarying;  /* metrics whose values are not all equal */
	double best_p; /* smallest Holm-adjusted p these runs allow */
	int nworse, nbetter, nunclear;
	int worst; /* row the reason names, or -1 */
	int nnotes;
	char *notes[CMP_MAX_NOTES];
	char reason[512];
};

void cmp_opts_default(struct cmp_opts *o)
{
	*o = (struct cmp_opts){
		.alpha = 0.05,
		.noise = 0.05,
		.floor_ms = 0.05,
		.boot_iters = 2000,
		.seed = 1,
		.metric_filter = NULL,
	};
}

__attribute__((format(printf, 2, 3))) static void note(struct cmp_report *r,
						       const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (r->nnotes == CMP_MAX_NOTES)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) >= 0)
		r->notes[r->nnotes++] = s;
	va_end(ap);
}

static const char *op_name(int op)
{
	return op < 0 ? "all" : op_info[op].label;
}

/* "baseline run 2 (a.json)" */
static void run_name(const struct cmp_report *r, bool cand, int i, char *buf,
		     size_t len)
{
	char **names = cand ? r->name_b : r->name_a;

	if (names && names[i])
		snprintf(buf, len, "%s run %d (%s)",
			 cand ? "candidate" : "baseline", i + 1, names[i]);
	else
		snprintf(buf, len, "%s run %d", cand ? "candidate" : "baseline",
			 i + 1);
}

static void config_notes(struct cmp_report *r, struct result **base,
			 struct result **cand)
{
	struct result **side[2] = {base, cand};
	int n[2] = {r->na, r->nb}, logs = 0, clients = 0, lf = 0;
	const struct result *ref = base[0];
	char who[512];

	for (int s = 0; s < 2; s++) {
		for (int i = 0; i < n[s]; i++) {
			const struct result *x = side[s][i];

			run_name(r, s, i, who, sizeof(who));
			if (x->status == RESULT_INTERRUPTED)
				note(r, "%s was interrupted: partial figures",
				     who);
			else if (x->status == RESULT_FAILED)
				note(r, "%s failed: partial figures", who);
			logs += !x->has_bins;
			clients += x->cfg.nclients != ref->cfg.nclients;
			lf += x->env.nloadfiles && ref->env.nloadfiles &&
			      x->env.loadfile_sha256[0] &&
			      ref->env.loadfile_sha256[0] &&
			      strcmp(x->env.loadfile_sha256[0],
				     ref->env.loadfile_sha256[0]);
		}
	}
	if (clients)
		note(r,
		     "%d of the %d runs ran another number of clients than "
		     "baseline run 1 (%d)",
		     clients, r->na + r->nb, ref->cfg.nclients);
	if (lf)
		note(r,
		     "%d of the %d runs ran another loadfile than baseline "
		     "run 1 (sha256 differs)",
		     lf, r->na + r->nb);
	if (logs)
		note(r,
		     "%d of the %d runs are dbench text logs: only ops/s, "
		     "mean, max and MB/s can be compared",
		     logs, r->na + r->nb);
}

/* count > 0 in some run of @side */
static bool op_seen(struct result **side, int n, int op)
{
	for (int i = 0; i < n; i++) {
		if (side[i]->op[op].h.count)
			return true;
	}
	return false;
}

static int add_row(struct cmp_report *r, struct result **base,
		   struct result **cand, int op, int m)
{
	struct cmp_row *w = &r->rows[r->nrows];
	double v;

	if (r->filter && filter_walk(r->filter, op, m, NULL, 0) != 1)
		return 0;
	for (int i = 0; i < r->na; i++) {
		if (!metric_value(base[i], op, m, &v))
			return 0;
	}
	for (int i = 0; i < r->nb; i++) {
		if (!metric_value(cand[i], op, m, &v))
			return 0;
	}
	*w = (struct cmp_row){
		.op = op,
		.metric = m,
		.p = NAN,
		.pmin = NAN,
		.p_holm = NAN,
		.ci_lo = NAN,
		.ci_hi = NAN,
	};
	w->a = malloc((size_t)r->na * sizeof(double));
	w->b = malloc((size_t)r->nb * sizeof(double));
	if (!w->a || !w->b) {
		free(w->a);
		free(w->b);
		return -1;
	}
	w->min_count = UINT64_MAX;
	for (int i = 0; i < r->na + r->nb; i++) {
		struct result *x = i < r->na ? base[i] : cand[i - r->na];

		if (op >= 0 && x->op[op].h.count < w->min_count)
			w->min_count = x->op[op].h.count;
	}
	for (int i = 0; i < r->na; i++)
		metric_value(base[i], op, m, &w->a[i]);
	for (int i = 0; i < r->nb; i++)
		metric_value(cand[i], op, m, &w->b[i]);
	for (int i = 0; i < r->na + r->nb; i++) {
		if ((i < r->na ? w->a[i] : w->b[i - r->na]) != w->a[0]) {
			r->nvarying++;
			break;
		}
	}
	w->med_a = st_median(w->a, (size_t)r->na);
	w->med_b = st_median(w->b, (size_t)r->nb);
	w->change = st_rel_change(w->med_a, w->med_b);
	r->nrows++;
	return 0;
}

static int build_rows(struct cmp_report *r, struct result **base,
		      struct result **cand)
{
	r->rows = calloc(1 + (size_t)OP_NR * CMP_M_MBS, sizeof(*r->rows));
	if (!r->rows || add_row(r, base, cand, -1, CMP_M_MBS))
		return -1;
	for (int op = 0; op < OP_NR; op++) {
		bool in_a, in_b;

		if (!op_is_timed(op))
			continue;
		in_a = op_seen(base, r->na, op);
		in_b = op_seen(cand, r->nb, op);
		if (in_a != in_b)
			note(r, "%s ran only in the %s runs: not compared",
			     op_info[op].label,
			     in_a ? "baseline" : "candidate");
		if (!in_a || !in_b)
			continue;
		for (int m = 0; m < CMP_M_MBS; m++) {
			if (add_row(r, base, cand, op, m))
				return -1;
		}
	}
	return 0;
}

static double vmin(const double *x, int n)
{
	double m = x[0];

	for (int i = 1; i < n; i++)
		m = fmin(m, x[i]);
	return m;
}

static double vmax(const double *x, int n)
{
	double m = x[0];

	for (int i = 1; i < n; i++)
		m = fmax(m, x[i]);
	return m;
}

/* the absolute floor of latency metrics */
static bool past_floor(const struct cmp_report *r, const struct cmp_row *w)
{
	return !is_ms(w->metric) || fabs(w->med_b - w->med_a) > r->o.floor_ms;
}

/*
 * Whether a percentile rests on fewer than 10 ops per run beyond it (p99
 * of fewer than 1000 ops): then it is nearly the max, and judged as one.
 */
static bool few_beyond(const struct cmp_row *w)
{
	double pct = cmp_metric[w->metric].pct;

	return pct > 0 && (double)w->min_count * (1 - pct / 100) < 10;
}

/*
 * The threshold rule, for direction @worse: the change of medians past
 * the metric's threshold and floor, and with several runs per side every
 * candidate run past every baseline run by more than the noise floor.
 */
static bool thr_flag(const struct cmp_report *r, const struct cmp_row *w,
		     bool worse)
{
	const struct cmp_metric_info *mi = &cmp_metric[w->metric];
	bool up = worse == higher_worse(w->metric); /* the value grows */
	double ch = w->change, noise = r->o.noise;
	bool ok;

	if (mi->kind == CMP_K_EXC) {
		double lo_a = vmin(w->a, r->na), hi_a = vmax(w->a, r->na);
		double lo_b = vmin(w->b, r->nb), hi_b = vmax(w->b, r->nb);

		if (mi->thr_ns >= CMP_THR_EXC_NEW_NS &&
		    (up ? hi_a == 0 && lo_b > 0 : lo_a > 0 && hi_b == 0))
			return true;
		ok = up ? ch >= mi->thr_factor - 1 &&
				     w->med_b - w->med_a >= CMP_THR_EXC_MIN
			: ch <= 1 / mi->thr_factor - 1 &&
				     w->med_a - w->med_b >= CMP_THR_EXC_MIN;
	} else if (mi->kind == CMP_K_TAIL || few_beyond(w)) {
		double f = few_beyond(w) ? cmp_metric[CMP_M_MAX].thr_factor
					 : mi->thr_factor;

		ok = up ? ch >= f - 1 : ch <= 1 / f - 1;
	} else {
		ok = up ? ch > mi->thr_noises * noise
			: ch < -mi->thr_noises * noise;
	}
	if (!ok || !past_floor(r, w))
		return false;
	if (r->na < 2 || r->nb < 2)
		return true;
	if (up)
		return vmin(w->b, r->nb) > vmax(w->a, r->na) * (1 + noise);
	return vmax(w->b, r->nb) < vmin(w->a, r->na) * (1 - noise);
}

/* The test rule: Holm-significant, CI past the noise floor, past floor. */
static bool test_flag(const struct cmp_report *r, const struct cmp_row *w,
		      bool worse)
{
	bool up = worse == higher_worse(w->metric);

	if (!w->tested || !(w->p_holm < r->o.alpha) || !past_floor(r, w))
		return false;
	return up ? w->ci_lo > r->o.noise : w->ci_hi < -r->o.noise;
}

/* The test's inputs: p, pmin and the CI of every row, then Holm. */
static int run_tests(struct cmp_report *r)
{
	double *p, *adj, minp = 1;
	int k = 0;

	p = malloc((size_t)r->nrows * sizeof(*p));
	adj = malloc((size_t)r->nrows * sizeof(*adj));
	if (!p || !adj) {
		free(p);
		free(adj);
		return -1;
	}
	for (int i = 0; i < r->nrows; i++) {
		struct cmp_row *w = &r->rows[i];

		w->p = st_mwu(w->a, (size_t)r->na, w->b, (size_t)r->nb,
			      &w->pmin);
		st_bootstrap_ratio_ci(w->a, (size_t)r->na, w->b, (size_t)r->nb,
				      r->o.boot_iters, 1 - r->o.alpha,
				      r->o.seed + (uint64_t)i *
							  0x9e3779b97f4a7c15ULL,
				      &w->ci_lo, &w->ci_hi);
		/* a test that cannot reach alpha cannot reject: leaving it
		 * out of the family keeps the error rate (Tarone 1990) */
		w->tested = w->pmin <= r->o.alpha;
		if (w->tested) {
			p[k++] = w->p;
			minp = fmin(minp, w->pmin);
		}
	}
	st_holm(p, (size_t)k, adj);
	k = 0;
	for (int i = 0; i < r->nrows; i++) {
		if (r->rows[i].tested)
			r->rows[i].p_holm = adj[k++];
	}
	r->family = k;
	r->best_p = k ? fmin(1, k * minp) : 1;
	free(p);
	free(adj);
	return 0;
}

/*
 * How bad a change is, whatever its direction, to pick the row the
 * reason names: |log ratio|, but a change from 0 (infinite) ranks below
 * any finite one, so "p99.9 0.41 -> 498 ms" is named rather than "over10ms
 * 0 -> 9000" when both regressed.
 */
static double severity(const struct cmp_row *w)
{
	double s = fabs(log1p(w->change));

	return isinf(s) ? -1 : s;
}

static void decide(struct cmp_report *r)
{
	bool test = r->mode == CMP_MODE_TEST;

	r->worst = -1;
	for (int i = 0; i < r->nrows; i++) {
		struct cmp_row *w = &r->rows[i];
		bool up;

		if (test) {
			if (test_flag(r, w, true))
				w->verdict = CMP_V_WORSE;
			else if (test_flag(r, w, false))
				w->verdict = CMP_V_BETTER;
		} else {
			if (thr_flag(r, w, true))
				w->verdict = CMP_V_WORSE;
			else if (thr_flag(r, w, false))
				w->verdict = CMP_V_BETTER;
		}
		if (w->verdict == CMP_V_BETTER)
			r->nbetter++;
		if (w->verdict != CMP_V_WORSE) {
			up = higher_worse(w->metric);
			w->unclear = test && w->verdict == CMP_V_SAME &&
				     (thr_flag(r, w, true) ||
				      (w->p < r->o.alpha && past_floor(r, w) &&
				       (up ? w->change > r->o.noise
					   : w->change < -r->o.noise)));
			r->nunclear += w->unclear;
			continue;
		}
		r->nworse++;
		if (r->worst < 0)
			r->worst = i;
		else if (test && w->p_holm != r->rows[r->worst].p_holm)
			r->worst = w->p_holm < r->rows[r->worst].p_holm
					   ? i
					   : r->worst;
		else if (severity(w) > severity(&r->rows[r->worst]))
			r->worst = i;
	}
}

/* a number for people: 3 significant digits, no exponent for big ones */
static const char *num(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (isnan(v))
		snprintf(buf, len, "-");
	else if (a >= 100 || a == 0)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 10)
		snprintf(buf, len, "%.1f", v);
	else if (a >= 1)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.3g", v);
	return buf;
}

static const char *pct(char *buf, size_t len, double x)
{
	if (isnan(x))
		snprintf(buf, len, "-");
	else if (isinf(x))
		snprintf(buf, len, "%sinf", x > 0 ? "+" : "-");
	else if (fabs(x) < 1)
		snprintf(buf, len, "%+.1f%%", 100 * x);
	else if (x < 9)
		snprintf(buf, len, "%+.0f%%", 100 * x);
	else if (x < 1e6)
		snprintf(buf, len, "x%.0f", 1 + x); /* 10 times or more */
	else
		snprintf(buf, len, "x%.1e", 1 + x);
	return buf;
}

/* "Rename p99.9 0.41 -> 498 ms" */
static void row_text(char *buf, size_t len, const struct cmp_row *w)
{
	char x[32], y[32];
	const struct cmp_metric_info *mi = &cmp_metric[w->metric];

	if (w->op < 0)
		snprintf(buf, len, "throughput %s -> %s MB/s",
			 num(x, sizeof(x), w->med_a),
			 num(y, sizeof(y), w->med_b));
	else if (mi->kind == CMP_K_RATE)
		snprintf(buf, len, "%s %s %s -> %s", op_name(w->op), mi->name,
			 num(x, sizeof(x), w->med_a),
			 num(y, sizeof(y), w->med_b));
	else
		snprintf(buf, len, "%s %s %s -> %s %s", op_name(w->op),
			 mi->name, num(x, sizeof(x), w->med_a),
			 num(y, sizeof(y), w->med_b), mi->unit);
}

/* the metrics Holm would correct for: the family, or if there is none
 * yet (too few runs), the metrics whose values vary */
static int family_size(const struct cmp_report *r)
{
	if (r->family)
		return r->family;
	return r->nvarying ? r->nvarying : 1;
}

static int runs_needed_equal(const struct cmp_report *r)
{
	for (int n = 2; n <= 1000; n++) {
		if (family_size(r) * st_mwu_pmin_n((size_t)n, (size_t)n) <=
		    r->o.alpha)
			return n;
	}
	return 0;
}

int cmp_cand_runs_needed(const struct cmp_report *r)
{
	for (int n = 1; n <= 1000; n++) {
		if (family_size(r) * st_mwu_pmin_n((size_t)r->na, (size_t)n) <=
		    r->o.alpha)
			return n;
	}
	return 0;
}

/* "1 vs 1 run", "5 vs 5 runs" */
static const char *runs(const struct cmp_report *r, char *buf, size_t len)
{
	snprintf(buf, len, "%d vs %d run%s", r->na, r->nb,
		 r->na == 1 && r->nb == 1 ? "" : "s");
	return buf;
}

/* why the thresholds decide, e.g. "3 vs 3 runs cannot reach alpha 0.05" */
static void why_thresholds(const struct cmp_report *r, char *buf, size_t len)
{
	char rn[64];

	runs(r, rn, sizeof(rn));
	if (r->mode == CMP_MODE_ONE_RUN)
		snprintf(buf, len, "%s: significance cannot be judged", rn);
	else if (st_mwu_pmin_n((size_t)r->na, (size_t)r->nb) > r->o.alpha)
		snprintf(buf, len, "%s: n too small to reach alpha %g", rn,
			 r->o.alpha);
	else
		snprintf(buf, len,
			 "%s: n too small to reach alpha %g over %d metrics",
			 rn, r->o.alpha, r->family);
}

static void make_reason(struct cmp_report *r)
{
	char what[160], rn[64], why[160] = "", tail[160] = "", c[32];
	int n = 0;

	runs(r, rn, sizeof(rn));
	if (r->mode != CMP_MODE_TEST)
		why_thresholds(r, why, sizeof(why));
	if (r->worst >= 0) {
		const struct cmp_row *w = &r->rows[r->worst];

		row_text(what, sizeof(what), w);
		if (r->nworse > 1)
			snprintf(tail, sizeof(tail), ", and %d more metric%s",
				 r->nworse - 1, r->nworse > 2 ? "s" : "");
		if (r->mode == CMP_MODE_TEST)
			snprintf(r->reason, sizeof(r->reason),
				 "regressed: %s (p=%.2g, %s)%s", what,
				 w->p_holm, rn, tail);
		else
			snprintf(r->reason, sizeof(r->reason),
				 "regressed: %s (%s, by thresholds; %s)%s",
				 what, pct(c, sizeof(c), w->change), why, tail);
		return;
	}
	if (r->mode == CMP_MODE_TEST)
		n = snprintf(r->reason, sizeof(r->reason),
			     "no regression: %d metric%s compared, none "
			     "worse past the noise floor (%s)",
			     r->nrows, r->nrows == 1 ? "" : "s", rn);
	else
		n = snprintf(r->reason, sizeof(r->reason),
			     "no regression: %d metric%s compared, none past "
			     "the thresholds (%s)",
			     r->nrows, r->nrows == 1 ? "" : "s", why);
	if (r->nbetter && n > 0 && (size_t)n < sizeof(r->reason))
		n += snprintf(r->reason + n, sizeof(r->reason) - (size_t)n,
			      "; %d improved", r->nbetter);
	if (r->nunclear && n > 0 && (size_t)n < sizeof(r->reason))
		snprintf(r->reason + n, sizeof(r->reason) - (size_t)n,
			 "; %d look%s worse but not significantly", r->nunclear,
			 r->nunclear == 1 ? "s" : "");
}

static char **copy_names(const char *const *names, int n)
{
	char **v;

	if (!names)
		return NULL;
	v = calloc((size_t)n, sizeof(*v));
	for (int i = 0; v && i < n; i++)
		v[i] = names[i] ? strdup(names[i]) : NULL;
	return v;
}

struct cmp_report *cmp_run_named(struct result **base, int nb,
				 struct result **cand, int nc,
				 const char *const *base_names,
				 const char *const *cand_names,
				 const struct cmp_opts *o)
{
	struct cmp_report *r;
	char err[256];

	if (nb < 1 || nc < 1 ||
	    cmp_filter_check(o->metric_filter, err, sizeof(err)))
		return NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->o = *o;
	r->na = nb;
	r->nb = nc;
	r->filter = o->metric_filter ? strdup(o->metric_filter) : NULL;
	r->o.metric_filter = r->filter;
	r->name_a = copy_names(base_names, nb);
	r->name_b = copy_names(cand_names, nc);
	if ((o->metric_filter && !r->filter) || (base_names && !r->name_a) ||
	    (cand_names && !r->name_b))
		goto fail;
	config_notes(r, base, cand);
	if (build_rows(r, base, cand))
		goto fail;
	r->family = 0;
	r->best_p = 1;
	if (nb < 2 || nc < 2) {
		r->mode = CMP_MODE_ONE_RUN;
	} else {
		if (run_tests(r))
			goto fail;
		if (st_mwu_pmin_n((size_t)nb, (size_t)nc) > o->alpha ||
		    (r->family && r->best_p > o->alpha))
			r->mode = CMP_MODE_SMALL_N;
		else
			r->mode = CMP_MODE_TEST;
	}
	decide(r);
	make_reason(r);
	return r;
fail:
	cmp_free(r);
	return NULL;
}

struct cmp_report *cmp_run(struct result **base, int nb, struct result **cand,
			   int nc, const struct cmp_opts *o)
{
	return cmp_run_named(base, nb, cand, nc, NULL, NULL, o);
}

int cmp_verdict(const struct cmp_report *r)
{
	return r->nworse > 0;
}

const char *cmp_reason(const struct cmp_report *r)
{
	return r->reason;
}

enum cmp_mode cmp_mode(const struct cmp_report *r)
{
	return r->mode;
}

int cmp_unclear(const struct cmp_report *r)
{
	return r->nunclear;
}

int cmp_nrows(const struct cmp_report *r)
{
	return r->nrows;
}

void cmp_row(const struct cmp_report *r, int i, struct cmp_row_info *out)
{
	const struct cmp_row *w = &r->rows[i];

	*out = (struct cmp_row_info){
		.op = op_name(w->op),
		.metric = cmp_metric[w->metric].name,
		.base = w->med_a,
		.cand = w->med_b,
		.change = w->change,
		.p = w->p,
		.p_holm = w->p_holm,
		.in_family = w->tested,
		.ci_lo = w->ci_lo,
		.ci_hi = w->ci_hi,
		.verdict = w->verdict == CMP_V_WORSE	? 1
			   : w->verdict == CMP_V_BETTER ? -1
							: 0,
		.unclear = w->unclear,
	};
}

void cmp_free(struct cmp_report *r)
{
	if (!r)
		return;
	for (int i = 0; i < r->nrows; i++) {
		free(r->rows[i].a);
		free(r->rows[i].b);
	}
	free(r->rows);
	for (int i = 0; i < r->nnotes; i++)
		free(r->notes[i]);
	for (int i = 0; r->name_a && i < r->na; i++)
		free(r->name_a[i]);
	for (int i = 0; r->name_b && i < r->nb; i++)
		free(r->name_b[i]);
	free(r->name_a);
	free(r->name_b);
	free(r->filter);
	free(r);
}

/* ------------------------------ the table ------------------------------ */

static const char *verdict_word(const struct cmp_row *w)
{
	switch (w->verdict) {
	case CMP_V_WORSE:
		return "REGRESSED";
	case CMP_V_BETTER:
		return "improved";
	default:
		return w->unclear ? "unclear" : "no change";
	}
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
		why_thresholds(r, why, sizeof(why));
		fprintf(f, "%s (smallest possible p %s)\n", why,
			num(ln, sizeof(ln),
			    r->family ? r->best_p
				      : st_mwu_pmin_n((size_t)r->na,
						      (size_t)r->nb)));
		eq = runs_needed_equal(r);
		nc = cmp_cand_runs_needed(r);
		if (eq && nc)
			fprintf(f,
				"  for significance over %d metrics: %d vs "
				"%d runs, or %d candidate runs against these "
				"%d, or fewer metrics (--metrics)\n",
				family_size(r), eq, eq, nc, r->na);
		else if (eq)
			fprintf(f,
				"  for significance over %d metrics: %d vs "
				"%d runs, or fewer metrics (--metrics)\n",
				family_size(r), eq, eq);
		fprintf(f, "  so flagged only by the thresholds of "
			   "docs/regressions.md, with every candidate run past "
			   "every baseline run\n");
		break;
	case CMP_MODE_ONE_RUN:
		why_thresholds(r, why, sizeof(why));
		fprintf(f,
			"%s; flagged only by the thresholds of "
			"docs/regressions.md\n",
			why);
		break;
	}
	for (int i = 0; i < r->nnotes; i++)
		fprintf(f, "note: %s\n", r->notes[i]);
	fprintf(f, "\n");
}

void cmp_print(FILE *f, const struct cmp_report *r)
{
	cmp_print_changed(f, r, false);
}

void cmp_print_changed(FILE *f, const struct cmp_report *r, bool changed)
{
	char a[32], b[32], c[32], p[32], lo[32], hi[32], ci[64];
	static const char dashes[] = "-----------------------------------------"
				     "-----------------------------------------"
				     "-------------";

	print_header(f, r);
	fprintf(f, " %-12s %-9s %10s %10s %9s %9s %19s  %s\n", "Op", "Metric",
		"Baseline", "Candidate", "Change", "p (Holm)",
		r->mode == CMP_MODE_ONE_RUN ? "CI" : "CI of change", "Verdict");
	fprintf(f, " %s\n", dashes);
	for (int i = 0; i < r->nrows; i++) {
		const struct cmp_row *w = &r->rows[i];

		if (changed && w->verdict == CMP_V_SAME && !w->unclear)
			continue;
		if (w->tested)
			snprintf(p, sizeof(p), "%.2g", w->p_holm);
		else if (!isnan(w->p))
			snprintf(p, sizeof(p), "(%.2g)", w->p);
		else
			snprintf(p, sizeof(p), "-");
		if (isnan(w->ci_lo))
			snprintf(ci, sizeof(ci), "-");
		else
			snprintf(ci, sizeof(ci), "%s..%s",
				 pct(lo, sizeof(lo), w->ci_lo),
				 pct(hi, sizeof(hi), w->ci_hi));
		fprintf(f, " %-12s %-9s %10s %10s %9s %9s %19s  %s\n",
			op_name(w->op), cmp_metric[w->metric].name,
			num(a, sizeof(a), w->med_a),
			num(b, sizeof(b), w->med_b),
			pct(c, sizeof(c), w->change), p, ci, verdict_word(w));
	}
	if (changed)
		fprintf(f, " (%d rows of no change not shown)\n",
			r->nrows - r->nworse - r->nbetter - r->nunclear);
	fprintf(f, "\n%s\n", r->reason);
}

/* ------------------------------ JSON ----------------------------------- */

static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *jvalues(const double *x, int n)
{
	json_t *a = json_array();

	for (int i = 0; a && i < n; i++)
		json_array_append_new(a, json_real(x[i]));
	return a;
}

static json_t *jnames(char **names, int n)
{
	json_t *a = json_array();

	for (int i = 0; a && i < n; i++)
		json_array_append_new(a, names && names[i]
						 ? json_string(names[i])
						 : json_null());
	return a;
}

static const char *mode_name(enum cmp_mode m)
{
	return m == CMP_MODE_TEST      ? "test"
	       : m == CMP_MODE_SMALL_N ? "small_n"
				       : "one_run";
}

static json_t *report_json(const struct cmp_report *r)
{
	json_t *doc = json_object(), *rows = json_array(),
	       *notes = json_array();

	if (!doc || !rows || !notes) {
		json_decref(doc);
		json_decref(rows);
		json_decref(notes);
		return NULL;
	}
	for (int i = 0; i < r->nnotes; i++)
		json_array_append_new(notes, json_string(r->notes[i]));
	for (int i = 0; i < r->nrows; i++) {
		const struct cmp_row *w = &r->rows[i];
		const char *v = w->verdict == CMP_V_WORSE    ? "regressed"
				: w->verdict == CMP_V_BETTER ? "improved"
				: w->unclear		     ? "unclear"
							     : "no change";

		json_array_append_new(
			rows,
			json_pack("{s:s,s:s,s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:o,"
				  "s:b,s:o,s:o,s:s}",
				  "op", op_name(w->op), "metric",
				  cmp_metric[w->metric].name, "worse",
				  higher_worse(w->metric) ? "higher" : "lower",
				  "baseline", jvalues(w->a, r->na), "candidate",
				  jvalues(w->b, r->nb), "baseline_median",
				  jnum(w->med_a), "candidate_median",
				  jnum(w->med_b), "change", jnum(w->change),
				  "p", jnum(w->p), "p_holm", jnum(w->p_holm),
				  "in_family", w->tested, "ci_low",
				  jnum(w->ci_lo), "ci_high", jnum(w->ci_hi),
				  "verdict", v));
	}
	json_object_set_new(doc, "format", json_string("dbench-ng-compare"));
	json_object_set_new(doc, "format_version", json_integer(1));
	json_object_set_new(
		doc, "options",
		json_pack("{s:f,s:f,s:f,s:i,s:I,s:o}", "alpha", r->o.alpha,
			  "noise", r->o.noise, "floor_ms", r->o.floor_ms,
			  "bootstrap", r->o.boot_iters, "seed",
			  (json_int_t)r->o.seed, "metrics",
			  r->filter ? json_string(r->filter) : json_null()));
	json_object_set_new(doc, "baseline_runs", jnames(r->name_a, r->na));
	json_object_set_new(doc, "candidate_runs", jnames(r->name_b, r->nb));
	json_object_set_new(doc, "mode", json_string(mode_name(r->mode)));
	json_object_set_new(doc, "holm_family", json_integer(r->family));
	json_object_set_new(doc, "regressed", json_integer(r->nworse));
	json_object_set_new(doc, "improved", json_integer(r->nbetter));
	json_object_set_new(doc, "unclear", json_integer(r->nunclear));
	json_object_set_new(doc, "cand_runs_needed",
			    json_integer(cmp_cand_runs_needed(r)));
	json_object_set_new(doc, "exit", json_integer(cmp_verdict(r)));
	json_object_set_new(doc, "reason", json_string(r->reason));
	json_object_set_new(doc, "notes", notes);
	json_object_set_new(doc, "metrics", rows);
	return doc;
}

int cmp_write_json(const struct cmp_report *r, const char *path, char *err,
		   size_t len)
{
	return result_dump_json(report_json(r), path, err, len);
}

/* ------------------------------ the command ---------------------------- */

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: dbench-ng compare [OPTIONS] BASELINE... -- "
		"CANDIDATE...\n"
		"Did the candidate runs regress against the baseline runs?  "
		"Each file is one\nrun: a dbench-ng JSON result (--json) or a "
		"dbench text log (dbench 4.0 or\ndbench-ng stdout; those give "
		"only ops/s, mean, max and MB/s).  Ops are paired\nby name; "
		"per op: ops/s, mean, p50, p99, p99.9, max and ops over 10, "
		"100 and\n500 ms per million, and the run's MB/s.\n"
		"\n"
		"With 2 or more runs per side (5 or more recommended), a "
		"metric regressed when\nthe Mann-Whitney U test on the "
		"per-run values is significant after Holm's\ncorrection "
		"over all metrics, the bootstrap CI of the change lies past "
		"the noise\nfloor, and latency changed by more than the "
		"latency floor.  With 1 run on a\nside, or too few runs to "
		"reach alpha, only documented thresholds flag.\n"
		"\n"
		"  -a, --alpha=A        family-wise error rate (default 0.05)\n"
		"  -n, --noise=F        relative noise floor, 0.05 or 5%% "
		"(default 5%%)\n"
		"  -f, --floor=MS       absolute floor of latency changes "
		"(default 0.05 ms)\n"
		"  -m, --metrics=LIST   compare and correct for these only: "
		"METRIC, OP or\n"
		"                       OP:METRIC, comma-separated, e.g. "
		"p99.9,Rename:over100ms\n"
		"                       (metrics: ops/s mean p50 p99 p99.9 "
		"max over10ms\n"
		"                       over100ms over500ms MB/s)\n"
		"  -b, --bootstrap=N    bootstrap resamples (default 2000)\n"
		"  -s, --seed=N         bootstrap seed (default 1)\n"
		"  -c, --changed        show only the rows that are not 'no "
		"change'\n"
		"  -j, --json=FILE      also write the comparison as JSON "
		"('-': stdout)\n"
		"  -h, --help           this text\n"
		"\n"
		"Exit: 0 nothing regressed, 1 something regressed, 2 bad "
		"input or options.\n"
		"See docs/regressions.md.\n");
}

static int bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int bad(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "dbench-ng compare: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see dbench-ng compare --help)\n");
	return 2;
}

static int parse_double(const char *s, double *v, bool percent_ok)
{
	const char *end;

	if (num_f64(s, 0, v, &end) != NUM_OK)
		return -1;
	if (percent_ok && *end == '%') {
		*v /= 100;
		end++;
	} else if (percent_ok && *v >= 1) {
		return -1;
	}
	return *end ? -1 : 0;
}

static int parse_u64(const char *s, uint64_t *v)
{
	return num_u64(s, NUM_BASE0, UINT64_MAX, v) != NUM_OK ? -1 : 0;
}

static int load_side(char **files, int n, struct result **out)
{
	char err[1024];

	for (int i = 0; i < n; i++) {
		if (result_load(files[i], &out[i], err, sizeof(err))) {
			fprintf(stderr, "dbench-ng compare: %s\n", err);
			return -1;
		}
	}
	return 0;
}

int compare_main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{"alpha", required_argument, NULL, 'a'},
		{"noise", required_argument, NULL, 'n'},
		{"floor", required_argument, NULL, 'f'},
		{"metrics", required_argument, NULL, 'm'},
		{"metric", required_argument, NULL, 'm'},
		{"bootstrap", required_argument, NULL, 'b'},
		{"seed", required_argument, NULL, 's'},
		{"json", required_argument, NULL, 'j'},
		{"changed", no_argument, NULL, 'c'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct result **res = NULL;
	struct cmp_report *rep = NULL;
	const char *json = NULL;
	struct cmp_opts o;
	char err[1024];
	int sep = -1, c, nb, nc, rc = 2;
	bool changed = false;
	uint64_t u;

	cmp_opts_default(&o);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			sep = i;
			break;
		}
	}
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(sep < 0 ? argc : sep, argv, ":a:n:f:m:b:s:j:ch",
				lopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			if (parse_double(optarg, &o.alpha, false) ||
			    !(o.alpha > 0 && o.alpha < 1))
				return bad("--alpha: '%s' is not a number "
					   "between 0 and 1",
					   optarg);
			break;
		case 'n':
			if (parse_double(optarg, &o.noise, true) || o.noise < 0)
				return bad("--noise: '%s' is not a fraction "
					   "(0.05) or a percentage (5%%)",
					   optarg);
			break;
		case 'f':
			if (parse_double(optarg, &o.floor_ms, false) ||
			    o.floor_ms < 0)
				return bad("--floor: '%s' is not a number of "
					   "ms >= 0",
					   optarg);
			break;
		case 'm':
			if (cmp_filter_check(optarg, err, sizeof(err)))
				return bad("%s", err);
			o.metric_filter = optarg;
			break;
		case 'b':
			if (parse_u64(optarg, &u) || u < 100 || u > 1000000)
				return bad("--bootstrap: '%s' is not a number "
					   "of resamples from 100 to 1000000",
					   optarg);
			o.boot_iters = (int)u;
			break;
		case 's':
			if (parse_u64(optarg, &o.seed))
				return bad("--seed: '%s' is not an unsigned "
					   "integer",
					   optarg);
			break;
		case 'j':
			json = optarg;
			break;
		case 'c':
			changed = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case ':':
			return bad("option '%s' needs a value",
				   argv[optind - 1]);
		default:
			return bad("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (sep < 0)
		return bad("missing '--' between the baseline and the "
			   "candidate files");
	nb = sep - optind;
	nc = argc - sep - 1;
	if (nb < 1 || nc < 1)
		return bad("no %s file given",
			   nb < 1 ? "baseline" : "candidate");
	for (int i = sep + 1; i < argc; i++) {
		if (argv[i][0] == '-' && access(argv[i], F_OK))
			return bad("'%s' comes after '--', so it is taken as a "
				   "candidate file, and there is none: options "
				   "go before '--'",
				   argv[i]);
	}
	res = calloc((size_t)(nb + nc), sizeof(*res));
	if (!res) {
		fprintf(stderr, "dbench-ng compare: out of memory\n");
		return 2;
	}
	if (load_side(argv + optind, nb, res) ||
	    load_side(argv + sep + 1, nc, res + nb))
		goto out;
	rep = cmp_run_named(res, nb, res + nb, nc,
			    (const char *const *)argv + optind,
			    (const char *const *)argv + sep + 1, &o);
	if (!rep) {
		fprintf(stderr, "dbench-ng compare: out of memory\n");
		goto out;
	}
	if (!rep->nrows) {
		fprintf(stderr,
			"dbench-ng compare: no metric to compare: the "
			"runs have no op in common%s\n",
			o.metric_filter ? " or --metrics selects none" : "");
		goto out;
	}
	cmp_print_changed(stdout, rep, changed);
	fflush(stdout);
	if (json && cmp_write_json(rep, json, err, sizeof(err))) {
		fprintf(stderr, "dbench-ng compare: %s\n", err);
		goto out;
	}
	rc = cmp_verdict(rep);
out:
	cmp_free(rep);
	for (int i = 0; i < nb + nc; i++)
		result_free(res[i]);
	free(res);
	return rc;
}
