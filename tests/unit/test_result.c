/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_result.c - the in-memory result: the time series stays bounded
 * (neighbours merge, the interval doubles, nothing is lost), a result
 * survives a trip through its JSON form field by field (a paced run's
 * response times too), and the results of the hosts of a run across hosts
 * merge exactly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "result.h"
#include "result_json.h"
#include "stats.h"

static struct result_point point(int i)
{
	struct result_point p = {
		.t = i + 1,
		.dur = 1,
		.lines = 100 + (uint64_t)i,
		.bytes = 1000,
		.latency_ms = i == 777 ? 500.0 : 1.0,
	};

	p.count[OP_RENAME] = 3;
	p.max_ns[OP_RENAME] = i == 777 ? 500000000 : 1000;
	p.p99_ns[OP_RENAME] = i == 777 ? 400000000 : 900;
	return p;
}

static void test_series_bounded(void **state)
{
	struct result *r = result_new();
	uint64_t lines = 0, count = 0, want_lines = 0;
	uint64_t maxv = 0;
	const int n = 3 * RESULT_MAX_POINTS + 123;

	(void)state;
	assert_non_null(r);
	for (int i = 0; i < n; i++) {
		struct result_point p = point(i);

		want_lines += p.lines;
		assert_int_equal(result_add_point(r, &p), 0);
		assert_true(r->npoints <= RESULT_MAX_POINTS);
		/* the array grows with the series, by doubling from 64 */
		assert_true(r->npoints <= r->points_cap);
		assert_true(r->points_cap <= RESULT_MAX_POINTS);
		if (i < 64)
			assert_int_equal(r->points_cap, 64);
		else if (i < RESULT_MAX_POINTS)
			assert_true(r->points_cap < 2 * r->npoints);
	}
	assert_int_equal(r->points_cap, RESULT_MAX_POINTS);
	/* 3.03 x the capacity: the interval doubled twice */
	assert_true(r->interval_s == 4.0);
	for (uint32_t k = 0; k < r->npoints; k++) {
		lines += r->points[k].lines;
		count += r->points[k].count[OP_RENAME];
		if (r->points[k].max_ns[OP_RENAME] > maxv)
			maxv = r->points[k].max_ns[OP_RENAME];
		assert_true(r->points[k].dur <= r->interval_s + 1e-9);
		if (k)
			assert_true(r->points[k].t > r->points[k - 1].t);
	}
	assert_int_equal(lines, want_lines);
	assert_int_equal(count, 3 * (uint64_t)n);
	/* the stall survives every merge */
	assert_int_equal(maxv, 500000000);
	assert_true(r->points[r->npoints - 1].t == n);
	result_free(r);
}

static json_t *written_doc(const struct result *r);

static struct result *sample(void)
{
	struct result *r = result_new();

	assert_non_null(r);
	r->tool = strdup("dbench-ng");
	r->version = strdup("0.5.0+3");
	r->commit = strdup("abc1234-dirty");
	r->start_time = strdup("2026-11-29T20:00:00Z");
	r->argc = 2;
	r->argv = calloc(2, sizeof(char *));
	r->argv[0] = strdup("dbench-ng");
	r->argv[1] = strdup("4");
	r->owned[CFS_loadfile] = strdup("builtin:netbench");
	r->owned[CFS_dir] = strdup("/mnt/x \"quoted\"");
	r->owned[CFS_backend] = strdup("fileio");
	r->cfg.loadfile = r->owned[CFS_loadfile];
	r->cfg.dir = r->owned[CFS_dir];
	r->cfg.backend = r->owned[CFS_backend];
	r->cfg.nprocs = 2;
	r->cfg.cpp = 2;
	r->cfg.nclients = 4;
	r->cfg.timelimit = 60;
	r->cfg.warmup = 12;
	r->cfg.sync_open = true;
	r->cfg.per_client = true;
	r->cfg.stall_ms = 250;
	r->cfg.runs = 3;
	r->cfg.backend_version = 7;
	r->cfg.backend_opts = "no-openat2 url=smb://h/s password=(secret)";
	r->cfg.json = "given.json"; /* the file written is stored instead */
	r->status = RESULT_INTERRUPTED;
	r->signal = 2;
	r->has_bins = true;
	r->throughput = 123.456;
	r->max_latency_ms = 503.312;
	r->measured_s = 30.5;
	r->warmup_s = 12.0;
	r->nwarn = 5;
	r->nwarn_msgs = 1;
	r->warn_msgs[0] = strdup("client 0 at x:3: NTCreateX failed");
	r->nerrors = 1;
	r->errors[0] = strdup("an error");
	for (uint64_t v = 1; v < 2000000; v = v * 3 + 7) {
		hist_record(&r->op[OP_RENAME].h, v);
		hist_record(&r->op[OP_READX].h, v / 2 + 1);
	}
	hist_record(&r->op[OP_RENAME].h, HIST_LIMIT + 5);	/* overflow */
	r->op[OP_RENAME].errors = 2;
	r->op[OP_READX].bytes = 4096;
	r->op[OP_RENAME].max_client = 3;
	r->op[OP_RENAME].max_at_s = 12.25;
	r->op[OP_RENAME].max_line = 608;
	r->op[OP_RENAME].max_file = strdup("client.txt");
	r->op[OP_RENAME].max_path = strdup("/mnt/a /mnt/b");
	r->nclients = 4;
	r->clients = calloc(4, sizeof(*r->clients));
	r->clients[3].lines = 999;
	r->clients[3].count[OP_RENAME] = 7;
	r->clients[3].sum_ns[OP_RENAME] = 70;
	r->clients[3].max_ns[OP_RENAME] = 30;
	for (int i = 0; i < 5; i++) {
		struct result_point p = point(i);

		result_add_point(r, &p);
	}
	return r;
}

