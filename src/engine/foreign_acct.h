/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * foreign_acct.h - the accounting of the clients' foreign CPU wait, the
 * same code in the BPF program (bpf/foreign.bpf.c) and in the unit test
 * that drives it on a fake clock (tests/unit/test_foreign.c).  Fixed-
 * width types only (vmlinux_min.h defines them for the BPF side,
 * <linux/types.h> for ours), no helper calls.
 *
 * Per CPU, a running total of the time a foreign task (outside the run,
 * not a kernel thread) held it: each context switch ends the previous
 * task's stretch and starts the next one's.  Per client process (its
 * main thread runs the ops), the run-queue wait: from its preemption or
 * its wakeup until it is back on a CPU; its foreign part is how much the
 * CPU it queued on spent on foreign tasks meanwhile (a client moved to
 * another CPU while it waited is charged its first CPU's: the balancer
 * moves it when that CPU is busy, so the figure stays an estimate of the
 * same kind), never more than the wait.
 */
#ifndef DBNG_FOREIGN_ACCT_H
#define DBNG_FOREIGN_ACCT_H

#ifndef __bpf__
#include <linux/types.h>
#endif

#define FOREIGN_COMM	   16	       /* TASK_COMM_LEN */
#define FOREIGN_NOT_CLIENT 0xffffffffu /* a run's process, not a client */
#define FOREIGN_PF_KTHREAD 0x00200000u /* task_struct.flags: kernel thread */
/* the prefilter of the run's tgids (foreign.bpf.c run_bits): a power of
 * two; a tgid whose bit another set is only looked up in vain */
#define FOREIGN_RUN_BITS 65536

/* One CPU: written only at its own context switches */
struct foreign_cpu {
	__u64 since;   /* the current task's stretch began */
	__u64 cum;     /* foreign time, ns, up to since */
	__u32 foreign; /* the current task is foreign */
	__u32 client;  /* the current task is a client's main thread */
	__u32 valid;   /* since is known (a switch was seen) */
	__u32 pad;
	char comm[FOREIGN_COMM]; /* the last foreign task that held it */
};

/* A process of the run (its tgid is the key), and for a client process
 * its main thread's wait in progress */
struct foreign_task {
	__u32 slot;  /* the client process's index, or FOREIGN_NOT_CLIENT */
	__u32 cpu;   /* the CPU it queued on */
	__u64 start; /* the wait began (0: none in progress) */
	__u64 f0;    /* that CPU's foreign total then */
	__u32 off;   /* off its CPU (switched out, not yet back) */
	__u32 pad;
};

/* What a client process reads, one cache line each (BPF_F_MMAPABLE):
 * its totals since the tracing began */
struct foreign_slot {
	__u64 foreign_ns; /* run-queue wait behind foreign tasks */
	__u64 runq_ns;	  /* all run-queue wait */
	__u64 waits;	  /* waits that ended */
	__u64 pad[5];
};

/* the foreign total of CPU @c at @now, its current stretch included */
static inline __u64 foreign_cum(const struct foreign_cpu *c, __u64 now)
{
	if (c->valid && c->foreign && now > c->since)
		return c->cum + (now - c->since);
	return c->cum;
}

/* A context switch on CPU @c at @now to a task that is (@next_foreign)
 * foreign or not, (@next_client) a client's main thread or not.  True
 * when a foreign stretch ended: the caller copies the previous task's
 * comm into c->comm. */
static inline int foreign_cpu_switch(struct foreign_cpu *c, __u64 now,
				     int next_foreign, int next_client)
{
	int ended = c->valid && c->foreign;

	if (ended && now > c->since)
		c->cum += now - c->since;
	c->since = now;
	c->foreign = next_foreign;
	c->client = next_client;
	c->valid = 1;
	return ended;
}

/* Task @t became runnable at @now on CPU @cpu (@c): its wait begins */
static inline void foreign_wait_start(struct foreign_task *t,
				      const struct foreign_cpu *c, __u32 cpu,
				      __u64 now)
{
	t->start = now;
	t->cpu = cpu;
	t->f0 = foreign_cum(c, now);
}

/* Task @t is back on a CPU at @now; @c is the CPU it queued on (its
 * stretch up to @now already ended if it is this one).  Its wait into
 * *@runq and the foreign part of it returned; 0 and 0 without a wait. */
static inline __u64 foreign_wait_end(struct foreign_task *t,
				     const struct foreign_cpu *c, __u64 now,
				     __u64 *runq)
{
	__u64 w, f;

	*runq = 0;
	if (!t->start || now < t->start) {
		t->start = 0;
		return 0;
	}
	w = now - t->start;
	f = foreign_cum(c, now);
	f = f > t->f0 ? f - t->f0 : 0;
	t->start = 0;
	*runq = w;
	return f < w ? f : w;
}

/* Whether a task is foreign: not a kernel thread (the idle tasks are
 * ones too), not pid 0, not a process of the run (@run_entry) */
static inline int foreign_is_foreign(__u32 flags, int pid, int run_entry)
{
	return !(flags & FOREIGN_PF_KTHREAD) && pid != 0 && !run_entry;
}

#endif
