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

void result_free(struct result *r)
{
	if (!r)
		return;
	free(r->tool);
	free(r->version);
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
	for (int i = 0; i < r->stalls.nevents; i++)
		result_stall_free(&r->stalls.events[i]);
	for (int i = 0; i < r->stalls.nfolded; i++)
		free(r->stalls.folded[i].stack);
	free(r->stalls.note);
	free(r->foreign.note);
	result_offcpu_run_free(&r->stalls.offcpu);
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
	if (!r->points) {
		r->points = calloc(RESULT_MAX_POINTS, sizeof(*r->points));
		if (!r->points)
			return -1;
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
