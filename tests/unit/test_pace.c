/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_pace.c - pacing on a fake clock: -R holds a byte rate (sleeps when
 * ahead, reports how late when behind, never catches up on a late
 * wake-up, never holds the first line of a pass), loadfile timestamps,
 * and the slices a long wait is cut into; the intended start of each
 * line (the schedule while a client is behind, where a late wake-up
 * leaves it, a Sleep's pause), and the response times and late starts a
 * paced client records from them (stats.h), merged and reset exactly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "pace.h"
#include "stats.h"

#define MS NSEC_PER_MSEC
#define T0 (7 * NSEC_PER_SEC)

static void test_rate(void **state)
{
	struct pace_rate p = {0};
	const double rate = 2e6; /* -R 2: 2 MB/s */

	(void)state;
	/* the first line of a pass is never held, nor one before any I/O */
	assert_int_equal(pace_rate_delay(&p, 0, T0, rate), 0);
	pace_rate_mark(&p, 0, T0, T0, false);
	assert_int_equal(pace_rate_delay(&p, 0, T0 + MS, rate), 0);
	pace_rate_mark(&p, 0, T0 + MS, T0 + MS, false);
	/* 1 MB moved 100 ms later: 500 ms of rate, so 400 ms to wait */
	assert_int_equal(pace_rate_delay(&p, 1000000, T0 + 101 * MS, rate),
			 400 * MS);
	/* the sleep ended 30 ms late: the next line counts from then */
	pace_rate_mark(&p, 1000000, T0 + 531 * MS, T0 + 501 * MS, true);
	/* 0.5 MB more in 10 ms: 250 ms of rate, 240 ms to wait */
	assert_int_equal(pace_rate_delay(&p, 1500000, T0 + 541 * MS, rate),
			 240 * MS);
	pace_rate_mark(&p, 1500000, T0 + 781 * MS, T0 + 781 * MS, true);
	/* 0.2 MB more (100 ms of rate) 400 ms later: 300 ms behind */
	assert_int_equal(pace_rate_delay(&p, 1700000, T0 + 1181 * MS, rate),
			 -300 * (int64_t)MS);
	/* a new pass: the state is cleared and nothing is held */
	p.ns = 0;
	assert_int_equal(pace_rate_delay(&p, 65536, T0 + 2 * NSEC_PER_SEC,
					 rate), 0);
}

/* -R 1e-13 (and 1e-320, a denormal): 1e-7 bytes/s asks for a wait of
 * 6.5e11 s for 64 KiB, more ns than int64_t holds; the cast used to wrap
 * it negative (never paced, max_latency 9223372036854.775 ms) */
static void test_tiny_rate(void **state)
{
	struct pace_rate p = {0};
	const double rates[] = {1e-7, 1e-320 * 1e6, 1e-300};

	(void)state;
	for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		pace_rate_mark(&p, 0, T0, T0, false);
		assert_true(pace_rate_delay(&p, 65536, T0 + MS, rates[i]) ==
			    (int64_t)(PACE_MAX_DELAY_S * 1e9));
	}
	/* and a client that fell that far behind: a lag, not a wrap */
	pace_rate_mark(&p, 1, 1, 1, false);
	assert_true(pace_rate_delay(&p, 2, UINT64_MAX / 2, 1e300) < 0);
	/* and its intended start is no later than its start */
	pace_rate_mark(&p, 0, T0, T0, false);
	assert_true(pace_rate_due(&p, 65536, T0 + MS, 1e-7) == T0 + MS);
}

static void test_timestamp(void **state)
{
	(void)state;
	/* a line stamped 0.250 s into a pass: due then, late after */
	assert_int_equal(pace_timestamp_late(T0, 250 * MS, T0 + 100 * MS), 0);
	assert_int_equal(pace_timestamp_late(T0, 250 * MS, T0 + 250 * MS), 0);
	assert_int_equal(pace_timestamp_late(T0, 250 * MS, T0 + 262 * MS),
			 12 * MS);
	assert_int_equal(pace_timestamp_late(T0, 0, T0), 0);
}

