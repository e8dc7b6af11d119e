/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_client.c - the hot loop's handling of the ops a backend declares it
 * cannot execute (backend.h: not_run): never called, never timed, their
 * lines counted per op in the client's stats, in the phase they end in;
 * every other op called and timed as before.  The client runs one pass
 * (--run-once) of a small loadfile in this process against a backend of
 * this test that counts its calls; stats_add and stats_reset keep the
 * counts exact.  With a foreign CPU wait counter (client_set_foreign)
 * each timed op's own latency is its latency less the counter's rise.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "client.h"
#include "clock.h"
#include "deadline.h"
#include "loadfile.h"
#include "shm.h"
#include "stats.h"

/* the head of op @o's latencies in slot @s, in its generation */
#define OPC(s, o) (HEAD(s, SS_OP, o)->count)
#define HEAD(s, k, o)                                                   \
	shm_head(f.shm, (int)((s) - f.shm->slot), (s)->gen, SS_HIST((k), (o)))

static unsigned int calls[OP_NR];

static int count_op(struct be_client *c, const struct lf_op *op, be_handle *h)
{
	(void)c;
	calls[op->type]++;
	if (op->type == OP_NTCREATEX)
		h->fd = 3;
	return 0;
}

/* a backend without locks nor flush, as libsmbclient's */
static const struct backend nolocks = {
	.api = BACKEND_API_VERSION,
	.name = "nolocks",
	.summary = "a test",
	.version = 1,
	.op =
		{
			[OP_NTCREATEX] = count_op,
			[OP_CLOSE] = count_op,
			[OP_WRITEX] = count_op,
			[OP_READX] = count_op,
			[OP_QFSINFO] = count_op,
		},
	.not_run =
		{
			[OP_LOCKX] = "no lock call",
			[OP_UNLOCKX] = "no lock call",
			[OP_FLUSH] = "no flush call",
		},
};

/* one that cannot do Qfsinfo, an op without a handle */
static const struct backend nofs = {
	.api = BACKEND_API_VERSION,
	.name = "nofs",
	.summary = "a test",
	.version = 1,
	.op =
		{
			[OP_NTCREATEX] = count_op,
			[OP_CLOSE] = count_op,
			[OP_WRITEX] = count_op,
			[OP_READX] = count_op,
			[OP_LOCKX] = count_op,
			[OP_UNLOCKX] = count_op,
			[OP_FLUSH] = count_op,
		},
	.not_run = {[OP_QFSINFO] = "no statfs"},
};

static const char lf_text[] =
	"QUERY_FS_INFORMATION 259 NT_STATUS_OK\n"
	"NTCreateX \"\\clients\\client1\\a\" 0x40 0x5 7 NT_STATUS_OK\n"
	"WriteX 7 0 4096 4096 NT_STATUS_OK\n"
	"LockX 7 0 1 NT_STATUS_OK\n"
	"LockX 7 0 1 NT_STATUS_LOCK_NOT_GRANTED\n"
	"UnlockX 7 0 1 NT_STATUS_OK\n"
	"Flush 7 NT_STATUS_OK\n"
	"ReadX 7 0 4096 4096 NT_STATUS_OK\n"
	"Flush 7 NT_STATUS_OK\n"
	"Sleep 0 NT_STATUS_OK\n"
	"QUERY_FS_INFORMATION 259 NT_STATUS_OK\n"
	"Close 7 NT_STATUS_OK\n";

struct fix {
	struct config cfg;
	struct program *prog;
	struct shm *shm;
	struct be_run run;
	struct client cl;
};

/* one pass of lf_text by client 0 against @b; the warmup ends at
 * @warm_end (DEADLINE_NEVER: none); @fw: its foreign wait counter */
static void pass_with(struct fix *f, const struct backend *b,
		      uint64_t warm_end, const volatile uint64_t *fw)
{
	char err[256];

	memset(f, 0, sizeof(*f));
	memset(calls, 0, sizeof(calls));
	f->cfg.nprocs = f->cfg.cpp = f->cfg.nclients = 1;
	f->cfg.run_once = true;
	f->cfg.dir = ".";
	assert_int_equal(lf_parse_buffer("t.load", lf_text, sizeof(lf_text) - 1,
					 &f->prog, err, sizeof(err)),
			 0);
	f->shm = shm_alloc(1);
	assert_non_null(f->shm);
	f->shm->hdr.start_ns = clock_ns();
	f->shm->hdr.warmup_end_ns = warm_end;
	f->shm->hdr.end_ns = DEADLINE_NEVER;
	f->run.dir = ".";
	f->run.nclients = 1;
	assert_int_equal(
		client_init(&f->cl, 0, &f->cfg, f->prog, b, &f->run, f->shm),
		0);
	client_set_foreign(&f->cl, fw);
	assert_int_equal(client_loop(&f->cl, 1), 0);
	assert_string_equal(f->shm->slot[0].err_msg, "");
}

static void one_pass(struct fix *f, const struct backend *b, uint64_t warm_end)
{
	pass_with(f, b, warm_end, NULL);
}

/* the foreign CPU wait a BPF program would count: WriteX below adds 1 ms
 * of it while it sleeps 2 ms */
static volatile uint64_t fake_foreign;
static const struct backend *own_base;

static int waited_op(struct be_client *c, const struct lf_op *op,
		     be_handle *h)
{
	if (op->type == OP_WRITEX) {
		fake_foreign += 1000000;
		clock_sleep_until(clock_ns() + 2000000);
	}
	return own_base->op[op->type](c, op, h);
}

