// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * offcpu.bpf.c - the off-CPU time of the benchmark's clients and who
 * woke them (docs/design.md §9, "Why a stall happened").
 *
 * tp_btf/sched_switch: the main thread of a client process (it has an
 * entry in @tasks, made before the clients are released) that leaves the
 * CPU gets a timestamp there, and the state it left in: 0 when it was
 * preempted (still runnable), else asleep.  tp_btf/sched_waking runs in
 * the waker's context: for a sleeping target it notes when, who (pid,
 * tgid, comm), in which context (task or interrupt, from the preempt
 * count) and, for a sleep of stack_min_ns or more, the waker's kernel
 * stack.  When the target is switched in again, one record goes to the
 * ring buffer: the interval's three times and the waker; for a sleep of
 * stack_min_ns or more also where it slept (bpf_get_task_stack: it has
 * not run since, and a short sleep costs no stack walk).  Drops are
 * counted, never silent, and so are a client's switches that came
 * without a sched_switch event (counts.unpaired: out and in must
 * alternate).  The watchdog (engine/offcpu.c) matches the records with
 * the ops it saw run past the stall threshold.
 */
#include "vmlinux_min.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "offcpu_rec.h"

char LICENSE[] SEC("license") = "GPL";

/* set by the loader before the load (the only variable of .rodata) */
const volatile struct offcpu_bpf_cfg cfg = {.stack_min_ns = 1000000};

/*
 * The clients: the main thread of each client process (it runs the ops)
 * has an entry, put there by the loader before the clients are released
 * (keyed by a pidfd), with the interval in progress.  Task storage: a
 * task that is not a client is told by a NULL pointer in its
 * task_struct, not by hashing its pid at each of the machine's context
 * switches, and the entry goes with the task.
 */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct offcpu_task);
} tasks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 21);
} events SEC(".maps");

/* the only variable of .bss, read by the watchdog */
struct offcpu_counts counts;

#define SOFTIRQ_OFFSET 0x100u /* serving a softirq */
#define HARDIRQ_MASK   0xf0000u
#define NMI_MASK       0xf00000u

static __always_inline __u32 context_of(__u32 pc)
{
	if (pc & NMI_MASK)
		return OFFCPU_CTX_NMI;
	if (pc & HARDIRQ_MASK)
		return OFFCPU_CTX_HARDIRQ;
	if (pc & SOFTIRQ_OFFSET)
		return OFFCPU_CTX_SOFTIRQ;
	return OFFCPU_CTX_TASK;
}

/*
 * Where a wakeup runs (@cur: the current task): an interrupt's wakeup is
 * not the doing of the task it interrupted.  Architectures that keep the
 * preempt count in thread_info (CO-RE finds the field) give it there.
 * x86 keeps it in a per-CPU variable, which a program can reach only on
 * kernels built with CONFIG_KALLSYMS_ALL (an extern the kernel cannot
 * resolve fails the whole load); so the programs below count instead,
 * per CPU, the interrupts in progress, from the tracepoints around every
 * device interrupt handler, every softirq and every hrtimer expiry (the
 * timer interrupt's wakeups).  counts.ctx_by says which way it was told.
 */
#define CTX_BY_PC	1
#define CTX_BY_TRACKING 2

/* the interrupts in progress on a CPU: device handlers, softirqs,
 * hrtimer callbacks (in the timer interrupt, or in a softirq) */
struct irq_depth {
	__s32 hard, soft, timer;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct irq_depth);
} irqs SEC(".maps");

static __always_inline struct irq_depth *irq_depth(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&irqs, &zero);
}

/* tracing may start inside an interrupt: an exit without its entry is
 * not counted */
#define ENTER(f)                                   \
	do {                                       \
		struct irq_depth *d = irq_depth(); \
		if (d)                             \
			d->f++;                    \
	} while (0)
