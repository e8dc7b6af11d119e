/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * result_json_read_ops.c - a JSON result's per-op figures read back:
 * the ops and their histograms, the clients, the response object of a
 * paced run and the hosts of a run across hosts.
 */
#include "result_json_read_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The histogram object @lat, key @key ("lat_ns", "resp_ns") of op @op,
 * into @h, whose count the caller set. */
static void read_hist(struct reader *rd, json_t *lat, const char *key, int op,
		      struct hist *h, bool has_bins)
{
	char w[32];
	json_t *bins, *pair;
	uint64_t n = 0;
	size_t i;

	snprintf(w, sizeof(w), "ops[].%s.", key);
	h->min = get_u64(rd, lat, w, "min");
	h->max = get_u64(rd, lat, w, "max");
	h->sum = get_u64(rd, lat, w, "sum");
	h->overflow = get_u64(rd, lat, w, "overflow");
	bins = get(rd, lat, w, "bins", JSON_ARRAY);
	json_array_foreach(bins, i, pair) {
		json_t *lo = json_array_get(pair, 0), *c = json_array_get(pair, 1);
		unsigned int b;

		if (!json_is_integer(lo) || !json_is_integer(c) ||
		    json_integer_value(lo) < 0 || json_integer_value(c) < 0 ||
		    (uint64_t)json_integer_value(lo) >= HIST_LIMIT) {
			rerr(rd, "ops[%s].%s.bins[%zu] is not a pair of "
			     "non-negative integers in range", op_info[op].label,
			     key, i);
			return;
		}
		b = hist_index((uint64_t)json_integer_value(lo));
		if (hist_bucket_lo(b) != (uint64_t)json_integer_value(lo)) {
			rerr(rd, "ops[%s].%s.bins[%zu]: %lld is not the "
			     "start of a bucket", op_info[op].label, key, i,
			     (long long)json_integer_value(lo));
			return;
		}
		h->bins[b] += (uint64_t)json_integer_value(c);
		n += (uint64_t)json_integer_value(c);
	}
	if (has_bins && n + h->overflow != h->count)
		rerr(rd, "ops[%s]%s%s: the bins hold %llu values, count is "
		     "%llu", op_info[op].label, strcmp(key, "lat_ns") ? "." : "",
		     strcmp(key, "lat_ns") ? key : "",
		     (unsigned long long)(n + h->overflow),
		     (unsigned long long)h->count);
}

/* An op's response times: optional, and only in a paced run's result
 * (its "response" object, read first). */
static void read_resp_op(struct reader *rd, json_t *o, struct result *r,
			 int op)
{
	json_t *rt = json_object_get(o, "resp_ns");
	struct result_resp *rr = &r->resp;
	const char *w = "ops[].resp_ns.";

	if (!rt)
		return;
	if (!json_is_object(rt) || !rr->valid) {
		rerr(rd, "ops[%s].resp_ns: %s", op_info[op].label,
		     rr->valid ? "not an object"
			       : "response times without a 'response' object");
		return;
	}
	rr->h[op].count = get_u64(rd, rt, w, "count");
	rr->late[op] = get_u64(rd, rt, w, "late_starts");
	rr->late_max_ns[op] = get_u64(rd, rt, w, "late_max_ns");
	read_hist(rd, rt, "resp_ns", op, &rr->h[op], true);
}

/* An op's own latencies and foreign wait (BPF): optional, absent in
 * older results and in runs without the accounting */
static void read_own_op(struct reader *rd, json_t *o, struct result_op *ro,
			int op)
{
	json_t *ow = json_object_get(o, "own");

	if (json_object_get(o, "foreign_ns"))
		ro->foreign_ns = get_u64(rd, o, "ops[].", "foreign_ns");
	if (!ow)
		return;
	if (!json_is_object(ow)) {
		rerr(rd, "ops[%s].own: not an object", op_info[op].label);
		return;
	}
	ro->own.count = get_u64(rd, ow, "ops[].own.", "count");
	read_hist(rd, ow, "own", op, &ro->own, true);
}

