/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_offcpu.c - why a stalled op waited, without BPF: the bookkeeping
 * of offcpu.c fed with records made up here, on a fake clock, and a fake
 * /proc/kallsyms.  Which intervals belong to which op (none before its
 * start, none after its end, none of another process), the time asleep,
 * runnable and on a CPU, the wakers (ours, not ours, interrupts by the
 * BPF side's preempt count or by the waker's stack), the longest sleeps
 * kept, the per-op table (merged, the warmup left out, the most time
 * first), an op still asleep at the end, losses, the symbols; and the
 * watchdog driving it through its polls.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "clock.h"
#include "ksyms.h"
#include "offcpu.h"
#include "result.h"
#include "shm.h"
#include "watchdog.h"
#include "watchdog_test.h"

#define MS  NSEC_PER_MSEC
#define US  NSEC_PER_USEC
#define T0  (1000 * NSEC_PER_SEC)
#define K   0xffffffff81000000ULL /* the fake kernel text */
#define MOD 0xffffffffc0001000ULL /* a module's */

/* the fake /proc/kallsyms: a function every 0x100 bytes from K */
static const char *const names[] = {
	"entry_SYSCALL_64_after_hwframe", /* 0 */
	"do_syscall_64",		  /* 1 */
	"do_fcntl",			  /* 2 */
	"fcntl_setlk",			  /* 3 */
	"posix_lock_inode",		  /* 4 */
	"locks_unlink_lock_ctx",	  /* 5 */
	"__wake_up",			  /* 6 */
	"try_to_wake_up",		  /* 7 */
	"bpf_trace_run1",		  /* 8 */
	"handle_softirqs",		  /* 9 */
	"blk_mq_end_request",		  /* 10 */
	"_einittext",			  /* 11: the BPF program's JIT code */
};
#define F(i) (K + 0x100 * (i) + 0x10) /* an address in function i */

static char kallsyms[64];

static void write_kallsyms(bool zero)
{
	FILE *fp;
	int fd;

	strcpy(kallsyms, "/tmp/dbng-test-kallsyms-XXXXXX");
	fd = mkstemp(kallsyms);
	assert_true(fd >= 0);
	close(fd);
	fp = fopen(kallsyms, "w");
	assert_non_null(fp);
	fprintf(fp, "%016llx D __preempt_count\n", zero ? 0ULL : 0x1000ULL);
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		fprintf(fp, "%016llx %c %s\n",
			zero ? 0ULL : (unsigned long long)(K + 0x100 * i),
			i % 2 ? 'T' : 't', names[i]);
	fprintf(fp, "%016llx t request_wait_answer\t[fuse]\n",
		zero ? 0ULL : (unsigned long long)MOD);
	fprintf(fp, "%016llx b some_data\n", zero ? 0ULL : K + 0x100000);
	fclose(fp);
}

/* The pids of two client processes, one client each (or @cpp) */
static const int pids[] = {1000, 2000};

struct fix {
	char kallsyms[64];
	struct offcpu *oc;
	/* a fake source: the BPF side's counters, and its task map for the
	 * one task peek asks about */
	struct offcpu_counts counts;
	struct offcpu_rec open;
	bool have_open;
};

static void fake_counts(void *ctx, struct offcpu_counts *c)
{
	*c = ((struct fix *)ctx)->counts;
}

static int fake_peek(void *ctx, uint32_t pid, struct offcpu_rec *r)
{
	struct fix *f = ctx;

	if (!f->have_open || pid != f->open.pid)
		return -1;
	*r = f->open;
	return 0;
}

/* the id of the first client: 0, or a host of a run across hosts */
static int fix_first;

static struct fix *fix_new(int cpp, bool zero)
{
	struct fix *f = calloc(1, sizeof(*f));
	struct offcpu_cfg c = {
		.nprocs = 2,
		.cpp = cpp,
		.first = fix_first,
		.pids = pids,
		.stack_min_ns = 1 * MS,
	};

	assert_non_null(f);
	write_kallsyms(zero);
	strcpy(f->kallsyms, kallsyms);
	c.kallsyms = f->kallsyms;
	c.src.counts = fake_counts;
	c.src.peek = fake_peek;
	c.src.ctx = f;
	f->oc = offcpu_new(&c);
	assert_non_null(f->oc);
	return f;
}

static void fix_free(struct fix *f)
{
	offcpu_free(f->oc);
	unlink(f->kallsyms);
	free(f);
}

/* The end of the run: @ev (if any) is the one event kept in @st, whose
 * stacks get their names now */
static void fill(struct fix *f, struct result_stall *ev,
		 struct result_stalls *st)
{
	if (ev) {
		st->events[st->nevents++] = *ev;
		memset(ev, 0, sizeof(*ev));
	}
	offcpu_fill(f->oc, st);
}

