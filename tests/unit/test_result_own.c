/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_result_own.c - own latencies and the foreign CPU wait of a result
 * (result.h: result_op.own and foreign_ns, struct result_foreign): they
 * survive a trip through the JSON form bin for bin, a result without
 * them (older) reads as not measured, a bad "foreign" object is refused
 * by name, the clients' statistics and the hosts of a run merge them
 * exactly, and the holders keep the largest, most first.
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
#include "result_foreign.h"
#include "result_json.h"
#include "stats.h"

/* A result of 4 clients over 10 s with own latencies of Rename and
 * ReadX, foreign wait and two holders. */
static struct result *sample(void)
{
	struct result *r = result_new();

	assert_non_null(r);
	r->tool = strdup("dbench-ng");
	r->status = RESULT_OK;
	r->has_bins = true;
	r->cfg.nclients = 4;
	r->cfg.nprocs = 4;
	r->cfg.cpp = 1;
	r->cfg.backend = "fileio";
	r->measured_s = 10;
	r->throughput = 100;
	for (uint64_t v = 1; v < 2000000; v = v * 3 + 7) {
		hist_record(&r->op[OP_RENAME].h, v + 1000);
		hist_record(&r->op[OP_RENAME].own, v);
		hist_record(&r->op[OP_READX].h, v / 2 + 1);
		hist_record(&r->op[OP_READX].own, v / 2 + 1);
		r->op[OP_RENAME].foreign_ns += 1000;
	}
	r->foreign.method = FOREIGN_BPF;
	r->foreign.wait_ns = 800000000;
	r->foreign.runq_ns = 900000000;
	r->foreign.own_mbps = 102.04;
	result_foreign_add_holder(&r->foreign, "burn", 700000000);
	result_foreign_add_holder(&r->foreign, "cc1", 100000000);
	return r;
}

static json_t *doc_of(const struct result *r)
{
	size_t len;
	char *text = result_json_text(r, NULL, &len);
	json_t *d;

	assert_non_null(text);
	d = json_loadb(text, len, 0, NULL);
	free(text);
	assert_non_null(d);
	return d;
}

static struct result *parse(json_t *d, char *err, size_t len, int want)
{
	char *text = json_dumps(d, 0);
	struct result *r = NULL;

	assert_non_null(text);
	assert_int_equal(result_parse_json("own.json", text, strlen(text), &r,
					   err, len),
			 want);
	free(text);
	return r;
}

static json_t *op_obj(json_t *d, const char *name)
{
	json_t *v;
	size_t i;

	json_array_foreach(json_object_get(d, "ops"), i, v) {
		if (!strcmp(json_string_value(json_object_get(v, "name")), name))
			return v;
	}
	return NULL;
}

static void test_round_trip(void **state)
{
	struct result *a = sample(), *b;
	json_t *d = doc_of(a), *f;
	char err[512];

	(void)state;
	f = json_object_get(d, "foreign");
	assert_string_equal(json_string_value(json_object_get(f, "method")),
			    "bpf");
	assert_non_null(json_object_get(op_obj(d, "Rename"), "own"));
	b = parse(d, err, sizeof(err), 0);
	for (int i = 0; i < OP_NR; i++) {
		assert_memory_equal(&a->op[i].own, &b->op[i].own,
				    sizeof(struct hist));
		assert_int_equal(a->op[i].foreign_ns, b->op[i].foreign_ns);
	}
	assert_int_equal(b->foreign.method, FOREIGN_BPF);
	assert_null(b->foreign.note);
	assert_int_equal(b->foreign.wait_ns, 800000000);
	assert_int_equal(b->foreign.runq_ns, 900000000);
	assert_true(b->foreign.own_mbps == 102.04);
	assert_int_equal(b->foreign.nholders, 2);
	assert_string_equal(b->foreign.holders[0].comm, "burn");
	assert_int_equal(b->foreign.holders[1].ns, 100000000);
	assert_true(result_has_own(b));
	result_free(b);
	json_decref(d);
	result_free(a);
}

/* Without BPF: method schedstat and its note, no own histograms (no
 * "own" key), foreign_ns written as 0; result_has_own is false */
