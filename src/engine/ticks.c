/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ticks.c - the one-second tick of the parent: dbench 4.0's phase and
 * progress-line logic (dbench-compat.md §3.3, §3.6) and the time series.
 */
#include "ticks.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "deadline.h"
#include "result.h"
#include "shm.h"

struct ticks *ticks_new(const struct config *cfg, struct shm *shm,
			struct result *res, FILE *out)
{
	struct ticks *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->cfg = cfg;
	t->shm = shm;
	t->res = res;
	t->out = out;
	t->cum_prev = calloc(1, sizeof(*t->cum_prev));
	t->cum_now = calloc(1, sizeof(*t->cum_now));
	if (!t->cum_prev || !t->cum_now) {
		ticks_free(t);
		return NULL;
	}
	return t;
}

void ticks_free(struct ticks *t)
{
	if (!t)
		return;
	free(t->cum_prev);
	free(t->cum_now);
	free(t);
}

static struct client_slot *slot(const struct ticks *t, int id)
{
	return &t->shm->slot[id];
}

void ticks_prepare(struct ticks *t)
{
	for (int i = 0; i < t->cfg->nclients; i++)
		stats_add(t->cum_now, &slot(t, i)->st);
	memset(t->cum_now, 0, sizeof(*t->cum_now));
}

void ticks_release(struct ticks *t, uint64_t now)
{
	struct deadlines d =
		deadline_plan(now, t->cfg->warmup, t->cfg->timelimit);

	t->shm->hdr.start_ns = now;
	t->shm->hdr.warmup_end_ns = d.warmup_end;
	t->shm->hdr.end_ns = d.end;
	t->phase_start = now;
	t->prev_point_ns = now; /* the first point's start */
	t->phase = t->cfg->warmup > 0 ? TICKS_WARMUP : TICKS_EXECUTE;
}

void ticks_passes(struct ticks *t)
{
	for (int i = 0; i < t->cfg->nclients; i++) {
		struct client_slot *s = slot(t, i);
		uint64_t head =
			__atomic_load_n(&s->pass_head, __ATOMIC_ACQUIRE);

		while (s->pass_tail < head) {
			struct pass_rec *p = &s->pass[s->pass_tail % PASS_RING];

			fprintf(t->out, "%4d completed in %u ms at time %u ms\n",
				i, p->ms, p->at_ms);
			s->pass_tail++;
		}
	}
}

/* Clients whose tree is not cleaned up yet. */
static int clients_not_done(const struct ticks *t)
{
	int n = 0;

	for (int i = 0; i < t->cfg->nclients; i++)
		n += !slot(t, i)->cleaned;
	return n;
}

static void print_cleanup(struct ticks *t, double secs, int not_done)
{
	const struct config *cfg = t->cfg;

	if (cfg->machine) {
		/* later dbench: active, lines per client, MB/s, s, 0 */
		uint64_t lines = 0, bytes = 0;

		for (int i = 0; i < cfg->nclients; i++) {
			lines += slot(t, i)->lines;
			if (slot(t, i)->gen == t->shm->hdr.gen)
				bytes += slot(t, i)->bytes;
		}
		fprintf(t->out, "@C@%d@%" PRIu64 "@%.2f@%u@%.03f@\n", not_done,
			lines / (uint64_t)cfg->nclients,
			secs > 0 ? 1e-6 * (double)bytes / secs : 0.0,
			(unsigned int)secs, 0.0);
	} else {
		fprintf(t->out, "%4d  cleanup %3.0f sec\n", not_done, secs);
	}
}

/* The response times of a paced run's interval: per op, the count, the
 * exact max (the clients' tick_resp_max) and p99 of those that ended in
 * it, and its late starts. */
