/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * result_json_write.c - a result as its JSON file (docs/json-format.md).
 *
 * Everything a report needs is stored, so "dbench-ng report" re-renders
 * the live run's text exactly: per op the exact count, sum, min, max and
 * the non-empty histogram bins (percentiles are recomputed from them),
 * the per-client figures, the warnings, the time series, the config and
 * the environment.  result_json_read.c reads it back.
 *
 * The parts are written by result_json_write_env.c (config and
 * environment), result_json_write_ops.c (ops, clients, hosts) and
 * result_json_write_stalls.c (time series, stalls, disturbance); this
 * file puts them together and writes the file.
 */
#include "result_json.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "file_replace.h"
#include "result_json_write_impl.h"
#include "result_foreign.h"

static json_t *strings(char *const *v, int n)
{
	json_t *a = json_array();

	for (int i = 0; i < n; i++)
		json_array_append_new(a, str_or_null(v[i]));
	return a;
}

static json_t *result_json(const struct result *r, const char *path)
{
	json_t *o = json_object(), *sum = json_object(), *ops = json_array();
	uint64_t nops = 0, bytes = 0;

	set(o, "format_version", json_integer(RESULT_FORMAT_VERSION));
	set(o, "tool", str_or_null(r->tool));
	set(o, "version", str_or_null(r->version));
	set(o, "commit", str_or_null(r->commit));
	set(o, "start_time", str_or_null(r->start_time));
	set(o, "command_line", strings(r->argv, r->argc));
	set(o, "status", json_string(result_status_name(r->status)));
	set(o, "signal", r->signal ? json_integer(r->signal) : json_null());
	if (r->status == RESULT_RUNNING) /* a checkpoint: what it covers */
		set(o, "covers_s", json_real(r->covers_s));
	set(o, "errors", strings(r->errors, r->nerrors));
	set(o, "config", config_json(&r->cfg, path));
	set(o, "environment", env_json(&r->env));
	for (int i = 0; i < OP_NR; i++) {
		nops += r->op[i].h.count;
		bytes += r->op[i].bytes;
	}
	set(sum, "throughput_mbps", json_real(r->throughput));
	set(sum, "max_latency_ms", json_real(r->max_latency_ms));
	set(sum, "warmup_s", json_real(r->warmup_s));
	set(sum, "measured_s", json_real(r->measured_s));
	set(sum, "clients", json_integer(r->cfg.nclients));
	set(sum, "procs", json_integer(r->cfg.nprocs));
	set(sum, "ops", u64(nops));
	set(sum, "bytes", u64(bytes));
	set(sum, "unexpected_results", u64(r->nwarn));
	set(sum, "unexpected_messages", strings(r->warn_msgs, r->nwarn_msgs));
	set(o, "summary", sum);
	set(o, "has_bins", json_boolean(r->has_bins));
	for (int i = 0; i < OP_NR; i++) {
		if (r->op[i].h.count || r->op[i].errors || r->op[i].not_run)
			json_array_append_new(ops, op_json(r, i));
	}
	set(o, "ops", ops);
	set(o, "clients", clients_json(r));
	set(o, "time_series", series_json(r));
	set(o, "stalls", stalls_json(&r->stalls));
	set(o, "disturbance", disturb_json(&r->disturb));
	set(o, "foreign", result_foreign_json(&r->foreign));
	if (r->resp.valid)
		set(o, "response", resp_json(&r->resp));
	if (r->nhosts)
		set(o, "hosts", hosts_json(r));
	return o;
}

static int emit_json(FILE *f, const void *doc)
{
	json_t *d = (json_t *)doc;

	return json_dumpf(d, f, JSON_INDENT(1)) || fputc('\n', f) == EOF ? -1
									 : 0;
}

int result_dump_json(json_t *doc, const char *path, char *err, size_t errlen)
{
	int rc;

	if (!doc) {
		snprintf(err, errlen, "--json %s: out of memory", path);
		return -1;
	}
	rc = file_replace(path, "--json", emit_json, doc, err, errlen);
	json_decref(doc);
	return rc;
}

int result_write_json(const struct result *r, const char *path, char *err,
		      size_t errlen)
{
	return result_dump_json(result_json(r, path), path, err, errlen);
}

int result_write_json_pending(const struct result *r, struct file_pending *p,
			      char *err, size_t errlen)
{
	json_t *doc = result_json(r, p->path);
	int rc;

	if (!doc) {
		file_replace_abort(p);
		snprintf(err, errlen, "--json %s: out of memory", p->path);
		return -1;
	}
	rc = file_replace_end(p, emit_json, doc, err, errlen);
	json_decref(doc);
	return rc;
}

char *result_json_text(const struct result *r, const char *path, size_t *len)
{
	json_t *doc = result_json(r, path);
	char *text;

	if (!doc)
		return NULL;
	text = json_dumps(doc, JSON_COMPACT);
	json_decref(doc);
	if (text)
		*len = strlen(text);
	return text;
}

json_t *result_json_doc(const struct result *r, const char *path)
{
	return result_json(r, path);
}

int result_json_emit(FILE *f, const void *doc)
{
	return emit_json(f, doc);
}