static void stalls_free(struct result_stalls *st)
{
	for (int i = 0; i < st->nevents; i++)
		result_stall_free(&st->events[i]);
	result_offcpu_run_free(&st->offcpu);
}

/*
 * A record of task @tgid: off the CPU at @off (state @state: 0
 * preempted, 1 S, 2 D), woken at @wake (0: not) by @waker in context
 * @ctx, back at @on; with stacks when @bs/@ws are given (function
 * indexes, innermost first, -1 ends).
 */
static void rec(struct fix *f, int tgid, uint64_t off, uint64_t wake,
		uint64_t on, uint32_t state, int waker, int ctx,
		const char *comm, const int *bs, const int *ws)
{
	struct offcpu_rec r;
	size_t len = OFFCPU_REC_SHORT;

	memset(&r, 0, sizeof(r));
	r.off_ns = off;
	r.wake_ns = wake;
	r.on_ns = on;
	r.pid = r.tgid = (uint32_t)tgid;
	r.state = state;
	r.waker_pid = r.waker_tgid = (uint32_t)waker;
	r.waker_ctx = (uint32_t)ctx;
	snprintf(r.waker_comm, sizeof(r.waker_comm), "%s", comm);
	if (bs || ws) {
		len = sizeof(r);
		for (int i = 0; bs && bs[i] >= 0; i++) {
			r.bstack[i] = bs[i] == 99 ? MOD + 8 : F(bs[i]);
			r.bstack_len += 8;
		}
		for (int i = 0; ws && ws[i] >= 0; i++) {
			r.wstack[i] = F(ws[i]);
			r.wstack_len += 8;
		}
	}
	assert_int_equal(offcpu_record(f->oc, &r, len), 0);
}

/* stacks, innermost first: where a lock waiter sleeps; the unlocking
 * waker as BPF takes it (its own program and glue innermost) */
static const int lock_wait[] = {3, 2, 1, 0, -1};
static const int unlocker[] = {11, 8, 7, 6, 5, 4, 3, 2, 1, 0, -1};
static const int softirq[] = {11, 8, 7, 10, 9, 1, 0, -1};
static const int fuse_wait[] = {99, 1, 0, -1};
#define LOCK_WAIT                                                \
	"entry_SYSCALL_64_after_hwframe;do_syscall_64;do_fcntl;" \
	"fcntl_setlk"
#define UNLOCKER                                                             \
	"entry_SYSCALL_64_after_hwframe;do_syscall_64;do_fcntl;fcntl_setlk;" \
	"posix_lock_inode;locks_unlink_lock_ctx;__wake_up;try_to_wake_up"

static struct result_stall *event(int op, bool warmup)
{
	struct result_stall *ev = calloc(1, sizeof(*ev));

	assert_non_null(ev);
	ev->op = op;
	ev->warmup = warmup;
	return ev;
}

static void event_free(struct result_stall *ev)
{
	result_stall_free(ev);
	free(ev);
}

static const uint64_t none[2] = {0, 0};

/*
 * Client 0 waits 290 ms for a lock that client 1 releases: its op is
 * t0 .. t0 + 300 ms; a preemption and a sleep before t0 (the previous
 * op), one after its end (the next op) and client 1's own intervals are
 * not its.  The sleep is asleep until the wakeup and runnable after it;
 * the waker is client 1 in the unlock path, its stack without the
 * tracing's own frames; the op's remaining time is on a CPU.
 */
