/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * result_merge.c - the result of a run across hosts (dbench-ng-mpi) from
 * the results of its hosts.  Nothing is averaged: the per-op tables come
 * from the run's statistics (every host's added by stats_add, so the
 * percentiles are those of one run of every client), counts add, maxima
 * take the larger, and what cannot be added (messages, stall events,
 * clients) is kept with the host it came from.
 */
#include "result.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result_foreign.h"
#include "stats.h"

void result_set_stats(struct result *r, const struct stats *st)
{
	for (int o = 0; o < OP_NR; o++) {
		r->op[o].h = st->op[o];
		r->op[o].errors = st->errors[o];
		r->op[o].bytes = st->bytes[o];
		r->op[o].not_run = st->not_run[o];
		r->op[o].own = st->own[o]; /* empty without BPF */
		r->op[o].foreign_ns = st->foreign_ns[o];
		/* shown only where a host was paced (result_merge_host) */
		r->resp.h[o] = st->resp[o];
		r->resp.late[o] = st->late[o];
		r->resp.late_max_ns[o] = st->late_max[o];
	}
	r->has_bins = true;
}

int result_merge_begin(struct result *run, int nhosts, int nclients)
{
	free(run->clients);
	run->clients = calloc((size_t)nclients, sizeof(*run->clients));
	run->hosts = calloc((size_t)nhosts, sizeof(*run->hosts));
	if (!run->clients || !run->hosts)
		return -1;
	run->nclients = nclients;
	run->status = RESULT_OK;
	return 0;
}

static int status_rank(enum result_status s)
{
	return s == RESULT_FAILED ? 2 : s == RESULT_INTERRUPTED ? 1 : 0;
}

