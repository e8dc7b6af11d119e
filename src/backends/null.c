/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * null.c - a backend that does no I/O at all, to measure the harness
 * itself.  Every op "returns" what the loadfile's status expects, handles
 * are tracked as if opened, and ReadX/WriteX count their bytes, so the
 * output has the same shape as a real run.
 */
#include <errno.h>

#include "backend.h"
#include "client.h"
#include "loadfile.h"

static int null_op(struct client *cl, const struct lf_op *op)
{
	enum op_policy pol = op_info[op->type].policy;

	(void)cl;
	if ((pol == OP_POL_WARN || pol == OP_POL_FATAL) &&
	    op->expect == LF_EXPECT_FAIL)
		return -ENOENT;
	return 0;
}

static int null_ntcreatex(struct client *cl, const struct lf_op *op)
{
	if (op->expect == LF_EXPECT_FAIL)
		return -ENOENT;
	cl->handles[op->handle] = 0; /* "open" */
	return 0;
}

static int null_close(struct client *cl, const struct lf_op *op)
{
	cl->handles[op->handle] = -1;
	return 0;
}

const struct backend_ops backend_null = {
	.name = "null",
	.flags = BACKEND_F_FAKE,
	.op =
		{
			[OP_NTCREATEX] = null_ntcreatex,
			[OP_CLOSE] = null_close,
			[OP_RENAME] = null_op,
			[OP_UNLINK] = null_op,
			[OP_DELTREE] = null_op,
			[OP_RMDIR] = null_op,
			[OP_MKDIR] = null_op,
			[OP_QPATHINFO] = null_op,
			[OP_QFILEINFO] = null_op,
			[OP_QFSINFO] = null_op,
			[OP_SFILEINFO] = null_op,
			[OP_FIND] = null_op,
			[OP_WRITEX] = null_op,
			[OP_READX] = null_op,
			[OP_LOCKX] = null_op,
			[OP_UNLOCKX] = null_op,
			[OP_FLUSH] = null_op,
			[OP_SLEEP] = client_op_sleep,
		},
};
