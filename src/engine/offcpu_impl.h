/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * offcpu_impl.h - what the files of the off-CPU bookkeeping share
 * (private to src/engine/): its table, the intervals as it keeps them,
 * the rows of the per-op tables, and its bounds.
 *
 * Memory is bounded: a process buffers at most OFFCPU_PROC_MAX records,
 * an open op keeps its STALL_MAX_WAITS longest sleeps and ACC_PAIRS
 * distinct (sleep, waker) pairs, the run at most RUN_PAIRS pairs and
 * OFFCPU_MAX_STACKS stacks; what does not fit is counted (overflow) and
 * shows as "other".
 */
#ifndef DBNG_OFFCPU_IMPL_H
#define DBNG_OFFCPU_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "offcpu.h"
#include "result.h"

#define OFFCPU_PROC_MAX	  65536 /* records buffered per process */
#define OFFCPU_MAX_STACKS 65536 /* distinct stacks */
#define ACC_PAIRS	  32	/* distinct pairs of one stalled op */
#define RUN_PAIRS	  1024	/* distinct pairs of the run */
/* a drain waits for records begun but not yet readable: re-reads at
 * once, then with a pause of OFFCPU_DRAIN_PAUSE_NS, OFFCPU_DRAIN_TRIES
 * re-reads in all (about 10 ms) */
#define OFFCPU_DRAIN_SPINS    8
#define OFFCPU_DRAIN_TRIES    208
#define OFFCPU_DRAIN_PAUSE_NS 50000

/* One off-CPU interval, as the bookkeeping keeps it. */
struct ivl {
	uint64_t off, wake, on; /* wake 0: not woken (preempted, or the
				   open interval of a stuck op) */
	uint32_t pid, waker_pid;
	int32_t waker_proc;	/* -1: not one of ours (or an interrupt) */
	int32_t bstack, wstack; /* stack ids, -1: none */
	uint8_t state;		/* 0 preempted (runnable), 'S', 'D' */
	uint8_t ctx;		/* enum waker_ctx */
	bool woken;
	char comm[OFFCPU_COMM];
	uint8_t hkind; /* enum holder_kind of who held the CPU
			  while it was runnable (hcomm; "": unknown),
			  for hns of that time */
	char hcomm[OFFCPU_COMM];
	uint64_t hns;
};

#define ACC_HOLDERS 4 /* holders of a stalled op's CPU kept */

/* A row of a per-op table, by ids. */
struct pair {
	int op;
	uint8_t kind; /* enum wait_kind */
	uint8_t ctx;
	bool ours;
	char comm[OFFCPU_COMM]; /* a task not ours */
	int32_t bstack, wstack;
	uint64_t count, ns;
};

/* The op of a client that runs past the threshold, so far. */
struct acc {
	uint64_t start;
	uint64_t blocked, runq;
	uint32_t sleeps, preempted;
	uint64_t lost0; /* the losses when it opened */
	int ntop;	/* its longest sleeps, longest first */
	struct ivl top[STALL_MAX_WAITS];
	int npairs;
	struct pair pairs[ACC_PAIRS];
	uint64_t other_n, other_ns;
	/* who held the CPU while it was runnable: the task it came back
	 * after, with that runnable time */
	int nhold;
	struct {
		char comm[OFFCPU_COMM];
		uint8_t kind;
		uint64_t ns;
	} hold[ACC_HOLDERS];
};

struct stk {
	uint32_t hash;
	uint16_t n;
	__u64 *pc;
	char *folded;
};

struct procbuf {
	struct ivl *v;
	size_t n, cap;
};

struct pidmap {
	int pid, proc;
};

struct offcpu {
	struct offcpu_cfg cfg;
	struct ksyms *ks;  /* read at the end (names), NULL before or if it
			      cannot be read */
	struct pidmap *pm; /* sorted by pid */
	int *pid;	   /* by process */
	struct procbuf *buf;
	struct acc **acc; /* per client, NULL: none open */
	uint64_t taken;	  /* records the source handed over */
	uint64_t bad, overflow;
	/* records begun that a drain waited for in vain (then no drain
	 * waits again: offcpu_drain) */
	uint64_t late;
	bool no_wait;
	/* the stacks: ids are indexes of stk, found by a hash table of
	 * slots (index + 1, 0 empty) */
	struct stk *stk;
	size_t nstk, capstk;
	uint32_t *slot;
	size_t nslot;
	/* the run's pairs, measured phase */
	struct pair *pairs;
	int npairs;
	uint64_t other_n, other_ns;
};

/* offcpu_stack.c: the stacks, interned and named */
int32_t oc_intern(struct offcpu *oc, const __u64 *pc, int32_t len);
bool oc_symbols(const struct offcpu *oc);
const char *oc_folded(struct offcpu *oc, int32_t id);
char *oc_mark(int32_t id);
void oc_name_mark(struct offcpu *oc, char **s);
char *oc_dup(const char *s);

/* offcpu.c */
uint64_t oc_losses(const struct offcpu *oc, struct offcpu_counts *c);
/* offcpu_record() of a record not taken from the source (still_off) */
int oc_buffer(struct offcpu *oc, const struct offcpu_rec *r, size_t len);

#endif
