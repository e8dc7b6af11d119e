/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_watchdog.c - the stall watchdog's bookkeeping on a fake clock and
 * a fake /proc: when an event opens, how samples fold, the exact
 * duration from the client, PSI at both ends, ops still stuck at the
 * end, the bound on kept events, a /proc without stacks, and the thread's
 * nice value following its starter's.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "clock.h"
#include "result.h"
#include "shm.h"
#include "watchdog.h"
#include "watchdog_test.h"

#define T0  (500 * NSEC_PER_SEC)
#define MS  NSEC_PER_MSEC
#define PID 4242

struct fix {
	char proc[64];
	struct shm *shm;
	struct result_stalls out;
	struct watchdog *wd;
	int nclients;
};

static void put(const struct fix *f, const char *name, const char *text)
{
	char path[256];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", f->proc, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

/* watchdog_describe_fn: op index @pc of any client is a Rename at line
 * 10 + pc of "t.load" */
static void describe(void *ctx, int client, uint32_t pc,
		     struct result_stall *ev)
{
	(void)ctx;
	(void)client;
	ev->op = OP_RENAME;
	ev->line = 10 + pc;
	ev->file = strdup("t.load");
	ev->path = strdup("/d/clients/client0/a /d/clients/client0/b");
}

static const char *const stack_a =
	"[<0>] request_wait_answer+0x12/0x80 [fuse]\n"
	"[<0>] vfs_rename+0x3/0x40\n"
	"[<0>] do_syscall_64+0x1/0x2\n";
static const char *const stack_b = "[<0>] schedule+0x1/0x2\n"
				   "[<0>] do_syscall_64+0x1/0x2\n";
#define FOLDED_A "do_syscall_64;vfs_rename;request_wait_answer [fuse]"
#define FOLDED_B "do_syscall_64;schedule"

/* @max_samples: the samples a poll may take, 0: no bound */
static struct fix *fix_new_budget(int nclients, bool stacks,
				  uint32_t max_samples)
{
	struct fix *f = calloc(1, sizeof(*f));
	struct watchdog_cfg wc = {
		.nclients = nclients,
		.threshold_ns = 100 * MS,
		.poll_ns = 5 * MS,
		.sample_ns = 100 * MS,
		.max_samples = max_samples,
		.describe = describe,
	};
	char path[128];

	assert_non_null(f);
	strcpy(f->proc, "/tmp/dbng-test-proc-XXXXXX");
	assert_non_null(mkdtemp(f->proc));
	snprintf(path, sizeof(path), "%s/%d", f->proc, PID);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/pressure", f->proc);
	assert_int_equal(mkdir(path, 0700), 0);
	put(f, "4242/stat", "4242 (dbench-ng) D 1 1 1 0 -1\n");
	put(f, "4242/wchan", "request_wait_answer");
	if (stacks)
		put(f, "4242/stack", stack_a);
	put(f, "pressure/io", "some avg10=1.50 avg60=0.00 avg300=0.00 "
			      "total=12345\nfull avg10=0.25 avg60=0.00 "
			      "avg300=0.00 total=678\n");
	f->nclients = nclients;
	f->shm = shm_alloc(nclients);
	assert_non_null(f->shm);
	f->shm->hdr.start_ns = T0;
	for (int i = 0; i < nclients; i++)
		f->shm->slot[i].pid = PID;
	wc.shm = f->shm;
	wc.proc = f->proc;
	wc.out = &f->out;
	f->wd = watchdog_new(&wc);
	assert_non_null(f->wd);
	assert_true(f->out.enabled);
	assert_true(f->out.threshold_ms == 100.0);
	return f;
}

static struct fix *fix_new(int nclients, bool stacks)
{
	return fix_new_budget(nclients, stacks, 0);
}

static void fix_free(struct fix *f)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", f->proc);
	assert_int_equal(system(cmd), 0);
	for (int i = 0; i < f->out.nevents; i++)
		result_stall_free(&f->out.events[i]);
	for (int i = 0; i < f->out.nfolded; i++)
		free(f->out.folded[i].stack);
	free(f->out.note);
	shm_free(f->shm, f->nclients);
	free(f);
}