/* ------------------------- intended starts ------------------------------ */

#define US NSEC_PER_USEC

struct line {
	int op;
	uint64_t bytes; /* moved by the line (pace_bytes after it) */
	uint64_t svc;	/* its service time (a Sleep: its pause) */
};

/*
 * A client of one pass paced by -R at @rate, as client.c's pace_rate()
 * and client_step() do it, on a fake clock that starts at T0: each wait
 * ends @oversleep late.  Per line its intended start, start and dbench's
 * lag (pace_rate_delay < 0) into @due, @start, @lag; service and
 * response times into @st.
 */
static void run_rate(const struct line *l, int n, double rate,
		     uint64_t oversleep, uint64_t *due, uint64_t *start,
		     int64_t *lag, struct stats *st)
{
	struct pace_rate p = {0};
	uint64_t now = T0, bytes = 0;

	for (int i = 0; i < n; i++) {
		int64_t d = pace_rate_delay(&p, bytes, now, rate);

		if (d > 0)
			now += (uint64_t)d + oversleep;
		lag[i] = d < 0 ? -d : 0;
		due[i] = pace_rate_due(&p, bytes, now, rate);
		pace_rate_mark(&p, bytes, now, due[i], d > 0);
		start[i] = now;
		now += l[i].svc;
		bytes += l[i].bytes;
		if (l[i].op == OP_SLEEP) { /* as client.c's paced_done */
			p.sched = pace_slept(p.sched,
					     (int64_t)(l[i].svc / US));
			continue;
		}
		hist_record(&st->op[l[i].op], l[i].svc);
		assert_int_equal(stats_record_resp(st, l[i].op, due[i],
						   start[i], now),
				 now - due[i]);
	}
}

/*
 * A Sleep of 100 ms in a -R pass is the loadfile's pause: the line after
 * it is due 100 ms after the Sleep was (dbench's pacer takes it for a lag
 * of 100 ms, its latency figure), so it starts on time, and so do the
 * others; without the pause in the schedule it would be 100 ms late.
 * Likewise with timestamps, for a line without one after a Sleep.
 */
static void test_sleep(void **state)
{
	static const struct line l[] = {
		{OP_WRITEX, 10000, 1 * MS},
		{OP_SLEEP, 0, 100 * MS},   /* held 9 ms, then its pause */
		{OP_CLOSE, 0, 1 * MS},	   /* 100 ms after the Sleep: on time */
		{OP_WRITEX, 10000, 1 * MS}, /* no bytes since: at once */
		{OP_WRITEX, 10000, 1 * MS}, /* held 9 ms: the 1 ms late */
	};
	enum { N = sizeof(l) / sizeof(l[0]) };
	uint64_t due[N], start[N];
	int64_t lag[N];
	struct stats *st = calloc(1, sizeof(*st));

	(void)state;
	assert_non_null(st);
	run_rate(l, N, 1e6, 0, due, start, lag, st);
	assert_int_equal(lag[2], 100 * MS); /* dbench's view */
	assert_int_equal(due[2], start[2]);
	assert_int_equal(due[2], T0 + 110 * MS);
	/* due with the Close, so as late as the Close took; the line held
	 * after it too, measured from the schedule before the re-basing */
	assert_int_equal(start[3] - due[3], 1 * MS);
	assert_int_equal(start[4] - due[4], 1 * MS);
	assert_int_equal(st->late[OP_CLOSE] + st->late[OP_WRITEX], 0);
	assert_int_equal(st->resp[OP_CLOSE].max, 1 * MS);
	assert_int_equal(st->resp[OP_SLEEP].count, 0);
	free(st);
	/* timestamps: a Sleep due at 0.2 s, a line without a timestamp */
	assert_int_equal(pace_timestamp_due(T0, 0, pace_slept(T0 + 200 * MS,
							      50000)),
			 T0 + 250 * MS);
	assert_int_equal(pace_slept(T0, 0), T0);
	assert_int_equal(pace_slept(T0, -5), T0);
}