static void test_json_round_trip(void **state)
{
	char path[] = "/tmp/dbng-test-result-XXXXXX", err[512];
	struct result *a = sample(), *b = NULL;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(result_write_json(a, path, err, sizeof(err)), 0);
	assert_int_equal(result_load(path, &b, err, sizeof(err)), 0);
	unlink(path);
	assert_string_equal(b->tool, "dbench-ng");
	assert_string_equal(b->version, "0.5.0+3");
	assert_string_equal(b->commit, "abc1234-dirty");
	assert_string_equal(b->cfg.dir, "/mnt/x \"quoted\"");
	assert_int_equal(b->cfg.nclients, 4);
	assert_int_equal(b->cfg.cpp, 2);
	assert_true(b->cfg.sync_open && b->cfg.per_client);
	assert_false(b->cfg.sync_dirs);
	assert_int_equal(b->cfg.stall_ms, 250);
	assert_int_equal(b->cfg.runs, 3);
	assert_int_equal(b->cfg.backend_version, 7);
	assert_string_equal(b->cfg.backend_opts,
			    "no-openat2 url=smb://h/s password=(secret)");
	assert_string_equal(b->cfg.json, path);
	assert_int_equal(b->status, RESULT_INTERRUPTED);
	assert_int_equal(b->signal, 2);
	assert_true(b->throughput == 123.456);
	assert_true(b->max_latency_ms == 503.312);
	assert_int_equal(b->nwarn, 5);
	assert_string_equal(b->warn_msgs[0], a->warn_msgs[0]);
	assert_string_equal(b->errors[0], "an error");
	for (int i = 0; i < OP_NR; i++)
		assert_memory_equal(&a->op[i].h, &b->op[i].h,
				    sizeof(struct hist));
	assert_int_equal(b->op[OP_RENAME].errors, 2);
	assert_int_equal(b->op[OP_READX].bytes, 4096);
	assert_int_equal(b->op[OP_RENAME].max_client, 3);
	assert_int_equal(b->op[OP_RENAME].max_line, 608);
	assert_string_equal(b->op[OP_RENAME].max_path, "/mnt/a /mnt/b");
	assert_int_equal(b->op[OP_READX].max_client, -1);
	assert_int_equal(b->clients[3].count[OP_RENAME], 7);
	assert_int_equal(b->clients[3].lines, 999);
	assert_int_equal(b->npoints, 5);
	assert_int_equal(b->points[4].lines, a->points[4].lines);
	assert_int_equal(b->points[2].p99_ns[OP_RENAME], 900);
	result_free(a);
	result_free(b);
}

/* A checkpoint (status running) keeps the time it covers; a result of
 * another status has no covers_s; a status the reader does not know is
 * refused, naming the four. */
static void test_json_checkpoint(void **state)
{
	struct result *a = sample(), *b = NULL;
	char err[512], *text, *bad;
	size_t len;

	(void)state;
	a->status = RESULT_RUNNING;
	a->signal = 0;
	a->covers_s = 12.5;
	text = result_json_text(a, NULL, &len);
	assert_non_null(text);
	assert_int_equal(result_parse_json("c.json", text, len, &b, err,
					   sizeof(err)),
			 0);
	assert_int_equal(b->status, RESULT_RUNNING);
	assert_true(b->covers_s == 12.5);
	assert_string_equal(result_status_name(b->status), "running");
	result_free(b);
	bad = strstr(text, "\"running\"");
	assert_non_null(bad);
	memcpy(bad, "\"runnin?\"", 9);
	assert_int_equal(result_parse_json("c.json", text, len, &b, err,
					   sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "is not ok, interrupted, failed or "
				    "running"));
	free(text);
	a->status = RESULT_OK;
	text = result_json_text(a, NULL, &len);
	assert_null(strstr(text, "covers_s"));
	free(text);
	result_free(a);
}

/* A deep copy of the stalls (a checkpoint's): the same content, strings
 * of its own; released by result_stalls_free. */
