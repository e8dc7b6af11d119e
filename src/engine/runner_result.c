/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * runner_result.c - the end of a run on this host: the client slots
 * merged into the result (the measured phase: ops, their largest call,
 * response times, own latencies, errors and warnings), the fatal
 * messages printed once each, and the op a stuck client is in (for the
 * watchdog).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"

#include "runner_impl.h"

/* The real path(s) of op @pc of client @id's program, for the result. */
static char *op_paths(struct runner *r, int id, uint32_t pc)
{
	struct client cl = {
		.be.id = id,
		.be.run = r->run,
		.cfg = r->cfg,
		.prog = prog_of(r, id),
	};
	const struct lf_op *op = &cl.prog->ops[pc];
	char a[1200], b[1200], both[2402];

	if (op->path[0] == LF_NONE)
		return NULL;
	client_path(&cl, op->path[0], a, sizeof(a));
	if (op->path[1] == LF_NONE)
		return strdup(a);
	snprintf(both, sizeof(both), "%s %s", a,
		 client_path(&cl, op->path[1], b, sizeof(b)));
	return strdup(both);
}

/* watchdog_describe_fn: name the op a stuck client is running. */
void runner_describe_stall(void *ctx, int client, uint32_t pc,
			   struct result_stall *ev)
{
	struct runner *r = ctx;
	const struct program *prog = prog_of(r, r->first + client);

	if (pc >= prog->nops)
		pc = 0;
	ev->client = r->first + client; /* every host's numbering */
	ev->op = prog->ops[pc].type;
	ev->line = prog->ops[pc].line;
	ev->file = strdup(prog->name);
	ev->path = op_paths(r, r->first + client, pc);
}

void runner_add_error(struct result *res, const char *msg)
{
	if (res->nerrors < RESULT_MAX_MSGS)
		res->errors[res->nerrors++] = strdup(msg);
}

/* A paced run (client_paced: -R, or a loadfile with timestamps): the
 * response times of its paced clients, as the tables' ops (the measured
 * phase, slots of the last generation). */
static void fill_resp(struct runner *r, const struct stats *all)
{
	const struct config *cfg = r->cfg;
	struct result_resp *rr = &r->res->resp;

	/* the programs the clients run: process p runs p mod nprogs */
	for (int p = 0; p < r->nprogs && p < cfg->nprocs; p++)
		rr->valid = rr->valid || client_paced(cfg, r->progs[p]);
	if (!rr->valid)
		return;
	rr->pacing = cfg->target_rate > 0 ? RESP_RATE : RESP_TIMESTAMPS;
	rr->late_ms = (double)RESP_LATE_NS / 1e6;
	for (int o = 0; o < OP_NR; o++) {
		rr->late[o] += all->late[o];
		if (all->late_max[o] > rr->late_max_ns[o])
			rr->late_max_ns[o] = all->late_max[o];
		hist_add(&rr->h[o], &all->resp[o]);
	}
}

/*
 * Whether a signal cut the run short: one before the time limit, or a
 * second one after it that had to kill clients still in an op (the ops
 * they were in never ended, so the figures are not a whole run's).  A
 * signal after the time limit alone only hurries the clean-up: the
 * first reason, the time limit, stands.
 */
bool runner_cut_short(const struct runner *r)
{
	return r->interrupted && (!r->after_end || r->killed);
}

