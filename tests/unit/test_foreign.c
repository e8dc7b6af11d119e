/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_foreign.c - the accounting of the clients' foreign CPU wait on a
 * fake clock (foreign_acct.h, the code the BPF program runs): only the
 * stretches of foreign tasks count, kernel threads and the run's own
 * processes never do, a stretch in progress counts up to the moment
 * asked, a wait is charged the CPU it queued on and never more than its
 * length; and without BPF (foreign.c), the run-queue wait of the
 * measured phase from a fake /proc's schedstat files, a client that
 * exited keeping its last figure, and the corrected throughput.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "foreign.h"
#include "foreign_acct.h"
#include "result.h"

#define KTHREAD FOREIGN_PF_KTHREAD

/* CPU 0: a client preempted by a burner at 100, the burner hands over to
 * a kworker at 150, which hands over to the client at 170: 70 of wait,
 * 50 of them foreign; the burner is the last holder. */
static void test_preempted(void **state)
{
	struct foreign_cpu c = {0};
	struct foreign_task t = {.slot = 0};
	__u64 rq, fw;

	(void)state;
	assert_int_equal(foreign_cpu_switch(&c, 10, 0, 1), 0); /* client */
	/* 100: client -> burner; the client's wait starts */
	assert_int_equal(foreign_cpu_switch(&c, 100,
					    foreign_is_foreign(0, 42, 0), 0),
			 0);
	foreign_wait_start(&t, &c, 0, 100);
	/* 150: burner -> kworker: a foreign stretch of 50 ended */
	assert_int_equal(foreign_cpu_switch(&c, 150,
					    foreign_is_foreign(KTHREAD, 7, 0),
					    0),
			 1);
	assert_int_equal(foreign_cum(&c, 160), 50); /* a kworker: not */
	/* 170: kworker -> client */
	assert_int_equal(foreign_cpu_switch(&c, 170, 0, 1), 0);
	fw = foreign_wait_end(&t, &c, 170, &rq);
	assert_int_equal(rq, 70);
	assert_int_equal(fw, 50);
	assert_int_equal(t.start, 0);
	/* no wait in progress: nothing */
	assert_int_equal(foreign_wait_end(&t, &c, 200, &rq), 0);
	assert_int_equal(rq, 0);
}

/* Woken at 230 while a burner has held the CPU since 200: only what it
 * holds after the wakeup counts; the run's own processes (another
 * client, the parent) never count */
static void test_woken(void **state)
{
	struct foreign_cpu c = {0};
	struct foreign_task t = {.slot = 1};
	__u64 rq;

	(void)state;
	foreign_cpu_switch(&c, 200, foreign_is_foreign(0, 42, 0), 0);
	foreign_wait_start(&t, &c, 0, 230); /* mid-stretch */
	assert_int_equal(t.f0, 30);
	/* 260: burner -> the parent (a run process): 60 foreign so far */
	assert_int_equal(foreign_cpu_switch(&c, 260,
					    foreign_is_foreign(0, 99, 1), 0),
			 1);
	/* 300: parent -> another client; 320: -> our client */
	foreign_cpu_switch(&c, 300, foreign_is_foreign(0, 98, 1), 1);
	foreign_cpu_switch(&c, 320, 0, 1);
	assert_int_equal(foreign_wait_end(&t, &c, 320, &rq), 30);
	assert_int_equal(rq, 90);
	/* pid 0 (idle) is never foreign, even without PF_KTHREAD */
	assert_false(foreign_is_foreign(0, 0, 0));
}

/* Queued on CPU 1, run on CPU 0: charged CPU 1's foreign time up to now
 * (its stretch in progress too); a CPU not seen to switch yet counts
 * nothing; the foreign part never exceeds the wait */