static void test_stalls_copy(void **state)
{
	struct result_stalls a = {0}, c = {0};
	struct result_stall *ev = &a.events[0];

	(void)state;
	a.enabled = true;
	a.total = 3;
	a.nevents = 1;
	ev->duration_ms = 500;
	ev->file = strdup("t.load");
	ev->path = NULL;
	ev->nsamples = 1;
	ev->samples[0].stack = strdup("a;b");
	ev->samples[0].wchan = strdup("w");
	ev->offcpu.valid = true;
	ev->offcpu.nwaits = 1;
	ev->offcpu.waits[0].stack = strdup("s");
	a.nfolded = 1;
	a.folded[0].stack = strdup("a;b");
	a.folded[0].count = 4;
	a.note = strdup("n");
	a.offcpu.method = strdup("proc");
	assert_int_equal(result_stalls_copy(&c, &a), 0);
	assert_int_equal(c.total, 3);
	assert_int_equal(c.nevents, 1);
	assert_ptr_not_equal(c.events[0].file, ev->file);
	assert_string_equal(c.events[0].file, "t.load");
	assert_null(c.events[0].path);
	assert_string_equal(c.events[0].samples[0].stack, "a;b");
	assert_string_equal(c.events[0].offcpu.waits[0].stack, "s");
	assert_ptr_not_equal(c.folded[0].stack, a.folded[0].stack);
	assert_int_equal(c.folded[0].count, 4);
	assert_string_equal(c.note, "n");
	assert_string_equal(c.offcpu.method, "proc");
	result_stalls_free(&a);
	assert_string_equal(c.events[0].samples[0].wchan, "w");
	result_stalls_free(&c);
	assert_int_equal(c.nevents, 0);
}

/* The lines of ops the backend cannot execute (not_run) go to the JSON
 * as ops[].not_executed and _reason, only for such an op (an op with
 * nothing else is listed for them), and come back; a result without the
 * keys (older, or an op that ran) reads as 0 and NULL. */
static void test_json_not_run(void **state)
{
	char path[] = "/tmp/dbng-test-result-XXXXXX", err[512];
	struct result *a = sample(), *b = NULL;
	json_t *doc, *ops, *o;
	size_t i;
	int fd = mkstemp(path), seen = 0;

	(void)state;
	a->op[OP_LOCKX].not_run = 12;
	a->op[OP_LOCKX].not_run_why = strdup("no lock call");
	doc = written_doc(a);
	ops = json_object_get(doc, "ops");
	json_array_foreach(ops, i, o) {
		const char *n = json_string_value(json_object_get(o, "name"));

		if (!strcmp(n, "LockX")) {
			seen++;
			assert_int_equal(json_integer_value(json_object_get(
						 o, "not_executed")),
					 12);
			assert_string_equal(json_string_value(json_object_get(
						    o, "not_executed_reason")),
					    "no lock call");
			assert_int_equal(json_integer_value(
						 json_object_get(o, "count")),
					 0);
		} else {
			assert_null(json_object_get(o, "not_executed"));
			assert_null(json_object_get(o, "not_executed_reason"));
		}
	}
	assert_int_equal(seen, 1);
	json_decref(doc);

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(result_write_json(a, path, err, sizeof(err)), 0);
	assert_int_equal(result_load(path, &b, err, sizeof(err)), 0);
	unlink(path);
	assert_int_equal(b->op[OP_LOCKX].not_run, 12);
	assert_string_equal(b->op[OP_LOCKX].not_run_why, "no lock call");
	assert_int_equal(b->op[OP_RENAME].not_run, 0);
	assert_null(b->op[OP_RENAME].not_run_why);
	result_free(b);
	result_free(a);
}

/* Why the stalls waited (BPF) survives the trip: an event's sleeps and
 * wakers, the per-op table, the counters; the method of a run without
 * BPF with its reason; a result without them (older) has no method. */