/* Client @id starts op index @pc at @t0, as client_step publishes it. */
static void op_start(struct fix *f, int id, uint32_t pc, uint64_t t0)
{
	f->shm->slot[id].cur_op = pc;
	f->shm->slot[id].op_start_ns = t0;
}

/* ... and it ended after @d ns: an op of the threshold or longer goes
 * into the slot's slow ring (client.c, note_slow), then none is in flight. */
static void op_end(struct fix *f, int id, uint64_t t0, uint64_t d)
{
	struct client_slot *s = &f->shm->slot[id];

	if (d >= 100 * MS) {
		struct slow_rec *r = &s->slow[s->slow_head % SLOW_RING];

		r->start_ns = t0;
		r->dur_ns = d;
		r->pc = s->cur_op;
		s->slow_head++;
	}
	s->op_start_ns = 0;
}

static void test_short_op(void **state)
{
	struct fix *f = fix_new(1, true);
	uint64_t t0 = T0 + NSEC_PER_SEC;

	(void)state;
	op_start(f, 0, 3, t0);
	watchdog_poll(f->wd, t0 + 100 * MS - 1); /* just under */
	op_end(f, 0, t0, 100 * MS - 1);
	watchdog_poll(f->wd, t0 + 101 * MS);
	watchdog_end(f->wd, t0 + 200 * MS);
	assert_int_equal(f->out.total, 0);
	assert_int_equal(f->out.nevents, 0);
	assert_int_equal(f->out.nfolded, 0);
	fix_free(f);
}

/* One stall from start to end: samples fold while the stack stays, a new
 * stack is a new sample, the duration is the client's own. */
static void test_one_stall(void **state)
{
	struct fix *f = fix_new(1, true);
	uint64_t t0 = T0 + 1500 * MS;
	const struct result_stall *ev;

	(void)state;
	op_start(f, 0, 7, t0);
	watchdog_poll(f->wd, t0 + 50 * MS);
	assert_int_equal(f->out.total, 0);
	watchdog_poll(f->wd, t0 + 100 * MS); /* at the threshold: opens */
	watchdog_poll(f->wd, t0 + 150 * MS); /* not due for a sample */
	watchdog_poll(f->wd, t0 + 200 * MS); /* same stack: a repeat */
	put(f, "4242/stack", stack_b);
	put(f, "4242/stat", "4242 (dbench-ng) S 1 1 1 0 -1\n");
	watchdog_poll(f->wd, t0 + 300 * MS); /* new stack: a new sample */
	/* ends at 340.5 ms; the client started its next op before the poll
	 * saw it, which must not change the duration */
	op_end(f, 0, t0, 340500 * NSEC_PER_USEC);
	op_start(f, 0, 8, t0 + 341 * MS);
	watchdog_poll(f->wd, t0 + 345 * MS);
	watchdog_end(f->wd, t0 + 360 * MS);

	assert_int_equal(f->out.total, 1);
	assert_int_equal(f->out.count[OP_RENAME], 1);
	assert_true(f->out.max_ms[OP_RENAME] == 340.5);
	assert_int_equal(f->out.nevents, 1);
	ev = &f->out.events[0];
	assert_true(ev->ended);
	assert_true(ev->duration_ms == 340.5);
	assert_int_equal(ev->client, 0);
	assert_int_equal(ev->pid, PID);
	assert_int_equal(ev->op, OP_RENAME);
	assert_int_equal(ev->line, 17);
	assert_string_equal(ev->file, "t.load");
	assert_true(ev->start_s == 1.5);
	assert_non_null(ev->start_time);
	assert_int_equal(strlen(ev->start_time), 24); /* ...T12:34:56.789Z */
	assert_int_equal(ev->start_time[23], 'Z');
	assert_int_equal(ev->nsamples, 2);
	assert_true(ev->samples[0].t_ms == 100.0);
	assert_int_equal(ev->samples[0].state, 'D');
	assert_int_equal(ev->samples[0].repeat, 1);
	assert_string_equal(ev->samples[0].wchan, "request_wait_answer");
	assert_string_equal(ev->samples[0].stack, FOLDED_A);
	assert_true(ev->samples[1].t_ms == 300.0);
	assert_int_equal(ev->samples[1].state, 'S');
	assert_int_equal(ev->samples[1].repeat, 0);
	assert_string_equal(ev->samples[1].stack, FOLDED_B);
	for (int i = 0; i < 2; i++) {
		const struct result_psi *p =
			i ? &ev->psi_end[PSI_IO] : &ev->psi_start[PSI_IO];

		assert_true(p->valid);
		assert_true(p->some_avg10 == 1.5 && p->full_avg10 == 0.25);
		assert_int_equal(p->some_total_us, 12345);
		assert_int_equal(p->full_total_us, 678);
		assert_false(ev->psi_start[PSI_CPU].valid); /* no file */
	}
	/* folded: the most frequent stack first */
	assert_int_equal(f->out.nfolded, 2);
	assert_string_equal(f->out.folded[0].stack, FOLDED_A);
	assert_int_equal(f->out.folded[0].count, 2);
	assert_string_equal(f->out.folded[1].stack, FOLDED_B);
	assert_int_equal(f->out.folded[1].count, 1);
	assert_null(f->out.note);
	fix_free(f);
}

