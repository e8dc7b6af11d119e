/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare_reason.c - the one line that says why ("regressed: Rename
 * p99.9 0.41 -> 498 ms (p=0.016, 5 vs 5 runs)"), and the number formats
 * it shares with the table.
 */
#include "compare_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sigtest.h"

/*
 * a number for people: 3 significant digits, no exponent for big ones up
 * to CMP_FMT_EXP (7 digits: the table's column is 10 wide), an exponent
 * past it (a hostile 1.8e308 MB/s is "1.8e+308", not 309 digits)
 */
#define CMP_FMT_EXP 1e7

const char *cmp_fmt_num(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (isnan(v))
		snprintf(buf, len, "-");
	else if (a >= CMP_FMT_EXP)
		snprintf(buf, len, "%.3g", v);
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

const char *cmp_fmt_change(char *buf, size_t len, double x)
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

/* "Rename p99.9 0.41 -> 498 ms", "own throughput 102 -> 75 MB/s" (the
 * values that decided) */
static void row_text(char *buf, size_t len, const struct cmp_row *w)
{
	char x[32], y[32];
	const struct cmp_metric_info *mi = &cmp_metric[w->metric];
	const char *own = w->ra ? "own " : "";

	if (w->op < 0)
		snprintf(buf, len, "%sthroughput %s -> %s MB/s", own,
			 cmp_fmt_num(x, sizeof(x), w->med_a),
			 cmp_fmt_num(y, sizeof(y), w->med_b));
	else if (mi->kind == CMP_K_RATE)
		snprintf(buf, len, "%s %s %s -> %s", cmp_op_name(w->op),
			 mi->name, cmp_fmt_num(x, sizeof(x), w->med_a),
			 cmp_fmt_num(y, sizeof(y), w->med_b));
	else
		snprintf(buf, len, "%s %s%s %s -> %s %s", cmp_op_name(w->op),
			 own, mi->name, cmp_fmt_num(x, sizeof(x), w->med_a),
			 cmp_fmt_num(y, sizeof(y), w->med_b), mi->unit);
}

/* "1 vs 1 run", "5 vs 5 runs" */
static const char *fmt_runs(const struct cmp_report *r, char *buf, size_t len)
{
	snprintf(buf, len, "%d vs %d run%s", r->na, r->nb,
		 r->na == 1 && r->nb == 1 ? "" : "s");
	return buf;
}

/* how it decided, for the end of the reason's parenthesis: "; on own
 * latencies (busy machine)", "; on the throughput alone (coverage)" */
static const char *fmt_how(const struct cmp_report *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s",
		 r->own ? "; on own latencies (busy machine)" : "",
		 r->cover ? "; on the throughput alone (coverage)" : "");
	return buf;
}

/* "; the throughput shown not 5% worse (p=0.004)" or why not, at @buf */
static void equiv_text(const struct cmp_report *r, char *buf, size_t len)
{
	double pmax = 0;
	const struct cmp_row *one = NULL;
	char name[80];

	buf[0] = 0;
	if (!r->nprimary)
		return;
	for (int i = 0; i < r->nrows; i++) {
		const struct cmp_row *w = &r->rows[i];

		if (w->primary && (!one || w->p_eq > pmax)) {
			one = w;
			pmax = w->p_eq;
		}
	}
	if (r->nprimary == 1 && one->op < 0)
		snprintf(name, sizeof(name), "the %sthroughput",
			 one->ra ? "own " : "");
	else if (r->nprimary == 1)
		snprintf(name, sizeof(name), "%s %s%s", cmp_op_name(one->op),
			 one->ra ? "own " : "", cmp_metric[one->metric].name);
	else
		snprintf(name, sizeof(name), "the %d metrics named",
			 r->nprimary);
	if (r->equiv)
		snprintf(buf, len,
			 "; %s shown not %g%% worse (%sp=%.2g <= %.2g)", name,
			 100 * r->o.noise, r->nprimary > 1 ? "largest " : "",
			 pmax, r->eq_level);
	else
		snprintf(
			buf, len,
			"; not yet shown that %s %s not %g%% worse (%sp=%.2g > "
			"%.2g)",
			name, r->nprimary > 1 ? "are" : "is", 100 * r->o.noise,
			r->nprimary > 1 ? "largest " : "", pmax, r->eq_level);
}

/* why the thresholds decide, e.g. "3 vs 3 runs cannot reach alpha 0.05" */
void cmp_why_thresholds(const struct cmp_report *r, char *buf, size_t len)
{
	char rn[64];

	fmt_runs(r, rn, sizeof(rn));
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

/*
 * ": WriteX mean, Find p99.9" -- the regressed metrics after the one
 * named, strongest evidence first (cmp_evidence_cmp()), into @buf;
 * ", ..." when they do not fit.
 */
static void list_rest(const struct cmp_report *r, char *buf, size_t len)
{
	int *v = malloc((size_t)r->nrows * sizeof(*v)), n = 0;
	size_t at = 0;

	buf[0] = 0;
	if (!v)
		return;
	for (int i = 0; i < r->nrows; i++) {
		int k = n++;

		if (r->rows[i].verdict != CMP_V_WORSE || i == r->worst) {
			n--;
			continue;
		}
		while (k > 0 && cmp_evidence_cmp(r, i, v[k - 1]) < 0) {
			v[k] = v[k - 1];
			k--;
		}
		v[k] = i;
	}
	for (int k = 0; k < n; k++) {
		const struct cmp_row *w = &r->rows[v[k]];
		char item[96];
		int m = snprintf(item, sizeof(item), "%s%s %s", k ? ", " : ": ",
				 cmp_op_name(w->op),
				 cmp_metric[w->metric].name);

		if (m < 0 || at + (size_t)m + 6 > len) {
			snprintf(buf + at, len - at, ", ...");
			break;
		}
		memcpy(buf + at, item, (size_t)m + 1);
		at += (size_t)m;
	}
	free(v);
}

void cmp_make_reason(struct cmp_report *r)
{
	char what[160], rn[64], why[300] = "", tail[400] = "", c[32], how[96];
	int n = 0;

	fmt_runs(r, rn, sizeof(rn));
	fmt_how(r, how, sizeof(how));
	if (r->mode != CMP_MODE_TEST)
		cmp_why_thresholds(r, why, sizeof(why));
	if (r->worst >= 0) {
		const struct cmp_row *w = &r->rows[r->worst];

		row_text(what, sizeof(what), w);
		if (r->nworse > 1) {
			int m = snprintf(
				tail, sizeof(tail), ", and %d more metric%s",
				r->nworse - 1, r->nworse > 2 ? "s" : "");

			if (m > 0 && (size_t)m < sizeof(tail))
				list_rest(r, tail + m,
					  sizeof(tail) - (size_t)m);
		}
		if (r->mode == CMP_MODE_TEST)
			snprintf(r->reason, sizeof(r->reason),
				 "regressed: %s (p=%.2g, %s%s)%s", what,
				 w->p_holm, rn, how, tail);
		else
			snprintf(r->reason, sizeof(r->reason),
				 "regressed: %s (%s, by thresholds; %s%s)%s",
				 what, cmp_fmt_change(c, sizeof(c), w->change),
				 why, how, tail);
		return;
	}
	if (!r->ndeciding) {
		snprintf(r->reason, sizeof(r->reason), "no verdict: %s (%s%s)",
			 r->cover ? "the sides reached other ops of the "
				    "loadfile and the throughput is not "
				    "compared"
				  : "no metric has enough ops to decide",
			 rn, r->own ? "; on own latencies (busy machine)" : "");
		return;
	}
	if (r->mode == CMP_MODE_TEST) {
		char eq[200];

		equiv_text(r, eq, sizeof(eq));
		n = snprintf(r->reason, sizeof(r->reason),
			     "no regression: %d metric%s compared, none "
			     "worse past the noise floor%s (%s%s)",
			     r->ndeciding, r->ndeciding == 1 ? "" : "s", eq, rn,
			     how);
	} else
		n = snprintf(r->reason, sizeof(r->reason),
			     "no regression: %d metric%s compared, none past "
			     "the thresholds (%s%s)",
			     r->ndeciding, r->ndeciding == 1 ? "" : "s", why,
			     how);
	if (r->nbetter && n > 0 && (size_t)n < sizeof(r->reason))
		n += snprintf(r->reason + n, sizeof(r->reason) - (size_t)n,
			      "; %d improved", r->nbetter);
	if (r->nunclear && n > 0 && (size_t)n < sizeof(r->reason))
		snprintf(r->reason + n, sizeof(r->reason) - (size_t)n,
			 "; %d look%s worse but not significantly", r->nunclear,
			 r->nunclear == 1 ? "s" : "");
}