/* ops of @h at or over @ns (the values are whole ms, far from a bucket's
 * edge at 100 ms) */
static uint64_t over(const struct hist *h, uint64_t ns)
{
	uint64_t n = h->overflow;

	for (unsigned int i = hist_index(ns); i < HIST_BUCKETS; i++)
		n += h->bins[i];
	return n;
}

/*
 * -R 1 (one byte a microsecond): a WriteX of 10000 bytes buys 10 ms.  The
 * second line stalls 500 ms.  dbench's pacer does not catch up: the third
 * line is 490 ms behind (its latency figure), and the pacer goes on from
 * there.  The intended starts stay on the schedule while the client is
 * behind: the lines it runs late, back to back (a Close, a WriteX with no
 * bytes before it), are each measured from when they were due, and so is
 * the line the pacer holds next, the last one late: from it the schedule
 * goes on from its start.  Each wait ends 0.3 ms late: the lateness of
 * the line that waited, never carried on.
 */
static void test_rate_due(void **state)
{
	static const struct line l[] = {
		{OP_WRITEX, 10000, 1 * MS},   /* first of the pass: due now */
		{OP_WRITEX, 10000, 500 * MS}, /* waits 9 ms, then stalls */
		{OP_CLOSE, 0, 1 * MS},	      /* behind: not held */
		{OP_WRITEX, 10000, 1 * MS},   /* no bytes since: not held */
		{OP_WRITEX, 10000, 1 * MS},   /* held 9 ms: still late */
		{OP_WRITEX, 10000, 1 * MS},   /* held: on time again */
	};
	static const uint64_t want_due[] = {0, 10000, 20300, 20300, 30300,
					    531600};
	static const uint64_t want_start[] = {0, 10300, 510300, 511300,
					      521600, 531900};
	static const int64_t want_lag[] = {0, 0, 490000, 1000, 0, 0};
	enum { N = sizeof(l) / sizeof(l[0]) };
	uint64_t due[N], start[N];
	int64_t lag[N];
	struct stats *st = calloc(1, sizeof(*st));

	(void)state;
	assert_non_null(st);
	run_rate(l, N, 1e6, 300 * US, due, start, lag, st);
	for (int i = 0; i < N; i++) {
		assert_int_equal(due[i], T0 + want_due[i] * US);
		assert_int_equal(start[i], T0 + want_start[i] * US);
		assert_int_equal(lag[i], want_lag[i] * (int64_t)US);
	}
	/* the service times show the one slow op; the response times the
	 * three that queued behind it too */
	assert_int_equal(st->op[OP_WRITEX].max, 500 * MS);
	assert_int_equal(over(&st->op[OP_WRITEX], 100 * MS), 1);
	assert_int_equal(over(&st->op[OP_CLOSE], 100 * MS), 0);
	assert_int_equal(st->resp[OP_WRITEX].max, 500300 * US);
	assert_int_equal(over(&st->resp[OP_WRITEX], 100 * MS), 3);
	assert_int_equal(over(&st->resp[OP_CLOSE], 100 * MS), 1);
	assert_int_equal(st->resp[OP_CLOSE].max, 491 * MS);
	/* late starts: more than RESP_LATE_NS (10 ms); the 0.3 ms of a
	 * late wake-up is none */
	assert_int_equal(st->late[OP_WRITEX], 2);
	assert_int_equal(st->late[OP_CLOSE], 1);
	assert_int_equal(st->late_max[OP_WRITEX], 491300 * US);
	assert_int_equal(st->late_max[OP_CLOSE], 490 * MS);
	assert_int_equal(st->nresp, N);
	assert_int_equal(st->resp[OP_WRITEX].count + st->resp[OP_CLOSE].count,
			 N);
	free(st);
}

