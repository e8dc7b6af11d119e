/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare_json.c - the comparison as a JSON document ("format":
 * "dbench-ng-compare"), for scripts; the keys are in docs/regressions.md.
 */
#include "compare_impl.h"

#include <math.h>

#include <jansson.h>

#include "result_json.h"

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

static const char *ctx_name(enum cmp_ctx c)
{
	switch (c) {
	case CMP_CTX_RATE:
		return "rate";
	case CMP_CTX_COVER:
		return "coverage";
	case CMP_CTX_RAW:
		return "raw_only";
	case CMP_CTX_NONE:
		break;
	}
	return NULL;
}

/* what row @w adds to the document's row @o beyond the table: its own
 * figures, why it is context only, its equivalence bound */
static void row_extra(const struct cmp_report *r, const struct cmp_row *w,
		      json_t *o)
{
	const char *c = ctx_name(w->ctx);

	if (!o)
		return;
	json_object_set_new(o, "context", c ? json_string(c) : json_null());
	json_object_set_new(o, "own_baseline",
			    w->ra ? jvalues(w->a, r->na) : json_null());
	json_object_set_new(o, "own_candidate",
			    w->ra ? jvalues(w->b, r->nb) : json_null());
	json_object_set_new(o, "own_change",
			    w->ra ? jnum(w->change) : json_null());
	json_object_set_new(o, "primary", json_boolean(w->primary));
	json_object_set_new(o, "p_equivalence", jnum(w->p_eq));
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
		json_t *o;

		o = json_pack("{s:s,s:s,s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:o,"
			      "s:b,s:o,s:o,s:s,s:b,s:o}",
			      "op", cmp_op_name(w->op), "metric",
			      cmp_metric[w->metric].name, "worse",
			      cmp_higher_worse(w->metric) ? "higher" : "lower",
			      "baseline", jvalues(w->ra ? w->ra : w->a, r->na),
			      "candidate", jvalues(w->rb ? w->rb : w->b, r->nb),
			      "baseline_median", jnum(w->rmed_a),
			      "candidate_median", jnum(w->rmed_b), "change",
			      jnum(w->rchange), "p", jnum(w->p), "p_holm",
			      jnum(w->p_holm), "in_family", w->tested, "ci_low",
			      jnum(w->ci_lo), "ci_high", jnum(w->ci_hi),
			      "verdict", v, "eligible", w->eligible, "min_ops",
			      w->op < 0
				      ? json_null()
				      : json_integer((json_int_t)w->min_count));
		row_extra(r, w, o);
		json_array_append_new(rows, o);
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
	json_object_set_new(doc, "own_latencies", json_boolean(r->own));
	json_object_set_new(doc, "coverage_differs", json_boolean(r->cover));
	json_object_set_new(doc, "equivalent", json_boolean(r->equiv));
	json_object_set_new(doc, "equivalence_level", jnum(r->eq_level));
	json_object_set_new(
		doc, "machine",
		json_pack("{s:{s:i,s:i,s:f,s:f},s:{s:i,s:i,s:f,s:f}}",
			  "baseline", "runs_recorded", r->machine_runs[0],
			  "runs_busy", r->disturbed[0], "other_cpus_max",
			  r->other_max[0], "steal_pct_max", r->steal_max[0],
			  "candidate", "runs_recorded", r->machine_runs[1],
			  "runs_busy", r->disturbed[1], "other_cpus_max",
			  r->other_max[1], "steal_pct_max", r->steal_max[1]));
	json_object_set_new(doc, "metrics", rows);
	return doc;
}

int cmp_write_json(const struct cmp_report *r, const char *path, char *err,
		   size_t len)
{
	return result_dump_json(report_json(r), path, err, len);
}