/* The client ended the stall and ran a whole short op before the next
 * poll (the usual case: polls are 5 ms apart, ops take microseconds):
 * the duration is still the stalled op's own, to the nanosecond, and the
 * short op is no stall. */
static void test_next_op_before_poll(void **state)
{
	struct fix *f = fix_new(1, true);
	uint64_t t0 = T0 + 2 * NSEC_PER_SEC, t1 = t0 + 500280 * NSEC_PER_USEC;

	(void)state;
	op_start(f, 0, 4, t0);
	watchdog_poll(f->wd, t0 + 100 * MS);
	watchdog_poll(f->wd, t0 + 500 * MS);
	op_end(f, 0, t0, t1 - t0);
	op_start(f, 0, 5, t1 + 1000);
	op_end(f, 0, t1 + 1000, 20000);
	op_start(f, 0, 6, t1 + 22000);
	watchdog_poll(f->wd, t0 + 503663 * NSEC_PER_USEC);
	op_end(f, 0, t1 + 22000, 15000);
	watchdog_end(f->wd, t0 + 510 * MS);
	assert_int_equal(f->out.total, 1);
	assert_int_equal(f->out.nevents, 1);
	assert_true(f->out.events[0].ended);
	assert_true(f->out.events[0].duration_ms == 500.28);
	assert_true(f->out.max_ms[OP_RENAME] == 500.28);
	fix_free(f);
}

/* A stall counts in the phase its op ended in, as the tables count the
 * op (deadline.h): one that ended by the warmup's end is the warmup's;
 * one that began in the warmup and ended after it, and one still stuck
 * when the run ended, are the measured phase's. */