static void test_lock_wait(void **state)
{
	struct fix *f = fix_new(1, false);
	uint64_t t0 = T0, end = t0 + 300 * MS;
	struct result_stall *ev = event(OP_LOCKX, false), *e0 = ev;
	const struct result_wait *w;
	struct result_stalls st = {0};
	uint64_t inflight[2] = {t0, 0};

	(void)state;
	rec(f, 1000, t0 - 50 * MS, t0 - 20 * MS, t0 - 19 * MS, 1, 2000, 0,
	    "dbench-ng", lock_wait, unlocker); /* the previous op */
	rec(f, 1000, t0 - 5 * MS, 0, t0 - 4 * MS, 0, 0, 0, "", NULL, NULL);
	rec(f, 2000, t0 + 1 * MS, t0 + 2 * MS, t0 + 3 * MS, 1, 1000, 0,
	    "dbench-ng", NULL, NULL); /* the other client's */
	rec(f, 1000, t0 + 10 * US, t0 + 290 * MS, t0 + 290 * MS + 500 * US, 1,
	    2000, 0, "dbench-ng", lock_wait, unlocker);
	/* the watchdog sees it past the threshold at +100 ms */
	offcpu_open(f->oc, 0, t0, t0 + 100 * MS);
	assert_int_equal(offcpu_buffered(f->oc), 4); /* none came back yet */
	offcpu_settle(f->oc, t0 + 100 * MS, inflight);
	/* only the op's own stays: the others cannot be an op's any more */
	assert_int_equal(offcpu_buffered(f->oc), 1);
	rec(f, 1000, t0 + 295 * MS, 0, t0 + 296 * MS, 0, 0, 0, "", NULL,
	    NULL); /* preempted 1 ms */
	rec(f, 1000, end + 1 * MS, end + 3 * MS, end + 4 * MS, 1, 2000, 0,
	    "dbench-ng", NULL, NULL); /* the next op's */
	offcpu_close(f->oc, 0, end, true, end + 5 * MS, ev);
	f->counts.ctx_by = 2;
	fill(f, ev, &st);
	ev = &st.events[0];

	assert_true(ev->offcpu.valid);
	assert_false(ev->offcpu.partial);
	assert_int_equal(ev->offcpu.sleeps, 1);
	assert_int_equal(ev->offcpu.preempted, 1);
	assert_true(ev->offcpu.blocked_ms == 289.99);
	assert_true(ev->offcpu.runq_ms == 1.5);
	assert_int_equal(ev->offcpu.nwaits, 1);
	w = &ev->offcpu.waits[0];
	assert_true(w->at_ms == 0.01);
	assert_true(w->blocked_ms == 289.99);
	assert_true(w->runq_ms == 0.5);
	assert_int_equal(w->state, 'S');
	assert_true(w->woken);
	assert_string_equal(w->stack, LOCK_WAIT);
	assert_int_equal(w->waker_pid, 2000);
	assert_string_equal(w->waker_comm, "dbench-ng");
	assert_int_equal(w->waker_client, 1);
	assert_int_equal(w->waker_ctx, WAKER_TASK);
	assert_string_equal(w->waker_stack, UNLOCKER);

	/* the per-op table: the sleep, the runnable time, the rest on a CPU;
	 * together the op's 300 ms */
	assert_string_equal(st.offcpu.method, "bpf");
	assert_null(st.offcpu.method_note);
	assert_true(st.offcpu.symbols);
	assert_string_equal(st.offcpu.irq_method, "interrupt tracepoints");
	assert_true(st.offcpu.stack_min_ms == 1.0);
	assert_int_equal(st.offcpu.npairs, 3);
	assert_int_equal(st.offcpu.pairs[0].op, OP_LOCKX);
	assert_int_equal(st.offcpu.pairs[0].kind, WAIT_SLEEP);
	assert_int_equal(st.offcpu.pairs[0].count, 1);
	assert_true(st.offcpu.pairs[0].ms == 289.99);
	assert_true(st.offcpu.pairs[0].waker_client);
	assert_null(st.offcpu.pairs[0].waker_comm);
	assert_string_equal(st.offcpu.pairs[0].stack, LOCK_WAIT);
	assert_string_equal(st.offcpu.pairs[0].waker_stack, UNLOCKER);
	assert_int_equal(st.offcpu.pairs[1].kind, WAIT_CPU);
	assert_true(st.offcpu.pairs[1].ms == 8.51); /* 300 - 289.99 - 1.5 */
	assert_int_equal(st.offcpu.pairs[2].kind, WAIT_RUNQ);
	assert_int_equal(st.offcpu.pairs[2].count, 2);
	assert_true(st.offcpu.pairs[2].ms == 1.5);
	/* the next op's record waits for what the next poll says of it */
	assert_int_equal(offcpu_buffered(f->oc), 1);
	offcpu_settle(f->oc, end + 10 * MS, none);
	assert_int_equal(offcpu_buffered(f->oc), 0);
	stalls_free(&st);
	free(e0);
	fix_free(f);
}

/*
 * Interrupts are no task's doing: a wakeup the BPF side saw in a softirq
 * names no client even if one was interrupted, nor one whose context it
 * could not tell; one of another process (a FUSE daemon) is named by its
 * comm, its stack with its module.  The tracing's own frames at the
 * innermost end of a waker's stack are left out.
 */
