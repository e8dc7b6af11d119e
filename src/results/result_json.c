/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * result_json.c - the JSON form of a result (docs/json-format.md).
 *
 * Everything a report needs is stored, so "dbench-ng report" re-renders
 * the live run's text exactly: per op the exact count, sum, min, max and
 * the non-empty histogram bins (percentiles are recomputed from them),
 * the per-client figures, the warnings, the time series, the config and
 * the environment.  Reading checks every field and names the bad one.
 */
#include "result_json.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"
#include "dblog.h"
#include "result.h"

static const double json_pcts[] = { 50, 90, 99, 99.9, 99.99 };

/* ------------------------------ writing -------------------------------- */

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

static json_t *config_json(const struct config *c)
{
	json_t *o = json_object();

	set(o, "nprocs", json_integer(c->nprocs));
	set(o, "clients_per_process", json_integer(c->cpp));
	set(o, "clients", json_integer(c->nclients));
	set(o, "timelimit_s", json_integer(c->timelimit));
	set(o, "warmup_s", json_integer(c->warmup));
	set(o, "loadfile", str_or_null(c->loadfile));
	set(o, "directory", str_or_null(c->dir));
	set(o, "backend", str_or_null(c->backend));
	set(o, "target_rate_mbps", json_real(c->target_rate));
	set(o, "sync_open", json_boolean(c->sync_open));
	set(o, "sync_dirs", json_boolean(c->sync_dirs));
	set(o, "fsync", json_boolean(c->fsync_writes));
	set(o, "xattr", json_boolean(c->xattr));
	set(o, "no_resolve", json_boolean(c->no_resolve));
	set(o, "one_byte_write_fix", json_boolean(c->one_byte_fix));
	set(o, "stat_check", json_boolean(c->stat_check));
	set(o, "fake_io", json_boolean(c->fake_io));
	set(o, "skip_cleanup", json_boolean(c->skip_cleanup));
	set(o, "per_client_results", json_boolean(c->per_client));
	set(o, "run_once", json_boolean(c->run_once));
	set(o, "machine_readable", json_boolean(c->machine));
	set(o, "show_execute_time", json_boolean(c->show_exec_time));
	set(o, "no_percentiles", json_boolean(c->no_percentiles));
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

static json_t *op_json(const struct result *r, int i)
{
	const struct result_op *ro = &r->op[i];
	const struct hist *h = &ro->h;
	json_t *o = json_object(), *lat = json_object(), *p = json_object();
	json_t *bins = json_array(), *mx = json_object();
	char key[32];

	set(o, "name", json_string(op_info[i].label));
	set(o, "count", u64(h->count));
	set(o, "errors", u64(ro->errors));
	set(o, "bytes", u64(ro->bytes));
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
	set(o, "lat_ns", lat);
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

static json_t *clients_json(const struct result *r)
{
	json_t *a = json_array();

	for (int c = 0; c < r->nclients && r->clients; c++) {
		const struct result_client *rc = &r->clients[c];
		json_t *o = json_object(), *ops = json_object();

		set(o, "client", json_integer(c));
		set(o, "lines", u64(rc->lines));
		set(o, "bytes", u64(rc->bytes));
		for (int i = 0; i < OP_NR; i++) {
			json_t *x;

			if (!rc->count[i])
				continue;
			x = json_object();
			set(x, "count", u64(rc->count[i]));
			set(x, "sum_ns", u64(rc->sum_ns[i]));
			set(x, "max_ns", u64(rc->max_ns[i]));
			set(ops, op_info[i].label, x);
		}
		set(o, "ops", ops);
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
		json_t *x = json_object(), *ops = json_object();

		set(x, "t", json_real(p->t));
		set(x, "dur", json_real(p->dur));
		set(x, "warmup", json_boolean(p->warmup));
		set(x, "lines", u64(p->lines));
		set(x, "bytes", u64(p->bytes));
		set(x, "mbps", json_real(p->dur > 0 ? (double)p->bytes / 1e6 /
							      p->dur : 0));
		set(x, "latency_ms", json_real(p->latency_ms));
		for (int i = 0; i < OP_NR; i++) {
			json_t *v;

			if (!p->count[i] && !p->max_ns[i])
				continue;
			v = json_array();
			json_array_append_new(v, u64(p->count[i]));
			json_array_append_new(v, u64(p->max_ns[i]));
			json_array_append_new(v, u64(p->p99_ns[i]));
			set(ops, op_info[i].label, v);
		}
		set(x, "ops", ops);
		json_array_append_new(pts, x);
	}
	set(o, "op_fields", json_pack("[sss]", "count", "max_ns", "p99_ns"));
	set(o, "points", pts);
	return o;
}

static const char *const psi_names[PSI_NR] = { "io", "memory", "cpu" };

static json_t *psi_json(const struct result_psi *psi)
{
	json_t *o = json_object();

	for (int i = 0; i < PSI_NR; i++) {
		json_t *x;

		if (!psi[i].valid) {
			set(o, psi_names[i], json_null());
			continue;
		}
		x = json_object();
		set(x, "some_avg10", json_real(psi[i].some_avg10));
		set(x, "full_avg10", json_real(psi[i].full_avg10));
		set(x, "some_total_us", u64(psi[i].some_total_us));
		set(x, "full_total_us", u64(psi[i].full_total_us));
		set(o, psi_names[i], x);
	}
	return o;
}

static json_t *stalls_json(const struct result_stalls *st)
{
	json_t *o = json_object(), *per = json_object(), *ev = json_array();
	json_t *fo = json_array();
	char state[2] = "?";

	set(o, "enabled", json_boolean(st->enabled));
	set(o, "threshold_ms", json_real(st->threshold_ms));
	set(o, "total", u64(st->total));
	for (int i = 0; i < OP_NR; i++) {
		json_t *x;

		if (!st->count[i])
			continue;
		x = json_object();
		set(x, "count", u64(st->count[i]));
		set(x, "max_ms", json_real(st->max_ms[i]));
		set(per, op_info[i].label, x);
	}
	set(o, "per_op", per);
	for (int k = 0; k < st->nevents; k++) {
		const struct result_stall *e = &st->events[k];
		json_t *x = json_object(), *sm = json_array();

		set(x, "op", json_string(op_info[e->op].label));
		set(x, "duration_ms", json_real(e->duration_ms));
		set(x, "ended", json_boolean(e->ended));
		set(x, "client", json_integer(e->client));
		set(x, "pid", json_integer(e->pid));
		set(x, "start_s", json_real(e->start_s));
		set(x, "start_time", str_or_null(e->start_time));
		set(x, "file", str_or_null(e->file));
		set(x, "line", json_integer(e->line));
		set(x, "path", str_or_null(e->path));
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
	return o;
}

static json_t *strings(char *const *v, int n)
{
	json_t *a = json_array();

	for (int i = 0; i < n; i++)
		json_array_append_new(a, str_or_null(v[i]));
	return a;
}

static const char *status_name(enum result_status s)
{
	return s == RESULT_OK ? "ok" : s == RESULT_INTERRUPTED ? "interrupted"
							       : "failed";
}

static json_t *result_json(const struct result *r)
{
	json_t *o = json_object(), *sum = json_object(), *ops = json_array();
	uint64_t nops = 0, bytes = 0;

	set(o, "format_version", json_integer(RESULT_FORMAT_VERSION));
	set(o, "tool", str_or_null(r->tool));
	set(o, "version", str_or_null(r->version));
	set(o, "start_time", str_or_null(r->start_time));
	set(o, "command_line", strings(r->argv, r->argc));
	set(o, "status", json_string(status_name(r->status)));
	set(o, "signal", r->signal ? json_integer(r->signal) : json_null());
	set(o, "errors", strings(r->errors, r->nerrors));
	set(o, "config", config_json(&r->cfg));
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
		if (r->op[i].h.count || r->op[i].errors)
			json_array_append_new(ops, op_json(r, i));
	}
	set(o, "ops", ops);
	set(o, "clients", clients_json(r));
	set(o, "time_series", series_json(r));
	set(o, "stalls", stalls_json(&r->stalls));
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
	rc = atomic_write(path, "--json", emit_json, doc, err, errlen);
	json_decref(doc);
	return rc;
}

int result_write_json(const struct result *r, const char *path, char *err,
		      size_t errlen)
{
	return result_dump_json(result_json(r), path, err, errlen);
}

/* ------------------------------ reading -------------------------------- */

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

static void read_config(struct reader *rd, json_t *c, struct result *r)
{
	struct config *cfg = &r->cfg;
	const char *w = "config.";

	if (!c)
		return;
	cfg->nprocs = get_int(rd, c, w, "nprocs", 0, 1000000);
	cfg->cpp = get_int(rd, c, w, "clients_per_process", 0, 1000000);
	cfg->nclients = get_int(rd, c, w, "clients", 0, 100000000);
	cfg->timelimit = get_int(rd, c, w, "timelimit_s", 0, 1000000000);
	cfg->warmup = get_int(rd, c, w, "warmup_s", -1, 1000000000);
	r->owned[0] = get_str(rd, c, w, "loadfile");
	r->owned[1] = get_str(rd, c, w, "directory");
	r->owned[2] = get_str(rd, c, w, "backend");
	cfg->loadfile = r->owned[0];
	cfg->dir = r->owned[1];
	cfg->backend = r->owned[2];
	cfg->target_rate = get_num(rd, c, w, "target_rate_mbps");
	cfg->sync_open = get_bool(rd, c, w, "sync_open");
	cfg->sync_dirs = get_bool(rd, c, w, "sync_dirs");
	cfg->fsync_writes = get_bool(rd, c, w, "fsync");
	cfg->xattr = get_bool(rd, c, w, "xattr");
	cfg->no_resolve = get_bool(rd, c, w, "no_resolve");
	cfg->one_byte_fix = get_bool(rd, c, w, "one_byte_write_fix");
	cfg->stat_check = get_bool(rd, c, w, "stat_check");
	cfg->fake_io = get_bool(rd, c, w, "fake_io");
	cfg->skip_cleanup = get_bool(rd, c, w, "skip_cleanup");
	cfg->per_client = get_bool(rd, c, w, "per_client_results");
	cfg->run_once = get_bool(rd, c, w, "run_once");
	cfg->machine = get_bool(rd, c, w, "machine_readable");
	cfg->show_exec_time = get_bool(rd, c, w, "show_execute_time");
	cfg->no_percentiles = get_bool(rd, c, w, "no_percentiles");
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

static void read_op(struct reader *rd, json_t *o, struct result *r)
{
	json_t *lat, *bins, *mx, *pair, *name = json_object_get(o, "name");
	struct result_op *ro;
	uint64_t n = 0;
	size_t i;
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
	lat = get(rd, o, "ops[].", "lat_ns", JSON_OBJECT);
	if (!lat)
		return;
	ro->h.min = get_u64(rd, lat, "ops[].lat_ns.", "min");
	ro->h.max = get_u64(rd, lat, "ops[].lat_ns.", "max");
	ro->h.sum = get_u64(rd, lat, "ops[].lat_ns.", "sum");
	ro->h.overflow = get_u64(rd, lat, "ops[].lat_ns.", "overflow");
	bins = get(rd, lat, "ops[].lat_ns.", "bins", JSON_ARRAY);
	json_array_foreach(bins, i, pair) {
		json_t *lo = json_array_get(pair, 0), *c = json_array_get(pair, 1);
		unsigned int b;

		if (!json_is_integer(lo) || !json_is_integer(c) ||
		    json_integer_value(lo) < 0 || json_integer_value(c) < 0 ||
		    (uint64_t)json_integer_value(lo) >= HIST_LIMIT) {
			rerr(rd, "ops[%s].lat_ns.bins[%zu] is not a pair of "
			     "non-negative integers in range", op_info[op].label,
			     i);
			return;
		}
		b = hist_index((uint64_t)json_integer_value(lo));
		if (hist_bucket_lo(b) != (uint64_t)json_integer_value(lo)) {
			rerr(rd, "ops[%s].lat_ns.bins[%zu]: %lld is not the "
			     "start of a bucket", op_info[op].label, i,
			     (long long)json_integer_value(lo));
			return;
		}
		ro->h.bins[b] += (uint64_t)json_integer_value(c);
		n += (uint64_t)json_integer_value(c);
	}
	if (r->has_bins && n + ro->h.overflow != ro->h.count)
		rerr(rd, "ops[%s]: the bins hold %llu values, count is %llu",
		     op_info[op].label, (unsigned long long)(n + ro->h.overflow),
		     (unsigned long long)ro->h.count);
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
		json_t *ops = get(rd, c, "clients[].", "ops", JSON_OBJECT), *v;
		const char *k;

		rc->lines = get_u64(rd, c, "clients[].", "lines");
		rc->bytes = get_u64(rd, c, "clients[].", "bytes");
		json_object_foreach(ops, k, v) {
			int op = op_by_label(k);

			if (op < 0) {
				rerr(rd, "clients[%zu].ops: '%s' is not an "
				     "operation", i, k);
				return;
			}
			rc->count[op] = get_u64(rd, v, "clients[].ops.", "count");
			rc->sum_ns[op] = get_u64(rd, v, "clients[].ops.",
						 "sum_ns");
			rc->max_ns[op] = get_u64(rd, v, "clients[].ops.",
						 "max_ns");
		}
	}
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
				  JSON_OBJECT), *v;
		const char *k;
		const char *w = "time_series.points[].";

		p.t = get_num(rd, x, w, "t");
		p.dur = get_num(rd, x, w, "dur");
		p.warmup = get_bool(rd, x, w, "warmup");
		p.lines = get_u64(rd, x, w, "lines");
		p.bytes = get_u64(rd, x, w, "bytes");
		p.latency_ms = get_num(rd, x, w, "latency_ms");
		json_object_foreach(ops, k, v) {
			int op = op_by_label(k);

			if (op < 0 || json_array_size(v) != 3) {
				rerr(rd, "time_series.points[%zu].ops.%s is "
				     "not [count, max_ns, p99_ns]", i, k);
				return;
			}
			p.count[op] = (uint64_t)json_integer_value(
				json_array_get(v, 0));
			p.max_ns[op] = (uint64_t)json_integer_value(
				json_array_get(v, 1));
			p.p99_ns[op] = (uint64_t)json_integer_value(
				json_array_get(v, 2));
		}
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
		json_t *x = json_object_get(o, psi_names[i]);

		if (!json_is_object(x))
			continue;
		psi[i].valid = true;
		psi[i].some_avg10 = json_number_value(
			json_object_get(x, "some_avg10"));
		psi[i].full_avg10 = json_number_value(
			json_object_get(x, "full_avg10"));
		psi[i].some_total_us = (uint64_t)json_integer_value(
			json_object_get(x, "some_total_us"));
		psi[i].full_total_us = (uint64_t)json_integer_value(
			json_object_get(x, "full_total_us"));
	}
}

