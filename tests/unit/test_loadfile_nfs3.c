/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_loadfile_nfs3.c - dbench 5's NFSv3 loadfile lines: the keywords
 * and their arguments, the offset expressions (parsed, refused, and
 * evaluated with a fixed seed to a fixed sequence), REPEAT and what it
 * refuses.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "loadfile.h"

static char err[512];

static struct program *parse_ok(const char *text)
{
	struct program *p = NULL;

	if (lf_parse_buffer("n.load", text, strlen(text), &p, err, sizeof(err)))
		fail_msg("unexpected parse error: %s", err);
	assert_non_null(p);
	return p;
}

static void parse_bad(const char *text, const char *msg)
{
	struct program *p = NULL;

	if (!lf_parse_buffer("n.load", text, strlen(text), &p, err,
			     sizeof(err)))
		fail_msg("'%s' was not refused", text);
	assert_null(p);
	if (strcmp(err, msg))
		fail_msg("'%s': got '%s', expected '%s'", text, err, msg);
}

/* every op of the list, in dbench 5's spelling */
static const char every[] =
	"0.000 Deltree \"/clients/client1\" 0x00000000\n"	     /* 1 */
	"0.000 MKDIR3 \"/clients\" *\n"				     /* 2 */
	"LOOKUP3 \"/clients/client1\" 0x00000000\n"		     /* 3 */
	"GETATTR3 \"/clients/client1\" 0x00000000\n"		     /* 4 */
	"CREATE3 \"/clients/client1/f\" 0x00000000\n"		     /* 5 */
	"create3 \"/clients/client1/g\" 0 0x00000000\n"		     /* 6 */
	"SETATTR3 \"/clients/client1\" 0x00000000\n"		     /* 7 */
	"WRITE3 \"/clients/client1/f\" 0 1024 0 0x00000000\n"	     /* 8 */
	"WRITE3 \"/clients/client1/f\" *%100+25 512 2 0x00000000\n"  /* 9 */
	"COMMIT3 \"/clients/client1/f\" 0x00000000\n"		     /* 10 */
	"READ3 \"/clients/client1/f\" 0x800 2048 0x00000000\n"	     /* 11 */
	"PATHCONF3 \"/clients/client1/f\" 0x00000000\n"		     /* 12 */
	"READLINK3 \"/clients/client1/f\" *\n"			     /* 13 */
	"LINK3 \"/clients/client1/h\" \"/clients/client1/f\" 0x0\n"  /* 14 */
	"SYMLINK3 \"/clients/client1/s\" \"/clients/client1/f\" *\n" /* 15 */
	"REMOVE3 \"/clients/client1/h\" 0x00000000\n"		     /* 16 */
	"MKDIR3 \"/clients/client1/d\" 0x00000000\n"		     /* 17 */
	"RENAME3 \"/clients/client1/d\" \"/clients/client1/e\" *\n"  /* 18 */
	"RMDIR3 \"/clients/client1/e\" 0x00000000\n"		     /* 19 */
	"READDIRPLUS3 \"/clients/client1\" 0x00000000\n"	     /* 20 */
	"ACCESS3 \"/clients/client1\" 0 0 0x00000000\n"		     /* 21 */
	"FSSTAT3 0x00000000\n"					     /* 22 */
	"FSINFO3 0x00000000\n"					     /* 23 */
	"LOOKUP3 \"/clients/client1/nothere\" 0x00000002\n";	     /* 24 */

