/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * client.c - the hot loop.  Per line: check the stop flag, pace, read the
 * clock, see whether the run is over (deadline.h), call the backend, read
 * the clock, see whether the warmup is over, record (a paced client also
 * its response time, from the intended start its pacing computed: no
 * clock read more; with BPF, two plain loads of the foreign CPU wait for
 * its own latency).  No allocation, no string work, no system call beyond
 * the operation's own and two clock reads (pacing and Sleep aside).
 * Failures are turned into text only on the error path.
 */
#include "client.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client_msg.h"
#include "clock.h"
#include "deadline.h"
#include "pace.h"

#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr)-offsetof(type, member)))

static inline struct client *client_of(struct be_client *bc)
{
	return container_of(bc, struct client, be);
}

static void release(struct client *cl, be_handle h)
{
	if (cl->b->release)
		cl->b->release(&cl->be, h);
}

/*
 * The handle table: slot i of the loadfile is h[i + 1]; h[0] is the
 * scratch handle that ops without one get (LF_NONE + 1 wraps to 0), so the
 * hot loop passes a handle without a branch.
 */
_Static_assert(LF_NONE == UINT32_MAX, "LF_NONE + 1 must wrap to 0");

static inline be_handle *handle_of(const struct client *cl, uint32_t slot)
{
	return &cl->h[(uint32_t)(slot + 1)];
}

/* NTCreateX and Close: the backend opens and closes, the engine keeps the
 * handles and their state (client_step calls this in the op's time, with
 * what the slot held before the op).  A failed open of a slot that is not
 * open remembers why, so a later use of the handle can name the cause.
 * The rare cases that release a handle are out of line. */
static void __attribute__((noinline))
opened_release(struct client *cl, const struct lf_op *op, be_handle old)
{
	be_handle *h = handle_of(cl, op->handle);

	if (op->expect == LF_EXPECT_FAIL) {
		release(cl, *h); /* the core reports "succeeded - expected" */
		*h = old;
		return;
	}
	release(cl, old); /* replaced by the new one */
	cl->hstate[op->handle] = 0;
}

_Static_assert(OP_NTCREATEX == 0 && OP_CLOSE == 1,
	       "client_step finds the two handle ops with one comparison");

static inline int handle_done(struct client *cl, const struct lf_op *op, int rc,
			      be_handle old)
{
	int *st = &cl->hstate[op->handle];

	if (op->type == OP_CLOSE) {
		*st = -1; /* closed whatever the backend says */
		return rc;
	}
	if (unlikely(rc)) {
		*handle_of(cl, op->handle) = old; /* nothing new is open */
		if (rc < 0 && *st)
			*st = -rc;
	} else if (unlikely(!*st || op->expect == LF_EXPECT_FAIL)) {
		opened_release(cl, op, old);
	} else {
		*st = 0;
	}
	return rc;
}

static int engine_sleep(struct be_client *bc, const struct lf_op *op,
			be_handle *h);

/* --fake-io: ReadX, WriteX, READ3 and WRITE3 move no data (their bytes are
 * counted) */
static int engine_fake_io(struct be_client *bc, const struct lf_op *op,
			  be_handle *h)
{
	(void)bc;
	(void)op;
	(void)h;
	return 0;
}

_Static_assert(OP_NR <= 64, "client.timed has a bit per op");

/* An op the backend declares it cannot execute (backend.h: not_run): not
 * called, not timed; client_step counts its line in the stats.  What it
 * returns makes client_compare_status() leave it alone whatever the loadfile
 * expected: it did not run. */
static int engine_not_run(struct be_client *bc, const struct lf_op *op,
			  be_handle *h)
{
	(void)bc;
	(void)op;
	(void)h;
	return BE_REPORTED;
}

/* @cl records into the histograms of generation @gen from now on */
static void use_gen(struct client *cl, uint32_t gen)
{
	cl->sg = gen % SS_GENS;
	cl->gn = shm_gen(cl->shm, cl->sidx, gen);
	cl->pool = shm_pool(cl->shm, cl->sidx, gen);
}

/* what a client reads without the BPF accounting of foreign CPU wait */
static const volatile uint64_t no_foreign;

void client_set_foreign(struct client *cl, const volatile uint64_t *ctr)
{
	cl->fwait = ctr ? ctr : &no_foreign;
	cl->own = ctr != NULL;
}

bool client_paced(const struct config *cfg, const struct program *prog)
{
	/* every client asks this at its start: a scan of the ops here
	 * made 10000 clients of client.txt (458k ops) take 13 s of CPU
	 * before their release */
	return cfg->target_rate > 0 || prog->paces;
}