static void test_schedstat(void **state)
{
	struct result *a = sample(), *b;
	json_t *d;
	char err[512];
	bool runq;

	(void)state;
	for (int i = 0; i < OP_NR; i++) {
		hist_init(&a->op[i].own);
		a->op[i].foreign_ns = 0;
	}
	a->foreign = (struct result_foreign){
		.method = FOREIGN_SCHEDSTAT,
		.note = strdup("no privilege"),
		.runq_ns = 2000000000,
	};
	d = doc_of(a);
	assert_null(json_object_get(op_obj(d, "Rename"), "own"));
	assert_int_equal(json_integer_value(json_object_get(
				 op_obj(d, "Rename"), "foreign_ns")),
			 0);
	b = parse(d, err, sizeof(err), 0);
	assert_int_equal(b->foreign.method, FOREIGN_SCHEDSTAT);
	assert_string_equal(b->foreign.note, "no privilege");
	assert_false(result_has_own(b));
	/* 2 s of 4 clients x 10 s */
	assert_true(result_foreign_share(b, &runq) == 0.05);
	assert_true(runq);
	result_free(b);
	json_decref(d);
	result_free(a);
}

/* An older result: no "foreign", no ops[].own nor foreign_ns */
static void test_old(void **state)
{
	struct result *a = sample(), *b;
	json_t *d = doc_of(a), *v;
	char err[512];
	size_t i;
	bool runq;

	(void)state;
	json_object_del(d, "foreign");
	json_array_foreach(json_object_get(d, "ops"), i, v) {
		json_object_del(v, "own");
		json_object_del(v, "foreign_ns");
	}
	b = parse(d, err, sizeof(err), 0);
	assert_int_equal(b->foreign.method, FOREIGN_NONE);
	assert_int_equal(b->op[OP_RENAME].own.count, 0);
	assert_false(result_has_own(b));
	assert_true(result_foreign_share(b, &runq) == 0);
	result_free(b);
	json_decref(d);
	result_free(a);
}

/* Bad objects are refused, named */
static void test_errors(void **state)
{
	static const char *const want[] = {
		"'foreign.method' is not bpf, schedstat or none",
		"'foreign.wait_ns' or 'foreign.runq_ns'",
		"'foreign.own_mbps' is not a non-negative number",
		"foreign.holders[0] is not {comm, ns}",
		"ops[Rename].own: the bins hold",
	};
	struct result *a = sample();
	json_t *doc = doc_of(a);
	char err[512];

	(void)state;
	for (int k = 0; k < 5; k++) {
		json_t *d = json_deep_copy(doc), *f = json_object_get(d, "foreign");

		if (k == 0)
			json_object_set_new(f, "method", json_string("ebpf"));
		else if (k == 1)
			json_object_set_new(f, "wait_ns", json_integer(-1));
		else if (k == 2)
			json_object_set_new(f, "own_mbps", json_string("x"));
		else if (k == 3)
			json_array_insert_new(json_object_get(f, "holders"), 0,
					      json_integer(3));
		else
			json_object_set_new(
				json_object_get(op_obj(d, "Rename"), "own"),
				"count", json_integer(3));
		parse(d, err, sizeof(err), -1);
		if (!strstr(err, want[k]))
			fail_msg("case %d: '%s' lacks '%s'", k, err, want[k]);
		json_decref(d);
	}
	json_decref(doc);
	result_free(a);
}

/* Clients' statistics: own latencies add only where recorded; a reset
 * empties them; set_stats gives them to the result */
static void test_stats(void **state)
{
	struct stats *a = calloc(1, sizeof(*a)), *s = calloc(1, sizeof(*s));
	struct result *r = result_new();

	(void)state;
	assert_non_null(a);
	assert_non_null(s);
	/* 5 ms of which 2 ms foreign; 1 ms "of which 3 ms" (counters that
	 * disagree): own 0, foreign 1 ms */
	assert_int_equal(stats_record_own(a, OP_RENAME, 5000000, 2000000),
			 3000000);
	assert_int_equal(stats_record_own(a, OP_RENAME, 1000000, 3000000), 0);
	stats_add(s, a);
	stats_add(s, a);
	assert_int_equal(s->nown, 4);
	assert_int_equal(s->own[OP_RENAME].count, 4);
	assert_int_equal(s->own[OP_RENAME].sum, 6000000);
	assert_int_equal(s->foreign_ns[OP_RENAME], 6000000);
	result_set_stats(r, s);
	assert_int_equal(r->op[OP_RENAME].own.max, 3000000);
	assert_int_equal(r->op[OP_RENAME].foreign_ns, 6000000);
	stats_reset(s);
	assert_int_equal(s->nown, 0);
	assert_int_equal(s->own[OP_RENAME].count, 0);
	assert_int_equal(s->foreign_ns[OP_RENAME], 0);
	free(a);
	free(s);
	result_free(r);
}

/* Two hosts: waits and throughputs add, holders by name, and a host
 * without BPF makes the run's method schedstat */