static void test_json_offcpu(void **state)
{
	char path[] = "/tmp/dbng-test-result-XXXXXX", err[512];
	struct result *a = sample(), *b = NULL;
	struct result_stalls *st = &a->stalls;
	struct result_offcpu *o = &st->events[0].offcpu;
	struct result_offcpu_run *ru = &st->offcpu;
	const struct result_wait *w;
	const struct result_wait_pair *p;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	st->enabled = true;
	st->threshold_ms = 100;
	st->total = 1;
	st->unsampled = 1;
	st->count[OP_RENAME] = 1;
	st->nevents = 1;
	st->events[0].op = OP_RENAME;
	st->events[0].duration_ms = 503.25;
	st->events[0].ended = true;
	o->valid = true;
	o->blocked_ms = 500.5;
	o->runq_ms = 2.25;
	o->sleeps = 3;
	o->preempted = 1;
	o->partial = true;
	o->nwaits = 2;
	o->waits[0] = (struct result_wait){
		.at_ms = 0.5, .blocked_ms = 500, .runq_ms = 2, .state = 'D',
		.woken = true, .stack = strdup("a;request_wait_answer [fuse]"),
		.waker_pid = 44, .waker_comm = strdup("faultfs"),
		.waker_client = -1, .waker_ctx = WAKER_TASK,
		.waker_stack = strdup("b;fuse_request_end")};
	o->waits[1] = (struct result_wait){
		.at_ms = 501, .blocked_ms = 0.5, .state = 'S', .woken = true,
		.waker_pid = 9, .waker_comm = strdup("swapper/1"),
		.waker_client = -1, .waker_ctx = WAKER_HARDIRQ};
	ru->method = strdup("bpf");
	ru->intervals = 12345;
	ru->lost = 2;
	ru->stack_errors = 4;
	ru->overflow = 5;
	ru->stack_min_ms = 1;
	ru->symbols = true;
	ru->irq_method = strdup("interrupt tracepoints");
	ru->npairs = 2;
	ru->pairs[0] = (struct result_wait_pair){
		.op = OP_RENAME, .kind = WAIT_SLEEP, .count = 1, .ms = 500,
		.stack = strdup("a;request_wait_answer [fuse]"),
		.waker_ctx = WAKER_TASK, .waker_comm = strdup("faultfs"),
		.waker_stack = strdup("b;fuse_request_end")};
	ru->pairs[1] = (struct result_wait_pair){
		.op = OP_RENAME, .kind = WAIT_RUNQ, .count = 2, .ms = 2.25,
		.waker_ctx = WAKER_UNKNOWN};
	ru->other_count = 7;
	ru->other_ms = 1.5;
	assert_int_equal(result_write_json(a, path, err, sizeof(err)), 0);
	assert_int_equal(result_load(path, &b, err, sizeof(err)), 0);
	unlink(path);
	assert_int_equal(b->stalls.unsampled, 1);
	o = &b->stalls.events[0].offcpu;
	assert_true(o->valid && o->partial);
	assert_true(o->blocked_ms == 500.5 && o->runq_ms == 2.25);
	assert_int_equal(o->sleeps, 3);
	assert_int_equal(o->preempted, 1);
	assert_int_equal(o->nwaits, 2);
	w = &o->waits[0];
	assert_true(w->at_ms == 0.5 && w->blocked_ms == 500 && w->runq_ms == 2);
	assert_int_equal(w->state, 'D');
	assert_true(w->woken);
	assert_string_equal(w->stack, "a;request_wait_answer [fuse]");
	assert_int_equal(w->waker_pid, 44);
	assert_string_equal(w->waker_comm, "faultfs");
	assert_int_equal(w->waker_client, -1);
	assert_int_equal(w->waker_ctx, WAKER_TASK);
	assert_string_equal(w->waker_stack, "b;fuse_request_end");
	assert_int_equal(o->waits[1].waker_ctx, WAKER_HARDIRQ);
	assert_null(o->waits[1].stack);
	ru = &b->stalls.offcpu;
	assert_string_equal(ru->method, "bpf");
	assert_null(ru->method_note);
	assert_int_equal(ru->intervals, 12345);
	assert_int_equal(ru->lost, 2);
	assert_int_equal(ru->stack_errors, 4);
	assert_int_equal(ru->overflow, 5);
	assert_true(ru->stack_min_ms == 1 && ru->symbols);
	assert_string_equal(ru->irq_method, "interrupt tracepoints");
	assert_int_equal(ru->npairs, 2);
	p = &ru->pairs[0];
	assert_int_equal(p->op, OP_RENAME);
	assert_int_equal(p->kind, WAIT_SLEEP);
	assert_true(p->ms == 500 && p->count == 1);
	assert_false(p->waker_client);
	assert_string_equal(p->waker_comm, "faultfs");
	assert_string_equal(p->waker_stack, "b;fuse_request_end");
	assert_int_equal(ru->pairs[1].kind, WAIT_RUNQ);
	assert_null(ru->pairs[1].stack);
	assert_int_equal(ru->other_count, 7);
	assert_true(ru->other_ms == 1.5);
	result_free(b);

	/* without BPF: the method and why; no bpf object, no offcpu */
	result_offcpu_run_free(&a->stalls.offcpu);
	result_offcpu_free(&a->stalls.events[0].offcpu);
	a->stalls.offcpu.method = strdup("proc");
	a->stalls.offcpu.method_note = strdup("--no-bpf");
	strcpy(path, "/tmp/dbng-test-result-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(result_write_json(a, path, err, sizeof(err)), 0);
	assert_int_equal(result_load(path, &b, err, sizeof(err)), 0);
	unlink(path);
	assert_string_equal(b->stalls.offcpu.method, "proc");
	assert_string_equal(b->stalls.offcpu.method_note, "--no-bpf");
	assert_int_equal(b->stalls.offcpu.npairs, 0);
	assert_false(b->stalls.events[0].offcpu.valid);
	result_free(a);
	result_free(b);
}

/* Corrupt or truncated JSON is refused with the line and column. */
static void test_json_errors(void **state)
{
	static const struct {
		const char *text;
		const char *msg;
	} cases[] = {
		{ "{\n \"format_version\": 1,\n \"tool\": \"x\"", "t.json:3:" },
		{ "{\n \"a\": [1, 2,,]\n}", "t.json:2:" },
		{ "[]", "t.json: not a JSON object" },
		{ "{\"format_version\": 99}", "format_version 99 is not supported" },
		{ "{\"format_version\": 1, \"tool\": \"x\"}", "field '" },
		{ "{\"a\": 1, \"a\": 2}", "t.json:1:" },
	};
	char err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct result *r = NULL;

		err[0] = 0;
		assert_int_equal(result_parse_json("t.json", cases[i].text,
						   strlen(cases[i].text), &r,
						   err, sizeof(err)), -1);
		if (!strstr(err, cases[i].msg))
			fail_msg("case %zu: '%s' lacks '%s'", i, err,
				 cases[i].msg);
		assert_null(r);
	}
}

