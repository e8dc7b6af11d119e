/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_ticks.c - the parent's one-second tick on a fake clock: phases,
 * dbench 4.0's progress and cleanup lines byte for byte, the latency
 * figure, Throughput and max_latency, the time series (a paced run's
 * response times in it too), --machine-readable and --show-execute-time,
 * and one host of a run across hosts (a fake coordinator of identical
 * hosts: summed lines, a stop of another host, hosts lost).  The
 * "clients" are slots this test writes the way a client does; time is
 * whatever the test says it is.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "clock.h"
#include "config.h"
#include "coord.h"
#include "result.h"
#include "shm.h"
#include "ticks.h"

#define T0 (1000 * NSEC_PER_SEC) /* the release, on the fake clock */
#define MS NSEC_PER_MSEC
#define S  NSEC_PER_SEC

struct fix {
	struct config cfg;
	struct shm *shm;
	struct result *res;
	struct ticks *t;
	char *buf;
	size_t len;
};

static struct fix *fix_new(int nclients, int timelimit, int warmup)
{
	struct fix *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->cfg.nprocs = nclients;
	f->cfg.cpp = 1;
	f->cfg.nclients = nclients;
	f->cfg.timelimit = timelimit;
	f->cfg.warmup = warmup;
	f->shm = shm_alloc(nclients);
	f->res = result_new();
	assert_non_null(f->shm);
	assert_non_null(f->res);
	f->t = ticks_new(&f->cfg, f->shm, f->res, open_memstream(&f->buf,
								 &f->len));
	assert_non_null(f->t);
	assert_non_null(f->t->out);
	for (int i = 0; i < nclients; i++)
		f->shm->slot[i].state = SLOT_RUNNING;
	ticks_release(f->t, T0);
	return f;
}

static void fix_free(struct fix *f)
{
	fclose(f->t->out);
	free(f->buf);
	ticks_free(f->t);
	result_free(f->res);
	shm_free(f->shm, f->cfg.nclients);
	free(f);
}

/* What was printed since the last call must be @want exactly. */
static void expect_out(struct fix *f, const char *want)
{
	fflush(f->t->out);
	if (strcmp(f->buf, want))
		fail_msg("printed:\n%s\nexpected:\n%s", f->buf, want);
	fclose(f->t->out);
	free(f->buf);
	f->buf = NULL;
	f->t->out = open_memstream(&f->buf, &f->len);
	assert_non_null(f->t->out);
}

/* Client @id did @lines more lines and moved @bytes more bytes, as the
 * client loop publishes them (adopting a new generation first). */
static void work(struct fix *f, int id, uint64_t lines, uint64_t bytes)
{
	struct client_slot *s = &f->shm->slot[id];

	if (s->gen != f->shm->hdr.gen) {
		ss_reset(&s->st);
		s->bytes = 0;
		s->gen = f->shm->hdr.gen;
	}
	s->lines += lines;
	s->bytes += bytes;
}

/* Client @id timed one @op call of @ns nanoseconds. */
static void call(struct fix *f, int id, enum op_type op, uint64_t ns)
{
	struct client_slot *s = &f->shm->slot[id];

	shm_record(f->shm, id, SS_HIST(SS_OP, op), ns);
	if (ns > s->tick_op_max[op])
		s->tick_op_max[op] = ns;
	if (ns > s->tick_max_ns)
		s->tick_max_ns = ns;
}

static void clean(struct fix *f, int id)
{
	f->shm->slot[id].state = SLOT_DONE;
	f->shm->slot[id].cleaned = 1;
}

/* The series is back to back from the release and holds @lines lines and
 * @bytes bytes in the points with warmup flag @warmup. */
static void expect_series(const struct fix *f, bool warmup, uint64_t lines,
			  uint64_t bytes)
{
	const struct result *r = f->res;
	uint64_t l = 0, b = 0;
	double end = 0;

	for (uint32_t i = 0; i < r->npoints; i++) {
		const struct result_point *p = &r->points[i];

		if (p->t - p->dur < end - 1e-9 || p->t - p->dur > end + 1e-9)
			fail_msg("point %u starts at %.9f, not at %.9f", i,
				 p->t - p->dur, end);
		end = p->t;
		if (p->warmup == warmup) {
			l += p->lines;
			b += p->bytes;
		}
	}
	assert_int_equal(l, lines);
	assert_int_equal(b, bytes);
}