static void test_merge(void **state)
{
	struct result *a = sample(), *b = sample(), *run = result_new();

	(void)state;
	assert_int_equal(result_merge_begin(run, 2, 8), 0);
	assert_int_equal(result_merge_host(run, a, "a", 0, 0, 0, 0), 0);
	assert_int_equal(run->foreign.method, FOREIGN_BPF);
	free(b->foreign.note);
	b->foreign.method = FOREIGN_SCHEDSTAT;
	b->foreign.note = strdup("host b: no privilege");
	b->foreign.holders[1] = (struct result_foreign_holder){"make", 900000000};
	assert_int_equal(result_merge_host(run, b, "b", 1, 4, 0, 0), 0);
	assert_int_equal(run->foreign.method, FOREIGN_SCHEDSTAT);
	assert_string_equal(run->foreign.note, "host b: no privilege");
	assert_int_equal(run->foreign.wait_ns, 1600000000);
	assert_int_equal(run->foreign.runq_ns, 1800000000);
	assert_true(run->foreign.own_mbps == 204.08);
	assert_int_equal(run->foreign.nholders, 3);
	assert_string_equal(run->foreign.holders[0].comm, "burn");
	assert_int_equal(run->foreign.holders[0].ns, 1400000000);
	assert_string_equal(run->foreign.holders[1].comm, "make");
	assert_string_equal(run->foreign.holders[2].comm, "cc1");
	result_free(a);
	result_free(b);
	result_free(run);
}

/* The holders: the FOREIGN_MAX_HOLDERS largest, most first */
static void test_holders(void **state)
{
	struct result_foreign f = {0};
	static const char *const names[] = {"a", "b", "c", "d", "e", "f"};

	(void)state;
	for (int i = 0; i < 6; i++)
		result_foreign_add_holder(&f, names[i], (uint64_t)(i + 1) * 10);
	assert_int_equal(f.nholders, FOREIGN_MAX_HOLDERS);
	assert_string_equal(f.holders[0].comm, "f");
	assert_string_equal(f.holders[3].comm, "c");
	result_foreign_add_holder(&f, "a", 100); /* 10 + 100 beats all */
	assert_string_equal(f.holders[0].comm, "a");
	assert_int_equal(f.holders[0].ns, 100); /* "a" had been dropped */
	result_foreign_add_holder(&f, "d", 1);
	assert_int_equal(f.holders[3].ns, 41);
	result_foreign_add_holder(&f, "zz", 1); /* too small for a place */
	for (int i = 0; i < f.nholders; i++)
		assert_string_not_equal(f.holders[i].comm, "zz");
}

/* Who held the CPU a stall waited for (stalls.events[].offcpu.holder)
 * comes back; an older event without it reads as unknown; a bad one is
 * refused */
static void test_stall_holder(void **state)
{
	struct result *a = sample(), *b;
	struct result_stall *ev = &a->stalls.events[0];
	json_t *d, *h;
	char err[512];

	(void)state;
	a->stalls.enabled = true;
	a->stalls.nevents = 1;
	ev->op = OP_RENAME;
	ev->duration_ms = 274;
	ev->ended = true;
	ev->offcpu.valid = true;
	ev->offcpu.runq_ms = 273.7;
	snprintf(ev->offcpu.holder, sizeof(ev->offcpu.holder), "kworker/0:1");
	ev->offcpu.holder_ms = 250.5;
	ev->offcpu.holder_kind = HOLDER_KTHREAD;
	d = doc_of(a);
	b = parse(d, err, sizeof(err), 0);
	assert_string_equal(b->stalls.events[0].offcpu.holder, "kworker/0:1");
	assert_true(b->stalls.events[0].offcpu.holder_ms == 250.5);
	assert_int_equal(b->stalls.events[0].offcpu.holder_kind,
			 HOLDER_KTHREAD);
	result_free(b);
	h = json_object_get(json_object_get(json_array_get(json_object_get(
				json_object_get(d, "stalls"), "events"), 0),
					    "offcpu"),
			    "holder");
	assert_string_equal(json_string_value(json_object_get(h, "kind")),
			    "kernel_thread");
	json_object_set_new(h, "kind", json_string("daemon"));
	parse(d, err, sizeof(err), -1);
	assert_non_null(strstr(err, "offcpu.holder' is not {comm, ms, kind}"));
	json_object_del(json_object_get(json_array_get(json_object_get(
				json_object_get(d, "stalls"), "events"), 0),
					"offcpu"),
			"holder");
	b = parse(d, err, sizeof(err), 0);
	assert_int_equal(b->stalls.events[0].offcpu.holder[0], 0);
	result_free(b);
	json_decref(d);
	result_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_schedstat),
		cmocka_unit_test(test_old),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_holders),
		cmocka_unit_test(test_stall_holder),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