/* Merge the client slots into the result: the measured phase only. */
int runner_fill_result(struct runner *r)
{
	const struct config *cfg = r->cfg;
	struct shm_hdr *hdr = &r->shm->hdr;
	struct result *res = r->res;
	/* the histograms, merged exactly (ticks_final) */
	const struct stats *all = ticks_final(r->ticks);
	uint64_t bytes = 0;

	if (!all)
		return -1;
	res->status = r->failed		    ? RESULT_FAILED
		      : runner_cut_short(r) ? RESULT_INTERRUPTED
					    : RESULT_OK;
	res->signal = runner_cut_short(r) ? r->interrupted : 0;
	res->has_bins = true;
	res->nclients = cfg->nclients;
	res->clients = calloc((size_t)cfg->nclients, sizeof(*res->clients));
	if (!res->clients)
		return -1;
	for (int i = 0; i < cfg->nclients; i++) {
		struct client_slot *s = slot(r, i);
		struct result_client *rc = &res->clients[i];

		if (s->err_msg[0])
			runner_add_error(res, s->err_msg);
		rc->lines = s->lines;
		if (s->gen != hdr->gen)
			continue; /* measured nothing after the warmup */
		rc->bytes = s->bytes;
		bytes += s->bytes;
		for (int o = 0; o < OP_NR; o++) {
			struct result_op *ro = &res->op[o];
			const struct hist_head *h =
				shm_head(r->shm, i, hdr->gen,
					 SS_HIST(SS_OP, o));

			rc->count[o] = h->count;
			rc->sum_ns[o] = h->sum;
			rc->max_ns[o] = h->max;
			ro->errors += s->st.errors[o];
			ro->bytes += s->st.bytes[o];
			ro->not_run += s->st.not_run[o];
			if (h->count && (!ro->h.count || h->max > ro->h.max)) {
				int id = r->first + i;

				free(ro->max_path);
				ro->max_client = id;
				ro->max_at_s = (double)(s->max_start_ns[o] -
							hdr->start_ns) /
					       1e9;
				ro->max_line =
					prog_of(r, id)->ops[s->max_pc[o]].line;
				ro->max_path = op_paths(r, id, s->max_pc[o]);
				free(ro->max_file);
				ro->max_file = strdup(prog_of(r, id)->name);
			}
			hist_head_add(&ro->h.head, h);
			if (s->st.nown) /* BPF: own latencies */
				ro->foreign_ns += s->st.foreign_ns[o];
		}
		res->nwarn += s->nwarn;
		if (s->nwarn && res->nwarn_msgs < RESULT_MAX_MSGS)
			res->warn_msgs[res->nwarn_msgs++] = strdup(s->warn_msg);
	}
	for (int o = 0; o < OP_NR; o++) {
		const char *why = be_not_run(r->b, o);

		res->op[o].h = all->op[o];
		if (all->own[o].count)
			res->op[o].own = all->own[o];

		if (res->op[o].not_run && why &&
		    !(res->op[o].not_run_why = strdup(why)))
			return -1;
	}
	for (int i = 0; i < r->ndeaths; i++)
		runner_add_error(res, r->deaths[i]);
	fill_resp(r, all);
	ticks_fill(r->ticks, res, bytes);
	return foreign_fill(r->fg, res);
}

/* A client's message without its "client N at FILE:LINE: " (or "client
 * N: "), and N in *@id; the message itself and -1 if it is not one. */
static const char *msg_body(const char *m, int *id)
{
	const char *p = strstr(m, ": ");

	*id = -1;
	if (!p || sscanf(m, "client %d", id) != 1)
		return m;
	return p + 2;
}

/* The fatal messages, once each: clients that failed the same way (a
 * server that went away) are named after the first one's. */
void runner_print_failures(const struct result *res)
{
	char *const *e = res->errors;

	for (int i = 0; i < res->nerrors; i++) {
		int id, other, n = 0;
		const char *body = msg_body(e[i], &id);
		bool dup = false;

		for (int j = 0; j < i && id >= 0 && !dup; j++)
			dup = !strcmp(msg_body(e[j], &other), body) &&
			      other >= 0;
		if (dup)
			continue;
		fprintf(stderr, "dbench-ng: %s", e[i]);
		for (int j = i + 1; j < res->nerrors && id >= 0; j++) {
			if (!strcmp(msg_body(e[j], &other), body) && other >= 0)
				fprintf(stderr, "%s%d",
					n++ ? ", "
					    : " (the same "
					      "for client ",
					other);
		}
		fprintf(stderr, "%s\n", n ? ")" : "");
	}
	if (!res->nerrors)
		fprintf(stderr, "dbench-ng: a client process failed\n");
}

/* This host's statistics of the measured phase: its clients' merged. */
struct stats *runner_local_stats(struct runner *r)
{
	const struct stats *all = ticks_final(r->ticks);
	struct stats *st = all ? malloc(sizeof(*st)) : NULL;

	if (st)
		*st = *all;
	return st;
}
