/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * coord.h - the seam between a run and the other hosts of a run across
 * hosts (dbench-ng-mpi, src/mpi/).  The engine never calls MPI: at the few
 * points where the hosts must agree, the runner and the ticks call a
 * coordinator, a table of functions given to runner_run().  NULL is one
 * host, as dbench-ng runs: nothing is called and nothing changes.
 *
 *   agree    a barrier at which every host learns what every host has
 *            (struct coord_ctl, combined by coord_ctl_add): before the
 *            release (is every host ready?), at each tick (a stop, the
 *            deadlines, the processes still alive) and every 100 ms
 *            once the run is stopping
 *   barrier  right after the first agreement, a barrier the hosts leave
 *            as soon as they can: each releases its clients when it
 *            returns and times every phase from there, so tick i of
 *            every host covers the same second
 *   reduce   each point of the series: rank 0 gets the sum of every
 *            host's figures and cumulative statistics (coord_fig_add,
 *            stats_add); the other ranks keep theirs
 *   finish   the end: every host's result goes to rank 0, which merges
 *            them into the run's (exactly: statistics by stats_add) and
 *            says how the run ended on every host
 *
 * While it waits for the other hosts a coordinator watches @fd (the
 * runner's signalfd) and calls @events when it is readable.  If that
 * returns true (a signal stops this host) it gives up waiting: the
 * coordinator is lost, every later call returns -1 at once, and the
 * runner ends this host's part alone (mpirun ends the others).
 */
#ifndef DBNG_COORD_H
#define DBNG_COORD_H

#include <stdbool.h>
#include <stdint.h>

#include "ops.h"

struct coord;
struct result;
struct stats;

#define COORD_NO_RANK UINT64_MAX

/* What every host tells every host at an agreement.  Each field is
 * combined as its comment says (coord_ctl_add). */
struct coord_ctl {
	uint64_t stop;	      /* the highest enum stop_reason, and ... */
	uint64_t stop_rank;   /* ... the lowest rank that has it */
	uint64_t stop_signal; /* max: a signal a client got (STOP_SIGNAL) */
	uint64_t warm_past;   /* max: the end of the warmup has passed */
	uint64_t end_past;    /* max: the end of the run has passed */
	uint64_t early;	      /* max: less than a second into the phase */
	uint64_t alive;	      /* sum: client processes not reaped */
	uint64_t not_done;    /* sum: clients not cleaned up */
	uint64_t lines;	      /* sum: loadfile lines done */
	uint64_t bytes;	      /* sum: bytes of this generation */
	uint64_t over_ns;     /* max: how long after the end of the run the
				 last client left its loop (0: before) */
	uint64_t over_lat;    /* max: the longest line that ran past it */
	uint64_t now_ns;      /* max: the time since the release */
};

/* One host's figures of a point of the series, and the run's. */
struct coord_fig {
	uint64_t lines;		/* sum */
	uint64_t bytes;		/* sum */
	uint64_t lat;		/* max: dbench's latency figure */
	uint64_t active;	/* sum: clients that did I/O */
	uint64_t op_max[OP_NR]; /* max: the longest call per op */
	uint64_t resp_max[OP_NR]; /* max: the longest response (paced) */
};

struct coord_ops {
	/* every host: @c becomes the combination of every host's */
	int (*agree)(struct coord *co, struct coord_ctl *c);
	/* every host, right before the release (after an agreement that
	 * every host is ready): a barrier each host leaves as soon as it
	 * can (it spins), so that the releases are close together */
	int (*barrier)(struct coord *co);
	/* rank 0: @f and @st become the sums of every host's (others keep
	 * theirs) */
	int (*reduce)(struct coord *co, struct coord_fig *f, struct stats *st);
	/*
	 * the end (@local: this host's result of its own clients, its
	 * series, stalls, messages; @st: its merged statistics of the
	 * measured phase): rank 0 merges every host's into @run, which
	 * already holds the run's series and figures.  Every host returns
	 * the run's exit status (the worst of every host's @rc).  Also
	 * called when lost: rank 0 then merges what it has.
	 */
	int (*finish)(struct coord *co, struct result *run,
		      struct result *local, const struct stats *st, int rc);
};

struct coord {
	const struct coord_ops *ops;
	int rank, nranks;
	int first_id; /* this host's first client id */
	int nclients; /* every host's clients */
	int nprocs;   /* every host's client processes */
	/* host name of rank @rank, for messages */
	const char *(*host)(const struct coord *co, int rank);
	/* set by the runner: watched while waiting for the other hosts */
	int fd;
	bool (*events)(void *arg);
	void *arg;
	uint64_t release_ns; /* set by the runner: its clients' release */
	bool lost;	     /* gave up: nothing more is heard or sent */
};

/* coord_ctl_init - the neutral element: nothing stopped, nothing past. */
void coord_ctl_init(struct coord_ctl *c);

/* coord_ctl_add - @dst = the combination of @dst and @src (commutative
 * and associative, as an MPI reduction needs). */
void coord_ctl_add(struct coord_ctl *dst, const struct coord_ctl *src);

/* coord_fig_add - @dst = the combination of @dst and @src. */
void coord_fig_add(struct coord_fig *dst, const struct coord_fig *src);

/* The calls, each a no-op returning -1 once the coordinator is lost. */
static inline int coord_agree(struct coord *co, struct coord_ctl *c)
{
	return co->lost ? -1 : co->ops->agree(co, c);
}

static inline int coord_reduce(struct coord *co, struct coord_fig *f,
			       struct stats *st)
{
	return co->lost ? -1 : co->ops->reduce(co, f, st);
}

/* coord_lose - give up on the other hosts (a signal stopped this one). */
static inline void coord_lose(struct coord *co)
{
	co->lost = true;
}

#endif
