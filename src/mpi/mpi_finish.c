/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * mpi_finish.c - the end of a run across hosts over MPI (the coordinator's
 * finish, engine/coord.h): every host's statistics added on rank 0, the
 * exit status agreed, when each rank released its clients estimated in
 * rank 0's clock, and every host's result sent as its JSON text
 * (--rank-json writes it too) for rank 0 to read back and merge
 * (results/result_merge.c); a lost run ends with what rank 0 has.
 */
#include "mpi_coord_impl.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "file_replace.h"
#include "result.h"
#include "result_json.h"
#include "stats.h"

#define PING_ROUNDS 8 /* round trips to estimate a rank's clock */
#define TAG_PING    1
#define TAG_PONG    2

/*
 * When each rank released its clients, in rank 0's clock (into @ms[k],
 * ms after rank 0's release), within @err_ms[k]: rank 0 asks each rank
 * for its clock PING_ROUNDS times and keeps the shortest round trip,
 * whose middle is taken as the moment of the answer (docs/mpi.md).
 */
static int release_times(struct mpi_coord *mc, double *ms, double *err_ms)
{
	struct coord *co = &mc->co;
	uint64_t ans[2];
	MPI_Request rq[2];
	char ping = 0;

	if (co->rank) {
		for (int i = 0; i < PING_ROUNDS; i++) {
			if (MPI_Irecv(&ping, 1, MPI_CHAR, 0, TAG_PING, mc->comm,
				      &rq[0]) != MPI_SUCCESS ||
			    mc_wait_all(mc, 1, rq, true))
				return -1;
			ans[0] = clock_ns();
			ans[1] = co->release_ns;
			if (MPI_Isend(ans, 2, MPI_UINT64_T, 0, TAG_PONG,
				      mc->comm, &rq[0]) != MPI_SUCCESS ||
			    mc_wait_all(mc, 1, rq, true))
				return -1;
		}
		return 0;
	}
	ms[0] = err_ms[0] = 0;
	for (int k = 1; k < co->nranks; k++) {
		uint64_t best = UINT64_MAX;

		for (int i = 0; i < PING_ROUNDS; i++) {
			uint64_t t0 = clock_ns(), t1;

			if (MPI_Irecv(ans, 2, MPI_UINT64_T, k, TAG_PONG,
				      mc->comm, &rq[1]) != MPI_SUCCESS ||
			    MPI_Isend(&ping, 1, MPI_CHAR, k, TAG_PING, mc->comm,
				      &rq[0]) != MPI_SUCCESS ||
			    mc_wait_all(mc, 2, rq, true))
				return -1;
			t1 = clock_ns();
			if (t1 - t0 < best) {
				/* its clock read ans[0] at about (t0+t1)/2 */
				double mid = (double)t0 / 2 + (double)t1 / 2;

				best = t1 - t0;
				ms[k] = ((double)ans[1] - (double)ans[0] + mid -
					 (double)co->release_ns) /
					1e6;
				err_ms[k] = (double)best / 2e6;
			}
		}
	}
	return 0;
}

/* PATTERN with %r the rank, %h the host name, %n the run, %% a %. */
static void rank_path(const struct mpi_coord *mc, char *buf, size_t len)
{
	const char *p = mc->rank_json;
	size_t n = 0;

	for (; *p && n + 1 < len; p++) {
		int w = 0;

		if (p[0] != '%' || !p[1]) {
			buf[n++] = *p;
			continue;
		}
		p++;
		if (*p == 'r')
			w = snprintf(buf + n, len - n, "%d", mc->co.rank);
		else if (*p == 'h')
			w = snprintf(buf + n, len - n, "%s",
				     mc->names[mc->co.rank]);
		else if (*p == 'n')
			w = snprintf(buf + n, len - n, "%d", mc->run);
		else
			buf[n++] = *p;
		if (w > 0)
			n = n + (size_t)w < len ? n + (size_t)w : len - 1;
	}
	buf[n] = 0;
}

static int emit_text(FILE *f, const void *ctx)
{
	const char *text = ctx;

	return fputs(text, f) == EOF || fputc('\n', f) == EOF ? -1 : 0;
}

/* This host's result as a result of its own (what rank 0 reads, and
 * what --rank-json writes): its measurements, with the run's description
 * (the same command line, this host's environment).  Borrowed, never
 * freed. */
static struct result host_view(const struct result *run,
			       const struct result *local)
{
	struct result v = *local;

	v.tool = run->tool;
	v.version = run->version;
	v.commit = run->commit;
	v.start_time = run->start_time;
	v.argc = run->argc;
	v.argv = run->argv;
	v.cfg = run->cfg;
	v.env = run->env;
	return v;
}

/* Rank 0: every host's result into @run. */
static int merge_all(struct mpi_coord *mc, struct result *run,
		     const char *texts, const uint64_t *lens, const double *rel,
		     const double *err)
{
	struct coord *co = &mc->co;
	int per = co->nclients / co->nranks;
	char msg[1024], name[32];
	size_t off = 0;

	if (result_merge_begin(run, co->nranks, co->nclients))
		return -1;
	for (int k = 0; k < co->nranks; k++) {
		struct result *h;

		snprintf(name, sizeof(name), "rank %d", k);
		if (result_parse_json(name, texts + off, lens[k], &h, msg,
				      sizeof(msg))) {
			fprintf(stderr,
				"dbench-ng: the result of host %s: "
				"%s\n",
				mc->names[k], msg);
			off += lens[k];
			continue;
		}
		off += lens[k];
		if (result_merge_host(run, h, mc->names[k], k, k * per, rel[k],
				      err[k])) {
			result_free(h);
			return -1;
		}
		result_free(h);
	}
	result_merge_end(run);
	run->cfg.nprocs = co->nprocs;
	run->cfg.nclients = co->nclients;
	return 0;
}

