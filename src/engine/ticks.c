/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ticks.c - the one-second tick of the parent: dbench 4.0's phase and
 * progress-line logic (docs/compat.md) and the time series.
 */
#include "ticks.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "deadline.h"
#include "result.h"
#include "shm.h"
#include "slotstats.h"
#include "ticks_impl.h"

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
	t->all_clients = cfg->nclients;
	t->cum_prev = calloc(1, sizeof(*t->cum_prev));
	t->cum_now = calloc(1, sizeof(*t->cum_now));
	t->sink = ss_sink_new(cfg->nclients);
	if (!t->cum_prev || !t->cum_now || !t->sink) {
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
	ss_sink_free(t->sink);
	free(t->final);
	free(t->gcum);
	free(t->gnow);
	free(t);
}

int ticks_coord(struct ticks *t, struct coord *co, struct result *run)
{
	t->coord = co;
	t->run = run;
	t->all_clients = co->nclients;
	t->gcum = calloc(1, sizeof(*t->gcum));
	t->gnow = calloc(1, sizeof(*t->gnow));
	return t->gcum && t->gnow ? 0 : -1;
}

const struct stats *ticks_run_stats(const struct ticks *t)
{
	return t->gcum;
}

static struct client_slot *slot(const struct ticks *t, int id)
{
	return &t->shm->slot[id];
}

const struct stats *ticks_final(struct ticks *t)
{
	if (!t->final_done) {
		if (!t->final)
			t->final = calloc(1, sizeof(*t->final));
		if (!t->final)
			return NULL;
		ss_final(t->sink, t->shm, t->shm->hdr.gen, t->final);
		t->final_done = true;
	}
	return t->final;
}

/*
 * Take the maximum a client keeps at @p since the last take (0 after).
 * Most are 0 at a tick (a client of 10000 ends few ops a second), and a
 * plain load leaves that cache line shared, where the exchange takes it
 * from the client each time; a value the client stores after the load
 * stays for the next take, as one stored after an exchange would.
 */
static uint64_t take_max(volatile uint64_t *p)
{
	if (!__atomic_load_n(p, __ATOMIC_RELAXED))
		return 0;
	return __atomic_exchange_n(p, 0, __ATOMIC_RELAXED);
}

/* Read a byte at @p: its page is in this process's page table after */
static void touch(const volatile void *p)
{
	(void)*(const volatile char *)p;
}

void ticks_prepare(struct ticks *t)
{
	int gens = t->cfg->warmup > 0 ? SS_GENS : 1;

	for (int i = 0; i < t->cfg->nclients; i++) {
		struct client_slot *s = slot(t, i);

		ss_add_counters(t->cum_now, &s->st, true);
		/* what a drain reads of a client that recorded: its heads,
		 * dirty bits and chunk numbers, and its pool's first page,
		 * where its first chunks go */
		for (int g = 0; g < gens; g++) {
			struct ss_gen *gn = shm_gen(t->shm, i, g);

			touch(&gn->h[0]);
			touch(&gn->dirty[0]);
			touch(&gn->chunk[0][0]);
			touch(shm_pool(t->shm, i, g));
		}
	}
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
	t->run_point_ns = now;
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

/* The cleanup line: @c holds the clients not cleaned up and (for
 * --machine-readable) the lines and bytes done, of every host. */
static void print_cleanup(struct ticks *t, double secs,
			  const struct coord_ctl *c)
{
	const struct config *cfg = t->cfg;
	int not_done = (int)c->not_done;

	if (cfg->machine)
		/* later dbench: active, lines per client, MB/s, s, 0 */
		fprintf(t->out, "@C@%d@%" PRIu64 "@%.2f@%u@%.03f@\n", not_done,
			c->lines / (uint64_t)t->all_clients,
			secs > 0 ? 1e-6 * (double)c->bytes / secs : 0.0,
			(unsigned int)secs, 0.0);
	else
		fprintf(t->out, "%4d  cleanup %3.0f sec\n", not_done, secs);
}

/* The response figures of interval @p from the cumulative statistics at
 * its end @a and start @b and the exact maxima @max (@d: scratch). */
static void resp_figs(struct hist *d, const struct stats *a,
		      const struct stats *b, const uint64_t *max,
		      struct result_point *p)
{
	for (int o = 0; o < OP_NR; o++) {
		hist_sub(d, &a->resp[o], &b->resp[o]);
		d->max = max[o];
		p->resp_max_ns[o] = max[o];
		p->resp_count[o] = d->count;
		p->resp_p99_ns[o] = hist_value_at(d, 99);
		p->late[o] = a->late[o] > b->late[o] ? a->late[o] - b->late[o]
						     : 0;
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
			uint64_t m = take_max(&s->tick_resp_max[o]);

			if (m > p->resp_max_ns[o])
				p->resp_max_ns[o] = m;
		}
	}
	resp_figs(&t->d, t->cum_now, t->cum_prev, p->resp_max_ns, p);
}