#define LEAVE(f)                                   \
	do {                                       \
		struct irq_depth *d = irq_depth(); \
		if (d && d->f > 0)                 \
			d->f--;                    \
	} while (0)

SEC("tp_btf/irq_handler_entry")
int on_irq_entry(void *ctx)
{
	ENTER(hard);
	return 0;
}

SEC("tp_btf/irq_handler_exit")
int on_irq_exit(void *ctx)
{
	LEAVE(hard);
	return 0;
}

SEC("tp_btf/softirq_entry")
int on_softirq_entry(void *ctx)
{
	ENTER(soft);
	return 0;
}

SEC("tp_btf/softirq_exit")
int on_softirq_exit(void *ctx)
{
	LEAVE(soft);
	return 0;
}

SEC("tp_btf/hrtimer_expire_entry")
int on_hrtimer_entry(void *ctx)
{
	ENTER(timer);
	return 0;
}

SEC("tp_btf/hrtimer_expire_exit")
int on_hrtimer_exit(void *ctx)
{
	LEAVE(timer);
	return 0;
}

static __always_inline __u32 wake_context(struct task_struct *cur)
{
	struct irq_depth *d;

	if (bpf_core_field_exists(cur->thread_info.preempt_count)) {
		counts.ctx_by = CTX_BY_PC;
		return context_of(
			BPF_CORE_READ(cur, thread_info.preempt_count));
	}
	counts.ctx_by = CTX_BY_TRACKING;
	d = irq_depth();
	if (!d)
		return OFFCPU_CTX_UNKNOWN;
	/* a softirq's hrtimers run in the softirq; the timer interrupt's
	 * outside any */
	if (d->hard > 0)
		return OFFCPU_CTX_HARDIRQ;
	if (d->soft > 0)
		return OFFCPU_CTX_SOFTIRQ;
	if (d->timer > 0)
		return OFFCPU_CTX_HARDIRQ;
	return OFFCPU_CTX_TASK;
}
/* @t is the main thread of a client process, which runs its ops (a
 * backend's helper threads, if any, wait on the main thread's behalf) */
/* @t's entry if it is a client's main thread, else NULL; a task without
 * any task storage (almost every task) is told by one load */
static __always_inline struct offcpu_task *target(struct task_struct *t)
{
	if (bpf_core_field_exists(t->bpf_storage) && !t->bpf_storage)
		return 0;
	return bpf_task_storage_get(&tasks, t, 0, 0);
}

#define PF_KTHREAD 0x00200000u

/* @t, a client's main thread or not (@client) */
static __always_inline __u32 holder_kind(struct task_struct *t, bool client)
{
	if (t->flags & PF_KTHREAD)
		return OFFCPU_HOLDER_KTHREAD;
	if (client || (__u32)t->tgid == cfg.parent_tgid)
		return OFFCPU_HOLDER_RUN;
	return OFFCPU_HOLDER_OTHER;
}

/* The last tasks that ran on a CPU (offcpu_rec.h, offcpu_holder) */
struct cpu_ring {
	__u64 since; /* the current task's stretch began */
	__u32 head, pad;
	struct offcpu_stretch s[OFFCPU_STRETCHES];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct cpu_ring);
} stretches SEC(".maps");

static __always_inline struct cpu_ring *ring(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&stretches, &zero);
}

/*
 * The scan of a CPU's ring for a holder (bpf_loop: the verifier checks
 * its callback once, not each of OFFCPU_STRETCHES turns).  The stretches
 * of a CPU end in the order they are written (each at a switch on that
 * CPU, by its clock), so the scan walks back from the newest and stops
 * at the first that ended by @from, or was never written: none older
 * can overlap.  A wait is most often one or two stretches long, and at
 * a tbench exchange's rate of switches a scan of all 32, twice, was
 * most of the program's cost.
 */
struct scan {
	struct cpu_ring *cr;
	__u64 from, now;
	__u64 best, sum;
	__u32 k, pid, n;
};

