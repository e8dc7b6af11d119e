/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * backend.h - what executes the operations (interface version 2), and all
 * a backend may see of dbench-ng: this header and the compiled program
 * (workload/ops.h, workload/loadfile.h).  Never the run's options, never
 * shared memory.  How to write a backend: docs/backends.md.
 *
 * A handler runs one compiled op for one client and returns 0 on success,
 * -errno on failure, or BE_REPORTED after be_fail()/be_warn().  It never
 * prints and never exits; the engine compares the result with the
 * loadfile's status.
 */
#ifndef DBNG_BACKEND_H
#define DBNG_BACKEND_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "loadfile.h"
#include "ops.h"

#define BACKEND_API_VERSION 2

#define BE_REPORTED 1 /* the handler reported it (be_fail/be_warn) */
#define BE_EINPUT   2 /* init: bad input (the exit status, 2) */
#define BE_EENV	    3 /* init: environment error (the exit status, 3) */

/* What a backend opened: an fd, an SMBCFILE *, a struct nfsfh *.  The
 * engine keeps one per handle slot and passes it back; it never looks in. */
typedef union be_handle {
	struct {
		int fd;	      /* an fd ... */
		uint32_t aux; /* ... and what else the backend keeps with it */
	};
	void *ptr;
	uint64_t u64;
} be_handle;

/*
 * Capabilities.  The run asks for the BE_CAN_* bits of its options (-s -S
 * -F -x and dbench's fileio switches); a bit asked for that the backend
 * does not declare is refused before the run, unless it declares
 * BE_NO_IO (null: nothing to sync, every such request is moot).
 */
enum {
	BE_CAN_SYNC_OPEN = 1u << 0,    /* -s */
	BE_CAN_SYNC_DIRS = 1u << 1,    /* -S */
	BE_CAN_FSYNC = 1u << 2,	       /* -F */
	BE_CAN_XATTR = 1u << 3,	       /* -x */
	BE_CAN_NO_RESOLVE = 1u << 4,   /* --no-resolve */
	BE_CAN_STAT_CHECK = 1u << 5,   /* --stat-check */
	BE_CAN_ONE_BYTE_FIX = 1u << 6, /* --one-byte-write-fix */
	BE_USES_DIR = 1u << 7,	       /* works beneath -D DIR */
	BE_NO_IO = 1u << 8,	       /* does no I/O at all */
	BE_CAN_DIRFD = 1u << 9,	       /* --paths dirfd */
	/* not a request: ReadX counts its ret_size (the loadfile's 4th
	 * number) as tbench does, not its size (dbench) */
	BE_COUNT_READ_RET = 1u << 10,
	/* not a capability: --allow-symlink-races, a backend that would
	 * refuse to run without a protection it cannot have runs anyway */
	BE_ALLOW_SYMLINK_RACES = 1u << 11,
};
#define BE_CAN_ALL 0x27fu /* every BE_CAN_* bit */

/* A backend's own option, -o NAME or -o NAME=VALUE. */
enum be_opt_type {
	BE_OPT_FLAG, /* -o NAME (or NAME=1, NAME=0): a bool */
	BE_OPT_INT,  /* -o NAME=N, min..max: an int */
	BE_OPT_STR,  /* -o NAME=TEXT, not empty: a const char * */
};

struct be_option {
	const char *name;
	enum be_opt_type type;
	size_t offset;	     /* of the value in the backend's option struct */
	long min, max;	     /* BE_OPT_INT */
	const char *metavar; /* "N", "URL"; NULL for a flag */
	const char *help;    /* one line for --help */
	bool secret;	     /* a password: never written to a result */
	/* also --LOPT[=VALUE] on the run's command line (dbench 5's
	 * spelling: "smb-share", "server"), or NULL.  Several backends may
	 * share one; it sets the option of the backend the run uses */
	const char *lopt;
};

/* Why a backend cannot honour a request, and what does the same: added to
 * the refusal ("-s: backend 'smb' cannot open files with O_SYNC: ..."). */
struct be_refusal {
	unsigned int bit; /* a BE_CAN_* bit; 0 ends the list */
	const char *why;
};

struct be_client;

