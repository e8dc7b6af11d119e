/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * mpi_coord.c - the coordinator of a run across hosts over MPI (see
 * mpi_coord.h and engine/coord.h).  The engine's structures travel as
 * opaque bytes and combine with the engine's own functions
 * (coord_ctl_add, coord_fig_add, stats_add) as MPI reductions, each
 * waited for while the runner's signalfd is watched; the end of a run,
 * where every host's result travels to rank 0 as its JSON text, is
 * mpi_finish.c.
 */
#include "mpi_coord_impl.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "stats.h"

#define WAIT_LIMIT_S 120 /* no answer from every rank for this long */

/* ----------------------- the reductions' operations -------------------- */

static void op_ctl(void *in, void *inout, int *len, MPI_Datatype *dt)
{
	const struct coord_ctl *a = in;
	struct coord_ctl *b = inout;

	(void)dt;
	for (int i = 0; i < *len; i++)
		coord_ctl_add(&b[i], &a[i]);
}

static void op_fig(void *in, void *inout, int *len, MPI_Datatype *dt)
{
	const struct coord_fig *a = in;
	struct coord_fig *b = inout;

	(void)dt;
	for (int i = 0; i < *len; i++)
		coord_fig_add(&b[i], &a[i]);
}

static void op_stats(void *in, void *inout, int *len, MPI_Datatype *dt)
{
	const struct stats *a = in;
	struct stats *b = inout;

	(void)dt;
	for (int i = 0; i < *len; i++)
		stats_add(&b[i], &a[i]);
}

/* ------------------------------ waiting -------------------------------- */

/*
 * Wait for @n requests.  Meanwhile the runner's signalfd (co.fd, when
 * set) is watched: a signal that stops this host makes the coordinator
 * lost (-1).  @spin: do not sleep between the tests (a clock estimate).
 * After WAIT_LIMIT_S without an answer this rank stops as if it had been
 * sent SIGTERM (outside a run: -1 at once).
 */
int mc_wait_all(struct mpi_coord *mc, int n, MPI_Request *req, bool spin)
{
	struct coord *co = &mc->co;
	uint64_t t0 = clock_ns();
	bool told = false;
	int done = 0;

	for (;;) {
		if (MPI_Testall(n, req, &done, MPI_STATUSES_IGNORE) !=
		    MPI_SUCCESS) {
			fprintf(stderr, "dbench-ng: MPI failed while "
					"waiting for the other ranks\n");
			co->lost = true;
			return -1;
		}
		if (done)
			return 0;
		if (co->fd >= 0) {
			struct pollfd p = {.fd = co->fd, .events = POLLIN};

			if (poll(&p, 1, spin ? 0 : 1) > 0 && co->events &&
			    co->events(co->arg)) {
				co->lost = true;
				return -1;
			}
		} else if (!spin) {
			poll(NULL, 0, 1);
		}
		if (!told && clock_ns() - t0 > WAIT_LIMIT_S * NSEC_PER_SEC) {
			fprintf(stderr,
				"dbench-ng: no answer from every rank "
				"for %d s: stopping\n",
				WAIT_LIMIT_S);
			told = true;
			if (co->fd < 0) {
				co->lost = true;
				return -1;
			}
			/* the runner takes it as an interrupt */
			kill(getpid(), SIGTERM);
		}
	}
}

/* ------------------------------ the calls ------------------------------- */

static int mc_agree(struct coord *co, struct coord_ctl *c)
{
	struct mpi_coord *mc = mc_of(co);
	MPI_Request rq;

	if (MPI_Iallreduce(MPI_IN_PLACE, c, 1, mc->t_ctl, mc->op_ctl, mc->comm,
			   &rq) != MPI_SUCCESS) {
		co->lost = true;
		return -1;
	}
	return mc_wait_all(mc, 1, &rq, false);
}

static int mc_barrier(struct coord *co)
{
	struct mpi_coord *mc = mc_of(co);
	MPI_Request rq;

	if (co->lost || MPI_Ibarrier(mc->comm, &rq) != MPI_SUCCESS) {
		co->lost = true;
		return -1;
	}
	return mc_wait_all(mc, 1, &rq, true);
}

static int mc_reduce(struct coord *co, struct coord_fig *f, struct stats *st)
{
	struct mpi_coord *mc = mc_of(co);
	MPI_Request rq[2];
	bool root = co->rank == 0;

	if (MPI_Ireduce(root ? MPI_IN_PLACE : f, root ? f : NULL, 1, mc->t_fig,
			mc->op_fig, 0, mc->comm, &rq[0]) != MPI_SUCCESS ||
	    MPI_Ireduce(root ? MPI_IN_PLACE : st, root ? st : NULL, 1,
			mc->t_stats, mc->op_stats, 0, mc->comm,
			&rq[1]) != MPI_SUCCESS) {
		co->lost = true;
		return -1;
	}
	return mc_wait_all(mc, 2, rq, false);
}

int mpi_status_key(int st)
{
	int prio = st == 3     ? 5
		   : st == 2   ? 4
		   : st == 1   ? 3
		   : st >= 128 ? 2
		   : st	       ? 1
			       : 0;

	return prio * 256 + (st & 255);
}

