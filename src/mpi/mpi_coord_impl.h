/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * mpi_coord_impl.h - what the files of the MPI coordinator share
 * (private to src/mpi/): the wait for a collective (mpi_coord.c) and the
 * end of a run (mpi_finish.c).
 */
#ifndef DBNG_MPI_COORD_IMPL_H
#define DBNG_MPI_COORD_IMPL_H

#include <stdbool.h>

#include "mpi_coord.h"

struct result;
struct stats;

static inline struct mpi_coord *mc_of(struct coord *co)
{
	return (struct mpi_coord *)co; /* co is the first member */
}

/* mpi_coord.c */
int mc_wait_all(struct mpi_coord *mc, int n, MPI_Request *req, bool spin);

/* mpi_finish.c: the coordinator's finish (struct coord_ops) */
int mc_finish(struct coord *co, struct result *run, struct result *local,
	      const struct stats *st, int rc);

#endif