/*
 * An op handler.  @h: for an op with a handle, the open handle; for
 * NTCreateX the slot to fill on success, which may still hold the handle
 * open there (do not release it: the engine releases the one replaced, or
 * the new one if the loadfile expected the open to fail).  A handler that
 * opened something and then fails releases it itself.  For ops without a
 * handle, a scratch handle to ignore (never NULL).
 */
typedef int (*be_op_fn)(struct be_client *c, const struct lf_op *op,
			be_handle *h);

/* The run, as the backend sees it (read-only in the children). */
struct be_run {
	const char *dir;     /* -D as given */
	int nclients;	     /* clients first_id .. first_id + nclients-1 */
	unsigned int req;    /* BE_CAN_* bits the run asks for */
	const void *opts;    /* the backend's options, parsed and checked */
	void *priv;	     /* the backend's run-wide state, set by init */
	/* a run across hosts (dbench-ng-mpi): the first client id of this
	 * host (0 otherwise), and DIR/clients is shared with the other
	 * hosts: fini leaves DIR/clients itself, which the run removes
	 * with orphaned() once every host's fini is done */
	int first_id;
	bool shared;
	/* set by init for a backend that does not work beneath -D: what
	 * messages name the paths from, in place of DIR ("//SERVER/SHARE":
	 * "//SERVER/SHARE/clients/client0/x"); NULL: DIR */
	const char *where;
	/* set by init for a backend with a table of ops per variant of the
	 * run (fileio: one per --paths mode, sharing the handle ops): the
	 * table the clients call, with a handler wherever backend.op has
	 * one (what backend_check judged) and none elsewhere; NULL:
	 * backend.op */
	const be_op_fn *op;
};

/* The engine's side of the messages: filled by the engine. */
struct be_host {
	void (*vfail)(struct be_client *c, const struct lf_op *op,
		      const char *fmt, va_list ap);
	void (*vwarn)(struct be_client *c, const struct lf_op *op,
		      const char *fmt, va_list ap);
	const char *(*path)(const struct be_client *c, uint32_t pi, char *buf,
			    size_t len);
};

/* One client, as the backend sees it. */
struct be_client {
	int id;			    /* 0-based, as dbench's client ids */
	const struct program *prog; /* the client's compiled loadfile */
	const struct be_run *run;
	void *priv;		    /* the backend's per-client state */
	uint64_t rng;		    /* state of be_random() */
	const struct be_host *host;
	uint64_t last_off; /* of the last READ3/WRITE3: be_offset() */
};

struct backend {
	unsigned int api;	  /* BACKEND_API_VERSION */
	const char *name;	  /* -B NAME, and the name in messages */
	const char *summary;	  /* a few words for --help */
	unsigned int version;	  /* the backend's own */
	unsigned int caps;	  /* BE_CAN_*, BE_USES_DIR, BE_NO_IO */
	const struct be_option *options; /* {NULL}-terminated, or NULL */
	/* for requests it does not declare: why, and what does the same
	 * (a server-side setting); {0}-terminated, or NULL */
	const struct be_refusal *refusals;
	size_t opts_size;	  /* of the option struct (zeroed, then set) */

	/* parent, after the options, before anything else: checks across
	 * options; 0, or -1 with a message in @err.  May be NULL */
	int (*check)(const void *opts, char *err, size_t errlen);
	/* parent, before the fork of every run: 0, BE_EINPUT or BE_EENV
	 * with a message in @err */
	int (*init)(struct be_run *run, char *err, size_t errlen);
	/* child, per client, before the start barrier: 0, or -1 after
	 * be_fail() */
	int (*setup)(struct be_client *c);
	/* close a handle the engine drops (replaced, unwanted, clean-up);
	 * NULL if handles hold nothing */
	void (*release)(struct be_client *c, be_handle h);
	/* child, per client, after the last op and after the engine released
	 * the open handles; not called with --skip-cleanup */
	void (*cleanup)(struct be_client *c);
	/* parent, once every child exited: @dirty[i] is true for a client
	 * that could not clean up after itself; NULL: keep everything
	 * (--skip-cleanup) */
	void (*fini)(struct be_run *run, const bool *dirty);
	/* child, after its cleanup, when the parent died (fini never runs):
	 * undo what init made once nothing of the clients is left (each
	 * client calls it; only the last can succeed); NULL: nothing */
	void (*orphaned)(struct be_run *run);
	/* NULL: cannot run it (refused before the fork, with FILE:LINE,
	 * unless not_run[] gives why); op[OP_SLEEP] is never called: Sleep
	 * is the engine's.  init may give the clients another table with
	 * the same ops (be_run.op) */
	be_op_fn op[OP_NR];
	/* ops the backend cannot execute, each with why, one line
	 * ("libsmbclient has no byte-range lock call"): for an op whose
	 * op[] is NULL, a loadfile with it is accepted, the engine never
	 * calls the backend for it and counts its lines as not run (the
	 * report, the JSON).  Not allowed (backend_check refuses the
	 * backend): NTCreateX and Close (the engine keeps their handles),
	 * ReadX and WriteX (their bytes would count), Sleep */
	const char *not_run[OP_NR];
};

