/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * client_msg.c - a client's failures and warnings as text (cold: only on
 * the error path).  The op's real paths, "client N at FILE:LINE: ", the
 * first warning and the fatal error into the client's slot, the result
 * of an op compared with the status its loadfile line expects, and the
 * host's side of struct be_host for the backends.
 */
#include "client_msg.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr)-offsetof(type, member)))

static inline struct client *client_of(struct be_client *bc)
{
	return container_of(bc, struct client, be);
}

const char *client_path(const struct client *cl, uint32_t pi, char *buf,
			size_t len)
{
	const char *where = cl->be.run && cl->be.run->where ? cl->be.run->where
							    : cl->cfg->dir;
	int n = snprintf(buf, len, "%s/clients/", where);

	if (n < 0 || (size_t)n >= len ||
	    lf_subst_client(buf + n, len - (size_t)n, cl->prog->paths[pi].full,
			    cl->be.id) < 0)
		snprintf(buf, len, "(path too long)");
	return buf;
}

static const char *host_path(const struct be_client *bc, uint32_t pi, char *buf,
			     size_t len)
{
	return client_path(container_of(bc, const struct client, be), pi, buf,
			   len);
}

/* "Unlink /d/clients/client0/x" or "Close handle 10003" */
static void describe(const struct client *cl, const struct lf_op *op, char *buf,
		     size_t len)
{
	char p1[1200], p2[1200];
	const char *kw = op_info[op->type].keyword;

	if (op->path[1] != LF_NONE)
		snprintf(buf, len, "%s %s %s", kw,
			 client_path(cl, op->path[0], p1, sizeof(p1)),
			 client_path(cl, op->path[1], p2, sizeof(p2)));
	else if (op->path[0] != LF_NONE)
		snprintf(buf, len, "%s %s", kw,
			 client_path(cl, op->path[0], p1, sizeof(p1)));
	else if (op->handle != LF_NONE)
		snprintf(buf, len, "%s handle %d", kw,
			 cl->prog->fnums[op->handle]);
	else
		snprintf(buf, len, "%s", kw);
}

static void __attribute__((format(printf, 5, 0)))
vformat(const struct client *cl, const struct lf_op *op, char *dst, size_t len,
	const char *fmt, va_list ap)
{
	int n;

	if (op)
		n = snprintf(dst, len, "client %d at %s:%u: ", cl->be.id,
			     cl->prog->name, op->line);
	else
		n = snprintf(dst, len, "client %d: ", cl->be.id);
	if (n < 0 || (size_t)n >= len)
		return;
	vsnprintf(dst + n, len - (size_t)n, fmt, ap);
}

static void __attribute__((format(printf, 3, 0)))
client_vwarn(struct client *cl, const struct lf_op *op, const char *fmt,
	     va_list ap)
{
	if (op)
		cl->slot->st.errors[op->type]++;
	if (cl->slot->nwarn++ == 0)
		vformat(cl, op, cl->slot->warn_msg, SLOT_MSG, fmt, ap);
}

static void __attribute__((format(printf, 3, 0)))
client_vfail(struct client *cl, const struct lf_op *op, const char *fmt,
	     va_list ap)
{
	/* the first stop reason stays (shm.h): one that came after the run
	 * was interrupted or its time was up is a warning, not its reason */
	if (shm_hdr_set_stop(cl->hdr, STOP_FAILED) != STOP_FAILED) {
		client_vwarn(cl, op, fmt, ap);
		return;
	}
	if (cl->slot->state != SLOT_FAILED) {
		vformat(cl, op, cl->slot->err_msg, SLOT_MSG, fmt, ap);
		cl->slot->state = SLOT_FAILED;
	}
}

void __attribute__((format(printf, 3, 4)))
client_fail(struct client *cl, const struct lf_op *op, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	client_vfail(cl, op, fmt, ap);
	va_end(ap);
}

static void __attribute__((format(printf, 3, 4)))
client_warn(struct client *cl, const struct lf_op *op, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	client_vwarn(cl, op, fmt, ap);
	va_end(ap);
}

static void __attribute__((format(printf, 3, 0)))
host_vfail(struct be_client *bc, const struct lf_op *op, const char *fmt,
	   va_list ap)
{
	client_vfail(client_of(bc), op, fmt, ap);
}

static void __attribute__((format(printf, 3, 0)))
host_vwarn(struct be_client *bc, const struct lf_op *op, const char *fmt,
	   va_list ap)
{
	client_vwarn(client_of(bc), op, fmt, ap);
}

bool __attribute__((noinline))
client_compare_status(struct client *cl, const struct lf_op *op, int rc)
{
	const char *st = cl->prog->status[op->status];
	enum op_policy pol = op_info[op->type].policy;
	bool mismatch, fatal;
	char what[2600];

	if (rc == BE_REPORTED)
		return cl->slot->state == SLOT_FAILED;
	/* cut short by the signal that stops the run (a filesystem that
	 * honours interrupts): no error of the op; the loop sees the stop */
	if (rc == -EINTR && cl->hdr->stop)
		return false;
	if (pol == OP_POL_IGNORE)
		return false;
	if (pol == OP_POL_FATAL_ERR || pol == OP_POL_WARN_ERR)
		mismatch = rc < 0;
	else if (op->expect == LF_EXPECT_ANY)
		mismatch = false;
	else
		mismatch = (rc < 0) != (op->expect == LF_EXPECT_FAIL);
	if (!mismatch)
		return false;
	fatal = pol == OP_POL_FATAL || pol == OP_POL_FATAL_ERR;
	describe(cl, op, what, sizeof(what));
	if (fatal && rc < 0)
		client_fail(cl, op, "%s failed (%s) - expected %s", what,
			    strerror(-rc), st);
	else if (fatal)
		client_fail(cl, op, "%s succeeded - expected %s", what, st);
	else if (rc < 0)
		client_warn(cl, op, "%s failed (%s) - expected %s", what,
			    strerror(-rc), st);
	else
		client_warn(cl, op, "%s succeeded - expected %s", what, st);
	return fatal && cl->slot->state == SLOT_FAILED; /* not a late one */
}

bool __attribute__((noinline))
client_no_handle(struct client *cl, const struct lf_op *op)
{
	int why = cl->hstate[op->handle]; /* see engine_ntcreatex */

	if (why > 0)
		client_fail(cl, op,
			    "%s: handle %d was not found (its open failed: "
			    "%s)",
			    op_info[op->type].keyword,
			    cl->prog->fnums[op->handle], strerror(why));
	else
		client_fail(cl, op,
			    "%s: handle %d was not found (never opened, or "
			    "its open failed)",
			    op_info[op->type].keyword,
			    cl->prog->fnums[op->handle]);
	return cl->slot->state == SLOT_FAILED; /* not a late one */
}

const struct be_host client_host = {
	.vfail = host_vfail,
	.vwarn = host_vwarn,
	.path = host_path,
};