/* -t 3 --warmup 2, one client: every line dbench 4.0 prints, in order. */
static void test_phases(void **state)
{
	struct fix *f = fix_new(1, 3, 2);
	uint64_t ps;

	(void)state;
	assert_false(ticks_tick(f->t, T0 + 500 * MS)); /* t < 1: silent */
	expect_out(f, "");

	work(f, 0, 100, 2000000);
	call(f, 0, OP_WRITEX, 1500 * NSEC_PER_USEC);
	assert_false(ticks_tick(f->t, T0 + S));
	expect_out(f, "   1       100     2.00 MB/sec  warmup   1 sec  "
		      "latency 1.500 ms\n");

	/* exactly 2 s is not past a 2 s warmup (dbench: t > warmup) */
	work(f, 0, 100, 2000000);
	assert_false(ticks_tick(f->t, T0 + 2 * S));
	expect_out(f, "   1       200     2.00 MB/sec  warmup   2 sec  "
		      "latency 0.000 ms\n");

	/* past it: the execute phase starts at the deadline, not at the
	 * (late) tick that sees it; nothing is printed */
	work(f, 0, 50, 1000000);
	ps = T0 + 2 * S;
	assert_true(ticks_tick(f->t, ps + MS));
	expect_out(f, "");
	assert_int_equal(f->t->phase_start, ps);
	assert_int_equal(f->shm->hdr.gen, 1);
	assert_int_equal(f->shm->hdr.stop, STOP_NONE);

	/* the line counter is since the start, MB/s since the phase start */
	work(f, 0, 50, 1000000);
	assert_false(ticks_tick(f->t, ps + S));
	expect_out(f, "   1       300     1.00 MB/sec  execute   1 sec  "
		      "latency 0.000 ms\n");
	work(f, 0, 100, 2000000);
	call(f, 0, OP_RENAME, 9 * MS);
	assert_false(ticks_tick(f->t, ps + 2 * S));
	expect_out(f, "   1       400     1.50 MB/sec  execute   2 sec  "
		      "latency 9.000 ms\n");

	/* past the time limit: stop, and the first cleanup line counts the
	 * client that was running when the tick began */
	work(f, 0, 100, 1000000);
	assert_false(ticks_tick(f->t, ps + 3 * S + MS));
	assert_int_equal(f->shm->hdr.stop, STOP_TIME);
	expect_out(f, "   1  cleanup   3 sec\n");

	/* cleaned up, its process not yet reaped: the tick prints no line,
	 * so "0 cleanup" comes once, from ticks_end (it came twice) */
	clean(f, 0);
	assert_false(ticks_tick(f->t, ps + 4 * S));
	expect_out(f, "");
	ticks_end(f->t, ps + 4 * S + 600 * MS);
	/* %3.0f rounds: 4.6 s after the phase start reads "5 sec" */
	expect_out(f, "   0  cleanup   5 sec\n");

	/* the phases end at their deadlines, whenever the ticks came */
	ticks_fill(f->t, f->res, 4000000);
	assert_true(f->res->warmup_s > 1.999999 && f->res->warmup_s < 2.000001);
	assert_true(f->res->measured_s > 2.999999 &&
		    f->res->measured_s < 3.000001);
	/* Throughput is the last execute line's figure, max_latency the
	 * largest latency an execute line printed */
	assert_true(f->res->throughput == 1.5);
	assert_true(f->res->max_latency_ms == 9.0);

	/* every line and byte is in the series once: the warmup's 250 lines
	 * (the 50 of its last part included), the execute phase's 250 */
	expect_series(f, true, 250, 5000000);
	expect_series(f, false, 250, 4000000);
	fix_free(f);
}

/* A parent that got no CPU for seconds (far more busy clients than CPUs):
 * the clients ended the warmup and the run at the deadlines by themselves,
 * and the phases are those deadlines, not the times of the late ticks. */
