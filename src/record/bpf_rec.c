/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bpf_rec.c - load the recorder's BPF program (bpf/record.bpf.c), fill
 * its table of system calls from rec_sys.c's, put the processes to trace
 * in it, attach it, and drain its ring buffer into events.  What can go
 * wrong is said in one line, as for the engine's off-CPU tracing: no
 * privilege (root, or CAP_BPF and CAP_PERFMON), no kernel BTF, a build
 * without libbpf, an architecture whose registers the program does not
 * know.  libbpf's own messages are kept quiet (DBNG_BPF_VERBOSE shows
 * them), and the failures worded, by the engine's offcpu_bpf.c.
 */
#include "bpf_rec.h"
#include "offcpu_bpf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef HAVE_REC_BPF

struct rec_bpf {
	int none;
};

struct rec_bpf *rec_bpf_start(const struct rec_bpf_cfg *cfg, char *why,
			      size_t len)
{
	(void)cfg;
#if defined(__x86_64__)
	snprintf(why, len,
		 "this build has no libbpf (apt-get install libbpf-dev "
		 "bpftool clang, then make)");
#else
	snprintf(why, len,
		 "the recorder's BPF program knows the system-call "
		 "registers of x86_64 only");
#endif
	return NULL;
}

int rec_bpf_poll(struct rec_bpf *b, int ms)
{
	(void)b;
	(void)ms;
	return -ENOSYS;
}

uint64_t rec_bpf_lost(struct rec_bpf *b)
{
	(void)b;
	return 0;
}

uint64_t rec_bpf_undecoded(const struct rec_bpf *b)
{
	(void)b;
	return 0;
}

void rec_bpf_stop(struct rec_bpf *b)
{
	(void)b;
}

#else /* HAVE_REC_BPF */

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "rec_bpf.h"
#include "record.skel.h"

#define MAX_LINKS 8

struct rec_bpf {
	struct bpf_object *obj;
	struct bpf_link *links[MAX_LINKS];
	int nlinks;
	struct bpf_map *bss;
	struct ring_buffer *rb;
	rec_bpf_fn fn;
	void *ctx;
	uint64_t undecoded;
};

static int on_record(void *ctx, void *data, size_t len)
{
	struct rec_bpf *b = ctx;
	struct rec_raw raw;
	struct rec_ev ev;
	int rc = rec_bpf_event(data, len, &raw, &ev);

	if (rc < 0)
		b->undecoded++;
	else if (rc > 0)
		b->fn(b->ctx, &ev);
	return 0;
}

/* the table of calls: the number of each call of rec_sys.c's table */
static int fill_specs(struct bpf_map *specs)
{
	for (unsigned int i = 0; i < rec_sys_count; i++) {
		const struct rec_sys *s = &rec_sys_table[i];
		const struct rec_form_info *fi = &rec_form_info[s->form];
		struct rec_bpf_spec v = {1, {fi->str[0], fi->str[1]},
					 fi->blob};
		__u32 nr = (__u32)s->nr;

		if (s->nr < 0 || s->nr >= REC_BPF_NSYS)
			continue;
		if (bpf_map__update_elem(specs, &nr, sizeof(nr), &v, sizeof(v),
					 BPF_ANY))
			return -errno;
	}
	return 0;
}

static int add_pid(struct bpf_map *m, int pid)
{
	__u32 k = (__u32)pid;
	__u8 one = 1;

	return bpf_map__update_elem(m, &k, sizeof(k), &one, sizeof(one),
				    BPF_ANY)
		       ? -errno
		       : 0;
}

static int load(struct rec_bpf *b, const struct rec_bpf_cfg *cfg)
{
	struct bpf_object_open_opts opts = {
		.sz = sizeof(opts),
		.object_name = "record",
	};
	struct bpf_map *events;
	const void *elf;
	size_t sz;
	int err;

	elf = record_bpf__elf_bytes(&sz);
	b->obj = bpf_object__open_mem(elf, sz, &opts);
	if (!b->obj)
		return -errno;
	events = bpf_object__find_map_by_name(b->obj, "events");
	b->bss = bpf_object__find_map_by_name(b->obj, ".bss");
	if (!events || !b->bss ||
	    bpf_map__value_size(b->bss) != sizeof(struct rec_bpf_counts))
		return -ENOENT;
	if (cfg->ring_mib &&
	    bpf_map__set_max_entries(events, cfg->ring_mib << 20))
		return -errno;
	err = bpf_object__load(b->obj);
	return err;
}

static int attach(struct rec_bpf *b)
{
	struct bpf_program *p;

	bpf_object__for_each_program(p, b->obj)
	{
		struct bpf_link *l;

		if (b->nlinks == MAX_LINKS)
			return -E2BIG;
		l = bpf_program__attach(p);
		if (!l)
			return -errno;
		b->links[b->nlinks++] = l;
	}
	return 0;
}

struct rec_bpf *rec_bpf_start(const struct rec_bpf_cfg *cfg, char *why,
			      size_t len)
{
	struct rec_bpf *b;
	struct bpf_map *m;
	int err;

	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		snprintf(why, len,
			 "the kernel has no BTF (/sys/kernel/btf/vmlinux: %s)",
			 strerror(errno));
		return NULL;
	}
	b = calloc(1, sizeof(*b));
	if (!b) {
		snprintf(why, len, "out of memory");
		return NULL;
	}
	b->fn = cfg->fn;
	b->ctx = cfg->ctx;
	offcpu_bpf_quiet();
	err = load(b, cfg);
	if (err) {
		offcpu_bpf_reason(err, "load", why, len);
		goto fail;
	}
	err = fill_specs(bpf_object__find_map_by_name(b->obj, "specs"));
	m = bpf_object__find_map_by_name(b->obj, "procs");
	for (int i = 0; !err && i < cfg->npids; i++)
		err = add_pid(m, cfg->pids[i]);
	if (!err && cfg->armed)
		err = add_pid(bpf_object__find_map_by_name(b->obj, "armed"),
			      cfg->armed);
	if (err) {
		offcpu_bpf_reason(err, "fill the maps of", why, len);
		goto fail;
	}
	b->rb = ring_buffer__new(
		bpf_map__fd(bpf_object__find_map_by_name(b->obj, "events")),
		on_record, b, NULL);
	if (!b->rb) {
		offcpu_bpf_reason(errno, "read the ring buffer of", why, len);
		goto fail;
	}
	err = attach(b);
	if (err) {
		offcpu_bpf_reason(err, "attach", why, len);
		goto fail;
	}
	return b;
fail:
	rec_bpf_stop(b);
	return NULL;
}

int rec_bpf_poll(struct rec_bpf *b, int ms)
{
	int n = ring_buffer__poll(b->rb, ms);

	return n == -EINTR ? 0 : n;
}

uint64_t rec_bpf_lost(struct rec_bpf *b)
{
	struct rec_bpf_counts c;
	__u32 zero = 0;

	if (bpf_map__lookup_elem(b->bss, &zero, sizeof(zero), &c, sizeof(c),
				 0))
		return 0;
	return c.lost + c.inflight;
}

uint64_t rec_bpf_undecoded(const struct rec_bpf *b)
{
	return b->undecoded;
}

void rec_bpf_stop(struct rec_bpf *b)
{
	if (!b)
		return;
	for (int i = 0; i < b->nlinks; i++)
		bpf_link__destroy(b->links[i]);
	ring_buffer__free(b->rb);
	bpf_object__close(b->obj);
	free(b);
}

#endif /* HAVE_REC_BPF */
