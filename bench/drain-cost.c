/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * drain-cost.c - what the parent's tick costs for what the clients
 * changed, with nothing else on the CPU: N clients' slots in the shared
 * memory of a run (shm_alloc), a process beside the parent recording
 * PER values a client between two ticks into the op and own histograms
 * (the two an unpaced run writes; latencies spread over 24 octaves, so
 * that they touch many chunks; each value in the same bin at every
 * tick), and the parent's drain of them (ss_drain), timed, TICKS times
 * (the first, which faults the pages in, not counted); the parent and
 * the recorder each on a CPU of its own where there are two.  It prints
 * the median drain, and per chunk drained: with the chunks a run's
 * clients change a second (about 100 each at 1000 -B null clients,
 * counted in a 9 s run), the part of scale.sh's tick column that is the
 * drain itself.
 *
 * Usage: drain-cost N [PER [TICKS]]    (built and run by scale.sh)
 */
#define _GNU_SOURCE /* sched_setaffinity */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "shm.h"
#include "slotstats.h"

/* a hash of client @i's value @j: the same histogram and bin at every
 * tick, as a running client's ops fall in the same chunks second after
 * second (a chunk or a page first used in a tick would time its faults,
 * which a run has in its first seconds only) */
static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

/* the recorder: PER values into each slot, then a byte on @wr; again
 * for each byte on @rd (the parent drained), until it is closed */
static void __attribute__((noreturn))
recorder(struct shm *shm, int n, int per, int rd, int wr)
{
	char c = 0;

	do {
		for (int i = 0; i < n; i++)
			for (int j = 0; j < per; j++) {
				uint64_t r =
					mix((uint64_t)i << 32 | (uint64_t)j);
				unsigned int hi =
					SS_HIST(r & 1, (r >> 8) % OP_NR);
				uint64_t v =
					20 + ((r >> 16) &
					      ((1ULL << ((r >> 40) % 24)) - 1));

				shm_record(shm, i, hi, v);
			}
		if (write(wr, &c, 1) != 1)
			_exit(1);
	} while (read(rd, &c, 1) == 1);
	_exit(0);
}

/* on CPU @k of the ones this process may use, if there are two */
static void pin(int k)
{
	cpu_set_t set, one;
	int seen = 0;

	if (sched_getaffinity(0, sizeof(set), &set) || CPU_COUNT(&set) < 2)
		return;
	for (size_t c = 0; c < (size_t)CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, &set) || seen++ != k)
			continue;
		CPU_ZERO(&one);
		CPU_SET(c, &one);
		sched_setaffinity(0, sizeof(one), &one);
		return;
	}
}

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 0;
	int per = argc > 2 ? atoi(argv[2]) : 100;
	int ticks = argc > 3 ? atoi(argv[3]) : 11;
	int go[2], done[2], st;
	struct shm *shm;
	struct ss_sink *k;
	uint64_t *ns, last = 0;
	char c = 0;
	pid_t pid;

	if (n < 1 || per < 1 || ticks < 2) {
		fprintf(stderr, "usage: drain-cost N [PER [TICKS]]\n");
		return 2;
	}
	shm = shm_alloc(n);
	k = ss_sink_new(n);
	ns = calloc((size_t)ticks, sizeof(*ns));
	if (!shm || !k || !ns || pipe(go) || pipe(done)) {
		perror("drain-cost");
		return 1;
	}
	/* the measured phase, as a run's clients are in it */
	for (int i = 0; i < n; i++)
		shm->slot[i].gen = 1;
	pid = fork();
	if (pid < 0) {
		perror("drain-cost: fork");
		return 1;
	}
	/* the recorder's lines come from another CPU's cache, as a run's
	 * clients' do (on one CPU, or with the two side by side, they
	 * would be in the parent's own cache now and then) */
	pin(!pid);
	if (!pid) {
		close(go[1]);
		close(done[0]);
		recorder(shm, n, per, go[0], done[1]);
	}
	close(go[0]);
	close(done[1]);
	for (int t = 0; t < ticks; t++) {
		uint64_t t0, before = k->chunks;

		if (read(done[0], &c, 1) != 1) {
			fprintf(stderr, "drain-cost: the recorder failed\n");
			return 1;
		}
		t0 = clock_ns();
		ss_drain(k, shm, 1);
		ns[t] = clock_ns() - t0;
		/* the first drain also faults in the sink's shadow pages */
		if (!t)
			ns[t] = UINT64_MAX;
		last = k->chunks - before;
		if (t < ticks - 1 && write(go[1], &c, 1) != 1)
			return 1;
	}
	close(go[1]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	qsort(ns, (size_t)ticks, sizeof(*ns), cmp);
	/* the median of the ticks after the first */
	printf("drain-cost: %d clients, %.1f chunks a client a tick: drain "
	       "median %.3f ms (%.0f ns a chunk)\n",
	       n, (double)last / n, (double)ns[(ticks - 1) / 2] / 1e6,
	       (double)ns[(ticks - 1) / 2] / (double)(last ? last : 1));
	return 0;
}
