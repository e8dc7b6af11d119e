/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * result.c - the in-memory result: allocation, release, the bounded time
 * series, and the names of the run statuses and of the PSI resources.
 * (Its JSON form is written by result_json_write.c and read by
 * result_json_read.c.)
 */
#include "result.h"

#include <stdlib.h>
#include <string.h>

#include "env.h"

static const char *const status_name[] = {
#define X(id, name) [id] = name,
	RESULT_STATUS_LIST(X)
#undef X
};

#define NSTATUS (sizeof(status_name) / sizeof(status_name[0]))

const char *result_status_name(enum result_status s)
{
	return (size_t)s < NSTATUS ? status_name[s] : "failed";
}

bool result_status_parse(const char *s, enum result_status *out)
{
	for (size_t i = 0; s && i < NSTATUS; i++) {
		if (!strcmp(s, status_name[i])) {
			*out = (enum result_status)i;
			return true;
		}
	}
	return false;
}

const char *const psi_name[PSI_NR] = {
#define X(id, name) [PSI_##id] = name,
	PSI_LIST(X)
#undef X
};

static const char *const pacing_name[] = {
#define X(id, name) [id] = name,
	RESP_PACING_LIST(X)
#undef X
};

#define NPACING (sizeof(pacing_name) / sizeof(pacing_name[0]))

const char *resp_pacing_name(enum resp_pacing p)
{
	return (size_t)p < NPACING ? pacing_name[p] : "rate";
}

bool resp_pacing_parse(const char *s, enum resp_pacing *out)
{
	for (size_t i = 0; s && i < NPACING; i++) {
		if (!strcmp(s, pacing_name[i])) {
			*out = (enum resp_pacing)i;
			return true;
		}
	}
	return false;
}

static const char *const foreign_name[] = {
#define X(id, name) [id] = name,
	FOREIGN_METHOD_LIST(X)
#undef X
};

#define NFOREIGN (sizeof(foreign_name) / sizeof(foreign_name[0]))

const char *foreign_method_name(int m)
{
	return m >= 0 && (size_t)m < NFOREIGN ? foreign_name[m] : "none";
}

bool foreign_method_parse(const char *s, int *out)
{
	for (size_t i = 0; s && i < NFOREIGN; i++) {
		if (!strcmp(s, foreign_name[i])) {
			*out = (int)i;
			return true;
		}
	}
	return false;
}

struct result *result_new(void)
{
	struct result *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	for (int i = 0; i < OP_NR; i++)
		r->op[i].max_client = -1;
	r->interval_s = 1.0;
	r->cfg.runs = 1; /* a result is of one run (a dbench log too) */
	return r;
}

