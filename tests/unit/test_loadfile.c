/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_loadfile.c - the loadfile compiler: keywords, statuses, arguments,
 * path interning, handle slots, client-name substitution, invalidation
 * lists, every rejected input (with its file:line) and gzip input.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "loadfile.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static char err[512];

static struct program *parse_ok(const char *text, size_t len)
{
	struct program *p = NULL;

	if (lf_parse_buffer("t.load", text, len, &p, err, sizeof(err)))
		fail_msg("unexpected parse error: %s", err);
	assert_non_null(p);
	return p;
}

static const char *path_of(const struct program *p, uint32_t i)
{
	if (i == LF_NONE)
		return NULL;
	assert_true(i < p->npaths);
	return p->paths[i].full;
}

static uint32_t find_path(const struct program *p, const char *full)
{
	for (uint32_t i = 0; i < p->npaths; i++)
		if (!strcmp(p->paths[i].full, full))
			return i;
	fail_msg("path '%s' not interned", full);
	return LF_NONE;
}

static uint32_t find_dir(const struct program *p, const char *dir)
{
	for (uint32_t i = 0; i < p->ndirs; i++)
		if (!strcmp(p->dirs[i], dir))
			return i;
	fail_msg("dir '%s' not interned", dir);
	return LF_NONE;
}

/* ------------------------- a loadfile that is good ---------------------- */

static const char good[] =
	"# every keyword, alias, status form and separator\n"		/* 1 */
	"\n"								/* 2 */
	"Deltree \"\\clients\\client1\"\tNT_STATUS_OK\n"		/* 3 */
	"Mkdir \"\\clients\" NT_STATUS_OK\r\n"				/* 4 */
	"NTCreateX \"\\clients\\client1\\a\\b.doc\" 0x40 2 16385 "
	"NT_STATUS_OK\n"						/* 5 */
	"   # indented comment\n"					/* 6 */
	"0.500 NTCreateX \"\\clients\\client1\\a\\d.doc\" 0 1 7 *\n"	/* 7 */
	"Rename \"\\clients\\client1\\a\\b.doc\" "
	"\"\\clients\\client1\\a\\c.doc\" 0x00000000\n"			/* 8 */
	"Unlink \"\\clients\\client1\\a\\c.doc\" 0x6 0xc0000034\n"	/* 9 */
	"Rmdir \"\\clients\\client1\\a\" SUCCESS\r\n"			/* 10 */
	"QUERY_PATH_INFORMATION \"\\clients\\client1\\a\\b.doc\" 1004 "
	"NT_STATUS_OBJECT_NAME_NOT_FOUND\n"				/* 11 */
	"qpathinfo \"\\clients\\\\client1\\.\\a\\b.doc\" 010 *\n"	/* 12 */
	"QUERY_FILE_INFORMATION 16385 1005 NT_STATUS_OK\n"		/* 13 */
	"Qfileinfo 7 258 ERROR\n"					/* 14 */
	"QUERY_FS_INFORMATION 259 NT_STATUS_OK\n"			/* 15 */
	"QFSINFO 1 NT_STATUS_OK\n"					/* 16 */
	"SET_FILE_INFORMATION 16385 1004 NT_STATUS_OK\n"		/* 17 */
	"Sfileinfo 7 1004 NT_STATUS_OK\n"				/* 18 */
	"FIND_FIRST \"\\clients\\client1\\a\\*.doc\" 260 1366 0 "
	"NT_STATUS_NO_SUCH_FILE\n"					/* 19 */
	"Find \"\\clients\\client1\\a\\b.doc\" 260 1366 1 "
	"NT_STATUS_OK\n"						/* 20 */
	"find_first \"\\clients\\client1\\a\\?x\" 260 10 1 "
	"NT_STATUS_OK\n"						/* 21 */
	"Find \"\\clients\\client1\\<x\" 260 10 1 NT_STATUS_OK\n"	/* 22 */
	"Find \"\\clients\\x>\" 260 10 1 NT_STATUS_OK\n"		/* 23 */
	"WriteX 16385 0 65536 65536 NT_STATUS_OK\n"			/* 24 */
	"readx 16385 0x1000 131072 100 NT_STATUS_OK\n"			/* 25 */
	"LockX 16385 2147483538 1 NT_STATUS_OK\n"			/* 26 */
	"UnlockX 16385 2147483538 1 NT_STATUS_OK\n"			/* 27 */
	"Flush 16385 NT_STATUS_OK\n"					/* 28 */
	"\t1.25\tSleep\t1000\tNT_STATUS_OK\n"				/* 29 */
	"Close 7 NT_STATUS_OK\n"					/* 30 */
	"Deltree \"\\clients\\client1\" NT_STATUS_OK\n"			/* 31 */
	"# trailer\n"							/* 32 */
	"\n";								/* 33 */

