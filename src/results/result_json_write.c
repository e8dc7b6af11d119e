/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * result_json_write.c - a result as its JSON file (docs/json-format.md).
 *
 * Everything a report needs is stored, so "dbench-ng report" re-renders
 * the live run's text exactly: per op the exact count, sum, min, max and
 * the non-empty histogram bins (percentiles are recomputed from them),
 * the per-client figures, the warnings, the time series, the config and
 * the environment.  result_json_read.c reads it back.
 */
#include "result_json.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "file_replace.h"
#include "percentiles.h"
#include "result_json_maps.h"
#include "result.h"
#include "result_foreign.h"
#include "stock.h"

static const double json_pcts[] = { PCT_STORED };

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static void set(json_t *o, const char *k, json_t *v)
{
	json_object_set_new(o, k, v ? v : json_null());
}

static json_t *u64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

/* The config object: every field of the list of config.h, in its order;
 * "json" is @path, the file the result is written to (with --runs N, the
 * file of this run). */
static json_t *config_json(const struct config *cfg, const char *path)
{
	json_t *o = json_object();
	struct config c = *cfg;

	c.json = path;
	for (int i = 0; i < CFG_NR; i++) {
		const struct config_field_info *fi = &config_fields[i];
		const void *v = config_field_c(&c, i);

		switch (fi->type) {
		case CF_INT:
			set(o, fi->jkey, json_integer(*(const int *)v));
			break;
		case CF_DBL:
			set(o, fi->jkey, json_real(*(const double *)v));
			break;
		case CF_BOOL:
			set(o, fi->jkey, json_boolean(*(const bool *)v));
			break;
		case CF_STR:
			set(o, fi->jkey, str_or_null(*(const char *const *)v));
			break;
		}
	}
	return o;
}

static json_t *env_json(const struct result_env *e)
{
	json_t *o = json_object(), *d = json_object(), *l = json_array();

	set(o, "hostname", str_or_null(e->hostname));
	set(o, "kernel", str_or_null(e->kernel));
	set(o, "kernel_version", str_or_null(e->kernel_version));
	set(o, "machine", str_or_null(e->machine));
	set(o, "cpu_model", str_or_null(e->cpu_model));
	set(o, "cpus", json_integer(e->cpus));
	set(o, "memory_bytes", u64(e->mem_bytes));
	set(d, "path", str_or_null(e->dir));
	set(d, "realpath", str_or_null(e->dir_real));
	set(d, "fs_type", str_or_null(e->fs_type));
	set(d, "device", str_or_null(e->fs_device));
	set(d, "mount_point", str_or_null(e->fs_mount_point));
	set(d, "mount_options", str_or_null(e->fs_options));
	set(d, "size_bytes", u64(e->fs_size_bytes));
	set(d, "free_bytes", u64(e->fs_free_bytes));
	set(o, "directory", d);
	for (int i = 0; i < e->nloadfiles; i++) {
		json_t *f = json_object();

		set(f, "name", str_or_null(e->loadfile_name[i]));
		set(f, "sha256", str_or_null(e->loadfile_sha256[i]));
		set(f, "kind",
		    json_string(stock_kind_name(stock_kind(
			    e->loadfile_name[i], e->loadfile_sha256[i]))));
		json_array_append_new(l, f);
	}
	set(o, "loadfiles", l);
	return o;
}

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

static json_t *op_json(const struct result *r, int i)
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
	set(mx, "at_s", ro->max_client >= 0 ? json_real(ro->max_at_s)
					    : json_null());
	set(mx, "client", ro->max_client >= 0 ? json_integer(ro->max_client)
					      : json_null());
	set(mx, "line", ro->max_line ? json_integer(ro->max_line) : json_null());
	set(mx, "file", str_or_null(ro->max_file));
	set(mx, "path", str_or_null(ro->max_path));
	set(o, "max_op", mx);
	return o;
}

/* A per-op map of @base (result_json_maps.h): an object per op, or for
 * a map with a shape an array in the order of its fields */
static json_t *opmap_json(const struct jm_map *m, const void *base)
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
static json_t *opmap_fields(const struct jm_map *m)
{
	json_t *a = json_array();

	for (const struct jm_field *f = m->f; f->name; f++)
		json_array_append_new(a, json_string(f->name));
	return a;
}

static json_t *clients_json(const struct result *r)
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