static void test_moved_and_clamped(void **state)
{
	struct foreign_cpu c0 = {0}, c1 = {0}, fresh = {0};
	struct foreign_task t = {.slot = 2};
	__u64 rq;

	(void)state;
	foreign_cpu_switch(&c1, 1000, 1, 0); /* a burner on CPU 1 */
	foreign_wait_start(&t, &c1, 1, 1100);
	foreign_cpu_switch(&c0, 1150, 0, 1);
	assert_int_equal(foreign_wait_end(&t, &c1, 1150, &rq), 50);
	assert_int_equal(rq, 50);
	/* a CPU whose first switch was not seen: its stretch is unknown */
	fresh.foreign = 1;
	fresh.since = 5;
	foreign_wait_start(&t, &fresh, 3, 2000);
	assert_int_equal(foreign_wait_end(&t, &fresh, 2500, &rq), 0);
	assert_int_equal(rq, 500);
	/* a snapshot of another CPU read as it changed: more foreign time
	 * than wait is cut to the wait */
	foreign_wait_start(&t, &c1, 1, 3000);
	t.f0 = 0;
	assert_int_equal(foreign_wait_end(&t, &c1, 3010, &rq), 10);
	assert_int_equal(rq, 10);
	/* a wait whose start is after now (clocks of two CPUs): none */
	foreign_wait_start(&t, &c1, 1, 4000);
	assert_int_equal(foreign_wait_end(&t, &c1, 3999, &rq), 0);
	assert_int_equal(rq, 0);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Without BPF: the schedstat of two client processes, the measured
 * phase from the first measuring tick to the first one after it; a
 * process that is gone keeps its last figure; no own latencies */
static void test_schedstat(void **state)
{
	char dir[] = "/tmp/dbng-test-foreign-XXXXXX", p[128];
	int pids[2] = {11, 12};
	struct foreign *f;
	struct result *r = result_new();
	uint64_t ns;
	const char *note;

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (int i = 0; i < 2; i++) {
		snprintf(p, sizeof(p), "%s/%d", dir, pids[i]);
		assert_int_equal(mkdir(p, 0700), 0);
	}
	snprintf(p, sizeof(p), "%s/11/schedstat", dir);
	write_file(p, "5000 100 3\n");
	snprintf(p, sizeof(p), "%s/12/schedstat", dir);
	write_file(p, "5000 200 3\n");
	assert_int_equal(foreign_schedstat(dir, 11, &ns), 0);
	assert_int_equal(ns, 100);
	assert_int_equal(foreign_schedstat(dir, 13, &ns), -1);

	f = foreign_new(2, 1, true, dir);
	assert_non_null(f);
	assert_null(foreign_counter(f, 0));
	assert_int_equal(foreign_method_of(f, &note), FOREIGN_SCHEDSTAT);
	assert_string_equal(note, "--no-bpf");
	foreign_attach(f, pids, 2);
	foreign_tick(f, false); /* the warmup: nothing */
	snprintf(p, sizeof(p), "%s/11/schedstat", dir);
	write_file(p, "6000 1100 9\n");
	foreign_tick(f, true); /* the start: 1100 + 200 */
	write_file(p, "7000 1600 9\n");
	snprintf(p, sizeof(p), "%s/12/schedstat", dir);
	unlink(p); /* gone: its 200 stays */
	foreign_tick(f, true);
	snprintf(p, sizeof(p), "%s/11/schedstat", dir);
	write_file(p, "8000 2100 9\n");
	foreign_tick(f, false); /* the end: 2100 + 200 */
	write_file(p, "9000 9100 9\n");
	foreign_tick(f, false); /* after it: ignored */
	hist_record(&r->op[OP_RENAME].own, 5);
	r->op[OP_RENAME].foreign_ns = 5;
	assert_int_equal(foreign_fill(f, r), 0);
	assert_int_equal(r->foreign.method, FOREIGN_SCHEDSTAT);
	assert_string_equal(r->foreign.note, "--no-bpf");
	assert_int_equal(r->foreign.runq_ns, 1000);
	assert_int_equal(r->foreign.wait_ns, 0);
	assert_int_equal(r->op[OP_RENAME].own.count, 0);
	assert_int_equal(r->op[OP_RENAME].foreign_ns, 0);
	assert_false(result_has_own(r));
	foreign_free(f);
	result_free(r);
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	assert_int_equal(system(p), 0);
}

/* 100 MB in 10 s by 4 clients that waited 8 s for foreign tasks in all:
 * 2 s each, so 100 MB over 8 s */
static void test_own_mbps(void **state)
{
	(void)state;
	assert_true(foreign_own_mbps(100000000, 10, 8000000000ULL,
				     8000000000ULL, 0, 4) == 12.5);
	assert_true(foreign_own_mbps(100000000, 0, 0, 0, 0, 4) == 0);
	assert_true(foreign_own_mbps(100000000, 1, 9000000000ULL,
				     9000000000ULL, 0, 4) == 0);
}

/* Clients that waited for each other while other programs held a CPU:
 * their run-queue wait counts up to the CPU seconds those programs had,
 * never more, and none of it when no other program ran (a kernel that
 * makes the clients or its threads contend still shows) */
static void test_own_mbps_sibling_wait(void **state)
{
	double v;

	(void)state;
	/* 2 s foreign, 6 s in the run queue, others had 0.4 CPUs x 10 s:
	 * 4 s lost, 1 s each of 4 clients: 100 MB over 9 s */
	v = foreign_own_mbps(100000000, 10, 2000000000ULL, 6000000000ULL, 0.4,
			     4);
	assert_true(fabs(v - 100.0 / 9) < 1e-9);
	/* 3 s in the run queue, under the 4 s the others had */
	v = foreign_own_mbps(100000000, 10, 2000000000ULL, 3000000000ULL, 0.4,
			     4);
	assert_true(fabs(v - 100.0 / 9.25) < 1e-9);
	/* nobody else ran: the direct foreign wait only */
	v = foreign_own_mbps(100000000, 10, 2000000000ULL, 6000000000ULL, 0,
			     4);
	assert_true(fabs(v - 100.0 / 9.5) < 1e-9);
	/* the direct wait is never undercut by the bound */
	v = foreign_own_mbps(100000000, 10, 2000000000ULL, 6000000000ULL,
			     0.1, 4);
	assert_true(fabs(v - 100.0 / 9.5) < 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_preempted),
		cmocka_unit_test(test_woken),
		cmocka_unit_test(test_moved_and_clamped),
		cmocka_unit_test(test_schedstat),
		cmocka_unit_test(test_own_mbps),
		cmocka_unit_test(test_own_mbps_sibling_wait),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
