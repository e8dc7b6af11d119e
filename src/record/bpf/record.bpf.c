// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record.bpf.c - the file-system calls of a process tree, for
 * "dbench-ng record" (docs/record.md).
 *
 * The tree is @procs (tgids): the loader puts the traced processes there
 * (or, for a command it starts, @armed holds its pid until the command's
 * exec, so nothing of the loader's own child is traced before), and
 * sched_process_fork adds their children.  tp_btf/sys_enter keeps the
 * arguments of a call the loader's table (@specs, by number) names, per
 * thread in @inflight; tp_btf/sys_exit sends one record with them, the
 * result and what the arguments point to, read then: the paths
 * (bpf_probe_read_user_str cannot fault a page in, and by the exit the
 * kernel has read the string itself, so its page is there) and the
 * structure a call fills (struct stat, statx) or reads (struct flock,
 * open_how).  Forks, execs and exits are records too.  A record the ring
 * buffer has no room for is counted in @counts, never dropped silently.
 */
#include "vmlinux_min.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "rec_bpf.h"

char LICENSE[] SEC("license") = "GPL";

struct inflight {
	__u64 ts_ns;
	__s64 nr;
	__u64 arg[8];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, __u8);
} procs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u8);
} armed SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct inflight);
} inflight SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, REC_BPF_NSYS);
	__type(key, __u32);
	__type(value, struct rec_bpf_spec);
} specs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct rec_bpf_ev);
} scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 24); /* the loader may set another size */
} events SEC(".maps");

struct rec_bpf_counts counts;

static __always_inline bool traced(__u32 tgid)
{
	return bpf_map_lookup_elem(&procs, &tgid) != 0;
}

static __always_inline struct rec_bpf_ev *record(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&scratch, &zero);
}

static __always_inline void send(struct rec_bpf_ev *r, __u64 size)
{
	if (size > sizeof(*r))
		size = sizeof(*r);
	if (bpf_ringbuf_output(&events, r, size, 0))
		__sync_fetch_and_add(&counts.lost, 1);
	else
		__sync_fetch_and_add(&counts.records, 1);
}

SEC("tp_btf/sys_enter")
int BPF_PROG(on_sys_enter, struct pt_regs *regs, long id)
{
	__u64 pt = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)pt, nr = (__u32)id;
	struct rec_bpf_spec *s;
	struct inflight f = {};

	if (!traced(pt >> 32) || id < 0 || id >= REC_BPF_NSYS)
		return 0;
	s = bpf_map_lookup_elem(&specs, &nr);
	if (!s || !s->on)
		return 0;
	f.ts_ns = bpf_ktime_get_ns();
	f.nr = id;
	f.arg[0] = BPF_CORE_READ(regs, di);
	f.arg[1] = BPF_CORE_READ(regs, si);
	f.arg[2] = BPF_CORE_READ(regs, dx);
	f.arg[3] = BPF_CORE_READ(regs, r10);
	f.arg[4] = BPF_CORE_READ(regs, r8);
	f.arg[5] = BPF_CORE_READ(regs, r9);
	if (bpf_map_update_elem(&inflight, &tid, &f, BPF_ANY))
		__sync_fetch_and_add(&counts.inflight, 1);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(on_sys_exit, struct pt_regs *regs, long ret)
{
	__u64 pt = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)pt, nr;
	struct rec_bpf_spec *s;
	struct rec_bpf_ev *r;
	struct inflight *f;
	__u64 size = REC_BPF_HDR;
	long n;

	f = bpf_map_lookup_elem(&inflight, &tid);
	if (!f)
		return 0;
	nr = (__u32)f->nr;
	s = bpf_map_lookup_elem(&specs, &nr);
	r = record();
	if (!s || !r)
		goto out;
	r->ts_ns = f->ts_ns;
	r->end_ns = bpf_ktime_get_ns();
	r->ret = ret;
	for (int i = 0; i < 6; i++)
		r->arg[i] = f->arg[i];
	r->pid = tid;
	r->tgid = pt >> 32;
	r->nr = nr;
	r->other = 0;
	r->type = REC_BPF_SYSCALL;
	r->flags = 0;
	r->slen[0] = r->slen[1] = 0;
	r->blen = 0;
	if (s->blob >= 0 && ret >= 0) {
		n = bpf_probe_read_user(r->blob, sizeof(r->blob),
					(void *)f->arg[s->blob & 7]);
		r->blen = n ? (__s16)n : (__s16)sizeof(r->blob);
		size = REC_BPF_STR0;
	}
	if (s->str[0] >= 0) {
		n = bpf_probe_read_user_str(r->str[0], REC_BPF_PATH,
					    (void *)f->arg[s->str[0] & 7]);
		r->slen[0] = (__s16)n;
		if (n > 0)
			size = REC_BPF_STR0 + (n & (REC_BPF_PATH - 1));
		else
			size = REC_BPF_STR0;
		if (n == REC_BPF_PATH)
			size = REC_BPF_STR0 + REC_BPF_PATH;
	}
	if (s->str[1] >= 0) {
		n = bpf_probe_read_user_str(r->str[1], REC_BPF_PATH,
					    (void *)f->arg[s->str[1] & 7]);
		r->slen[1] = (__s16)n;
		size = sizeof(*r);
	}
	send(r, size);
