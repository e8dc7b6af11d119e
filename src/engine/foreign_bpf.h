/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * foreign_bpf.h - load the BPF program that measures the clients' wait
 * for CPUs other programs held (bpf/foreign.bpf.c, a skeleton made by
 * bpftool at build time), map its slots for the clients, and read its
 * holders.  A build without libbpf has the same functions, which say so.
 */
#ifndef DBNG_FOREIGN_BPF_H
#define DBNG_FOREIGN_BPF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "foreign_acct.h"

struct foreign_trace;

/*
 * foreign_bpf_open - load the program for @nslots client processes, the
 * run's parent @parent among the run's processes, and map its slots
 * (read-only, shared: a client forked afterwards reads them with plain
 * loads).  Before the fork.  NULL, with the reason in @why (one line),
 * when it cannot; nothing is left loaded then.
 */
struct foreign_trace *foreign_bpf_open(int nslots, int parent, char *why,
				       size_t len);

/* foreign_bpf_slots - the mapped slots, one per client process */
const volatile struct foreign_slot *
foreign_bpf_slots(const struct foreign_trace *b);

/*
 * foreign_bpf_attach - the client processes @pids (slot i is pids[i])
 * into the run's processes, then attach.  After the fork and before the
 * release.  0, or -1 with the reason in @why.
 */
int foreign_bpf_attach(struct foreign_trace *b, const int *pids, int n,
		       char *why, size_t len);

/* One row of the holders: a comm and the clients' wait it caused */
struct foreign_bpf_holder {
	char comm[FOREIGN_COMM];
	uint64_t ns;
};

/* foreign_bpf_holders - up to @max rows of the holders into @out (the
 * totals since the attach); their number */
int foreign_bpf_holders(struct foreign_trace *b, struct foreign_bpf_holder *out,
			int max);

/* foreign_bpf_close - detach, unmap and free; NULL is fine */
void foreign_bpf_close(struct foreign_trace *b);

#endif