/* Lost, rank 0: the run's statistics up to its last point (@st), with
 * this host's messages, clients and stalls. */
static int merge_lost(struct mpi_coord *mc, struct result *run,
		      const struct result *local, const struct stats *st)
{
	struct coord *co = &mc->co;

	result_set_stats(run, st);
	if (result_merge_begin(run, 1, local->nclients) ||
	    result_merge_host(run, local, mc->names[0], 0, 0, 0, 0))
		return -1;
	result_merge_end(run);
	free(run->hosts[0].name); /* one host: no imbalance to show */
	free(run->hosts);
	run->hosts = NULL;
	run->nhosts = 0;
	run->cfg.nprocs = co->nprocs;
	run->cfg.nclients = co->nclients;
	fprintf(stderr,
		"dbench-ng: the other ranks are lost: the figures are "
		"of every rank up to the last second before, the clients and "
		"stalls of rank 0 alone\n");
	return 0;
}

int mc_finish(struct coord *co, struct result *run, struct result *local,
	      const struct stats *st, int rc)
{
	struct mpi_coord *mc = mc_of(co);
	struct result view = host_view(run, local);
	uint64_t len = 0, *lens = NULL;
	double *rel = NULL, *err = NULL;
	char *text = NULL, *all = NULL, path[4096], msg[1024];
	struct stats *sum = NULL;
	MPI_Request rq;
	int who, out = -1;

	/* lost, there is a second to end: no text unless it is asked for */
	if (mc->rank_json)
		rank_path(mc, path, sizeof(path));
	if (!co->lost || mc->rank_json) {
		size_t n = 0;

		text = result_json_text(&view, mc->rank_json ? path : NULL, &n);
		len = n;
	}
	if (text && mc->rank_json &&
	    file_replace(path, "--rank-json", emit_text, text, msg,
			 sizeof(msg)))
		fprintf(stderr, "dbench-ng: %s\n", msg);
	if (co->lost) {
		free(text);
		if (!co->rank && merge_lost(mc, run, local, st))
			fprintf(stderr,
				"dbench-ng: out of memory for the result\n");
		return rc;
	}
	if (!text) {
		fprintf(stderr, "dbench-ng: out of memory for the result\n");
		rc = 3;
	}
	/* the run's statistics: every host's added, exactly */
	sum = malloc(sizeof(*sum));
	if (!sum)
		goto lose;
	memcpy(sum, st, sizeof(*sum));
	if (MPI_Ireduce(co->rank ? sum : MPI_IN_PLACE, co->rank ? NULL : sum, 1,
			mc->t_stats, mc->op_stats, 0, mc->comm,
			&rq) != MPI_SUCCESS ||
	    mc_wait_all(mc, 1, &rq, false))
		goto lose;
	rc = mpi_coord_status(mc, rc, &who);
	if (rc < 0)
		goto lose;
	lens = calloc((size_t)co->nranks, sizeof(*lens));
	rel = calloc((size_t)co->nranks, sizeof(*rel));
	err = calloc((size_t)co->nranks, sizeof(*err));
	if (!lens || !rel || !err || release_times(mc, rel, err))
		goto lose;
	if (MPI_Igather(&len, 1, MPI_UINT64_T, lens, 1, MPI_UINT64_T, 0,
			mc->comm, &rq) != MPI_SUCCESS ||
	    mc_wait_all(mc, 1, &rq, false))
		goto lose;
	{
		int *cnt = calloc((size_t)co->nranks, sizeof(int));
		int *dsp = calloc((size_t)co->nranks, sizeof(int));
		uint64_t total = 0;

		for (int k = 0; !co->rank && k < co->nranks; k++) {
			if (cnt && dsp) {
				cnt[k] = (int)lens[k];
				dsp[k] = (int)total;
			}
			total += lens[k];
		}
		if (!co->rank && total < INT32_MAX)
			all = malloc(total + 1);
		if (!cnt || !dsp || (!co->rank && !all) ||
		    MPI_Igatherv(text ? text : "", (int)len, MPI_CHAR, all, cnt,
				 dsp, MPI_CHAR, 0, mc->comm,
				 &rq) != MPI_SUCCESS ||
		    mc_wait_all(mc, 1, &rq, false)) {
			free(cnt);
			free(dsp);
			goto lose;
		}
		free(cnt);
		free(dsp);
	}
	if (!co->rank) {
		result_set_stats(run, sum);
		if (merge_all(mc, run, all, lens, rel, err))
			fprintf(stderr,
				"dbench-ng: out of memory for the result\n");
	} else {
		run->status = !rc	  ? RESULT_OK
			      : rc >= 128 ? RESULT_INTERRUPTED
					  : RESULT_FAILED;
	}
	out = rc;
	goto done;
lose:
	/* nothing can be merged: this rank ends alone (mpirun ends the
	 * others when it exits) */
	co->lost = true;
	if (!co->rank && merge_lost(mc, run, local, st))
		fprintf(stderr, "dbench-ng: out of memory for the result\n");
	out = rc ? rc : 3;
done:
	free(text);
	free(all);
	free(sum);
	free(lens);
	free(rel);
	free(err);
	return out;
}