static void test_late_parent(void **state)
{
	struct fix *f = fix_new(1, 3, 2);

	(void)state;
	assert_int_equal(f->shm->hdr.warmup_end_ns, T0 + 2 * S);
	assert_int_equal(f->shm->hdr.end_ns, T0 + 5 * S);
	work(f, 0, 10, 1000000);
	assert_false(ticks_tick(f->t, T0 + S));
	expect_out(f, "   1        10     1.00 MB/sec  warmup   1 sec  "
		      "latency 0.000 ms\n");
	/* the next tick comes 7 s late, after both deadlines; the client
	 * is gone: the warmup ended at 2 s and the run at 5 s */
	f->shm->slot[0].gen = 1; /* it moved to the measured phase at 2 s */
	f->shm->slot[0].bytes = 3000000;
	clean(f, 0);
	ticks_end(f->t, T0 + 12 * S);
	expect_out(f, "   0  cleanup  10 sec\n");
	assert_int_equal(f->t->phase_start, T0 + 2 * S);
	assert_int_equal(f->t->end_ns, T0 + 5 * S);
	ticks_fill(f->t, f->res, 3000000);
	assert_true(f->res->warmup_s == 2.0 && f->res->measured_s == 3.0);
	assert_true(f->res->throughput == 1.0);
	expect_series(f, false, 0, 3000000);
	fix_free(f);

	/* a late tick in the measured phase stops the run at its deadline */
	f = fix_new(1, 3, 0);
	work(f, 0, 10, 1000000);
	assert_false(ticks_tick(f->t, T0 + 2 * S));
	expect_out(f, "   1        10     0.50 MB/sec  execute   2 sec  "
		      "latency 0.000 ms\n");
	assert_false(ticks_tick(f->t, T0 + 9 * S));
	assert_int_equal(f->shm->hdr.stop, STOP_TIME);
	assert_int_equal(f->t->end_ns, T0 + 3 * S);
	expect_out(f, "   1  cleanup   9 sec\n");
	clean(f, 0);
	ticks_end(f->t, T0 + 9 * S + MS);
	expect_out(f, "   0  cleanup   9 sec\n");
	ticks_fill(f->t, f->res, 1000000);
	assert_true(f->res->measured_s == 3.0);
	fix_free(f);
}

/* Several cleanup ticks: the count falls as clients finish, one line a
 * second, and a single "0" line at the end. */
static void test_cleanup_lines(void **state)
{
	struct fix *f = fix_new(3, 1, 0);

	(void)state;
	work(f, 0, 10, 100);
	work(f, 1, 10, 100);
	work(f, 2, 10, 100);
	assert_false(ticks_tick(f->t, T0 + S));
	expect_out(f, "   3        10     0.00 MB/sec  execute   1 sec  "
		      "latency 0.000 ms\n");
	clean(f, 2); /* finished on its own (--run-once) before the stop */
	assert_false(ticks_tick(f->t, T0 + 2 * S));
	expect_out(f, "   2  cleanup   2 sec\n");
	clean(f, 0);
	assert_false(ticks_tick(f->t, T0 + 3 * S));
	expect_out(f, "   1  cleanup   3 sec\n");
	assert_false(ticks_tick(f->t, T0 + 4 * S));
	expect_out(f, "   1  cleanup   4 sec\n");
	clean(f, 1);
	ticks_end(f->t, T0 + 4 * S + 100 * MS);
	expect_out(f, "   0  cleanup   4 sec\n");
	fix_free(f);
}

/* dbench's latency figure: the longest gap since the last tick, or the
 * age of the line still running; only running clients have an age. */
static void test_latency_figure(void **state)
{
	struct fix *f = fix_new(2, 10, 0);
	uint64_t now = T0 + S;

	(void)state;
	work(f, 0, 1, 1);
	work(f, 1, 1, 1);
	f->shm->slot[0].tick_max_ns = 2 * MS;
	f->shm->slot[1].last_start_ns = now - 7 * MS;
	assert_false(ticks_tick(f->t, now));
	expect_out(f, "   2         1     0.00 MB/sec  execute   1 sec  "
		      "latency 7.000 ms\n");
	/* the maxima were taken: the next second starts from nothing, and a
	 * client that stopped running has no age */
	f->shm->slot[1].state = SLOT_CLEANUP;
	assert_false(ticks_tick(f->t, now + S));
	expect_out(f, "   2         1     0.00 MB/sec  execute   2 sec  "
		      "latency 0.000 ms\n");
	assert_int_equal(f->t->worst_ns, 7 * MS);
	fix_free(f);
}

/* In the warmup the first column counts the clients that did I/O. */
static void test_warmup_active(void **state)
{
	struct fix *f = fix_new(3, 5, 2);

	(void)state;
	work(f, 0, 5, 10);
	work(f, 1, 5, 0);
	assert_false(ticks_tick(f->t, T0 + S));
	expect_out(f, "   1         3     0.00 MB/sec  warmup   1 sec  "
		      "latency 0.000 ms\n");
	fix_free(f);
}

/* A signal in the warmup: cleanup lines, nothing measured, no
 * Throughput. */
