/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * null.c - a backend that does no I/O at all, to measure the harness
 * itself, and the backend interface at its smallest: every op "returns"
 * what the loadfile's status expects (the engine tracks the handles), and
 * ReadX/WriteX are counted by the engine, so the output has the shape of
 * a real run.
 */
#include <errno.h>

#include "backend.h"

static int null_op(struct be_client *c, const struct lf_op *op, be_handle *h)
{
	enum op_policy pol;

	(void)c;
	(void)h;
	if (op->expect != LF_EXPECT_FAIL)
		return 0;
	pol = op_info[op->type].policy;
	return pol == OP_POL_WARN || pol == OP_POL_FATAL ? -ENOENT : 0;
}

const struct backend backend_null = {
	.api = BACKEND_API_VERSION,
	.name = "null",
	.summary = "no I/O at all",
	.version = 1,
	.caps = BE_NO_IO,
	.op = {[0 ... OP_NR - 1] = null_op}, /* Sleep is never called */
};
