/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * host.c - be_fail() and be_warn(), the backends' way to report: they
 * call the engine through the table it filled (struct be_host), so the
 * backends need nothing of the engine to build or link; and the messages
 * every backend gives alike.
 */
#include <stdarg.h>
#include <string.h>

#include "backend.h"

void be_fail(struct be_client *c, const struct lf_op *op, const char *fmt,
	     ...)
{
	va_list ap;

	va_start(ap, fmt);
	c->host->vfail(c, op, fmt, ap);
	va_end(ap);
}

void be_warn(struct be_client *c, const struct lf_op *op, const char *fmt,
	     ...)
{
	va_list ap;

	va_start(ap, fmt);
	c->host->vwarn(c, op, fmt, ap);
	va_end(ap);
}

int be_short_read(struct be_client *c, const struct lf_op *op, int64_t n)
{
	be_warn(c, op,
		"ReadX handle %d: read %lld bytes at %lld, expected %lld",
		be_fnum(c, op->handle), (long long)n, (long long)op->arg[0],
		(long long)op->arg[2]);
	return BE_REPORTED;
}

int be_short_write(struct be_client *c, const struct lf_op *op, int64_t n,
		   int why)
{
	be_fail(c, op,
		"WriteX handle %d: wrote %lld bytes, expected to write %lld "
		"bytes%s%s%s",
		be_fnum(c, op->handle), (long long)n, (long long)op->arg[2],
		why ? " (" : "", why ? strerror(why) : "", why ? ")" : "");
	return BE_REPORTED;
}