static void test_interrupted_in_warmup(void **state)
{
	struct fix *f = fix_new(1, 10, 5);

	(void)state;
	work(f, 0, 100, 1000);
	shm_set_stop(f->shm, STOP_SIGNAL);
	shm_set_stop(f->shm, STOP_TIME); /* the first reason stays */
	assert_int_equal(f->shm->hdr.stop, STOP_SIGNAL);
	assert_false(ticks_tick(f->t, T0 + S));
	expect_out(f, "   1  cleanup   1 sec\n");
	clean(f, 0);
	ticks_end(f->t, T0 + S + MS);
	expect_out(f, "   0  cleanup   1 sec\n");
	/* no line was printed: the warmup's bytes over its time (1 s) */
	ticks_fill(f->t, f->res, 1000);
	assert_true(f->res->measured_s == 0);
	assert_true(f->res->warmup_s == 0);
	assert_true(f->res->throughput > 0.000999 &&
		    f->res->throughput < 0.001001);
	expect_series(f, true, 100, 1000);
	fix_free(f);
}

/*
 * Stopped after two warmup lines: the report says the figures are the
 * warmup's and prints its tables, so its last line has the warmup's
 * Throughput and max_latency (those of its lines), not 0 and 0.
 */
static void test_interrupted_in_warmup_figures(void **state)
{
	struct fix *f = fix_new(1, 10, 5);

	(void)state;
	work(f, 0, 100, 2000000);
	call(f, 0, OP_WRITEX, 3 * MS);
	assert_false(ticks_tick(f->t, T0 + S));
	expect_out(f, "   1       100     2.00 MB/sec  warmup   1 sec  "
		      "latency 3.000 ms\n");
	work(f, 0, 100, 4000000);
	call(f, 0, OP_WRITEX, 7 * MS);
	assert_false(ticks_tick(f->t, T0 + 2 * S));
	expect_out(f, "   1       200     3.00 MB/sec  warmup   2 sec  "
		      "latency 7.000 ms\n");
	work(f, 0, 10, 100000);
	call(f, 0, OP_WRITEX, 20 * MS); /* the last partial second */
	shm_set_stop(f->shm, STOP_SIGNAL);
	assert_false(ticks_tick(f->t, T0 + 2 * S + 500 * MS));
	expect_out(f, "   1  cleanup   2 sec\n");
	clean(f, 0);
	ticks_end(f->t, T0 + 2 * S + 600 * MS);
	expect_out(f, "   0  cleanup   3 sec\n");
	ticks_fill(f->t, f->res, 6100000);
	assert_true(f->res->measured_s == 0);
	/* the last line's MB/s and the largest latency of the lines, as
	 * the execute phase's figures are made */
	assert_true(f->res->throughput == 3.0);
	assert_true(f->res->max_latency_ms == 7.0);
	expect_series(f, true, 210, 6100000);
	fix_free(f);
}

/* --run-once: every client left before a tick; the end closes the phase,
 * the series gets the last interval, Throughput comes from the bytes. */
static void test_all_left_before_a_tick(void **state)
{
	struct fix *f = fix_new(2, 60, 0);

	(void)state;
	work(f, 0, 40, 3000000);
	work(f, 1, 40, 3000000);
	clean(f, 0);
	clean(f, 1);
	ticks_end(f->t, T0 + 300 * MS);
	expect_out(f, "   0  cleanup   0 sec\n");
	ticks_fill(f->t, f->res, 6000000);
	assert_true(f->res->measured_s > 0.2999 && f->res->measured_s < 0.3001);
	assert_true(f->res->throughput > 19.999 && f->res->throughput < 20.001);
	expect_series(f, false, 80, 6000000);
	fix_free(f);
}

/* The series: per op, the calls that ended in each second, their max
 * and p99, from the difference of the cumulative histograms. */
static void test_series_ops(void **state)
{
	struct fix *f = fix_new(2, 10, 0);
	const struct result_point *p;

	(void)state;
	work(f, 0, 1, 0);
	work(f, 1, 1, 0);
	for (int i = 0; i < 100; i++)
		call(f, i % 2, OP_RENAME, (uint64_t)(i + 1) * NSEC_PER_USEC);
	assert_false(ticks_tick(f->t, T0 + S));
	call(f, 1, OP_RENAME, 500 * MS);
	assert_false(ticks_tick(f->t, T0 + 2 * S));
	assert_int_equal(f->res->npoints, 2);
	p = &f->res->points[0];
	assert_int_equal(p->count[OP_RENAME], 100);
	assert_int_equal(p->max_ns[OP_RENAME], 100 * NSEC_PER_USEC);
	/* p99 of 1..100 us within the histogram's 1 % */
	assert_true(p->p99_ns[OP_RENAME] >= 98 * NSEC_PER_USEC &&
		    p->p99_ns[OP_RENAME] <= 101 * NSEC_PER_USEC);
	assert_true(p->t == 1.0 && p->dur == 1.0 && !p->warmup);
	p = &f->res->points[1];
	assert_int_equal(p->count[OP_RENAME], 1);
	assert_int_equal(p->max_ns[OP_RENAME], 500 * MS);
	assert_int_equal(p->count[OP_WRITEX], 0);
	fix_free(f);
}