static void add_resp(struct ticks *t, struct result_point *p)
{
	for (int i = 0; i < t->cfg->nclients; i++) {
		struct client_slot *s = slot(t, i);

		for (int o = 0; o < OP_NR; o++) {
			uint64_t m = __atomic_exchange_n(&s->tick_resp_max[o],
							 0, __ATOMIC_RELAXED);

			if (m > p->resp_max_ns[o])
				p->resp_max_ns[o] = m;
		}
	}
	for (int o = 0; o < OP_NR; o++) {
		const struct stats *a = t->cum_now, *b = t->cum_prev;

		hist_sub(&t->d, &a->resp[o], &b->resp[o]);
		t->d.max = p->resp_max_ns[o];
		p->resp_count[o] = t->d.count;
		p->resp_p99_ns[o] = hist_value_at(&t->d, 99);
		p->late[o] = a->late[o] > b->late[o] ? a->late[o] - b->late[o]
						     : 0;
	}
}

/* Add one interval to the time series: lines and bytes done, dbench's
 * latency figure @lat, and per op the count, exact max and p99 of the
 * calls that ended in it (from the difference of the merged cumulative
 * histograms of the clients). */
static void add_point(struct ticks *t, uint64_t now, uint64_t lines,
		      uint64_t bytes, uint64_t lat)
{
	struct result_point p = {
		.t = (double)(now - t->shm->hdr.start_ns) / 1e9,
		.dur = (double)(now - t->prev_point_ns) / 1e9,
		.warmup = t->phase == TICKS_WARMUP,
		.lines = lines - t->prev_lines,
		.bytes = bytes > t->prev_bytes ? bytes - t->prev_bytes : 0,
		.latency_ms = (double)lat / 1e6,
	};
	struct stats *tmp;

	memset(t->cum_now, 0, sizeof(*t->cum_now));
	for (int i = 0; i < t->cfg->nclients; i++) {
		struct client_slot *s = slot(t, i);

		for (int o = 0; o < OP_NR; o++) {
			uint64_t m = __atomic_exchange_n(&s->tick_op_max[o], 0,
							 __ATOMIC_RELAXED);

			if (m > p.max_ns[o])
				p.max_ns[o] = m;
		}
		if (s->gen == t->shm->hdr.gen)
			stats_add(t->cum_now, &s->st);
	}
	for (int o = 0; o < OP_NR; o++) {
		hist_sub(&t->d, &t->cum_now->op[o], &t->cum_prev->op[o]);
		t->d.max = p.max_ns[o];
		p.count[o] = t->d.count;
		p.p99_ns[o] = hist_value_at(&t->d, 99);
	}
	if (t->cum_now->nresp || t->cum_prev->nresp)
		add_resp(t, &p);
	tmp = t->cum_prev;
	t->cum_prev = t->cum_now;
	t->cum_now = tmp;
	t->prev_lines = lines;
	t->prev_bytes = bytes;
	t->prev_point_ns = now;
	result_add_point(t->res, &p);
}

/* Sum the clients' lines and (this phase's) bytes, and take dbench's
 * latency figure: the longest op that ended since the last tick, or the
 * age of one still running.  Returns how many clients have done I/O. */
static int sample(struct ticks *t, uint64_t now, uint64_t *lines,
		  uint64_t *bytes, uint64_t *lat)
{
	int active = 0;

	*lines = *bytes = *lat = 0;
	for (int i = 0; i < t->cfg->nclients; i++) {
		struct client_slot *s = slot(t, i);
		uint64_t m = __atomic_exchange_n(&s->tick_max_ns, 0,
						 __ATOMIC_RELAXED);
		uint64_t start = s->last_start_ns;

		if (s->state == SLOT_RUNNING && start && now > start &&
		    now - start > m)
			m = now - start;
		if (m > *lat)
			*lat = m;
		*lines += s->lines;
		if (s->gen == t->shm->hdr.gen)
			*bytes += s->bytes;
		active += s->bytes != 0;
	}
	return active;
}

/* The warmup ended at @now, its deadline (the tick that sees it may come
 * later): count afresh from there (no line printed).  The clients moved
 * to the new generation by themselves at the deadline. */
