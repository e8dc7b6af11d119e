/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_sockio.c - the sizes of the sockio backend's exchanges: for a
 * loadfile with every op, under two -D and for clients 0, 1 and 12, each
 * op's request and reply sizes equal tbench 4.0's (docs/compat.md, "tbench")
 * written out again here, with L(x) taken as tbench 4.0 takes it: the
 * length of -D followed by the loadfile's path, backslashes made slashes
 * and "client1" made "clientN".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadfile.h"
#include "sockio/sockio.h"

static const char load[] =
	"Deltree \"\\clients\\client1\" NT_STATUS_OK\n"
	"Mkdir \"\\clients\" NT_STATUS_OK\n"
	"NTCreateX \"\\clients\\client1\" 0x1 0x2 16385 NT_STATUS_OK\n"
	"Close 16385 NT_STATUS_OK\n"
	"NTCreateX \"\\clients\\client1\\~dmtmp\\WORD\\CHAP10.DOC\" 0x40 "
	"0x5 10000 NT_STATUS_OK\n"
	"WriteX 10000 0 65536 65536 NT_STATUS_OK\n"
	"ReadX 10000 0 4096 3000 NT_STATUS_OK\n"
	"LockX 10000 2147483538 1 NT_STATUS_OK\n"
	"UnlockX 10000 2147483538 1 NT_STATUS_OK\n"
	"QUERY_FILE_INFORMATION 10000 1005 NT_STATUS_OK\n"
	"SET_FILE_INFORMATION 10000 1004 NT_STATUS_OK\n"
	"Flush 10000 NT_STATUS_OK\n"
	"Close 10000 NT_STATUS_OK\n"
	"QUERY_PATH_INFORMATION \"\\clients\\client1\\~dmtmp\\WORD\" 1004 "
	"NT_STATUS_OK\n"
	"QUERY_FS_INFORMATION 259 NT_STATUS_OK\n"
	"FIND_FIRST \"\\clients\\client1\\~dmtmp\\WORD\\*.DOC\" 260 1366 26 "
	"NT_STATUS_OK\n"
	"FIND_FIRST \"\\clients\\client1\\~dmtmp\\WORD\\x\" 260 1366 0 "
	"NT_STATUS_NO_SUCH_FILE\n"
	"Rename \"\\clients\\client1\\~dmtmp\\WORD\\CHAP10.DOC\" "
	"\"\\clients\\client1\\~dmtmp\\WORD\\CHAP11.DOC\" NT_STATUS_OK\n"
	"Unlink \"\\clients\\client1\\~dmtmp\\WORD\\CHAP11.DOC\" 0x6 "
	"NT_STATUS_OK\n"
	"Mkdir \"\\clients\\client1\\d\" NT_STATUS_OK\n"
	"Rmdir \"\\clients\\client1\\d\" NT_STATUS_OK\n"
	"Sleep 10 NT_STATUS_OK\n";

/* L as tbench 4.0 computes it: strlen(DIR + the loadfile's path with '\'
 * made '/' and every "client1" made "clientN") */
static uint64_t tbench_len(const char *dir, const char *lpath, int id)
{
	char buf[4096], name[32];
	size_t n = (size_t)snprintf(buf, sizeof(buf), "%s", dir);

	snprintf(name, sizeof(name), "client%d", id);
	for (const char *p = lpath; *p;) {
		if (!strncmp(p, "client1", 7)) {
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s",
					      name);
			p += 7;
		} else {
			buf[n++] = *p == '\\' ? '/' : *p;
			p++;
		}
	}
	buf[n] = 0;
	return strlen(buf);
}

/* the loadfile path of line @line (1-based), token @k (0 or 1) */
static void lpath_of(int line, int k, char *out, size_t len)
{
	const char *p = load;

	for (int l = 1; l < line; l++)
		p = strchr(p, '\n') + 1;
	for (int q = 0; q < 2 * k + 1; q++)
		p = strchr(p, '"') + 1;
	snprintf(out, len, "%.*s", (int)(strchr(p, '"') - p), p);
}

