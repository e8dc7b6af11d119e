/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * result_json_read.c - a JSON result file (docs/json-format.md) read
 * back into a struct result; every field is checked and a bad one named.
 */
#include "result_json.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"
#include "result_foreign.h"
#include "result_json_maps.h"

struct reader {
	const char *name;
	char *err;
	size_t errlen;
	int failed;
	bool seen_op[OP_NR];	/* an op may appear once in "ops" */
};

static void rerr(struct reader *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void rerr(struct reader *rd, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (rd->failed++)
		return;
	n = snprintf(rd->err, rd->errlen, "%s: ", rd->name);
	if (n < 0 || (size_t)n >= rd->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(rd->err + n, rd->errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

static json_t *get(struct reader *rd, json_t *o, const char *where,
		   const char *k, json_type type)
{
	json_t *v = json_object_get(o, k);

	if (!v || json_typeof(v) != type) {
		rerr(rd, "field '%s%s' is missing or has the wrong type", where,
		     k);
		return NULL;
	}
	return v;
}

static uint64_t get_u64(struct reader *rd, json_t *o, const char *where,
			const char *k)
{
	json_t *v = get(rd, o, where, k, JSON_INTEGER);

	if (v && json_integer_value(v) < 0) {
		rerr(rd, "field '%s%s' is negative", where, k);
		return 0;
	}
	return v ? (uint64_t)json_integer_value(v) : 0;
}

static int get_int(struct reader *rd, json_t *o, const char *where,
		   const char *k, int min, int max)
{
	json_t *v = get(rd, o, where, k, JSON_INTEGER);
	json_int_t x = v ? json_integer_value(v) : min;

	if (x < min || x > max) {
		rerr(rd, "field '%s%s' is out of range", where, k);
		return min;
	}
	return (int)x;
}

static double get_num(struct reader *rd, json_t *o, const char *where,
		      const char *k)
{
	json_t *v = json_object_get(o, k);

	if (!v || !json_is_number(v)) {
		rerr(rd, "field '%s%s' is missing or not a number", where, k);
		return 0;
	}
	return json_number_value(v);
}

/* A figure that cannot be below 0 (a rate, a time): a negative one is a
 * crafted or broken file, refused as a negative integer is. */
static double get_figure(struct reader *rd, json_t *o, const char *where,
			 const char *k)
{
	double v = get_num(rd, o, where, k);

	if (v < 0) {
		rerr(rd, "field '%s%s' is negative", where, k);
		return 0;
	}
	return v;
}

static bool get_bool(struct reader *rd, json_t *o, const char *where,
		     const char *k)
{
	json_t *v = json_object_get(o, k);

	if (!v || !json_is_boolean(v)) {
		rerr(rd, "field '%s%s' is missing or not a boolean", where, k);
		return false;
	}
	return json_is_true(v);
}

/* An optional string: NULL when absent or null. */
static char *get_str(struct reader *rd, json_t *o, const char *where,
		     const char *k)
{
	json_t *v = json_object_get(o, k);

	if (!v || json_is_null(v))
		return NULL;
	if (!json_is_string(v)) {
		rerr(rd, "field '%s%s' is not a string", where, k);
		return NULL;
	}
	return strdup(json_string_value(v));
}

static int get_strings(struct reader *rd, json_t *o, const char *k,
		       char **out, int max)
{
	json_t *a = get(rd, o, "", k, JSON_ARRAY), *v;
	size_t i;
	int n = 0;

	if (!a)
		return 0;
	json_array_foreach(a, i, v) {
		if (!json_is_string(v)) {
			rerr(rd, "field '%s[%zu]' is not a string", k, i);
			break;
		}
		if (n < max)
			out[n++] = strdup(json_string_value(v));
	}
	return n;
}

/* The config object: every field of the list of config.h; an optional
 * one (CF_OPTIONAL) that is absent reads as its jmin, or NULL. */
static void read_config(struct reader *rd, json_t *c, struct result *r)
{
	struct config *cfg = &r->cfg;
	const char *w = "config.";

	if (!c)
		return;
	for (int i = 0; i < CFG_NR; i++) {
		const struct config_field_info *fi = &config_fields[i];
		void *v = config_field(cfg, i);

		if ((fi->flags & CF_OPTIONAL) && !json_object_get(c, fi->jkey)) {
			if (fi->type == CF_INT)
				*(int *)v = (int)fi->jmin;
			continue;
		}
		switch (fi->type) {
		case CF_INT:
			*(int *)v = get_int(rd, c, w, fi->jkey, (int)fi->jmin,
					    (int)fi->jmax);
			break;
		case CF_DBL:
			*(double *)v = get_figure(rd, c, w, fi->jkey);
			break;
		case CF_BOOL:
			*(bool *)v = get_bool(rd, c, w, fi->jkey);
			break;
		case CF_STR:
			r->owned[fi->str_index] = get_str(rd, c, w, fi->jkey);
			*(const char **)v = r->owned[fi->str_index];
			break;
		}
	}
}

/* A result written before the config object had the stall threshold:
 * the one the watchdog recorded, if it ran. */
static void old_stall_threshold(json_t *c, struct result *r)
{
	const struct config_field_info *fi = &config_fields[CFG_stall_ms];
	double t = r->stalls.threshold_ms;

	if (!c || json_object_get(c, fi->jkey) || !r->stalls.enabled)
		return;
	if (t > 0 && t <= (double)fi->jmax)
		r->cfg.stall_ms = (int)(t + 0.5);
}

static void read_env(struct reader *rd, json_t *e, struct result_env *env)
{
	json_t *d, *l, *v;
	size_t i;

	if (!e)
		return;
	env->hostname = get_str(rd, e, "environment.", "hostname");
	env->kernel = get_str(rd, e, "environment.", "kernel");
	env->kernel_version = get_str(rd, e, "environment.", "kernel_version");
	env->machine = get_str(rd, e, "environment.", "machine");
	env->cpu_model = get_str(rd, e, "environment.", "cpu_model");
	env->cpus = get_int(rd, e, "environment.", "cpus", 0, 1 << 24);
	env->mem_bytes = get_u64(rd, e, "environment.", "memory_bytes");
	d = get(rd, e, "environment.", "directory", JSON_OBJECT);
	if (d) {
		const char *w = "environment.directory.";

		env->dir = get_str(rd, d, w, "path");
		env->dir_real = get_str(rd, d, w, "realpath");
		env->fs_type = get_str(rd, d, w, "fs_type");
		env->fs_device = get_str(rd, d, w, "device");
		env->fs_mount_point = get_str(rd, d, w, "mount_point");
		env->fs_options = get_str(rd, d, w, "mount_options");
		env->fs_size_bytes = get_u64(rd, d, w, "size_bytes");
		env->fs_free_bytes = get_u64(rd, d, w, "free_bytes");
	}
	l = get(rd, e, "environment.", "loadfiles", JSON_ARRAY);
	if (!l || !json_array_size(l))
		return;
	env->loadfile_name = calloc(json_array_size(l), sizeof(char *));
	env->loadfile_sha256 = calloc(json_array_size(l), sizeof(char *));
	if (!env->loadfile_name || !env->loadfile_sha256) {
		rerr(rd, "out of memory");
		return;
	}
	json_array_foreach(l, i, v) {
		env->loadfile_name[i] = get_str(rd, v, "loadfiles[].", "name");
		env->loadfile_sha256[i] =
			get_str(rd, v, "loadfiles[].", "sha256");
		env->nloadfiles = (int)i + 1;
	}
}

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

static void read_op(struct reader *rd, json_t *o, struct result *r)
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

/*
 * A per-op map of the file (result_json_maps.h) into @base; @what names
 * it in messages ("clients[3].ops").  An object per op: a key that is
 * not an operation is refused, each field read as the writer wrote it
 * (an optional one where present); an array per op: one of another
 * length or with other than non-negative integers is refused.
 */
static void read_opmap(struct reader *rd, json_t *ops, const struct jm_map *m,
		       void *base, const char *what)
{
	const char *k;
	json_t *v;

	json_object_foreach(ops, k, v) {
		int op = op_by_label(k);
		size_t j = 0;

		if (m->shape && op >= 0 && json_is_array(v)) {
			for (const struct jm_field *f = m->f; f->name; f++) {
				json_t *e = json_array_get(v, j++);

				if (!json_is_integer(e) ||
				    json_integer_value(e) < 0)
					op = -1;
				else
					*jm_u64(f, base, op) =
						(uint64_t)json_integer_value(e);
			}
		}
		if (m->shape && (op < 0 || json_array_size(v) != j)) {
			rerr(rd, "%s.%s is not %s", what, k, m->shape);
			return;
		}
		if (m->shape)
			continue;
		if (op < 0) {
			rerr(rd, "%s: '%s' is not an operation", what, k);
			return;
		}
		for (const struct jm_field *f = m->f; f->name; f++) {
			if (f->optional && !json_object_get(v, f->name))
				continue;
			if (f->kind == JM_U64)
				*jm_u64(f, base, op) =
					get_u64(rd, v, m->where, f->name);
			else
				*jm_num(f, base, op) =
					get_num(rd, v, m->where, f->name);
		}
	}
}

static void read_clients(struct reader *rd, json_t *a, struct result *r)
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

/* A paced run's point: "resp_ops", optional (absent in older results
 * and in unpaced runs), [count, max_ns, p99_ns, late] per op. */
static void read_point_resp(struct reader *rd, json_t *x, size_t i,
			    struct result_point *p)
{
	json_t *ops = json_object_get(x, "resp_ops");
	char what[64];

	if (!ops)
		return;
	if (!json_is_object(ops)) {
		rerr(rd, "time_series.points[%zu].resp_ops is not an object",
		     i);
		return;
	}
	snprintf(what, sizeof(what), "time_series.points[%zu].resp_ops", i);
	read_opmap(rd, ops, &jm_point_resp, p, what);
}

static void read_series(struct reader *rd, json_t *ts, struct result *r)
{
	json_t *pts, *x;
	size_t i;

	if (!ts)
		return;
	pts = get(rd, ts, "time_series.", "points", JSON_ARRAY);
	json_array_foreach(pts, i, x) {
		struct result_point p = {0};
		json_t *ops = get(rd, x, "time_series.points[].", "ops",
				  JSON_OBJECT);
		const char *w = "time_series.points[].";
		char what[48];

		p.t = get_num(rd, x, w, "t");
		p.dur = get_num(rd, x, w, "dur");
		p.warmup = get_bool(rd, x, w, "warmup");
		p.lines = get_u64(rd, x, w, "lines");
		p.bytes = get_u64(rd, x, w, "bytes");
		p.latency_ms = get_num(rd, x, w, "latency_ms");
		snprintf(what, sizeof(what), "time_series.points[%zu].ops", i);
		read_opmap(rd, ops, &jm_point_ops, &p, what);
		read_point_resp(rd, x, i, &p);
		if (rd->failed || result_add_point(r, &p)) {
			rerr(rd, "out of memory");
			return;
		}
	}
	/* the stored interval, not the one re-derived while appending */
	r->interval_s = get_num(rd, ts, "time_series.", "interval_s");
}

static void read_psi(json_t *o, struct result_psi *psi)
{
	for (int i = 0; i < PSI_NR; i++) {
		json_t *x = json_object_get(o, psi_name[i]);

		if (!json_is_object(x))
			continue;
		psi[i].valid = true;
#define PSI_READ_DBL(v) json_number_value(v)
#define PSI_READ_U64(v) (uint64_t)json_integer_value(v)
#define X(f, T) psi[i].f = PSI_READ_##T(json_object_get(x, #f));
		PSI_FIELDS(X)
#undef X
	}
}

/* An optional number: @unknown when absent or null. */
static double get_known(struct reader *rd, json_t *o, const char *where,
			const char *k, double unknown)
{
	json_t *v = json_object_get(o, k);

	if (!v || json_is_null(v))
		return unknown;
	if (!json_is_number(v)) {
		rerr(rd, "field '%s%s' is not a number", where, k);
		return unknown;
	}
	return json_number_value(v);
}

/* What else the machine did; absent in older results, null when it could
 * not be measured.  "disturbed" is derived again, not read. */
static void read_disturb(struct reader *rd, json_t *o, struct result *r)
{
	struct result_disturb *d = &r->disturb;
	const char *w = "disturbance.";
	json_t *p;

	if (!o || json_is_null(o))
		return;
	if (!json_is_object(o)) {
		rerr(rd, "field 'disturbance' is not an object");
		return;
	}
	d->seconds = get_num(rd, o, w, "seconds");
	d->other_cpus = get_num(rd, o, w, "other_cpus");
	if (!(d->seconds >= 0) || !(d->other_cpus >= 0))
		rerr(rd, "field 'disturbance.seconds' or 'other_cpus' is "
			 "negative");
	d->steal_pct = get_known(rd, o, w, "steal_pct", -1);
	d->load1_start = get_known(rd, o, w, "load1_start", -1);
	d->load1_end = get_known(rd, o, w, "load1_end", -1);
	p = json_object_get(o, "psi_some_ms");
	for (int i = 0; i < PSI_NR; i++)
		d->psi_some_ms[i] =
			json_is_object(p)
				? get_known(rd, p, "disturbance.psi_some_ms.",
					    psi_name[i], -1)
				: -1;
	d->mhz_min = get_known(rd, o, w, "cpu_mhz_min", 0);
	d->mhz_max = get_known(rd, o, w, "cpu_mhz_max", 0);
	d->valid = true;
}

/* An optional integer: @unknown when absent or null */
static int get_opt_int(struct reader *rd, json_t *o, const char *where,
		       const char *k, int unknown)
{
	json_t *v = json_object_get(o, k);

	if (!v || json_is_null(v))
		return unknown;
	return get_int(rd, o, where, k, 0, INT32_MAX);
}

/* A waker's context by name; an unknown name is an error */
static int get_ctx(struct reader *rd, json_t *o, const char *where)
{
	const char *s = json_string_value(json_object_get(o, "waker_context"));
	int c = waker_ctx_parse(s);

	if (c < 0) {
		rerr(rd, "field '%swaker_context' is not a waker context",
		     where);
		return WAKER_UNKNOWN;
	}
	return c;
}

/* Who held the CPU a stalled op waited for; optional */
static void read_holder(struct reader *rd, json_t *h, struct result_offcpu *oc)
{
	const char *c = json_string_value(json_object_get(h, "comm"));
	int k = holder_kind_parse(json_string_value(json_object_get(h,
								     "kind")));

	if (!h)
		return;
	if (!c || k < 0) {
		rerr(rd, "field 'stalls.events[].offcpu.holder' is not "
			 "{comm, ms, kind}");
		return;
	}
	snprintf(oc->holder, sizeof(oc->holder), "%s", c);
	oc->holder_ms = get_figure(rd, h, "stalls.events[].offcpu.holder.",
				   "ms");
	oc->holder_kind = k;
}

/* Why a stalled op waited (BPF); absent or null without the tracing */
static void read_offcpu(struct reader *rd, json_t *o, struct result_offcpu *oc)
{
	const char *w = "stalls.events[].offcpu.", *ww = "offcpu.waits[].";
	json_t *x;
	size_t i;

	if (!o || json_is_null(o))
		return;
	oc->valid = true;
	oc->blocked_ms = get_num(rd, o, w, "blocked_ms");
	oc->runq_ms = get_num(rd, o, w, "runq_ms");
	oc->sleeps = (uint32_t)get_int(rd, o, w, "sleeps", 0, INT32_MAX);
	oc->preempted = (uint32_t)get_int(rd, o, w, "preempted", 0, INT32_MAX);
	oc->partial = get_bool(rd, o, w, "partial");
	read_holder(rd, json_object_get(o, "holder"), oc);
	json_array_foreach(get(rd, o, w, "waits", JSON_ARRAY), i, x) {
		struct result_wait *v;
		const char *st;

		if (i >= STALL_MAX_WAITS)
			break;
		v = &oc->waits[oc->nwaits++];
		v->at_ms = get_num(rd, x, ww, "at_ms");
		v->blocked_ms = get_num(rd, x, ww, "blocked_ms");
		v->runq_ms = get_num(rd, x, ww, "runq_ms");
		st = json_string_value(json_object_get(x, "state"));
		v->state = st && *st == 'D' ? 'D' : 'S';
		v->woken = get_bool(rd, x, ww, "woken");
		v->stack = get_str(rd, x, ww, "stack");
		v->waker_pid = get_opt_int(rd, x, ww, "waker_pid", 0);
		v->waker_comm = get_str(rd, x, ww, "waker_comm");
		v->waker_client = get_opt_int(rd, x, ww, "waker_client", -1);
		v->waker_ctx = get_ctx(rd, x, ww);
		v->waker_stack = get_str(rd, x, ww, "waker_stack");
	}
}

/* How the stalls were explained, and the per-op table (BPF); absent in
 * older results */
static void read_offcpu_run(struct reader *rd, json_t *o,
			    struct result_offcpu_run *oc)
{
	const char *w = "stalls.bpf.", *ww = "stalls.bpf.waits[].";
	json_t *b = json_object_get(o, "bpf"), *x, *ot;
	size_t i;

	oc->method = get_str(rd, o, "stalls.", "method");
	oc->method_note = get_str(rd, o, "stalls.", "method_note");
	if (!b || json_is_null(b))
		return;
	oc->intervals = get_u64(rd, b, w, "intervals");
	oc->lost = get_u64(rd, b, w, "lost");
	oc->stack_errors = get_u64(rd, b, w, "stack_errors");
	oc->overflow = get_u64(rd, b, w, "overflow");
	oc->stack_min_ms = get_num(rd, b, w, "stack_min_ms");
	oc->symbols = get_bool(rd, b, w, "symbols");
	oc->irq_method = get_str(rd, b, w, "irq_method");
	json_array_foreach(get(rd, b, w, "waits", JSON_ARRAY), i, x) {
		const char *op = json_string_value(json_object_get(x, "op"));
		const char *k = json_string_value(json_object_get(x, "kind"));
		struct result_wait_pair *p;

		if (i >= STALL_MAX_PAIRS)
			break;
		if (op_by_label(op ? op : "") < 0 || wait_kind_parse(k) < 0) {
			rerr(rd, "stalls.bpf.waits[%zu] is not a row of "
				 "waits", i);
			return;
		}
		p = &oc->pairs[oc->npairs++];
		p->op = op_by_label(op);
		p->kind = wait_kind_parse(k);
		p->count = get_u64(rd, x, ww, "count");
		p->ms = get_num(rd, x, ww, "ms");
		p->waker_ctx = WAKER_UNKNOWN;
		if (p->kind != WAIT_SLEEP)
			continue;
		p->stack = get_str(rd, x, ww, "stack");
		p->waker_client = get_bool(rd, x, ww, "waker_client");
		p->waker_ctx = get_ctx(rd, x, ww);
		p->waker_comm = get_str(rd, x, ww, "waker_comm");
		p->waker_stack = get_str(rd, x, ww, "waker_stack");
	}
	ot = get(rd, b, w, "waits_other", JSON_OBJECT);
	if (ot) {
		oc->other_count = get_u64(rd, ot, "stalls.bpf.waits_other.",
					  "count");
		oc->other_ms = get_num(rd, ot, "stalls.bpf.waits_other.", "ms");
	}
}

/* The stalls section; absent in results of older dbench-ng versions. */
static void read_stalls(struct reader *rd, json_t *o, struct result *r)
{
	struct result_stalls *st = &r->stalls;
	const char *w = "stalls.";
	json_t *x, *v;
	size_t i, j;

	if (!o)
		return;
	st->enabled = get_bool(rd, o, w, "enabled");
	st->threshold_ms = get_num(rd, o, w, "threshold_ms");
	st->total = get_u64(rd, o, w, "total");
	/* the warmup's own counts: absent in older results, whose total
	 * held them */
	if (json_object_get(o, "warmup_total"))
		st->warmup_total = get_u64(rd, o, w, "warmup_total");
	read_opmap(rd, json_object_get(o, "per_op"), &jm_stall_ops, st,
		   "stalls.per_op");
	if (rd->failed)
		return;
	json_array_foreach(get(rd, o, w, "events", JSON_ARRAY), i, x) {
		struct result_stall *e;
		const char *op = json_string_value(json_object_get(x, "op"));

		if (i >= STALL_MAX_EVENTS || !op || op_by_label(op) < 0) {
			rerr(rd, "stalls.events[%zu] is not a stall event", i);
			return;
		}
		e = &st->events[st->nevents++];
		e->op = op_by_label(op);
		e->duration_ms = get_num(rd, x, "stalls.events[].",
					 "duration_ms");
		e->ended = get_bool(rd, x, "stalls.events[].", "ended");
		e->warmup = json_is_true(json_object_get(x, "warmup"));
		e->client = get_int(rd, x, "stalls.events[].", "client", 0,
				    INT32_MAX);
		e->pid = get_int(rd, x, "stalls.events[].", "pid", 0,
				 INT32_MAX);
		e->start_s = get_num(rd, x, "stalls.events[].", "start_s");
		e->start_time = get_str(rd, x, "stalls.events[].",
					"start_time");
		e->file = get_str(rd, x, "stalls.events[].", "file");
		e->line = (uint32_t)get_int(rd, x, "stalls.events[].", "line",
					    0, INT32_MAX);
		e->path = get_str(rd, x, "stalls.events[].", "path");
		e->host = get_str(rd, x, "stalls.events[].", "host");
		if (e->host)
			e->rank = get_int(rd, x, "stalls.events[].", "rank", 0,
					  INT32_MAX);
		read_psi(json_object_get(x, "psi_start"), e->psi_start);
		read_psi(json_object_get(x, "psi_end"), e->psi_end);
		json_array_foreach(json_object_get(x, "samples"), j, v) {
			struct result_stall_sample *p;
			const char *state;

			if (j >= STALL_MAX_SAMPLES)
				break;
			p = &e->samples[e->nsamples++];
			p->t_ms = get_num(rd, v, "samples[].", "t_ms");
			state = json_string_value(json_object_get(v, "state"));
			p->state = state && *state ? state[0] : '?';
			p->repeat = (uint32_t)get_int(rd, v, "samples[].",
						      "repeat", 0, INT32_MAX);
			p->wchan = get_str(rd, v, "samples[].", "wchan");
			p->stack = get_str(rd, v, "samples[].", "stack");
		}
		read_offcpu(rd, json_object_get(x, "offcpu"), &e->offcpu);
	}
	json_array_foreach(get(rd, o, w, "folded_stacks", JSON_ARRAY), i, x) {
		if (i >= STALL_MAX_FOLDED)
			break;
		st->folded[i].stack = get_str(rd, x, "folded_stacks[].",
					      "stack");
		st->folded[i].count = get_u64(rd, x, "folded_stacks[].",
					      "count");
		st->nfolded = (int)i + 1;
	}
	st->folded_other = get_u64(rd, o, w, "folded_other");
	st->note = get_str(rd, o, w, "note");
	read_offcpu_run(rd, o, &st->offcpu);
}

/* A paced run's "response" object; absent in unpaced runs and older
 * results (no response times at all).  Its totals are derived again
 * from the ops, not read. */
static void read_resp(struct reader *rd, json_t *o, struct result *r)
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
static void read_hosts(struct reader *rd, json_t *a, struct result *r)
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