static void test_interrupts(void **state)
{
	struct fix *f = fix_new(1, false);
	uint64_t t0 = T0;
	struct result_stall *ev = event(OP_WRITEX, false), *e0 = ev;
	struct result_stalls st = {0};
	const struct result_wait *w;

	(void)state;
	offcpu_open(f->oc, 0, t0, t0);
	rec(f, 1000, t0 + 1 * MS, t0 + 41 * MS, t0 + 42 * MS, 2, 2000,
	    OFFCPU_CTX_SOFTIRQ, "dbench-ng", lock_wait, softirq);
	rec(f, 1000, t0 + 50 * MS, t0 + 80 * MS, t0 + 81 * MS, 2, 2000,
	    OFFCPU_CTX_UNKNOWN, "dbench-ng", lock_wait, softirq);
	rec(f, 1000, t0 + 90 * MS, t0 + 90 * MS + 200 * US,
	    t0 + 90 * MS + 300 * US, 2, 2000, OFFCPU_CTX_HARDIRQ, "dbench-ng",
	    NULL, NULL);
	rec(f, 1000, t0 + 100 * MS, t0 + 120 * MS, t0 + 121 * MS, 1, 3000,
	    OFFCPU_CTX_TASK, "faultfs", fuse_wait, unlocker);
	offcpu_close(f->oc, 0, t0 + 130 * MS, true, t0 + 131 * MS, ev);
	fill(f, ev, &st);
	w = st.events[0].offcpu.waits;
	assert_int_equal(st.events[0].offcpu.nwaits, 4);
	/* longest first: 40, 30, 20, 0.2 ms */
	assert_true(w[0].blocked_ms == 40);
	assert_int_equal(w[0].state, 'D');
	assert_int_equal(w[0].waker_ctx, WAKER_SOFTIRQ);
	assert_int_equal(w[0].waker_client, -1);
	assert_string_equal(w[0].waker_stack,
			    "entry_SYSCALL_64_after_hwframe;do_syscall_64;"
			    "handle_softirqs;blk_mq_end_request;"
			    "try_to_wake_up");
	assert_true(w[1].blocked_ms == 30);
	assert_int_equal(w[1].waker_ctx, WAKER_UNKNOWN);
	assert_int_equal(w[1].waker_client, -1);
	assert_true(w[2].blocked_ms == 20);
	assert_int_equal(w[2].waker_ctx, WAKER_TASK);
	assert_int_equal(w[2].waker_client, -1);
	assert_string_equal(w[2].waker_comm, "faultfs");
	assert_string_equal(w[2].stack, "entry_SYSCALL_64_after_hwframe;"
					"do_syscall_64;request_wait_answer "
					"[fuse]");
	assert_true(w[3].blocked_ms == 0.2);
	assert_int_equal(w[3].waker_ctx, WAKER_HARDIRQ);
	assert_int_equal(w[3].waker_client, -1);
	assert_null(w[3].stack);
	assert_null(w[3].waker_stack);
	/* no row of the table names a client for them */
	for (int i = 0; i < st.offcpu.npairs; i++)
		assert_false(st.offcpu.pairs[i].waker_client);
	stalls_free(&st);
	free(e0);
	fix_free(f);
}

/*
 * The per-op table over several stalls: the same sleep and waker in two
 * events is one row (count 2, the times added); a stall of the warmup is
 * left out (the tables leave the warmup out); rows are sorted by time.
 * With two clients per process the waker is the process's first client;
 * on a host whose clients are 4 and up (a run across hosts), client 6.
 */
static void test_table(void **state)
{
	struct fix *f;
	struct result_stalls st = {0};
	uint64_t t = T0;

	(void)state;
	fix_first = 4;
	f = fix_new(2, false);
	fix_first = 0;
	for (int k = 0; k < 3; k++, t += NSEC_PER_SEC) {
		struct result_stall *ev = event(OP_LOCKX, k == 2);

		offcpu_open(f->oc, 1, t, t);
		rec(f, 1000, t + MS, t + 201 * MS, t + 201 * MS, 1, 2000, 0,
		    "dbench-ng", lock_wait, unlocker);
		offcpu_close(f->oc, 1, t + 202 * MS, true, t + 203 * MS, ev);
		assert_int_equal(ev->offcpu.waits[0].waker_client, 4 + 2);
		event_free(ev);
	}
	fill(f, NULL, &st);
	assert_int_equal(st.offcpu.npairs, 2); /* no runnable time */
	assert_int_equal(st.offcpu.pairs[0].kind, WAIT_SLEEP);
	assert_int_equal(st.offcpu.pairs[0].count, 2);
	assert_true(st.offcpu.pairs[0].ms == 400);
	assert_int_equal(st.offcpu.pairs[1].kind, WAIT_CPU);
	assert_int_equal(st.offcpu.pairs[1].count, 2);
	assert_true(st.offcpu.pairs[1].ms == 4);
	result_offcpu_run_free(&st.offcpu);
	fix_free(f);
}

/*
 * An op still stuck when the run ends has no record of its sleep (the
 * task never came back): its open interval comes from the task map, not
 * woken, asleep until the end; one that was woken but got no CPU yet is
 * runnable since.  Losses while it was open make its figures lower
 * bounds.
 */
