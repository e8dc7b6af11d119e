/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * shm.h - the one shared mapping between the parent and the clients: a
 * header of run-wide flags and one slot per client.  No pointers inside,
 * so a forked child and the parent read it the same way.
 *
 * Writers: each slot is written only by its client (the parent only
 * takes the tick's maxima, tick_max_ns and the like, with an atomic
 * exchange: ticks.c, take_max); the header only by the parent,
 * except that a client sets stop when it fails or is told to stop: always
 * by shm_set_stop(), so the first reason stays.
 */
#ifndef DBNG_SHM_H
#define DBNG_SHM_H

#include <stdbool.h>
#include <stdint.h>

#include "slotstats.h"

enum stop_reason {
	STOP_NONE,
	STOP_TIME,   /* time limit reached */
	STOP_FAILED, /* a client failed */
	STOP_SIGNAL, /* SIGINT/SIGTERM, or the parent went away */
};

enum slot_state {
	SLOT_INIT,
	SLOT_READY, /* set up, waiting at the start barrier */
	SLOT_RUNNING,
	SLOT_CLEANUP,
	SLOT_DONE, /* cleaned up (or nothing to clean) */
	SLOT_FAILED,
};

#define SLOT_MSG  512
#define PASS_RING 4096 /* passes a client may finish between two ticks */

struct pass_rec {
	uint32_t ms;	/* duration of the pass */
	uint32_t at_ms; /* end of the pass, from the release of clients */
};

/*
 * One op of the stall threshold or longer, written by the client after the
 * call (record at slow_head % SLOW_RING, then slow_head + 1 with release),
 * before it clears op_start_ns: the watchdog, which saw the op in flight,
 * finds its exact duration here however many ops the client did since.
 * Each record takes a threshold's time (1 ms at least), so the ring holds
 * the last SLOW_RING x threshold of slow ops: 64 ms at the smallest.
 */
#define SLOW_RING 64

struct slow_rec {
	volatile uint64_t start_ns; /* the op's t0 */
	volatile uint64_t dur_ns;   /* t1 - t0 */
	volatile uint32_t pc;	    /* its op index in the program */
	uint32_t pad;
};

struct shm_hdr {
	volatile uint32_t stop; /* enum stop_reason, checked between ops */
	volatile uint32_t go;	/* set just before the barrier opens */
	volatile uint32_t gen;	/* statistics generation: 0, 1 once the
				 * parent ended the warmup (the clients
				 * move to 1 at warmup_end_ns by themselves) */
	volatile uint32_t stop_signal; /* a signal a client got (STOP_SIGNAL) */
	volatile uint64_t start_ns;
	/* deadline.h: set before the release, read-only afterwards; each
	 * client ends its warmup and its run by them, the parent its ticks */
	volatile uint64_t warmup_end_ns; /* DEADLINE_NEVER: no warmup */
	volatile uint64_t end_ns;	 /* end of the measured phase */
	/* where each generation's histograms begin (shm_gen) */
	uint64_t gen_off[SS_GENS];
	int fd; /* the parent's memfd of it (shm_alloc); -1: none */
} __attribute__((aligned(64)));

struct client_slot {
	/* written by the client on every op */
	volatile uint64_t lines;	 /* loadfile lines done, all passes */
	volatile uint64_t bytes;	 /* bytes read+written this gen */
	volatile uint64_t last_start_ns; /* start of the current line */
	volatile uint64_t tick_max_ns;	 /* dbench "latency" since last tick */
	volatile uint32_t gen;		 /* generation of st and bytes */
	volatile uint32_t state;	 /* enum slot_state */
	volatile uint32_t cur_op;	 /* index of the op in flight */
	volatile uint32_t cleaned;	 /* its files are gone (or kept) */
	volatile uint64_t exec_end_ns;	 /* it left the loop: its last op had
					  * ended (0: still in it) */

	/* for the watchdog: the op in flight (the ring of slow ops is
	 * below) */
	volatile uint32_t pid;
	volatile uint64_t op_start_ns; /* 0: no op in flight */
	volatile uint64_t slow_head;   /* records written, all time */

