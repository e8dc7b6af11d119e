/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare.c - `dbench-ng compare BASELINE... -- CANDIDATE...` as a library:
 * pair the ops of two sets of runs, one row per op and metric with a value
 * per run (the notes on what differs between the runs on the way), then
 * have compare_decide.c judge the rows and compare_reason.c say why.
 */
#include "compare_impl.h"
#include "compare_test.h"
#include "compare_workload.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"
#include "sigtest.h"
#include "str_clean.h"

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

static bool str_eq(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

/* Did @x run another backend, version or backend options than @ref?  What
 * a result does not record (a dbench log, an older JSON file) is no
 * difference. */
static bool other_backend(const struct result *x, const struct result *ref)
{
	const struct config *a = &x->cfg, *b = &ref->cfg;

	if (!a->backend || !b->backend)
		return false;
	return strcmp(a->backend, b->backend) ||
	       (a->backend_version && b->backend_version &&
		a->backend_version != b->backend_version) ||
	       !str_eq(a->backend_opts, b->backend_opts);
}

const char *cmp_paths_of(const struct result *x)
{
	if (x->cfg.paths)
		return x->cfg.paths;
	if (!x->tool || strcmp(x->tool, "dbench-ng"))
		return "full"; /* dbench 4.0 itself */
	return x->has_bins ? "dirfd" : NULL;
}

void cmp_paths_say(char *err, size_t len, const char *a, const char *pa,
		   const char *b, const char *pb)
{
	snprintf(err, len,
		 "%s ran --paths %s and %s --paths %s: --paths dirfd asks less "
		 "of the kernel, so their numbers are not comparable",
		 a, pa, b, pb);
	str_clean_buf(err, len); /* a result's mode: any string */
}

bool cmp_paths_differ(struct result *const *res, const char *const *names,
		      int n, char *err, size_t len)
{
	const char *ref = NULL, *p;
	int r = -1;

	for (int i = 0; i < n; i++) {
		p = cmp_paths_of(res[i]);
		if (!p)
			continue;
		if (!ref) {
			ref = p;
			r = i;
		} else if (strcmp(p, ref)) {
			cmp_paths_say(
				err, len,
				names && names[r] ? names[r] : "one run", ref,
				names && names[i] ? names[i] : "another", p);
			return true;
		}
	}
	return false;
}

/* Count what the machine did during run @x of side @s; a note for a run
 * whose machine was disturbed beyond the bound. */
static void machine_of(struct cmp_report *r, int s, const struct result *x,
		       const char *who)
{
	const struct result_disturb *d = &x->disturb;

	if (!d->valid)
		return;
	r->machine_runs[s]++;
	if (d->other_cpus > r->other_max[s])
		r->other_max[s] = d->other_cpus;
	if (d->steal_pct > r->steal_max[s])
		r->steal_max[s] = d->steal_pct;
	if (!result_disturbed(d))
		return;
	r->disturbed[s]++;
	cmp_note(r,
		 "%s ran on a busy machine: other processes used %.2f CPUs, "
		 "%.1f %% of the CPU time was stolen (bound %.1f CPUs, %.0f "
		 "%%): its figures may be the machine's, not the system's "
		 "under test",
		 who, d->other_cpus, d->steal_pct > 0 ? d->steal_pct : 0.0,
		 DISTURB_OTHER_CPUS, DISTURB_STEAL_PCT);
}

/* The options of @x that change what is asked of the kernel, as on a
 * command line; a dbench text log tells only -s and -S (its Throughput
 * line), so with @log only those. */
static void mode_text(const struct result *x, bool log, char *buf,
		      size_t len)
{
	const struct config *c = &x->cfg;

	snprintf(buf, len, "%s%s%s%s%s%s%s%s", c->sync_open ? " -s" : "",
		 c->sync_dirs ? " -S" : "",
		 !log && c->fsync_writes ? " -F" : "",
		 !log && c->xattr ? " -x" : "",
		 !log && c->no_resolve ? " --no-resolve" : "",
		 !log && c->stat_check ? " --stat-check" : "",
		 !log && c->one_byte_fix ? " --one-byte-write-fix" : "",
		 !log && c->fake_io ? " --fake-io" : "");
}

/* Did @x run another loadfile than @ref?  (compare_workload.c) */
static bool other_loadfile(const struct result *x, const struct result *ref)
{
	struct cmp_workload a, b;

	cmp_workload_of(x, &a);
	cmp_workload_of(ref, &b);
	return !cmp_workload_same(&a, &b);
}

/* The ops @x did not run (backend.h: not_run), a bit each */
_Static_assert(OP_NR <= 64, "not_run_mask has a bit per op");
static uint64_t not_run_mask(const struct result *x)
{
	uint64_t m = 0;

	for (int i = 0; i < OP_NR; i++)
		m |= x->op[i].not_run ? 1ull << i : 0;
	return m;
}

/* Differ, where both are known? */
static bool differ(const char *a, const char *b)
{
	return a && b && strcmp(a, b);
}

/* Response times are compared only where every run has them (a paced
 * run's); say so when some runs have them and others not, and when the
 * runs that have them were paced otherwise than the first of them. */
static void resp_notes(struct cmp_report *r, struct result **base,
		       struct result **cand)
{
	struct result **side[2] = {base, cand};
	int n[2] = {r->na, r->nb}, paced[2] = {0, 0}, other = 0;
	const struct result *ref = NULL;

	for (int s = 0; s < 2; s++) {
		for (int i = 0; i < n[s]; i++) {
			const struct result *x = side[s][i];

			if (!x->resp.valid)
				continue;
			paced[s]++;
			if (!ref)
				ref = x;
			else if (x->resp.pacing != ref->resp.pacing ||
				 x->cfg.target_rate != ref->cfg.target_rate)
				other++;
		}
	}
	if ((paced[0] || paced[1]) &&
	    (paced[0] < r->na || paced[1] < r->nb))
		cmp_note(r,
			 "response times (of paced runs: -R or loadfile "
			 "timestamps) in %d of %d baseline and %d of %d "
			 "candidate runs: compared only where every run has "
			 "them, so not here",
			 paced[0], r->na, paced[1], r->nb);
	if (other && ref->resp.pacing == RESP_RATE)
		cmp_note(r,
			 "%d of the %d paced runs were paced otherwise than "
			 "the first of them (-R %g): their intended starts "
			 "differ",
			 other, paced[0] + paced[1], ref->cfg.target_rate);
	else if (other)
		cmp_note(r,
			 "%d of the %d paced runs were paced otherwise than "
			 "the first of them (by the loadfile's timestamps): "
			 "their intended starts differ",
			 other, paced[0] + paced[1]);
}

static void config_notes(struct cmp_report *r, struct result **base,
			 struct result **cand)
{
	struct result **side[2] = {base, cand};
	int n[2] = {r->na, r->nb}, logs = 0, clients = 0, lf = 0, be = 0;
	int modes = 0, kernels = 0, fss = 0, notrun = 0;
	const struct result *ref = base[0];
	char who[512], ma[160], mb[160];

	for (int s = 0; s < 2; s++) {
		for (int i = 0; i < n[s]; i++) {
			const struct result *x = side[s][i];

			cmp_run_name(r, s, i, who, sizeof(who));
			if (x->status == RESULT_INTERRUPTED)
				cmp_note(r,
					 "%s was interrupted: partial figures",
					 who);
			else if (x->status == RESULT_FAILED)
				cmp_note(r, "%s failed: partial figures", who);
			else if (x->status == RESULT_RUNNING)
				cmp_note(r,
					 "%s is a checkpoint of a run that "
					 "had not ended (still running, or "
					 "killed): partial figures",
					 who);
			machine_of(r, s, x, who);
			logs += !x->has_bins;
			clients += x->cfg.nclients != ref->cfg.nclients;
			be += other_backend(x, ref);
			lf += other_loadfile(x, ref);
			mode_text(x, !x->has_bins || !ref->has_bins, ma,
				  sizeof(ma));
			mode_text(ref, !x->has_bins || !ref->has_bins, mb,
				  sizeof(mb));
			modes += strcmp(ma, mb) != 0;
			kernels += differ(x->env.kernel, ref->env.kernel);
			fss += differ(x->env.fs_type, ref->env.fs_type);
			notrun += not_run_mask(x) != not_run_mask(ref);
			if (!x->has_bins && x->cfg.timelimit <= 0) {
				cmp_note(r,
					 "%s is a dbench log without its "
					 "'Running for' line: its measured "
					 "time is unknown, so its ops/s are "
					 "not compared",
					 who);
			}
		}
	}
	if (modes) {
		mode_text(ref, false, mb, sizeof(mb));
		cmp_note(r,
			 "%d of the %d runs ran other options than baseline "
			 "run 1 (%s): another load on the kernel",
			 modes, r->na + r->nb, *mb ? mb + 1 : "none of -s -S -F "
			 "-x --no-resolve --stat-check --one-byte-write-fix "
			 "--fake-io");
	}
	if (kernels)
		cmp_note(r,
			 "%d of the %d runs ran on another kernel than "
			 "baseline run 1 (%s)",
			 kernels, r->na + r->nb, ref->env.kernel);
	if (fss)
		cmp_note(r,
			 "%d of the %d runs ran on another filesystem type "
			 "than baseline run 1 (%s)",
			 fss, r->na + r->nb, ref->env.fs_type);
	if (clients)
		cmp_note(r,
			 "%d of the %d runs ran another number of clients than "
			 "baseline run 1 (%d)",
			 clients, r->na + r->nb, ref->cfg.nclients);
	if (be) {
		char ver[32] = "not recorded";

		if (ref->cfg.backend_version)
			snprintf(ver, sizeof(ver), "%d",
				 ref->cfg.backend_version);
		cmp_note(r,
			 "%d of the %d runs ran another backend, backend "
			 "version or backend options than baseline run 1 (%s "
			 "version %s%s%s)",
			 be, r->na + r->nb, ref->cfg.backend, ver,
			 ref->cfg.backend_opts ? ", options " : "",
			 ref->cfg.backend_opts ? ref->cfg.backend_opts : "");
	}
	if (notrun) {
		uint64_t m = not_run_mask(ref);
		char ops[160] = "";
		size_t k = 0;

		for (int i = 0; i < OP_NR && k < sizeof(ops); i++) {
			if (m >> i & 1)
				k += (size_t)snprintf(ops + k, sizeof(ops) - k,
						      "%s%s", k ? " " : "",
						      op_info[i].label);
		}
		cmp_note(r,
			 "%d of the %d runs did not run other ops than "
			 "baseline run 1 (%s%s): they measured another mix "
			 "of ops",
			 notrun, r->na + r->nb, k ? "not run there: " : "",
			 k ? ops : "it ran every op");
	}
	if (lf)
		cmp_note(r,
			 "%d of the %d runs ran another loadfile than baseline "
			 "run 1 (%s%s)",
			 lf, r->na + r->nb,
			 ref->cfg.loadfile ? ref->cfg.loadfile : "?",
			 ref->env.nloadfiles ? "; the sha256 or name differs"
					     : "; the name differs");
	if (logs)
		cmp_note(r,
			 "%d of the %d runs are dbench text logs: only ops/s, "
			 "mean, max and MB/s can be compared",
			 logs, r->na + r->nb);
	resp_notes(r, base, cand);
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
	config_notes(r, base, cand);
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