int client_init(struct client *cl, int id, const struct config *cfg,
		const struct program *prog, const struct backend *b,
		const struct be_run *run, struct shm *shm)
{
	memset(cl, 0, sizeof(*cl));
	cl->be.id = id;
	cl->be.prog = prog;
	cl->be.run = run;
	cl->be.host = &client_host;
	cl->be.rng = 0x9e3779b97f4a7c15ULL ^ ((uint64_t)id << 32 | 0x5bd1e995);
	cl->cfg = cfg;
	cl->prog = prog;
	cl->b = b;
	cl->hdr = &shm->hdr;
	cl->slot = &shm->slot[id - run->first_id]; /* this host's slots */
	cl->shm = shm;
	cl->sidx = id - run->first_id;
	use_gen(cl, 0);
	cl->paced = client_paced(cfg, prog);
	cl->slow_ns = cfg->stall_ms > 0
			      ? (uint64_t)cfg->stall_ms * NSEC_PER_MSEC
			      : UINT64_MAX;
	memcpy(cl->op, be_ops(b, run), sizeof(cl->op));
	cl->timed = 0;
	for (int t = 0; t < OP_NR; t++) {
		if (be_not_run(b, t))
			cl->op[t] = engine_not_run;
		else if (op_is_timed(t))
			cl->timed |= 1ull << t;
	}
	cl->op[OP_SLEEP] = engine_sleep;
	if (cfg->fake_io) {
		cl->op[OP_READX] = engine_fake_io;
		cl->op[OP_WRITEX] = engine_fake_io;
		cl->op[OP_READ3] = engine_fake_io;
		cl->op[OP_WRITE3] = engine_fake_io;
	}
	cl->io_col[OP_WRITEX] = cfg->fake_io;
	cl->io_col[OP_READX] = cfg->fake_io || (b->caps & BE_COUNT_READ_RET);
	cl->h = calloc(prog->nhandles + 1, sizeof(*cl->h));
	cl->hstate = malloc(sizeof(int) * (prog->nhandles + 1));
	if (!cl->h || !cl->hstate) {
		client_fail(cl, NULL, "out of memory");
		return -1;
	}
	for (uint32_t i = 0; i < prog->nhandles; i++)
		cl->hstate[i] = -1;
	client_set_foreign(cl, NULL);
	return 0;
}

void client_release_all(struct client *cl)
{
	for (uint32_t i = 0; i < cl->prog->nhandles; i++) {
		if (!cl->hstate[i])
			release(cl, *handle_of(cl, i));
		cl->hstate[i] = -1;
	}
}

/* ------------------------------ pacing --------------------------------- */

/* Sleep until @ns, in slices, so that a stop (Ctrl-C, a failure) is seen
 * within 50 ms even in the middle of a long Sleep or pacing wait; never
 * past the end of the run. */
static void sleep_until(struct client *cl, uint64_t ns)
{
	uint64_t now = clock_ns();

	ns = deadline_wait_end(ns, cl->end_ns);
	while (now < ns && !cl->hdr->stop) {
		clock_sleep_until(pace_slice_end(now, ns));
		now = clock_ns();
	}
}

static inline void note_latency(struct client_slot *s, uint64_t ns)
{
	if (ns > s->tick_max_ns)
		s->tick_max_ns = ns;
}

/* -R: hold the client's byte rate at cfg->target_rate MB/s.  Returns the
 * line's intended start. */
static uint64_t pace_rate(struct client *cl)
{
	double rate = cl->cfg->target_rate * 1e6;
	uint64_t now = clock_ns(), due;
	int64_t d = pace_rate_delay(&cl->rate, cl->pace_bytes, now, rate);

	if (d > 0) {
		sleep_until(cl, now + (uint64_t)d);
		now = clock_ns();
	} else {
		note_latency(cl->slot, (uint64_t)-d);
	}
	due = pace_rate_due(&cl->rate, cl->pace_bytes, now, rate);
	pace_rate_mark(&cl->rate, cl->pace_bytes, now, due, d > 0);
	return due;
}

/* Timestamped lines: wait until the line's time in the current pass (a
 * line without a timestamp does not wait).  Returns its intended start. */
static uint64_t pace_timestamp(struct client *cl, const struct lf_op *op)
{
	uint64_t due =
		pace_timestamp_due(cl->pass_start_ns, op->ts_ns, cl->due_ns);

	if (op->ts_ns) {
		uint64_t now = clock_ns();
		uint64_t late =
			pace_timestamp_late(cl->pass_start_ns, op->ts_ns, now);

		if (late)
			note_latency(cl->slot, late);
		else
			sleep_until(cl, due);
	}
	cl->due_ns = due;
	return due;
}

static int engine_sleep(struct be_client *bc, const struct lf_op *op,
			be_handle *h)
{
	struct client *cl = client_of(bc);

	(void)h;
	if (op->arg[0] > 0)
		sleep_until(cl,
			    clock_ns() + (uint64_t)op->arg[0] * NSEC_PER_USEC);
	return 0;
}

