/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * client_msg.h - a client's failures and warnings (client_msg.c), for the
 * hot loop's error path (client.c); not an API.
 */
#ifndef DBNG_CLIENT_MSG_H
#define DBNG_CLIENT_MSG_H

#include <stdbool.h>

#include "client.h"

/* The host's callbacks a backend reports through (be.host). */
extern const struct be_host client_host;

/* Fail client @cl at @op (NULL: not at an op): the first stop reason of
 * the run and the slot's fatal message, or a warning if the run was
 * already stopping for another reason. */
void __attribute__((format(printf, 3, 4)))
client_fail(struct client *cl, const struct lf_op *op, const char *fmt, ...);

/* Compare the result @rc of @op with its expected status: a warning or a
 * failure when they differ.  True if the client must stop. */
bool client_compare_status(struct client *cl, const struct lf_op *op, int rc);

/* @op names a handle that is not open: fail, saying why (its open
 * failed, or it never was opened).  True if the client must stop. */
bool client_no_handle(struct client *cl, const struct lf_op *op);

#endif
