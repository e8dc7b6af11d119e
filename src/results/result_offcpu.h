/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * result_offcpu.h - why a stalled op waited: its off-CPU time as BPF
 * traced it (engine/offcpu.c), per stall event and per op.  Part of the
 * stalls of a result (result.h); every string is owned by the result.
 */
#ifndef DBNG_RESULT_OFFCPU_H
#define DBNG_RESULT_OFFCPU_H

#include <stdbool.h>
#include <stdint.h>

/* Where a wakeup ran, and its name in the JSON result: a task, or an
 * interrupt (the task it interrupted is not the waker). */
#define WAKER_CTX_LIST(X)           \
	X(WAKER_TASK, "task")       \
	X(WAKER_HARDIRQ, "hardirq") \
	X(WAKER_SOFTIRQ, "softirq") \
	X(WAKER_NMI, "nmi")         \
	X(WAKER_UNKNOWN, "unknown")

enum waker_ctx {
#define X(id, name) id,
	WAKER_CTX_LIST(X)
#undef X
		WAKER_CTX_NR
};

/* waker_ctx_name - "task", "hardirq", ...; waker_ctx_parse - back, or -1 */
const char *waker_ctx_name(int ctx);
int waker_ctx_parse(const char *s);

/* One sleep of a stalled op and what ended it. */
struct result_wait {
	double at_ms;	   /* it fell asleep, ms after the op started */
	double blocked_ms; /* asleep: to the wakeup (or the end of the run) */
	double runq_ms;	   /* woken, waiting for a CPU */
	char state;	   /* 'S' interruptible, 'D' not */
	bool woken;	   /* false: still asleep when the run ended */
	char *stack;	   /* where it slept, folded (outermost frame
			      first); NULL: not taken (a short sleep) */
	int waker_pid;
	char *waker_comm;
	int waker_client;  /* the waker's process runs client N (its first
			      with --clients-per-process); -1 not ours */
	int waker_ctx;	   /* enum waker_ctx */
	char *waker_stack; /* folded; NULL: not taken */
};

#define STALL_MAX_WAITS 8 /* sleeps kept per event, the longest */

/* What held the CPU a stalled op waited for, and its JSON name. */
#define HOLDER_KIND_LIST(X)                \
	X(HOLDER_OTHER, "other")           \
	X(HOLDER_KTHREAD, "kernel_thread") \
	X(HOLDER_CLIENT, "client")         \
	X(HOLDER_PARENT, "parent")

enum holder_kind {
#define X(id, name) id,
	HOLDER_KIND_LIST(X)
#undef X
		HOLDER_KIND_NR
};

/* holder_kind_name - "other", ...; holder_kind_parse - back, or -1 */
const char *holder_kind_name(int kind);
int holder_kind_parse(const char *s);

/* The off-CPU time of one stalled op (valid: traced with BPF). */
struct result_offcpu {
	bool valid;
	double blocked_ms; /* asleep, all its sleeps */
	double runq_ms;	   /* runnable but not running: after its wakeups
			      and while preempted */
	uint32_t sleeps;   /* times it fell asleep */
	uint32_t preempted;
	bool partial; /* intervals were lost meanwhile: the figures
			 are lower bounds */
	/* who held the CPU for most of its runnable time (the task that
	 * ran just before it came back; holder[0] 0: unknown), how long,
	 * and what it was */
	char holder[16];
	double holder_ms;
	int holder_kind; /* enum holder_kind */
	int nwaits;   /* its longest sleeps, longest first */
	struct result_wait waits[STALL_MAX_WAITS];
};

/* What a row of the per-op table of where stalled ops spent their time
 * is, and its name in the JSON result. */
#define WAIT_KIND_LIST(X)        \
	X(WAIT_SLEEP, "sleep")   \
	X(WAIT_RUNQ, "runnable") \
	X(WAIT_CPU, "on_cpu")

enum wait_kind {
#define X(id, name) id,
	WAIT_KIND_LIST(X)
#undef X
		WAIT_KIND_NR
};

const char *wait_kind_name(int kind);
int wait_kind_parse(const char *s);

/*
 * One row: the stalled ops of @op (measured phase) spent @ms in @count
 * sleeps in @stack woken by the same kind of waker in @waker_stack
 * (WAIT_SLEEP), or runnable without a CPU (WAIT_RUNQ: @count intervals),
 * or on a CPU (WAIT_CPU: @count ops).  The waker: one of the clients, or
 * an interrupt, or @waker_comm.
 */
struct result_wait_pair {
	int op;
	int kind; /* enum wait_kind */
	uint64_t count;
	double ms;
	char *stack;	   /* NULL: short sleeps, no stack taken */
	bool waker_client; /* a client woke it */
	int waker_ctx;	   /* enum waker_ctx */
	char *waker_comm;  /* a task not ours (NULL otherwise) */
	char *waker_stack;
};

#define STALL_MAX_PAIRS 64 /* rows kept, the most time first */

/* How the stalls of a run were explained and what the tracing cost. */
struct result_offcpu_run {
	char *method;	   /* "bpf", "proc" (sampling only), NULL: no
			      watchdog or an older result */
	char *method_note; /* why not "bpf" */
	/* with "bpf": */
	uint64_t intervals;    /* off-CPU intervals of the clients traced */
	uint64_t lost;	       /* lost: the ring buffer was full */
	uint64_t stack_errors; /* a stack could not be taken */
	uint64_t overflow;     /* dropped by the watchdog's own bounds */
	double stack_min_ms;   /* stacks of sleeps this long or longer */
	bool symbols;	       /* false: raw addresses (no CAP_SYSLOG) */
	char *irq_method;      /* how interrupt wakers were told apart */
	int npairs;	       /* the most time first */
	struct result_wait_pair pairs[STALL_MAX_PAIRS];
	uint64_t other_count; /* rows beyond STALL_MAX_PAIRS */
	double other_ms;
};

/* result_offcpu_copy - @dst as @src with strings of its own; 0 or -1
 * (out of memory: @dst owns nothing) */
int result_offcpu_copy(struct result_offcpu *dst,
		       const struct result_offcpu *src);

/*
 * result_offcpu_run_add - add the figures of host @h (@where names it in
 * a note) to those of the run: counts summed, rows that read alike
 * merged, the method "bpf" only where every host traced with BPF.
 * 0 or -1 (out of memory).
 */
int result_offcpu_run_add(struct result_offcpu_run *run,
			  const struct result_offcpu_run *h, const char *where);

/* result_offcpu_free, result_offcpu_run_free - release what they own */
void result_offcpu_free(struct result_offcpu *o);
void result_offcpu_run_free(struct result_offcpu_run *o);

#endif