int mpi_coord_status(struct mpi_coord *mc, int st, int *who)
{
	struct {
		int key, rank;
	} in = {mpi_status_key(st), mc->co.rank}, out;
	MPI_Request rq;

	if (MPI_Iallreduce(&in, &out, 1, MPI_2INT, MPI_MAXLOC, mc->comm, &rq) !=
		    MPI_SUCCESS ||
	    mc_wait_all(mc, 1, &rq, false))
		return -1;
	*who = out.rank;
	return out.key & 255;
}

int mpi_coord_allgather(struct mpi_coord *mc, int v, int *all)
{
	MPI_Request rq;

	if (MPI_Iallgather(&v, 1, MPI_INT, all, 1, MPI_INT, mc->comm, &rq) !=
	    MPI_SUCCESS)
		return -1;
	return mc_wait_all(mc, 1, &rq, false);
}

int mpi_coord_barrier(struct mpi_coord *mc)
{
	MPI_Request rq;

	if (mc->co.lost)
		return -1;
	if (MPI_Ibarrier(mc->comm, &rq) != MPI_SUCCESS) {
		mc->co.lost = true;
		return -1;
	}
	return mc_wait_all(mc, 1, &rq, false);
}

static const struct coord_ops mpi_ops = {
	.agree = mc_agree,
	.barrier = mc_barrier,
	.reduce = mc_reduce,
	.finish = mc_finish,
};

static const char *host_name(const struct coord *co, int rank)
{
	const struct mpi_coord *mc = (const struct mpi_coord *)co;

	return rank >= 0 && rank < co->nranks ? mc->names[rank] : "?";
}

/* ------------------------------ set-up --------------------------------- */

static int bytes_type(size_t n, MPI_Datatype *t)
{
	return MPI_Type_contiguous((int)n, MPI_BYTE, t) != MPI_SUCCESS ||
	       MPI_Type_commit(t) != MPI_SUCCESS;
}

int mpi_coord_init(struct mpi_coord *mc, MPI_Comm comm)
{
	struct coord *co = &mc->co;
	char me[MPI_HOST_MAX] = "";

	memset(mc, 0, sizeof(*mc));
	mc->comm = comm;
	co->ops = &mpi_ops;
	co->host = host_name;
	co->fd = -1;
	if (MPI_Comm_rank(comm, &co->rank) != MPI_SUCCESS ||
	    MPI_Comm_size(comm, &co->nranks) != MPI_SUCCESS)
		goto fail;
	if (gethostname(me, sizeof(me) - 1))
		snprintf(me, sizeof(me), "?");
	mc->names = calloc((size_t)co->nranks, sizeof(*mc->names));
	if (!mc->names ||
	    MPI_Allgather(me, MPI_HOST_MAX, MPI_CHAR, mc->names, MPI_HOST_MAX,
			  MPI_CHAR, comm) != MPI_SUCCESS ||
	    bytes_type(sizeof(struct coord_ctl), &mc->t_ctl) ||
	    bytes_type(sizeof(struct coord_fig), &mc->t_fig) ||
	    bytes_type(sizeof(struct stats), &mc->t_stats) ||
	    MPI_Op_create(op_ctl, 1, &mc->op_ctl) != MPI_SUCCESS ||
	    MPI_Op_create(op_fig, 1, &mc->op_fig) != MPI_SUCCESS ||
	    MPI_Op_create(op_stats, 1, &mc->op_stats) != MPI_SUCCESS)
		goto fail;
	for (int k = 0; k < co->nranks; k++)
		mc->names[k][MPI_HOST_MAX - 1] = 0;
	return 0;
fail:
	fprintf(stderr, "dbench-ng: cannot set up MPI's types and "
			"operations\n");
	return -1;
}

int mpi_coord_clients(struct mpi_coord *mc, int nclients, int nprocs)
{
	struct coord *co = &mc->co;
	int in[4] = {nclients, -nclients, nprocs, -nprocs}, out[4];
	MPI_Request rq;

	if (MPI_Iallreduce(in, out, 4, MPI_INT, MPI_MAX, mc->comm, &rq) !=
		    MPI_SUCCESS ||
	    mc_wait_all(mc, 1, &rq, false))
		return -1;
	if (out[0] != -out[1] || out[2] != -out[3]) {
		if (!co->rank)
			fprintf(stderr,
				"dbench-ng: the ranks were given "
				"different NPROCS or --clients-per-process "
				"(%d to %d clients): every rank must run the "
				"same command line\n",
				-out[1], out[0]);
		return -1;
	}
	co->first_id = co->rank * nclients;
	co->nclients = co->nranks * nclients;
	co->nprocs = co->nranks * nprocs;
	return 0;
}

void mpi_coord_free(struct mpi_coord *mc)
{
	if (!mc->co.lost && mc->op_stats != MPI_OP_NULL && mc->names) {
		MPI_Op_free(&mc->op_ctl);
		MPI_Op_free(&mc->op_fig);
		MPI_Op_free(&mc->op_stats);
		MPI_Type_free(&mc->t_ctl);
		MPI_Type_free(&mc->t_fig);
		MPI_Type_free(&mc->t_stats);
	}
	free(mc->names);
	mc->names = NULL;
}