static void test_warmup_apart(void **state)
{
	struct fix *f = fix_new(1, true);
	uint64_t w = T0 + NSEC_PER_SEC;

	(void)state;
	f->shm->hdr.warmup_end_ns = w;
	op_start(f, 0, 1, T0 + 500 * MS); /* ends at the warmup's end */
	watchdog_poll(f->wd, T0 + 650 * MS);
	op_end(f, 0, T0 + 500 * MS, 500 * MS);
	watchdog_poll(f->wd, w + 1 * MS);
	op_start(f, 0, 2, w + 2 * MS - 300 * MS); /* ends just after */
	watchdog_poll(f->wd, w - 100 * MS);
	op_end(f, 0, w + 2 * MS - 300 * MS, 300 * MS);
	watchdog_poll(f->wd, w + 3 * MS);
	op_start(f, 0, 3, w + 10 * MS); /* still stuck at the end */
	watchdog_poll(f->wd, w + 200 * MS);
	watchdog_end(f->wd, w + 400 * MS);
	assert_int_equal(f->out.nevents, 3);
	assert_int_equal(f->out.warmup_total, 1);
	assert_int_equal(f->out.warmup_count[OP_RENAME], 1);
	assert_true(f->out.warmup_max_ms[OP_RENAME] == 500.0);
	assert_int_equal(f->out.total, 2);
	assert_int_equal(f->out.count[OP_RENAME], 2);
	assert_true(f->out.max_ms[OP_RENAME] == 390.0);
	for (int i = 0; i < 3; i++)
		assert_true(f->out.events[i].warmup ==
			    (f->out.events[i].duration_ms == 500.0));
	fix_free(f);
}

/* The watchdog's clock passed the threshold, but the client's own time
 * of the op is under it (it ended the op between its clock read and the
 * clear): not a stall.  And an event opened as the client moved on to
 * the next op is named after the op it timed (the record's pc). */
static void test_client_decides(void **state)
{
	struct fix *f = fix_new(1, true);
	uint64_t t0 = T0 + NSEC_PER_SEC, t1;

	(void)state;
	op_start(f, 0, 2, t0);
	watchdog_poll(f->wd, t0 + 100 * MS); /* opens */
	op_end(f, 0, t0, 100 * MS - 1);
	watchdog_poll(f->wd, t0 + 105 * MS);
	assert_int_equal(f->out.total, 0);
	/* the poll finds op 3 in flight for 150 ms, but the client has
	 * already written op index 4 as current */
	t1 = t0 + 200 * MS;
	op_start(f, 0, 3, t1);
	f->shm->slot[0].cur_op = 4;
	watchdog_poll(f->wd, t1 + 150 * MS);
	f->shm->slot[0].cur_op = 3; /* what note_slow stores */
	op_end(f, 0, t1, 150 * MS + 7);
	f->shm->slot[0].cur_op = 4;
	watchdog_end(f->wd, t1 + 160 * MS);
	assert_int_equal(f->out.total, 1);
	assert_int_equal(f->out.events[0].line, 13);
	assert_true(f->out.events[0].duration_ms == 150.000007);
	fix_free(f);
}

/* More slow ops than the ring holds between two polls: the oldest is
 * lost, which is said by an upper bound (the time to the poll), never by
 * another op's time; the ones still in the ring are exact. */
static void test_ring_turned(void **state)
{
	struct fix *f = fix_new(2, true);
	uint64_t t0 = T0 + NSEC_PER_SEC, t = t0 + 101 * MS;

	(void)state;
	op_start(f, 0, 0, t0);
	op_start(f, 1, 0, t0);
	watchdog_poll(f->wd, t0 + 100 * MS);
	op_end(f, 0, t0, 101 * MS);
	op_end(f, 1, t0, 101 * MS);
	for (int i = 0; i < SLOW_RING; i++) { /* client 0 only */
		op_start(f, 0, 1, t);
		op_end(f, 0, t, 100 * MS);
		t += 100 * MS;
	}
	watchdog_poll(f->wd, t);
	watchdog_end(f->wd, t);
	assert_int_equal(f->out.total, 2);
	assert_true(f->out.events[0].duration_ms ==
		    (double)(t - t0) / 1e6); /* client 0: lost */
	assert_int_equal(f->out.events[0].client, 0);
	assert_true(f->out.events[1].duration_ms == 101.0);
	assert_int_equal(f->out.events[1].client, 1);
	fix_free(f);
}