static void test_still_stuck(void **state)
{
	struct fix *f = fix_new(1, false);
	uint64_t t0 = T0;
	struct result_stall *ev = event(OP_RENAME, false);
	const struct result_wait *w = ev->offcpu.waits;

	(void)state;
	offcpu_open(f->oc, 1, t0, t0 + 100 * MS);
	f->counts.lost = 3; /* the ring buffer was full meanwhile */
	f->open = (struct offcpu_rec){
		.off_ns = t0 + 5 * MS, .pid = 2000, .state = 2};
	f->have_open = true;
	offcpu_close(f->oc, 1, t0 + 900 * MS, false, t0 + 900 * MS, ev);
	assert_true(ev->offcpu.partial);
	assert_int_equal(ev->offcpu.nwaits, 1);
	assert_false(w->woken);
	assert_true(w->blocked_ms == 895);
	assert_int_equal(w->state, 'D');
	assert_null(w->waker_comm);
	assert_int_equal(w->waker_client, -1);
	event_free(ev);

	ev = event(OP_RENAME, false);
	w = ev->offcpu.waits;
	offcpu_open(f->oc, 1, t0 + 1000 * MS, t0 + 1100 * MS);
	f->open = (struct offcpu_rec){.off_ns = t0 + 1005 * MS,
				      .wake_ns = t0 + 1500 * MS,
				      .pid = 2000,
				      .state = 1,
				      .waker_pid = 1000,
				      .waker_tgid = 1000,
				      .waker_comm = "dbench-ng"};
	offcpu_close(f->oc, 1, t0 + 1600 * MS, false, t0 + 1600 * MS, ev);
	assert_false(ev->offcpu.partial);
	assert_true(w->woken);
	assert_true(w->blocked_ms == 495);
	assert_true(w->runq_ms == 100);
	assert_int_equal(w->waker_client, 0);
	event_free(ev);
	fix_free(f);
}

/*
 * Switches the BPF programs did not see: a client's switch-out and
 * switch-in must alternate.  One counted unpaired while a stall is open
 * makes it a lower bound and counts as lost; an op that ended while its
 * task's entry still holds an interval it opened (its switch-in was not
 * seen, so no record came) is marked at its close, before the BPF side
 * counts it at the task's next switch-out; so is one whose entry says
 * a switch-in in it found no interval open (a switch-out not seen).
 * An entry whose interval began after the op's end (a later
 * switch-out), or an op closed without the client's own end (the time
 * of the poll), is not.
 */
/* A LockX of client 0 from @t0 to @end, seen at the poll of @now (its
 * entry: f->open): whether it is marked a lower bound */
static bool lockx_partial(struct fix *f, uint64_t t0, uint64_t end,
			  uint64_t now)
{
	struct result_stall *ev = event(OP_LOCKX, false);
	bool partial;

	offcpu_open(f->oc, 0, t0, t0 + 100 * MS);
	offcpu_close(f->oc, 0, end, true, now, ev);
	partial = ev->offcpu.partial;
	assert_int_equal(ev->offcpu.sleeps, 0);
	event_free(ev);
	return partial;
}

static void test_unpaired(void **state)
{
	struct fix *f = fix_new(1, false);
	struct result_stall *ev;
	struct result_stalls st = {0};
	uint64_t t0 = T0;

	(void)state;
	/* counted before it opened: not its loss */
	f->counts.unpaired = 1;
	assert_false(lockx_partial(f, t0, t0 + 300 * MS, t0 + 305 * MS));
	/* counted while it is open */
	t0 += NSEC_PER_SEC;
	ev = event(OP_LOCKX, false);
	offcpu_open(f->oc, 0, t0, t0 + 100 * MS);
	f->counts.unpaired = 2;
	offcpu_close(f->oc, 0, t0 + 300 * MS, true, t0 + 305 * MS, ev);
	assert_true(ev->offcpu.partial);
	event_free(ev);

	/* the 300 ms lock wait whose switch-in was not seen */
	t0 += NSEC_PER_SEC;
	f->open = (struct offcpu_rec){
		.off_ns = t0 + 2 * MS, .pid = 1000, .state = 1};
	f->have_open = true;
	assert_true(lockx_partial(f, t0, t0 + 300 * MS, t0 + 305 * MS));
	/* a switch-in in the op found no interval open: its switch-out
	 * was not seen (the peek's on_ns) */
	t0 += NSEC_PER_SEC;
	f->open = (struct offcpu_rec){.on_ns = t0 + 150 * MS, .pid = 1000};
	assert_true(lockx_partial(f, t0, t0 + 300 * MS, t0 + 305 * MS));
	/* ... before the op: not this op's */
	t0 += NSEC_PER_SEC;
	f->open.on_ns = t0 - 1 * MS;
	assert_false(lockx_partial(f, t0, t0 + 300 * MS, t0 + 305 * MS));
	/* left the CPU after the op's end: the next op's, not a miss */
	t0 += NSEC_PER_SEC;
	f->open.off_ns = t0 + 300 * MS;
	assert_false(lockx_partial(f, t0, t0 + 300 * MS, t0 + 305 * MS));
	/* the end is the poll's time (the client's record of the op was
	 * overwritten): a switch-out before it may be after the op */
	t0 += NSEC_PER_SEC;
	f->open.off_ns = t0 + 200 * MS;
	assert_false(lockx_partial(f, t0, t0 + 305 * MS, t0 + 305 * MS));
	/* another process's entry says nothing of this one */
	t0 += NSEC_PER_SEC;
	f->open = (struct offcpu_rec){
		.off_ns = t0 + 2 * MS, .pid = 2000, .state = 1};
	assert_false(lockx_partial(f, t0, t0 + 300 * MS, t0 + 305 * MS));

	fill(f, NULL, &st);
	assert_int_equal(st.offcpu.lost, 2);
	result_offcpu_run_free(&st.offcpu);
	fix_free(f);
}