/* Rank 0 of a run across hosts: the run's point at @now from every
 * host's figures @f and cumulative statistics (the sums of the reduction;
 * the other ranks only send theirs). */
static void run_point(struct ticks *t, uint64_t now, struct coord_fig *f)
{
	struct result_point p = {
		.t = (double)(now - t->shm->hdr.start_ns) / 1e9,
		.dur = (double)(now - t->run_point_ns) / 1e9,
		.warmup = t->phase == TICKS_WARMUP,
	};
	struct stats *tmp;

	memcpy(t->gnow, t->cum_prev, sizeof(*t->gnow)); /* this host's */
	if (coord_reduce(t->coord, f, t->gnow)) {
		ticks_lose(t);
		return;
	}
	if (t->coord->rank)
		return;
	p.lines = f->lines - t->gprev_lines;
	p.bytes = f->bytes > t->gprev_bytes ? f->bytes - t->gprev_bytes : 0;
	p.latency_ms = (double)f->lat / 1e6;
	for (int o = 0; o < OP_NR; o++) {
		hist_sub(&t->d, &t->gnow->op[o], &t->gcum->op[o]);
		t->d.max = f->op_max[o];
		p.count[o] = t->d.count;
		p.max_ns[o] = f->op_max[o];
		p.p99_ns[o] = hist_value_at(&t->d, 99);
	}
	if (t->gnow->nresp || t->gcum->nresp)
		resp_figs(&t->d, t->gnow, t->gcum, f->resp_max, &p);
	tmp = t->gcum;
	t->gcum = t->gnow;
	t->gnow = tmp;
	t->gprev_lines = f->lines;
	t->gprev_bytes = f->bytes;
	t->run_point_ns = now;
	result_add_point(t->run, &p);
}

/* The counters of @st that a point sums afresh (ss_add_counters). */
static void series_counters_zero(struct stats *st)
{
	memset(st->errors, 0, sizeof(st->errors));
	memset(st->bytes, 0, sizeof(st->bytes));
	memset(st->not_run, 0, sizeof(st->not_run));
	st->nresp = 0;
	memset(st->late, 0, sizeof(st->late));
	memset(st->late_max, 0, sizeof(st->late_max));
}

/* Add one interval to the time series: the lines and bytes done (@f),
 * dbench's latency figure, and per op the count, exact max and p99 of the
 * calls that ended in it (from the difference of the merged cumulative
 * histograms of the clients).  Across hosts, rank 0 then makes the run's
 * point, and @f becomes the run's figures there. */