/* Still stuck when the run ends: not ended, as long as it was. */
static void test_stuck_at_end(void **state)
{
	struct fix *f = fix_new(1, true);
	uint64_t t0 = T0 + 2 * NSEC_PER_SEC;

	(void)state;
	op_start(f, 0, 0, t0);
	for (uint64_t t = t0; t <= t0 + 2000 * MS; t += 5 * MS)
		watchdog_poll(f->wd, t);
	watchdog_end(f->wd, t0 + 2000 * MS);
	assert_int_equal(f->out.nevents, 1);
	assert_false(f->out.events[0].ended);
	assert_true(f->out.events[0].duration_ms == 2000.0);
	/* 20 identical samples in 1.9 s: one, repeated */
	assert_int_equal(f->out.events[0].nsamples, 1);
	assert_int_equal(f->out.events[0].samples[0].repeat, 19);
	fix_free(f);
}

/* Memory is bounded: the longest STALL_MAX_EVENTS are kept, longest
 * first, and every event is counted. */
static void test_bounded(void **state)
{
	const int n = STALL_MAX_EVENTS + 9;
	struct fix *f = fix_new(1, true);
	uint64_t t = T0;

	(void)state;
	for (int i = 0; i < n; i++) {
		/* durations 101..141 ms in a shuffled order */
		uint64_t d = (101 + (uint64_t)(i * 17 % n)) * MS;

		op_start(f, 0, 0, t);
		watchdog_poll(f->wd, t + 100 * MS);
		op_end(f, 0, t, d);
		watchdog_poll(f->wd, t + d + MS);
		t += d + 2 * MS;
	}
	watchdog_end(f->wd, t);
	assert_int_equal(f->out.total, n);
	assert_int_equal(f->out.count[OP_RENAME], n);
	assert_true(f->out.max_ms[OP_RENAME] == 101.0 + n - 1);
	assert_int_equal(f->out.nevents, STALL_MAX_EVENTS);
	for (int i = 0; i < STALL_MAX_EVENTS; i++)
		assert_true(f->out.events[i].duration_ms ==
			    101.0 + n - 1 - i);
	assert_int_equal(f->out.nfolded, 1);
	assert_int_equal(f->out.folded[0].count, n);
	fix_free(f);
}

/* The events of @st that have a sample */
static int sampled(const struct result_stalls *st)
{
	int n = 0;

	for (int i = 0; i < st->nevents; i++)
		n += st->events[i].nsamples > 0;
	return n;
}

/*
 * Ten ops stuck at once, three samples a poll: each poll samples three,
 * the next begins where the last stopped, so all ten have one after four
 * polls; the copy counts those still without one, and every event keeps
 * being sampled about every sample_ns.
 */
static void test_budget(void **state)
{
	struct fix *f = fix_new_budget(10, true, 3);
	struct result_stalls c = {0};
	uint64_t t0 = T0 + NSEC_PER_SEC;
	const int want[] = {3, 6, 9, 10};

	(void)state;
	for (int i = 0; i < 10; i++)
		op_start(f, i, 0, t0);
	for (int k = 0; k < 4; k++) {
		uint64_t t = t0 + 100 * MS + (uint64_t)k * 5 * MS;

		watchdog_poll(f->wd, t);
		assert_true(watchdog_copy(f->wd, t, &c));
		assert_int_equal(c.total, 10);
		assert_int_equal(c.nevents, 10);
		assert_int_equal(sampled(&c), want[k]);
		assert_int_equal(c.unsampled, 10 - want[k]);
	}
	for (uint64_t t = t0 + 120 * MS; t <= t0 + 420 * MS; t += 5 * MS)
		watchdog_poll(f->wd, t);
	watchdog_end(f->wd, t0 + 420 * MS);
	assert_int_equal(f->out.nevents, 10);
	assert_int_equal(f->out.unsampled, 0);
	for (int i = 0; i < 10; i++) {
		const struct result_stall *ev = &f->out.events[i];

		/* one stack, folded: at +100..115, +200.., +300.., +400.. */
		assert_int_equal(ev->nsamples, 1);
		assert_int_equal(ev->samples[0].repeat, 3);
	}
	result_stalls_free(&c);
	fix_free(f);
}

