/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * nfs.h - what the files of the nfs backend share (private to
 * src/backends/nfs/): its options, the run-wide state set by the parent
 * before the fork, a client's state (its own libnfs context: one mount,
 * one TCP connection to the server), the handles, and the check of every
 * libnfs result for a lost server.
 *
 * libnfs 4.0's header needs <sys/time.h> before it (struct timeval).
 */
#ifndef DBNG_NFS_H
#define DBNG_NFS_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>

#include <nfsc/libnfs.h>

#include "backend.h"
#include "iobuf.h"
#include "loadfile.h"

#define NFSB_MAX_DEPTH 64 /* of a Deltree, the clean-up, the start check */

/* the run asks for BE_CAN_* @bit (-s, -F) */
#define NFSB_REQ(c, bit) ((c)->run->req & (bit))

/* -o url= (--nfs=), -o server= (--server=), -o export= (--export=),
 * -o timeout= */
struct nfsb_opts {
	const char *url;
	const char *server;
	const char *export;
	int timeout; /* seconds an RPC may take; 0: wait for ever */
};

/* set by init in the parent before the fork, then read-only */
struct nfsb_global {
	char url[2048];	  /* what each client's context parses */
	char shown[1100]; /* nfs://SERVER/EXPORT for messages (no query) */
	char server[256];
	int timeout_ms;
	/* per process, shared by its clients */
	struct iobuf io; /* zeroed write data; read target */
};
extern struct nfsb_global nfsb_g; /* nfs.c */

/* What NTCreateX opened: a file (fh) or a directory (fh NULL, its path
 * is used).  Taken from the client's pool, never allocated in an op. */
struct nfsb_handle {
	struct nfsfh *fh;
	uint32_t pi; /* path index: Sfileinfo's utimes, a directory's stat */
	struct nfsb_handle *next; /* in the free list */
};

struct nfsb_client {
	struct nfs_context *nfs;
	/* no libnfs call on nfs any more: its requests in flight point into
	 * stack frames that are gone.  Either the server went away (@lost,
	 * the client failed saying so), or a signal (the run is stopping)
	 * interrupted the wait for an answer (@cut) */
	bool lost, cut;
	/* "/clients/client0/dir/file" of each path index, its directory's,
	 * and of each directory of the program */
	char **fpath;
	const char **fparent;
	char **fdir;
	struct nfsb_handle *pool, *free;
	uint32_t npool;
	/* dbench 5's NFSv3 lines (ops3.c): per path index i, the handles
	 * of READ3, WRITE3 and COMMIT3, [2i] plain, [2i + 1] O_SYNC; and
	 * does the program have such lines (Deltree then removes the
	 * directories too, as dbench 5's) */
	struct nfsfh **ofh;
	bool nfs3;
};

static inline struct nfsb_client *nfsb_cl(struct be_client *c)
{
	return c->priv;
}

static inline const char *nfsb_path(struct be_client *c, uint32_t pi)
{
	return nfsb_cl(c)->fpath[pi];
}

/* nfs.c: the context of a mount, and what failed */
struct nfs_context *nfsb_connect(char *err, size_t errlen, int *code);
void nfsb_disconnect(struct nfs_context *nfs);
bool nfsb_rpc_failed(struct nfs_context *nfs, int rc);
bool nfsb_rpc_cut(struct nfs_context *nfs);
int nfsb_remove_tree(struct nfs_context *nfs, int id);

/* ops.c */
int nfsb_lost(struct be_client *c, const struct lf_op *op, int rc);

/* A libnfs result @rc of client @c's op @op: as it is, unless the server
 * went away (a reset connection, an RPC that timed out): then the client
 * fails with one message (nfsb_lost) and never calls libnfs again on
 * that context (nor after a signal cut the wait short: no message, the
 * run is stopping). */
static inline int nfsb_chk(struct be_client *c, const struct lf_op *op, int rc)
{
	if (__builtin_expect(rc >= 0, 1) ||
	    !nfsb_rpc_failed(nfsb_cl(c)->nfs, rc))
		return rc;
	return nfsb_lost(c, op, rc);
}

/* tree.c: remove what is below @path (in a buffer of NFSB_PATH_BUF, @plen
 * long) and with @rmdirs the directories too, never following a symlink:
 * 0, or the error of a lost server (nfsb_rpc_failed); the start-up check
 * of the tree below @path: 0, or BE_EINPUT/BE_EENV and why in @err */
int nfsb_tree_clear(struct nfs_context *nfs, char *path, size_t plen, int depth,
		    bool rmdirs);
int nfsb_tree_check(struct nfs_context *nfs, char *path, size_t plen, int depth,
		    char *err, size_t errlen);
#define NFSB_PATH_BUF 4096

/* client.c */
int nfsb_setup(struct be_client *c);
void nfsb_release(struct be_client *c, be_handle h);
void nfsb_cleanup(struct be_client *c);

/* nfs.c: the parent's side */
int nfsb_check(const void *opts, char *err, size_t errlen);
int nfsb_init(struct be_run *run, char *err, size_t errlen);
void nfsb_fini(struct be_run *run, const bool *dirty);
void nfsb_orphaned(struct be_run *run);

/* ops.c: the ops */
#define NFSB_OP(name)                                                \
	int nfsb_##name(struct be_client *c, const struct lf_op *op, \
			be_handle *h)
NFSB_OP(ntcreatex);
NFSB_OP(close);
NFSB_OP(rename);
NFSB_OP(unlink);
NFSB_OP(deltree);
NFSB_OP(rmdir);
NFSB_OP(mkdir);
NFSB_OP(qpathinfo);
NFSB_OP(qfileinfo);
NFSB_OP(qfsinfo);
NFSB_OP(sfileinfo);
NFSB_OP(find);
NFSB_OP(writex);
NFSB_OP(readx);
NFSB_OP(flush);

/* ops3.c: dbench 5's NFSv3 lines; the handles they keep closed */
int nfsb_fh_drop_all(struct be_client *c, const struct lf_op *op);
NFSB_OP(getattr3);
NFSB_OP(create3);
NFSB_OP(write3);
NFSB_OP(read3);
NFSB_OP(commit3);
NFSB_OP(remove3);
NFSB_OP(rename3);
NFSB_OP(link3);
NFSB_OP(symlink3);
NFSB_OP(readlink3);
NFSB_OP(readdirplus3);
NFSB_OP(access3);
NFSB_OP(fsstat3);
NFSB_OP(setattr3);

#endif
