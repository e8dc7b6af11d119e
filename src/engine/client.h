/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * client.h - one simulated client: walk the program, pace, time each op,
 * record it in the shared slot.  Nothing else happens in the hot loop.
 */
#ifndef DBNG_CLIENT_H
#define DBNG_CLIENT_H

#include <stdbool.h>
#include <stdint.h>

#include "backend.h"
#include "loadfile.h"
#include "pace.h"
#include "config.h"
#include "shm.h"

struct client {
	int id; /* 0-based, as dbench's client ids */
	const struct config *cfg;
	const struct program *prog;
	const struct backend_ops *be;
	struct shm_hdr *hdr;
	struct client_slot *slot;
	int *handles; /* per handle slot: fd, or -1 - errno of a failed open */
	void *priv;   /* the backend's per-client state */
	uint32_t pc;  /* next op */
	uint32_t gen; /* statistics generation in use */
	bool done;    /* --run-once: pass finished */
	uint64_t pass_start_ns;
	uint64_t prev_start_ns;	      /* start of the previous line */
	uint64_t pace_bytes;	      /* bytes since the pass start */
	struct pace_rate rate;	      /* -R pacing state */
	uint64_t rng;		      /* xorshift state */
};

/*
 * client_init - prepare @cl (id, program, slot) and its handle table.
 * Returns 0 or -1 after client_fail().
 */
int client_init(struct client *cl, int id, const struct config *cfg,
		const struct program *prog, const struct backend_ops *be,
		struct shm *shm);

/*
 * client_loop - run the @n clients of this process line by line until the
 * stop flag is set (or, with --run-once, every client did one pass).
 * Returns 0, or 1 if a client failed.
 */
int client_loop(struct client *cls, int n);

/* client_fail - record the fatal error of @cl (first one wins) and stop
 * the run.  @op may be NULL. */
void client_fail(struct client *cl, const struct lf_op *op, const char *fmt,
		 ...) __attribute__((format(printf, 3, 4)));

/* client_warn - count a non-fatal unexpected result; the first one of
 * each client is kept as text. */
void client_warn(struct client *cl, const struct lf_op *op, const char *fmt,
		 ...) __attribute__((format(printf, 3, 4)));

/* client_path - the real path of path index @pi for messages:
 * "DIR/clients/client0/dir/file". */
const char *client_path(const struct client *cl, uint32_t pi, char *buf,
			size_t len);

/* client_op_sleep - the Sleep operation, common to all backends. */
int client_op_sleep(struct client *cl, const struct lf_op *op);

/* client_random - a pseudo-random 64-bit value from the client's state. */
uint64_t client_random(struct client *cl);

#endif
