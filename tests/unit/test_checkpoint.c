/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_checkpoint.c - the checkpoints of the --json file (checkpoint.c)
 * on the tick of a fake clock: the first at the first tick, then one a
 * CKPT_INTERVAL_NS (longer when they cost more), each holding the run as
 * the tick has it (status running, covers_s, the series exactly, also
 * after the series halved its resolution, the statistics of the phase,
 * the summary so far), one at the end of the measured phase, none after
 * ckpt_stop(), and never a temporary file left beside the file.  The
 * thread writes on its own: the test waits for each checkpoint (by the
 * count of files written), never for a time.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "checkpoint.h"
#include "clock.h"
#include "config.h"
#include "result.h"
#include "result_json.h"
#include "shm.h"
#include "ticks.h"

#define T0 (1000 * NSEC_PER_SEC) /* the release, on the fake clock */
#define S  NSEC_PER_SEC
/* the tick of second @s: a microsecond after it, past its deadlines */
#define AT(s) (T0 + (s)*S + 1000)
/* @x is @want, to the microsecond of a tick */
#define NEAR(x, w) ((x) > (w)-1e-5 && (x) < (w) + 1e-5)

struct fix {
	struct config cfg;
	struct shm *shm;
	struct result *res;
	struct ticks *t;
	struct checkpoint *ck;
	char dir[64], path[96];
	uint64_t written;
};

static struct fix *fix_new(int timelimit, int warmup)
{
	struct fix *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->cfg.nprocs = f->cfg.nclients = f->cfg.cpp = 1;
	f->cfg.timelimit = timelimit;
	f->cfg.warmup = warmup;
	f->cfg.runs = 1;
	f->shm = shm_alloc(1);
	f->res = result_new();
	assert_non_null(f->shm);
	assert_non_null(f->res);
	f->res->tool = strdup("dbench-ng");
	f->res->cfg = f->cfg;
	f->t = ticks_new(&f->cfg, f->shm, f->res, fopen("/dev/null", "w"));
	assert_non_null(f->t);
	snprintf(f->dir, sizeof(f->dir), "/tmp/test_checkpoint.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->path, sizeof(f->path), "%s/r.json", f->dir);
	f->ck = ckpt_start(f->path, f->res);
	assert_non_null(f->ck);
	f->shm->slot[0].state = SLOT_RUNNING;
	ticks_release(f->t, T0);
	return f;
}

/* Nothing but the file in its directory: no temporary file left. */
static void only_the_file(struct fix *f)
{
	struct dirent **e;
	int n = scandir(f->dir, &e, NULL, alphasort);

	assert_true(n >= 0);
	for (int i = 0; i < n; i++) {
		if (strcmp(e[i]->d_name, ".") && strcmp(e[i]->d_name, "..") &&
		    strcmp(e[i]->d_name, "r.json"))
			fail_msg("left beside the file: %s", e[i]->d_name);
		free(e[i]);
	}
	free(e);
}

static void fix_free(struct fix *f)
{
	ckpt_free(f->ck);
	only_the_file(f);
	unlink(f->path);
	rmdir(f->dir);
	fclose(f->t->out);
	ticks_free(f->t);
	result_free(f->res);
	shm_free(f->shm, 1);
	free(f);
}

/* One second of the client's work, and the tick at its end @s seconds
 * after the release: 10 lines, 4096 bytes, a WriteX and a Rename. */
static void second(struct fix *f, uint64_t s)
{
	struct client_slot *sl = &f->shm->slot[0];

	if (sl->gen != f->shm->hdr.gen) { /* the warmup ended */
		ss_reset(&sl->st);
		sl->bytes = 0;
		sl->gen = f->shm->hdr.gen;
	}
	sl->lines += 10;
	sl->bytes += 4096;
	shm_record(f->shm, 0, SS_HIST(SS_OP, OP_WRITEX), 1000 + s);
	shm_record(f->shm, 0, SS_HIST(SS_OP, OP_RENAME), 50000);
	sl->st.bytes[OP_WRITEX] += 4096;
	sl->tick_op_max[OP_WRITEX] = 1000 + s;
	ticks_tick(f->t, AT(s));
}

/* Offer at @s s after the release; if @due, wait for the checkpoint it
 * makes (the count of files written goes up) and read the file back. */
static struct result *offer(struct fix *f, uint64_t s, bool due)
{
	struct result *r = NULL;
	char err[1024];

