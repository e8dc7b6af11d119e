/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * offcpu_bpf.c - the BPF side of the stall watchdog: load the program
 * (CO-RE: libbpf relocates it to the running kernel's BTF), put the
 * client processes in its target map before they are released, attach
 * it to sched_switch and sched_waking, and hand its ring buffer's records
 * to offcpu.c whenever the watchdog polls (no wakeups: the records are
 * sent without one and read every 5 ms).
 *
 * What can go wrong is said in one line and the run goes on with /proc
 * sampling: no privilege (root, or CAP_BPF and CAP_PERFMON), no kernel
 * BTF, a kernel older than 5.18 (sched_switch has no prev_state), a
 * build without libbpf.  libbpf's own messages are kept quiet; the last
 * one goes into the reason when it says more than the error code.
 */
#include "offcpu_bpf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "ksyms.h"
#include "offcpu.h"

uint64_t offcpu_stack_min_ns(uint64_t threshold_ns)
{
	/* a tenth of the threshold, 1 ms at most: the sleeps that make a
	 * stall have stacks, the many short ones cost no stack walk */
	uint64_t t = threshold_ns / 10;

	return t < 1000000 ? t : 1000000;
}

#ifndef HAVE_BPF

struct offcpu_trace {
	int none;
};

struct offcpu_trace *offcpu_trace_start(const int *pids, int nprocs, int cpp,
					uint64_t threshold_ns, bool off,
					char *why, size_t len)
{
	(void)pids;
	(void)nprocs;
	(void)cpp;
	(void)threshold_ns;
	snprintf(why, len, "%s",
		 off ? "--no-bpf"
		     : "this build has no libbpf (apt-get install libbpf-dev "
		       "bpftool clang, then make)");
	return NULL;
}

struct offcpu *offcpu_trace_book(struct offcpu_trace *t)
{
	(void)t;
	return NULL;
}

const char *offcpu_trace_note(const struct offcpu_trace *t)
{
	(void)t;
	return NULL;
}

void offcpu_trace_stop(struct offcpu_trace *t)
{
	(void)t;
}

#else /* HAVE_BPF */

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "offcpu_rec.h"
#include "offcpu.skel.h"

struct offcpu_trace {
	struct offcpu_bpf *skel;
	struct ring_buffer *rb;
	struct ksyms *ks;
	struct offcpu *oc;
	char note[160];
};

/* libbpf's last warning, for a reason that says more than an errno */
static char last_msg[200];

static int __attribute__((format(printf, 2, 0)))
quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char buf[sizeof(last_msg)];
	size_t n;

	if (level != LIBBPF_WARN)
		return 0;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	if (n && strncmp(buf, "-- ", 3)) /* not the verifier log's frame */
		memcpy(last_msg, buf, n + 1);
	return 0;
}

/* The kernel @rel ("6.1.0-13-amd64") is at least @maj.@min */
static bool kernel_at_least(const char *rel, int maj, int min)
{
	int a = 0, b = 0;

	if (sscanf(rel, "%d.%d", &a, &b) != 2)
		return true; /* unknown: let the load decide */
	return a > maj || (a == maj && b >= min);
}

static void reason(int err, const char *what, char *why, size_t len)
{
	err = err < 0 ? -err : err;
	if (err == EPERM || err == EACCES)
		snprintf(why, len,
			 "no privilege to %s BPF programs (needs "
			 "root, or CAP_BPF and CAP_PERFMON)",
			 what);
	else if (err == ESRCH)
		snprintf(why, len,
			 "the kernel has no usable BTF "
			 "(/sys/kernel/btf/vmlinux)");
	else if (last_msg[0])
		snprintf(why, len, "cannot %s the BPF program: %s (%s)", what,
			 strerror(err), last_msg);
	else
		snprintf(why, len, "cannot %s the BPF program: %s", what,
			 strerror(err));
}

static int on_record(void *ctx, void *data, size_t len)
{
	offcpu_record(ctx, data, len);
	return 0;
}

static void src_drain(void *ctx, struct offcpu *oc)
{
	struct offcpu_trace *t = ctx;

	(void)oc;
	ring_buffer__consume(t->rb);
}

static int src_peek(void *ctx, uint32_t pid, struct offcpu_rec *r)
{
	struct offcpu_trace *t = ctx;
	struct offcpu_task ts;

	if (bpf_map__lookup_elem(t->skel->maps.tasks, &pid, sizeof(pid), &ts,
				 sizeof(ts), 0))
		return -1;
	memset(r, 0, sizeof(*r));
	r->off_ns = ts.off_ns;
	r->wake_ns = ts.wake_ns;
	r->pid = pid;
	r->state = ts.state;
	r->waker_pid = ts.waker_pid;
	r->waker_tgid = ts.waker_tgid;
	r->waker_ctx = ts.waker_ctx;
	memcpy(r->waker_comm, ts.waker_comm, sizeof(r->waker_comm));
	return 0;
}

