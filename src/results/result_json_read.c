/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * result_json_read.c - a JSON result file (docs/json-format.md) read
 * back into a struct result; every field is checked and a bad one named.
 */
#include "result_json_read_impl.h"

#include <stdio.h>
#include <stdlib.h>

#include "result_foreign.h"

int result_parse_json(const char *name, const char *text, size_t len,
		      struct result **out, char *err, size_t errlen)
{
	struct reader rd = { .name = name, .err = err, .errlen = errlen };
	json_error_t je;
	json_t *doc, *sum, *ops, *cfg, *v;
	struct result *r;
	const char *st;
	char msg[200];
	size_t i;
	int fv;

	doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!doc) {
		snprintf(err, errlen, "%s:%d:%d: %s", name, je.line, je.column,
			 je.text);
		return -1;
	}
	r = result_new();
	if (!r || !json_is_object(doc)) {
		rerr(&rd, r ? "not a JSON object" : "out of memory");
		goto fail;
	}
	fv = get_int(&rd, doc, "", "format_version", 0, INT32_MAX);
	if (!rd.failed && fv != RESULT_FORMAT_VERSION) {
		rerr(&rd, "format_version %d is not supported (this dbench-ng "
		     "reads %d)", fv, RESULT_FORMAT_VERSION);
		goto fail;
	}
	r->tool = get_str(&rd, doc, "", "tool");
	r->version = get_str(&rd, doc, "", "version");
	r->commit = get_str(&rd, doc, "", "commit");
	r->start_time = get_str(&rd, doc, "", "start_time");
	v = get(&rd, doc, "", "command_line", JSON_ARRAY);
	if (v && json_array_size(v)) {
		r->argv = calloc(json_array_size(v), sizeof(char *));
		r->argc = r->argv ? get_strings(&rd, doc, "command_line",
						r->argv, INT32_MAX) : 0;
	}
	st = json_string_value(json_object_get(doc, "status"));
	if (!result_status_parse(st, &r->status)) {
		rerr(&rd, "field 'status' is not ok, interrupted, failed or "
		     "running");
		goto fail;
	}
	v = json_object_get(doc, "signal");
	r->signal = json_is_integer(v) ? (int)json_integer_value(v) : 0;
	if (r->status == RESULT_RUNNING) /* a checkpoint */
		r->covers_s = get_num(&rd, doc, "", "covers_s");
	r->nerrors = get_strings(&rd, doc, "errors", r->errors,
				 RESULT_MAX_MSGS);
	cfg = get(&rd, doc, "", "config", JSON_OBJECT);
	read_config(&rd, cfg, r);
	read_env(&rd, get(&rd, doc, "", "environment", JSON_OBJECT), &r->env);
	sum = get(&rd, doc, "", "summary", JSON_OBJECT);
	if (sum) {
		r->throughput = get_figure(&rd, sum, "summary.",
					   "throughput_mbps");
		r->max_latency_ms = get_figure(&rd, sum, "summary.",
					       "max_latency_ms");
		r->warmup_s = get_figure(&rd, sum, "summary.", "warmup_s");
		r->measured_s = get_figure(&rd, sum, "summary.", "measured_s");
		r->nwarn = get_u64(&rd, sum, "summary.", "unexpected_results");
		r->nwarn_msgs = get_strings(&rd, sum, "unexpected_messages",
					    r->warn_msgs, RESULT_MAX_MSGS);
	}
	r->has_bins = get_bool(&rd, doc, "", "has_bins");
	read_resp(&rd, json_object_get(doc, "response"), r);
	ops = get(&rd, doc, "", "ops", JSON_ARRAY);
	json_array_foreach(ops, i, v) {
		if (!json_is_object(v)) {
			rerr(&rd, "ops[%zu] is not an object", i);
			break;
		}
		read_op(&rd, v, r);
	}
	read_clients(&rd, get(&rd, doc, "", "clients", JSON_ARRAY), r);
	read_series(&rd, get(&rd, doc, "", "time_series", JSON_OBJECT), r);
	read_stalls(&rd, json_object_get(doc, "stalls"), r);
	read_disturb(&rd, json_object_get(doc, "disturbance"), r);
	read_hosts(&rd, json_object_get(doc, "hosts"), r);
	if (!rd.failed && result_foreign_read(json_object_get(doc, "foreign"),
					      &r->foreign, msg, sizeof(msg)))
		rerr(&rd, "%s", msg);
	old_stall_threshold(cfg, r);
	if (rd.failed)
		goto fail;
	json_decref(doc);
	*out = r;
	return 0;
fail:
	json_decref(doc);
	result_free(r);
	return -1;
}