	ckpt_offer(f->ck, f->t, NULL, AT(s));
	if (!due)
		return NULL;
	/* the thread writes it: at most 60 s, however loaded the machine */
	for (int i = 0; i < 60000 && ckpt_written(f->ck) == f->written; i++)
		usleep(1000);
	assert_int_equal(ckpt_written(f->ck), f->written + 1);
	f->written++;
	if (result_load(f->path, &r, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(r->status, RESULT_RUNNING);
	return r;
}

/* The checkpoint @r holds the series of the run exactly. */
static void same_series(const struct result *r, const struct result *run)
{
	assert_int_equal(r->npoints, run->npoints);
	assert_true(r->interval_s == run->interval_s);
	for (uint32_t i = 0; i < r->npoints; i++) {
		const struct result_point *a = &r->points[i],
					  *b = &run->points[i];

		if (a->lines != b->lines || a->bytes != b->bytes ||
		    a->warmup != b->warmup ||
		    a->count[OP_WRITEX] != b->count[OP_WRITEX] ||
		    a->max_ns[OP_WRITEX] != b->max_ns[OP_WRITEX] ||
		    a->t < b->t - 1e-6 || a->t > b->t + 1e-6)
			fail_msg("point %u of %u differs", i, r->npoints);
	}
}

static void test_interval(void **state)
{
	(void)state;
	assert_int_equal(ckpt_interval_ns(0), CKPT_INTERVAL_NS);
	assert_int_equal(ckpt_interval_ns(50 * NSEC_PER_MSEC), 5 * S);
	/* one of 150 ms (a series of an hour): one every 15 s, 1 % */
	assert_int_equal(ckpt_interval_ns(150 * NSEC_PER_MSEC), 15 * S);
}

/* The first at the first tick, in the warmup; then one every 5 s of the
 * series; the summary so far; the series through two halvings. */
static void test_series(void **state)
{
	/* 4213: the last point lasts 1 s of the 2 s of the series'
	 * resolution then, and the next tick adds to it */
	static const uint64_t at[] = {4000, 4090, 4200, 4213, 4214, 9001, 9002};
	struct fix *f = fix_new(100000, 2);
	struct result *r;
	uint64_t s = 0;

	(void)state;
	second(f, ++s);
	r = offer(f, s, true); /* the first tick's */
	assert_true(NEAR(r->covers_s, 1.0));
	assert_true(r->measured_s == 0 && r->warmup_s == 0);
	assert_int_equal(r->op[OP_WRITEX].h.count, 1); /* the warmup's */
	same_series(r, f->res);
	result_free(r);
	for (s++; s < 6; s++) {
		second(f, s);
		offer(f, s, false); /* not due: 5 s after the first */
	}
	second(f, s);
	r = offer(f, s, true);
	assert_true(NEAR(r->covers_s, 6.0));
	assert_true(r->warmup_s == 2.0);
	assert_true(NEAR(r->measured_s, 4.0));
	/* the measured phase's calls: seconds 3 to 6 */
	assert_int_equal(r->op[OP_WRITEX].h.count, 4);
	assert_int_equal(r->op[OP_WRITEX].h.max, 1006);
	assert_int_equal(r->op[OP_RENAME].h.count, 4);
	assert_int_equal(r->op[OP_WRITEX].bytes, 4 * 4096);
	assert_int_equal(r->op[OP_WRITEX].max_client, -1); /* not known */
	assert_true(r->throughput > 0);
	same_series(r, f->res);
	result_free(r);
	/* through a series that fills up (4096 points at 4096 s) and halves
	 * its resolution (2 s, then 4 s at 8194 s), the points merging with
	 * the last one in between: each checkpoint has it exactly */
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		/* at[i], or once due if they cost more than 50 ms here */
		while (s < at[i] || AT(s) < ckpt_due_ns(f->ck))
			second(f, ++s);
		r = offer(f, s, true);
		same_series(r, f->res);
		assert_int_equal(r->op[OP_WRITEX].h.count, s - 2);
		assert_true(NEAR(r->covers_s, (double)s));
		result_free(r);
	}
	assert_true(f->res->interval_s == 4.0);
	fix_free(f);
}

/* The end of the measured phase is offered at once; after ckpt_stop()
 * nothing replaces the file (the final write's). */
static void test_end_and_stop(void **state)
{
	struct fix *f = fix_new(5, 0);
	struct result *r;
	uint64_t s;

	(void)state;
	second(f, 1);
	result_free(offer(f, 1, true));
	/* the end of the run at 5 s begins the clean-up */
	for (s = 2; s <= 5; s++)
		second(f, s);
	assert_true(f->t->cleanup);
	r = offer(f, 5, true); /* not 5 s after the first: due all the same */
	assert_true(r->measured_s == 5.0); /* to the deadline */
	assert_int_equal(r->op[OP_WRITEX].h.count, 5);
	result_free(r);
	second(f, 6);
	ckpt_stop(f->ck);
	ckpt_offer(f->ck, f->t, NULL, AT(60)); /* due, but stopped */
	ckpt_free(f->ck); /* ends the thread, which renamed nothing */
	f->ck = NULL;
	{
		char err[1024];

		if (result_load(f->path, &r, err, sizeof(err)))
			fail_msg("%s", err);
	}
	assert_true(r->covers_s == 5.0);
	result_free(r);
	fix_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interval),
		cmocka_unit_test(test_series),
		cmocka_unit_test(test_end_and_stop),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
