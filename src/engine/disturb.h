/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * disturb.h - what else the machine did during a run (struct
 * result_disturb): two snapshots of /proc, at the release of the clients
 * and after the last one exited, and their difference.
 *
 * Other processes' CPU time is the busy time of /proc/stat (user, nice,
 * system) less the CPU time of this run (the parent and its clients) and
 * of the kernel threads (PF_KTHREAD: jbd2, kworkers, btrfs workers do the
 * filesystem's work for the run; their time is not a disturbance).
 * Interrupt time is left out for the same reason.  The /proc and /sys
 * roots are arguments, so unit tests read fake ones.
 */
#ifndef DBNG_DISTURB_H
#define DBNG_DISTURB_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "result.h"

struct disturb_snap {
	bool valid;		   /* /proc/stat was read */
	uint64_t t_ns;		   /* clock_ns() of the snapshot */
	uint64_t busy, steal, all; /* /proc/stat "cpu" line, USER_HZ ticks */
	uint64_t kthreads;	   /* utime + stime of kernel threads, ticks */
	uint64_t own_ns;	   /* CPU time of this run's processes */
	double load1;		   /* -1: unknown */
	struct result_psi psi[PSI_NR];
};

/*
 * disturb_snap - take a snapshot at time @now_ns under @proc ("/proc"),
 * with @own_ns the CPU time this run's processes have used so far (see
 * disturb_own_ns()).
 */
void disturb_snap(const char *proc, uint64_t now_ns, uint64_t own_ns,
		  struct disturb_snap *s);

/*
 * disturb_own_ns - the CPU time of this run so far: the calling process,
 * its children reaped since the run started (@reaped_base_ns: their total
 * before it, from disturb_children_ns()), and the @n live children @pids
 * (from @proc/PID/stat).
 */
uint64_t disturb_own_ns(const char *proc, const pid_t *pids, int n,
			uint64_t reaped_base_ns);

/* disturb_children_ns - CPU time of every reaped child so far. */
uint64_t disturb_children_ns(void);

/*
 * disturb_fill - @out from snapshots @a (start) and @b (end), @hz ticks
 * per second (sysconf(_SC_CLK_TCK)), and the CPU frequencies under @sys
 * ("/sys") at the end.  @out->valid is false when either snapshot is.
 */
void disturb_fill(const struct disturb_snap *a, const struct disturb_snap *b,
		  long hz, const char *sys, struct result_disturb *out);

#endif
