// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * foreign.bpf.c - how long each client process waited for a CPU that a
 * program outside the run held (docs/design.md §9, "Own latency"; the
 * accounting is foreign_acct.h's).
 *
 * tp_btf/sched_switch, on every CPU: the previous task's stretch ends
 * (a foreign one adds to the CPU's foreign total, and its comm is kept
 * as the CPU's last holder); a client's main thread that leaves
 * runnable (preempted) starts a wait; one that comes back ends its wait,
 * whose run-queue time and foreign part go to its slot and the holder's
 * row.  tp_btf/sched_wakeup: a client's main thread woken from a sleep
 * starts a wait on the CPU it was queued on.  The slots are a
 * BPF_F_MMAPABLE array the clients read with plain loads at each op's
 * start and end.  The run's processes (the parent and the clients, by
 * tgid) are in @run, put there by the loader before the release; kernel
 * threads are told by PF_KTHREAD.  Neither is ever foreign.
 */
#include "vmlinux_min.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "foreign_acct.h"

char LICENSE[] SEC("license") = "GPL";

/* the run's processes by tgid */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1); /* sized by the loader */
	__type(key, __u32);
	__type(value, struct foreign_task);
} run SEC(".maps");

/* one per possible CPU */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* sized by the loader */
	__type(key, __u32);
	__type(value, struct foreign_cpu);
} cpus SEC(".maps");

/* one per client process, read by the clients */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1); /* sized by the loader */
	__type(key, __u32);
	__type(value, struct foreign_slot);
} slots SEC(".maps");

/* the clients' foreign wait by the comm of the task that last held the
 * CPU they queued on */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, char[FOREIGN_COMM]);
	__type(value, __u64);
} holders SEC(".maps");

/* older kernels (before 5.16 on x86) keep the CPU in task_struct */
struct task_struct___cpu {
	unsigned int cpu;
} __attribute__((preserve_access_index));

static __always_inline __u32 task_cpu_of(struct task_struct *p)
{
	if (bpf_core_field_exists(p->thread_info.cpu))
		return BPF_CORE_READ(p, thread_info.cpu);
	return BPF_CORE_READ((struct task_struct___cpu *)p, cpu);
}

/* a bit per tgid modulo FOREIGN_RUN_BITS, set by the loader for each of
 * the run's processes (foreign_acct.h): most tasks are not the run's,
 * and one load tells them, not a hash lookup at each of the machine's
 * switches and wakeups */
__u64 run_bits[FOREIGN_RUN_BITS / 64];

/* @p's entry if it is one of the run's processes, else NULL; a kernel
 * thread or a task whose bit is clear costs no lookup */
static __always_inline struct foreign_task *run_task(struct task_struct *p,
						     __u32 flags)
{
	__u32 tgid = (__u32)p->tgid;

	if (flags & FOREIGN_PF_KTHREAD)
		return 0;
	if (!(run_bits[(tgid / 64) % (FOREIGN_RUN_BITS / 64)] &
	      (1ull << (tgid % 64))))
		return 0;
	return bpf_map_lookup_elem(&run, &tgid);
}

static __always_inline int is_client_main(struct task_struct *p,
					  struct foreign_task *t)
{
	return t && t->slot != FOREIGN_NOT_CLIENT && p->pid == p->tgid;
}

static __always_inline void charge(struct foreign_task *t, __u64 fw, __u64 rq,
				   const struct foreign_cpu *c)
{
	struct foreign_slot *s = bpf_map_lookup_elem(&slots, &t->slot);
	__u64 *h, zero = 0;

	if (!s)
		return;
	s->foreign_ns += fw;
	s->runq_ns += rq;
	s->waits++;
	if (!fw || !c->comm[0])
		return;
	h = bpf_map_lookup_elem(&holders, c->comm);
	if (!h) {
		bpf_map_update_elem(&holders, c->comm, &zero, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&holders, c->comm);
	}
	if (h)
		__sync_fetch_and_add(h, fw);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(on_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	__u32 cpu = bpf_get_smp_processor_id(), nflags = next->flags;
	struct foreign_cpu *c = bpf_map_lookup_elem(&cpus, &cpu);
	struct foreign_task *nt, *pt = 0;
	__u64 now, fw, rq;
	int prev_client;

	if (!c)
		return 0;
	now = bpf_ktime_get_ns();
	prev_client = c->valid && c->client;
	nt = run_task(next, nflags);
	if (foreign_cpu_switch(c, now,
			       foreign_is_foreign(nflags, next->pid, nt != 0),
			       is_client_main(next, nt)))
		bpf_probe_read_kernel(c->comm, sizeof(c->comm), prev->comm);
	/* a client leaving: runnable (preempted) starts a wait */
	if (prev_client) {
		pt = run_task(prev, prev->flags);
		if (is_client_main(prev, pt)) {
			pt->off = 1;
			if (preempt || prev_state == 0)
				foreign_wait_start(pt, c, cpu, now);
			else
				pt->start = 0; /* asleep: no wait yet */
		}
	}
	/* a client back on a CPU: its wait ends */
	if (is_client_main(next, nt)) {
		const struct foreign_cpu *q = c;

		nt->off = 0;
		if (!nt->start)
			return 0;
		if (nt->cpu != cpu)
			q = bpf_map_lookup_elem(&cpus, &nt->cpu);
		if (!q) {
			nt->start = 0;
			return 0;
		}
		fw = foreign_wait_end(nt, q, now, &rq);
		charge(nt, fw, rq, q);
	}
	return 0;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(on_wakeup, struct task_struct *p)
{
	struct foreign_task *t = run_task(p, p->flags);
	struct foreign_cpu *c;
	__u32 cpu;

	if (!is_client_main(p, t) || !t->off || t->start)
		return 0;
	cpu = task_cpu_of(p);
	c = bpf_map_lookup_elem(&cpus, &cpu);
	if (c)
		foreign_wait_start(t, c, cpu, bpf_ktime_get_ns());
	return 0;
}