/* Client @id, paced, timed one @op call of @svc ns that began @late ns
 * after it was due, as client.c records it. */
static void paced_call(struct fix *f, int id, enum op_type op, uint64_t svc,
		       uint64_t late)
{
	struct client_slot *s = &f->shm->slot[id];
	uint64_t r;

	call(f, id, op, svc);
	r = ss_record_resp(&s->st, shm_gen(f->shm, id, s->gen),
			   shm_pool(f->shm, id, s->gen), s->gen % SS_GENS, op, T0,
			   T0 + late, T0 + late + svc);
	if (r > s->tick_resp_max[op])
		s->tick_resp_max[op] = r;
}

/*
 * A paced run's series: per op and second, the response times that ended
 * in it (count, exact max, p99) and its late starts, beside the service
 * times; the warmup's end starts them afresh, as the service times.  An
 * unpaced run's points have none (test_series_ops: all zero).
 */
static void test_series_resp(void **state)
{
	struct fix *f = fix_new(2, 10, 1);
	const struct result_point *p;

	(void)state;
	work(f, 0, 1, 0);
	work(f, 1, 1, 0);
	paced_call(f, 0, OP_WRITEX, 1 * MS, 700 * MS); /* warmup */
	assert_true(ticks_tick(f->t, T0 + S + MS));    /* its end */
	work(f, 0, 1, 0);
	work(f, 1, 1, 0);
	for (int i = 0; i < 100; i++)
		paced_call(f, i % 2, OP_WRITEX, 1 * MS,
			   i < 20 ? (uint64_t)(500 - 20 * i) * MS : 0);
	assert_false(ticks_tick(f->t, T0 + 2 * S));
	paced_call(f, 1, OP_WRITEX, 1 * MS, 5 * MS);
	assert_false(ticks_tick(f->t, T0 + 3 * S));
	assert_int_equal(f->res->npoints, 3);
	p = &f->res->points[0];
	assert_true(p->warmup);
	assert_int_equal(p->resp_count[OP_WRITEX], 1);
	assert_int_equal(p->resp_max_ns[OP_WRITEX], 701 * MS);
	assert_int_equal(p->late[OP_WRITEX], 1);
	p = &f->res->points[1];
	assert_false(p->warmup);
	assert_int_equal(p->count[OP_WRITEX], 100);
	assert_int_equal(p->max_ns[OP_WRITEX], 1 * MS);
	assert_int_equal(p->resp_count[OP_WRITEX], 100);
	assert_int_equal(p->resp_max_ns[OP_WRITEX], 501 * MS);
	/* 20 of 100 began 120..500 ms late: p99 among them (~481 ms) */
	assert_true(p->resp_p99_ns[OP_WRITEX] >= 470 * MS &&
		    p->resp_p99_ns[OP_WRITEX] <= 490 * MS);
	assert_int_equal(p->late[OP_WRITEX], 20);
	assert_int_equal(p->late[OP_CLOSE], 0);
	p = &f->res->points[2];
	assert_int_equal(p->resp_count[OP_WRITEX], 1);
	assert_int_equal(p->resp_max_ns[OP_WRITEX], 6 * MS);
	assert_int_equal(p->late[OP_WRITEX], 0);
	fix_free(f);
}

static void test_machine_readable(void **state)
{
	struct fix *f = fix_new(2, 2, 1);
	uint64_t ps = T0 + S + MS;

	(void)state;
	f->cfg.machine = true;
	work(f, 0, 10, 1000000);
	work(f, 1, 20, 1000000);
	call(f, 1, OP_WRITEX, 3 * MS);
	assert_false(ticks_tick(f->t, T0 + S));
	expect_out(f, "@W@2@15@2.00@1@3.000@\n");
	assert_true(ticks_tick(f->t, ps));
	work(f, 0, 10, 500000);
	work(f, 1, 10, 500000);
	assert_false(ticks_tick(f->t, ps + S));
	expect_out(f, "@R@2@25@1.00@1@0.000@\n");
	assert_false(ticks_tick(f->t, ps + 2 * S));
	expect_out(f, "@C@2@25@0.50@2@0.000@\n");
	clean(f, 0);
	clean(f, 1);
	ticks_end(f->t, ps + 2 * S + 500 * MS);
	expect_out(f, "@C@0@25@0.40@2@0.000@\n");
	fix_free(f);
}

