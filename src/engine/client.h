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

/*
 * The engine's client.  The backend sees only @be (its id, program,
 * private data); the engine owns the handles and their state.
 */
struct client {
	struct be_client be; /* first: what the backend sees */
	const struct config *cfg;
	const struct program *prog; /* = be.prog */
	const struct backend *b;
	be_op_fn op[OP_NR]; /* the backend's, with the engine's Sleep and
			     * --fake-io, and its not-run ops */
	uint64_t timed;	    /* bit t: op t is timed and recorded (not
			     * Sleep, not an op the backend does not run) */
	struct shm_hdr *hdr;
	struct client_slot *slot;
	be_handle *h;	/* what the backend opened: slot i is h[i + 1],
			 * h[0] the scratch of ops without a handle */
	int *hstate;	/* per handle slot: 0 open, -1 not open, or the
			 * errno of the failed open that left it closed */
	uint32_t pc;	/* next op */
	uint32_t gen; /* statistics generation in use */
	unsigned int sg;     /* gen % SS_GENS */
	struct shm *shm;     /* the shared mapping, and its slot's index */
	int sidx;
	struct ss_gen *gn;   /* its histograms of gen (shm_gen) */
	char *pool;	     /* and their bins (shm_pool) */
	bool done;    /* --run-once: pass finished, or the run's end */
	uint64_t warm_ns; /* end of the warmup (deadline.h), then NEVER */
	uint64_t end_ns;  /* end of the measured phase */
	uint64_t slow_ns; /* --stall-threshold: an op this long goes into
			   * the slot's slow ring; UINT64_MAX: none */
	uint64_t pass_start_ns;
	uint64_t prev_start_ns;	      /* start of the previous line */
	uint64_t pace_bytes;	      /* bytes since the pass start */
	struct pace_rate rate;	      /* -R pacing state */
	bool paced;	 /* -R or timestamps: response times (client_paced) */
	uint64_t due_ns; /* timestamps: the previous line's intended start */
	uint8_t io_col[OP_NR];	      /* which of op->io_bytes[] counts:
				       * 1 with --fake-io, and for ReadX
				       * with BE_COUNT_READ_RET (tbench) */
	/* the process's foreign CPU wait so far (foreign.h), read at each
	 * op's start and end; own: it is counted (BPF), so own latencies
	 * are recorded */
	const volatile uint64_t *fwait;
	bool own;
};

/*
 * client_paced - whether a client of @cfg running @prog is paced: -R, or
 * a loadfile with a timestamp (one that is not 0).  A paced client
 * records each op's response time from its intended start (pace.h); an
 * unpaced one has no intended start and records none.
 */
bool client_paced(const struct config *cfg, const struct program *prog);

/*
 * client_init - prepare @cl (id, program, slot) and its handle table.
 * @id counts every host's clients; its slot is id - run->first_id.
 * Returns 0, or -1 after recording the failure in the slot.
 */
int client_init(struct client *cl, int id, const struct config *cfg,
		const struct program *prog, const struct backend *b,
		const struct be_run *run, struct shm *shm);

/* client_set_foreign - @cl reads its process's foreign CPU wait at
 * @ctr (foreign_counter) and records own latencies; NULL: not counted */
void client_set_foreign(struct client *cl, const volatile uint64_t *ctr);

/* client_release_all - release the open handles of @cl (clean-up). */
void client_release_all(struct client *cl);

/*
 * client_loop - run the @n clients of this process line by line until the
 * stop flag is set (or, with --run-once, every client did one pass).
 * Returns 0, or 1 if a client failed.
 */
int client_loop(struct client *cls, int n);

/* client_path - the real path of path index @pi for messages:
 * "DIR/clients/client0/dir/file" (or from the backend's be_run.where:
 * "//SERVER/SHARE/clients/client0/dir/file"). */
const char *client_path(const struct client *cl, uint32_t pi, char *buf,
			size_t len);


#endif
