/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_report_busy.c - what the text report says of a busy machine: the
 * one line before the classic table (report_busy.c) with BPF's share and
 * holder, without BPF that comparisons are unreliable and how to get own
 * latencies, and nothing on a quiet machine; and the heading of a stall
 * that BPF shows mostly runnable (report_offcpu_headline): "waiting for a
 * CPU (X of Y ms)" and who held it, before the /proc samples, and none
 * for a stall mostly asleep.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report_busy.h"
#include "report_offcpu.h"
#include "report_text.h"
#include "result.h"
#include "result_foreign.h"

/* 4 clients over 10 s, one NTCreateX each */
static struct result *sample(void)
{
	struct result *r = result_new();

	assert_non_null(r);
	r->has_bins = true;
	r->status = RESULT_OK;
	r->cfg.nprocs = 4;
	r->cfg.cpp = 1;
	r->cfg.nclients = 4;
	r->cfg.no_percentiles = true;
	for (int i = 0; i < 4; i++) {
		hist_record(&r->op[OP_NTCREATEX].h, 20000);
		hist_record(&r->op[OP_NTCREATEX].own, 10000);
	}
	r->measured_s = 10;
	r->throughput = 12.5;
	r->disturb = (struct result_disturb){.valid = true, .seconds = 10,
					     .steal_pct = -1};
	return r;
}

static __attribute__((noinline)) char *render(const struct result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	report_text(f, r, NULL);
	fclose(f);
	return buf;
}

static void has(const char *got, const char *want)
{
	if (!strstr(got, want))
		fail_msg("printed:\n%s\nlacks:\n%s", got, want);
}

/* BPF: 4 clients x 10 s, 1.2 s behind a burner: 3 %, over the bound */
static void test_busy_bpf(void **state)
{
	struct result *r = sample();
	char *got;

	(void)state;
	r->foreign.method = FOREIGN_BPF;
	r->foreign.wait_ns = 1200000000;
	result_foreign_add_holder(&r->foreign, "burn", 1100000000);
	assert_true(report_busy_machine(r));
	got = render(r);
	has(got, "\n Busy machine: other programs held the CPU for 3.0 % of "
		 "the clients' time (most: burn); compare and check will "
		 "decide on own latencies\n\n Operation");
	free(got);
	/* under the bound and not disturbed: nothing */
	r->foreign.wait_ns = 400000000; /* 1 % */
	assert_false(report_busy_machine(r));
	got = render(r);
	assert_null(strstr(got, "Busy"));
	free(got);
	/* disturbed (another CPU busy), little foreign wait: still said */
	r->disturb.other_cpus = 1.0;
	got = render(r);
	has(got, " Busy machine: other programs held the CPU for 1.0 % of");
	free(got);
	result_free(r);
}

/* Without BPF: the share is unknown; disturbed says the comparisons are
 * unreliable, with how to get own latencies, by the note */
static void test_busy_without_bpf(void **state)
{
	static const struct {
		int method;
		const char *note, *want;
	} cases[] = {
		{FOREIGN_SCHEDSTAT, "--no-bpf",
		 "own latencies need BPF (without --no-bpf, as root or with "
		 "CAP_BPF and CAP_PERFMON)"},
		{FOREIGN_SCHEDSTAT, "no privilege to load BPF programs",
		 "own latencies need BPF (root, or CAP_BPF and CAP_PERFMON)"},
		{FOREIGN_SCHEDSTAT, "this build has no libbpf (...)",
		 "own latencies need a build with BPF"},
		{FOREIGN_NONE, NULL, "it has no own latencies"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct result *r = sample();
		char *got;

		for (int k = 0; k < OP_NR; k++)
			hist_init(&r->op[k].own);
		r->foreign.method = cases[i].method;
		r->foreign.note = cases[i].note ? strdup(cases[i].note) : NULL;
		r->foreign.runq_ns = 39000000000ULL; /* no foreign split */
		got = render(r);
		assert_null(strstr(got, "Busy"));
		free(got);
		r->disturb.other_cpus = 0.97;
		got = render(r);
		has(got, " Busy machine: other programs used 0.97 CPUs beside "
			 "the run; comparisons of this run are unreliable: ");
		has(got, cases[i].want);
		free(got);
		result_free(r);
	}
}

/* A stall, runnable @runq of @dur ms, its holder @comm of @held ms */
static struct result *stalled(double dur, double runq, const char *comm,
			      double held)
{
	struct result *r = sample();
	struct result_stalls *st = &r->stalls;
	struct result_stall *ev = &st->events[0];

	st->enabled = true;
	st->threshold_ms = 100;
	st->total = 1;
	st->count[OP_RENAME] = 1;
	st->max_ms[OP_RENAME] = dur;
	st->nevents = 1;
	ev->client = 1;
	ev->pid = 77;
	ev->op = OP_RENAME;
	ev->line = 12;
	ev->file = strdup("t.load");
	ev->duration_ms = dur;
	ev->ended = true;
	ev->nsamples = 1;
	ev->samples[0] = (struct result_stall_sample){
		.t_ms = 100, .state = 'R', .wchan = strdup("0"),
		.stack = strdup("entry;blkdev_issue_discard")};
	ev->offcpu.valid = true;
	ev->offcpu.runq_ms = runq;
	ev->offcpu.blocked_ms = dur - runq - 0.1;
	if (comm) {
		snprintf(ev->offcpu.holder, sizeof(ev->offcpu.holder), "%s",
			 comm);
		ev->offcpu.holder_ms = held;
		ev->offcpu.holder_kind = HOLDER_OTHER;
	}
	return r;
}

static void test_headline(void **state)
{
	struct result *r = stalled(274, 273.7, "cc1", 270);
	char *got = render(r), *h, *s;

	(void)state;
	h = strstr(got, "     waiting for a CPU (273.7 of 274.0 ms), held by "
			"cc1 (a program outside the run) for 270.0 ms\n");
	s = strstr(got, "blkdev_issue_discard");
	if (!h || !s || h > s)
		fail_msg("no headline before the /proc stack:\n%s", got);
	/* right under the event's heading */
	assert_true(h[-1] == '\n' && strstr(got, "t.load:12\n     waiting"));
	free(got);
	result_free(r);

	/* a holder of less than half of it: the longest one seen */
	r = stalled(274, 273.7, "make", 40);
	got = render(r);
	has(got, "waiting for a CPU (273.7 of 274.0 ms), held longest by make "
		 "(a program outside the run) for 40.0 ms\n");
	free(got);
	result_free(r);

	/* no holder known: the wait alone */
	r = stalled(274, 273.7, NULL, 0);
	got = render(r);
	has(got, "waiting for a CPU (273.7 of 274.0 ms)\n");
	free(got);
	result_free(r);

	/* mostly asleep, or half runnable: the stack leads */
	r = stalled(274, 137, "cc1", 130);
	got = render(r);
	assert_null(strstr(got, "waiting for a CPU ("));
	free(got);
	result_free(r);

	/* without BPF figures: none either */
	r = stalled(274, 273.7, "cc1", 270);
	r->stalls.events[0].offcpu.valid = false;
	got = render(r);
	assert_null(strstr(got, "waiting for a CPU ("));
	free(got);
	result_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_busy_bpf),
		cmocka_unit_test(test_busy_without_bpf),
		cmocka_unit_test(test_headline),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
