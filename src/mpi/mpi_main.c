/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * mpi_main.c - dbench-ng-mpi: one run across hosts through MPI.
 *
 *   mpirun [-np R] [--hostfile H] dbench-ng-mpi [OPTIONS] NPROCS
 *
 * Every rank runs NPROCS clients (ids rank * clients ..), on its host,
 * with the options of dbench-ng; the ranks release their clients
 * together, tick together and end together, and rank 0 prints the
 * progress lines, the report and the JSON result of the whole run
 * (docs/mpi.md).  Its own option: --rank-json PATTERN, each rank's own
 * result (%r the rank, %h the host, %n the run of --runs).
 */
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

#include "cmd_run.h"
#include "loadfile.h"
#include "mpi_coord.h"
#include "mpi_tag.h"
#include "report_text.h"
#include "result.h"
#include "start.h"
#include "stopsig.h"

/* Take "--rank-json PATTERN" (or "--rank-json=PATTERN") out of @argv,
 * which is then what dbench-ng reads.  The new argc, or -1 (no PATTERN). */
static int take_rank_json(int argc, char **argv, const char **pattern)
{
	int n = 1;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			while (i < argc)
				argv[n++] = argv[i++];
			break;
		}
		if (!strncmp(argv[i], "--rank-json=", 12)) {
			*pattern = argv[i] + 12;
		} else if (!strcmp(argv[i], "--rank-json")) {
			if (i + 1 == argc)
				return -1;
			*pattern = argv[++i];
		} else {
			argv[n++] = argv[i];
		}
	}
	argv[n] = NULL;
	return *pattern && !**pattern ? -1 : n;
}

/*
 * Open MPI binds each rank to a core (2 ranks or fewer) or a socket by
 * default, and the clients would inherit it: NPROCS clients of a host on
 * one core.  A rank it bound (it says so in the environment) widens its
 * main thread, whose children the clients are, to every CPU: the kernel
 * keeps those its cpuset allows, so a cgroup still limits them.
 */
static void unbind(void)
{
	cpu_set_t all;

	if (!getenv("OMPI_MCA_orte_bound_at_launch"))
		return;
	CPU_ZERO(&all);
	for (int c = 0; c < CPU_SETSIZE; c++)
		CPU_SET(c, &all);
	sched_setaffinity(0, sizeof(all), &all);
}

/*
 * Every rank's status @st of a step: the run's (the worst), named by
 * rank 0 if another rank has it.  The lines a rank other than 0 held
 * back are printed if its status differs from rank 0's.  -1: MPI failed.
 */
static int step(struct mpi_coord *mc, int st, const char *what)
{
	int n = mc->co.nranks, *all = calloc((size_t)n, sizeof(int));
	int worst = 0, who = 0, k;

	if (!all || mpi_coord_allgather(mc, st, all)) {
		free(all);
		return -1;
	}
	if (mc->co.rank)
		mpi_tag_release(all[mc->co.rank] != all[0]);
	for (k = 0; k < n; k++) {
		if (mpi_status_key(all[k]) > mpi_status_key(worst)) {
			worst = all[k];
			who = k;
		}
	}
	if (!mc->co.rank && worst && all[0] != worst)
		fprintf(stderr,
			"dbench-ng: host %s rank %d failed %s (exit "
			"status %d): stopping every rank\n",
			mc->names[who], who, what, worst);
	free(all);
	return worst;
}

/*
 * Do the ranks replay the same loadfiles?  A hash of each rank's (their
 * SHA-256s, in order) is gathered: without -c a host that lacks dbench's
 * client.txt would run the built-in workload beside hosts that replay
 * client.txt.  0; 2 once rank 0 named a rank that differs; -1: MPI failed.
 */
static int same_workload(struct mpi_coord *mc, const struct run_ctx *rc)
{
	int n = mc->co.nranks, *all = calloc((size_t)n, sizeof(int)), k;
	unsigned int h = 2166136261u; /* FNV-1a */

	for (int i = 0; i < rc->nprogs; i++) {
		for (const char *s = rc->progs[i]->sha256; *s; s++)
			h = (h ^ (unsigned char)*s) * 16777619u;
	}
	if (!all || mpi_coord_allgather(mc, (int)(h & INT_MAX), all)) {
		free(all);
		return -1;
	}
	for (k = 1; k < n && all[k] == all[0]; k++)
		;
	if (k < n && !mc->co.rank)
		fprintf(stderr,
			"dbench-ng: host %s rank %d replays other loadfiles "
			"than rank 0 ('%s', by their SHA-256): every rank "
			"must run the same workload; without -c a host runs "
			"dbench's client.txt where it is installed, else the "
			"built-in workload, so give every rank the same -c\n",
			mc->names[k], k, rc->cfg.loadfile);
	free(all);
	return k < n ? 2 : 0;
}

/* After a run: every host's clean-up is done, so DIR/clients itself can
 * go (shared: the first rank removes it; on a host of its own, each);
 * then every rank waits for the others, so that none makes DIR/clients
 * for the next of --runs while another still removes it. */