/* ------------------------------ the loop ------------------------------- */

static void pass_end(struct client *cl, uint64_t now)
{
	struct client_slot *s = cl->slot;
	uint64_t head = s->pass_head;

	s->lines += cl->prog->tail_lines;
	if (cl->cfg->show_exec_time) {
		if (head - s->pass_tail < PASS_RING) {
			struct pass_rec *r = &s->pass[head % PASS_RING];

			r->ms = (uint32_t)((now - cl->pass_start_ns) /
					   NSEC_PER_MSEC);
			r->at_ms = (uint32_t)((now - cl->hdr->start_ns) /
					      NSEC_PER_MSEC);
			__atomic_store_n(&s->pass_head, head + 1,
					 __ATOMIC_RELEASE);
		} else {
			s->pass_dropped++;
		}
	}
	cl->pc = 0;
	cl->pass_start_ns = now;
	cl->due_ns = now;
	cl->prev_start_ns = 0;
	cl->pace_bytes = 0;
	cl->rate.ns = 0;
	if (cl->cfg->run_once) {
		cl->done = true;
		s->state = SLOT_CLEANUP; /* no longer running an op */
	}
}

/* The end of the warmup has passed (deadline.h): the op that just ended
 * and everything after it count in the measured phase, from zero. */
static void __attribute__((noinline)) new_phase(struct client *cl)
{
	struct client_slot *s = cl->slot;

	cl->warm_ns = DEADLINE_NEVER;
	cl->gen++;
	use_gen(cl, cl->gen); /* the new gen's histograms: empty */
	ss_reset(&s->st);
	s->bytes = 0;
	s->nwarn = 0;
	s->gen = cl->gen;
}

/* The end of the run has passed at @now, before the next op: it is not
 * started, and the client's part of the execute phase ended with its last
 * op, just before @now (ticks.c: a phase that ran on past its end). */
static bool __attribute__((noinline)) run_over(struct client *cl, uint64_t now)
{
	cl->done = true;
	cl->slot->exec_end_ns = now;
	cl->slot->state = SLOT_CLEANUP; /* no longer running an op */
	return false;
}

/* Record one call of @op that started at @t0 and took @d ns. */
static inline void record(struct client *cl, const struct lf_op *op,
			  uint64_t t0, uint64_t d)
{
	struct client_slot *s = cl->slot;
	unsigned int hi = SS_HIST(SS_OP, op->type);
	const struct hist_head *h = ss_head(cl->gn, hi);

	if (unlikely(d > h->max || !h->count)) {
		s->max_start_ns[op->type] = t0;
		s->max_pc[op->type] = cl->pc;
	}
	if (d > s->tick_op_max[op->type])
		s->tick_op_max[op->type] = d;
	ss_record(&s->st, cl->gn, cl->pool, cl->sg, hi, d);
}

/* A paced client's @op, due at @due, ran from @t0 to @t1: its response
 * time (stats.h), or, for a Sleep, the schedule moves on by it.  Out of
 * line: an unpaced client pays one test of cl->paced per op. */
static void __attribute__((noinline))
paced_done(struct client *cl, const struct lf_op *op, uint64_t due, uint64_t t0,
	   uint64_t t1)
{
	struct client_slot *s = cl->slot;
	uint64_t r;

	if (op->type == OP_SLEEP) { /* the schedule moves on */
		if (cl->cfg->target_rate > 0)
			cl->rate.sched = pace_slept(cl->rate.sched, op->arg[0]);
		else
			cl->due_ns = pace_slept(cl->due_ns, op->arg[0]);
		return;
	}
	if (!(cl->timed >> op->type & 1))
		return; /* not run (backend.h: not_run): no response time */
	r = ss_record_resp(&s->st, cl->gn, cl->pool, cl->sg, op->type, due,
			   t0, t1);
	if (r > s->tick_resp_max[op->type])
		s->tick_resp_max[op->type] = r;
}

/* An op of the stall threshold or longer: into the slot's slow ring for
 * the watchdog (shm.h), before op_start_ns is cleared. */
static void __attribute__((noinline))
note_slow(struct client *cl, uint64_t t0, uint64_t d)
{
	struct client_slot *s = cl->slot;
	uint64_t head = s->slow_head;
	struct slow_rec *r = &s->slow[head % SLOW_RING];

	r->start_ns = t0;
	r->dur_ns = d;
	r->pc = cl->pc;
	__atomic_store_n(&s->slow_head, head + 1, __ATOMIC_RELEASE);
}