/* The JSON document result_write_json() writes for @r, parsed. */
static json_t *written_doc(const struct result *r)
{
	char path[] = "/tmp/dbng-test-result-XXXXXX", err[512];
	int fd = mkstemp(path);
	json_t *doc;

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(result_write_json(r, path, err, sizeof(err)), 0);
	doc = json_load_file(path, 0, NULL);
	unlink(path);
	assert_non_null(doc);
	return doc;
}

/* An op listed twice is refused (the fuzzer found it leaked before). */
static void test_json_duplicate_op(void **state)
{
	char err[512], *text;
	struct result *a = sample(), *b = NULL;
	json_t *doc = written_doc(a), *ops;

	(void)state;
	ops = json_object_get(doc, "ops");
	json_array_append(ops, json_array_get(ops, 0));
	text = json_dumps(doc, 0);
	assert_non_null(text);
	assert_int_equal(result_parse_json("d.json", text, strlen(text), &b,
					   err, sizeof(err)), -1);
	assert_non_null(strstr(err, "appears twice"));
	assert_null(b);
	free(text);
	json_decref(doc);
	result_free(a);
}

/*
 * A result written before the config object had stall_threshold_ms, json,
 * runs, backend_version, backend_options, no_bpf and allow_symlink_races,
 * and its stalls the method and unsampled, still loads: the threshold is the
 * watchdog's (stalls), or 0 when it did not run; no JSON path; one run; the
 * backend's version not recorded (0), no backend options; BPF not turned off,
 * no method; symlink races not allowed; no event without a sample.
 */
static void test_json_old_format(void **state)
{
	char err[512], *text;
	struct result *a = sample(), *b = NULL;
	json_t *doc = written_doc(a), *cfg, *st;

	(void)state;
	cfg = json_object_get(doc, "config");
	assert_int_equal(json_object_del(cfg, "stall_threshold_ms"), 0);
	assert_int_equal(json_object_del(cfg, "json"), 0);
	assert_int_equal(json_object_del(cfg, "runs"), 0);
	assert_int_equal(json_object_del(cfg, "backend_version"), 0);
	assert_int_equal(json_object_del(cfg, "backend_options"), 0);
	assert_int_equal(json_object_del(cfg, "no_bpf"), 0);
	assert_int_equal(json_object_del(cfg, "allow_symlink_races"), 0);
	st = json_object_get(doc, "stalls");
	assert_int_equal(json_object_del(st, "method"), 0);
	assert_int_equal(json_object_del(st, "method_note"), 0);
	assert_int_equal(json_object_del(st, "bpf"), 0);
	assert_int_equal(json_object_del(st, "unsampled"), 0);
	for (int enabled = 0; enabled < 2; enabled++) {
		json_object_set_new(st, "enabled", json_boolean(enabled));
		json_object_set_new(st, "threshold_ms", json_real(150.0));
		text = json_dumps(doc, 0);
		assert_non_null(text);
		assert_int_equal(result_parse_json("old.json", text,
						   strlen(text), &b, err,
						   sizeof(err)), 0);
		assert_int_equal(b->cfg.stall_ms, enabled ? 150 : 0);
		assert_null(b->cfg.json);
		assert_int_equal(b->cfg.runs, 1);
		assert_string_equal(b->cfg.backend, "fileio");
		assert_int_equal(b->cfg.backend_version, 0);
		assert_null(b->cfg.backend_opts);
		assert_false(b->cfg.no_bpf);
		assert_false(b->cfg.allow_races);
		assert_null(b->stalls.offcpu.method);
		assert_int_equal(b->stalls.unsampled, 0);
		free(text);
		result_free(b);
		b = NULL;
	}
	json_decref(doc);
	result_free(a);
}

/* A paced result: response times of Rename and ReadX, late starts, and
 * a series with them. */
static struct result *paced_sample(void)
{
	struct result *r = sample();

	r->cfg.target_rate = 2.5;
	r->resp.valid = true;
	r->resp.pacing = RESP_RATE;
	r->resp.late_ms = 10;
	for (uint64_t v = 1; v < 2000000; v = v * 3 + 7)
		hist_record(&r->resp.h[OP_RENAME], v + 500000000);
	hist_record(&r->resp.h[OP_RENAME], HIST_LIMIT + 9); /* overflow */
	hist_record(&r->resp.h[OP_READX], 4000);
	r->resp.late[OP_RENAME] = 13;
	r->resp.late_max_ns[OP_RENAME] = 499000000;
	r->resp.late_max_ns[OP_READX] = 3000;
	r->points[3].resp_count[OP_RENAME] = 2;
	r->points[3].resp_max_ns[OP_RENAME] = 600000000;
	r->points[3].resp_p99_ns[OP_RENAME] = 590000000;
	r->points[3].late[OP_RENAME] = 1;
	return r;
}

/* points[3].resp_ops.OP of the document @d */
static json_t *point_resp(json_t *d, const char *op)
{
	json_t *ts = json_object_get(d, "time_series");
	json_t *pt = json_array_get(json_object_get(ts, "points"), 3);

	return json_object_get(json_object_get(pt, "resp_ops"), op);
}