struct want_op {
	int type;
	uint32_t line;
	int expect;
	const char *path[2];
	int32_t fnum;		/* 0: no handle (good never uses fnum 0) */
	int64_t arg[3];
	uint64_t ts_ns;
	uint32_t io[2];
	uint16_t flags;
};

#define R(t, l, e, ...) { .type = OP_##t, .line = l, .expect = e, __VA_ARGS__ }
#define OK LF_EXPECT_OK
#define FAIL LF_EXPECT_FAIL
#define ANY LF_EXPECT_ANY
#define W .flags = LF_F_WILDCARD
#define BDOC "client1/a/b.doc"

static const struct want_op good_ops[] = {
	R(DELTREE, 3, OK, .path = { "client1" }),
	R(MKDIR, 4, OK, .path = { "." }),
	R(NTCREATEX, 5, OK, .path = { BDOC }, .fnum = 16385,
	  .arg = { 0x40, 2 }),
	R(NTCREATEX, 7, ANY, .path = { "client1/a/d.doc" }, .fnum = 7,
	  .arg = { 0, 1 }, .ts_ns = 500000000),
	R(RENAME, 8, OK, .path = { BDOC, "client1/a/c.doc" }),
	R(UNLINK, 9, FAIL, .path = { "client1/a/c.doc" }, .arg = { 6 }),
	R(RMDIR, 10, OK, .path = { "client1/a" }),
	R(QPATHINFO, 11, FAIL, .path = { BDOC }, .arg = { 1004 }),
	R(QPATHINFO, 12, ANY, .path = { BDOC }, .arg = { 8 }),
	R(QFILEINFO, 13, OK, .fnum = 16385, .arg = { 1005 }),
	R(QFILEINFO, 14, FAIL, .fnum = 7, .arg = { 258 }),
	R(QFSINFO, 15, OK, .arg = { 259 }),
	R(QFSINFO, 16, OK, .arg = { 1 }),
	R(SFILEINFO, 17, OK, .fnum = 16385, .arg = { 1004 }),
	R(SFILEINFO, 18, OK, .fnum = 7, .arg = { 1004 }),
	R(FIND, 19, FAIL, .path = { "client1/a/*.doc" },
	  .arg = { 260, 1366, 0 }, W),
	R(FIND, 20, OK, .path = { BDOC }, .arg = { 260, 1366, 1 }),
	R(FIND, 21, OK, .path = { "client1/a/?x" }, .arg = { 260, 10, 1 }, W),
	R(FIND, 22, OK, .path = { "client1/<x" }, .arg = { 260, 10, 1 }, W),
	R(FIND, 23, OK, .path = { "x>" }, .arg = { 260, 10, 1 }, W),
	R(WRITEX, 24, OK, .fnum = 16385, .arg = { 0, 65536, 65536 },
	  .io = { 65536, 65536 }),
	R(READX, 25, OK, .fnum = 16385, .arg = { 4096, 131072, 100 },
	  .io = { 131072, 100 }),
	R(LOCKX, 26, OK, .fnum = 16385, .arg = { 2147483538, 1 }),
	R(UNLOCKX, 27, OK, .fnum = 16385, .arg = { 2147483538, 1 }),
	R(FLUSH, 28, OK, .fnum = 16385),
	R(SLEEP, 29, OK, .arg = { 1000 }, .ts_ns = 1250000000),
	R(CLOSE, 30, OK, .fnum = 7),
	R(DELTREE, 31, OK, .path = { "client1" }),
};

static void check_op(const struct program *p, uint32_t i,
		     const struct want_op *w)
{
	const struct lf_op *op = &p->ops[i];
	const char *got;

	if (op->type != w->type || op->line != w->line)
		fail_msg("op %u: type %u line %u, want type %d line %u", i,
			 op->type, op->line, w->type, w->line);
	assert_int_equal(op->expect, w->expect);
	assert_int_equal(op->flags, w->flags);
	for (int k = 0; k < 2; k++) {
		got = path_of(p, op->path[k]);
		if (!got != !w->path[k] || (got && strcmp(got, w->path[k])))
			fail_msg("line %u path %d: '%s', want '%s'", w->line, k,
				 got ? got : "(none)",
				 w->path[k] ? w->path[k] : "(none)");
	}
	if (!w->fnum) {
		assert_int_equal(op->handle, LF_NONE);
	} else {
		assert_true(op->handle < p->nhandles);
		assert_int_equal(p->fnums[op->handle], w->fnum);
	}
	for (int k = 0; k < 3; k++)
		assert_int_equal(op->arg[k], w->arg[k]);
	assert_int_equal(op->ts_ns, w->ts_ns);
	assert_int_equal(op->io_bytes[0], w->io[0]);
	assert_int_equal(op->io_bytes[1], w->io[1]);
	assert_true(op->status < p->nstatus);
}