static json_t *series_json(const struct result *r)
{
	json_t *o = json_object(), *pts = json_array();

	set(o, "interval_s", json_real(r->interval_s));
	for (uint32_t k = 0; k < r->npoints; k++) {
		const struct result_point *p = &r->points[k];
		json_t *x = json_object();

		set(x, "t", json_real(p->t));
		set(x, "dur", json_real(p->dur));
		set(x, "warmup", json_boolean(p->warmup));
		set(x, "lines", u64(p->lines));
		set(x, "bytes", u64(p->bytes));
		set(x, "mbps", json_real(p->dur > 0 ? (double)p->bytes / 1e6 /
							      p->dur : 0));
		set(x, "latency_ms", json_real(p->latency_ms));
		set(x, "ops", opmap_json(&jm_point_ops, p));
		if (r->resp.valid)
			set(x, "resp_ops", opmap_json(&jm_point_resp, p));
		json_array_append_new(pts, x);
	}
	set(o, "op_fields", opmap_fields(&jm_point_ops));
	if (r->resp.valid)
		set(o, "resp_op_fields", opmap_fields(&jm_point_resp));
	set(o, "points", pts);
	return o;
}

static json_t *psi_json(const struct result_psi *psi)
{
	json_t *o = json_object();

	for (int i = 0; i < PSI_NR; i++) {
		json_t *x;

		if (!psi[i].valid) {
			set(o, psi_name[i], json_null());
			continue;
		}
		x = json_object();
#define PSI_JSON_DBL(v) json_real(v)
#define PSI_JSON_U64(v) u64(v)
#define X(f, T) set(x, #f, PSI_JSON_##T(psi[i].f));
		PSI_FIELDS(X)
#undef X
		set(o, psi_name[i], x);
	}
	return o;
}

/* @v, or null when it is @unknown or less (the "unknown" markers of
 * struct result_disturb) */
static json_t *known(double v, double unknown)
{
	return v > unknown ? json_real(v) : json_null();
}

static json_t *disturb_json(const struct result_disturb *d)
{
	json_t *o, *p;

	if (!d->valid)
		return json_null();
	o = json_object();
	p = json_object();
	set(o, "seconds", json_real(d->seconds));
	set(o, "other_cpus", json_real(d->other_cpus));
	set(o, "steal_pct", known(d->steal_pct, -1));
	set(o, "load1_start", known(d->load1_start, -1));
	set(o, "load1_end", known(d->load1_end, -1));
	for (int i = 0; i < PSI_NR; i++)
		set(p, psi_name[i], known(d->psi_some_ms[i], -1));
	set(o, "psi_some_ms", p);
	set(o, "cpu_mhz_min", known(d->mhz_min, 0));
	set(o, "cpu_mhz_max", known(d->mhz_max, 0));
	set(o, "disturbed", json_boolean(result_disturbed(d)));
	return o;
}

/* One sleep of a stalled op and its waker (BPF) */
static json_t *wait_json(const struct result_wait *w)
{
	json_t *o = json_object();
	char state[2] = {w->state ? w->state : '?', 0};

	set(o, "at_ms", json_real(w->at_ms));
	set(o, "blocked_ms", json_real(w->blocked_ms));
	set(o, "runq_ms", json_real(w->runq_ms));
	set(o, "state", json_string(state));
	set(o, "woken", json_boolean(w->woken));
	set(o, "stack", str_or_null(w->stack));
	set(o, "waker_pid",
	    w->woken ? json_integer(w->waker_pid) : json_null());
	set(o, "waker_comm", str_or_null(w->waker_comm));
	set(o, "waker_client",
	    w->waker_client >= 0 ? json_integer(w->waker_client) : json_null());
	set(o, "waker_context", json_string(waker_ctx_name(w->waker_ctx)));
	set(o, "waker_stack", str_or_null(w->waker_stack));
	return o;
}

/* Why a stalled op waited (BPF), or null without the tracing */
static json_t *offcpu_json(const struct result_offcpu *oc)
{
	json_t *o, *w;

	if (!oc->valid)
		return json_null();
	o = json_object();
	w = json_array();
	set(o, "blocked_ms", json_real(oc->blocked_ms));
	set(o, "runq_ms", json_real(oc->runq_ms));
	set(o, "sleeps", json_integer(oc->sleeps));
	set(o, "preempted", json_integer(oc->preempted));
	set(o, "partial", json_boolean(oc->partial));
	if (oc->holder[0]) /* optional: who held the CPU it waited for */
		set(o, "holder",
		    json_pack("{s:s, s:f, s:s}", "comm", oc->holder, "ms",
			      oc->holder_ms, "kind",
			      holder_kind_name(oc->holder_kind)));
	for (int i = 0; i < oc->nwaits; i++)
		json_array_append_new(w, wait_json(&oc->waits[i]));
	set(o, "waits", w);
	return o;
}

/* How the stalls were explained, and where the stalled ops spent their
 * time (BPF): keys of the stalls object */