static void end_warmup(struct ticks *t, uint64_t now)
{
	struct shm_hdr *hdr = &t->shm->hdr;
	uint64_t lines, bytes, lat;

	/* the last part of the warmup gets its point (dbench prints no
	 * line for it), so the series loses no second */
	sample(t, now, &lines, &bytes, &lat);
	add_point(t, now, lines, bytes, lat);
	t->phase = TICKS_EXECUTE;
	t->phase_start = now;
	t->worst_ns = 0;
	t->warmup_end_ns = now;
	__atomic_add_fetch(&hdr->gen, 1, __ATOMIC_SEQ_CST);
	for (int i = 0; i < t->cfg->nclients; i++) {
		struct client_slot *sl = slot(t, i);

		__atomic_exchange_n(&sl->tick_max_ns, 0, __ATOMIC_RELAXED);
		for (int o = 0; o < OP_NR; o++) {
			__atomic_exchange_n(&sl->tick_op_max[o], 0,
					    __ATOMIC_RELAXED);
			__atomic_exchange_n(&sl->tick_resp_max[o], 0,
					    __ATOMIC_RELAXED);
		}
	}
	/* the series counts the execute phase's ops and bytes from zero;
	 * its lines go on from the count just sampled (reading the slots
	 * again here would lose the lines done in between) */
	memset(t->cum_prev, 0, sizeof(*t->cum_prev));
	t->prev_bytes = 0;
}

/* The clients were told to stop (or all left, or the end of the run came)
 * at @now: the measured phase ends, and its last, partial interval gets
 * its point.  Never after the deadline: no op starts after it. */
static void begin_cleanup(struct ticks *t, uint64_t now)
{
	uint64_t lines, bytes, lat;

	if (now > t->shm->hdr.end_ns)
		now = t->shm->hdr.end_ns;
	t->cleanup = true;
	t->end_ns = now;
	sample(t, now, &lines, &bytes, &lat);
	t->close_lat = lat;
	add_point(t, now, lines, bytes, lat);
}

/*
 * Every client has left at @now.  The op a client had in flight at the
 * deadline ran to its end and counts in the execute phase (deadline.h),
 * so the phase really ended with the last of them.  That is a matter of
 * microseconds, which dbench's figures leave out with the rest of the last
 * partial second; but clients stuck a second or more past the end (all of
 * them 4.15 s in jbd2_log_wait_commit in a -t 3 run, issue 13) would be
 * missing from the Throughput line and max_latency while the table holds
 * them.  Then the phase ends at the last client's end: the ops that ran
 * on get a point of the series, and ticks_fill() covers them.
 */
static void overrun(struct ticks *t, uint64_t now)
{
	const struct shm_hdr *hdr = &t->shm->hdr;
	uint64_t end = 0, lat = 0, lines, bytes, l;

	if (t->phase != TICKS_EXECUTE ||
	    (hdr->stop != STOP_NONE && hdr->stop != STOP_TIME))
		return;
	for (int i = 0; i < t->cfg->nclients; i++) {
		const struct client_slot *s = slot(t, i);
		uint64_t e = s->exec_end_ns;

		if (e > end)
			end = e;
		/* how long its last line ran, if it ran past the end */
		if (e > hdr->end_ns && s->last_start_ns &&
		    s->last_start_ns <= hdr->end_ns &&
		    e - s->last_start_ns > lat)
			lat = e - s->last_start_ns;
	}
	if (end < hdr->end_ns + NSEC_PER_SEC || end > now)
		return;
	sample(t, end, &lines, &bytes, &l);
	if (l > lat)
		lat = l;
	t->over_end_ns = end;
	t->over_lat = lat;
	add_point(t, end, lines, bytes, lat);
}