static void test_good_loadfile(void **state)
{
	struct program *p = parse_ok(good, sizeof(good) - 1);
	uint32_t count[OP_NR] = { 0 }, delta = 0, prev = 0;

	(void)state;
	assert_string_equal(p->name, "t.load");
	assert_int_equal(p->nops, ARRAY_SIZE(good_ops));
	assert_int_equal(p->nlines, 33);
	assert_int_equal(p->tail_lines, 2);
	assert_int_equal(p->has_timestamps, 1);
	assert_int_equal(p->paces, 1);
	assert_int_equal(p->max_io, 131072);
	for (uint32_t i = 0; i < p->nops; i++) {
		check_op(p, i, &good_ops[i]);
		assert_int_equal(p->ops[i].line_delta, p->ops[i].line - prev);
		prev = p->ops[i].line;
		delta += p->ops[i].line_delta;
		count[good_ops[i].type]++;
	}
	assert_int_equal(delta, p->nlines - p->tail_lines);
	assert_memory_equal(p->op_count, count, sizeof(count));
	/* the same status text is interned once */
	for (uint32_t i = 0; i < p->nstatus; i++)
		for (uint32_t j = i + 1; j < p->nstatus; j++)
			assert_string_not_equal(p->status[i], p->status[j]);
	assert_string_equal(p->status[p->ops[0].status], "NT_STATUS_OK");
	assert_int_equal(p->ops[0].status, p->ops[1].status);
	lf_free(p);
}

/* ------------------------- paths, dirs, handles ------------------------- */

static const char paths_lf[] =
	"NTCreateX \"\\clients\\client1\\a\\b.doc\" 0 2 100 NT_STATUS_OK\n"
	"Mkdir \"\\clients\" NT_STATUS_OK\n"
	"Mkdir \"\\clients\\client1\" NT_STATUS_OK\n"
	"Qpathinfo \"\\clients\\\\client1\\.\\a\\\\b.doc\" 1 NT_STATUS_OK\n"
	"Mkdir \"\\clients\\client1\\a\\\" NT_STATUS_OK\n"
	"Close 100 NT_STATUS_OK\n"
	"NTCreateX \"\\clients\\client1\\a\\b.doc\" 0 1 -5 *\n"
	"NTCreateX \"\\clients\" 1 1 0x7fffffff *\n"
	"NTCreateX \"\\clients\\client1\" 1 1 100 *\n";

static void test_paths_and_handles(void **state)
{
	struct program *p = parse_ok(paths_lf, sizeof(paths_lf) - 1);
	uint32_t bdoc = find_path(p, "client1/a/b.doc");
	uint32_t root = find_path(p, "."), c1 = find_path(p, "client1");
	uint32_t a = find_path(p, "client1/a");

	(void)state;
	assert_string_equal(p->dirs[0], ".");
	assert_int_equal(p->npaths, 4);
	assert_string_equal(p->paths[bdoc].base, "b.doc");
	assert_string_equal(p->dirs[p->paths[bdoc].dir], "client1/a");
	assert_int_equal(p->paths[root].dir, 0);
	assert_string_equal(p->paths[root].base, ".");
	assert_int_equal(p->paths[c1].dir, 0);
	assert_string_equal(p->paths[c1].base, "client1");
	assert_string_equal(p->paths[a].base, "a");
	assert_int_equal(p->paths[a].dir, find_dir(p, "client1"));
	/* duplicate slashes and "." components name the same path */
	assert_int_equal(p->ops[0].path[0], bdoc);
	assert_int_equal(p->ops[3].path[0], bdoc);
	assert_int_equal(p->ops[4].path[0], a);
	assert_int_equal(p->has_timestamps, 0);
	assert_int_equal(p->paces, 0);

	/* handles: dense slots by first use; an fnum keeps its slot */
	assert_int_equal(p->nhandles, 3);
	assert_int_equal(p->ops[0].handle, 0);
	assert_int_equal(p->ops[6].handle, 1);
	assert_int_equal(p->ops[7].handle, 2);
	assert_int_equal(p->ops[0].handle, p->ops[5].handle);
	assert_int_equal(p->ops[0].handle, p->ops[8].handle);
	assert_int_equal(p->fnums[p->ops[0].handle], 100);
	assert_int_equal(p->fnums[p->ops[6].handle], -5);
	assert_int_equal(p->fnums[p->ops[7].handle], INT32_MAX);
	lf_free(p);
}

