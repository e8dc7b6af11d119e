/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare_metrics.c - what compare measures: the table of metrics, the
 * value of a metric of an op in one run, and the --metrics filter.
 */
#include "compare_impl.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include "result.h"
#include "stats.h"

/* ------------------------------ metrics -------------------------------- */

/* clang-format off */
const struct cmp_metric_info cmp_metric[CMP_M_NR] = {
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
	[CMP_M_RP50]    = { "rp50", "resp_p50_ms", "ms", CMP_K_MS, true, 50,
			    .thr_noises = 2 },
	[CMP_M_RP99]    = { "rp99", "resp_p99_ms", "ms", CMP_K_MS, true, 99,
			    .thr_noises = 4 },
	[CMP_M_RP999]   = { "rp99.9", "resp_p99.9_ms", "ms", CMP_K_TAIL, true,
			    99.9, .thr_factor = 2 },
	[CMP_M_RMAX]    = { "rmax", "resp_max_ms", "ms", CMP_K_TAIL, true,
			    .thr_factor = 4 },
	[CMP_M_LATE]    = { "late", "late_starts_per_million",
			    "per million ops", CMP_K_EXC, true, 0, RESP_LATE_NS,
			    .thr_factor = 2 },
};
/* clang-format on */

bool cmp_higher_worse(int m)
{
	return cmp_metric[m].kind != CMP_K_RATE;
}

bool cmp_is_ms(int m)
{
	return cmp_metric[m].kind == CMP_K_MS ||
	       cmp_metric[m].kind == CMP_K_TAIL;
}

uint64_t cmp_min_ops(int m)
{
	double pct = cmp_metric[m].pct;

	if (m == CMP_M_MBS)
		return 0;
	if (pct > 0)
		return (uint64_t)ceil(CMP_TAIL_OPS / (1 - pct / 100) - 1e-9);
	return CMP_FEW_OPS;
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

/* A response metric @m of op @op in run @r, if it is a paced run's. */
static bool resp_value(const struct result *r, int op, int m, double *v)
{
	const struct hist *h = &r->resp.h[op];

	if (!r->resp.valid || !h->count)
		return false;
	switch (m) {
	case CMP_M_RMAX:
		*v = (double)h->max / 1e6;
		break;
	case CMP_M_LATE:
		*v = (double)r->resp.late[op] * 1e6 / (double)h->count;
		break;
	default:
		*v = (double)hist_value_at(h, cmp_metric[m].pct) / 1e6;
		break;
	}
	return true;
}

uint64_t cmp_metric_count(const struct result *r, int op, int m)
{
	return cmp_is_resp(m) ? r->resp.h[op].count : r->op[op].h.count;
}

/* The value of metric @m of op @op (-1: the run) in run @r, if it has it. */
bool cmp_metric_value(const struct result *r, int op, int m, double *v)
{
	const struct hist *h;

	if (m == CMP_M_MBS) {
		*v = r->throughput;
		return true;
	}
	if (cmp_is_resp(m))
		return resp_value(r, op, m, v);
	h = &r->op[op].h;
	if (m == CMP_M_OPS) {
		double secs = r->measured_s;

		/* a text log's last progress line comes a second or so
		 * before the end: its -t is the measured time */
		if (!r->has_bins && r->cfg.timelimit > 0)
			secs = r->cfg.timelimit;
		else if (!r->has_bins) /* no Running line: not known */
			return false;
		if (!(secs > 0))
			return false;
		*v = (double)h->count / secs;
		return true;
	}
	return cmp_hist_value(h, r->has_bins, m, v);
}

bool cmp_hist_value(const struct hist *h, bool has_bins, int m, double *v)
{
	if (!h->count || (cmp_metric[m].bins && !has_bins))
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
int cmp_filter_walk(const char *filter, int op, int m, char *err, size_t len)
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
				 "MB/s, and of paced runs rp50 rp99 rp99.9 "
				 "rmax late; ops as in the report, 'all' for "
				 "MB/s)",
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
	if (cmp_filter_walk(filter, -5, -5, err, len) < 0)
		return -1;
	if (!filter[strspn(filter, ",")]) {
		snprintf(err, len, "--metrics: empty list");
		return -1;
	}
	return 0;
}