	/* completed passes for --show-execute-time: a ring (below) */
	volatile uint64_t pass_head; /* written by the client */
	uint64_t pass_tail;	     /* read position, parent only */
	volatile uint64_t pass_dropped;

	/* per op: the longest call since the parent last took it (exchange),
	 * and the start and op index of the longest call of this gen */
	volatile uint64_t tick_op_max[OP_NR];
	uint64_t max_start_ns[OP_NR];
	uint32_t max_pc[OP_NR];
	/* a paced client: the longest response time since the parent last
	 * took it (exchange), per op */
	volatile uint64_t tick_resp_max[OP_NR];

	/* the counters of this gen and the dirty bits (slotstats.h): what
	 * every tick reads, beside the fields above */
	struct slot_stats st;

	/* the first warning and the fatal error, as text */
	volatile uint64_t nwarn;
	char warn_msg[SLOT_MSG];
	char err_msg[SLOT_MSG];

	/* the ops that took the stall threshold or longer */
	struct slow_rec slow[SLOW_RING];

	struct pass_rec pass[PASS_RING];
} __attribute__((aligned(4096))); /* a slot's pages are its own */

struct shm {
	struct shm_hdr hdr;
	struct client_slot slot[];
};

/* shm_hdr_set_stop - stop the run for @why, unless it is already stopping
 * (the first reason stays: a compare-and-swap, also from a signal
 * handler).  Returns the reason in force: @why, or the earlier one. */
static inline enum stop_reason shm_hdr_set_stop(struct shm_hdr *h,
						enum stop_reason why)
{
	uint32_t seen = STOP_NONE;

	if (__atomic_compare_exchange_n(&h->stop, &seen, why, false,
					__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		return why;
	return (enum stop_reason)seen;
}

/* shm_set_stop - shm_hdr_set_stop() of the run's header. */
static inline enum stop_reason shm_set_stop(struct shm *s,
					    enum stop_reason why)
{
	return shm_hdr_set_stop(&s->hdr, why);
}

/* shm_gen - the histograms of generation @g of slot @i (slotstats.h) */
static inline struct ss_gen *shm_gen(struct shm *s, int i, unsigned int g)
{
	return (struct ss_gen *)(void *)((char *)s + s->hdr.gen_off[g % SS_GENS] +
					 (size_t)i * SS_GEN_STRIDE);
}

/* shm_pool - the bins of generation @g of slot @i: its part of the pool */
static inline char *shm_pool(struct shm *s, int i, unsigned int g)
{
	return (char *)shm_gen(s, i, g) + sizeof(struct ss_gen);
}

/* shm_record - value @v into histogram @hi (SS_HIST) of slot @i, in the
 * slot's generation, as its client records it */
static inline void shm_record(struct shm *s, int i, unsigned int hi,
			      uint64_t v)
{
	struct client_slot *sl = &s->slot[i];

	ss_record(&sl->st, shm_gen(s, i, sl->gen), shm_pool(s, i, sl->gen),
		  sl->gen % SS_GENS, hi, v);
}

/* shm_head - the head of histogram @hi of slot @i's generation @g */
static inline const struct hist_head *shm_head(struct shm *s, int i,
					       unsigned int g, unsigned int hi)
{
	return ss_head(shm_gen(s, i, g), hi);
}

/* shm_alloc - one zeroed shared mapping of a memfd for @nclients slots
 * and their histogram pool (only the pages written become memory), or of
 * shared anonymous memory where a memfd that large may not be made
 * (RLIMIT_FSIZE); NULL with errno set on failure. */
struct shm *shm_alloc(int nclients);

/* shm_free - unmap and close what shm_alloc returned. */
void shm_free(struct shm *s, int nclients);

/*
 * shm_fork_parts - a process the caller forks from now on inherits none
 * of @s: it maps its own parts (shm_attach) from the returned memfd, or,
 * -1, inherits all of it as before (nothing changed).
 */
int shm_fork_parts(struct shm *s, int nclients);

/*
 * shm_attach - in a process forked after shm_fork_parts(): map the header
 * of @s, the slots [@first, @first + @n) and their histograms of every
 * generation from @fd, each where the parent has it (the pointers stay
 * the same).  0, or -1 with errno set.
 */
int shm_attach(struct shm *s, int nclients, int fd, int first, int n);

#endif