static void fix_free(struct fix *f)
{
	free(f->cl.h);
	free(f->cl.hstate);
	shm_free(f->shm, 1);
	lf_free(f->prog);
}

static void test_not_run(void **state)
{
	struct fix f;
	const struct client_slot *s;

	(void)state;
	one_pass(&f, &nolocks, DEADLINE_NEVER);
	s = &f.shm->slot[0];
	/* never called, counted, not timed */
	assert_int_equal(calls[OP_LOCKX] + calls[OP_UNLOCKX] + calls[OP_FLUSH],
			 0);
	assert_int_equal(s->st.not_run[OP_LOCKX], 2);
	assert_int_equal(s->st.not_run[OP_UNLOCKX], 1);
	assert_int_equal(s->st.not_run[OP_FLUSH], 2);
	assert_int_equal(OPC(s, OP_LOCKX), 0);
	assert_int_equal(OPC(s, OP_FLUSH), 0);
	/* the LockX expected to fail is no mismatch: it did not run */
	assert_int_equal(s->nwarn, 0);
	assert_int_equal(s->st.errors[OP_LOCKX], 0);
	/* everything else as before; Sleep is neither timed nor "not run" */
	assert_int_equal(calls[OP_NTCREATEX], 1);
	assert_int_equal(calls[OP_WRITEX], 1);
	assert_int_equal(calls[OP_READX], 1);
	assert_int_equal(calls[OP_QFSINFO], 2);
	assert_int_equal(OPC(s, OP_QFSINFO), 2);
	assert_int_equal(OPC(s, OP_WRITEX), 1);
	assert_int_equal(OPC(s, OP_CLOSE), 1);
	assert_int_equal(OPC(s, OP_SLEEP), 0);
	assert_int_equal(s->st.not_run[OP_SLEEP], 0);
	assert_int_equal(s->bytes, 8192);
	assert_int_equal(s->lines, 12); /* every line, run or not */
	fix_free(&f);
}

/* The op that ends the warmup counts in the measured phase, whether it
 * ran or not: here the first line, a Qfsinfo the backend cannot do. */
static void test_not_run_phase(void **state)
{
	struct fix f;
	const struct client_slot *s;

	(void)state;
	one_pass(&f, &nofs, 1); /* the warmup ended long ago */
	s = &f.shm->slot[0];
	assert_int_equal(s->gen, 1);
	assert_int_equal(calls[OP_QFSINFO], 0);
	assert_int_equal(s->st.not_run[OP_QFSINFO], 2);
	assert_int_equal(OPC(s, OP_QFSINFO), 0);
	assert_int_equal(OPC(s, OP_NTCREATEX), 1);
	assert_int_equal(OPC(s, OP_LOCKX), 2);
	assert_int_equal(s->st.not_run[OP_LOCKX], 0);
	fix_free(&f);
}

/* With the foreign counter (client_set_foreign): each timed op's own
 * latency is its latency less the counter's rise inside it, WriteX's 1 ms
 * exactly; Sleep and not-run ops record none.  Without: no own latency
 * at all. */
static void test_own(void **state)
{
	struct backend b = nolocks;
	struct fix f;
	const struct slot_stats *st;
	struct client_slot *sl;

	(void)state;
	own_base = &nolocks;
	for (int t = 0; t < OP_NR; t++) {
		if (b.op[t])
			b.op[t] = waited_op;
	}
	one_pass(&f, &b, DEADLINE_NEVER); /* no counter */
	assert_int_equal(f.shm->slot[0].st.nown, 0);
	assert_int_equal(HEAD(&f.shm->slot[0], SS_OWN, OP_WRITEX)->count, 0);
	fix_free(&f);

	pass_with(&f, &b, DEADLINE_NEVER, &fake_foreign);
	sl = &f.shm->slot[0];
	st = &sl->st;
	assert_int_equal(st->nown, OPC(sl, OP_NTCREATEX) + OPC(sl, OP_CLOSE) +
					   OPC(sl, OP_WRITEX) +
					   OPC(sl, OP_READX) +
					   OPC(sl, OP_QFSINFO));
	assert_int_equal(HEAD(sl, SS_OWN, OP_WRITEX)->count, 1);
	assert_int_equal(st->foreign_ns[OP_WRITEX], 1000000);
	assert_int_equal(HEAD(sl, SS_OWN, OP_WRITEX)->sum,
			 HEAD(sl, SS_OP, OP_WRITEX)->sum - 1000000);
	assert_int_equal(HEAD(sl, SS_OWN, OP_READX)->sum,
			 HEAD(sl, SS_OP, OP_READX)->sum);
	assert_int_equal(st->foreign_ns[OP_READX], 0);
	assert_int_equal(HEAD(sl, SS_OWN, OP_LOCKX)->count, 0); /* not run */
	assert_int_equal(HEAD(sl, SS_OWN, OP_SLEEP)->count, 0);
	fix_free(&f);
}

/* stats_add and stats_reset keep the counts exact (the MPI merge) */
static void test_stats(void **state)
{
	static struct stats a, b;

	(void)state;
	a.not_run[OP_LOCKX] = 5;
	b.not_run[OP_LOCKX] = 7;
	b.not_run[OP_FLUSH] = 1;
	stats_add(&a, &b);
	assert_int_equal(a.not_run[OP_LOCKX], 12);
	assert_int_equal(a.not_run[OP_FLUSH], 1);
	stats_reset(&a);
	for (int i = 0; i < OP_NR; i++)
		assert_int_equal(a.not_run[i], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_not_run),
		cmocka_unit_test(test_not_run_phase),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_own),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