/*
 * A late wake-up is not carried on: 1000 lines each held 1 ms and each
 * waking 0.5 ms late start 0.5 ms after their intended start, every one
 * of them; a schedule that kept its intended wake-ups would have the last
 * one half a second late.
 */
static void test_rate_oversleep(void **state)
{
	enum { N = 1000 };
	struct line *l = calloc(N, sizeof(*l));
	uint64_t *due = calloc(N, sizeof(*due));
	uint64_t *start = calloc(N, sizeof(*start));
	int64_t *lag = calloc(N, sizeof(*lag));
	struct stats *st = calloc(1, sizeof(*st));

	(void)state;
	assert_true(l && due && start && lag && st);
	for (int i = 0; i < N; i++)
		l[i] = (struct line){OP_WRITEX, 1000, 0};
	run_rate(l, N, 1e6, 500 * US, due, start, lag, st);
	for (int i = 1; i < N; i++)
		assert_int_equal(start[i] - due[i], 500 * US);
	assert_int_equal(st->late_max[OP_WRITEX], 500 * US);
	assert_int_equal(st->late[OP_WRITEX], 0);
	assert_int_equal(st->resp[OP_WRITEX].max, 500 * US);
	free(l);
	free(due);
	free(start);
	free(lag);
	free(st);
}

/*
 * A timestamped pass: line i is due at 10 ms x i (line 0, stamped 0,
 * waits for nothing and is due at the pass start), each takes 1 ms, and
 * line 5 stalls 500 ms.  The client catches up: it runs the lines due
 * meanwhile back to back (line k at 550 + (k - 6) ms, 544 - 9k ms late)
 * until line 61, which waits for its time again.  The service times show
 * one op over 100 ms; the response times 45 (line 5 and lines 6..49, 545
 * - 9k ms), and 54 lines started more than 10 ms late (6..59).  Split
 * over two clients and merged, the figures are the same, bin for bin.
 */
static void test_timestamp_queue(void **state)
{
	enum { N = 80 };
	struct stats *one = calloc(1, sizeof(*one));
	struct stats *two = calloc(2, sizeof(*two));
	struct stats *sum = calloc(1, sizeof(*sum));
	uint64_t now = T0, prev = T0;

	(void)state;
	assert_true(one && two && sum);
	for (int i = 0; i < N; i++) {
		uint64_t ts = (uint64_t)i * 10 * MS;
		uint64_t due = pace_timestamp_due(T0, ts, prev), t0;

		assert_int_equal(due, T0 + ts);
		if (ts && !pace_timestamp_late(T0, ts, now))
			now = due; /* it waits: on time */
		prev = due;
		t0 = now;
		now += i == 5 ? 500 * MS : 1 * MS;
		if (i >= 6 && i <= 60)
			assert_int_equal(t0 - due, (544 - 9 * i) * MS);
		else
			assert_int_equal(t0, due);
		hist_record(&one->op[OP_WRITEX], now - t0);
		hist_record(&two[i % 2].op[OP_WRITEX], now - t0);
		stats_record_resp(one, OP_WRITEX, due, t0, now);
		stats_record_resp(&two[i % 2], OP_WRITEX, due, t0, now);
	}
	assert_int_equal(one->op[OP_WRITEX].max, 500 * MS);
	assert_int_equal(over(&one->op[OP_WRITEX], 100 * MS), 1);
	assert_true(hist_value_at(&one->op[OP_WRITEX], 90) < 2 * MS);
	assert_int_equal(over(&one->resp[OP_WRITEX], 100 * MS), 45);
	assert_true(hist_value_at(&one->resp[OP_WRITEX], 50) > 100 * MS);
	assert_int_equal(one->resp[OP_WRITEX].max, 500 * MS);
	assert_int_equal(one->late[OP_WRITEX], 54);
	assert_int_equal(one->late_max[OP_WRITEX], 490 * MS);
	assert_int_equal(one->nresp, N);

	/* the merge of the two halves is exact */
	stats_add(sum, &two[0]);
	stats_add(sum, &two[1]);
	assert_memory_equal(sum, one, sizeof(*one));
	/* reset, a client's stats hold nothing, and add nothing */
	stats_reset(&two[0]);
	assert_int_equal(two[0].nresp, 0);
	assert_int_equal(two[0].late_max[OP_WRITEX], 0);
	assert_int_equal(two[0].resp[OP_WRITEX].count, 0);
	assert_int_equal(two[0].op[OP_WRITEX].count, 0);
	stats_add(one, &two[0]);
	assert_int_equal(one->nresp, N);
	assert_int_equal(one->resp[OP_WRITEX].count, N);
	free(one);
	free(two);
	free(sum);
}