/* What is not ours is counted, not kept; kept sleeps are bounded */
static void test_bounds(void **state)
{
	struct fix *f = fix_new(1, false);
	struct offcpu_rec r = {.off_ns = T0, .on_ns = T0 + 1, .tgid = 1000};
	struct result_stall *ev = event(OP_WRITEX, false);
	struct result_stalls st = {0};

	(void)state;
	offcpu_open(f->oc, 0, T0, T0);
	assert_int_equal(offcpu_record(f->oc, &r, OFFCPU_REC_SHORT - 1), -1);
	r.tgid = 7; /* not a client */
	assert_int_equal(offcpu_record(f->oc, &r, OFFCPU_REC_SHORT), -1);
	r.tgid = 1000;
	r.on_ns = T0 - 1; /* back before it left */
	assert_int_equal(offcpu_record(f->oc, &r, OFFCPU_REC_SHORT), -1);
	for (int i = 0; i < 3 * STALL_MAX_WAITS; i++)
		rec(f, 1000, T0 + (uint64_t)i * MS,
		    T0 + (uint64_t)i * MS + (uint64_t)i * US,
		    T0 + (uint64_t)i * MS + (uint64_t)i * US, 1, 2000, 0,
		    "dbench-ng", NULL, NULL);
	offcpu_close(f->oc, 0, T0 + 100 * MS, true, T0 + 100 * MS, ev);
	assert_int_equal(ev->offcpu.sleeps, 3 * STALL_MAX_WAITS);
	assert_int_equal(ev->offcpu.nwaits, STALL_MAX_WAITS);
	assert_true(ev->offcpu.waits[0].blocked_ms ==
		    (3 * STALL_MAX_WAITS - 1) / 1e3);
	assert_true(ev->offcpu.partial); /* three were refused since */
	fill(f, NULL, &st);
	assert_int_equal(st.offcpu.lost, 3);
	result_offcpu_run_free(&st.offcpu);
	event_free(ev);
	fix_free(f);
}

/* Without CAP_SYSLOG kallsyms shows zeros: stacks stay raw addresses,
 * and the result says so */
static void test_no_symbols(void **state)
{
	struct fix *f = fix_new(1, true);
	struct result_stall *ev = event(OP_LOCKX, false), *e0 = ev;
	struct result_stalls st = {0};
	char want[128];

	(void)state;
	offcpu_open(f->oc, 0, T0, T0);
	rec(f, 1000, T0, T0 + 50 * MS, T0 + 50 * MS, 1, 2000, OFFCPU_CTX_TASK,
	    "dbench-ng", lock_wait, softirq);
	offcpu_close(f->oc, 0, T0 + 60 * MS, true, T0 + 60 * MS, ev);
	fill(f, ev, &st);
	snprintf(want, sizeof(want), "0x%llx;0x%llx;0x%llx;0x%llx",
		 (unsigned long long)F(0), (unsigned long long)F(1),
		 (unsigned long long)F(2), (unsigned long long)F(3));
	assert_string_equal(st.events[0].offcpu.waits[0].stack, want);
	assert_false(st.offcpu.symbols);
	assert_string_equal(st.offcpu.method_note,
			    "BPF stacks are raw addresses: /proc/kallsyms "
			    "shows no addresses (needs CAP_SYSLOG)");
	assert_string_equal(st.offcpu.irq_method, "none");
	stalls_free(&st);
	free(e0);
	fix_free(f);
}