static __always_inline struct offcpu_stretch *nth_newest(struct scan *sc,
							 __u64 i)
{
	return &sc->cr->s[(sc->cr->head - 1 - (__u32)i) &
			  (OFFCPU_STRETCHES - 1)];
}

/* @e's time between @sc's from and now */
static __always_inline __u64 overlap(const struct offcpu_stretch *e,
				     const struct scan *sc)
{
	__u64 a = e->start > sc->from ? e->start : sc->from;
	__u64 b = e->end < sc->now ? e->end : sc->now;

	return e->end && b > a ? b - a : 0;
}

static long find_best(__u64 i, void *ctx)
{
	struct scan *sc = ctx;
	struct offcpu_stretch *e = nth_newest(sc, i);
	__u64 o;

	if (!e->end || e->end <= sc->from)
		return 1; /* this one and all older: before the wait */
	sc->n = (__u32)i + 1;
	o = overlap(e, sc);
	if (o > sc->best) {
		sc->best = o;
		sc->k = (__u32)i;
		sc->pid = e->pid;
	}
	return 0;
}

static long sum_best(__u64 i, void *ctx)
{
	struct scan *sc = ctx;
	struct offcpu_stretch *e = nth_newest(sc, i);

	if (e->pid == sc->pid)
		sc->sum += overlap(e, sc);
	return 0;
}

/* The holder of the CPU of a client runnable from @from to @now (the
 * ring's last stretch is the task it just took the CPU from): the
 * stretch that overlaps most, and all of its task's overlap */
static __always_inline void holder(struct offcpu_rec *r, __u64 from,
				   __u64 now)
{
	struct scan sc = {.cr = ring(), .from = from, .now = now};
	struct offcpu_stretch *e;

	r->holder_pid = 0;
	r->holder_ns = 0;
	if (!sc.cr)
		return;
	bpf_loop(OFFCPU_STRETCHES, find_best, &sc, 0);
	if (!sc.best)
		return;
	if (sc.n == 1)
		sc.sum = sc.best; /* the one stretch: no second pass */
	else
		bpf_loop(sc.n, sum_best, &sc, 0);
	e = nth_newest(&sc, sc.k);
	r->holder_pid = e->pid;
	r->holder_tgid = e->tgid;
	r->holder_kind = e->kind;
	r->holder_ns = sc.sum;
	__builtin_memcpy(r->holder_comm, e->comm, OFFCPU_COMM);
}

/* @next is back on a CPU: send its interval, and who held the CPU */
static __always_inline void switched_in(struct task_struct *next,
					struct offcpu_task *ts, __u64 now)
{
	struct offcpu_rec *r;
	bool full;