/*
 * More due than the budget can take (30 stuck, one sample a poll of
 * 5 ms, each due every 100 ms): the turns go round, so none waits for
 * ever while the first ones come due again.
 */
static void test_budget_turns(void **state)
{
	struct fix *f = fix_new_budget(30, true, 1);
	struct result_stalls c = {0};
	uint64_t t0 = T0 + NSEC_PER_SEC, t;

	(void)state;
	for (int i = 0; i < 30; i++)
		op_start(f, i, 0, t0);
	for (t = t0 + 100 * MS; t < t0 + 250 * MS; t += 5 * MS)
		watchdog_poll(f->wd, t);
	assert_true(watchdog_copy(f->wd, t, &c));
	assert_int_equal(c.nevents, 30);
	assert_int_equal(sampled(&c), 30);
	for (int i = 0; i < c.nevents; i++) /* 30 polls, 30 samples */
		assert_int_equal(c.events[i].samples[0].repeat, 0);
	result_stalls_free(&c);
	watchdog_end(f->wd, t);
	fix_free(f);
}

/* Ops that end before the budget reached them: events without a sample,
 * counted as such; the ones sampled are not. */
static void test_budget_unsampled(void **state)
{
	struct fix *f = fix_new_budget(10, true, 3);
	uint64_t t0 = T0 + NSEC_PER_SEC;

	(void)state;
	for (int i = 0; i < 10; i++)
		op_start(f, i, 0, t0);
	watchdog_poll(f->wd, t0 + 100 * MS); /* samples clients 0-2 */
	for (int i = 3; i < 10; i++)
		op_end(f, i, t0, 102 * MS);
	watchdog_poll(f->wd, t0 + 105 * MS);
	watchdog_end(f->wd, t0 + 110 * MS);
	assert_int_equal(f->out.total, 10);
	assert_int_equal(f->out.unsampled, 7);
	assert_int_equal(sampled(&f->out), 3);
	for (int i = 0; i < f->out.nevents; i++) {
		const struct result_stall *ev = &f->out.events[i];

		assert_true(ev->ended == (ev->client >= 3));
		assert_int_equal(ev->nsamples, ev->client < 3);
	}
	fix_free(f);
}

/* No /proc/PID/stack (not root): said once, samples without stacks. */
static void test_no_stacks(void **state)
{
	struct fix *f = fix_new(1, false);
	uint64_t t0 = T0 + NSEC_PER_SEC;

	(void)state;
	op_start(f, 0, 0, t0);
	watchdog_poll(f->wd, t0 + 120 * MS);
	op_end(f, 0, t0, 130 * MS);
	watchdog_poll(f->wd, t0 + 131 * MS);
	watchdog_end(f->wd, t0 + 140 * MS);
	assert_int_equal(f->out.nevents, 1);
	assert_non_null(f->out.note);
	assert_non_null(strstr(f->out.note, "kernel stacks unavailable: "));
	assert_non_null(strstr(f->out.note, "/4242/stack"));
	assert_int_equal(f->out.events[0].nsamples, 1);
	assert_null(f->out.events[0].samples[0].stack);
	assert_string_equal(f->out.events[0].samples[0].wchan,
			    "request_wait_answer");
	assert_int_equal(f->out.nfolded, 0);
	fix_free(f);
}

/* A copy while the run goes on (a checkpoint): the events that ended,
 * and the one still stuck as not ended with its duration so far,
 * counted, longest first; the watchdog's own record is unchanged. */