static void test_every_op(void **state)
{
	static const int types[] = {
		OP_DELTREE,   OP_MKDIR3,  OP_LOOKUP3,  OP_GETATTR3,
		OP_CREATE3,   OP_CREATE3, OP_SETATTR3, OP_WRITE3,
		OP_WRITE3,    OP_COMMIT3, OP_READ3,    OP_PATHCONF3,
		OP_READLINK3, OP_LINK3,	  OP_SYMLINK3, OP_REMOVE3,
		OP_MKDIR3,    OP_RENAME3, OP_RMDIR3,   OP_READDIRPLUS3,
		OP_ACCESS3,   OP_FSSTAT3, OP_FSINFO3,  OP_LOOKUP3,
	};
	struct program *p = parse_ok(every);
	const struct lf_op *o = p->ops;

	(void)state;
	assert_int_equal(p->nops, sizeof(types) / sizeof(types[0]));
	for (uint32_t i = 0; i < p->nops; i++) {
		assert_int_equal(o[i].type, types[i]);
		assert_int_equal(o[i].line, i + 1);
		assert_true(o[i].type == OP_DELTREE || op_is_nfs3(o[i].type));
	}
	assert_int_equal(o[1].expect, LF_EXPECT_ANY);
	assert_int_equal(o[23].expect, LF_EXPECT_FAIL);
	/* WRITE3 path offset size stable: the size is its bytes */
	assert_int_equal(o[7].arg[0], 0);
	assert_int_equal(o[7].arg[1], 1024);
	assert_int_equal(o[7].arg[2], 0);
	assert_int_equal(o[7].io_bytes[0], 1024);
	assert_int_equal(o[7].io_bytes[1], 1024);
	assert_false(o[7].flags & LF_F_XOFF);
	assert_true(o[8].flags & LF_F_XOFF);
	assert_int_equal(o[8].arg[2], 2);
	assert_int_equal(p->nexprs, 1);
	assert_int_equal(o[10].arg[0], 0x800);
	assert_int_equal(o[10].io_bytes[0], 2048);
	assert_int_equal(p->max_io, 2048);
	/* two paths: LINK3 NEW EXISTING, SYMLINK3 LINK TARGET, RENAME3 */
	assert_string_equal(p->paths[o[13].path[0]].full, "client1/h");
	assert_string_equal(p->paths[o[13].path[1]].full, "client1/f");
	assert_string_equal(p->paths[o[14].path[0]].full, "client1/s");
	assert_int_equal(o[21].path[0], LF_NONE);
	assert_int_equal(p->op_count[OP_WRITE3], 2);
	assert_int_equal(p->op_count[OP_CREATE3], 2);
	lf_free(p);
}

static void test_expr_parse(void **state)
{
	struct lf_expr x;
	char why[96];

	(void)state;
	assert_int_equal(lf_expr_parse("4096", &x, why, sizeof(why)), 1);
	assert_int_equal(lf_expr_parse("*", &x, why, sizeof(why)), 0);
	assert_int_equal(x.kind, LF_X_RANDOM);
	assert_int_equal(x.nq, 0);
	assert_int_equal(
		lf_expr_parse("*/0x1000%5000000+25", &x, why, sizeof(why)), 0);
	assert_int_equal(x.nq, 3);
	assert_memory_equal(x.qop, "/%+", 3);
	assert_int_equal(x.qv[0], 0x1000);
	assert_int_equal(x.qv[1], 5000000);
	assert_int_equal(x.qv[2], 25);
	assert_int_equal(lf_expr_parse("+32768", &x, why, sizeof(why)), 0);
	assert_int_equal(x.kind, LF_X_REL);
	assert_int_equal(x.qv[0], 32768);
	assert_int_equal(lf_expr_parse("*/0", &x, why, sizeof(why)), -1);
	assert_string_equal(why, "'/0' divides by zero");
	assert_int_equal(lf_expr_parse("*%0x0", &x, why, sizeof(why)), -1);
	assert_string_equal(why, "'%0' divides by zero");
	assert_int_equal(lf_expr_parse("*-5", &x, why, sizeof(why)), -1);
	assert_string_equal(why, "unknown qualifier '-' (expected /, % or +)");
	assert_int_equal(lf_expr_parse("*%", &x, why, sizeof(why)), -1);
	assert_string_equal(why, "'%' must be followed by a number");
	assert_int_equal(lf_expr_parse("*%08", &x, why, sizeof(why)), -1);
	assert_int_equal(lf_expr_parse("+child", &x, why, sizeof(why)), -1);
	assert_string_equal(why, "'+' must be followed by a number alone");
	assert_int_equal(
		lf_expr_parse("*+1+1+1+1+1+1+1+1+1", &x, why, sizeof(why)), -1);
	assert_string_equal(why, "more than 8 qualifiers");
}