/* --show-execute-time: the passes a client queued, in order, once. */
static void test_passes(void **state)
{
	struct fix *f = fix_new(2, 10, 0);
	struct client_slot *s = &f->shm->slot[1];

	(void)state;
	s->pass[0] = (struct pass_rec){.ms = 12, .at_ms = 345};
	s->pass[1] = (struct pass_rec){.ms = 13, .at_ms = 358};
	s->pass_head = 2;
	ticks_passes(f->t);
	expect_out(f, "   1 completed in 12 ms at time 345 ms\n"
		      "   1 completed in 13 ms at time 358 ms\n");
	ticks_passes(f->t);
	expect_out(f, "");
	fix_free(f);
}

/* Every client stuck in one WriteX from 2.5 s to 4.15 s of a -t 3 run
 * (issue 13: jbd2_log_wait_commit): the ticks go on once a second, and
 * since the ops in flight at the end run to their end and count in the
 * execute phase (deadline.h), which thus lasted 4.15 s, the Throughput
 * line covers its bytes over those 4.15 s and max_latency the 1.65 s
 * lines, not just the last execute line's 2 s (issue 13 item 3). */
static void test_stuck_across_the_end(void **state)
{
	struct fix *f = fix_new(4, 3, 0);
	uint64_t stuck = T0 + 2500 * MS, end = T0 + 4150 * MS;

	(void)state;
	for (int i = 0; i < 4; i++) {
		work(f, i, 100, 10000000);
		call(f, i, OP_WRITEX, 2 * MS);
	}
	assert_false(ticks_tick(f->t, T0 + S));
	expect_out(f, "   4       100    40.00 MB/sec  execute   1 sec  "
		      "latency 2.000 ms\n");
	for (int i = 0; i < 4; i++) {
		work(f, i, 100, 10000000);
		call(f, i, OP_WRITEX, 3 * MS);
	}
	assert_false(ticks_tick(f->t, T0 + 2 * S));
	expect_out(f, "   4       200    40.00 MB/sec  execute   2 sec  "
		      "latency 3.000 ms\n");
	for (int i = 0; i < 4; i++) {
		work(f, i, 50, 5000000);
		f->shm->slot[i].last_start_ns = stuck; /* the WriteX */
	}
	assert_false(ticks_tick(f->t, T0 + 3 * S + MS));
	expect_out(f, "   4  cleanup   3 sec\n");
	assert_false(ticks_tick(f->t, T0 + 4 * S));
	expect_out(f, "   4  cleanup   4 sec\n");
	/* the WriteX calls end at 4.15 s, with 1 MB each */
	for (int i = 0; i < 4; i++) {
		work(f, i, 1, 1000000);
		call(f, i, OP_WRITEX, end - stuck);
		f->shm->slot[i].exec_end_ns = end;
		clean(f, i);
	}
	ticks_end(f->t, end + 50 * MS);
	expect_out(f, "   0  cleanup   4 sec\n");
	ticks_fill(f->t, f->res, 4 * 26000000);
	assert_true(f->res->measured_s == 3.0);
	/* 104 MB in 4.15 s, not the 2 s line's 40 MB/s */
	assert_true(f->res->throughput > 104 / 4.15 - 1e-9 &&
		    f->res->throughput < 104 / 4.15 + 1e-9);
	assert_true(f->res->max_latency_ms == 1650.0);
	/* the series has the stuck calls in a point that ends with them */
	expect_series(f, false, 4 * 251, 4 * 26000000);
	assert_true(f->res->points[f->res->npoints - 1].t == 4.15);
	assert_int_equal(f->res->points[f->res->npoints - 1].max_ns[OP_WRITEX],
			 end - stuck);
	fix_free(f);
}

/* An op in flight at the end that ends less than a second later (the
 * normal case, where ops take microseconds or milliseconds): dbench's
 * figures, the last execute line's MB/s and the largest latency of the
 * lines, which leave out the last partial second. */