static void test_subst_client(void **state)
{
	static const struct {
		const char *tmpl;
		int id;
		size_t dstlen;
		const char *want;	/* NULL: must not fit */
	} cases[] = {
		{ "client1/x/client1", 0, 64, "client0/x/client0" },
		{ "client1/x/client1", 12, 64, "client12/x/client12" },
		{ "client1/x/client1", 12, 20, "client12/x/client12" },
		{ "client1/x/client1", 12, 19, NULL },
		{ "client1", 7, 8, "client7" },
		{ "client1", 12, 8, NULL },
		{ ".", 3, 2, "." },
		{ "abc", 0, 3, NULL },
		{ "client2/a", 5, 64, "client2/a" },
		{ "", 5, 1, "" },
		{ "", 5, 0, NULL },
	};
	char buf[64];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int n = lf_subst_client(buf, cases[i].dstlen, cases[i].tmpl,
					cases[i].id);

		if (!cases[i].want) {
			assert_int_equal(n, -1);
			continue;
		}
		assert_int_equal(n, strlen(cases[i].want));
		assert_string_equal(buf, cases[i].want);
	}
}

static const char inval_lf[] =
	"NTCreateX \"\\clients\\client1\\d1\\f\" 0 2 1 NT_STATUS_OK\n"
	"NTCreateX \"\\clients\\client1\\d1\\sub\\g\" 0 2 2 NT_STATUS_OK\n"
	"NTCreateX \"\\clients\\client1\\d10\\h\" 0 2 3 NT_STATUS_OK\n"
	"Rename \"\\clients\\client1\\d1\" \"\\clients\\client1\\d2\" "
	"NT_STATUS_OK\n"
	"Rmdir \"\\clients\\client1\\d10\" NT_STATUS_OK\n"
	"Qpathinfo \"\\clients\\client1\\d1\\sub\" 1 NT_STATUS_OK\n";

static void check_inval(const struct program *p, const char *path,
			const char *const *want, uint32_t nwant)
{
	const struct lf_path *pa = &p->paths[find_path(p, path)];

	if (pa->ninval != nwant)
		fail_msg("%s: %u dirs to invalidate, want %u", path,
			 pa->ninval, nwant);
	for (uint32_t k = 0; k < nwant; k++) {
		uint32_t d = find_dir(p, want[k]), j;

		for (j = 0; j < pa->ninval; j++)
			if (p->inval[pa->inval + j] == d)
				break;
		if (j == pa->ninval)
			fail_msg("%s: dir %s not invalidated", path, want[k]);
	}
}

static void test_inval(void **state)
{
	static const char *const d1[] = { "client1/d1", "client1/d1/sub" };
	static const char *const d10[] = { "client1/d10" };
	struct program *p = parse_ok(inval_lf, sizeof(inval_lf) - 1);

	(void)state;
	check_inval(p, "client1/d1", d1, 2);
	check_inval(p, "client1/d10", d10, 1);
	check_inval(p, "client1/d2", NULL, 0);
	check_inval(p, "client1/d1/sub", NULL, 0);	/* not renamed */
	lf_free(p);
}

/* ---------------------------- rejected input ---------------------------- */

struct bad_case {
	const char *text;
	unsigned int line;	/* 0: no line, "t.load: " */
	const char *why;	/* a substring of the message */
};

static const struct bad_case bad_cases[] = {
	{ "Qfsinfo 1 NT_STATUS_OK\nFrobnicate 1 NT_STATUS_OK\n", 2,
	  "unknown operation 'Frobnicate'" },
	{ "# c\nClose NT_STATUS_OK\n", 2, "takes 1 argument" },
	{ "WriteX 1 0 10 10 10 NT_STATUS_OK\n", 1, "takes 4 arguments" },
	{ "Rename \"\\clients\\a\" NT_STATUS_OK\n", 1, "takes 2 arguments" },
	{ "Close\n", 1, "no status" },
	{ "WriteX 1 2 3 4 5 6 7 8 NT_STATUS_OK\n", 1, "too many" },
	{ "\n\nClose 1 OK\n", 3, "bad status 'OK'" },
	{ "Close 1 0xZZ\n", 1, "bad status" },
	{ "Close 1 nt_status_ok\n", 1, "bad status" },
	{ "Mkdir \"\\clients\\x NT_STATUS_OK\n", 1, "unterminated quote" },
	{ "Mkdir \"clients\\x\" NT_STATUS_OK\n", 1, "backslash" },
	{ "Unlink \"\\etc\\passwd\" 0 NT_STATUS_OK\n", 1, "outside" },
	{ "Mkdir \"\\clientsX\\a\" NT_STATUS_OK\n", 1, "outside" },
	{ "Mkdir \"\\\" NT_STATUS_OK\n", 1, "outside" },
	{ "Mkdir \"\\clients\\client1\\..\\..\\x\" NT_STATUS_OK\n", 1,
	  "'..'" },
	{ "Close abc NT_STATUS_OK\n", 1, "'abc' is not a number" },
	{ "ReadX 1 0 12z 12 NT_STATUS_OK\n", 1, "'12z' is not a number" },
	{ "Close 08 NT_STATUS_OK\n", 1, "not a number" },	/* octal */
	{ "Close \"\" NT_STATUS_OK\n", 1, "not a number" },
	{ "WriteX 1 0 999999999 999999999 NT_STATUS_OK\n", 1,
	  "out of range" },
	{ "ReadX 1 0 4096 16777217 NT_STATUS_OK\n", 1, "out of range" },
	{ "ReadX 1 -1 10 10 NT_STATUS_OK\n", 1, "offset -1" },
	{ "Close 2147483648 NT_STATUS_OK\n", 1, "out of range" },
	{ "Close -2147483649 NT_STATUS_OK\n", 1, "out of range" },
	{ "Qfsinfo 99999999999999999999 NT_STATUS_OK\n", 1, "out of range" },
	{ "Sleep -1 NT_STATUS_OK\n", 1, "out of range" },
	{ "LockX 1 -1 1 NT_STATUS_OK\n", 1, "negative" },
	{ "SMBopenX 1 2 3\n", 1, "dbench 1" },
	{ "1.2.3 Close 1 NT_STATUS_OK\n", 1, "bad timestamp '1.2.3'" },
	{ "5x Close 1 NT_STATUS_OK\n", 1, "bad timestamp" },
	{ "1e99 Close 1 NT_STATUS_OK\n", 1, "bad timestamp" },
	{ "# only\n\n   # comments\n", 0, "no operations" },
	{ "", 0, "no operations" },
};

