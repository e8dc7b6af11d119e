/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ops.c - the ops of the nfs backend, each the nearest NFSv3 calls
 * through libnfs's synchronous API (the table is in docs/nfs.md).  libnfs
 * looks a whole path up from the export's root, one LOOKUP per component,
 * on every call (as the kernel walks dbench's whole paths); opens refuse
 * a symlink anywhere on the path (O_NOFOLLOW).  Every result goes through
 * nfsb_chk(): a server that went away ends the client with one message.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "nfs.h"

int nfsb_lost(struct be_client *c, const struct lf_op *op, int rc)
{
	struct nfsb_client *nc = nfsb_cl(c);

	if (nfsb_rpc_cut(nc->nfs)) {
		/* SIGTERM or SIGHUP: the engine stops the client after this
		 * op (the result of which is left alone); the clean-up makes
		 * a new connection */
		nc->cut = true;
		return BE_REPORTED;
	}
	nc->lost = true;
	if (rc == -EINTR && nfsb_g.timeout_ms)
		be_fail(c, op,
			"the NFS server %s did not answer within %d s "
			"(-o timeout)",
			nfsb_g.server, nfsb_g.timeout_ms / 1000);
	else
		be_fail(c, op, "lost the connection to the NFS server %s",
			nfsb_g.server);
	return BE_REPORTED;
}

/* Bind a handle of the client's pool to @fh (NULL for a directory) and
 * path @pi, as @h; 0, or -EMFILE if the pool is empty (it never is: see
 * pool() in client.c) */
static int handle_bind(struct nfsb_client *nc, be_handle *h, struct nfsfh *fh,
		       uint32_t pi)
{
	struct nfsb_handle *hh = nc->free;

	if (!hh)
		return -EMFILE;
	nc->free = hh->next;
	hh->fh = fh;
	hh->pi = pi;
	h->ptr = hh;
	return 0;
}

/* NTCreateX of a directory: it is one (a stat), and the handle is its
 * path; 0 or -errno */
static int open_dir(struct be_client *c, const struct lf_op *op, be_handle *h,
		    int why)
{
	struct nfsb_client *nc = nfsb_cl(c);
	uint32_t pi = op->path[0];
	struct nfs_stat_64 st;
	int rc;

	rc = nfsb_chk(c, op, nfs_lstat64(nc->nfs, nc->fpath[pi], &st));
	if (rc)
		return rc;
	if (!S_ISDIR(st.nfs_mode))
		return why ? why : -ENOTDIR;
	return handle_bind(nc, h, NULL, pi);
}

/*
 * fileio's dispositions (docs/compat.md): 2 (create) opens with
 * O_CREAT, 4 and 5 (overwrite) with O_CREAT and O_TRUNC, the others open
 * an existing file; a directory (create option 1) is made first.  With -s
 * the file's writes are FILE_SYNC.  An O_CREAT open is an UNCHECKED
 * CREATE (the file may exist) and a LOOKUP; a plain open a LOOKUP and an
 * ACCESS; O_TRUNC adds a SETATTR.  A directory met where a file was asked
 * for is opened as one, as fileio does on EISDIR.
 */
NFSB_OP(ntcreatex)
{
	struct nfsb_client *nc = nfsb_cl(c);
	uint32_t pi = op->path[0];
	int64_t opts = op->arg[0], disp = op->arg[1];
	struct nfsfh *fh = NULL;
	int flags = O_RDWR, rc;

	if (opts & 1) {
		rc = nfsb_chk(c, op, nfs_mkdir2(nc->nfs, nc->fpath[pi], 0700));
		if (rc == BE_REPORTED)
			return rc;
		return open_dir(c, op, h, 0);
	}
	if (NFSB_REQ(c, BE_CAN_SYNC_OPEN))
		flags |= O_SYNC;
	if (disp == 2 || disp == 4 || disp == 5)
		flags |= O_CREAT;
	else
		flags |= O_NOFOLLOW; /* libnfs: no symlink on the path */
	if (disp == 4 || disp == 5)
		flags |= O_TRUNC;
	rc = nfsb_chk(c, op,
		      nfs_open2(nc->nfs, nc->fpath[pi], flags, 0600, &fh));
	if (rc == -EEXIST || rc == -EISDIR)
		return open_dir(c, op, h, rc);
	if (rc)
		return rc; /* the engine remembers why, for the handle */
	rc = handle_bind(nc, h, fh, pi);
	if (rc)
		nfs_close(nc->nfs, fh);
	return rc;
}

/* Close: nothing for a directory; for a file written through this handle
 * libnfs sends a COMMIT first (as the kernel's client flushes on close) */
NFSB_OP(close)
{
	struct nfsb_client *nc = nfsb_cl(c);
	struct nfsb_handle *hh = h->ptr;
	int rc = 0;

	if (hh->fh)
		rc = nfsb_chk(c, op, nfs_close(nc->nfs, hh->fh));
	hh->fh = NULL;
	hh->next = nc->free;
	nc->free = hh;
	return rc;
}

NFSB_OP(rename)
{
	struct nfsb_client *nc = nfsb_cl(c);

	(void)h;
	return nfsb_chk(c, op,
			nfs_rename(nc->nfs, nc->fpath[op->path[0]],
				   nc->fpath[op->path[1]]));
}

NFSB_OP(unlink)
{
	struct nfsb_client *nc = nfsb_cl(c);

	(void)h;
	return nfsb_chk(c, op, nfs_unlink(nc->nfs, nc->fpath[op->path[0]]));
}

NFSB_OP(rmdir)
{
	struct nfsb_client *nc = nfsb_cl(c);

	(void)h;
	return nfsb_chk(c, op, nfs_rmdir(nc->nfs, nc->fpath[op->path[0]]));
}

NFSB_OP(mkdir)
{
	struct nfsb_client *nc = nfsb_cl(c);

	(void)h;
	return nfsb_chk(c, op,
			nfs_mkdir2(nc->nfs, nc->fpath[op->path[0]], 0755));
}

/* Deltree: as fileio's, every file below the directory is removed and
 * the directories are emptied and kept; a symlink is removed, never
 * followed.  In a loadfile of dbench 5's NFSv3 lines, as dbench 5's:
 * the directories too, and the directory named (the handles its READ3
 * and WRITE3 lines keep are closed first).  Always "succeeds", as
 * dbench's. */
NFSB_OP(deltree)
{
	struct nfsb_client *nc = nfsb_cl(c);
	const char *p = nc->fpath[op->path[0]];
	char path[NFSB_PATH_BUF];
	size_t plen = strlen(p);
	int rc;

	(void)h;
	if (plen >= sizeof(path))
		return 0;
	if (nc->nfs3 && (rc = nfsb_fh_drop_all(c, op)))
		return rc;
	memcpy(path, p, plen + 1);
	rc = nfsb_tree_clear(nc->nfs, path, plen, 0, nc->nfs3);
	if (!rc && nc->nfs3 && strcmp(p, "/clients")) {
		rc = nfs_rmdir(nc->nfs, p);
		if (rc && !nfsb_rpc_failed(nc->nfs, rc))
			rc = 0;
	}
	return rc ? nfsb_chk(c, op, rc) : 0;
}

NFSB_OP(qpathinfo)
{
	struct nfsb_client *nc = nfsb_cl(c);
	struct nfs_stat_64 st;

	(void)h;
	return nfsb_chk(c, op,
			nfs_lstat64(nc->nfs, nc->fpath[op->path[0]], &st));
}

static int fstat_handle(struct be_client *c, const struct lf_op *op,
			struct nfsb_handle *hh, struct nfs_stat_64 *st)
{
	struct nfsb_client *nc = nfsb_cl(c);

	if (hh->fh)
		return nfsb_chk(c, op, nfs_fstat64(nc->nfs, hh->fh, st));
	return nfsb_chk(c, op, nfs_lstat64(nc->nfs, nc->fpath[hh->pi], st));
}

NFSB_OP(qfileinfo)
{
	struct nfs_stat_64 st;

	return fstat_handle(c, op, h->ptr, &st);
}

NFSB_OP(qfsinfo)
{
	struct nfsb_client *nc = nfsb_cl(c);
	struct nfs_statvfs_64 sv;

	(void)h;
	return nfsb_chk(c, op, nfs_statvfs64(nc->nfs, "/", &sv));
}

/* Sfileinfo: as fileio's (dbench's utime()), the handle's times moved
 * back 10 and 12 whole seconds: a GETATTR, then a SETATTR of the path
 * (libnfs 4.0 has no futimes) */
NFSB_OP(sfileinfo)
{
	struct nfsb_client *nc = nfsb_cl(c);
	struct nfsb_handle *hh = h->ptr;
	struct timeval tv[2] = {{0}};
	struct nfs_stat_64 st;
	int rc;

	rc = fstat_handle(c, op, hh, &st);
	if (rc)
		return rc;
	tv[0].tv_sec = (time_t)st.nfs_atime - 10;
	tv[1].tv_sec = (time_t)st.nfs_mtime - 12;
	return nfsb_chk(c, op, nfs_lutimes(nc->nfs, nc->fpath[hh->pi], tv));
}

/* Find (FIND_FIRST): with a wildcard, READDIRPLUS of the directory, up to
 * maxcnt entries taken; without one, a lookup of the name.  The result
 * is not checked, as dbench's. */
NFSB_OP(find)
{
	struct nfsb_client *nc = nfsb_cl(c);
	struct nfs_stat_64 st;
	struct nfsdir *d;
	int rc;

	(void)h;
	if (!(op->flags & LF_F_WILDCARD)) {
		rc = nfs_lstat64(nc->nfs, nc->fpath[op->path[0]], &st);
		return nfsb_chk(c, op, rc) == BE_REPORTED ? BE_REPORTED : 0;
	}
	rc = nfs_opendir(nc->nfs, nc->fparent[op->path[0]], &d);
	if (rc)
		return nfsb_chk(c, op, rc) == BE_REPORTED ? BE_REPORTED : 0;
	for (int64_t n = 0; n < op->arg[1] && nfs_readdir(nc->nfs, d); n++)
		;
	nfs_closedir(nc->nfs, d);
	return 0;
}

NFSB_OP(writex)
{
	struct nfsb_client *nc = nfsb_cl(c);
	struct nfsb_handle *hh = h->ptr;
	int64_t off = op->arg[0], size = op->arg[1], ret = op->arg[2];
	int n;

	if (!hh->fh)
		return -EISDIR;
	n = nfs_pwrite(nc->nfs, hh->fh, (uint64_t)off, (uint64_t)size,
		       nfsb_g.io.wbuf);
	if (n < 0) /* not nfsb_chk(): 1 is a byte written */
		return nfsb_rpc_failed(nc->nfs, n) ? nfsb_lost(c, op, n) : n;
	if (n != ret)
		return be_short_write(c, op, n, 0);
	/* -F: fileio's fsync after each write, here a COMMIT */
	if (NFSB_REQ(c, BE_CAN_FSYNC)) {
		n = nfsb_chk(c, op, nfs_fsync(nc->nfs, hh->fh));
		if (n && n != BE_REPORTED) {
			be_warn(c, op, "WriteX handle %d: COMMIT failed (%s)",
				be_fnum(c, op->handle), strerror(-n));
			return BE_REPORTED;
		}
		return n;
	}
	return 0;
}

NFSB_OP(readx)
{
	struct nfsb_client *nc = nfsb_cl(c);
	struct nfsb_handle *hh = h->ptr;
	int64_t off = op->arg[0], size = op->arg[1], ret = op->arg[2];
	int n;

	if (!hh->fh)
		return -EISDIR;
	n = nfs_pread(nc->nfs, hh->fh, (uint64_t)off, (uint64_t)size,
		      nfsb_g.io.rbuf);
	if (n < 0) /* not nfsb_chk(): 1 is a byte read */
		return nfsb_rpc_failed(nc->nfs, n) ? nfsb_lost(c, op, n) : n;
	if (n != ret)
		return be_short_read(c, op, n);
	return 0;
}

/* Flush: a COMMIT of the file's unstable writes (a directory: nothing) */
NFSB_OP(flush)
{
	struct nfsb_client *nc = nfsb_cl(c);
	struct nfsb_handle *hh = h->ptr;

	if (!hh->fh)
		return 0;
	return nfsb_chk(c, op, nfs_fsync(nc->nfs, hh->fh));
}