static void test_end_normal(void **state)
{
	struct fix *f = fix_new(1, 2, 0);

	(void)state;
	work(f, 0, 100, 3000000);
	call(f, 0, OP_WRITEX, 5 * MS);
	assert_false(ticks_tick(f->t, T0 + S));
	expect_out(f, "   1       100     3.00 MB/sec  execute   1 sec  "
		      "latency 5.000 ms\n");
	work(f, 0, 100, 1000000);
	call(f, 0, OP_WRITEX, 40 * MS);
	f->shm->slot[0].last_start_ns = T0 + 2 * S - 10 * MS;
	assert_false(ticks_tick(f->t, T0 + 2 * S + MS));
	expect_out(f, "   1  cleanup   2 sec\n");
	work(f, 0, 1, 1000000);
	call(f, 0, OP_WRITEX, 999 * MS);
	f->shm->slot[0].exec_end_ns = T0 + 3 * S - 11 * MS;
	clean(f, 0);
	ticks_end(f->t, T0 + 3 * S);
	expect_out(f, "   0  cleanup   3 sec\n");
	ticks_fill(f->t, f->res, 5000000);
	assert_true(f->res->throughput == 3.0);
	assert_true(f->res->max_latency_ms == 5.0);
	fix_free(f);
}

/* ----------------------- a run across hosts --------------------------- */

/* A coordinator of @hosts hosts that each did exactly what this one did
 * (this one is rank 0); its @lose_at-th call is lost (0: none); with
 * @remote_fail, rank 1 has a failed client. */
struct fake {
	struct coord co;
	int hosts, calls, lose_at;
	bool remote_fail;
	struct stats one;
};

static int fake_agree(struct coord *co, struct coord_ctl *c)
{
	struct fake *fk = (struct fake *)co;
	struct coord_ctl one = *c, r;

	if (++fk->calls == fk->lose_at) {
		co->lost = true;
		return -1;
	}
	for (int i = 1; i < fk->hosts; i++)
		coord_ctl_add(c, &one);
	if (fk->remote_fail) {
		coord_ctl_init(&r);
		r.stop = STOP_FAILED;
		r.stop_rank = 1;
		coord_ctl_add(c, &r);
	}
	return 0;
}

static int fake_reduce(struct coord *co, struct coord_fig *f,
		       struct stats *st)
{
	struct fake *fk = (struct fake *)co;
	struct coord_fig one = *f;

	if (++fk->calls == fk->lose_at) {
		co->lost = true;
		return -1;
	}
	fk->one = *st;
	for (int i = 1; i < fk->hosts; i++) {
		coord_fig_add(f, &one);
		stats_add(st, &fk->one);
	}
	return 0;
}

static const struct coord_ops fake_ops = {
	.agree = fake_agree,
	.reduce = fake_reduce,
};

static struct fake *fake_new(struct fix *f, int hosts, struct result *run)
{
	struct fake *fk = calloc(1, sizeof(*fk));

	assert_non_null(fk);
	fk->co.ops = &fake_ops;
	fk->co.nranks = hosts;
	fk->co.nclients = hosts * f->cfg.nclients;
	fk->co.nprocs = hosts * f->cfg.nprocs;
	fk->hosts = hosts;
	assert_int_equal(ticks_coord(f->t, &fk->co, run), 0);
	return fk;
}

/* Two identical hosts of two clients each: rank 0 prints the run's
 * lines (lines per client of every client, every host's MB/s, every
 * client active), the run's series holds every host's calls, this
 * host's series its own; what the hosts agreed is known to all. */
static void test_two_hosts(void **state)
{
	struct fix *f = fix_new(2, 2, 0);
	struct result *run = result_new();
	struct fake *fk = fake_new(f, 2, run);

	(void)state;
	work(f, 0, 100, 2000000);
	work(f, 1, 100, 2000000);
	call(f, 0, OP_WRITEX, 1500 * NSEC_PER_USEC);
	f->t->alive = 2;
	assert_false(ticks_tick(f->t, T0 + S));
	expect_out(f, "   4       100     8.00 MB/sec  execute   1 sec  "
		      "latency 1.500 ms\n");
	assert_int_equal(f->t->alive, 4);
	assert_int_equal(run->npoints, 1);
	assert_int_equal(run->points[0].lines, 400);
	assert_int_equal(run->points[0].bytes, 8000000);
	assert_int_equal(run->points[0].count[OP_WRITEX], 2);
	assert_int_equal(run->points[0].max_ns[OP_WRITEX],
			 1500 * NSEC_PER_USEC);
	assert_int_equal(f->res->points[0].lines, 200);
	assert_int_equal(f->res->points[0].count[OP_WRITEX], 1);

	work(f, 0, 50, 1000000);
	assert_false(ticks_tick(f->t, T0 + 2 * S + MS));
	assert_int_equal(f->shm->hdr.stop, STOP_TIME);
	expect_out(f, "   4  cleanup   2 sec\n");
	clean(f, 0);
	clean(f, 1);
	ticks_end(f->t, T0 + 2 * S + 50 * MS);
	expect_out(f, "   0  cleanup   2 sec\n");
	ticks_fill(f->t, run, 10000000);
	assert_true(run->throughput == 8.0);
	assert_true(run->measured_s == 2.0);
	assert_int_equal(run->npoints, 2);
	assert_int_equal(run->points[1].lines, 100);
	assert_int_equal(run->points[1].bytes, 2000000);
	assert_int_equal(ticks_run_stats(f->t)->op[OP_WRITEX].count, 2);
	free(fk);
	result_free(run);
	fix_free(f);
}

