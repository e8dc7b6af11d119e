/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_report_text.c - the text report of a result made here, byte for
 * byte: the percentile table, the dbench 4.0 table (rows in dbench's
 * order, empty ones left out) and Throughput line, --machine-readable,
 * --per-client-results, the lines for failed and interrupted runs, the
 * stall section with the words dbench parsers look for kept out, a paced
 * run's response times, and the --runs spread.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "clock.h"
#include "report_offcpu.h"
#include "report_text.h"
#include "result.h"

#define US NSEC_PER_USEC
#define MS NSEC_PER_MSEC

/* Two clients: 4 NTCreateX of 10..40 us, 2 WriteX of 1 and 3 ms, one
 * Rename of 2 ms; no ReadX (its row is left out). */
static struct result *sample(void)
{
	struct result *r = result_new();

	assert_non_null(r);
	r->has_bins = true;
	r->cfg.nprocs = 2;
	r->cfg.cpp = 1;
	r->cfg.nclients = 2;
	for (int i = 1; i <= 4; i++)
		hist_record(&r->op[OP_NTCREATEX].h, (uint64_t)i * 10 * US);
	hist_record(&r->op[OP_WRITEX].h, 1 * MS);
	hist_record(&r->op[OP_WRITEX].h, 3 * MS);
	hist_record(&r->op[OP_RENAME].h, 2 * MS);
	r->throughput = 12.5;
	r->max_latency_ms = 3.25;
	r->measured_s = 10;
	return r;
}

/* not inlined: gcc 12 then takes the result for a pointer to its local
 * (a false -Wdangling-pointer) */
static __attribute__((noinline)) char *render(const struct result *r,
					      const struct report_pcts *pc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	report_text(f, r, pc);
	fclose(f);
	return buf;
}

static void expect(char *got, const char *want)
{
	if (strcmp(got, want))
		fail_msg("printed:\n%s\nexpected:\n%s", got, want);
	free(got);
}

#define CLASSIC                                                      \
	" Operation      Count    AvgLat    MaxLat\n"                  \
	" ----------------------------------------\n"                  \
	" NTCreateX          4     0.025     0.040\n"                  \
	" Rename             1     2.000     2.000\n"                  \
	" WriteX             2     2.000     3.000\n"                  \
	"\n"

static void test_plain(void **state)
{
	struct result *r = sample();

	(void)state;
	expect(render(r, NULL),
	       "\n"
	       " Latency ms        Count      Mean       p50       p90       "
	       "p99     p99.9       Max\n"
	       " ========================================================="
	       "==========================\n"
	       " NTCreateX:            4     0.025     0.020     0.040     "
	       "0.040     0.040     0.040\n"
	       " Rename:               1     2.000     2.000     2.000     "
	       "2.000     2.000     2.000\n"
	       /* percentiles within the histogram's 1 %, max exact */
	       " WriteX:               2     2.000     1.004     2.998     "
	       "2.998     2.998     3.000\n"
	       "\n" CLASSIC "Throughput 12.5 MB/sec  2 clients  2 procs  "
	       "max_latency=3.250 ms\n");
	r->cfg.no_percentiles = true;
	r->cfg.sync_open = true;
	r->cfg.sync_dirs = true;
	expect(render(r, NULL),
	       "\n" CLASSIC "Throughput 12.5 MB/sec (sync open) (sync dirs)  "
	       "2 clients  2 procs  max_latency=3.250 ms\n");
	result_free(r);
}

static void test_percentiles_chosen(void **state)
{
	struct result *r = sample();
	struct report_pcts pc;
	char err[128];

	(void)state;
	assert_int_equal(report_pcts_parse("75,99.99", &pc, err, sizeof(err)),
			 0);
	r->op[OP_WRITEX].h.count = 0; /* only NTCreateX and Rename left */
	r->op[OP_RENAME].h.count = 0;
	r->cfg.no_percentiles = false;
	expect(render(r, &pc),
	       "\n"
	       " Latency ms        Count      Mean       p75    p99.99       "
	       "Max\n"
	       " ==========================================================="
	       "====\n"
	       " NTCreateX:            4     0.025     0.030     0.040     "
	       "0.040\n"
	       "\n"
	       " Operation      Count    AvgLat    MaxLat\n"
	       " ----------------------------------------\n"
	       " NTCreateX          4     0.025     0.040\n"
	       "\n"
	       "Throughput 12.5 MB/sec  2 clients  2 procs  "
	       "max_latency=3.250 ms\n");
	assert_int_equal(report_pcts_parse("50,x", &pc, err, sizeof(err)), -1);
	assert_string_equal(err, "--percentiles: 'x' is not a percentile "
				 "(0 < p <= 100)");
	assert_int_equal(report_pcts_parse("0", &pc, err, sizeof(err)), -1);
	assert_int_equal(report_pcts_parse("", &pc, err, sizeof(err)), -1);
	assert_string_equal(err, "--percentiles: no percentile given");
	result_free(r);
}