static void offcpu_run_json(json_t *st, const struct result_offcpu_run *oc)
{
	json_t *b, *a, *x;

	set(st, "method", str_or_null(oc->method));
	set(st, "method_note", str_or_null(oc->method_note));
	if (!oc->method || strcmp(oc->method, "bpf")) {
		set(st, "bpf", json_null());
		return;
	}
	b = json_object();
	set(b, "intervals", u64(oc->intervals));
	set(b, "lost", u64(oc->lost));
	set(b, "stack_errors", u64(oc->stack_errors));
	set(b, "overflow", u64(oc->overflow));
	set(b, "stack_min_ms", json_real(oc->stack_min_ms));
	set(b, "symbols", json_boolean(oc->symbols));
	set(b, "irq_method", str_or_null(oc->irq_method));
	a = json_array();
	for (int i = 0; i < oc->npairs; i++) {
		const struct result_wait_pair *p = &oc->pairs[i];

		x = json_object();
		set(x, "op", json_string(op_info[p->op].label));
		set(x, "kind", json_string(wait_kind_name(p->kind)));
		set(x, "count", u64(p->count));
		set(x, "ms", json_real(p->ms));
		if (p->kind == WAIT_SLEEP) {
			set(x, "stack", str_or_null(p->stack));
			set(x, "waker_client", json_boolean(p->waker_client));
			set(x, "waker_context",
			    json_string(waker_ctx_name(p->waker_ctx)));
			set(x, "waker_comm", str_or_null(p->waker_comm));
			set(x, "waker_stack", str_or_null(p->waker_stack));
		}
		json_array_append_new(a, x);
	}
	set(b, "waits", a);
	x = json_object();
	set(x, "count", u64(oc->other_count));
	set(x, "ms", json_real(oc->other_ms));
	set(b, "waits_other", x);
	set(st, "bpf", b);
}

static json_t *stalls_json(const struct result_stalls *st)
{
	json_t *o = json_object(), *ev = json_array();
	json_t *fo = json_array();
	char state[2] = "?";

	set(o, "enabled", json_boolean(st->enabled));
	set(o, "threshold_ms", json_real(st->threshold_ms));
	set(o, "total", u64(st->total));
	set(o, "warmup_total", u64(st->warmup_total));
	set(o, "per_op", opmap_json(&jm_stall_ops, st));
	for (int k = 0; k < st->nevents; k++) {
		const struct result_stall *e = &st->events[k];
		json_t *x = json_object(), *sm = json_array();

		set(x, "op", json_string(op_info[e->op].label));
		set(x, "duration_ms", json_real(e->duration_ms));
		set(x, "ended", json_boolean(e->ended));
		set(x, "warmup", json_boolean(e->warmup));
		set(x, "client", json_integer(e->client));
		set(x, "pid", json_integer(e->pid));
		set(x, "start_s", json_real(e->start_s));
		set(x, "start_time", str_or_null(e->start_time));
		set(x, "file", str_or_null(e->file));
		set(x, "line", json_integer(e->line));
		set(x, "path", str_or_null(e->path));
		if (e->host) { /* a run across hosts */
			set(x, "host", json_string(e->host));
			set(x, "rank", json_integer(e->rank));
		}
		set(x, "psi_start", psi_json(e->psi_start));
		set(x, "psi_end", psi_json(e->psi_end));
		for (int i = 0; i < e->nsamples; i++) {
			const struct result_stall_sample *p = &e->samples[i];
			json_t *y = json_object();

			state[0] = p->state;
			set(y, "t_ms", json_real(p->t_ms));
			set(y, "state", json_string(state));
			set(y, "repeat", json_integer(p->repeat));
			set(y, "wchan", str_or_null(p->wchan));
			set(y, "stack", str_or_null(p->stack));
			json_array_append_new(sm, y);
		}
		set(x, "samples", sm);
		set(x, "offcpu", offcpu_json(&e->offcpu));
		json_array_append_new(ev, x);
	}
	set(o, "events", ev);
	for (int i = 0; i < st->nfolded; i++) {
		json_t *x = json_object();

		set(x, "stack", json_string(st->folded[i].stack));
		set(x, "count", u64(st->folded[i].count));
		json_array_append_new(fo, x);
	}
	set(o, "folded_stacks", fo);
	set(o, "folded_other", u64(st->folded_other));
	set(o, "note", str_or_null(st->note));
	offcpu_run_json(o, &st->offcpu);
	return o;
}

/* A paced run: how it was paced, the tolerance of a late start, and the
 * totals over the ops (per op: ops[].resp_ns) */
static json_t *resp_json(const struct result_resp *rr)
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
static json_t *hosts_json(const struct result *r)
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

int result_dump_json(json_t *doc, const char *path, char *err,
		     size_t errlen)
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