/* A client of another host failed: this host's clients are stopped at the
 * tick that learns it, which begins the clean-up and names the rank. */
static void test_remote_failure(void **state)
{
	struct fix *f = fix_new(1, 10, 0);
	struct result *run = result_new();
	struct fake *fk = fake_new(f, 2, run);

	(void)state;
	work(f, 0, 100, 1000000);
	assert_false(ticks_tick(f->t, T0 + S));
	expect_out(f, "   2       100     2.00 MB/sec  execute   1 sec  "
		      "latency 0.000 ms\n");
	fk->remote_fail = true;
	work(f, 0, 100, 1000000);
	assert_false(ticks_tick(f->t, T0 + 2 * S));
	assert_int_equal(f->shm->hdr.stop, STOP_FAILED);
	assert_int_equal(f->t->ctl.stop, STOP_FAILED);
	assert_int_equal(f->t->ctl.stop_rank, 1);
	assert_true(f->t->cleanup);
	expect_out(f, "   2  cleanup   2 sec\n");
	free(fk);
	result_free(run);
	fix_free(f);
}

/* The other hosts are lost at the second tick (a signal while waiting for
 * them): nothing more is printed of the run, whose figures end at its
 * last point, and this host's last line says its own clients. */
static void test_hosts_lost(void **state)
{
	struct fix *f = fix_new(1, 10, 0);
	struct result *run = result_new();
	struct fake *fk = fake_new(f, 3, run);

	(void)state;
	work(f, 0, 100, 1000000);
	call(f, 0, OP_RENAME, 2 * MS);
	assert_false(ticks_tick(f->t, T0 + S));
	expect_out(f, "   3       100     3.00 MB/sec  execute   1 sec  "
		      "latency 2.000 ms\n");
	fk->lose_at = fk->calls + 1; /* the next agreement */
	work(f, 0, 100, 1000000);
	assert_false(ticks_tick(f->t, T0 + 2 * S));
	expect_out(f, "");
	assert_true(f->t->lost && f->t->cleanup);
	assert_false(ticks_tick(f->t, T0 + 3 * S));
	expect_out(f, "");
	clean(f, 0);
	ticks_end(f->t, T0 + 3 * S + MS);
	expect_out(f, "   0  cleanup   3 sec\n");
	ticks_fill(f->t, run, 3000000);
	assert_true(run->measured_s == 1.0);
	assert_true(run->throughput == 3.0);
	assert_int_equal(run->npoints, 1);
	assert_int_equal(ticks_run_stats(f->t)->op[OP_RENAME].count, 3);
	free(fk);
	result_free(run);
	fix_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_phases),
		cmocka_unit_test(test_late_parent),
		cmocka_unit_test(test_cleanup_lines),
		cmocka_unit_test(test_latency_figure),
		cmocka_unit_test(test_warmup_active),
		cmocka_unit_test(test_interrupted_in_warmup),
		cmocka_unit_test(test_interrupted_in_warmup_figures),
		cmocka_unit_test(test_all_left_before_a_tick),
		cmocka_unit_test(test_series_ops),
		cmocka_unit_test(test_series_resp),
		cmocka_unit_test(test_machine_readable),
		cmocka_unit_test(test_passes),
		cmocka_unit_test(test_stuck_across_the_end),
		cmocka_unit_test(test_end_normal),
		cmocka_unit_test(test_two_hosts),
		cmocka_unit_test(test_remote_failure),
		cmocka_unit_test(test_hosts_lost),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