static void add_point(struct ticks *t, uint64_t now, struct coord_fig *f)
{
	struct result_point p = {
		.t = (double)(now - t->shm->hdr.start_ns) / 1e9,
		.dur = (double)(now - t->prev_point_ns) / 1e9,
		.warmup = t->phase == TICKS_WARMUP,
		.lines = f->lines - t->prev_lines,
		.bytes = f->bytes > t->prev_bytes ? f->bytes - t->prev_bytes
						  : 0,
		.latency_ms = (double)f->lat / 1e6,
	};
	struct stats *tmp;

	/* the histograms: what changed since the last point (the series
	 * leaves the own latencies out); the counters: summed afresh */
	ss_drain_series(t->sink, t->shm, t->shm->hdr.gen);
	memcpy(t->cum_now->op, t->sink->acc->op, sizeof(t->cum_now->op));
	memcpy(t->cum_now->resp, t->sink->acc->resp,
	       sizeof(t->cum_now->resp));
	series_counters_zero(t->cum_now);
	for (int i = 0; i < t->cfg->nclients; i++) {
		struct client_slot *s = slot(t, i);

		for (int o = 0; o < OP_NR; o++) {
			uint64_t m = take_max(&s->tick_op_max[o]);

			if (m > p.max_ns[o])
				p.max_ns[o] = m;
		}
		if (s->gen == t->shm->hdr.gen)
			ss_add_counters(t->cum_now, &s->st, false);
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
	t->prev_lines = f->lines;
	t->prev_bytes = f->bytes;
	t->prev_point_ns = now;
	result_add_point(t->res, &p);
	if (t->coord && !t->lost) {
		memcpy(f->op_max, p.max_ns, sizeof(f->op_max));
		memcpy(f->resp_max, p.resp_max_ns, sizeof(f->resp_max));
		run_point(t, now, f);
	}
}

/* Sum the clients' lines and (this phase's) bytes, and take dbench's
 * latency figure: the longest op that ended since the last tick, or the
 * age of one still running; active: how many clients have done I/O. */
static void sample(struct ticks *t, uint64_t now, struct coord_fig *f)
{
	memset(f, 0, sizeof(*f));
	for (int i = 0; i < t->cfg->nclients; i++) {
		struct client_slot *s = slot(t, i);
		uint64_t m = take_max(&s->tick_max_ns);
		uint64_t start = s->last_start_ns;

		if (s->state == SLOT_RUNNING && start && now > start &&
		    now - start > m)
			m = now - start;
		if (m > f->lat)
			f->lat = m;
		f->lines += s->lines;
		if (s->gen == t->shm->hdr.gen)
			f->bytes += s->bytes;
		f->active += s->bytes != 0;
	}
}

/* The warmup ended at @now, its deadline (the tick that sees it may come
 * later): count afresh from there (no line printed).  The clients moved
 * to the new generation by themselves at the deadline. */
static void end_warmup(struct ticks *t, uint64_t now)
{
	struct shm_hdr *hdr = &t->shm->hdr;
	struct coord_fig f;

	/* the last part of the warmup gets its point (dbench prints no
	 * line for it), so the series loses no second */
	sample(t, now, &f);
	add_point(t, now, &f);
	t->phase = TICKS_EXECUTE;
	t->phase_start = now;
	t->worst_ns = 0;
	t->last_tput = 0;
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
	if (t->gcum) {
		memset(t->gcum, 0, sizeof(*t->gcum));
		t->gprev_bytes = 0;
	}
}

/* The clients were told to stop (or all left, or the end of the run came)
 * at @now: the measured phase ends, and its last, partial interval gets
 * its point.  Never after the deadline: no op starts after it. */
static void begin_cleanup(struct ticks *t, uint64_t now)
{
	struct coord_fig f;

	if (now > t->shm->hdr.end_ns)
		now = t->shm->hdr.end_ns;
	t->cleanup = true;
	t->end_ns = now;
	sample(t, now, &f);
	add_point(t, now, &f);
	t->close_lat = f.lat;
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
static void overrun(struct ticks *t, uint64_t now, const struct coord_ctl *c)
{
	const struct shm_hdr *hdr = &t->shm->hdr;
	uint64_t end, over, lat;
	struct coord_fig f;

	/* decided on what the hosts agreed (@c), so that all decide alike */
	if (t->phase != TICKS_EXECUTE ||
	    (c->stop != STOP_NONE && c->stop != STOP_TIME) ||
	    c->over_ns < NSEC_PER_SEC)
		return;
	end = hdr->end_ns + c->over_ns;
	if (end > now) {
		if (!t->coord)
			return;
		end = now; /* another host's clock: this one is a bit behind */
	}
	ticks_over_figs(t, &over, &lat);
	sample(t, end, &f);
	if (f.lat < lat)
		f.lat = lat;
	t->over_end_ns = end;
	add_point(t, end, &f);
	t->over_lat = f.lat;
}

bool ticks_tick(struct ticks *t, uint64_t now)
{
	const struct config *cfg = t->cfg;
	struct shm_hdr *hdr = &t->shm->hdr;
	double secs = (double)(now - t->phase_start) / 1e9, mbs;
	struct coord_fig f;
	struct coord_ctl c;

	/* everything is decided on what the hosts agreed (one host: what
	 * it saw at the start of the tick), so that all decide alike.  The
	 * clients still to clean up are taken first, as dbench 4.0 does:
	 * the tick that ends the execute phase shows every one */
	if (t->lost)
		return false;
	ticks_ctl_take(t, now, &c);
	if (ticks_agree_ctl(t, &c))
		return false;
	if (t->phase == TICKS_WARMUP && !c.stop && c.warm_past) {
		end_warmup(t, hdr->warmup_end_ns);
		return true;
	}
	/* the clients stop by themselves at the deadline; the flag is for
	 * the record, and for a client that is not in an op */
	if (t->phase == TICKS_EXECUTE && !c.stop && c.end_past) {
		shm_set_stop(t->shm, STOP_TIME);
		c.stop = t->ctl.stop = STOP_TIME;
	}
	if (c.stop && !t->cleanup)
		begin_cleanup(t, now);
	if (c.early || t->lost)
		return false;
	if (t->cleanup) {
		/* the line with 0 is ticks_end's alone: a tick between the
		 * last clean-up and the exit of the processes would print
		 * it twice */
		if (c.not_done)
			print_cleanup(t, secs, &c);
		return false;
	}
	sample(t, now, &f);
	add_point(t, now, &f); /* the run's figures from here on */
	if (t->lost)
		return false;
	mbs = 1e-6 * (double)f.bytes / secs;
	/* the figures of the phase (end_warmup starts them afresh) */
	if (f.lat > t->worst_ns)
		t->worst_ns = f.lat;
	t->last_tput = mbs;
	if (t->phase == TICKS_EXECUTE) {
		t->printed_exec = true;
		f.active = (uint64_t)t->all_clients;
	} else {
		t->printed_warm = true;
	}
	if (cfg->machine)
		fprintf(t->out, "@%c@%d@%" PRIu64 "@%.2f@%u@%.03f@\n",
			t->phase == TICKS_EXECUTE ? 'R' : 'W', (int)f.active,
			f.lines / (uint64_t)t->all_clients, mbs,
			(unsigned int)secs, (double)f.lat / 1e6);
	else
		/* dbench's "%8d", without its int overflow on long runs */
		fprintf(t->out,
			"%4d  %8" PRIu64 "  %7.2f MB/sec  %s %3.0f sec  "
			"latency %.03f ms\n",
			(int)f.active, f.lines / (uint64_t)t->all_clients, mbs,
			t->phase == TICKS_EXECUTE ? "execute" : "warmup", secs,
			(double)f.lat / 1e6);
	return false;
}

void ticks_end(struct ticks *t, uint64_t now)
{
	struct coord_ctl c;

	ticks_ctl_take(t, now, &c);
	if (t->lost || ticks_agree_ctl(t, &c)) {
		/* alone: this host's last line, the run's figures end at
		 * its last point (ticks_lose()) */
		print_cleanup(t, (double)(now - t->phase_start) / 1e9, &c);
		return;
	}
	/* every client left before a tick saw it (--run-once, or the
	 * deadlines passed while the parent waited for the CPU): the phases
	 * end at their deadlines, or here */
	if (t->phase == TICKS_WARMUP && !c.stop && c.warm_past)
		end_warmup(t, t->shm->hdr.warmup_end_ns);
	if (!t->cleanup)
		begin_cleanup(t, now);
	overrun(t, now, &c);
	print_cleanup(t, (double)(now - t->phase_start) / 1e9, &c);
}

void ticks_fill(const struct ticks *t, struct result *res, uint64_t bytes)
{
	const struct shm_hdr *hdr = &t->shm->hdr;
	double warm_s = 0;

	if (t->warmup_end_ns)
		res->warmup_s = (double)(t->warmup_end_ns - hdr->start_ns) / 1e9;
	if (t->phase == TICKS_EXECUTE && t->end_ns > t->phase_start)
		res->measured_s = (double)(t->end_ns - t->phase_start) / 1e9;
	/* stopped in the warmup: the figures are the warmup's, as are the
	 * tables ("the figures below are of the warmup"), by the rules of
	 * the execute phase's */
	if (t->phase == TICKS_WARMUP && t->end_ns > t->phase_start &&
	    !t->printed_warm)
		warm_s = (double)(t->end_ns - t->phase_start) / 1e9;
	res->throughput = t->last_tput;
	if (!t->printed_exec && res->measured_s > 0)
		res->throughput = 1e-6 * (double)bytes / res->measured_s;
	else if (warm_s > 0)
		res->throughput = 1e-6 * (double)bytes / warm_s;
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