/* "host NAME rank R: @msg" into @v (at most RESULT_MAX_MSGS). */
static int add_msg(char **v, int *n, const char *name, int rank,
		   const char *msg)
{
	char *s;

	if (*n >= RESULT_MAX_MSGS)
		return 0;
	if (asprintf(&s, "host %s rank %d: %s", name, rank, msg) < 0)
		return -1;
	v[(*n)++] = s;
	return 0;
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* Copy stall event @src of host @name into @dst (deep). */
static int copy_event(struct result_stall *dst, const struct result_stall *src,
		      const char *name, int rank)
{
	if (result_stall_copy(dst, src))
		return -1;
	free(dst->host);
	dst->host = strdup(name);
	dst->rank = rank;
	return dst->host ? 0 : -1;
}

/* The shortest kept event of @st, or -1 if there is room. */
static int shortest_event(const struct result_stalls *st)
{
	int k = -1;

	if (st->nevents < STALL_MAX_EVENTS)
		return -1;
	for (int i = 0; i < st->nevents; i++) {
		if (k < 0 ||
		    st->events[i].duration_ms < st->events[k].duration_ms)
			k = i;
	}
	return k;
}

static int merge_stalls(struct result_stalls *st, const struct result_stalls *h,
			const char *name, int rank)
{
	char *where;
	int rc;

	st->enabled = st->enabled || h->enabled;
	if (h->threshold_ms > 0)
		st->threshold_ms = h->threshold_ms;
	st->total += h->total;
	st->warmup_total += h->warmup_total;
	for (int o = 0; o < OP_NR; o++) {
		st->count[o] += h->count[o];
		st->warmup_count[o] += h->warmup_count[o];
		if (h->max_ms[o] > st->max_ms[o])
			st->max_ms[o] = h->max_ms[o];
		if (h->warmup_max_ms[o] > st->warmup_max_ms[o])
			st->warmup_max_ms[o] = h->warmup_max_ms[o];
	}
	/* the longest events of every host */
	for (int i = 0; i < h->nevents; i++) {
		int k = shortest_event(st);

		if (k >= 0 &&
		    st->events[k].duration_ms >= h->events[i].duration_ms)
			continue;
		if (k >= 0)
			result_stall_free(&st->events[k]);
		else
			k = st->nevents++;
		if (copy_event(&st->events[k], &h->events[i], name, rank))
			return -1;
	}
	/* the same stack on two hosts is one stack seen more often */
	st->folded_other += h->folded_other;
	st->unsampled += h->unsampled;
	for (int i = 0; i < h->nfolded; i++) {
		const struct result_folded *f = &h->folded[i];
		int k;

		for (k = 0; k < st->nfolded; k++) {
			if (!strcmp(st->folded[k].stack, f->stack))
				break;
		}
		if (k < st->nfolded) {
			st->folded[k].count += f->count;
		} else if (st->nfolded < STALL_MAX_FOLDED) {
			st->folded[k].stack = strdup(f->stack);
			if (!st->folded[k].stack)
				return -1;
			st->folded[k].count = f->count;
			st->nfolded++;
		} else {
			st->folded_other += f->count;
		}
	}
	if (asprintf(&where, "host %s rank %d", name, rank) < 0)
		return -1;
	rc = result_offcpu_run_add(&st->offcpu, &h->offcpu, where);
	free(where);
	if (rc)
		return -1;
	if (h->note && !st->note &&
	    asprintf(&st->note, "host %s rank %d: %s", name, rank, h->note) < 0)
		st->note = NULL;
	return 0;
}

static void max_to(double *d, double h)
{
	if (h > *d)
		*d = h;
}

static void merge_disturb(struct result_disturb *d,
			  const struct result_disturb *h)
{
	if (!h->valid)
		return;
	if (!d->valid) {
		*d = *h;
		return;
	}
	/* the run is as disturbed as its most disturbed host */
	max_to(&d->seconds, h->seconds);
	max_to(&d->other_cpus, h->other_cpus);
	max_to(&d->steal_pct, h->steal_pct);
	max_to(&d->load1_start, h->load1_start);
	max_to(&d->load1_end, h->load1_end);
	for (int i = 0; i < PSI_NR; i++)
		max_to(&d->psi_some_ms[i], h->psi_some_ms[i]);
	max_to(&d->mhz_max, h->mhz_max);
	if (h->mhz_min > 0 && (!d->mhz_min || h->mhz_min < d->mhz_min))
		d->mhz_min = h->mhz_min;
}

static void host_row(struct result_host *row, const struct result *h, int rank,
		     int first_client)
{
	row->rank = rank;
	row->first_client = first_client;
	row->clients = h->nclients;
	row->status = h->status;
	row->throughput = h->throughput;
	for (int o = 0; o < OP_NR; o++) {
		const struct hist *hi = &h->op[o].h;

		row->count[o] = hi->count;
		row->mean_ms[o] = hist_mean(hi) / 1e6;
		row->p99_ms[o] = (double)hist_value_at(hi, 99) / 1e6;
		row->max_ms[o] = (double)hi->max / 1e6;
	}
}

int result_merge_host(struct result *run, const struct result *h,
		      const char *name, int rank, int first_client,
		      double release_ms, double release_err_ms)
{
	struct result_host *row = &run->hosts[run->nhosts];

	if (status_rank(h->status) > status_rank(run->status))
		run->status = h->status;
	if (!run->signal)
		run->signal = h->signal;
	if (h->resp.valid && !run->resp.valid) { /* a paced run */
		run->resp.valid = true;
		run->resp.pacing = h->resp.pacing;
		run->resp.late_ms = h->resp.late_ms;
	}
	for (int o = 0; o < OP_NR; o++) {
		if (h->op[o].not_run_why && !run->op[o].not_run_why &&
		    !(run->op[o].not_run_why = strdup(h->op[o].not_run_why)))
			return -1;
	}
	for (int i = 0; i < h->nerrors; i++) {
		if (add_msg(run->errors, &run->nerrors, name, rank,
			    h->errors[i]))
			return -1;
	}
	run->nwarn += h->nwarn;
	for (int i = 0; i < h->nwarn_msgs; i++) {
		if (add_msg(run->warn_msgs, &run->nwarn_msgs, name, rank,
			    h->warn_msgs[i]))
			return -1;
	}
	/* the slowest call of an op: the host whose max is the run's */
	for (int o = 0; o < OP_NR; o++) {
		const struct result_op *ho = &h->op[o];
		struct result_op *ro = &run->op[o];

		if (ro->max_client >= 0 || ho->max_client < 0 || !ho->h.count ||
		    ho->h.max != ro->h.max)
			continue;
		ro->max_client = ho->max_client;
		ro->max_at_s = ho->max_at_s;
		ro->max_line = ho->max_line;
		ro->max_file = dup_or_null(ho->max_file);
		ro->max_path = dup_or_null(ho->max_path);
	}
	for (int i = 0; i < h->nclients && h->clients; i++) {
		if (first_client + i >= 0 && first_client + i < run->nclients)
			run->clients[first_client + i] = h->clients[i];
	}
	if (merge_stalls(&run->stalls, &h->stalls, name, rank))
		return -1;
	merge_disturb(&run->disturb, &h->disturb);
	if (result_foreign_merge(&run->foreign, &h->foreign))
		return -1;
	host_row(row, h, rank, first_client);
	row->release_ms = release_ms;
	row->release_err_ms = release_err_ms;
	row->name = strdup(name);
	if (!row->name)
		return -1;
	run->nhosts++;
	return 0;
}

static int longer_first(const void *a, const void *b)
{
	const struct result_stall *x = a, *y = b;

	return (x->duration_ms < y->duration_ms) -
	       (x->duration_ms > y->duration_ms);
}

static int more_first(const void *a, const void *b)
{
	const struct result_folded *x = a, *y = b;

	return (x->count < y->count) - (x->count > y->count);
}

void result_merge_end(struct result *run)
{
	struct result_stalls *st = &run->stalls;

	qsort(st->events, (size_t)st->nevents, sizeof(*st->events),
	      longer_first);
	qsort(st->folded, (size_t)st->nfolded, sizeof(*st->folded), more_first);
}

bool result_imbalance(const struct result *r, int *slow, int *fast)
{
	if (r->nhosts < 1)
		return false;
	*slow = *fast = 0;
	for (int i = 1; i < r->nhosts; i++) {
		if (r->hosts[i].throughput < r->hosts[*slow].throughput)
			*slow = i;
		if (r->hosts[i].throughput > r->hosts[*fast].throughput)
			*fast = i;
	}
	return true;
}