static void src_counts(void *ctx, struct offcpu_counts *c)
{
	const struct offcpu_trace *t = ctx;
	const volatile struct offcpu_counts *b = &t->skel->bss->counts;

	c->records = b->records;
	c->lost = b->lost;
	c->task_full = b->task_full;
	c->stack_errors = b->stack_errors;
}

/* Open, size and load the skeleton, with the waking program that reads
 * the preempt count per CPU (@percpu) or the other.  0 or -errno. */
static int load(struct offcpu_trace *t, int nprocs, uint64_t stack_min,
		bool percpu)
{
	int err;

	t->skel = offcpu_bpf__open();
	if (!t->skel)
		return -errno;
	bpf_map__set_max_entries(t->skel->maps.targets, (__u32)nprocs);
	bpf_map__set_max_entries(t->skel->maps.tasks, (__u32)nprocs * 2 + 64);
	t->skel->rodata->stack_min_ns = stack_min;
	bpf_program__set_autoload(t->skel->progs.on_waking_pc, percpu);
	bpf_program__set_autoload(t->skel->progs.on_waking, !percpu);
	err = offcpu_bpf__load(t->skel);
	if (err) {
		offcpu_bpf__destroy(t->skel);
		t->skel = NULL;
	}
	return err;
}

struct offcpu_trace *offcpu_trace_start(const int *pids, int nprocs, int cpp,
					uint64_t threshold_ns, bool off,
					char *why, size_t len)
{
	uint64_t stack_min = offcpu_stack_min_ns(threshold_ns);
	struct offcpu_trace *t;
	struct offcpu_cfg oc;
	struct utsname u;
	bool percpu;
	int err;

	if (off) {
		snprintf(why, len, "--no-bpf");
		return NULL;
	}
	if (!uname(&u) && !kernel_at_least(u.release, 5, 18)) {
		snprintf(why, len,
			 "kernel %s is older than 5.18 (its "
			 "sched_switch has no prev_state)",
			 u.release);
		return NULL;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		snprintf(why, len,
			 "the kernel has no BTF "
			 "(/sys/kernel/btf/vmlinux: %s)",
			 strerror(errno));
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		snprintf(why, len, "out of memory");
		return NULL;
	}
	last_msg[0] = 0;
	libbpf_set_print(quiet);
	/* names only, without CAP_SYSLOG: a listed per-CPU preempt count
	 * (CONFIG_KALLSYMS_ALL) is one a program may read */
	t->ks = ksyms_load("/proc/kallsyms");
	percpu = ksyms_listed(t->ks, "__preempt_count") ||
		 ksyms_listed(t->ks, "pcpu_hot");
	err = load(t, nprocs, stack_min, percpu);
	if (err && percpu) {
		percpu = false;
		err = load(t, nprocs, stack_min, false);
	}
	if (err) {
		reason(err, "load", why, len);
		goto fail;
	}
	for (int p = 0; p < nprocs; p++) {
		__u32 pid = (__u32)pids[p], idx = (__u32)p;

		err = bpf_map__update_elem(t->skel->maps.targets, &pid,
					   sizeof(pid), &idx, sizeof(idx),
					   BPF_ANY);
		if (err) {
			reason(err, "fill the map of", why, len);
			goto fail;
		}
	}
	err = offcpu_bpf__attach(t->skel);
	if (err) {
		reason(err, "attach", why, len);
		goto fail;
	}
	oc = (struct offcpu_cfg){
		.nprocs = nprocs,
		.cpp = cpp,
		.pids = pids,
		.stack_min_ns = stack_min,
		.ks = t->ks,
		.irq_from_pc = percpu,
		.src = {src_drain, src_peek, src_counts, t},
	};
	t->oc = offcpu_new(&oc);
	if (!t->oc) {
		snprintf(why, len, "out of memory");
		goto fail;
	}
	t->rb = ring_buffer__new(bpf_map__fd(t->skel->maps.events), on_record,
				 t->oc, NULL);
	if (!t->rb) {
		reason(errno, "read the ring buffer of", why, len);
		goto fail;
	}
	if (!ksyms_usable(t->ks))
		snprintf(t->note, sizeof(t->note),
			 "BPF stacks are raw addresses: /proc/kallsyms shows "
			 "no addresses (needs CAP_SYSLOG)");
	return t;
fail:
	offcpu_trace_stop(t);
	return NULL;
}

struct offcpu *offcpu_trace_book(struct offcpu_trace *t)
{
	return t ? t->oc : NULL;
}

const char *offcpu_trace_note(const struct offcpu_trace *t)
{
	return t && t->note[0] ? t->note : NULL;
}

void offcpu_trace_stop(struct offcpu_trace *t)
{
	if (!t)
		return;
	ring_buffer__free(t->rb);
	offcpu_bpf__destroy(t->skel);
	offcpu_free(t->oc);
	ksyms_free(t->ks);
	free(t);
}

#endif /* HAVE_BPF */
