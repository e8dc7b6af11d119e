/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * mpi_coord.h - the coordinator of a run across hosts (engine/coord.h)
 * over MPI: one MPI rank per host process, rank 0 the one that prints.
 * Every exchange is a non-blocking collective waited for while the
 * runner's signalfd is watched, so that a signal (mpirun ends every rank
 * with SIGTERM when one dies or is interrupted) is seen at once.
 */
#ifndef DBNG_MPI_COORD_H
#define DBNG_MPI_COORD_H

#include <mpi.h>

#include "coord.h"

#define MPI_HOST_MAX 64 /* bytes of a host name, with its NUL */

struct mpi_coord {
	struct coord co;
	MPI_Comm comm;
	MPI_Datatype t_ctl, t_fig, t_stats;
	MPI_Op op_ctl, op_fig, op_stats;
	char (*names)[MPI_HOST_MAX]; /* every rank's host name */
	const char *rank_json;	     /* --rank-json PATTERN, or NULL */
	int run;		     /* the run of --runs, for %n */
};

/*
 * mpi_coord_init - the coordinator of rank @rank of @nranks on @comm
 * (after MPI_Init): every rank's host name is gathered.  0, or -1 with a
 * message printed.
 */
int mpi_coord_init(struct mpi_coord *mc, MPI_Comm comm);

/* mpi_coord_clients - every rank runs @nclients clients in @nprocs
 * processes: this rank's first id, and the run's totals.  0, or -1 when
 * the ranks were given different numbers (a message from rank 0). */
int mpi_coord_clients(struct mpi_coord *mc, int nclients, int nprocs);

/* mpi_status_key - the order of exit statuses: the worst has the largest
 * key (3, 2, 1, then 128 + signal, then 0). */
int mpi_status_key(int st);

/*
 * mpi_coord_status - every rank's exit status @st so far: returns the
 * run's (the worst: 3, 2, 1, then 128 + signal, then 0) and sets
 * *@who to the lowest rank that has it.  -1 when MPI failed.
 */
int mpi_coord_status(struct mpi_coord *mc, int st, int *who);

/* mpi_coord_allgather - every rank's @v into @all[nranks].  -1 when MPI
 * failed. */
int mpi_coord_allgather(struct mpi_coord *mc, int v, int *all);

/* mpi_coord_barrier - every rank is here (the end of a run: every host's
 * clean-up is done).  -1 when lost. */
int mpi_coord_barrier(struct mpi_coord *mc);

/* mpi_coord_free - release the types and operations (not when lost: a
 * collective may still be pending). */
void mpi_coord_free(struct mpi_coord *mc);

#endif