void read_op(struct reader *rd, json_t *o, struct result *r)
{
	json_t *lat, *mx, *name = json_object_get(o, "name");
	struct result_op *ro;
	int op;

	if (!json_is_string(name) ||
	    (op = op_by_label(json_string_value(name))) < 0) {
		rerr(rd, "ops[]: 'name' is not an operation");
		return;
	}
	if (rd->seen_op[op]) {
		rerr(rd, "ops[]: '%s' appears twice", op_info[op].label);
		return;
	}
	rd->seen_op[op] = true;
	ro = &r->op[op];
	ro->h.count = get_u64(rd, o, "ops[].", "count");
	ro->errors = get_u64(rd, o, "ops[].", "errors");
	ro->bytes = get_u64(rd, o, "ops[].", "bytes");
	if (json_object_get(o, "not_executed")) { /* optional */
		ro->not_run = get_u64(rd, o, "ops[].", "not_executed");
		ro->not_run_why = get_str(rd, o, "ops[].",
					  "not_executed_reason");
	}
	lat = get(rd, o, "ops[].", "lat_ns", JSON_OBJECT);
	if (!lat)
		return;
	read_hist(rd, lat, "lat_ns", op, &ro->h, r->has_bins);
	if (rd->failed)
		return;
	read_resp_op(rd, o, r, op);
	read_own_op(rd, o, ro, op);
	mx = json_object_get(o, "max_op");
	if (json_is_object(mx)) {
		json_t *v = json_object_get(mx, "client");

		if (json_is_integer(v)) {
			ro->max_client = (int)json_integer_value(v);
			ro->max_at_s = json_number_value(
				json_object_get(mx, "at_s"));
		}
		v = json_object_get(mx, "line");
		if (json_is_integer(v))
			ro->max_line = (uint32_t)json_integer_value(v);
		ro->max_file = get_str(rd, mx, "max_op.", "file");
		ro->max_path = get_str(rd, mx, "max_op.", "path");
	}
}

void read_clients(struct reader *rd, json_t *a, struct result *r)
{
	json_t *c;
	size_t i;

	if (!a || !json_array_size(a))
		return;
	r->clients = calloc(json_array_size(a), sizeof(*r->clients));
	if (!r->clients) {
		rerr(rd, "out of memory");
		return;
	}
	r->nclients = (int)json_array_size(a);
	json_array_foreach(a, i, c) {
		struct result_client *rc = &r->clients[i];
		json_t *ops = get(rd, c, "clients[].", "ops", JSON_OBJECT);
		char what[48];

		rc->lines = get_u64(rd, c, "clients[].", "lines");
		rc->bytes = get_u64(rd, c, "clients[].", "bytes");
		snprintf(what, sizeof(what), "clients[%zu].ops", i);
		read_opmap(rd, ops, &jm_client_ops, rc, what);
		if (rd->failed)
			return;
	}
}

/* A paced run's "response" object; absent in unpaced runs and older
 * results (no response times at all).  Its totals are derived again
 * from the ops, not read. */
void read_resp(struct reader *rd, json_t *o, struct result *r)
{
	struct result_resp *rr = &r->resp;
	const char *w = "response.";

	if (!o)
		return;
	if (!json_is_object(o)) {
		rerr(rd, "field 'response' is not an object");
		return;
	}
	if (!resp_pacing_parse(json_string_value(json_object_get(o, "pacing")),
			       &rr->pacing)) {
		rerr(rd, "field 'response.pacing' is not rate or timestamps");
		return;
	}
	rr->late_ms = get_num(rd, o, w, "late_ms");
	if (!(rr->late_ms >= 0))
		rerr(rd, "field 'response.late_ms' is negative");
	if (!r->has_bins)
		rerr(rd, "field 'response': response times without the "
			 "histograms (has_bins is false)");
	rr->valid = true;
}

/* The hosts of a run across hosts; absent for one host. */
void read_hosts(struct reader *rd, json_t *a, struct result *r)
{
	const char *w = "hosts[].";
	json_t *x;
	size_t i;

	if (!a)
		return;
	if (!json_is_array(a)) {
		rerr(rd, "field 'hosts' is not an array");
		return;
	}
	if (!json_array_size(a))
		return;
	r->hosts = calloc(json_array_size(a), sizeof(*r->hosts));
	if (!r->hosts) {
		rerr(rd, "out of memory");
		return;
	}
	json_array_foreach(a, i, x) {
		struct result_host *h = &r->hosts[i];
		json_t *ops;
		const char *st;
		char what[48];

		r->nhosts = (int)i + 1;
		h->name = get_str(rd, x, w, "host");
		h->rank = get_int(rd, x, w, "rank", 0, INT32_MAX);
		h->first_client = get_int(rd, x, w, "first_client", 0,
					  INT32_MAX);
		h->clients = get_int(rd, x, w, "clients", 0, INT32_MAX);
		st = json_string_value(json_object_get(x, "status"));
		if (!result_status_parse(st, &h->status))
			rerr(rd, "hosts[%zu].status is not ok, interrupted, "
			     "failed or running", i);
		h->throughput = get_num(rd, x, w, "throughput_mbps");
		h->release_ms = get_num(rd, x, w, "release_ms");
		h->release_err_ms = get_num(rd, x, w, "release_err_ms");
		ops = get(rd, x, w, "ops", JSON_OBJECT);
		snprintf(what, sizeof(what), "hosts[%zu].ops", i);
		read_opmap(rd, ops, &jm_host_ops, h, what);
		if (rd->failed)
			return;
	}
}