/* Parse @len bytes of @text, which must fail at @line with @why. */
static void expect_error(const char *text, size_t len, unsigned int line,
			 const char *why)
{
	struct program *p = NULL;
	char prefix[32];

	if (line)
		snprintf(prefix, sizeof(prefix), "t.load:%u: ", line);
	else
		snprintf(prefix, sizeof(prefix), "t.load: ");
	err[0] = 0;
	if (!lf_parse_buffer("t.load", text, len, &p, err, sizeof(err))) {
		lf_free(p);
		fail_msg("accepted: %.60s", text);
	}
	if (strncmp(err, prefix, strlen(prefix)) || !strstr(err, why))
		fail_msg("error '%s', want '%s...%s...'", err, prefix, why);
}

static void test_bad_lines(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad_cases); i++)
		expect_error(bad_cases[i].text, strlen(bad_cases[i].text),
			     bad_cases[i].line, bad_cases[i].why);
}

static void test_nul_long_line_long_name(void **state)
{
	static const char nul[] = "Qfsinfo 1 NT_STATUS_OK\n"
				  "Qfsinfo 1\0 NT_STATUS_OK\n";
	static const char head[] = "Mkdir \"\\clients\\client1\\";
	static const char tail[] = "\" NT_STATUS_OK\n";
	static char buf[LF_MAX_LINE + 64];
	struct program *p;
	size_t n;

	(void)state;
	expect_error(nul, sizeof(nul) - 1, 2, "NUL byte in line (column 10)");

	/* a line of exactly LF_MAX_LINE bytes (plus CR) is accepted */
	n = (size_t)sprintf(buf, "Qfsinfo 1 NT_STATUS_OK");
	memset(buf + n, ' ', LF_MAX_LINE - n);
	memcpy(buf + LF_MAX_LINE, "\r\n", 2);
	p = parse_ok(buf, LF_MAX_LINE + 2);
	assert_int_equal(p->nops, 1);
	lf_free(p);
	/* one byte more is not */
	buf[LF_MAX_LINE] = ' ';
	buf[LF_MAX_LINE + 1] = '\n';
	expect_error(buf, LF_MAX_LINE + 2, 1, "longer than");

	/* a 255-byte component is fine, 256 is not */
	n = strlen(head);
	memcpy(buf, head, n);
	memset(buf + n, 'x', 255);
	strcpy(buf + n + 255, tail);
	p = parse_ok(buf, strlen(buf));
	assert_int_equal(strlen(p->paths[p->ops[0].path[0]].base), 255);
	lf_free(p);
	memset(buf + n, 'x', 256);
	strcpy(buf + n + 256, tail);
	expect_error(buf, strlen(buf), 1, "longer than 255");
}

/*
 * A line holding only a timestamp has no keyword: the message must not
 * quote a token left over from the previous line ("'1'" from "Close 1").
 */
static void test_timestamp_only_line(void **state)
{
	static const char text[] = "Qfsinfo 1 NT_STATUS_OK\n0.5\n";

	(void)state;
	expect_error(text, sizeof(text) - 1, 2, "");
	if (strstr(err, "'1'") || strstr(err, "NT_STATUS_OK"))
		fail_msg("message quotes a stale token: %s", err);
}

/* Timestamps that are all 0 do not pace (client_paced): there is no
 * intended start to be late for; one past 0 anywhere does */