static void test_sizes(void **state)
{
	static const char *const dirs[] = {".", "/srv/tbench-dir"};
	static const int ids[] = {0, 1, 12};
	struct program *prog;
	char err[512];

	(void)state;
	assert_int_equal(lf_parse_buffer("t.load", load, strlen(load), &prog,
					 err, sizeof(err)),
			 0);
	for (size_t d = 0; d < 2; d++) {
		for (size_t c = 0; c < 3; c++) {
			uint32_t *plen = calloc(prog->npaths, sizeof(*plen));

			assert_non_null(plen);
			for (uint32_t i = 0; i < prog->npaths; i++)
				plen[i] = (uint32_t)sockio_path_len(
					dirs[d], prog->paths[i].full, ids[c]);
			for (uint32_t i = 0; i < prog->nops; i++) {
				const struct lf_op *op = &prog->ops[i];
				uint64_t s = 0, r = 0, ws = 0, wr = 0, l0 = 0,
					 l1 = 0;
				char lp[256];
				bool has;

				if (op->path[0] != LF_NONE) {
					lpath_of((int)op->line, 0, lp,
						 sizeof(lp));
					l0 = tbench_len(dirs[d], lp, ids[c]);
					assert_int_equal(plen[op->path[0]], l0);
				}
				if (op->path[1] != LF_NONE) {
					lpath_of((int)op->line, 1, lp,
						 sizeof(lp));
					l1 = tbench_len(dirs[d], lp, ids[c]);
				}
				has = sockio_sizes(op, plen, &s, &r);
				/* tbench 4.0's sizes */
				switch (op->type) {
				case OP_UNLINK:
				case OP_MKDIR:
				case OP_RMDIR:
					ws = 39 + 2 + 2 * l0 + 2, wr = 39;
					break;
				case OP_NTCREATEX:
					ws = 70 + 2 + 2 * l0 + 2, wr = 87;
					break;
				case OP_WRITEX:
					ws = 59 + 65536, wr = 55;
					break;
				case OP_READX: /* ret_size, not size */
					ws = 59, wr = 59 + 3000;
					break;
				case OP_CLOSE:
					ws = 47, wr = 39;
					break;
				case OP_RENAME:
					ws = 47 + 2 * l0 + 2 * l1, wr = 39;
					break;
				case OP_FLUSH:
					ws = 41, wr = 39;
					break;
				case OP_QPATHINFO:
					ws = 55 + 2 * l0, wr = 71;
					break;
				case OP_QFILEINFO:
				case OP_QFSINFO:
					ws = 59, wr = 71;
					break;
				case OP_FIND:
					ws = 59 + 2 * l0;
					wr = 39 + 90 * (uint64_t)op->arg[2];
					break;
				case OP_SFILEINFO:
					ws = 71, wr = 47;
					break;
				case OP_LOCKX:
				case OP_UNLOCKX:
					ws = 51, wr = 39;
					break;
				default: /* Deltree, Sleep */
					assert_false(has);
					continue;
				}
				assert_true(has);
				if (s != ws || r != wr)
					fail_msg("line %u (-D %s, client %d): "
						 "%llu/%llu, expected "
						 "%llu/%llu",
						 op->line, dirs[d], ids[c],
						 (unsigned long long)s,
						 (unsigned long long)r,
						 (unsigned long long)ws,
						 (unsigned long long)wr);
			}
			free(plen);
		}
	}
	/* the figures themselves, once: client 0 under "." */
	assert_int_equal(tbench_len(".", "\\clients", 0), 9);
	assert_int_equal(tbench_len(".", "\\clients\\client1", 0), 17);
	assert_int_equal(sockio_path_len(".", ".", 0), 9);
	assert_int_equal(sockio_path_len(".", "client1", 0), 17);
	assert_int_equal(sockio_path_len(".", "client1", 12), 18);
	assert_int_equal(sockio_path_len("/a/b", "client1/x", 3), 22);
	lf_free(prog);
}

static void test_out_of_range(void **state)
{
	struct lf_op op = {
		.type = OP_FIND, .path = {0, LF_NONE}, .arg = {260, 1366, -1}};
	uint32_t plen[1] = {40};
	uint64_t s, r;

	(void)state;
	/* a count no reply can hold is reported, not wrapped */
	assert_true(sockio_sizes(&op, plen, &s, &r));
	assert_true(r > SOCKIO_MAX_MSG);
	op.arg[2] = (int64_t)1 << 40;
	assert_true(sockio_sizes(&op, plen, &s, &r));
	assert_true(r > SOCKIO_MAX_MSG);
	op.arg[2] = 100;
	assert_true(sockio_sizes(&op, plen, &s, &r));
	assert_int_equal(r, 39 + 9000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_out_of_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
