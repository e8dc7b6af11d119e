/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare.c - `dbench-ng compare BASELINE... -- CANDIDATE...` as a library:
 * pair the ops of two sets of runs, one row per op and metric with a value
 * per run (compare_notes.c notes what differs between the runs on the
 * way), then have compare_decide.c judge the rows and compare_reason.c
 * say why.
 */
#include "compare_impl.h"
#include "compare_test.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"
#include "sigtest.h"

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

void cmp_note(struct cmp_report *r, const char *fmt, ...)
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

const char *cmp_op_name(int op)
{
	return op < 0 ? "all" : op_info[op].label;
}

void cmp_run_name(const struct cmp_report *r, bool cand, int i, char *buf,
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

/* count > 0 in some run of @side */
static bool op_seen(struct result **side, int n, int op)
{
	for (int i = 0; i < n; i++) {
		if (side[i]->op[op].h.count)
			return true;
	}
	return false;
}

/* the value of metric @m of op @op in run @x that decides: its own
 * figure when @r decides on them (if it has one: else false) */
static bool decide_value(const struct cmp_report *r, const struct result *x,
			 int op, int m, double *v)
{
	if (r->own && !cmp_is_resp(m) && m != CMP_M_OPS)
		return cmp_own_value(x, op, m, v);
	return cmp_metric_value(x, op, m, v);
}

/* @n values of metric @m of op @op of the runs @side into @v, those that
 * decide (@dec) or the raw ones; false if a run has none */
static bool values(const struct cmp_report *r, struct result **side, int n,
		   int op, int m, bool dec, double *v)
{
	double x;

	for (int i = 0; i < n; i++) {
		if (!(dec ? decide_value(r, side[i], op, m, v ? &v[i] : &x)
			  : cmp_metric_value(side[i], op, m, v ? &v[i] : &x)))
			return false;
	}
	return true;
}

static int add_row(struct cmp_report *r, struct result **base,
		   struct result **cand, int op, int m)
{
	struct cmp_row *w = &r->rows[r->nrows];
	bool own;

	if (r->filter && cmp_filter_walk(r->filter, op, m, NULL, 0) != 1)
		return 0;
	if (!values(r, base, r->na, op, m, false, NULL) ||
	    !values(r, cand, r->nb, op, m, false, NULL))
		return 0;
	/* in a comparison on own figures, one that some run lacks is
	 * shown raw, as context */
	own = r->own && !cmp_is_resp(m) && m != CMP_M_OPS &&
	      values(r, base, r->na, op, m, true, NULL) &&
	      values(r, cand, r->nb, op, m, true, NULL);
	*w = (struct cmp_row){
		.op = op,
		.metric = m,
		.p = NAN,
		.pmin = NAN,
		.p_holm = NAN,
		.ci_lo = NAN,
		.ci_hi = NAN,
		.p_eq = NAN,
		.p_eq_min = NAN,
		.ctx = r->own && !own && m != CMP_M_OPS ? CMP_CTX_RAW
							: CMP_CTX_NONE,
	};
	w->a = malloc((size_t)r->na * sizeof(double));
	w->b = malloc((size_t)r->nb * sizeof(double));
	if (own) {
		w->ra = malloc((size_t)r->na * sizeof(double));
		w->rb = malloc((size_t)r->nb * sizeof(double));
	}
	if (!w->a || !w->b || (own && (!w->ra || !w->rb))) {
		free(w->a);
		free(w->b);
		free(w->ra);
		free(w->rb);
		return -1;
	}
	w->min_count = UINT64_MAX;
	for (int i = 0; i < r->na + r->nb; i++) {
		struct result *x = i < r->na ? base[i] : cand[i - r->na];

		if (op >= 0 && cmp_metric_count(x, op, m) < w->min_count)
			w->min_count = cmp_metric_count(x, op, m);
	}
	values(r, base, r->na, op, m, own, w->a);
	values(r, cand, r->nb, op, m, own, w->b);
	w->eligible = op < 0 || w->min_count >= cmp_min_ops(m);
	w->med_a = st_median(w->a, (size_t)r->na);
	w->med_b = st_median(w->b, (size_t)r->nb);
	w->change = st_rel_change(w->med_a, w->med_b);
	if (own) {
		values(r, base, r->na, op, m, false, w->ra);
		values(r, cand, r->nb, op, m, false, w->rb);
	}
	w->rmed_a = own ? st_median(w->ra, (size_t)r->na) : w->med_a;
	w->rmed_b = own ? st_median(w->rb, (size_t)r->nb) : w->med_b;
	w->rchange = st_rel_change(w->rmed_a, w->rmed_b);
	r->nrows++;
	return 0;
}

static int build_rows(struct cmp_report *r, struct result **base,
		      struct result **cand)
{
	r->rows = calloc(1 + (size_t)OP_NR * (CMP_M_NR - 1), sizeof(*r->rows));
	if (!r->rows || add_row(r, base, cand, -1, CMP_M_MBS))
		return -1;
	for (int op = 0; op < OP_NR; op++) {
		/* an op one side did not reach has no row: a coverage
		 * note (compare_scope.c) says so */
		if (!op_is_timed(op) || !op_seen(base, r->na, op) ||
		    !op_seen(cand, r->nb, op))
			continue;
		for (int m = 0; m < CMP_M_NR; m++) {
			if (m != CMP_M_MBS && add_row(r, base, cand, op, m))
				return -1;
		}
	}
	return 0;
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
	cmp_config_notes(r, base, cand);
	cmp_own_choose(r, base, cand);
	if (build_rows(r, base, cand))
		goto fail;
	cmp_scope(r, base, cand);
	if (cmp_decide(r))
		goto fail;
	cmp_make_reason(r);
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

int cmp_disturbed(const struct cmp_report *r, bool cand)
{
	return r->disturbed[cand];
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

bool cmp_own(const struct cmp_report *r)
{
	return r->own;
}

int cmp_nrows(const struct cmp_report *r)
{
	return r->nrows;
}

void cmp_get_row(const struct cmp_report *r, int i, struct cmp_row_info *out)
{
	const struct cmp_row *w = &r->rows[i];

	*out = (struct cmp_row_info){
		.op = cmp_op_name(w->op),
		.metric = cmp_metric[w->metric].name,
		.base = w->med_a,
		.cand = w->med_b,
		.change = w->change,
		.raw_base = w->rmed_a,
		.raw_cand = w->rmed_b,
		.ctx = (int)w->ctx,
		.primary = w->primary,
		.p_eq = w->p_eq,
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
		free(r->rows[i].ra);
		free(r->rows[i].rb);
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
