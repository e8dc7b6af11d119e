/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * host.c - be_fail() and be_warn(), the backends' way to report: they
 * call the engine through the table it filled (struct be_host), so the
 * backends need nothing of the engine to build or link.
 */
#include <stdarg.h>

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