static void test_expr_eval(void **state)
{
	struct lf_expr x;
	char why[96];

	(void)state;
	/* left to right: align, then modulo, then add */
	assert_int_equal(
		lf_expr_parse("*/0x1000%5000000+25", &x, why, sizeof(why)), 0);
	assert_int_equal(lf_expr_eval(&x, 0x12345678, 0),
			 0x12345000 % 5000000 + 25);
	/* modulo, then align: an aligned offset below the bound */
	assert_int_equal(lf_expr_parse("*%1048576/4096", &x, why, sizeof(why)),
			 0);
	assert_int_equal(lf_expr_eval(&x, 0xfedcba9876543210ull, 0), 0x43000);
	/* '*' alone, reduced modulo 2^61 */
	assert_int_equal(lf_expr_parse("*", &x, why, sizeof(why)), 0);
	assert_int_equal(lf_expr_eval(&x, UINT64_MAX, 0), LF_MAX_OFF);
	/* '+' wraps at 2^64 before the reduction */
	assert_int_equal(lf_expr_parse("*+2", &x, why, sizeof(why)), 0);
	assert_int_equal(lf_expr_eval(&x, UINT64_MAX, 0), 1);
	/* relative: the previous offset plus N, the random value unused */
	assert_int_equal(lf_expr_parse("+0x8000", &x, why, sizeof(why)), 0);
	assert_int_equal(lf_expr_eval(&x, 12345, 0x8000), 0x10000);
}

/* A client's offsets from a fixed seed: always the same sequence */
static void test_offsets_seeded(void **state)
{
	static const uint64_t want[] = {2269721, 3852441, 2762905, 1937433};
	struct program *p = parse_ok(
		"WRITE3 \"/clients/client1/f\" */0x1000%5000000+25 1 0 0x0\n"
		"WRITE3 \"/clients/client1/f\" +100 1 0 0x0\n"
		"READ3 \"/clients/client1/f\" 7 1 0x0\n");
	struct be_client c = {.prog = p, .rng = 1};

	(void)state;
	for (int i = 0; i < 4; i++) {
		assert_int_equal(be_offset(&c, &p->ops[0]), want[i]);
		assert_int_equal(be_offset(&c, &p->ops[1]), want[i] + 100);
	}
	assert_int_equal(be_offset(&c, &p->ops[2]), 7);
	assert_int_equal(be_offset(&c, &p->ops[1]), 107);
	/* the relative one drew nothing: the next random value is the 5th */
	c.rng = 1;
	for (int i = 0; i < 4; i++)
		(void)be_offset(&c, &p->ops[1]);
	assert_int_equal(be_offset(&c, &p->ops[0]), want[0]);
	lf_free(p);
}

static void test_repeat(void **state)
{
	struct program *p = parse_ok(
		"CREATE3 \"/clients/client1/f\" 0x0\n"			/* 1 */
		"REPEAT 3\n"						/* 2 */
		"# a comment between\n"					/* 3 */
		"WRITE3 \"/clients/client1/f\" +4096 4096 0 0x0\n"	/* 4 */
		"repeat 2\n"						/* 5 */
		"NTCreateX \"/clients/client1/x\" 0 5 1 NT_STATUS_OK\n" /* 6 */
		"Close 1 NT_STATUS_OK\n");				/* 7 */

	(void)state;
	assert_int_equal(p->nops, 7);
	for (int i = 1; i <= 3; i++) {
		assert_int_equal(p->ops[i].type, OP_WRITE3);
		assert_int_equal(p->ops[i].line, 4);
	}
	assert_int_equal(p->ops[1].line_delta, 3);
	assert_int_equal(p->ops[2].line_delta, 0);
	assert_int_equal(p->ops[3].line_delta, 0);
	assert_int_equal(p->ops[4].type, OP_NTCREATEX);
	assert_int_equal(p->ops[5].type, OP_NTCREATEX);
	assert_int_equal(p->op_count[OP_WRITE3], 3);
	assert_int_equal(p->op_count[OP_NTCREATEX], 2);
	assert_int_equal(p->nlines, 7);
	lf_free(p);
}

