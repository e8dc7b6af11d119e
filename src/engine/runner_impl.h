/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * runner_impl.h - the runner's state, shared by its files (not an API):
 * runner.c (the phases of one run), runner_procs.c (the client processes:
 * fork, their life, reaping, signals, the ready barrier),
 * runner_result.c (the slots merged into the result, failures printed)
 * and runner_mpi.c (a run across hosts).
 */
#ifndef DBNG_RUNNER_IMPL_H
#define DBNG_RUNNER_IMPL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "backend.h"
#include "checkpoint.h"
#include "clock.h"
#include "config.h"
#include "coord.h"
#include "disturb.h"
#include "foreign.h"
#include "loadfile.h"
#include "offcpu_bpf.h"
#include "reapwalk.h"
#include "result.h"
#include "shm.h"
#include "ticks.h"
#include "watchdog.h"

struct runner {
	const struct config *cfg;
	struct program **progs;
	int nprogs;
	const struct backend *b;
	struct be_run *run;
	struct shm *shm;
	int shm_fd; /* its memfd, which the clients map parts of; -1: none */
	pid_t *pids;
	bool *reaped;
	int nalive;
	struct reapwalk rw; /* exits no SIGCHLD named (reapwalk.h) */
	int barrier[2];
	int sigfd;
	pid_t parent;
	int interrupted;	  /* first SIGINT/SIGTERM/SIGHUP */
	bool after_end;		  /* it came once the time limit had stopped
				   * the run: not its reason (shm.h) */
	bool failed;		  /* a child failed or died */
	bool killed;		  /* we sent SIGKILL after a second signal */
	char deaths[4][SLOT_MSG]; /* children that died without a message */
	int ndeaths;

	/* phases, progress lines, the series */
	struct ticks *ticks;
	struct result *res;
	/* what else the machine did (disturb.c): reaped children's CPU
	 * time before this run, the snapshot at the release */
	uint64_t kids0_ns;
	struct disturb_snap dsnap0;
	struct watchdog *wd;
	struct offcpu_trace *trace; /* BPF tracing for the watchdog */
	struct checkpoint *ck;	    /* the --json file's, or NULL */
	struct foreign *fg;	    /* foreign CPU wait (own latencies) */
	FILE *out;		    /* stdout, or stderr with --json - */

	/* a run across hosts (coord.h; NULL: one host): this host's clients
	 * are first .. first + nclients - 1; its own result goes to res,
	 * the run's (series, figures, and on rank 0 every host's merged)
	 * to run_res */
	struct coord *co;
	int first;
	struct result *run_res;
	uint64_t alive_all; /* every host's processes, as last agreed */
	uint64_t poll_next; /* the next agreement between ticks */
	bool told;	    /* rank 0 said another host stopped the run */
	uint64_t lost_ns;   /* when this host began to go on alone */
	uint64_t ready_t0;  /* when runner_wait_ready() began */
};

#define POLL_NS (100 * NSEC_PER_MSEC) /* agreements once stopping */
/* a host that goes on alone (lost) is ended by mpirun a second after its
 * SIGTERM: it waits this long for its clients, then reports; the clients
 * still cleaning up finish by themselves (they are told to stop) */
#define LOST_WAIT_NS (300 * NSEC_PER_MSEC)

/* The program of client @id (every host's numbering): -c A,B gives
 * process p the file p mod 2, as dbench does; the clients of one process
 * share it. */
static inline struct program *prog_of(const struct runner *r, int id)
{
	return r->progs[(id / r->cfg->cpp) % r->nprogs];
}

static inline struct client_slot *slot(const struct runner *r, int id)
{
	return &r->shm->slot[id];
}

/* The ticks are in the measured phase (foreign_tick) */
static inline bool measuring(const struct ticks *t)
{
	return t->phase == TICKS_EXECUTE && !t->cleanup;
}

/* runner_procs.c: the client processes */

/* Fork the client processes (each runs its clients, ready at the barrier);
 * the signals that stop a run arrive on r->sigfd.  0, or -1 (said). */
int runner_start_children(struct runner *r);

/* Wait until every process is at the barrier.  0, or -1. */
int runner_wait_ready(struct runner *r);

/* Wait for a signal (a child's death among them) until @until (ns). */
void runner_wait_events(struct runner *r, uint64_t until);

/* Handle the pending signals: reap children, note the first stopping
 * signal, kill the clients at a second. */
void runner_drain_signals(struct runner *r);

/* runner_result.c: the result */

/* watchdog_describe_fn: name the op a stuck client is running. */
void runner_describe_stall(void *ctx, int client, uint32_t pc,
			   struct result_stall *ev);

/* Keep @msg among @res's errors (up to RESULT_MAX_MSGS). */
void runner_add_error(struct result *res, const char *msg);

/* Whether a signal cut the run short (not only hurried its clean-up). */
bool runner_cut_short(const struct runner *r);

/* Merge the client slots into r->res: the measured phase only.  0, or -1
 * out of memory. */
int runner_fill_result(struct runner *r);

/* Print @res's fatal messages, once each. */
void runner_print_failures(const struct result *res);

/* This host's statistics of the measured phase (calloc'd; NULL: out of
 * memory). */
struct stats *runner_local_stats(struct runner *r);

/* runner_mpi.c: a run across hosts */

/* coord's events callback: true when a signal stops this host. */
bool runner_coord_events(void *arg);

/* The barrier of every host before the release (@ok: this host's clients
 * are ready); true when every host's are. */
bool runner_all_ready(struct runner *r, bool ok);

/* The ticks and agreements of a run across hosts, until no host has a
 * client process left. */
void runner_coord_loop(struct runner *r);

/* The end of a run across hosts; the run's exit status. */
int runner_coord_end(struct runner *r, int rc);

#endif