static void test_zero_timestamps(void **state)
{
	static const char zero[] = "0 Qfsinfo 1 NT_STATUS_OK\n"
				   "0.000 Qfsinfo 1 NT_STATUS_OK\n";
	static const char late[] = "0 Qfsinfo 1 NT_STATUS_OK\n"
				   "Qfsinfo 1 NT_STATUS_OK\n"
				   "0.000001 Qfsinfo 1 NT_STATUS_OK\n";
	struct program *p = parse_ok(zero, sizeof(zero) - 1);

	(void)state;
	assert_int_equal(p->has_timestamps, 1);
	assert_int_equal(p->paces, 0);
	lf_free(p);
	p = parse_ok(late, sizeof(late) - 1);
	assert_int_equal(p->paces, 1);
	assert_int_equal(p->ops[2].ts_ns, 1000);
	lf_free(p);
}

/*
 * Handles are followed in file order: a use that must fail in the first
 * pass (never opened, opened only by an NTCreateX expecting failure,
 * closed and not reopened) is refused with the line of the event.
 */
#define OPEN_H(fnum, st) \
	"NTCreateX \"\\clients\\client1\\f\" 0 5 " #fnum " " st "\n"

static void test_handle_order(void **state)
{
	static const struct bad_case cases[] = {
		{ "Qfsinfo 1 NT_STATUS_OK\nClose 7 NT_STATUS_OK\n", 2,
		  "Close: handle 7 is used before it is opened" },
		{ "ReadX 3 0 1 1 NT_STATUS_OK\n" OPEN_H(3, "NT_STATUS_OK"), 1,
		  "ReadX: handle 3 is used before it is opened" },
		{ OPEN_H(4, "NT_STATUS_OBJECT_NAME_NOT_FOUND")
		  "Flush 4 NT_STATUS_OK\n", 2,
		  "Flush: handle 4 is never opened: its NTCreateX at line 1 "
		  "expects failure" },
		{ OPEN_H(1, "NT_STATUS_OK") "Close 1 NT_STATUS_OK\n"
		  "# again\nClose 1 NT_STATUS_OK\n", 4,
		  "Close: handle 1 was closed at line 2 and not opened again" },
		{ OPEN_H(1, "*") "Close 1 NT_STATUS_OK\n"
		  OPEN_H(1, "ERROR") "WriteX 1 0 1 1 NT_STATUS_OK\n", 4,
		  "WriteX: handle 1 was closed at line 2" },
		{ OPEN_H(0, "NT_STATUS_OK") "Close -0 NT_STATUS_OK\n"
		  "Qfileinfo 0x0 1 NT_STATUS_OK\n", 3,
		  "Qfileinfo: handle 0 was closed at line 2" },
	};
	static const char good_h[] =
		OPEN_H(1, "NT_STATUS_OK")	/* 1 */
		OPEN_H(1, "*")			/* 2: reopen while open */
		"LockX 1 0 1 NT_STATUS_OK\n"	/* 3 */
		"Close 1 NT_STATUS_OK\n"	/* 4 */
		OPEN_H(1, "NT_STATUS_OK")	/* 5: open again */
		"Sfileinfo 1 1004 *\n"		/* 6 */
		"Close 1 *\n"			/* 7 */
		/* an open that may fail at run time is not refused */
		OPEN_H(2, "NT_STATUS_OK")	/* 8 */
		"Close 2 *\n";			/* 9 */
	struct program *p;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		expect_error(cases[i].text, strlen(cases[i].text),
			     cases[i].line, cases[i].why);
	p = parse_ok(good_h, sizeof(good_h) - 1);
	assert_int_equal(p->nops, 9);
	assert_int_equal(p->nhandles, 2);
	lf_free(p);
}

/*
 * Operation lines hold printable UTF-8 only; comments may hold anything
 * but NUL.  Messages give the column and never echo the bad byte.
 */
