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
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

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
					int first, uint64_t threshold_ns,
					bool off, char *why, size_t len)
{
	(void)pids;
	(void)nprocs;
	(void)cpp;
	(void)first;
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

void offcpu_trace_stop(struct offcpu_trace *t)
{
	(void)t;
}

#else /* HAVE_BPF */

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "offcpu_rec.h"
#include "offcpu.skel.h"

#define MAX_LINKS 8

struct offcpu_trace {
	struct bpf_object *obj;
	struct bpf_link *links[MAX_LINKS];
	int nlinks;
	struct bpf_map *tasks, *events, *bss;
	struct ring_buffer *rb;
	struct offcpu *oc;
};

/* libbpf's first warning, for a reason that says more than an errno */
static char first_msg[200];
static bool verbose; /* DBNG_BPF_VERBOSE: all of libbpf's messages */

static int __attribute__((format(printf, 2, 0)))
quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char buf[sizeof(first_msg)];
	va_list aq;
	size_t n;

	if (verbose) {
		va_copy(aq, ap);
		vfprintf(stderr, fmt, aq);
		va_end(aq);
	}
	if (level != LIBBPF_WARN || first_msg[0])
		return 0;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	n = strcspn(buf, "\n"); /* a verifier log: its first line */
	buf[n] = 0;
	memcpy(first_msg, buf, n + 1);
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

void offcpu_bpf_quiet(void)
{
	verbose = getenv("DBNG_BPF_VERBOSE") != NULL;
	libbpf_set_print(quiet);
}

bool offcpu_bpf_usable(char *why, size_t len)
{
	struct utsname u;

	if (!uname(&u) && !kernel_at_least(u.release, 5, 18)) {
		snprintf(why, len,
			 "kernel %s is older than 5.18 (its "
			 "sched_switch has no prev_state)",
			 u.release);
		return false;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		snprintf(why, len,
			 "the kernel has no BTF "
			 "(/sys/kernel/btf/vmlinux: %s)",
			 strerror(errno));
		return false;
	}
	return true;
}

/* Whether this process lives in a user namespace below the initial one,
 * whose capabilities count for nothing to bpf(): the initial one maps
 * every uid, "0 0 4294967295", and no other does */
static bool in_child_userns(void)
{
	unsigned long in, out, count = 0;
	FILE *f = fopen("/proc/self/uid_map", "re");

	if (!f)
		return false;
	if (fscanf(f, "%lu %lu %lu", &in, &out, &count) != 3)
		count = 0;
	fclose(f);
	return count && count != 4294967295UL;
}

void offcpu_bpf_reason(int err, const char *what, char *why, size_t len)
{
	err = err < 0 ? -err : err;
	if ((err == EPERM || err == EACCES) && in_child_userns())
		snprintf(why, len,
			 "no privilege to %s BPF programs (needs root, or "
			 "CAP_BPF and CAP_PERFMON, which a run with --paths "
			 "full gives up without root in its user namespace: "
			 "--paths dirfd keeps them)",
			 what);
	else if (err == EPERM || err == EACCES)
		snprintf(why, len,
			 "no privilege to %s BPF programs (needs "
			 "root, or CAP_BPF and CAP_PERFMON)",
			 what);
	else if (err == ESRCH)
		snprintf(why, len,
			 "the kernel has no usable BTF "
			 "(/sys/kernel/btf/vmlinux)");
	else if (first_msg[0])
		snprintf(why, len, "cannot %s the BPF program: %s (%s)", what,
			 strerror(err), first_msg);
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

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434 /* the same on every architecture */
#endif

/* A pidfd of process @pid (task storage is keyed by them), or -1 */
static int pidfd(uint32_t pid)
{
	return (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
}

static int src_peek(void *ctx, uint32_t pid, struct offcpu_rec *r)
{
	struct offcpu_trace *t = ctx;
	struct offcpu_task ts;
	int fd = pidfd(pid), err;

	if (fd < 0)
		return -1; /* gone */
	err = bpf_map__lookup_elem(t->tasks, &fd, sizeof(fd), &ts, sizeof(ts),
				   0);
	close(fd);
	if (err)
		return -1;
	memset(r, 0, sizeof(*r));
	r->off_ns = ts.off_ns;
	r->wake_ns = ts.wake_ns;
	r->on_ns = ts.gap_ns; /* the peek's own use of it: offcpu.h */
	r->pid = pid;
	r->state = ts.state;
	r->waker_pid = ts.waker_pid;
	r->waker_tgid = ts.waker_tgid;
	r->waker_ctx = ts.waker_ctx;
	memcpy(r->waker_comm, ts.waker_comm, sizeof(r->waker_comm));
	return 0;
}

/* The program's counters: its .bss, one array element (read with a
 * system call: libbpf 1.1 maps it for skeletons only; it is read when a
 * stall opens or closes, and at the end) */
static void src_counts(void *ctx, struct offcpu_counts *c)
{
	const struct offcpu_trace *t = ctx;
	__u32 zero = 0;

	if (bpf_map__lookup_elem(t->bss, &zero, sizeof(zero), c, sizeof(*c), 0))
		memset(c, 0, sizeof(*c));
}

/* Open, size and load the program.  0 or -errno, with nothing left
 * open. */
static int load(struct offcpu_trace *t, uint64_t stack_min)
{
	struct bpf_object_open_opts opts = {
		.sz = sizeof(opts),
		.object_name = "offcpu",
	};
	struct offcpu_bpf_cfg cfg = {.stack_min_ns = stack_min,
				     .parent_tgid = (__u32)getpid()};
	struct bpf_map *ro, *bss;
	const void *elf;
	size_t sz, n;
	int err = -ENOENT;

	elf = offcpu_bpf__elf_bytes(&sz);
	t->obj = bpf_object__open_mem(elf, sz, &opts);
	if (!t->obj)
		return -errno;
	/* .rodata and .bss by their own names */
	t->tasks = bpf_object__find_map_by_name(t->obj, "tasks");
	t->events = bpf_object__find_map_by_name(t->obj, "events");
	ro = bpf_object__find_map_by_name(t->obj, ".rodata");
	bss = bpf_object__find_map_by_name(t->obj, ".bss");
	if (!t->tasks || !t->events || !ro || !bss ||
	    bpf_map__value_size(bss) != sizeof(struct offcpu_counts))
		goto fail;
	if (!bpf_map__initial_value(ro, &n) || n != sizeof(cfg) ||
	    bpf_map__set_initial_value(ro, &cfg, sizeof(cfg)))
		goto fail;
	err = bpf_object__load(t->obj);
	if (err)
		goto fail;
	t->bss = bss;
	return 0;
fail:
	bpf_object__close(t->obj);
	t->obj = NULL;
	return err;
}

/* The order of attachment of program @name: the interrupt trackers'
 * exits before their entries (an entry counted before its exit is
 * watched would count forever; an exit whose entry was not seen is not
 * counted), then the rest */
static int rank(const char *name)
{
	size_t n = strlen(name);

	if (n > 5 && !strcmp(name + n - 5, "_exit"))
		return 0;
	if (n > 6 && !strcmp(name + n - 6, "_entry"))
		return 1;
	return 2;
}

/* Attach every program of the object.  0 or -errno. */
static int attach(struct offcpu_trace *t)
{
	struct bpf_program *p;

	for (int r = 0; r < 3; r++) {
		bpf_object__for_each_program(p, t->obj)
		{
			struct bpf_link *l;

			if (rank(bpf_program__name(p)) != r)
				continue;
			if (t->nlinks == MAX_LINKS)
				return -E2BIG;
			l = bpf_program__attach(p);
			if (!l)
				return -errno;
			t->links[t->nlinks++] = l;
		}
	}
	return 0;
}

struct offcpu_trace *offcpu_trace_start(const int *pids, int nprocs, int cpp,
					int first, uint64_t threshold_ns,
					bool off, char *why, size_t len)
{
	uint64_t stack_min = offcpu_stack_min_ns(threshold_ns);
	struct offcpu_trace *t;
	struct offcpu_cfg oc;
	int err = -ENOENT;

	if (off) {
		snprintf(why, len, "--no-bpf");
		return NULL;
	}
	if (!offcpu_bpf_usable(why, len))
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t) {
		snprintf(why, len, "out of memory");
		return NULL;
	}
	offcpu_bpf_quiet();
	err = load(t, stack_min);
	if (err) {
		offcpu_bpf_reason(err, "load", why, len);
		goto fail;
	}
	/* an entry for each client process's main thread, before the
	 * release: none of their sleeps is missed */
	for (int p = 0; p < nprocs; p++) {
		struct offcpu_task zero = {0};
		int fd = pidfd((uint32_t)pids[p]);

		err = fd < 0 ? -errno
			     : bpf_map__update_elem(t->tasks, &fd, sizeof(fd),
						    &zero, sizeof(zero),
						    BPF_NOEXIST);
		if (fd >= 0)
			close(fd);
		if (err) {
			offcpu_bpf_reason(err, "fill the map of", why, len);
			goto fail;
		}
	}
	err = attach(t);
	if (err) {
		offcpu_bpf_reason(err, "attach", why, len);
		goto fail;
	}
	oc = (struct offcpu_cfg){
		.nprocs = nprocs,
		.cpp = cpp,
		.first = first,
		.pids = pids,
		.stack_min_ns = stack_min,
		.kallsyms = "/proc/kallsyms",
		.src = {src_drain, src_peek, src_counts, t},
	};
	t->oc = offcpu_new(&oc);
	if (!t->oc) {
		snprintf(why, len, "out of memory");
		goto fail;
	}
	t->rb = ring_buffer__new(bpf_map__fd(t->events), on_record, t->oc,
				 NULL);
	if (!t->rb) {
		offcpu_bpf_reason(errno, "read the ring buffer of", why, len);
		goto fail;
	}
	return t;
fail:
	offcpu_trace_stop(t);
	return NULL;
}

struct offcpu *offcpu_trace_book(struct offcpu_trace *t)
{
	return t ? t->oc : NULL;
}

void offcpu_trace_stop(struct offcpu_trace *t)
{
	if (!t)
		return;
	ring_buffer__free(t->rb);
	for (int i = 0; i < t->nlinks; i++)
		bpf_link__destroy(t->links[i]);
	bpf_object__close(t->obj);
	offcpu_free(t->oc);
	free(t);
}

#endif /* HAVE_BPF */