/* kallsyms: the function an address is in, with its module */
static void test_ksyms(void **state)
{
	struct ksyms *ks;
	char b[128];

	(void)state;
	write_kallsyms(false);
	ks = ksyms_load(kallsyms);
	unlink(kallsyms);
	assert_non_null(ks);
	assert_true(ksyms_usable(ks));
	assert_true(ksyms_name(ks, F(3), b, sizeof(b)));
	assert_string_equal(b, "fcntl_setlk");
	assert_true(ksyms_name(ks, K + 0x300, b, sizeof(b)));
	assert_string_equal(b, "fcntl_setlk");
	assert_true(ksyms_name(ks, K + 0x2ff, b, sizeof(b)));
	assert_string_equal(b, "do_fcntl");
	assert_true(ksyms_name(ks, MOD + 0x40, b, sizeof(b)));
	assert_string_equal(b, "request_wait_answer [fuse]");
	assert_false(ksyms_name(ks, K - 1, b, sizeof(b)));
	assert_string_equal(b, "0xffffffff80ffffff");
	ksyms_free(ks);
	assert_null(ksyms_load("/nonexistent/kallsyms"));
}

/* ---------------------- the watchdog driving it ------------------------ */

static void describe(void *ctx, int client, uint32_t pc,
		     struct result_stall *ev)
{
	(void)ctx;
	(void)client;
	(void)pc;
	ev->op = OP_LOCKX;
	ev->line = 2;
	ev->file = strdup("lock.load");
}

/*
 * A fake source for the watchdog: the records to hand over at its next
 * drain, and the BPF side's counters.  @hold drains pass before they are
 * handed over: a record begun before them that a CPU was still writing
 * hid them (the ring is read in the order of the reservations).
 */
struct pending {
	int n;
	int hold;
	int drains; /* drains so far */
	struct offcpu_counts counts;
	struct offcpu_rec r[4];
};

static struct pending pend;

static void fake_drain(void *ctx, struct offcpu *oc)
{
	(void)ctx;
	pend.drains++;
	if (pend.hold > 0) {
		pend.hold--;
		return;
	}
	for (int i = 0; i < pend.n; i++)
		assert_int_equal(
			offcpu_record(oc, &pend.r[i], OFFCPU_REC_SHORT), 0);
	pend.n = 0;
}

static void pend_counts(void *ctx, struct offcpu_counts *c)
{
	(void)ctx;
	*c = pend.counts;
}

/* the watchdog over two clients' slots, with the fake source */
struct wdfix {
	struct shm *shm;
	struct result_stalls out;
	struct offcpu *oc;
	struct watchdog *wd;
};

static void wdfix_new(struct wdfix *x, bool counts)
{
	struct watchdog_cfg wc = {
		.nclients = 2,
		.threshold_ns = 100 * MS,
		.poll_ns = 5 * MS,
		.sample_ns = 100 * MS,
		.proc = "/nonexistent",
		.describe = describe,
		.out = &x->out,
	};
	struct offcpu_cfg c = {
		.nprocs = 2, .cpp = 1, .pids = pids, .stack_min_ns = MS};

	memset(x, 0, sizeof(*x));
	memset(&pend, 0, sizeof(pend));
	x->shm = shm_alloc(2);
	assert_non_null(x->shm);
	write_kallsyms(false);
	c.kallsyms = kallsyms;
	c.src.drain = fake_drain;
	if (counts)
		c.src.counts = pend_counts;
	x->oc = offcpu_new(&c);
	assert_non_null(x->oc);
	wc.shm = x->shm;
	wc.offcpu = x->oc;
	x->shm->hdr.start_ns = T0 - NSEC_PER_SEC;
	x->shm->hdr.warmup_end_ns = 0;
	x->shm->slot[0].pid = 1000;
	x->shm->slot[1].pid = 2000;
	x->wd = watchdog_new(&wc);
	assert_non_null(x->wd);
}

/* client 0's LockX from T0 stalls 290 ms; its sleep's record is pending
 * and the client has ended the op (slow ring, then the clear) */
static void wdfix_lock_ends(struct wdfix *x)
{
	struct client_slot *s = &x->shm->slot[0];

	s->op_start_ns = T0;
	watchdog_poll(x->wd, T0 + 100 * MS); /* opens */
	watchdog_poll(x->wd, T0 + 200 * MS);
	pend.r[pend.n++] =
		(struct offcpu_rec){.off_ns = T0 + 10 * US,
				    .wake_ns = T0 + 290 * MS,
				    .on_ns = T0 + 290 * MS + 400 * US,
				    .pid = 1000,
				    .tgid = 1000,
				    .state = 1,
				    .waker_pid = 2000,
				    .waker_tgid = 2000,
				    .waker_comm = "dbench-ng"};
	s->slow[0] = (struct slow_rec){.start_ns = T0,
				       .dur_ns = 290 * MS + 500 * US};
	s->slow_head = 1;
	s->op_start_ns = 0;
}

