/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * foreign.c - the clients' wait for CPUs other programs held (foreign.h):
 * the BPF counters or /proc/PID/schedstat, sampled at the ticks, into
 * the result's "foreign" object.
 */
#include "foreign.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "foreign_bpf.h"
#include "result.h"
#include "result_foreign.h"

#define MAX_ROWS 256 /* the BPF map's holders */

struct foreign {
	int nprocs;
	int method;	/* enum foreign_method */
	char note[400]; /* why not BPF */
	const char *proc;
	struct foreign_trace *bpf;
	int *pids;	/* schedstat: the client processes */
	uint64_t *last; /* their last run-queue wait read */
	bool have_base, ended;
	uint64_t base_runq, end_runq;
	/* the holders at the start of the measured phase */
	struct foreign_bpf_holder *rows0;
	int nrows0;
};

struct foreign *foreign_new(int nprocs, int parent, bool no_bpf,
			    const char *proc)
{
	struct foreign *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->nprocs = nprocs;
	f->proc = proc;
	f->pids = calloc((size_t)nprocs, sizeof(*f->pids));
	f->last = calloc((size_t)nprocs, sizeof(*f->last));
	f->rows0 = calloc(MAX_ROWS, sizeof(*f->rows0));
	if (!f->pids || !f->last || !f->rows0) {
		foreign_free(f);
		return NULL;
	}
	f->method = FOREIGN_SCHEDSTAT;
	if (no_bpf)
		snprintf(f->note, sizeof(f->note), "--no-bpf");
	else
		f->bpf = foreign_bpf_open(nprocs, parent, f->note,
					  sizeof(f->note));
	if (f->bpf)
		f->method = FOREIGN_BPF;
	return f;
}

const volatile uint64_t *foreign_counter(const struct foreign *f, int p)
{
	const volatile struct foreign_slot *s =
		f ? foreign_bpf_slots(f->bpf) : NULL;

	/* __u64 and uint64_t: the same 64 bits */
	return s && p >= 0 && p < f->nprocs
		       ? (const volatile uint64_t *)&s[p].foreign_ns
		       : NULL;
}

void foreign_attach(struct foreign *f, const int *pids, int n)
{
	if (!f)
		return;
	memcpy(f->pids, pids,
	       sizeof(*pids) * (size_t)(n < f->nprocs ? n : f->nprocs));
	if (f->bpf &&
	    foreign_bpf_attach(f->bpf, pids, n, f->note, sizeof(f->note))) {
		/* the clients keep reading counters that stay at 0: their
		 * own latencies are their latencies, and are dropped */
		f->method = FOREIGN_SCHEDSTAT;
	}
}

int foreign_schedstat(const char *proc, int pid, uint64_t *ns)
{
	char path[64], buf[128];
	unsigned long long run, wait;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%d/schedstat", proc, pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	if (sscanf(buf, "%llu %llu", &run, &wait) != 2)
		return -1;
	*ns = wait;
	return 0;
}

/* The clients' run-queue wait so far, all of them: BPF's slots, or each
 * process's schedstat (a process that is gone keeps its last figure) */
static uint64_t runq_now(struct foreign *f)
{
	const volatile struct foreign_slot *s = foreign_bpf_slots(f->bpf);
	uint64_t sum = 0, v;

	for (int p = 0; p < f->nprocs; p++) {
		if (f->method == FOREIGN_BPF && s) {
			sum += s[p].runq_ns;
			continue;
		}
		if (f->pids[p] > 0 &&
		    !foreign_schedstat(f->proc, f->pids[p], &v))
			f->last[p] = v;
		sum += f->last[p];
	}
	return sum;
}

void foreign_tick(struct foreign *f, bool measuring)
{
	uint64_t v;

	if (!f || f->ended || (!measuring && !f->have_base))
		return;
	v = runq_now(f);
	if (!f->have_base) {
		f->have_base = true;
		f->base_runq = f->end_runq = v;
		if (f->method == FOREIGN_BPF)
			f->nrows0 =
				foreign_bpf_holders(f->bpf, f->rows0, MAX_ROWS);
		return;
	}
	f->end_runq = v;
	f->ended = !measuring;
}

double foreign_own_mbps(uint64_t bytes, double measured_s, uint64_t wait_ns,
			uint64_t runq_ns, double other_cpus, int nclients)
{
	double t = measured_s, lost = (double)wait_ns / 1e9;
	double bound = fmin((double)runq_ns / 1e9, other_cpus * t);

	if (!(t > 0) || nclients <= 0)
		return 0;
	/* Beside a burner two clients often share one CPU while it holds
	 * the other: they wait for each other, not for it, yet the wait is
	 * its doing.  So the run lost the larger of its direct foreign
	 * wait and its run-queue wait up to the CPU time other programs
	 * had (the most they can have taken from it); the latter corrects
	 * kernel threads' and the clients' own contention only up to what
	 * the other programs held */
	if (bound > lost)
		lost = bound;
	t -= lost / nclients;
	return t > 0 ? (double)bytes / 1e6 / t : 0;
}

/* The holders of the measured phase: the rows now less those at its
 * start, into @rf */
static void fill_holders(struct foreign *f, struct result_foreign *rf)
{
	struct foreign_bpf_holder *rows = calloc(MAX_ROWS, sizeof(*rows));
	int n;

	if (!rows)
		return;
	n = foreign_bpf_holders(f->bpf, rows, MAX_ROWS);
	for (int i = 0; i < n; i++) {
		uint64_t ns = rows[i].ns;

		for (int k = 0; k < f->nrows0; k++) {
			if (!strcmp(f->rows0[k].comm, rows[i].comm))
				ns = ns > f->rows0[k].ns ? ns - f->rows0[k].ns
							 : 0;
		}
		if (ns)
			result_foreign_add_holder(rf, rows[i].comm, ns);
	}
	free(rows);
}

int foreign_fill(struct foreign *f, struct result *res)
{
	struct result_foreign *rf = &res->foreign;
	uint64_t bytes = 0;

	if (!f)
		return 0;
	free(rf->note);
	*rf = (struct result_foreign){.method = f->method};
	if (f->method != FOREIGN_BPF) {
		for (int o = 0; o < OP_NR; o++) {
			hist_init(&res->op[o].own);
			res->op[o].foreign_ns = 0;
		}
		if (f->note[0] && !(rf->note = strdup(f->note)))
			return -1;
	}
	if (f->have_base)
		rf->runq_ns = f->end_runq - f->base_runq;
	if (f->method != FOREIGN_BPF)
		return 0;
	for (int o = 0; o < OP_NR; o++) {
		rf->wait_ns += res->op[o].foreign_ns;
		bytes += res->op[o].bytes;
	}
	rf->own_mbps = foreign_own_mbps(
		bytes, res->measured_s, rf->wait_ns, rf->runq_ns,
		res->disturb.valid ? res->disturb.other_cpus : 0,
		res->nclients);
	fill_holders(f, rf);
	return 0;
}

int foreign_method_of(const struct foreign *f, const char **note)
{
	*note = f && f->method != FOREIGN_BPF ? f->note : NULL;
	return f ? f->method : FOREIGN_NONE;
}

void foreign_free(struct foreign *f)
{
	if (!f)
		return;
	foreign_bpf_close(f->bpf);
	free(f->pids);
	free(f->last);
	free(f->rows0);
	free(f);
}