/*
 * A paced run's response times survive the trip bin for bin, the late
 * starts and the series' too; the writer puts them in "response",
 * ops[].resp_ns and points[].resp_ops; an unpaced result has none of
 * these keys (not zeros), and a result without them (older, or unpaced)
 * loads with no response times.  Response times without "response", a
 * pacing that is not one, a resp_ns whose bins do not hold its count and
 * a point's resp_ops of the wrong shape are refused, named.
 */
static void test_json_response(void **state)
{
	char path[] = "/tmp/dbng-test-result-XXXXXX", err[512], *text;
	struct result *a = paced_sample(), *b = NULL, *u = sample();
	json_t *doc, *x;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(result_write_json(a, path, err, sizeof(err)), 0);
	assert_int_equal(result_load(path, &b, err, sizeof(err)), 0);
	unlink(path);
	assert_true(b->resp.valid);
	assert_int_equal(b->resp.pacing, RESP_RATE);
	assert_true(b->resp.late_ms == 10);
	for (int i = 0; i < OP_NR; i++) {
		assert_memory_equal(&a->resp.h[i], &b->resp.h[i],
				    sizeof(struct hist));
		assert_int_equal(a->resp.late[i], b->resp.late[i]);
		assert_int_equal(a->resp.late_max_ns[i], b->resp.late_max_ns[i]);
		for (uint32_t k = 0; k < a->npoints; k++) {
			assert_int_equal(a->points[k].resp_count[i],
					 b->points[k].resp_count[i]);
			assert_int_equal(a->points[k].resp_max_ns[i],
					 b->points[k].resp_max_ns[i]);
			assert_int_equal(a->points[k].resp_p99_ns[i],
					 b->points[k].resp_p99_ns[i]);
			assert_int_equal(a->points[k].late[i],
					 b->points[k].late[i]);
		}
	}
	result_free(b);
	b = NULL;

	doc = written_doc(a);
	x = json_object_get(doc, "response");
	assert_string_equal(json_string_value(json_object_get(x, "pacing")),
			    "rate");
	assert_int_equal(json_integer_value(json_object_get(x, "late_starts")),
			 13);
	assert_int_equal(json_integer_value(json_object_get(x, "ops")),
			 a->resp.h[OP_RENAME].count + 1);
	assert_non_null(point_resp(doc, "Rename"));

	/* errors, each named */
	{
		static const char *const want[] = {
			"response times without a 'response' object",
			"'response.pacing' is not rate or timestamps",
			"ops[Rename].resp_ns: the bins hold",
			("time_series.points[3].resp_ops.Rename is not "
			 "[count, max_ns, p99_ns, late]"),
		};

		for (int k = 0; k < 4; k++) {
			json_t *d = json_deep_copy(doc), *op = NULL, *v;
			size_t i;

			json_array_foreach(json_object_get(d, "ops"), i, v) {
				if (!strcmp(json_string_value(json_object_get(
						    v, "name")),
					    "Rename"))
					op = v;
			}
			assert_non_null(op);
			if (k == 0)
				json_object_del(d, "response");
			else if (k == 1)
				json_object_set_new(
					json_object_get(d, "response"),
					"pacing", json_string("fast"));
			else if (k == 2)
				json_object_set_new(
					json_object_get(op, "resp_ns"),
					"count", json_integer(3));
			else
				json_array_append_new(point_resp(d, "Rename"),
						      json_integer(1));
			text = json_dumps(d, 0);
			assert_int_equal(result_parse_json("p.json", text,
							   strlen(text), &b, err,
							   sizeof(err)),
					 -1);
			if (!strstr(err, want[k]))
				fail_msg("case %d: '%s' lacks '%s'", k, err,
					 want[k]);
			free(text);
			json_decref(d);
		}
	}

	/* unpaced: no key at all, and a result without them loads */
	json_decref(doc);
	doc = written_doc(u);
	assert_null(json_object_get(doc, "response"));
	assert_null(json_object_get(json_object_get(doc, "time_series"),
				    "resp_op_fields"));
	{
		json_t *v, *ts = json_object_get(doc, "time_series");
		size_t i;

		json_array_foreach(json_object_get(doc, "ops"), i, v) {
			assert_null(json_object_get(v, "resp_ns"));
		}
		json_array_foreach(json_object_get(ts, "points"), i, v) {
			assert_null(json_object_get(v, "resp_ops"));
		}
	}
	text = json_dumps(doc, 0);
	assert_int_equal(result_parse_json("u.json", text, strlen(text), &b,
					   err, sizeof(err)), 0);
	assert_false(b->resp.valid);
	assert_int_equal(b->resp.h[OP_RENAME].count, 0);
	free(text);
	result_free(b);
	json_decref(doc);
	result_free(a);
	result_free(u);
}

/* One host's result, as a host of a run across hosts sends it: two
 * clients, Rename calls from @base ns (its max @max), a stall of each
 * duration in @stall, the folded stacks "a;b" (@ab times) and "c". */
