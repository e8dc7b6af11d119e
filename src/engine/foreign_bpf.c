/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * foreign_bpf.c - the loader of bpf/foreign.bpf.c: size its maps (the
 * run's processes, the CPUs, one slot per client process), load it
 * (CO-RE), map the slots before the clients are forked, put the parent
 * and then the clients among the run's processes and attach it to
 * sched_switch and sched_wakeup before the release.  What can go wrong
 * is said in one line (offcpu_bpf.c's reasons), and the run measures
 * with /proc/PID/schedstat instead (foreign.c).
 */
#include "foreign_bpf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "offcpu_bpf.h"

#ifndef HAVE_BPF

struct foreign_trace {
	int none;
};

struct foreign_trace *foreign_bpf_open(int nslots, int parent, char *why,
				       size_t len)
{
	(void)nslots;
	(void)parent;
	snprintf(why, len,
		 "this build has no libbpf (apt-get install "
		 "libbpf-dev bpftool clang, then make)");
	return NULL;
}

const volatile struct foreign_slot *
foreign_bpf_slots(const struct foreign_trace *b)
{
	(void)b;
	return NULL;
}

int foreign_bpf_attach(struct foreign_trace *b, const int *pids, int n,
		       char *why, size_t len)
{
	(void)b;
	(void)pids;
	(void)n;
	snprintf(why, len, "no BPF");
	return -1;
}

int foreign_bpf_holders(struct foreign_trace *b, struct foreign_bpf_holder *out,
			int max)
{
	(void)b;
	(void)out;
	(void)max;
	return 0;
}

void foreign_bpf_close(struct foreign_trace *b)
{
	(void)b;
}

#else /* HAVE_BPF */

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "foreign.skel.h"

struct foreign_trace {
	struct foreign_bpf *skel;
	struct bpf_link *sw, *wk;
	void *map;
	size_t maplen;
};

static int add_task(struct foreign_trace *b, int tgid, uint32_t slot)
{
	struct foreign_task t = {.slot = slot};
	uint32_t k = (uint32_t)tgid, bit = k % FOREIGN_RUN_BITS;
	int err = bpf_map__update_elem(b->skel->maps.run, &k, sizeof(k), &t,
				       sizeof(t), BPF_NOEXIST);

	/* the entry first: a set bit makes the program look it up */
	if (!err)
		__atomic_fetch_or(&b->skel->bss->run_bits[bit / 64],
				  1ull << (bit % 64), __ATOMIC_RELEASE);
	return err;
}

struct foreign_trace *foreign_bpf_open(int nslots, int parent, char *why,
				       size_t len)
{
	struct foreign_trace *b;
	long page = sysconf(_SC_PAGESIZE);
	int cpus = libbpf_num_possible_cpus(), err;

	if (!offcpu_bpf_usable(why, len))
		return NULL;
	b = calloc(1, sizeof(*b));
	if (!b || cpus <= 0 || nslots <= 0) {
		free(b);
		snprintf(why, len, "out of memory");
		return NULL;
	}
	offcpu_bpf_quiet();
	b->skel = foreign_bpf__open();
	if (!b->skel) {
		offcpu_bpf_reason(errno, "open", why, len);
		goto fail;
	}
	/* the parent and its clients, and room for none else */
	bpf_map__set_max_entries(b->skel->maps.run, (uint32_t)nslots + 1);
	bpf_map__set_max_entries(b->skel->maps.cpus, (uint32_t)cpus);
	bpf_map__set_max_entries(b->skel->maps.slots, (uint32_t)nslots);
	err = foreign_bpf__load(b->skel);
	if (err) {
		offcpu_bpf_reason(err, "load", why, len);
		goto fail;
	}
	b->maplen = ((size_t)nslots * sizeof(struct foreign_slot) +
		     (size_t)page - 1) &
		    ~((size_t)page - 1);
	b->map = mmap(NULL, b->maplen, PROT_READ, MAP_SHARED,
		      bpf_map__fd(b->skel->maps.slots), 0);
	if (b->map == MAP_FAILED) {
		b->map = NULL;
		offcpu_bpf_reason(errno, "map the slots of", why, len);
		goto fail;
	}
	err = add_task(b, parent, FOREIGN_NOT_CLIENT);
	if (err) {
		offcpu_bpf_reason(err, "fill the map of", why, len);
		goto fail;
	}
	return b;
fail:
	foreign_bpf_close(b);
	return NULL;
}

const volatile struct foreign_slot *
foreign_bpf_slots(const struct foreign_trace *b)
{
	return b ? b->map : NULL;
}

int foreign_bpf_attach(struct foreign_trace *b, const int *pids, int n,
		       char *why, size_t len)
{
	int err = 0;

	for (int i = 0; i < n && !err; i++)
		err = add_task(b, pids[i], (uint32_t)i);
	if (err) {
		offcpu_bpf_reason(err, "fill the map of", why, len);
		return -1;
	}
	b->sw = bpf_program__attach(b->skel->progs.on_switch);
	b->wk = b->sw ? bpf_program__attach(b->skel->progs.on_wakeup) : NULL;
	if (!b->wk) {
		offcpu_bpf_reason(errno, "attach", why, len);
		return -1;
	}
	return 0;
}

int foreign_bpf_holders(struct foreign_trace *b, struct foreign_bpf_holder *out,
			int max)
{
	char key[FOREIGN_COMM], next[FOREIGN_COMM];
	int fd = bpf_map__fd(b->skel->maps.holders), n = 0;
	void *prev = NULL;

	while (n < max && !bpf_map_get_next_key(fd, prev, next)) {
		memcpy(key, next, sizeof(key));
		prev = key;
		if (bpf_map_lookup_elem(fd, key, &out[n].ns))
			continue;
		memcpy(out[n].comm, key, sizeof(key));
		out[n].comm[FOREIGN_COMM - 1] = 0;
		n++;
	}
	return n;
}

void foreign_bpf_close(struct foreign_trace *b)
{
	if (!b)
		return;
	bpf_link__destroy(b->wk);
	bpf_link__destroy(b->sw);
	if (b->map)
		munmap(b->map, b->maplen);
	foreign_bpf__destroy(b->skel);
	free(b);
}

#endif /* HAVE_BPF */