void result_stall_free(struct result_stall *ev)
{
	free(ev->file);
	free(ev->path);
	free(ev->start_time);
	free(ev->host);
	for (int i = 0; i < ev->nsamples; i++) {
		free(ev->samples[i].wchan);
		free(ev->samples[i].stack);
	}
	result_offcpu_free(&ev->offcpu);
	memset(ev, 0, sizeof(*ev));
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* a string of @src into @dst: false when out of memory */
static bool dup_ok(char **dst, const char *src)
{
	*dst = dup_or_null(src);
	return *dst || !src;
}

int result_stall_copy(struct result_stall *dst, const struct result_stall *src)
{
	bool ok = true;

	*dst = *src;
	dst->file = dst->path = dst->start_time = dst->host = NULL;
	dst->nsamples = 0;
	memset(&dst->offcpu, 0, sizeof(dst->offcpu));
	ok = dup_ok(&dst->file, src->file) && dup_ok(&dst->path, src->path) &&
	     dup_ok(&dst->start_time, src->start_time) &&
	     dup_ok(&dst->host, src->host);
	for (int i = 0; ok && i < src->nsamples; i++) {
		dst->samples[i] = src->samples[i];
		dst->samples[i].wchan = dst->samples[i].stack = NULL;
		dst->nsamples = i + 1;
		ok = dup_ok(&dst->samples[i].wchan, src->samples[i].wchan) &&
		     dup_ok(&dst->samples[i].stack, src->samples[i].stack);
	}
	if (ok && !result_offcpu_copy(&dst->offcpu, &src->offcpu))
		return 0;
	result_stall_free(dst);
	return -1;
}

int result_stalls_copy(struct result_stalls *dst,
		       const struct result_stalls *src)
{
	struct result_offcpu_run *o = &dst->offcpu;
	bool ok;

	*dst = *src;
	dst->nevents = dst->nfolded = 0;
	dst->note = NULL;
	o->method = o->method_note = o->irq_method = NULL;
	o->npairs = 0;
	ok = dup_ok(&dst->note, src->note) &&
	     dup_ok(&o->method, src->offcpu.method) &&
	     dup_ok(&o->method_note, src->offcpu.method_note) &&
	     dup_ok(&o->irq_method, src->offcpu.irq_method);
	for (int i = 0; ok && i < src->nevents; i++) {
		ok = !result_stall_copy(&dst->events[i], &src->events[i]);
		dst->nevents += ok;
	}
	for (int i = 0; ok && i < src->nfolded; i++) {
		dst->folded[i].count = src->folded[i].count;
		ok = dup_ok(&dst->folded[i].stack, src->folded[i].stack);
		dst->nfolded += ok;
	}
	for (int i = 0; ok && i < src->offcpu.npairs; i++) {
		const struct result_wait_pair *a = &src->offcpu.pairs[i];
		struct result_wait_pair *b = &o->pairs[i];

		*b = *a;
		b->stack = b->waker_comm = b->waker_stack = NULL;
		o->npairs = i + 1;
		ok = dup_ok(&b->stack, a->stack) &&
		     dup_ok(&b->waker_comm, a->waker_comm) &&
		     dup_ok(&b->waker_stack, a->waker_stack);
	}
	return ok ? 0 : -1;
}

void result_stalls_free(struct result_stalls *st)
{
	for (int i = 0; i < st->nevents; i++)
		result_stall_free(&st->events[i]);
	for (int i = 0; i < st->nfolded; i++)
		free(st->folded[i].stack);
	free(st->note);
	result_offcpu_run_free(&st->offcpu);
	memset(st, 0, sizeof(*st));
}

void result_free(struct result *r)
{
	if (!r)
		return;
	free(r->tool);
	free(r->version);
	free(r->commit);
	free(r->start_time);
	for (int i = 0; i < r->argc; i++)
		free(r->argv[i]);
	free(r->argv);
	for (size_t i = 0; i < sizeof(r->owned) / sizeof(r->owned[0]); i++)
		free(r->owned[i]);
	env_free(&r->env);
	for (int i = 0; i < r->nerrors; i++)
		free(r->errors[i]);
	for (int i = 0; i < OP_NR; i++) {
		free(r->op[i].max_file);
		free(r->op[i].max_path);
		free(r->op[i].not_run_why);
	}
	free(r->clients);
	for (int i = 0; i < r->nwarn_msgs; i++)
		free(r->warn_msgs[i]);
	free(r->points);
	result_stalls_free(&r->stalls);
	free(r->foreign.note);
	for (int i = 0; i < r->nhosts; i++)
		free(r->hosts[i].name);
	free(r->hosts);
	free(r);
}

/* Merge point @b into @a (its successor). */
static void merge_points(struct result_point *a, const struct result_point *b)
{
	a->t = b->t;
	a->dur += b->dur;
	a->warmup = a->warmup && b->warmup;
	a->lines += b->lines;
	a->bytes += b->bytes;
	if (b->latency_ms > a->latency_ms)
		a->latency_ms = b->latency_ms;
	for (int i = 0; i < OP_NR; i++) {
		a->count[i] += b->count[i];
		if (b->max_ns[i] > a->max_ns[i])
			a->max_ns[i] = b->max_ns[i];
		/* the worse half's p99: an upper bound of the merged p99 */
		if (b->p99_ns[i] > a->p99_ns[i])
			a->p99_ns[i] = b->p99_ns[i];
		a->resp_count[i] += b->resp_count[i];
		if (b->resp_max_ns[i] > a->resp_max_ns[i])
			a->resp_max_ns[i] = b->resp_max_ns[i];
		if (b->resp_p99_ns[i] > a->resp_p99_ns[i])
			a->resp_p99_ns[i] = b->resp_p99_ns[i];
		a->late[i] += b->late[i];
	}
}

int result_add_point(struct result *r, const struct result_point *p)
{
	/* room for one more, the array doubling as the series grows: a
	 * short run does not take (and calloc zero) the whole bound of the
	 * series, a megabyte of memory per thousand points */
	if (r->npoints == r->points_cap && r->points_cap < RESULT_MAX_POINTS) {
		uint32_t cap = r->points_cap ? 2 * r->points_cap : 64;
		struct result_point *np;

		if (cap > RESULT_MAX_POINTS)
			cap = RESULT_MAX_POINTS;
		np = realloc(r->points, cap * sizeof(*np));
		if (!np)
			return -1;
		r->points = np;
		r->points_cap = cap;
	}
	if (r->npoints == RESULT_MAX_POINTS) {
		/* full: halve the resolution, merging neighbours */
		for (uint32_t i = 0; i < RESULT_MAX_POINTS / 2; i++) {
			r->points[i] = r->points[2 * i];
			merge_points(&r->points[i], &r->points[2 * i + 1]);
		}
		r->npoints = RESULT_MAX_POINTS / 2;
		r->interval_s *= 2;
	}
	r->points[r->npoints++] = *p;
	/* a new point joins its predecessor until it is as long as the
	 * current interval */
	if (r->npoints > 1 && r->interval_s > 1.0) {
		struct result_point *prev = &r->points[r->npoints - 2];

		if (prev->dur + p->dur <= r->interval_s + 1e-9 &&
		    prev->warmup == p->warmup) {
			merge_points(prev, p);
			r->npoints--;
		}
	}
	return 0;
}