static void test_text(void **state)
{
	static const struct bad_case cases[] = {
		{ "Mkdir \"\\clients\\a\x1b[2Jb\" *\n", 1,
		  "control character 0x1b at column 18" },
		{ "Qfsinfo 1 *\nMkdir \"\\clients\\a\x01\" *\n", 2,
		  "control character 0x01 at column 18" },
		{ "Mkdir \"\\clients\\a\x7f\" *\n", 1, "control character 0x7f" },
		{ "Mkdir \"\\clients\\a\vb\" *\n", 1, "control character 0x0b" },
		{ "Mkdir \"\\clients\\a\fb\" *\n", 1, "control character 0x0c" },
		{ "Qfsinfo 1 *\rQfsinfo 2 *\n", 1,
		  "carriage return at column 12" },
		{ "Qfsinfo 1 *\r\r\n", 1, "carriage return at column 12" },
		{ "Mkdir \"\\clients\\a\xff\" *\n", 1,
		  "invalid UTF-8 (byte 0xff at column 18)" },
		{ "Mkdir \"\\clients\\\xc0\xaf\" *\n", 1, "invalid UTF-8" },
		{ "Mkdir \"\\clients\\\xe0\x80\xaf\" *\n", 1, "invalid UTF-8" },
		{ "Mkdir \"\\clients\\\xed\xa0\x80\" *\n", 1, "invalid UTF-8" },
		{ "Mkdir \"\\clients\\\xf4\x90\x80\x80\" *\n", 1,
		  "invalid UTF-8" },
		{ "Mkdir \"\\clients\\\xe9t\xe9\" *\n", 1,
		  "invalid UTF-8 (byte 0xe9 at column 17)" },
		{ "Mkdir \"\\clients\\x\" \xe2\x82", 1, "invalid UTF-8" },
		{ "Mkdir \"\\clients\\\xc2\x9b" "2J\" *\n", 1,
		  "control character U+009B at column 17" },
		{ "-1 Close 1 NT_STATUS_OK\n", 1, "bad timestamp '-1'" },
		{ "+1 Qfsinfo 1 NT_STATUS_OK\n", 1, "bad timestamp '+1'" },
		{ ".5 Qfsinfo 1 NT_STATUS_OK\n", 1, "bad timestamp '.5'" },
		{ "10000001 Qfsinfo 1 *\n", 1, "from 0 to 10000000" },
	};
	static const char nul_end[] = "Qfsinfo 1 *\n\0";
	static const char good_t[] =
		"# comments may hold \x1b[1m, \xff and \r in the middle\n"
		"Mkdir \"\\clients\\caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac "
		"\xf0\x9f\x98\x80\"\t*\r\n"
		"0x10 Qfsinfo 1 *\n"
		"1e3 Qfsinfo 1 *";
	struct program *p;

	(void)state;
	/* a NUL byte at the end of the file is a line of its own */
	expect_error(nul_end, sizeof(nul_end) - 1, 2,
		     "NUL byte in line (column 1)");
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		expect_error(cases[i].text, strlen(cases[i].text),
			     cases[i].line, cases[i].why);
		/* the bad byte itself is not in the message */
		for (const char *c = err; *c; c++)
			if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
				fail_msg("message has byte 0x%02x: %s",
					 (unsigned char)*c, err);
	}
	p = parse_ok(good_t, sizeof(good_t) - 1);
	assert_int_equal(p->nops, 3);
	assert_string_equal(p->paths[p->ops[0].path[0]].full,
			    "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac "
			    "\xf0\x9f\x98\x80");
	assert_int_equal(p->ops[1].ts_ns, 16000000000ULL);
	assert_int_equal(p->ops[2].ts_ns, 1000000000000ULL);
	lf_free(p);
}

/* Long tokens are cut in messages, so one line stays readable. */
static void test_long_messages(void **state)
{
	static char buf[LF_MAX_LINE + 64];
	size_t n;

	(void)state;
	n = (size_t)sprintf(buf, "Mkdir \"\\clients\\");
	for (int i = 0; i < 30; i++)
		n += (size_t)sprintf(buf + n, "%s\\", i == 10 ? "..": "dir");
	sprintf(buf + n, "x\" *\n");
	expect_error(buf, strlen(buf), 1, "'..' is not allowed");
	assert_non_null(strstr(err, "..."));
	assert_true(strlen(err) < 160);

	n = (size_t)sprintf(buf, "Mkdir \"\\clients\\");
	for (int i = 0; i < 120; i++)
		n += (size_t)sprintf(buf + n, "component\\");
	sprintf(buf + n, "x\" *\n");
	expect_error(buf, strlen(buf), 1, "is too long (more than 1024");
	assert_true(strlen(err) < 160);

	memset(buf, 'x', LF_MAX_LINE + 1);
	memcpy(buf + LF_MAX_LINE + 1, "\n", 2);
	expect_error(buf, LF_MAX_LINE + 2, 1,
		     "line longer than 4096 bytes (4097)");

	/* a long keyword, status, number or timestamp is cut too */
	memset(buf, 'x', 4000);
	strcpy(buf + 4000, " 1 *\n");
	expect_error(buf, strlen(buf), 1, "unknown operation 'xxx");
	assert_true(strlen(err) < 160);
	memcpy(buf, "Qfsinfo ", 8);
	expect_error(buf, strlen(buf), 1, "takes 1 argument");
	strcpy(buf + 8, "1 ");
	memset(buf + 10, 'N', 4000);
	strcpy(buf + 4010, "\n");
	expect_error(buf, strlen(buf), 1, "bad status 'NNN");
	assert_true(strlen(err) < 200);
	memset(buf + 8, '7', 4000);
	strcpy(buf + 4008, " *\n");
	expect_error(buf, strlen(buf), 1, "argument 777");
	assert_true(strlen(err) < 200);
	memset(buf, '1', 4000);
	strcpy(buf + 4000, " Qfsinfo 1 *\n");
	expect_error(buf, strlen(buf), 1, "bad timestamp '111");
	assert_true(strlen(err) < 200);
}