static void test_refused(void **state)
{
	(void)state;
	parse_bad("REPEAT\n",
		  "n.load:1: REPEAT takes one count (REPEAT N), found 0");
	parse_bad("REPEAT 0\nFSSTAT3 0x0\n",
		  "n.load:1: REPEAT count 0 is out of range (1..1048576)");
	parse_bad("REPEAT 1048577\nFSSTAT3 0x0\n",
		  "n.load:1: REPEAT count 1048577 is out of range "
		  "(1..1048576)");
	parse_bad("REPEAT x\nFSSTAT3 0x0\n",
		  "n.load:1: REPEAT count 'x' is not a number");
	parse_bad("REPEAT 2\nREPEAT 3\nFSSTAT3 0x0\n",
		  "n.load:2: REPEAT after the REPEAT at line 1 (a REPEAT "
		  "repeats the operation line after it)");
	parse_bad("FSSTAT3 0x0\nREPEAT 2\n# end\n",
		  "n.load:2: REPEAT is not followed by an operation line");
	parse_bad("REPEAT 1048576\nFSSTAT3 0x0\nREPEAT 3\nFSINFO3 0x0\n",
		  "n.load:4: the REPEAT lines add more than 1048576 "
		  "operation lines in all");
	/* a repeated Close closes its handle twice */
	parse_bad("NTCreateX \"/clients/client1/x\" 0 5 1 NT_STATUS_OK\n"
		  "REPEAT 2\nClose 1 NT_STATUS_OK\n",
		  "n.load:3: Close: handle 1 was closed at line 3 and not "
		  "opened again");
	parse_bad("WRITE3 \"/clients/client1/f\" */0 1 0 0x0\n",
		  "n.load:1: bad offset expression '*/0': '/0' divides by "
		  "zero");
	parse_bad(
		"READ3 \"/clients/client1/f\" -1 1 0x0\n",
		"n.load:1: offset -1 is out of range (0..2305843009213693951)");
	parse_bad("READ3 \"/clients/client1/f\" 0 16777217 0x0\n",
		  "n.load:1: size out of range (0..16777216)");
	parse_bad("READ3 \"/clients/client1/f\" 0 *%10 0x0\n",
		  "n.load:1: argument '*%10' is not a number");
	parse_bad("WRITE3 \"/clients/client1/f\" 0 1 3 0x0\n",
		  "n.load:1: stable 3 is not 0 (UNSTABLE), 1 (DATA_SYNC) or 2 "
		  "(FILE_SYNC)");
	parse_bad("CREATE3 \"/clients/client1/f\" 0 0 0x0\n",
		  "n.load:1: CREATE3 takes 1 or 2 arguments and a status, "
		  "found 3");
	parse_bad("FSSTAT3 \"/clients\" 0x0\n",
		  "n.load:1: FSSTAT3 takes 0 arguments and a status, found 1");
	parse_bad("LINK3 \"/clients/client1/h\" 0x0\n",
		  "n.load:1: LINK3 takes 2 arguments and a status, found 1");
	parse_bad("GETATTR3 \"/etc/passwd\" 0x0\n",
		  "n.load:1: path '/etc/passwd' is outside \\clients");
	parse_bad("LOCK4 \"/foo.dbench\" 5 15 0x00000000\n",
		  "n.load:1: unknown operation 'LOCK4'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_op),
		cmocka_unit_test(test_expr_parse),
		cmocka_unit_test(test_expr_eval),
		cmocka_unit_test(test_offsets_seeded),
		cmocka_unit_test(test_repeat),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