static void wdfix_free(struct wdfix *x)
{
	for (int i = 0; i < x->out.nevents; i++)
		result_stall_free(&x->out.events[i]);
	for (int i = 0; i < x->out.nfolded; i++)
		free(x->out.folded[i].stack);
	free(x->out.note);
	result_offcpu_run_free(&x->out.offcpu);
	offcpu_free(x->oc);
	unlink(kallsyms);
	shm_free(x->shm, 2);
}

/*
 * The watchdog reads the slots, then drains, then matches: client 0's
 * LockX stalls 290 ms; its sleep's record arrives at the poll that sees
 * the op ended (the client sent it before it ended the op), and the
 * event has it; the pids come from the slots' processes.
 */
static void test_watchdog(void **state)
{
	struct wdfix x;

	(void)state;
	wdfix_new(&x, false);
	wdfix_lock_ends(&x);
	watchdog_poll(x.wd, T0 + 295 * MS);
	watchdog_end(x.wd, T0 + 300 * MS);
	assert_int_equal(x.out.total, 1);
	assert_true(x.out.events[0].offcpu.valid);
	assert_int_equal(x.out.events[0].offcpu.sleeps, 1);
	assert_true(x.out.events[0].offcpu.blocked_ms == 289.99);
	assert_int_equal(x.out.events[0].offcpu.waits[0].waker_client, 1);
	assert_string_equal(x.out.offcpu.method, "bpf");
	assert_int_equal(x.out.offcpu.npairs, 3);
	assert_true(x.out.offcpu.pairs[0].ms == 289.99);
	assert_int_equal(offcpu_buffered(x.oc), 0);
	wdfix_free(&x);
}

/*
 * The record of the op seen ended is queued behind one that client 1's
 * CPU is still writing: the first two reads of the ring hand over
 * nothing.  The drain knows from the counters that two records were
 * begun before it, waits for them, and the stall has its sleep, none
 * lost.  (A drain that read the ring once left it with no sleep at all:
 * 290 ms "on a CPU".)
 */
static void test_watchdog_behind(void **state)
{
	struct wdfix x;
	int drains;

	(void)state;
	wdfix_new(&x, true);
	wdfix_lock_ends(&x);
	pend.r[pend.n++] = (struct offcpu_rec){.off_ns = T0 + 250 * MS,
					       .on_ns = T0 + 251 * MS,
					       .pid = 2000,
					       .tgid = 2000};
	pend.counts.begun = pend.counts.records = 2;
	pend.hold = 2;
	pend.drains = 0;
	watchdog_poll(x.wd, T0 + 295 * MS);
	drains = pend.drains;
	watchdog_end(x.wd, T0 + 300 * MS);
	assert_int_equal(x.out.total, 1);
	assert_int_equal(x.out.events[0].offcpu.sleeps, 1);
	assert_int_equal(drains, 3);
	assert_true(x.out.events[0].offcpu.blocked_ms == 289.99);
	assert_false(x.out.events[0].offcpu.partial);
	assert_int_equal(x.out.offcpu.lost, 0);
	wdfix_free(&x);
}

/*
 * A record begun that never comes (a defect of the source): the drain
 * gives up after its bounded re-reads, counts it lost, marks the stall
 * open meanwhile as a lower bound, and no later drain waits.
 */
static void test_drain_gives_up(void **state)
{
	struct wdfix x;
	int drains;

	(void)state;
	wdfix_new(&x, true);
	wdfix_lock_ends(&x);
	pend.counts.begun = 2; /* one is the op's, one never comes */
	pend.counts.records = 1;
	watchdog_poll(x.wd, T0 + 295 * MS);
	drains = pend.drains;
	assert_true(drains > 3);
	watchdog_poll(x.wd, T0 + 300 * MS);
	assert_int_equal(pend.drains, drains + 1);
	watchdog_end(x.wd, T0 + 305 * MS);
	assert_int_equal(x.out.total, 1);
	assert_int_equal(x.out.events[0].offcpu.sleeps, 1);
	assert_true(x.out.events[0].offcpu.partial);
	assert_int_equal(x.out.offcpu.lost, 1);
	wdfix_free(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lock_wait),
		cmocka_unit_test(test_interrupts),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_still_stuck),
		cmocka_unit_test(test_unpaired),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_no_symbols),
		cmocka_unit_test(test_ksyms),
		cmocka_unit_test(test_watchdog),
		cmocka_unit_test(test_watchdog_behind),
		cmocka_unit_test(test_drain_gives_up),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