out:
	bpf_map_delete_elem(&inflight, &tid);
	return 0;
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(on_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = BPF_CORE_READ(parent, tgid);
	__u32 ctgid = BPF_CORE_READ(child, tgid);
	struct rec_bpf_ev *r;
	__u8 one = 1;

	if (!traced(ptgid))
		return 0;
	if (ctgid != ptgid)
		bpf_map_update_elem(&procs, &ctgid, &one, BPF_ANY);
	r = record();
	if (!r)
		return 0;
	r->ts_ns = r->end_ns = bpf_ktime_get_ns();
	r->type = REC_BPF_FORK;
	r->pid = BPF_CORE_READ(parent, pid);
	r->tgid = ptgid;
	r->nr = BPF_CORE_READ(child, pid);
	r->other = ctgid;
	r->flags = 0;
	if (BPF_CORE_READ(child, files) == BPF_CORE_READ(parent, files))
		r->flags |= REC_BPF_F_FILES;
	if (BPF_CORE_READ(child, fs) == BPF_CORE_READ(parent, fs))
		r->flags |= REC_BPF_F_FS;
	send(r, REC_BPF_HDR);
	return 0;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(on_exec, struct task_struct *p, int old_pid,
	     struct linux_binprm *bprm)
{
	__u32 tgid = BPF_CORE_READ(p, tgid), old = old_pid;
	struct rec_bpf_ev *r;
	__u8 one = 1;

	if (bpf_map_lookup_elem(&armed, &old)) {
		bpf_map_delete_elem(&armed, &old);
		bpf_map_update_elem(&procs, &tgid, &one, BPF_ANY);
	}
	if (!traced(tgid))
		return 0;
	r = record();
	if (!r)
		return 0;
	r->ts_ns = r->end_ns = bpf_ktime_get_ns();
	r->type = REC_BPF_EXEC;
	r->pid = BPF_CORE_READ(p, pid);
	r->tgid = tgid;
	r->nr = old;
	r->flags = 0;
	send(r, REC_BPF_HDR);
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(on_exit, struct task_struct *p)
{
	__u32 tgid = BPF_CORE_READ(p, tgid), pid = BPF_CORE_READ(p, pid);
	struct rec_bpf_ev *r;

	if (!traced(tgid))
		return 0;
	bpf_map_delete_elem(&inflight, &pid);
	r = record();
	if (!r)
		return 0;
	r->ts_ns = r->end_ns = bpf_ktime_get_ns();
	r->type = REC_BPF_EXIT;
	r->pid = pid;
	r->tgid = tgid;
	r->flags = 0;
	if (BPF_CORE_READ(p, signal, live.counter) == 0) {
		r->flags = REC_BPF_F_DEAD;
		bpf_map_delete_elem(&procs, &tgid);
	}
	send(r, REC_BPF_HDR);
	return 0;
}