/* The helpers a backend may call (host.c; cold paths only) */

/* be_fail - record the fatal error of @c (the first one wins) and stop
 * the run; @op may be NULL.  The handler then returns BE_REPORTED. */
void be_fail(struct be_client *c, const struct lf_op *op, const char *fmt,
	     ...) __attribute__((format(printf, 3, 4)));

/* be_warn - count a non-fatal unexpected result of @op; the first one of
 * each client is kept as text.  The handler then returns BE_REPORTED. */
void be_warn(struct be_client *c, const struct lf_op *op, const char *fmt,
	     ...) __attribute__((format(printf, 3, 4)));

/* be_short_read - count a ReadX that read @n bytes, not the loadfile's
 * (a warning: the file may have been shorter); be_short_write - fail on a
 * WriteX that wrote @n, with @why (an errno, or 0) telling the cause.
 * Both return BE_REPORTED, the handler's return. */
int be_short_read(struct be_client *c, const struct lf_op *op, int64_t n);
int be_short_write(struct be_client *c, const struct lf_op *op, int64_t n,
		   int why);

/* be_path - "DIR/clients/client0/dir/file" of path index @pi, for
 * messages */
static inline const char *be_path(const struct be_client *c, uint32_t pi,
				  char *buf, size_t len)
{
	return c->host->path(c, pi, buf, len);
}

/* be_fnum - the loadfile's number of handle slot @h, for messages */
static inline int32_t be_fnum(const struct be_client *c, uint32_t h)
{
	return h == LF_NONE ? -1 : c->prog->fnums[h];
}

/* be_random - a pseudo-random 64-bit value (xorshift) */
static inline uint64_t be_random(struct be_client *c)
{
	c->rng ^= c->rng << 13;
	c->rng ^= c->rng >> 7;
	c->rng ^= c->rng << 17;
	return c->rng;
}

/* be_offset - the offset of READ3 or WRITE3 @op: its number, or its
 * expression evaluated with the client's next random value (one drawn
 * per '*' expression evaluated) or its previous offset ("+N") */
static inline uint64_t be_offset(struct be_client *c, const struct lf_op *op)
{
	uint64_t v = (uint64_t)op->arg[0];

	if (op->flags & LF_F_XOFF) {
		const struct lf_expr *x = &c->prog->exprs[op->arg[0]];

		v = lf_expr_eval(x, x->kind == LF_X_RANDOM ? be_random(c) : 0,
				 c->last_off);
	}
	c->last_off = v;
	return v;
}

/* be_ops - the op table the clients of @run call: the one init chose
 * (run->op), else @b's */
static inline const be_op_fn *be_ops(const struct backend *b,
				     const struct be_run *run)
{
	return run->op ? run->op : b->op;
}

/* be_may_skip - may a backend declare op @t not run (backend.not_run)? */
static inline bool be_may_skip(enum op_type t)
{
	return t != OP_NTCREATEX && t != OP_CLOSE && t != OP_READX &&
	       t != OP_WRITEX && t != OP_SLEEP;
}

/* be_not_run - why @b does not execute op @t (its not_run[t], for an op
 * it has no handler for), or NULL: it runs it */
static inline const char *be_not_run(const struct backend *b, enum op_type t)
{
	return !b->op[t] && be_may_skip(t) ? b->not_run[t] : NULL;
}

/* The backends (one descriptor each) */
extern const struct backend backend_fileio;
extern const struct backend backend_null;
extern const struct backend backend_sockio;
extern const struct backend backend_nfs; /* HAVE_BACKEND_nfs */
extern const struct backend backend_smb; /* HAVE_BACKEND_smb */

#endif
