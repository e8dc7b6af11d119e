/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * result_json_write_ops.c - a result's per-op figures as its JSON file
 * has them: the ops and their histograms, the per-op maps
 * (result_json_maps.h), the clients, the response object of a paced run
 * and the hosts of a run across hosts.
 */
#include "result_json_write_impl.h"

#include <math.h>
#include <stdio.h>

#include "percentiles.h"

static const double json_pcts[] = {PCT_STORED};

/* Standard deviation estimated from the bins (midpoints). */
static double hist_stddev(const struct hist *h)
{
	double mean = hist_mean(h), acc = 0;
	uint64_t n = 0;

	for (unsigned int i = 0; i < HIST_BUCKETS; i++) {
		double mid, dv;

		if (!h->bins[i])
			continue;
		mid = (double)hist_bucket_lo(i) +
		      (double)(hist_bucket_width(i) - 1) / 2.0;
		dv = mid - mean;
		acc += dv * dv * (double)h->bins[i];
		n += h->bins[i];
	}
	return n > 1 ? sqrt(acc / (double)(n - 1)) : 0;
}

/* A histogram's object: "lat_ns" (service time) or "resp_ns" (response
 * time) of an op. */
static json_t *hist_json(const struct result *r, const struct hist *h)
{
	json_t *lat = json_object(), *p = json_object(), *bins = json_array();
	char key[32];

	set(lat, "min", u64(h->count ? h->min : 0));
	set(lat, "mean", json_real(hist_mean(h)));
	set(lat, "stddev", json_real(r->has_bins ? hist_stddev(h) : 0));
	set(lat, "max", u64(h->max));
	set(lat, "sum", u64(h->sum));
	if (r->has_bins) {
		for (size_t k = 0; k < sizeof(json_pcts) / sizeof(*json_pcts);
		     k++) {
			snprintf(key, sizeof(key), "%g", json_pcts[k]);
			set(p, key, u64(hist_value_at(h, json_pcts[k])));
		}
		for (unsigned int b = 0; b < HIST_BUCKETS; b++) {
			json_t *pair;

			if (!h->bins[b])
				continue;
			pair = json_array();
			json_array_append_new(pair, u64(hist_bucket_lo(b)));
			json_array_append_new(pair, u64(h->bins[b]));
			json_array_append_new(bins, pair);
		}
	}
	set(lat, "percentiles", p);
	set(lat, "overflow", u64(h->overflow));
	set(lat, "bins", bins);
	return lat;
}

json_t *op_json(const struct result *r, int i)
{
	const struct result_op *ro = &r->op[i];
	const struct hist *h = &ro->h;
	json_t *o = json_object(), *mx = json_object();

	set(o, "name", json_string(op_info[i].label));
	set(o, "count", u64(h->count));
	set(o, "errors", u64(ro->errors));
	set(o, "bytes", u64(ro->bytes));
	if (ro->not_run) { /* optional: only an op the backend cannot run */
		set(o, "not_executed", u64(ro->not_run));
		set(o, "not_executed_reason", str_or_null(ro->not_run_why));
	}
	set(o, "lat_ns", hist_json(r, h));
	if (ro->own.count) { /* optional: own latencies (BPF) */
		json_t *ow = hist_json(r, &ro->own);

		set(ow, "count", u64(ro->own.count));
		set(o, "own", ow);
	}
	if (r->foreign.method != FOREIGN_NONE)
		set(o, "foreign_ns", u64(ro->foreign_ns));
	if (r->resp.valid && r->resp.h[i].count) {
		json_t *rt = hist_json(r, &r->resp.h[i]);

		set(rt, "count", u64(r->resp.h[i].count));
		set(rt, "late_starts", u64(r->resp.late[i]));
		set(rt, "late_max_ns", u64(r->resp.late_max_ns[i]));
		set(o, "resp_ns", rt);
	}
	set(mx, "at_s",
	    ro->max_client >= 0 ? json_real(ro->max_at_s) : json_null());
	set(mx, "client",
	    ro->max_client >= 0 ? json_integer(ro->max_client) : json_null());
	set(mx, "line",
	    ro->max_line ? json_integer(ro->max_line) : json_null());
	set(mx, "file", str_or_null(ro->max_file));
	set(mx, "path", str_or_null(ro->max_path));
	set(o, "max_op", mx);
	return o;
}

/* A per-op map of @base (result_json_maps.h): an object per op, or for
 * a map with a shape an array in the order of its fields */
json_t *opmap_json(const struct jm_map *m, const void *base)
{
	json_t *ops = json_object();

	for (int i = 0; i < OP_NR; i++) {
		json_t *x;

		if (!jm_present(m, base, i))
			continue;
		x = m->shape ? json_array() : json_object();
		for (const struct jm_field *f = m->f; f->name; f++) {
			json_t *v = f->kind == JM_U64
					    ? u64(*jm_u64(f, base, i))
					    : json_real(*jm_num(f, base, i));

			if (m->shape)
				json_array_append_new(x, v);
			else
				set(x, f->name, v);
		}
		set(ops, op_info[i].label, x);
	}
	return ops;
}

/* The names of an array map's fields, in their order: its op_fields */
json_t *opmap_fields(const struct jm_map *m)
{
	json_t *a = json_array();

	for (const struct jm_field *f = m->f; f->name; f++)
		json_array_append_new(a, json_string(f->name));
	return a;
}

json_t *clients_json(const struct result *r)
{
	json_t *a = json_array();

	for (int c = 0; c < r->nclients && r->clients; c++) {
		const struct result_client *rc = &r->clients[c];
		json_t *o = json_object();

		set(o, "client", json_integer(c));
		set(o, "lines", u64(rc->lines));
		set(o, "bytes", u64(rc->bytes));
		set(o, "ops", opmap_json(&jm_client_ops, rc));
		json_array_append_new(a, o);
	}
	return a;
}

/* A paced run: how it was paced, the tolerance of a late start, and the
 * totals over the ops (per op: ops[].resp_ns) */
json_t *resp_json(const struct result_resp *rr)
{
	json_t *o = json_object();
	uint64_t n = 0, late = 0;

	for (int i = 0; i < OP_NR; i++) {
		n += rr->h[i].count;
		late += rr->late[i];
	}
	set(o, "pacing", json_string(resp_pacing_name(rr->pacing)));
	set(o, "late_ms", json_real(rr->late_ms));
	set(o, "ops", u64(n));
	set(o, "late_starts", u64(late));
	return o;
}

/* A run across hosts: one object per host (docs/json-format.md). */
json_t *hosts_json(const struct result *r)
{
	json_t *a = json_array();

	for (int i = 0; i < r->nhosts; i++) {
		const struct result_host *h = &r->hosts[i];
		json_t *o = json_object();

		set(o, "host", str_or_null(h->name));
		set(o, "rank", json_integer(h->rank));
		set(o, "first_client", json_integer(h->first_client));
		set(o, "clients", json_integer(h->clients));
		set(o, "status", json_string(result_status_name(h->status)));
		set(o, "throughput_mbps", json_real(h->throughput));
		set(o, "release_ms", json_real(h->release_ms));
		set(o, "release_err_ms", json_real(h->release_err_ms));
		set(o, "ops", opmap_json(&jm_host_ops, h));
		json_array_append_new(a, o);
	}
	return a;
}