static void test_copy(void **state)
{
	struct fix *f = fix_new(2, true);
	struct result_stalls c = {0};
	uint64_t t0 = T0 + NSEC_PER_SEC;

	(void)state;
	op_start(f, 0, 1, t0);
	watchdog_poll(f->wd, t0 + 100 * MS);
	op_end(f, 0, t0, 150 * MS);
	op_start(f, 1, 2, t0 + 10 * MS);
	watchdog_poll(f->wd, t0 + 200 * MS); /* 0 ended, 1 opens */
	watchdog_poll(f->wd, t0 + 310 * MS); /* 1 sampled again */
	assert_true(watchdog_copy(f->wd, t0 + 410 * MS, &c));
	assert_int_equal(c.total, 2);
	assert_int_equal(c.count[OP_RENAME], 2);
	assert_true(c.max_ms[OP_RENAME] == 400.0);
	assert_int_equal(c.nevents, 2);
	assert_false(c.events[0].ended); /* 400 ms so far, the longest */
	assert_true(c.events[0].duration_ms == 400.0);
	assert_int_equal(c.events[0].client, 1);
	assert_int_equal(c.events[0].nsamples, 1);
	assert_int_equal(c.events[0].samples[0].repeat, 1);
	assert_true(c.events[1].ended);
	assert_true(c.events[1].duration_ms == 150.0);
	assert_int_equal(c.nfolded, 1); /* both stacks alike */
	assert_int_equal(c.folded[0].count, 3);
	assert_true(c.enabled && c.threshold_ms == 100.0);
	/* the strings are the copy's own */
	assert_ptr_not_equal(c.events[1].file, f->out.events[0].file);
	assert_string_equal(c.events[1].file, f->out.events[0].file);
	assert_int_equal(f->out.total, 1);
	assert_int_equal(f->out.nevents, 1);
	result_stalls_free(&c);
	op_end(f, 1, t0 + 10 * MS, 500 * MS);
	watchdog_end(f->wd, t0 + 600 * MS);
	assert_int_equal(f->out.total, 2);
	assert_true(f->out.events[0].duration_ms == 500.0);
	fix_free(f);
}

/* The thread takes the nice value of the thread that started it, when
 * that changes (the parent raises its main thread once the clients run:
 * a watchdog left behind at nice 0 misses stalls under overload).  A
 * higher value needs no privilege. */
static void test_follows_nice(void **state)
{
	struct fix *f = fix_new(1, true);
	struct watchdog_cfg wc = {
		.shm = f->shm,
		.nclients = 1,
		.threshold_ns = 100 * MS,
		.poll_ns = MS,
		.sample_ns = 100 * MS,
		.proc = f->proc,
		.describe = describe,
		.out = &f->out,
	};
	struct watchdog *wd;
	int n0, want, tid = 0;

	(void)state;
	watchdog_end(f->wd, T0); /* the fixture's, never started */
	errno = 0;
	n0 = getpriority(PRIO_PROCESS, 0);
	assert_int_equal(errno, 0);
	want = n0 + 3 > 19 ? 19 : n0 + 3;
	wd = watchdog_start(&wc);
	assert_non_null(wd);
	/* bounded waits for the thread, not a measure of time */
	for (int i = 0; i < 20000 && !(tid = watchdog_tid(wd)); i++)
		usleep(1000);
	assert_int_not_equal(tid, 0);
	assert_int_equal(getpriority(PRIO_PROCESS, (id_t)tid), n0);
	assert_int_equal(setpriority(PRIO_PROCESS, 0, want), 0);
	for (int i = 0; i < 20000 &&
			getpriority(PRIO_PROCESS, (id_t)tid) != want;
	     i++)
		usleep(1000);
	assert_int_equal(getpriority(PRIO_PROCESS, (id_t)tid), want);
	watchdog_stop(wd);
	fix_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_follows_nice),
		cmocka_unit_test(test_short_op),
		cmocka_unit_test(test_one_stall),
		cmocka_unit_test(test_next_op_before_poll),
		cmocka_unit_test(test_warmup_apart),
		cmocka_unit_test(test_client_decides),
		cmocka_unit_test(test_ring_turned),
		cmocka_unit_test(test_stuck_at_end),
		cmocka_unit_test(test_bounded),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_budget_turns),
		cmocka_unit_test(test_budget_unsampled),
		cmocka_unit_test(test_no_stacks),
		cmocka_unit_test(test_copy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
