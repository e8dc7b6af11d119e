/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * disturb.c - what else the machine did during a run; see disturb.h.
 */
#include "disturb.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "clock.h"
#include "watchdog.h"

#define PF_KTHREAD_FLAG 0x00200000u /* include/linux/sched.h */

/* Fields of @proc/PID/stat after the command: flags (9), utime (14),
 * stime (15).  0, or -1 if unreadable. */
static int pid_stat(const char *proc, const char *pid, unsigned int *flags,
		    uint64_t *ticks)
{
	char path[256], buf[1024];
	unsigned long long ut, st;
	const char *p;

	snprintf(path, sizeof(path), "%s/%s/stat", proc, pid);
	if (watchdog_read_file(path, buf, sizeof(buf)))
		return -1;
	p = strrchr(buf, ')'); /* the command may hold spaces and ')' */
	if (!p ||
	    sscanf(p + 1,
		   " %*c %*d %*d %*d %*d %*d %u %*u %*u %*u %*u %llu %llu",
		   flags, &ut, &st) != 3)
		return -1;
	*ticks = ut + st;
	return 0;
}

static uint64_t kthread_ticks(const char *proc)
{
	DIR *d = opendir(proc);
	struct dirent *e;
	uint64_t sum = 0;

	if (!d)
		return 0;
	/* cppcheck-suppress readdirCalled ; a DIR of this thread alone */
	while ((e = readdir(d))) {
		unsigned int flags;
		uint64_t t;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		if (!pid_stat(proc, e->d_name, &flags, &t) &&
		    (flags & PF_KTHREAD_FLAG))
			sum += t;
	}
	closedir(d);
	return sum;
}

static uint64_t tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * NSEC_PER_SEC +
	       (uint64_t)tv.tv_usec * 1000u;
}

uint64_t disturb_children_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_CHILDREN, &ru))
		return 0;
	return tv_ns(ru.ru_utime) + tv_ns(ru.ru_stime);
}

uint64_t disturb_own_ns(const char *proc, const pid_t *pids, int n,
			uint64_t reaped_base_ns)
{
	long hz = sysconf(_SC_CLK_TCK);
	uint64_t ns = 0, kids = disturb_children_ns();
	struct rusage ru;

	if (!getrusage(RUSAGE_SELF, &ru))
		ns = tv_ns(ru.ru_utime) + tv_ns(ru.ru_stime);
	if (kids > reaped_base_ns)
		ns += kids - reaped_base_ns;
	for (int i = 0; i < n && hz > 0; i++) {
		char pid[24];
		unsigned int flags;
		uint64_t t;

		snprintf(pid, sizeof(pid), "%d", (int)pids[i]);
		if (!pid_stat(proc, pid, &flags, &t))
			ns += t * NSEC_PER_SEC / (uint64_t)hz;
	}
	return ns;
}

void disturb_snap(const char *proc, uint64_t now_ns, uint64_t own_ns,
		  struct disturb_snap *s)
{
	char path[256], buf[512];
	unsigned long long v[8] = {0};

	memset(s, 0, sizeof(*s));
	s->t_ns = now_ns;
	s->own_ns = own_ns;
	s->load1 = -1;
	snprintf(path, sizeof(path), "%s/stat", proc);
	/* cpu  user nice system idle iowait irq softirq steal ... */
	if (!watchdog_read_file(path, buf, sizeof(buf)) &&
	    sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) >= 7) {
		s->busy = v[0] + v[1] + v[2];
		s->steal = v[7];
		for (int i = 0; i < 8; i++)
			s->all += v[i];
		s->valid = true;
	}
	s->kthreads = kthread_ticks(proc);
	snprintf(path, sizeof(path), "%s/loadavg", proc);
	if (!watchdog_read_file(path, buf, sizeof(buf)) &&
	    sscanf(buf, "%lf", &s->load1) != 1)
		s->load1 = -1;
	watchdog_read_psi(proc, s->psi);
}

/* The lowest and highest scaling_cur_freq under @sys, in MHz. */
static void cpu_mhz(const char *sys, double *lo, double *hi)
{
	char path[640], buf[64], dir[256];
	DIR *d;
	struct dirent *e;

	*lo = *hi = 0;
	snprintf(dir, sizeof(dir), "%s/devices/system/cpu", sys);
	d = opendir(dir);
	if (!d)
		return;
	/* cppcheck-suppress readdirCalled ; a DIR of this thread alone */
	while ((e = readdir(d))) {
		double khz;

		if (strncmp(e->d_name, "cpu", 3) || e->d_name[3] < '0' ||
		    e->d_name[3] > '9')
			continue;
		snprintf(path, sizeof(path), "%s/%s/cpufreq/scaling_cur_freq",
			 dir, e->d_name);
		if (watchdog_read_file(path, buf, sizeof(buf)) ||
		    sscanf(buf, "%lf", &khz) != 1 || khz <= 0)
			continue;
		if (!*lo || khz / 1e3 < *lo)
			*lo = khz / 1e3;
		if (khz / 1e3 > *hi)
			*hi = khz / 1e3;
	}
	closedir(d);
}

void disturb_fill(const struct disturb_snap *a, const struct disturb_snap *b,
		  long hz, const char *sys, struct result_disturb *out)
{
	double secs, busy_s, kth_s, own_s, all;

	memset(out, 0, sizeof(*out));
	if (!a->valid || !b->valid || hz <= 0 || b->t_ns <= a->t_ns ||
	    b->busy < a->busy)
		return;
	secs = (double)(b->t_ns - a->t_ns) / 1e9;
	busy_s = (double)(b->busy - a->busy) / (double)hz;
	kth_s = b->kthreads > a->kthreads
			? (double)(b->kthreads - a->kthreads) / (double)hz
			: 0;
	own_s = b->own_ns > a->own_ns ? (double)(b->own_ns - a->own_ns) / 1e9
				      : 0;
	out->valid = true;
	out->seconds = secs;
	/* tick accounting rounds: a small negative is none */
	out->other_cpus = busy_s - kth_s - own_s > 0
				  ? (busy_s - kth_s - own_s) / secs
				  : 0;
	all = (double)(b->all - a->all);
	out->steal_pct =
		all > 0 ? 100.0 * (double)(b->steal - a->steal) / all : -1;
	out->load1_start = a->load1;
	out->load1_end = b->load1;
	for (int i = 0; i < PSI_NR; i++)
		out->psi_some_ms[i] =
			a->psi[i].valid && b->psi[i].valid
				? (double)(b->psi[i].some_total_us -
					   a->psi[i].some_total_us) /
					  1e3
				: -1;
	cpu_mhz(sys, &out->mhz_min, &out->mhz_max);
}