/* The default columns, as "report --help" may print them. */
static void test_default_percentiles(void **state)
{
	char b[64];

	(void)state;
	report_pcts_default(b, sizeof(b));
	assert_string_equal(b, "50,90,99,99.9");
	report_pcts_default(b, 6);
	assert_string_equal(b, "50,90");
}

static void test_machine_readable(void **state)
{
	struct result *r = sample();

	(void)state;
	r->cfg.machine = true;
	expect(render(r, NULL), "\n"
				" Operation      Count    AvgLat    MaxLat\n"
				" ----------------------------------------\n"
				":NTCreateX:4:0.025:0.040:\n"
				":Rename:1:2.000:2.000:\n"
				":WriteX:2:2.000:3.000:\n"
				"\n"
				";12.5;2;2;3.250;\n");
	result_free(r);
}

static void test_per_client(void **state)
{
	struct result *r = sample();

	(void)state;
	r->cfg.no_percentiles = true;
	r->cfg.per_client = true;
	r->nclients = 2;
	r->clients = calloc(2, sizeof(*r->clients));
	assert_non_null(r->clients);
	r->clients[0] = (struct result_client){.lines = 70, .bytes = 4096};
	r->clients[0].count[OP_NTCREATEX] = 4;
	r->clients[0].sum_ns[OP_NTCREATEX] = 100 * US;
	r->clients[0].max_ns[OP_NTCREATEX] = 40 * US;
	r->clients[1] = (struct result_client){.lines = 30, .bytes = 65536};
	r->clients[1].count[OP_WRITEX] = 2;
	r->clients[1].sum_ns[OP_WRITEX] = 4 * MS;
	r->clients[1].max_ns[OP_WRITEX] = 3 * MS;
	r->clients[1].count[OP_RENAME] = 1;
	r->clients[1].sum_ns[OP_RENAME] = 2 * MS;
	r->clients[1].max_ns[OP_RENAME] = 2 * MS;
	/* a row shown globally is shown for each client, as 0 if need be */
	expect(render(r, NULL),
	       "\n" CLASSIC "Per client results:\n"
	       "Client 0 did 70 lines and 4096 bytes\n"
	       " Operation      Count    AvgLat    MaxLat\n"
	       " ----------------------------------------\n"
	       " NTCreateX          4     0.025     0.040\n"
	       " Rename             0     0.000     0.000\n"
	       " WriteX             0     0.000     0.000\n"
	       "\n"
	       "Client 1 did 30 lines and 65536 bytes\n"
	       " Operation      Count    AvgLat    MaxLat\n"
	       " ----------------------------------------\n"
	       " NTCreateX          0     0.000     0.000\n"
	       " Rename             1     2.000     2.000\n"
	       " WriteX             2     2.000     3.000\n"
	       "\n"
	       "Throughput 12.5 MB/sec  2 clients  2 procs  "
	       "max_latency=3.250 ms\n");
	result_free(r);
}