/* Run the next line of @cl.  Returns true when the client must stop. */
static inline bool client_step(struct client *cl)
{
	const struct lf_op *op = &cl->prog->ops[cl->pc];
	struct client_slot *s = cl->slot;
	uint64_t t0, t1, f0, f1, bytes, due = 0;
	be_handle *hp, old;
	int rc;

	if (unlikely(cl->cfg->target_rate > 0))
		due = pace_rate(cl);
	else if (unlikely(cl->paced))
		due = pace_timestamp(cl, op);

	if (unlikely(op->handle != LF_NONE && op->type != OP_NTCREATEX &&
		     cl->hstate[op->handle]))
		return client_no_handle(cl, op);

	t0 = clock_ns();
	if (unlikely(deadline_past(t0, cl->end_ns)))
		return run_over(cl, t0);
	/* the foreign wait inside the op: read after t0 and before t1, so
	 * a wait between the reads is in the latency too (foreign.h) */
	f0 = *cl->fwait;
	s->last_start_ns = t0;
	s->cur_op = cl->pc;
	if (likely(cl->prev_start_ns) && !cl->cfg->target_rate && !op->ts_ns)
		note_latency(s, t0 - cl->prev_start_ns);
	cl->prev_start_ns = t0;

	/* a Sleep is no stall, nor an op that is not run */
	if (likely(cl->timed >> op->type & 1))
		__atomic_store_n(&s->op_start_ns, t0, __ATOMIC_RELEASE);
	hp = handle_of(cl, op->handle);
	old = *hp;
	rc = cl->op[op->type](&cl->be, op, hp);
	if (op->type <= OP_CLOSE)
		rc = handle_done(cl, op, rc, old);
	f1 = *cl->fwait;
	t1 = clock_ns();
	/* tell the watchdog: a slow op's measured time first (a Sleep is
	 * never slow, nor an op that is not run: not in cl->timed), then
	 * that none is in flight */
	if (unlikely(t1 - t0 >= cl->slow_ns) && (cl->timed >> op->type & 1))
		note_slow(cl, t0, t1 - t0);
	__atomic_store_n(&s->op_start_ns, 0, __ATOMIC_RELEASE);

	if (unlikely(deadline_past(t1, cl->warm_ns)))
		new_phase(cl); /* the warmup is over: count afresh */
	if (likely(cl->timed >> op->type & 1)) {
		record(cl, op, t0, t1 - t0);
		if (cl->own)
			ss_record_own(&s->st, cl->gn, cl->pool, cl->sg,
				      op->type, t1 - t0, f1 - f0);
	} else if (op->type != OP_SLEEP) /* not run: counted, in its phase */
		s->st.not_run[op->type]++;
	if (unlikely(cl->paced))
		paced_done(cl, op, due, t0, t1);
	bytes = op->io_bytes[cl->io_col[op->type]];
	s->bytes += bytes;
	s->st.bytes[op->type] += bytes;
	cl->pace_bytes += bytes;
	s->lines += op->line_delta;
	if (unlikely(rc || op->expect == LF_EXPECT_FAIL) &&
	    client_compare_status(cl, op, rc))
		return true;
	if (unlikely(++cl->pc == cl->prog->nops))
		pass_end(cl, t1);
	return false;
}

/* The loop is left with @rc: a client that did not stop at the deadline
 * (the stop flag, the end of --run-once, a failure) ended its part of the
 * execute phase now, right after its last op. */
static int loop_end(struct client *cls, int n, int rc)
{
	uint64_t now = clock_ns();

	for (int i = 0; i < n; i++) {
		if (!cls[i].slot->exec_end_ns)
			cls[i].slot->exec_end_ns = now;
	}
	return rc;
}

int client_loop(struct client *cls, int n)
{
	uint64_t now = clock_ns();
	int active = n;

	for (int i = 0; i < n; i++) {
		cls[i].slot->pid = (uint32_t)getpid();
		cls[i].pass_start_ns = now;
		cls[i].due_ns = now;
		cls[i].gen = cls[i].hdr->gen;
		use_gen(&cls[i], cls[i].gen);
		cls[i].warm_ns = cls[i].hdr->warmup_end_ns;
		cls[i].end_ns = cls[i].hdr->end_ns;
		cls[i].slot->gen = cls[i].gen;
		cls[i].slot->state = SLOT_RUNNING;
	}
	if (n == 1) {
		struct client *cl = &cls[0];

		while (likely(!cl->hdr->stop) && !cl->done) {
			if (client_step(cl))
				return loop_end(cls, n, 1);
		}
		return loop_end(cls, n, 0);
	}
	while (active && !cls[0].hdr->stop) {
		active = 0;
		for (int i = 0; i < n; i++) {
			if (cls[i].done)
				continue;
			if (client_step(&cls[i]))
				return loop_end(cls, n, 1);
			active++;
		}
	}
	return loop_end(cls, n, 0);
}