	if (ts->waiting) {
		ts->waiting = 0;
		__sync_fetch_and_add(&counts.waiting, -1);
	}
	/* a switch-in with no interval open: its switch-out was not seen
	 * (before the first one the entry was made with the task off) */
	if (!ts->off_ns) {
		if (ts->seen) {
			__sync_fetch_and_add(&counts.unpaired, 1);
			ts->gap_ns = now;
		}
		return;
	}
	full = ts->state && ts->wake_ns &&
	       ts->wake_ns - ts->off_ns >= cfg.stack_min_ns;
	/* before the reservation, whose lock orders it before those of
	 * the records reserved after this one: a drain that read it knows
	 * of every record queued ahead of one it waits for (offcpu_drain) */
	__sync_fetch_and_add(&counts.begun, 1);
	if (full)
		r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);
	else
		r = bpf_ringbuf_reserve(&events, OFFCPU_REC_SHORT, 0);
	if (!r) {
		__sync_fetch_and_add(&counts.lost, 1);
		ts->off_ns = 0;
		return;
	}
	r->off_ns = ts->off_ns;
	r->wake_ns = ts->wake_ns;
	r->on_ns = now;
	r->pid = next->pid;
	r->tgid = next->tgid;
	r->state = ts->state;
	r->waker_pid = ts->waker_pid;
	r->waker_tgid = ts->waker_tgid;
	r->waker_ctx = ts->waker_ctx;
	__builtin_memcpy(r->waker_comm, ts->waker_comm, OFFCPU_COMM);
	holder(r, ts->wake_ns ? ts->wake_ns : ts->off_ns, now);
	if (full) {
		long n = bpf_get_task_stack(next, r->bstack, sizeof(r->bstack),
					    0);

		if (n < 0)
			__sync_fetch_and_add(&counts.stack_errors, 1);
		r->bstack_len = (__s32)n;
		r->wstack_len = ts->wstack_len;
		__builtin_memcpy(r->wstack, ts->wstack, sizeof(r->wstack));
	}
	ts->off_ns = 0;
	__sync_fetch_and_add(&counts.records, 1);
	bpf_ringbuf_submit(r, BPF_RB_NO_WAKEUP);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(on_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	struct offcpu_task *ts = target(prev);
	struct cpu_ring *cr;
	__u64 now = 0;

	/* @prev's stretch on this CPU ends: kept only while a client waits
	 * for a CPU (a stretch that began before the wait is cut at its
	 * start, so a start not updated meanwhile does no harm) */
	if (counts.waiting > 0 && (cr = ring())) {
		now = bpf_ktime_get_ns();
		if (cr->since) {
			struct offcpu_stretch *e =
				&cr->s[cr->head & (OFFCPU_STRETCHES - 1)];

			e->start = cr->since;
			e->end = now;
			e->pid = prev->pid;
			e->tgid = prev->tgid;
			e->kind = holder_kind(prev, ts != 0);
			bpf_probe_read_kernel(e->comm, sizeof(e->comm),
					      prev->comm);
			cr->head++;
		}
		cr->since = now;
	}

	if (ts) {
		if (!now)
			now = bpf_ktime_get_ns();
		/* the switch-in that ends an interval resets it: one still
		 * open means a switch-in not seen, its record never sent */
		if (ts->off_ns)
			__sync_fetch_and_add(&counts.unpaired, 1);
		ts->seen = 1;
		ts->off_ns = now;
		ts->wake_ns = 0;
		ts->state = preempt ? 0 : prev_state;
		ts->waker_pid = 0;
		ts->waker_tgid = 0;
		ts->waker_ctx = 0;
		ts->waker_comm[0] = 0;
		ts->wstack_len = 0;
		if (!ts->state && !ts->waiting) { /* runnable: it waits */
			ts->waiting = 1;
			__sync_fetch_and_add(&counts.waiting, 1);
		}
	}
	ts = target(next);
	if (ts)
		switched_in(next, ts, now ? now : bpf_ktime_get_ns());
	return 0;
}

SEC("tp_btf/sched_waking")
int BPF_PROG(on_waking, struct task_struct *p)
{
	struct offcpu_task *ts = target(p);
	struct task_struct *cur;
	__u64 now;

	if (!ts || !ts->off_ns || !ts->state || ts->wake_ns)
		return 0;
	now = bpf_ktime_get_ns();
	ts->wake_ns = now;
	if (!ts->waiting) { /* runnable from now: it waits */
		ts->waiting = 1;
		__sync_fetch_and_add(&counts.waiting, 1);
	}
	cur = bpf_get_current_task_btf();
	ts->waker_pid = cur->pid;
	ts->waker_tgid = cur->tgid;
	ts->waker_ctx = wake_context(cur);
	bpf_get_current_comm(ts->waker_comm, sizeof(ts->waker_comm));
	if (now - ts->off_ns >= cfg.stack_min_ns) {
		long n = bpf_get_stack(ctx, ts->wstack, sizeof(ts->wstack), 0);

		if (n < 0)
			__sync_fetch_and_add(&counts.stack_errors, 1);
		ts->wstack_len = (__s32)n;
	}
	return 0;
}
