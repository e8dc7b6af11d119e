/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * checkpoint.c - the --json result as a checkpoint every few seconds of
 * the run (checkpoint.h; docs/design.md §9, "A result survives its
 * writer").
 *
 * The stage is a result of its own: the run's description copied once
 * (its strings borrowed), its own copy of the series, the merged
 * statistics of the phase at the last point of the series (ticks.c: the
 * same figures the series was made from; across hosts rank 0's run-wide
 * ones), the figures of the summary so far and a copy of the stalls.
 * The main thread fills it under a lock it only tries (ckpt_offer), the
 * thread renders it into a jansson document under that lock and writes
 * the document outside it.  The rename is made under a second lock, which
 * ckpt_stop() takes: none lands after the final write.
 */
#include "checkpoint.h"

#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "config.h"
#include "file_replace.h"
#include "result.h"
#include "result_json.h"
#include "shm.h"
#include "stats.h"
#include "ticks.h"
#include "watchdog.h"

struct checkpoint {
	char *path;
	pthread_t thread;

	/* the stage, and what the thread is told */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool fresh; /* an offer not rendered yet */
	bool quit;
	struct result *view;  /* its points: view->points_cap of them */
	uint32_t seen_n;      /* points of the series at the last offer */
	double seen_interval; /* and its resolution */
	char when[32];	      /* and its wall-clock time, ISO 8601 UTC */

	/* held across a rename; stopped: no more renames */
	pthread_mutex_t commit;
	bool stopped;
	bool said; /* a failure was told once */

	/* the main thread's */
	uint64_t next_ns; /* the next offer is due (0: the first tick) */
	bool ended;	  /* the offer of the end of the measured phase */
	uint64_t cost_ns; /* CPU time of the last checkpoint (atomic) */
	uint64_t written; /* checkpoints renamed (atomic) */
};

uint64_t ckpt_interval_ns(uint64_t cost_ns)
{
	uint64_t d = cost_ns * CKPT_COST_RATIO;

	return d > CKPT_INTERVAL_NS ? d : CKPT_INTERVAL_NS;
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* Say once why a checkpoint could not be written; the run goes on (and
 * its final write says its own). */
static void say(struct checkpoint *ck, const char *err)
{
	if (ck->said)
		return;
	ck->said = true;
	fprintf(stderr, "dbench-ng: checkpoint: %s (the run goes on)\n", err);
}

/* Write @doc and rename it over the file, unless ckpt_stop() came first. */
static void write_doc(struct checkpoint *ck, json_t *doc)
{
	struct file_pending p;
	char err[1024];

	if (file_replace_begin(&p, ck->path, "--json", err, sizeof(err)) ||
	    file_replace_write(&p, result_json_emit, doc, false, err,
			       sizeof(err))) {
		say(ck, err);
		return;
	}
	pthread_mutex_lock(&ck->commit);
	if (ck->stopped) {
		file_replace_abort(&p); /* an unnamed file: nothing left */
	} else if (file_replace_commit(&p, err, sizeof(err))) {
		say(ck, err);
	} else {
		__atomic_add_fetch(&ck->written, 1, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&ck->commit);
}

static void *ckpt_main(void *arg)
{
	struct checkpoint *ck = arg;

	for (;;) {
		uint64_t t0;
		json_t *doc;

		pthread_mutex_lock(&ck->lock);
		while (!ck->fresh && !ck->quit)
			pthread_cond_wait(&ck->cond, &ck->lock);
		if (ck->quit) {
			pthread_mutex_unlock(&ck->lock);
			return NULL;
		}
		ck->fresh = false;
		t0 = thread_cpu_ns();
		doc = result_json_doc(ck->view, ck->path);
		/* when it was taken: how far the run got, on the wall clock */
		if (doc && json_object_set_new(doc, "checkpoint_time",
					       ck->when[0] ? json_string(ck->when)
							   : json_null())) {
			json_decref(doc);
			doc = NULL;
		}
		pthread_mutex_unlock(&ck->lock);
		if (doc)
			write_doc(ck, doc);
		else
			say(ck, "out of memory");
		json_decref(doc);
		__atomic_store_n(&ck->cost_ns, thread_cpu_ns() - t0,
				 __ATOMIC_RELAXED);
	}
}

/* The description of the run, copied once: its strings are @desc's */
static void describe(struct result *v, const struct result *desc)
{
	v->tool = desc->tool;
	v->version = desc->version;
	v->start_time = desc->start_time;
	v->argc = desc->argc;
	v->argv = desc->argv;
	v->cfg = desc->cfg;
	v->env = desc->env;
	v->status = RESULT_RUNNING;
	v->has_bins = true;
	for (int o = 0; o < OP_NR; o++)
		v->op[o].max_client = -1; /* the slowest call: not known */
	v->interval_s = 1.0;
}

struct checkpoint *ckpt_start(const char *path, const struct result *desc)
{
	struct checkpoint *ck = calloc(1, sizeof(*ck));
	sigset_t all, old;
	int rc = -1;

	if (ck) {
		ck->path = strdup(path);
		ck->view = calloc(1, sizeof(*ck->view));
	}
	if (!ck || !ck->path || !ck->view) {
		fprintf(stderr,
			"dbench-ng: out of memory for the checkpoints "
			"of --json %s: the run goes on without them\n",
			path);
		goto fail;
	}
	describe(ck->view, desc);
	pthread_mutex_init(&ck->lock, NULL);
	pthread_mutex_init(&ck->commit, NULL);
	pthread_cond_init(&ck->cond, NULL);
	/* no signal for this thread: the runner takes them from its
	 * signalfd (SIGCHLD too), and a thread that did not block one would
	 * swallow it */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&ck->thread, NULL, ckpt_main, ck);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!rc)
		return ck;
	fprintf(stderr,
		"dbench-ng: cannot start the checkpoints of --json %s "
		"(%s): the run goes on without them\n",
		path, strerror(rc));
	pthread_cond_destroy(&ck->cond);
	pthread_mutex_destroy(&ck->commit);
	pthread_mutex_destroy(&ck->lock);
fail:
	if (ck) {
		free(ck->view);
		free(ck->path);
		free(ck);
	}
	return NULL;
}

/*
 * The run as @t has it at @now into the stage: the points of the series
 * that changed since the last offer (the last one may have taken a new
 * one in; all of them when the resolution halved), the statistics at the
 * last point, the summary so far and the stalls (unless the watchdog is
 * in a poll: then those of the last offer).  -1 when out of memory (the
 * stage as it was).
 */
static int stage(struct checkpoint *ck, const struct ticks *t,
		 struct watchdog *wd, uint64_t now)
{
	const struct result *src = t->coord ? t->run : t->res;
	const struct stats *st = t->coord ? t->gcum : t->cum_prev;
	const struct shm_hdr *hdr = &t->shm->hdr;
	uint64_t point_ns = t->coord ? t->run_point_ns : t->prev_point_ns;
	uint64_t end =
		t->cleanup && t->end_ns < point_ns ? t->end_ns : point_ns;
	struct result *v = ck->view;
	uint32_t from = 0;
	uint64_t bytes = 0;
	time_t wall = time(NULL);
	struct tm tm;

	if (src->npoints > v->points_cap) { /* as the series' own grows */
		struct result_point *np =
			realloc(v->points, src->points_cap * sizeof(*np));

		if (!np)
			return -1;
		v->points = np;
		v->points_cap = src->points_cap;
	}
	if (ck->seen_n && src->interval_s == ck->seen_interval &&
	    src->npoints >= ck->seen_n)
		from = ck->seen_n - 1;
	if (src->npoints > from)
		memcpy(v->points + from, src->points + from,
		       (src->npoints - from) * sizeof(*v->points));
	v->npoints = src->npoints;
	v->interval_s = src->interval_s;
	ck->seen_n = src->npoints;
	ck->seen_interval = src->interval_s;

	result_set_stats(v, st);
	/* the clients were recording while the tick read them */
	for (int o = 0; o < OP_NR; o++) {
		hist_settle(&v->op[o].h);
		hist_settle(&v->op[o].own);
		hist_settle(&v->resp.h[o]);
	}
	for (int o = 0; o < OP_NR; o++)
		bytes += st->bytes[o];
	v->resp.valid = st->nresp > 0;
	v->resp.pacing = t->cfg->target_rate > 0 ? RESP_RATE : RESP_TIMESTAMPS;
	v->resp.late_ms = (double)RESP_LATE_NS / 1e6;
	v->covers_s = (double)(point_ns - hdr->start_ns) / 1e9;
	v->warmup_s = t->warmup_end_ns
			      ? (double)(t->warmup_end_ns - hdr->start_ns) / 1e9
			      : 0;
	v->measured_s = t->phase == TICKS_EXECUTE && end > t->phase_start
				? (double)(end - t->phase_start) / 1e9
				: 0;
	v->throughput = t->printed_exec ? t->last_tput
			: v->measured_s > 0
				? 1e-6 * (double)bytes / v->measured_s
				: 0;
	v->max_latency_ms = (double)t->worst_ns / 1e6;
	v->cfg.nclients = t->all_clients;
	v->cfg.nprocs = t->coord ? t->coord->nprocs : t->cfg->nprocs;
	if (wd)
		watchdog_copy(wd, now, &v->stalls);
	if (!gmtime_r(&wall, &tm) ||
	    !strftime(ck->when, sizeof(ck->when), "%Y-%m-%dT%H:%M:%SZ", &tm))
		ck->when[0] = '\0';
	return 0;
}

void ckpt_offer(struct checkpoint *ck, const struct ticks *t,
		struct watchdog *wd, uint64_t now)
{
	const struct result *src;
	bool end;

	if (!ck || t->lost || (t->coord && t->coord->rank))
		return;
	src = t->coord ? t->run : t->res;
	end = t->cleanup && !ck->ended; /* the measured phase is whole */
	if (!src->npoints || (now < ck->next_ns && !end))
		return;
	if (pthread_mutex_trylock(&ck->lock))
		return; /* the thread renders the last one */
	if (stage(ck, t, wd, now)) { /* out of memory: the last one stays */
		pthread_mutex_unlock(&ck->lock);
		return;
	}
	ck->fresh = true;
	pthread_cond_signal(&ck->cond);
	pthread_mutex_unlock(&ck->lock);
	ck->ended = t->cleanup;
	ck->next_ns = now + ckpt_interval_ns(__atomic_load_n(&ck->cost_ns,
							     __ATOMIC_RELAXED));
}

void ckpt_stop(struct checkpoint *ck)
{
	if (!ck)
		return;
	pthread_mutex_lock(&ck->commit);
	ck->stopped = true;
	pthread_mutex_unlock(&ck->commit);
}

void ckpt_free(struct checkpoint *ck)
{
	if (!ck)
		return;
	ckpt_stop(ck);
	pthread_mutex_lock(&ck->lock);
	ck->quit = true;
	pthread_cond_signal(&ck->cond);
	pthread_mutex_unlock(&ck->lock);
	pthread_join(ck->thread, NULL);
	pthread_cond_destroy(&ck->cond);
	pthread_mutex_destroy(&ck->commit);
	pthread_mutex_destroy(&ck->lock);
	/* the description is borrowed: only what the stage owns */
	result_stalls_free(&ck->view->stalls);
	free(ck->view->points);
	free(ck->view);
	free(ck->path);
	free(ck);
}

uint64_t ckpt_written(const struct checkpoint *ck)
{
	return ck ? __atomic_load_n(&ck->written, __ATOMIC_RELAXED) : 0;
}

uint64_t ckpt_due_ns(const struct checkpoint *ck)
{
	return ck ? ck->next_ns : 0;
}