/* An unpaced client's stats (nresp 0): the merge and the reset do not
 * read or write its response histograms (their pages stay untouched). */
static void test_unpaced_untouched(void **state)
{
	struct stats *st = calloc(1, sizeof(*st));
	struct stats *dst = calloc(1, sizeof(*dst));

	(void)state;
	assert_true(st && dst);
	hist_record(&st->op[OP_CLOSE], 5 * US);
	st->resp[OP_CLOSE].count = 7; /* a marker: never read nor reset */
	stats_add(dst, st);
	assert_int_equal(dst->op[OP_CLOSE].count, 1);
	assert_int_equal(dst->nresp, 0);
	assert_int_equal(dst->resp[OP_CLOSE].count, 0);
	stats_reset(st);
	assert_int_equal(st->op[OP_CLOSE].count, 0);
	assert_int_equal(st->resp[OP_CLOSE].count, 7);
	free(st);
	free(dst);
}

/* An op that started before it was due (its wait cut short by a stop) is
 * measured from its start: its response time is its service time. */
static void test_early(void **state)
{
	struct stats *st = calloc(1, sizeof(*st));

	(void)state;
	assert_non_null(st);
	assert_int_equal(stats_record_resp(st, OP_READX, T0 + 50 * MS, T0,
					   T0 + 2 * MS),
			 2 * MS);
	assert_int_equal(st->late[OP_READX], 0);
	assert_int_equal(st->late_max[OP_READX], 0);
	/* exactly RESP_LATE_NS late is not late, a nanosecond more is */
	stats_record_resp(st, OP_READX, T0, T0 + RESP_LATE_NS, T0 + 11 * MS);
	assert_int_equal(st->late[OP_READX], 0);
	stats_record_resp(st, OP_READX, T0, T0 + RESP_LATE_NS + 1,
			  T0 + 11 * MS);
	assert_int_equal(st->late[OP_READX], 1);
	assert_int_equal(st->late_max[OP_READX], RESP_LATE_NS + 1);
	free(st);
}

static void test_slices(void **state)
{
	uint64_t now = T0, until = T0 + 120 * MS;
	int n = 0;

	(void)state;
	/* a 120 ms wait: 50 + 50 + 20 ms, so a stop is seen within 50 ms */
	while (now < until) {
		uint64_t end = pace_slice_end(now, until);

		assert_true(end > now && end - now <= PACE_SLICE_NS);
		now = end;
		n++;
	}
	assert_int_equal(n, 3);
	assert_int_equal(now, until);
	assert_int_equal(pace_slice_end(T0, T0 + 1), T0 + 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_tiny_rate),
		cmocka_unit_test(test_timestamp),
		cmocka_unit_test(test_rate_due),
		cmocka_unit_test(test_rate_oversleep),
		cmocka_unit_test(test_sleep),
		cmocka_unit_test(test_timestamp_queue),
		cmocka_unit_test(test_unpaced_untouched),
		cmocka_unit_test(test_early),
		cmocka_unit_test(test_slices),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