static struct result *host(uint64_t base, uint64_t max, const double *stall,
			   int nstall, uint64_t ab, const char *err)
{
	struct result *r = sample(), *back;
	char *text, msg[512];
	size_t len;

	for (int o = 0; o < OP_NR; o++) {
		hist_init(&r->op[o].h);
		r->op[o].bytes = 0;
		r->op[o].errors = 0;
	}
	for (uint64_t v = base; v < base + 5000; v += 7)
		hist_record(&r->op[OP_RENAME].h, v);
	hist_record(&r->op[OP_RENAME].h, max);
	r->op[OP_RENAME].bytes = base;
	r->op[OP_RENAME].max_client = (int)(base % 100);
	r->op[OP_RENAME].max_line = (uint32_t)base;
	r->nclients = 2;
	r->clients[0].lines = base;
	r->clients[1].lines = base + 1;
	r->status = err ? RESULT_FAILED : RESULT_OK;
	r->signal = 0;
	free(r->errors[0]);
	r->nerrors = 0;
	if (err)
		r->errors[r->nerrors++] = strdup(err);
	r->throughput = (double)base / 1000;
	r->stalls.enabled = true;
	r->stalls.threshold_ms = 50;
	for (int i = 0; i < nstall; i++) {
		struct result_stall *e = &r->stalls.events[i];

		e->op = OP_FLUSH;
		e->duration_ms = stall[i];
		e->file = strdup("f.load");
		e->samples[0].stack = strdup("x;y");
		e->nsamples = 1;
		e->offcpu.valid = true;
		e->offcpu.blocked_ms = stall[i];
		e->offcpu.nwaits = 1;
		e->offcpu.waits[0] = (struct result_wait){
			.blocked_ms = stall[i], .state = 'D', .woken = true,
			.stack = strdup("s;t"), .waker_pid = 7,
			.waker_comm = strdup("jbd2/loop0-8"),
			.waker_client = -1, .waker_ctx = WAKER_TASK,
			.waker_stack = strdup("u;v")};
		r->stalls.offcpu.pairs[0].count++;
		r->stalls.offcpu.pairs[0].ms += stall[i];
		r->stalls.count[OP_FLUSH]++;
		if (stall[i] > r->stalls.max_ms[OP_FLUSH])
			r->stalls.max_ms[OP_FLUSH] = stall[i];
	}
	r->stalls.nevents = nstall;
	r->stalls.total = (uint64_t)nstall;
	/* traced with BPF; the same row on every host */
	r->stalls.offcpu.method = strdup("bpf");
	r->stalls.offcpu.intervals = base;
	r->stalls.offcpu.npairs = 1;
	r->stalls.offcpu.pairs[0].op = OP_FLUSH;
	r->stalls.offcpu.pairs[0].kind = WAIT_SLEEP;
	r->stalls.offcpu.pairs[0].stack = strdup("s;t");
	r->stalls.offcpu.pairs[0].waker_ctx = WAKER_TASK;
	r->stalls.offcpu.pairs[0].waker_comm = strdup("jbd2/loop0-8");
	r->stalls.offcpu.pairs[0].waker_stack = strdup("u;v");
	r->stalls.folded[0].stack = strdup("a;b");
	r->stalls.folded[0].count = ab;
	r->stalls.folded[1].stack = strdup("c");
	r->stalls.folded[1].count = 1;
	r->stalls.nfolded = 2;
	/* through its JSON text, as rank 0 gets it */
	text = result_json_text(r, NULL, &len);
	assert_non_null(text);
	assert_int_equal(result_parse_json("host", text, len, &back, msg,
					   sizeof(msg)), 0);
	free(text);
	result_free(r);
	return back;
}