/* How a run ended is said first, before any table. */
static void test_status_lines(void **state)
{
	static const struct {
		enum result_status st;
		double measured;
		bool ops;
		const char *line;
	} cases[] = {
		{ RESULT_INTERRUPTED, 2.54, true,
		  "Interrupted by signal 2 after 2.5 s of measurement: "
		  "partial results\n" },
		{ RESULT_INTERRUPTED, 0, false,
		  "Interrupted by signal 2 before any operation was measured "
		  "(while the clients were set up)\n" },
		{ RESULT_INTERRUPTED, 0, true,
		  "Interrupted by signal 2 during the warmup: the figures "
		  "below are of the warmup\n" },
		{ RESULT_FAILED, 7.06, true,
		  "Run failed after 7.1 s of measurement: partial results\n" },
		{ RESULT_FAILED, 0, true,
		  "Run failed during the warmup: the figures below are of the "
		  "warmup\n" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct result *r = sample();
		char want[512], *got;

		r->cfg.no_percentiles = true;
		r->status = cases[i].st;
		r->signal = 2;
		r->measured_s = cases[i].measured;
		if (!cases[i].ops) {
			for (int o = 0; o < OP_NR; o++)
				hist_init(&r->op[o].h);
		}
		snprintf(want, sizeof(want), "\n%s\n", cases[i].line);
		got = render(r, NULL);
		if (strncmp(got, want, strlen(want)))
			fail_msg("case %zu:\n%s", i, got);
		free(got);
		result_free(r);
	}
}

static void test_warnings(void **state)
{
	struct result *r = sample();

	(void)state;
	r->cfg.no_percentiles = true;
	r->nwarn = 3;
	r->op[OP_NTCREATEX].errors = 3;
	r->nwarn_msgs = 1;
	r->warn_msgs[0] = strdup("t.load:4: NTCreateX: expected "
				 "NT_STATUS_OK, got NT_STATUS_NO_SUCH_FILE");
	expect(render(r, NULL),
	       "\n"
	       " Unexpected results: 3 (the run went on)\n"
	       " NTCreateX:            3\n"
	       "   t.load:4: NTCreateX: expected NT_STATUS_OK, got "
	       "NT_STATUS_NO_SUCH_FILE\n"
	       "\n" CLASSIC "Throughput 12.5 MB/sec  2 clients  2 procs  "
	       "max_latency=3.250 ms\n");
	result_free(r);
}

/* The ops the backend did not run: a section before the table (none of
 * the parsers' words, even in a reason read from a file), no row in the
 * classic table, nothing with --machine-readable. */
static void test_not_run(void **state)
{
	struct result *r = sample();

	(void)state;
	r->cfg.no_percentiles = true;
	r->op[OP_LOCKX].not_run = 3;
	r->op[OP_LOCKX].not_run_why = strdup("no lock call");
	r->op[OP_FLUSH].not_run = 1;
	r->op[OP_FLUSH].not_run_why = strdup("cannot execute it");
	expect(render(r, NULL),
	       "\n"
	       " Not run: 4 lines of ops the backend cannot do (counted, not "
	       "timed, not in the tables)\n"
	       " LockX:                3  no lock call\n"
	       " Flush:                1  cannot execut_e it\n"
	       "\n" CLASSIC "Throughput 12.5 MB/sec  2 clients  2 procs  "
	       "max_latency=3.250 ms\n");
	r->op[OP_LOCKX].not_run = 0;
	expect(render(r, NULL),
	       "\n"
	       " Not run: 1 line of ops the backend cannot do (counted, not "
	       "timed, not in the tables)\n"
	       " Flush:                1  cannot execut_e it\n"
	       "\n" CLASSIC "Throughput 12.5 MB/sec  2 clients  2 procs  "
	       "max_latency=3.250 ms\n");
	r->cfg.machine = true;
	expect(render(r, NULL),
	       "\n"
	       " Operation      Count    AvgLat    MaxLat\n"
	       " ----------------------------------------\n"
	       ":NTCreateX:4:0.025:0.040:\n"
	       ":Rename:1:2.000:2.000:\n"
	       ":WriteX:2:2.000:3.000:\n"
	       "\n"
	       ";12.5;2;2;3.250;\n");
	result_free(r);
}

/* The stall section; a path or stack with "execute" or "Operation" in it
 * must not reach a parser that looks for those words. */
static void test_stalls(void **state)
{
	struct result *r = sample();
	struct result_stalls *st = &r->stalls;
	struct result_stall *ev = &st->events[0];
	const char *table;
	char *got;

	(void)state;
	r->cfg.no_percentiles = true;
	st->enabled = true;
	st->threshold_ms = 100;
	st->total = 2;
	st->count[OP_RENAME] = 2;
	st->max_ms[OP_RENAME] = 503.25;
	st->nevents = 1;
	ev->client = 1;
	ev->pid = 77;
	ev->op = OP_RENAME;
	ev->line = 12;
	ev->file = strdup("t.load");
	ev->path = strdup("/mnt/execute/a /mnt/Operation/b");
	ev->start_s = 3.5;
	ev->start_time = strdup("2026-12-01T10:00:00.123Z");
	ev->duration_ms = 503.25;
	ev->ended = true;
	ev->psi_start[PSI_IO] = (struct result_psi){
		.valid = true, .some_avg10 = 1, .full_avg10 = 0.5,
		.some_total_us = 1000, .full_total_us = 0};
	ev->psi_end[PSI_IO] = (struct result_psi){
		.valid = true, .some_avg10 = 2, .full_avg10 = 1,
		.some_total_us = 301000, .full_total_us = 0};
	ev->nsamples = 1;
	ev->samples[0].t_ms = 100;
	ev->samples[0].state = 'D';
	ev->samples[0].repeat = 4;
	ev->samples[0].wchan = strdup("request_wait_answer");
	ev->samples[0].stack = strdup("do_syscall_64;vfs_rename");
	st->nfolded = 1;
	st->folded[0].stack = strdup("do_syscall_64;vfs_rename");
	st->folded[0].count = 5;
	st->unsampled = 1;
	got = render(r, NULL);
	assert_non_null(strstr(
		got,
		"\n"
		" Stalls: 2 ops ran longer than 100 ms (Rename 2, max 503.250 "
		"ms)\n"
		"  1 of them ended before their first sample: more ops were "
		"stuck at once than the watchdog samples\n"
		"  #1 Rename 503.250 ms, client 1 (pid 77), started 3.500 s "
		"into the measured phase (2026-12-01T10:00:00.123Z), "
		"t.load:12\n"
		"     /mnt/execut_e/a /mnt/Operatio_n/b\n"
		"     PSI stalled meanwhile: io some 300.0 ms, full 0.0 ms\n"
		"     at 100 ms: state D, wchan request_wait_answer (same 4 more "
		"times)\n"
		"       do_syscall_64;vfs_rename\n"
		"  kernel stacks of the stalled clients (samples, outermost "
		"frame first):\n"
		"         5  do_syscall_64;vfs_rename\n"
		"\n" CLASSIC));
	/* the classic table's words appear in its own lines only */
	assert_null(strstr(got, "execute"));
	table = strstr(got, " Operation      Count");
	assert_non_null(table);
	assert_int_equal(strstr(got, "Operation") - table, 1);
	free(got);
	result_free(r);
}

/*
 * Why a stall waited (BPF): its time asleep, runnable and on a CPU, its
 * sleeps with their wakers in compact stacks (the innermost frames, the
 * generic wakeup frames left out), and per op where the stalled ops spent
 * their time, the most first; a comm is a string of the result like any
 * other (the words of dbench's table broken); without BPF, why not.
 */
static void test_stalls_offcpu(void **state)
{
	struct result *r = sample();
	struct result_stalls *st = &r->stalls;
	struct result_stall *ev = &st->events[0];
	struct result_offcpu *o = &ev->offcpu;
	struct result_offcpu_run *ru = &st->offcpu;
	char *got;

	(void)state;
	r->cfg.no_percentiles = true;
	st->enabled = true;
	st->threshold_ms = 100;
	st->total = 2;
	st->count[OP_RENAME] = 2;
	st->max_ms[OP_RENAME] = 503.25;
	st->nevents = 1;
	ev->client = 1;
	ev->pid = 77;
	ev->op = OP_RENAME;
	ev->line = 12;
	ev->file = strdup("t.load");
	ev->start_s = 3.5;
	ev->start_time = strdup("2026-12-01T10:00:00.123Z");
	ev->duration_ms = 503.25;
	ev->ended = true;
	o->valid = true;
	o->blocked_ms = 500.5;
	o->runq_ms = 2.25;
	o->sleeps = 2;
	o->preempted = 1;
	o->nwaits = 3;
	o->waits[0] = (struct result_wait){
		.at_ms = 0.25, .blocked_ms = 500, .runq_ms = 2, .state = 'D',
		.woken = true,
		.stack = strdup("entry;do_syscall_64;vfs_rename;fuse_rename2;"
				"fuse_simple_request;request_wait_answer "
				"[fuse]"),
		.waker_pid = 44, .waker_comm = strdup("execute"),
		.waker_client = -1, .waker_ctx = WAKER_TASK,
		.waker_stack = strdup("ret_from_fork;fuse_dev_write;"
				      "fuse_dev_do_write;fuse_request_end;"
				      "__wake_up;__wake_up_common;"
				      "autoremove_wake_function;"
				      "try_to_wake_up")};
	o->waits[1] = (struct result_wait){
		.at_ms = 501, .blocked_ms = 0.5, .state = 'S', .woken = true,
		.waker_pid = 9, .waker_comm = strdup("dbench-ng"),
		.waker_client = 0, .waker_ctx = WAKER_UNKNOWN};
	o->waits[2] = (struct result_wait){
		.at_ms = 502, .blocked_ms = 0.25, .state = 'D',
		.waker_client = -1, .waker_ctx = WAKER_UNKNOWN};
	ru->method = strdup("bpf");
	ru->intervals = 12345;
	ru->stack_min_ms = 1;
	ru->symbols = true;
	ru->irq_method = strdup("interrupt tracepoints");
	ru->npairs = 4;
	ru->pairs[0] = (struct result_wait_pair){
		.op = OP_RENAME, .kind = WAIT_SLEEP, .count = 1, .ms = 500,
		.stack = strdup(o->waits[0].stack), .waker_ctx = WAKER_SOFTIRQ,
		.waker_stack = strdup("handle_softirqs;blk_done;__wake_up")};
	ru->pairs[1] = (struct result_wait_pair){
		.op = OP_RENAME, .kind = WAIT_RUNQ, .count = 3, .ms = 2.25};
	ru->pairs[2] = (struct result_wait_pair){
		.op = OP_RENAME, .kind = WAIT_SLEEP, .count = 1, .ms = 0.75,
		.waker_client = true, .waker_ctx = WAKER_TASK};
	ru->pairs[3] = (struct result_wait_pair){
		.op = OP_RENAME, .kind = WAIT_CPU, .count = 1, .ms = 0.5};
	got = render(r, NULL);
	assert_non_null(strstr(
		got,
		"t.load:12\n"
		"     off CPU (BPF): asleep 500.500 ms in 2 sleeps, runnable "
		"2.250 ms (1 preemption), on CPU 0.500 ms\n"
		"       500.000 ms D at 0 ms in vfs_rename;fuse_rename2;"
		"fuse_simple_request;request_wait_answer [fuse], woken by "
		"execut_e (pid 44) in ret_from_fork;fuse_dev_write;"
		"fuse_dev_do_write;fuse_request_end\n"
		"       0.500 ms S at 501 ms in (a short sleep: no stack), "
		"woken by client 0 (pid 9)\n"
		"       0.250 ms D at 502 ms in (a short sleep: no stack), "
		"woken by nobody: still asleep at the end\n"
		"  where the stalled ops spent their time (BPF; asleep in <- "
		"woken by, in; innermost frames last):\n"
		"   Rename: 2 stalls, 503.500 ms\n"
		"       500.000 ms      1  vfs_rename;fuse_rename2;"
		"fuse_simple_request;request_wait_answer [fuse] <- a softirq "
		"in handle_softirqs;blk_done\n"
		"         2.250 ms      3  (runnable, waiting for a CPU)\n"
		"         0.750 ms      1  (short sleeps: no stacks) <- a "
		"client\n"
		"         0.500 ms      1  (on a CPU)\n"
		"  traced with BPF: 12345 off-CPU intervals of the clients, "
		"none lost; stacks of sleeps of 1 ms or more; interrupt "
		"wakers told by interrupt tracepoints\n"
		"\n" CLASSIC));
	assert_null(strstr(got, "execute"));
	free(got);

	/* without BPF: no lines of its own, and why */
	result_offcpu_free(o);
	result_offcpu_run_free(ru);
	ru->method = strdup("proc");
	ru->method_note = strdup("no privilege to load BPF programs");
	got = render(r, NULL);
	assert_non_null(strstr(got, "t.load:12\n"
				    "  no BPF tracing (no privilege to load "
				    "BPF programs): the stacks above are "
				    "/proc samples only\n"
				    "\n" CLASSIC));
	free(got);
	result_free(r);
}

/* The compact stacks of the text report and the HTML page's labels */
static void test_stack_tail(void **state)
{
	char b[256];

	(void)state;
	assert_string_equal(report_stack_tail("a;b;c;d;e", 2, false, b,
					      sizeof(b)),
			    "d;e");
	assert_string_equal(report_stack_tail("a;b", 4, false, b, sizeof(b)),
			    "a;b");
	assert_string_equal(report_stack_tail(NULL, 4, false, b, sizeof(b)),
			    "");
	/* a waker: the generic wakeup frames go first, modules stay */
	assert_string_equal(report_stack_tail("x;kjournald2;jbd2_commit;"
					      "__wake_up;try_to_wake_up",
					      2, true, b, sizeof(b)),
			    "kjournald2;jbd2_commit");
	assert_string_equal(report_stack_tail("x;fuse_request_end [fuse];"
					      "wake_page_function",
					      1, true, b, sizeof(b)),
			    "fuse_request_end [fuse]");
	/* nothing but generic frames: the outermost stays */
	assert_string_equal(report_stack_tail("try_to_wake_up", 1, true, b,
					      sizeof(b)),
			    "try_to_wake_up");
	/* not a waker: nothing is left out */
	assert_string_equal(report_stack_tail("a;__wake_up", 1, false, b,
					      sizeof(b)),
			    "__wake_up");
}

/* The stall's start in the progress lines' time base (warmup or measured
 * phase, not seconds after the release), and the per-second view of the
 * op that stalled most: 13 measured seconds in rows of 10, a '*' on the
 * second past the threshold; warmup points left out. */
static void test_stall_series(void **state)
{
	struct result *r = sample();
	struct result_stalls *st = &r->stalls;
	struct result_stall *ev = &st->events[0];
	char *got;

	(void)state;
	r->cfg.no_percentiles = true;
	r->warmup_s = 2;
	st->enabled = true;
	st->threshold_ms = 100;
	st->total = 3;
	st->count[OP_WRITEX] = 1; /* fewer than Rename's: not shown */
	st->max_ms[OP_WRITEX] = 900;
	st->count[OP_RENAME] = 2;
	st->max_ms[OP_RENAME] = 503.25;
	st->nevents = 2;
	ev[0] = (struct result_stall){.op = OP_RENAME, .start_s = 7.25,
				      .duration_ms = 503.25, .ended = true};
	ev[1] = (struct result_stall){.op = OP_RENAME, .start_s = 1.5,
				      .duration_ms = 150, .ended = true};
	r->interval_s = 1;
	r->npoints = 15;
	r->points = calloc(r->npoints, sizeof(*r->points));
	assert_non_null(r->points);
	for (uint32_t i = 0; i < r->npoints; i++) {
		r->points[i].t = i + 1;
		r->points[i].dur = 1;
		r->points[i].warmup = i < 2;
		r->points[i].max_ns[OP_RENAME] = (i + 1) * 100 * US;
	}
	r->points[1].max_ns[OP_RENAME] = 150 * MS; /* the warmup's */
	r->points[7].max_ns[OP_RENAME] = 503250 * US;
	got = render(r, NULL);
	assert_non_null(strstr(got, "  #1 Rename 503.250 ms, client 0 (pid 0), "
				    "started 5.250 s into the measured phase "
				    "(?), ?:0\n"));
	assert_non_null(strstr(got, "  #2 Rename 150.000 ms, client 0 (pid 0), "
				    "started 1.500 s into the warmup (?), "
				    "?:0\n"));
	assert_non_null(strstr(
		got,
		" Per second, Rename: its largest latency in ms in each "
		"second of the measured phase (the op that stalled most; * "
		"at or past 100 ms)\n"
		"  s     0-10        0.300      0.400      0.500      0.600     "
		" 0.700    503.250*     0.900      1.000      1.100      "
		"1.200 \n"
		"  s    10-13        1.300      1.400      1.500 \n"
		"\n" CLASSIC));
	assert_null(strstr(got, "execute"));
	assert_null(strstr(got, "150.000*"));
	free(got);
	result_free(r);
}

/* What is not a result (a failed or interrupted run, a checkpoint, one
 * run of --runs) has our table, rows "NTCreateX:", and ends with its
 * figures on a line no parser reads: no "Operation", no line starting
 * with Throughput. */
static void test_not_a_result(void **state)
{
	static const char ours[] = " Per op         Count    AvgLat    MaxLat\n"
				   " ========================================\n"
				   " NTCreateX:         4     0.025     0.040\n"
				   " Rename:            1     2.000     2.000\n"
				   " WriteX:            2     2.000     3.000\n"
				   "\n";
	static const char figs[] =
		"12.5 MB/sec  2 clients  2 procs  max_latency=3.250 ms\n";
	struct result *r = sample();
	char want[1024], *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	r->cfg.no_percentiles = true;
	r->status = RESULT_FAILED;
	r->measured_s = 7.06;
	snprintf(want, sizeof(want),
		 "\nRun failed after 7.1 s of measurement: partial results\n"
		 "\n%sPartial figures of a failed run: %s",
		 ours, figs);
	expect(render(r, NULL), want);
	r->status = RESULT_INTERRUPTED;
	r->signal = 2;
	r->cfg.machine = true; /* our form all the same */
	snprintf(want, sizeof(want),
		 "\nInterrupted by signal 2 after 7.1 s of measurement: "
		 "partial results\n\n%sPartial figures of an interrupted "
		 "run: %s",
		 ours, figs);
	expect(render(r, NULL), want);
	/* a checkpoint: of the measured phase, of the warmup, of nothing */
	r->status = RESULT_RUNNING;
	r->signal = 0;
	snprintf(want, sizeof(want),
		 "\nCheckpoint of a run still running or killed, after 7.1 s "
		 "of measurement: partial results\n\n%sPartial figures of an "
		 "unfinished run: %s",
		 ours, figs);
	expect(render(r, NULL), want);
	r->measured_s = 0;
	snprintf(want, sizeof(want),
		 "\nCheckpoint of a run still running or killed, during the "
		 "warmup: the figures below are of the warmup\n\n%sPartial "
		 "figures of an unfinished run: %s",
		 ours, figs);
	expect(render(r, NULL), want);
	r->measured_s = 7.06;
	r->status = RESULT_OK;
	r->cfg.machine = false;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	report_text_run(f, r, NULL, 2, 3);
	fclose(f);
	snprintf(want, sizeof(want), "\n%sFigures of run 2 of 3: %s", ours,
		 figs);
	expect(buf, want);
	result_free(r);
}

/* --runs: median [min .. max] and cv, then one Throughput line of the
 * medians, last. */
static void test_spread(void **state)
{
	struct result *rs[3];
	struct spread_run sp[3];
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	for (int i = 0; i < 3; i++) {
		rs[i] = sample();
		rs[i]->throughput = 10 + 2 * i; /* 10 12 14 */
		rs[i]->max_latency_ms = 3 - i;	/* 3 2 1 */
		rs[i]->op[OP_WRITEX].h.count = i ? 2 : 0; /* not in all */
		report_spread_take(&sp[i], rs[i]);
	}
	report_spread(f, sp, 3);
	fclose(f);
	assert_non_null(strstr(buf,
			       "\nRun-to-run spread over 3 runs: median "
			       "[min .. max], coefficient of variation\n"
			       " MB/sec                          12.000 "
			       "[     10.000 ..      14.000]  cv  16.7%\n"
			       " max_latency ms                   2.000 "
			       "[      1.000 ..       3.000]  cv  50.0%\n"));
	/* WriteX is not in all runs: no spread row; its median count is
	 * 2, so the table of the medians has it */
	assert_null(strstr(buf, "WriteX:"));
	assert_non_null(strstr(buf, " NTCreateX: p99 ms "));
	assert_non_null(strstr(buf,
			       "\n Operation      Count    AvgLat    MaxLat\n"
			       " ----------------------------------------\n"
			       " NTCreateX          4     0.025     0.040\n"
			       " Rename             1     2.000     2.000\n"
			       " WriteX             2     2.000     3.000\n"
			       "\nThroughput 12 MB/sec"));
	/* the one dbench table and Throughput line of the output */
	assert_null(strstr(strstr(buf, "Operation") + 1, "Operation"));
	assert_null(strstr(buf, "Throughput MB"));
	assert_int_equal(strcmp(buf + len - strlen("\nThroughput 12 MB/sec  2 "
						   "clients  2 procs  "
						   "max_latency=2.000 ms\n"),
				"\nThroughput 12 MB/sec  2 clients  2 procs  "
				"max_latency=2.000 ms\n"),
			 0);
	free(buf);
	for (int i = 0; i < 3; i++)
		result_free(rs[i]);
}

/* sample() paced by -R 2: the second WriteX began 500 ms late, behind
 * a stall; the others on time or nearly. */
static struct result *paced(void)
{
	struct result *r = sample();

	r->cfg.target_rate = 2;
	r->resp.valid = true;
	r->resp.pacing = RESP_RATE;
	r->resp.late_ms = 10;
	for (int i = 1; i <= 4; i++)
		hist_record(&r->resp.h[OP_NTCREATEX], (uint64_t)i * 20 * US);
	hist_record(&r->resp.h[OP_WRITEX], 1 * MS);
	hist_record(&r->resp.h[OP_WRITEX], 503 * MS);
	hist_record(&r->resp.h[OP_RENAME], 2 * MS);
	r->resp.late[OP_WRITEX] = 1;
	r->resp.late_max_ns[OP_WRITEX] = 500 * MS;
	r->resp.late_max_ns[OP_NTCREATEX] = 40 * US;
	return r;
}

#define PCT_PLAIN                                                     \
	" Latency ms        Count      Mean       p50       p90       " \
	"p99     p99.9       Max\n"                                     \
	" ========================================================="    \
	"==========================\n"                                  \
	" NTCreateX:            4     0.025     0.020     0.040     "   \
	"0.040     0.040     0.040\n"                                   \
	" Rename:               1     2.000     2.000     2.000     "   \
	"2.000     2.000     2.000\n"                                   \
	" WriteX:               2     2.000     1.004     2.998     "   \
	"2.998     2.998     3.000\n"                                   \
	"\n"

/*
 * A paced run: the response-time table after the service-time one, in
 * its columns, then what the intended start was and the late starts,
 * before the classic table, which with the Throughput line is unchanged;
 * none of it with --no-percentiles or --machine-readable, and nothing of
 * it for an unpaced run (test_plain).
 */
static void test_response(void **state)
{
	struct result *r = paced();
	const char *resp =
		" Response ms       Count      Mean       p50       p90       "
		"p99     p99.9       Max\n"
		" ========================================================="
		"==========================\n"
		" NTCreateX:            4     0.050     0.040     0.080     "
		"0.080     0.080     0.080\n"
		" Rename:               1     2.000     2.000     2.000     "
		"2.000     2.000     2.000\n"
		" WriteX:               2   252.000     1.004   501.219   "
		"501.219   501.219   503.000\n"
		" from each op's intended start (the byte schedule of -R 2 "
		"MB/s): its service time above plus how late it began\n";

	(void)state;
	{
		char want[2048];

		snprintf(want, sizeof(want),
			 "\n" PCT_PLAIN "%s"
			 " Late starts: 1 of 7 ops began more than 10 ms after "
			 "the intended start (WriteX 1, max 500.000 ms); the "
			 "latest began 500.000 ms late\n\n" CLASSIC
			 "Throughput 12.5 MB/sec  2 clients  2 procs  "
			 "max_latency=3.250 ms\n",
			 resp);
		expect(render(r, NULL), want);
	}
	/* timestamps, and no late start */
	r->resp.pacing = RESP_TIMESTAMPS;
	r->resp.late[OP_WRITEX] = 0;
	r->resp.late_max_ns[OP_WRITEX] = 2 * MS;
	{
		char *got = render(r, NULL);

		assert_non_null(strstr(got, " from each op's intended start (the "
					    "loadfile's timestamps): its "
					    "service time above plus how late "
					    "it began\n Late starts: 0 of 7 "
					    "ops began more than 10 ms after "
					    "the intended start; the latest "
					    "began 2.000 ms late\n\n"
					    " Operation"));
		free(got);
	}
	r->cfg.no_percentiles = true;
	expect(render(r, NULL), "\n" CLASSIC "Throughput 12.5 MB/sec  2 "
				"clients  2 procs  max_latency=3.250 ms\n");
	r->cfg.no_percentiles = false;
	r->cfg.machine = true;
	{
		char *got = render(r, NULL);

		assert_null(strstr(got, "Response"));
		assert_null(strstr(got, "Late"));
		free(got);
	}
	result_free(r);
}

/* --runs of paced runs: the response times' spread too, per op p99 and
 * max, and the late starts; the table of the medians is dbench's. */
static void test_spread_response(void **state)
{
	struct result *rs[3];
	struct spread_run sp[3];
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	for (int i = 0; i < 3; i++) {
		rs[i] = paced();
		rs[i]->resp.late[OP_WRITEX] = (uint64_t)i; /* 0 1 2 */
		report_spread_take(&sp[i], rs[i]);
	}
	report_spread(f, sp, 3);
	fclose(f);
	assert_non_null(strstr(buf, "\n WriteX: response p99 ms        501.219 "
				    "[    501.219 ..     501.219]  cv   0.0%\n"
				    " WriteX: response max ms        503.000 "
				    "[    503.000 ..     503.000]  cv   0.0%\n"
				    " late starts                      1.000 "
				    "[      0.000 ..       2.000]  cv 100.0%\n"
				    "The table"));
	assert_non_null(strstr(buf, " NTCreateX: response p99 ms "));
	assert_non_null(strstr(buf, "\n" CLASSIC "Throughput 12.5 MB/sec"));
	/* one run unpaced: no response rows at all */
	rs[1]->resp.valid = false;
	report_spread_take(&sp[1], rs[1]);
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	report_spread(f, sp, 3);
	fclose(f);
	assert_null(strstr(buf, "response"));
	assert_null(strstr(buf, "late starts"));
	free(buf);
	for (int i = 0; i < 3; i++)
		result_free(rs[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_percentiles_chosen),
		cmocka_unit_test(test_default_percentiles),
		cmocka_unit_test(test_machine_readable),
		cmocka_unit_test(test_not_a_result),
		cmocka_unit_test(test_per_client),
		cmocka_unit_test(test_status_lines),
		cmocka_unit_test(test_warnings),
		cmocka_unit_test(test_not_run),
		cmocka_unit_test(test_stalls),
		cmocka_unit_test(test_stalls_offcpu),
		cmocka_unit_test(test_stack_tail),
		cmocka_unit_test(test_stall_series),
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_response),
		cmocka_unit_test(test_spread_response),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
