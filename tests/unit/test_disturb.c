/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_disturb.c - what else the machine did, from two snapshots of a
 * fake /proc and /sys: other processes' CPU less this run's and the
 * kernel threads', steal, PSI stalled time, load, CPU frequencies, and
 * what is unknown when files are missing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "clock.h"
#include "disturb.h"
#include "result.h"

static char root[64];

static void put(const char *name, const char *text)
{
	char path[256], dir[256], *slash;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	/* make the directories on the way */
	snprintf(dir, sizeof(dir), "%s", path);
	for (slash = strchr(dir + strlen(root) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = 0;
		mkdir(dir, 0755);
		*slash = '/';
	}
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static char proc[128], sys[128];

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/dbng-disturb.XXXXXX");
	assert_non_null(mkdtemp(root));
	snprintf(proc, sizeof(proc), "%s/proc", root);
	snprintf(sys, sizeof(sys), "%s/sys", root);
	return 0;
}

static int teardown(void **state)
{
	char cmd[160];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd);
}

/* a kernel thread (PF_KTHREAD in flags), its command with a space and a
 * ')' as kworkers' may have, and a user process */
static void pids(unsigned int kth_ticks, unsigned int user_ticks)
{
	char buf[512];

	snprintf(buf, sizeof(buf),
		 "2 (kworker/0:1 x) y) S 0 0 0 0 -1 2129984 0 0 0 0 %u %u 0 "
		 "0 20 0 1 0 5 0 0\n",
		 kth_ticks / 2, kth_ticks - kth_ticks / 2);
	put("proc/2/stat", buf);
	snprintf(buf, sizeof(buf),
		 "100 (burn) R 1 100 100 0 -1 4194560 0 0 0 0 %u 0 0 0 20 0 "
		 "1 0 9 0 0\n",
		 user_ticks);
	put("proc/100/stat", buf);
}

static void psi(unsigned long some_us)
{
	char buf[256];

	snprintf(buf, sizeof(buf),
		 "some avg10=1.00 avg60=0.50 avg300=0.10 total=%lu\n"
		 "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
		 some_us);
	put("proc/pressure/io", buf);
	put("proc/pressure/cpu", buf);
	/* memory left out: unknown */
}

static void test_window(void **state)
{
	struct disturb_snap a, b;
	struct result_disturb d;

	(void)state;
	/* user nice system idle iowait irq softirq steal */
	put("proc/stat", "cpu  600 0 400 5000 10 5 5 20 0 0\ncpu0 1 2 3\n");
	put("proc/loadavg", "0.50 0.40 0.30 1/100 999\n");
	pids(100, 7);
	psi(1000);
	disturb_snap(proc, 0, 1 * NSEC_PER_SEC, &a);
	assert_true(a.valid);
	assert_int_equal(a.busy, 1000);
	assert_int_equal(a.all, 6040);
	assert_int_equal(a.steal, 20);
	assert_int_equal(a.kthreads, 100); /* the user process is not one */

	/* 10 s later: 3 s more busy, of which 0.5 s kernel threads and 2 s
	 * this run: 0.5 s of others; 5 ticks stolen of 1305 */
	put("proc/stat", "cpu  800 0 500 6000 10 5 5 25 0 0\n");
	put("proc/loadavg", "1.25 0.40 0.30 1/100 999\n");
	pids(150, 400);
	psi(251000);
	put("sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq",
	    "1200000\n");
	put("sys/devices/system/cpu/cpu1/cpufreq/scaling_cur_freq",
	    "2400000\n");
	put("sys/devices/system/cpu/cpufreq/x", "not a cpu\n");
	disturb_snap(proc, 10 * NSEC_PER_SEC, 3 * NSEC_PER_SEC, &b);
	disturb_fill(&a, &b, 100, sys, &d);
	assert_true(d.valid);
	assert_float_equal(d.seconds, 10.0, 1e-9);
	assert_float_equal(d.other_cpus, 0.05, 1e-9);
	assert_float_equal(d.steal_pct, 100.0 * 5 / 1305, 1e-9);
	assert_float_equal(d.load1_start, 0.5, 1e-9);
	assert_float_equal(d.load1_end, 1.25, 1e-9);
	assert_float_equal(d.psi_some_ms[PSI_IO], 250.0, 1e-9);
	assert_float_equal(d.psi_some_ms[PSI_CPU], 250.0, 1e-9);
	assert_float_equal(d.psi_some_ms[PSI_MEMORY], -1, 1e-9);
	assert_float_equal(d.mhz_min, 1200, 1e-9);
	assert_float_equal(d.mhz_max, 2400, 1e-9);
	assert_false(result_disturbed(&d));

	/* a burner beside the run: 10 s of others in 10 s */
	put("proc/stat", "cpu  1800 0 500 6000 10 5 5 25 0 0\n");
	disturb_snap(proc, 10 * NSEC_PER_SEC, 3 * NSEC_PER_SEC, &b);
	disturb_fill(&a, &b, 100, sys, &d);
	assert_float_equal(d.other_cpus, 1.05, 1e-9);
	assert_true(result_disturbed(&d));

	/* a hypervisor that steals 3 % of a quiet machine */
	put("proc/stat", "cpu  800 0 500 5960 10 5 5 65 0 0\n");
	disturb_snap(proc, 10 * NSEC_PER_SEC, 3 * NSEC_PER_SEC, &b);
	disturb_fill(&a, &b, 100, sys, &d);
	assert_float_equal(d.steal_pct, 100.0 * 45 / 1305, 1e-9);
	assert_true(result_disturbed(&d));

	/* this run used more than the ticks show (rounding): none, not
	 * negative */
	disturb_snap(proc, 10 * NSEC_PER_SEC, 60 * NSEC_PER_SEC, &b);
	disturb_fill(&a, &b, 100, sys, &d);
	assert_float_equal(d.other_cpus, 0, 1e-9);
}

static void test_unknown(void **state)
{
	struct disturb_snap a, b;
	struct result_disturb d;
	char empty[160];

	(void)state;
	snprintf(empty, sizeof(empty), "%s/none", root);
	disturb_snap(empty, 0, 0, &a);
	disturb_snap(empty, NSEC_PER_SEC, 0, &b);
	assert_false(a.valid);
	assert_float_equal(a.load1, -1, 1e-9);
	disturb_fill(&a, &b, 100, empty, &d);
	assert_false(d.valid);
	assert_false(result_disturbed(&d));

	/* steal absent (a 7-field cpu line): 0 stolen, still valid */
	put("proc/stat", "cpu  1 2 3 4 5 6 7\n");
	disturb_snap(proc, 0, 0, &a);
	assert_true(a.valid);
	assert_int_equal(a.steal, 0);
	/* the same time twice: no window */
	disturb_fill(&a, &a, 100, sys, &d);
	assert_false(d.valid);
}

static void test_own(void **state)
{
	pid_t pid = 100;
	uint64_t own;
	struct rusage ru;

	(void)state;
	pids(0, 250); /* 2.5 s at USER_HZ 100 */
	own = disturb_own_ns(proc, &pid, 1, disturb_children_ns());
	getrusage(RUSAGE_SELF, &ru);
	assert_true(own >= 250 * NSEC_PER_SEC / (uint64_t)sysconf(_SC_CLK_TCK));
	assert_true(own <= 250 * NSEC_PER_SEC / (uint64_t)sysconf(_SC_CLK_TCK) +
				   (uint64_t)(ru.ru_utime.tv_sec +
					      ru.ru_stime.tv_sec + 1) *
					   NSEC_PER_SEC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_own),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