bool ticks_tick(struct ticks *t, uint64_t now)
{
	const struct config *cfg = t->cfg;
	struct shm_hdr *hdr = &t->shm->hdr;
	double secs = (double)(now - t->phase_start) / 1e9, mbs;
	uint64_t lat, bytes, lines;
	/* taken first, as dbench 4.0 does: the tick that ends the execute
	 * phase shows every client still to clean up */
	int not_done = clients_not_done(t), active;

	if (t->phase == TICKS_WARMUP && !hdr->stop &&
	    deadline_past(now, hdr->warmup_end_ns)) {
		end_warmup(t, hdr->warmup_end_ns);
		return true;
	}
	/* the clients stop by themselves at the deadline; the flag is for
	 * the record, and for a client that is not in an op */
	if (t->phase == TICKS_EXECUTE && !hdr->stop &&
	    deadline_past(now, hdr->end_ns))
		shm_set_stop(t->shm, STOP_TIME);
	if (hdr->stop && !t->cleanup)
		begin_cleanup(t, now);
	if (secs < 1)
		return false;
	if (t->cleanup) {
		/* the line with 0 is ticks_end's alone: a tick between the
		 * last clean-up and the exit of the processes would print
		 * it twice */
		if (not_done)
			print_cleanup(t, secs, not_done);
		return false;
	}
	active = sample(t, now, &lines, &bytes, &lat);
	mbs = 1e-6 * (double)bytes / secs;
	if (t->phase == TICKS_EXECUTE) {
		if (lat > t->worst_ns)
			t->worst_ns = lat;
		t->last_tput = mbs;
		t->printed_exec = true;
		active = cfg->nclients;
	}
	add_point(t, now, lines, bytes, lat);
	if (cfg->machine)
		fprintf(t->out, "@%c@%d@%" PRIu64 "@%.2f@%u@%.03f@\n",
			t->phase == TICKS_EXECUTE ? 'R' : 'W', active,
			lines / (uint64_t)cfg->nclients, mbs,
			(unsigned int)secs, (double)lat / 1e6);
	else
		/* dbench's "%8d", without its int overflow on long runs */
		fprintf(t->out,
			"%4d  %8" PRIu64 "  %7.2f MB/sec  %s %3.0f sec  "
			"latency %.03f ms\n",
			active, lines / (uint64_t)cfg->nclients, mbs,
			t->phase == TICKS_EXECUTE ? "execute" : "warmup", secs,
			(double)lat / 1e6);
	return false;
}

void ticks_end(struct ticks *t, uint64_t now)
{
	/* every client left before a tick saw it (--run-once, or the
	 * deadlines passed while the parent waited for the CPU): the phases
	 * end at their deadlines, or here */
	if (t->phase == TICKS_WARMUP && !t->shm->hdr.stop &&
	    deadline_past(now, t->shm->hdr.warmup_end_ns))
		end_warmup(t, t->shm->hdr.warmup_end_ns);
	if (!t->cleanup)
		begin_cleanup(t, now);
	overrun(t, now);
	print_cleanup(t, (double)(now - t->phase_start) / 1e9,
		      clients_not_done(t));
}

void ticks_fill(const struct ticks *t, struct result *res, uint64_t bytes)
{
	const struct shm_hdr *hdr = &t->shm->hdr;

	if (t->warmup_end_ns)
		res->warmup_s = (double)(t->warmup_end_ns - hdr->start_ns) / 1e9;
	if (t->phase == TICKS_EXECUTE && t->end_ns > t->phase_start)
		res->measured_s = (double)(t->end_ns - t->phase_start) / 1e9;
	res->throughput = t->last_tput;
	if (!t->printed_exec && res->measured_s > 0)
		res->throughput = 1e-6 * (double)bytes / res->measured_s;
	res->max_latency_ms = (double)t->worst_ns / 1e6;
	if (t->over_end_ns > t->phase_start) { /* see overrun() */
		uint64_t lat = t->worst_ns;

		if (t->close_lat > lat)
			lat = t->close_lat;
		if (t->over_lat > lat)
			lat = t->over_lat;
		res->throughput =
			1e-6 * (double)bytes /
			((double)(t->over_end_ns - t->phase_start) / 1e9);
		res->max_latency_ms = (double)lat / 1e6;
	}
}
