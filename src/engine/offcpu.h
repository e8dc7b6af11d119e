/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * offcpu.h - why a stalled op waited: the off-CPU intervals of the client
 * processes that BPF traced (offcpu_bpf.c sends them as records,
 * offcpu_rec.h), matched with the ops the watchdog saw run past the stall
 * threshold.  Pure bookkeeping with the time as an argument, so the unit
 * tests run it on a fake clock with records they make up.
 *
 * An op runs from the client's t0 to its t1, both read on a CPU, so its
 * off-CPU intervals are exactly the process's intervals that left the CPU
 * at t0 or later and came back by t1.  The records of each process wait
 * in a buffer until the watchdog knows what they belong to: those of the
 * op in flight stay, the rest are dropped at each poll (offcpu_settle),
 * so the buffer holds at most one op's worth.  An op seen past the
 * threshold opens an accumulation (offcpu_open) that takes its records
 * as they come; when it ends (offcpu_close) its sleeps, wakers and times
 * go into the stall event, and into the per-op table of where the
 * stalled ops spent their time (offcpu_fill).
 */
#ifndef DBNG_OFFCPU_H
#define DBNG_OFFCPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "offcpu_rec.h"

struct offcpu;
struct result_stall;
struct result_stalls;

/* Where the records come from (offcpu_bpf.c); the unit tests have none
 * and call offcpu_record() themselves. */
struct offcpu_source {
	/* hand every record that arrived to offcpu_record() */
	void (*drain)(void *ctx, struct offcpu *oc);
	/* the interval task @pid is in now (off_ns 0: on a CPU), for an op
	 * still stuck at the end, and in on_ns the time of its last
	 * switch-in that found no interval open (counts.unpaired; 0: none),
	 * for an op that ended; 0, or -1 if unknown */
	int (*peek)(void *ctx, uint32_t pid, struct offcpu_rec *r);
	/* the BPF side's counters so far (none: a drain waits for nothing) */
	void (*counts)(void *ctx, struct offcpu_counts *c);
	void *ctx;
};

struct offcpu_cfg {
	int nprocs;
	int cpp;	       /* clients per process */
	int first;	       /* the id of the first client (a run across
				  hosts numbers every host's clients) */
	const int *pids;       /* the pid of each client process */
	uint64_t stack_min_ns; /* the BPF side takes stacks of sleeps this
				  long or longer */
	const char *kallsyms;  /* "/proc/kallsyms": read at the end, if a
				  stack is to be named; NULL: raw addresses */
	struct offcpu_source src;
};

/* offcpu_new - NULL on ENOMEM; offcpu_free (the source is the caller's) */
struct offcpu *offcpu_new(const struct offcpu_cfg *cfg);
void offcpu_free(struct offcpu *oc);

/* offcpu_record - one record of @len bytes (the short or the long form)
 * from the source; 0, or -1 if it is not one of ours (counted as lost). */
int offcpu_record(struct offcpu *oc, const void *data, size_t len);

/* offcpu_drain - take what arrived from the source, and the records it
 * had begun (counts.begun) but could not hand over yet, waiting for them
 * at most about 10 ms (offcpu.c) */
void offcpu_drain(struct offcpu *oc);

/*
 * The watchdog, at its poll at @now (after its read of the slots and a
 * drain): offcpu_open - the op of @client that started at @start runs
 * past the threshold; offcpu_close - it ended at @end (the client's t1),
 * or is still stuck at @now (!@ended): fill ev->offcpu, and if it counts
 * in the measured phase (ev->warmup false, ev->op set) add it to the
 * per-op table; offcpu_drop - it was no stall after all; offcpu_settle -
 * take the records of open ops and drop those no op can claim any more:
 * @inflight[c] is the start of client c's op in flight at the poll (0:
 * none).
 */
void offcpu_open(struct offcpu *oc, int client, uint64_t start, uint64_t now);
void offcpu_close(struct offcpu *oc, int client, uint64_t end, bool ended,
		  uint64_t now, struct result_stall *ev);
void offcpu_drop(struct offcpu *oc, int client);
void offcpu_settle(struct offcpu *oc, uint64_t now, const uint64_t *inflight);

/* offcpu_fill - name the stacks of @st's events (offcpu_close leaves them
 * as ids: kallsyms is read once, at the end, and only if a stack is
 * kept), and put the per-op table, the counters and the method into @st */
void offcpu_fill(struct offcpu *oc, struct result_stalls *st);

/* offcpu_buffered - records waiting in the buffers (for the tests) */
size_t offcpu_buffered(const struct offcpu *oc);

#endif