static void test_merge_hosts(void **state)
{
	static const double sa[] = {300}, sb[] = {500, 100};
	struct result *a = host(1000, 9000000, sa, 1, 2, NULL);
	struct result *b = host(2003, 7000000, sb, 2, 3, "client 3 died");
	struct result *run = result_new(), *back;
	struct stats *st = calloc(1, sizeof(*st)), *one = calloc(1, sizeof(*one));
	struct hist want = {0};
	char path[] = "/tmp/dbng-test-result-XXXXXX", err[512];
	int slow, fast, fd;

	(void)state;
	assert_non_null(run);
	assert_non_null(st);
	assert_non_null(one);
	/* the run's statistics, as rank 0 gets them: every host's added */
	for (int k = 0; k < 2; k++) {
		const struct result *h = k ? b : a;

		for (int o = 0; o < OP_NR; o++) {
			one->op[o] = h->op[o].h;
			one->bytes[o] = h->op[o].bytes;
			one->errors[o] = h->op[o].errors;
		}
		stats_add(st, one);
	}
	hist_add(&want, &a->op[OP_RENAME].h);
	hist_add(&want, &b->op[OP_RENAME].h);
	result_set_stats(run, st);
	assert_int_equal(result_merge_begin(run, 2, 4), 0);
	assert_int_equal(result_merge_host(run, a, "alpha", 0, 0, 0, 0), 0);
	assert_int_equal(result_merge_host(run, b, "beta", 1, 2, 0.5, 0.01),
			 0);
	result_merge_end(run);

	/* exact: the bins are the sum of the hosts' bins */
	assert_memory_equal(&run->op[OP_RENAME].h, &want, sizeof(want));
	assert_int_equal(run->op[OP_RENAME].bytes, 1000 + 2003);
	assert_int_equal(hist_value_at(&run->op[OP_RENAME].h, 100), 9000000);
	/* the slowest call is alpha's: its client and line */
	assert_int_equal(run->op[OP_RENAME].max_client, 0);
	assert_int_equal(run->op[OP_RENAME].max_line, 1000);
	/* clients in place, by their ids */
	assert_int_equal(run->nclients, 4);
	assert_int_equal(run->clients[1].lines, 1001);
	assert_int_equal(run->clients[2].lines, 2003);
	/* a failure anywhere fails the run, named by host and rank */
	assert_int_equal(run->status, RESULT_FAILED);
	assert_int_equal(run->nerrors, 1);
	assert_string_equal(run->errors[0], "host beta rank 1: client 3 died");
	assert_int_equal(run->nwarn, 10);
	assert_string_equal(run->warn_msgs[1],
			    "host beta rank 1: client 0 at x:3: NTCreateX "
			    "failed");
	/* stalls: counted, the longest first, each with its host */
	assert_int_equal(run->stalls.total, 3);
	assert_int_equal(run->stalls.count[OP_FLUSH], 3);
	assert_true(run->stalls.max_ms[OP_FLUSH] == 500);
	assert_int_equal(run->stalls.nevents, 3);
	assert_true(run->stalls.events[0].duration_ms == 500);
	assert_string_equal(run->stalls.events[0].host, "beta");
	assert_int_equal(run->stalls.events[0].rank, 1);
	assert_string_equal(run->stalls.events[1].host, "alpha");
	assert_string_equal(run->stalls.events[1].samples[0].stack, "x;y");
	assert_string_equal(run->stalls.folded[0].stack, "a;b");
	assert_int_equal(run->stalls.folded[0].count, 5);
	assert_int_equal(run->stalls.folded[1].count, 2);
	/* why they waited: each event's own copy, the rows summed, BPF
	 * only where every host traced with it */
	assert_string_equal(run->stalls.events[0].offcpu.waits[0].stack,
			    "s;t");
	assert_ptr_not_equal(run->stalls.events[0].offcpu.waits[0].stack,
			     b->stalls.events[0].offcpu.waits[0].stack);
	assert_string_equal(run->stalls.events[1].offcpu.waits[0].waker_comm,
			    "jbd2/loop0-8");
	assert_string_equal(run->stalls.offcpu.method, "bpf");
	assert_int_equal(run->stalls.offcpu.intervals, 1000 + 2003);
	assert_int_equal(run->stalls.offcpu.npairs, 1);
	assert_int_equal(run->stalls.offcpu.pairs[0].count, 3);
	assert_true(run->stalls.offcpu.pairs[0].ms == 900);
	/* a host that could not trace makes the run's method /proc */
	assert_int_equal(result_offcpu_run_add(
				 &run->stalls.offcpu,
				 &(struct result_offcpu_run){
					 .method = "proc",
					 .method_note = "no BTF"},
				 "host gamma rank 2"),
			 0);
	assert_string_equal(run->stalls.offcpu.method, "proc");
	assert_string_equal(run->stalls.offcpu.method_note,
			    "host gamma rank 2: no BTF");
	/* the hosts' own rows, and the imbalance */
	assert_int_equal(run->nhosts, 2);
	assert_string_equal(run->hosts[1].name, "beta");
	assert_int_equal(run->hosts[1].first_client, 2);
	assert_int_equal(run->hosts[1].count[OP_RENAME],
			 b->op[OP_RENAME].h.count);
	assert_true(run->hosts[1].max_ms[OP_RENAME] == 7.0);
	assert_true(run->hosts[1].release_ms == 0.5);
	assert_true(result_imbalance(run, &slow, &fast));
	assert_int_equal(slow, 0);
	assert_int_equal(fast, 1);

	/* and all of it survives the run's JSON file */
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(result_write_json(run, path, err, sizeof(err)), 0);
	assert_int_equal(result_load(path, &back, err, sizeof(err)), 0);
	unlink(path);
	assert_int_equal(back->nhosts, 2);
	assert_string_equal(back->hosts[0].name, "alpha");
	assert_int_equal(back->hosts[1].rank, 1);
	assert_int_equal(back->hosts[1].status, RESULT_FAILED);
	assert_true(back->hosts[1].release_err_ms == 0.01);
	assert_true(back->hosts[0].p99_ms[OP_RENAME] ==
		    run->hosts[0].p99_ms[OP_RENAME]);
	assert_string_equal(back->stalls.events[0].host, "beta");
	assert_int_equal(back->stalls.events[0].rank, 1);
	assert_null(a->stalls.events[0].host);
	assert_memory_equal(&back->op[OP_RENAME].h, &want, sizeof(want));
	result_free(back);
	result_free(run);
	result_free(a);
	result_free(b);
	free(st);
	free(one);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_series_bounded),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_json_checkpoint),
		cmocka_unit_test(test_stalls_copy),
		cmocka_unit_test(test_json_not_run),
		cmocka_unit_test(test_json_offcpu),
		cmocka_unit_test(test_json_errors),
		cmocka_unit_test(test_json_duplicate_op),
		cmocka_unit_test(test_json_old_format),
		cmocka_unit_test(test_json_response),
		cmocka_unit_test(test_merge_hosts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