static void after_run(struct mpi_coord *mc, struct run_ctx *rc)
{
	bool lost = mpi_coord_barrier(mc) != 0;

	if (!rc->cfg.skip_cleanup && rc->be->orphaned)
		rc->be->orphaned(&rc->be_run);
	if (!lost)
		mpi_coord_barrier(mc);
}

/* run_start() failed on some rank: undo what it did on this one. */
static void undo_start(struct mpi_coord *mc, struct run_ctx *rc, int mine)
{
	if (!mine && rc->be->fini) {
		bool *none = calloc((size_t)rc->cfg.nclients, sizeof(bool));

		if (none)
			rc->be->fini(&rc->be_run, none);
		free(none);
	}
	file_replace_abort(&rc->json);
	after_run(mc, rc);
}

static int runs(struct mpi_coord *mc, struct run_ctx *rc)
{
	/* what the spread needs of each run, not its result: the memory of
	 * --runs stays flat */
	struct spread_run *kept = calloc((size_t)rc->cfg.runs, sizeof(*kept));
	int st = 0, nkept = 0;

	if (!kept) {
		fprintf(stderr, "dbench-ng: out of memory\n");
		return 3;
	}
	for (int run = 1; run <= rc->cfg.runs && !st && !mc->co.lost; run++) {
		struct result *res;

		mc->run = run;
		st = run_one(rc, run, &res);
		if (res && rc->cfg.runs > 1 && res->status == RESULT_OK)
			report_spread_take(&kept[nkept++], res);
		result_free(res);
		after_run(mc, rc);
	}
	if (nkept > 1 && nkept == rc->cfg.runs && !st) {
		report_spread(rc->out, kept, nkept);
		fflush(rc->out);
	}
	free(kept);
	return st;
}

int main(int argc, char **argv)
{
	static struct run_ctx rc;
	static struct mpi_coord mc;
	const char *pattern = NULL;
	sigset_t mask;
	int st, mine, rank;
	bool done = false;

	/* before anything is opened: a closed stdout must not become
	 * the result file */
	if (start_process())
		return 3;
	/* the signals that stop a run, and SIGCHLD, go to the runner's
	 * signalfd: blocked before MPI starts its threads, which must not
	 * take them; and no backtrace handlers of Open MPI's in the
	 * clients (a crash is the runner's to report) */
	stopsig_set(&mask);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	setenv("OMPI_MCA_opal_signal", "", 0);
	if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
		fprintf(stderr, "dbench-ng: MPI_Init failed\n");
		return 3;
	}
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	unbind();
	if (mpi_coord_init(&mc, MPI_COMM_WORLD))
		MPI_Abort(MPI_COMM_WORLD, 3);
	rank = mc.co.rank;
	if (rank) {
		/* rank 0 alone prints the run: the others' output goes
		 * nowhere, their messages are tagged */
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		if (null >= 0 && dup2(null, STDOUT_FILENO) >= 0)
			close(null);
		mpi_tag_begin(mc.names[rank], rank);
	}
	argc = take_rank_json(argc, argv, &pattern);
	if (argc < 0) {
		fprintf(stderr,
			"dbench-ng: --rank-json: a PATTERN is "
			"needed (%%r the rank, %%h the host, %%n the run)\n");
		st = 2;
	} else {
		st = run_setup(&rc, argc, argv, &done);
	}
	if (done && !rank && rc.cfg.helped) /* not after --version */
		printf("\ndbench-ng-mpi: mpirun [-np R] [--hostfile H] "
		       "dbench-ng-mpi [OPTIONS] NPROCS\n"
		       "  runs NPROCS clients on every rank (docs/mpi.md)\n"
		       "  --rank-json PATTERN  also each rank's own result "
		       "(%%r rank, %%h host, %%n run)\n");
	st = step(&mc, st, "to read its command line");
	if (st || done)
		goto out;
	if (mpi_coord_clients(&mc, rc.cfg.nclients, rc.cfg.nprocs)) {
		st = 2;
		goto out;
	}
	st = same_workload(&mc, &rc);
	if (st) {
		st = st < 0 ? 3 : st;
		goto out;
	}
	rc.be_run.first_id = mc.co.first_id;
	rc.be_run.shared = mc.co.nranks > 1;
	mc.rank_json = pattern;
	if (rank) {
		rc.cfg.json = NULL; /* rank 0 writes the run's */
		rc.out = stdout;
	}
	mine = run_start(&rc);
	st = step(&mc, mine, "to start");
	if (st < 0 || st) {
		if (st > 0)
			undo_start(&mc, &rc, mine);
		st = st < 0 ? 3 : st;
		goto out;
	}
	rc.coord = &mc.co;
	st = runs(&mc, &rc);
out:
	if (st < 0)
		st = 3;
	run_teardown(&rc);
	fflush(stdout);
	fflush(stderr);
	if (mc.co.lost) /* a collective may be pending: no finalize */
		return st;
	mpi_coord_free(&mc);
	MPI_Finalize();
	return st;
}
