/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * offcpu_rec.h - what the BPF program (bpf/offcpu.bpf.c) sends the
 * watchdog through its ring buffer: one record per off-CPU interval of a
 * client process, written when the task is back on a CPU.  Shared by the
 * BPF object and the engine, so fixed-width types only (vmlinux_min.h
 * defines them for the BPF side, <linux/types.h> for ours).
 */
#ifndef DBNG_OFFCPU_REC_H
#define DBNG_OFFCPU_REC_H

#ifndef __bpf__
#include <linux/types.h>
#endif

#define OFFCPU_DEPTH 40 /* kernel frames kept of a stack */
#define OFFCPU_COMM  16 /* TASK_COMM_LEN */

/* Where the wakeup ran, from the preempt count at sched_waking: a task,
 * or an interrupt (whose pid and comm are only the interrupted task's). */
enum offcpu_ctx {
	OFFCPU_CTX_TASK,
	OFFCPU_CTX_HARDIRQ,
	OFFCPU_CTX_SOFTIRQ,
	OFFCPU_CTX_NMI,
	OFFCPU_CTX_UNKNOWN, /* the preempt count could not be read */
	OFFCPU_CTX_NR
};

/*
 * What held the CPU a client waited for: of the last OFFCPU_STRETCHES
 * tasks that ran on the CPU it came back on, the one that ran longest
 * while it was runnable (its wakeup, or its preemption, to its return).
 */
#define OFFCPU_STRETCHES 32 /* a power of two */

/* One task's time on a CPU (the BPF side's per-CPU ring) */
struct offcpu_stretch {
	__u64 start, end;
	__u32 pid, tgid, kind, pad;
	char comm[OFFCPU_COMM];
};

enum offcpu_holder {
	OFFCPU_HOLDER_RUN,     /* the parent or a client */
	OFFCPU_HOLDER_KTHREAD, /* a kernel thread */
	OFFCPU_HOLDER_OTHER,   /* a program outside the run */
};

/*
 * One off-CPU interval of task @pid: it left the CPU at off_ns (blocked:
 * state != 0; preempted, still runnable: state 0), was woken at wake_ns
 * (0: preempted, nothing woke it) and ran again at on_ns, all
 * CLOCK_MONOTONIC (bpf_ktime_get_ns), the clients' clock.  The short form
 * ends before bstack_len; the long form, for a sleep of stack_min_ns or
 * longer, has the stacks (innermost frame first; a length in bytes, 0
 * when not taken, negative: the helper's error).
 */
struct offcpu_rec {
	__u64 off_ns;
	__u64 wake_ns;
	__u64 on_ns;
	__u32 pid;
	__u32 tgid;
	__u32 state;
	__u32 waker_pid;
	__u32 waker_tgid;
	__u32 waker_ctx; /* enum offcpu_ctx */
	char waker_comm[OFFCPU_COMM];
	/* who held the CPU while it was runnable (offcpu_holder; pid 0:
	 * unknown), and how long of that time */
	__u32 holder_pid;
	__u32 holder_tgid;
	__u32 holder_kind; /* enum offcpu_holder */
	__u32 holder_pad;
	__u64 holder_ns;
	char holder_comm[OFFCPU_COMM];
	__s32 bstack_len;
	__s32 wstack_len;
	__u64 bstack[OFFCPU_DEPTH]; /* where it slept */
	__u64 wstack[OFFCPU_DEPTH]; /* the waker, at the wakeup */
};

#define OFFCPU_REC_SHORT __builtin_offsetof(struct offcpu_rec, bstack_len)

/* What the BPF side keeps of a client task between its switch-out and
 * its switch-in (its task storage), also read by the watchdog for an op still
 * stuck at the end of the run. */
struct offcpu_task {
	__u64 off_ns;  /* 0: on a CPU */
	__u64 wake_ns; /* 0: not woken yet */
	__u32 state;
	__u32 waker_pid;
	__u32 waker_tgid;
	__u32 waker_ctx;
	char waker_comm[OFFCPU_COMM];
	__s32 wstack_len;
	__u32 waiting; /* runnable without a CPU: counted in counts.waiting */
	__u32 seen;    /* a switch-out of it was seen (counts.unpaired) */
	__u32 pad;
	__u64 gap_ns; /* the last switch-in with no interval open (its
			 switch-out not seen): an interval lost before */
	__u64 wstack[OFFCPU_DEPTH];
};

/* The settings of the BPF side (its .rodata), set before the load. */
struct offcpu_bpf_cfg {
	__u64 stack_min_ns; /* stacks of sleeps this long or longer */
	__u32 parent_tgid;  /* the run's parent (offcpu_holder) */
	__u32 pad;
};

/* The counters of the BPF side (its .bss), read at the end. */
struct offcpu_counts {
	__u64 records;	    /* intervals sent */
	__u64 begun;	    /* records begun: counted before the ring
			       buffer space is reserved (offcpu_drain) */
	__u64 lost;	    /* the ring buffer was full: intervals lost */
	__u64 stack_errors; /* a stack helper failed */
	__u64 ctx_by;	    /* how a waker's context was told: 1 the
			       preempt count, 2 interrupt tracepoints */
	__s64 waiting;	    /* clients runnable without a CPU now: the
			       CPUs' rings of stretches are kept only
			       while some are (offcpu_holder) */
	__u64 unpaired;	    /* switches of a client that came without
			       a sched_switch event, each an interval
			       lost: a switch-in without the switch-out
			       before it, or a switch-out while the
			       interval before was still open */
};

#endif
