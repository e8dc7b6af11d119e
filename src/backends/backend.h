/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * backend.h - what executes the operations: a table of functions.
 *
 * Contract of an op handler: it runs one compiled op for one client and
 * returns 0 on success or -errno on failure, never printing and never
 * exiting.  The client core compares the result with the loadfile's status.
 * A handler that found something worse than a failed call (a short write)
 * reports it itself with client_fail() or client_warn() and returns
 * OP_REPORTED.
 */
#ifndef DBNG_BACKEND_H
#define DBNG_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

#include "ops.h"

struct client;
struct config;
struct lf_op;
struct program;

#define OP_REPORTED 1 /* handler already reported a warning or failure */

#define BACKEND_F_FAKE (1u << 0) /* does no I/O: results come from the status \
				  */

typedef int (*backend_op_fn)(struct client *cl, const struct lf_op *op);

struct backend_ops {
	const char *name;
	unsigned int flags;
	/* parent, once, before fork: check and prepare the target;
	 * 0 or -1 with a message in @err */
	int (*init)(const struct config *cfg, char *err, size_t errlen);
	/* child, per client, before the start barrier; 0 or -1 after
	 * client_fail() */
	int (*setup)(struct client *cl);
	/* child, per client, after the last op (unless --skip-cleanup) */
	void (*cleanup)(struct client *cl);
	/* parent, once, after every child exited: @dirty[i] is true for a
	 * client that could not clean up after itself */
	void (*fini)(const struct config *cfg, const bool *dirty);
	backend_op_fn op[OP_NR];
};

extern const struct backend_ops backend_fileio;
extern const struct backend_ops backend_null;

/* backend_find - the backend called @name, or NULL. */
const struct backend_ops *backend_find(const char *name);

/* backend_names - "fileio, null" for messages. */
const char *backend_names(void);

/*
 * backend_check - 0 if @b has a handler for every op @p uses; otherwise -1
 * and "FILE:LINE: backend 'x' cannot run 'Op'" in @err.
 */
int backend_check(const struct backend_ops *b, const struct program *p,
		  char *err, size_t errlen);

#endif