/* ------------------------------- files --------------------------------- */

static void write_file(char *path, const char *data, size_t len, int gzip)
{
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	if (gzip) {
		gzFile gz = gzdopen(fd, "wb9");

		assert_non_null(gz);
		assert_int_equal(gzwrite(gz, data, (unsigned int)len), len);
		assert_int_equal(gzclose(gz), Z_OK);
	} else {
		assert_int_equal(write(fd, data, len), len);
		close(fd);
	}
}

static void test_parse_file(void **state)
{
	struct program *ref = parse_ok(good, sizeof(good) - 1), *p;

	(void)state;
	for (int gzip = 0; gzip <= 1; gzip++) {
		char path[] = "/tmp/dbng-test-loadfile.XXXXXX";

		write_file(path, good, sizeof(good) - 1, gzip);
		p = NULL;
		if (lf_parse_file(path, &p, err, sizeof(err))) {
			unlink(path);
			fail_msg("%s: %s", gzip ? "gzip" : "plain", err);
		}
		unlink(path);
		assert_string_equal(p->name, path);
		assert_int_equal(p->nops, ref->nops);
		assert_int_equal(p->nlines, ref->nlines);
		assert_int_equal(p->npaths, ref->npaths);
		assert_int_equal(p->ndirs, ref->ndirs);
		assert_int_equal(p->nhandles, ref->nhandles);
		assert_memory_equal(p->op_count, ref->op_count,
				    sizeof(p->op_count));
		for (uint32_t i = 0; i < p->nops; i++)
			check_op(p, i, &good_ops[i]);
		lf_free(p);
	}
	lf_free(ref);
}

/* A loadfile whose ops take 2 MB or more: its ops in memory of their own,
 * 2 MB aligned (lf_pack_ops: huge pages, so that a fork copies a few page
 * table entries of them, not thousands), every op as parsed. */
static void test_large_ops(void **state)
{
	const uint32_t n = (2u << 20) / sizeof(struct lf_op) + 100;
	size_t cap = (size_t)n * 48 + 64, len = 0;
	char *text = malloc(cap), msg[256];
	struct program *p = NULL;

	(void)state;
	assert_non_null(text);
	for (uint32_t i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, cap - len,
					"1 Qfsinfo %u NT_STATUS_OK\n", i % 7);
	if (lf_parse_buffer("big.load", text, len, &p, msg, sizeof(msg)))
		fail_msg("%s", msg);
	assert_int_equal(p->nops, n);
	assert_non_null(p->ops_map);
	assert_int_equal((uintptr_t)p->ops % (2u << 20), 0);
	assert_true(p->ops_maplen >= (size_t)n * sizeof(struct lf_op));
	for (uint32_t i = 0; i < n; i++) {
		if (p->ops[i].type != OP_QFSINFO || p->ops[i].line != i + 1 ||
		    p->ops[i].arg[0] != (int64_t)(i % 7))
			fail_msg("op %u: type %u line %u arg %lld", i,
				 p->ops[i].type, p->ops[i].line,
				 (long long)p->ops[i].arg[0]);
	}
	lf_free(p);
	free(text);
}

static void test_file_errors(void **state)
{
	static const char bad[] = "Qfsinfo 1 NT_STATUS_OK\nFrob 1 NT_STATUS_OK\n";
	char path[] = "/tmp/dbng-test-loadfile.XXXXXX", want[64];
	const char *missing = "/tmp/dbng-test-no-such-dir/x.load";
	struct program *p = NULL;

	(void)state;
	assert_int_equal(lf_parse_file(missing, &p, err, sizeof(err)), -1);
	assert_null(p);
	assert_true(!strncmp(err, missing, strlen(missing)));
	assert_non_null(strstr(err, "No such file"));

	/* a compressed file's errors name the file and line */
	write_file(path, bad, sizeof(bad) - 1, 1);
	assert_int_equal(lf_parse_file(path, &p, err, sizeof(err)), -1);
	unlink(path);
	snprintf(want, sizeof(want), "%s:2: ", path);
	assert_true(!strncmp(err, want, strlen(want)));
	assert_non_null(strstr(err, "unknown operation"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_loadfile),
		cmocka_unit_test(test_paths_and_handles),
		cmocka_unit_test(test_subst_client),
		cmocka_unit_test(test_inval),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_nul_long_line_long_name),
		cmocka_unit_test(test_timestamp_only_line),
		cmocka_unit_test(test_zero_timestamps),
		cmocka_unit_test(test_handle_order),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_long_messages),
		cmocka_unit_test(test_parse_file),
		cmocka_unit_test(test_file_errors),
		cmocka_unit_test(test_large_ops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