/* The stalls section; absent in results of older dbench-ng versions. */
static void read_stalls(struct reader *rd, json_t *o, struct result *r)
{
	struct result_stalls *st = &r->stalls;
	const char *w = "stalls.", *k;
	json_t *x, *v;
	size_t i, j;

	if (!o)
		return;
	st->enabled = get_bool(rd, o, w, "enabled");
	st->threshold_ms = get_num(rd, o, w, "threshold_ms");
	st->total = get_u64(rd, o, w, "total");
	json_object_foreach(json_object_get(o, "per_op"), k, v) {
		int op = op_by_label(k);

		if (op < 0) {
			rerr(rd, "stalls.per_op: '%s' is not an operation", k);
			return;
		}
		st->count[op] = get_u64(rd, v, "stalls.per_op.", "count");
		st->max_ms[op] = get_num(rd, v, "stalls.per_op.", "max_ms");
	}
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
}

int result_parse_json(const char *name, const char *text, size_t len,
		      struct result **out, char *err, size_t errlen)
{
	struct reader rd = { .name = name, .err = err, .errlen = errlen };
	json_error_t je;
	json_t *doc, *sum, *ops, *v;
	struct result *r;
	const char *st;
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
	r->start_time = get_str(&rd, doc, "", "start_time");
	v = get(&rd, doc, "", "command_line", JSON_ARRAY);
	if (v && json_array_size(v)) {
		r->argv = calloc(json_array_size(v), sizeof(char *));
		r->argc = r->argv ? get_strings(&rd, doc, "command_line",
						r->argv, INT32_MAX) : 0;
	}
	st = json_string_value(json_object_get(doc, "status"));
	if (!st || (strcmp(st, "ok") && strcmp(st, "interrupted") &&
		    strcmp(st, "failed"))) {
		rerr(&rd, "field 'status' is not ok, interrupted or failed");
		goto fail;
	}
	r->status = !strcmp(st, "ok") ? RESULT_OK
		    : !strcmp(st, "interrupted") ? RESULT_INTERRUPTED
						 : RESULT_FAILED;
	v = json_object_get(doc, "signal");
	r->signal = json_is_integer(v) ? (int)json_integer_value(v) : 0;
	r->nerrors = get_strings(&rd, doc, "errors", r->errors,
				 RESULT_MAX_MSGS);
	read_config(&rd, get(&rd, doc, "", "config", JSON_OBJECT), r);
	read_env(&rd, get(&rd, doc, "", "environment", JSON_OBJECT), &r->env);
	sum = get(&rd, doc, "", "summary", JSON_OBJECT);
	if (sum) {
		r->throughput = get_num(&rd, sum, "summary.", "throughput_mbps");
		r->max_latency_ms = get_num(&rd, sum, "summary.",
					    "max_latency_ms");
		r->warmup_s = get_num(&rd, sum, "summary.", "warmup_s");
		r->measured_s = get_num(&rd, sum, "summary.", "measured_s");
		r->nwarn = get_u64(&rd, sum, "summary.", "unexpected_results");
		r->nwarn_msgs = get_strings(&rd, sum, "unexpected_messages",
					    r->warn_msgs, RESULT_MAX_MSGS);
	}
	r->has_bins = get_bool(&rd, doc, "", "has_bins");
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

int result_load(const char *path, struct result **out, char *err,
		size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	const char *s;
	int rc = -1;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	do {
		if (len == cap) {
			char *nb;

			cap = cap ? cap * 2 : 65536;
			if (cap > (1u << 30)) {
				snprintf(err, errlen, "%s: larger than 1 GiB",
					 path);
				goto out;
			}
			nb = realloc(buf, cap + 1);
			if (!nb) {
				snprintf(err, errlen, "%s: out of memory", path);
				goto out;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	if (ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto out;
	}
	buf[len] = 0;
	for (s = buf; s < buf + len && strchr(" \t\r\n", *s); s++)
		;
	if (s < buf + len && *s == '{') {
		rc = result_parse_json(path, buf, len, out, err, errlen);
	} else if (dblog_detect(buf, len)) {
		struct result *r = result_new();

		if (!r) {
			snprintf(err, errlen, "%s: out of memory", path);
			goto out;
		}
		rc = dblog_parse(path, buf, len, r, err, errlen);
		if (rc)
			result_free(r);
		else
			*out = r;
	} else {
		snprintf(err, errlen, "%s: neither a dbench-ng JSON result "
			 "nor a dbench text log (expected '{' or a "
			 "'Throughput ... MB/sec' line)", path);
	}
out:
	fclose(f);
	free(buf);
	return rc;
}
