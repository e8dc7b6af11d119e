/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ops3.c - dbench 5's NFSv3 loadfile lines (GETATTR3 ... SETATTR3) as
 * libnfs calls, one per line (the table is in docs/nfs.md).  READ3,
 * WRITE3 and COMMIT3 name a path, not a handle: each path keeps the file
 * handles libnfs opened for it (one for UNSTABLE writes, one opened
 * O_SYNC for FILE_SYNC ones), opened on the path's first use, so a line
 * is one READ, WRITE or COMMIT; they are closed when the path is removed
 * or renamed over, by Deltree and at the clean-up (libnfs then COMMITs a
 * file written through it).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "nfs.h"

/* Close the handles of path @pi (a file removed, renamed over): 0, or
 * the error of a lost server; any other failure (the file is gone: a
 * stale handle) is no error of the line */
static int fh_drop(struct be_client *c, const struct lf_op *op, uint32_t pi)
{
	struct nfsb_client *nc = nfsb_cl(c);

	for (int s = 0; s < 2; s++) {
		struct nfsfh *fh = nc->ofh[2 * pi + s];
		int rc;

		if (!fh)
			continue;
		nc->ofh[2 * pi + s] = NULL;
		rc = nfs_close(nc->nfs, fh);
		if (rc && nfsb_rpc_failed(nc->nfs, rc))
			return nfsb_lost(c, op, rc);
	}
	return 0;
}

int nfsb_fh_drop_all(struct be_client *c, const struct lf_op *op)
{
	struct nfsb_client *nc = nfsb_cl(c);
	int rc = 0;

	for (uint32_t i = 0; nc->ofh && i < c->prog->npaths && !rc; i++)
		rc = fh_drop(c, op, i);
	return rc;
}

/* The handle of path @pi for READ3, WRITE3 (@sync: FILE_SYNC writes)
 * and COMMIT3, opened if it is not yet: 0 or an error */
static int fh_get(struct be_client *c, const struct lf_op *op, uint32_t pi,
		  bool sync, struct nfsfh **out)
{
	struct nfsb_client *nc = nfsb_cl(c);
	struct nfsfh **slot = &nc->ofh[2 * pi + sync];
	int rc;

	if (*slot) {
		*out = *slot;
		return 0;
	}
	rc = nfsb_chk(c, op,
		      nfs_open2(nc->nfs, nc->fpath[pi],
				O_RDWR | O_NOFOLLOW | (sync ? O_SYNC : 0), 0,
				slot));
	if (rc) {
		*slot = NULL;
		return rc;
	}
	*out = *slot;
	return 0;
}

/* A READ, WRITE or COMMIT through the handle of path @pi: once more
 * with a new handle if the old one went stale (the file was replaced
 * by a path this client did not name: another client's) */
enum io_kind { IO_READ, IO_WRITE, IO_COMMIT };

static int path_io(struct be_client *c, const struct lf_op *op, uint32_t pi,
		   bool sync, enum io_kind k, uint64_t off, uint64_t size)
{
	struct nfsb_client *nc = nfsb_cl(c);
	struct nfsfh *fh;
	int n = 0;

	for (int t = 0; t < 2; t++) {
		n = fh_get(c, op, pi, sync, &fh);
		if (n)
			return n;
		if (k == IO_READ)
			n = nfs_pread(nc->nfs, fh, off, size, nfsb_g.io.rbuf);
		else if (k == IO_WRITE)
			n = nfs_pwrite(nc->nfs, fh, off, size, nfsb_g.io.wbuf);
		else
			n = nfs_fsync(nc->nfs, fh);
		if (n != -ESTALE)
			break;
		n = fh_drop(c, op, pi);
		if (n)
			return n;
		n = -ESTALE;
	}
	/* not nfsb_chk() for a READ or WRITE: 1 is a byte moved */
	if (n < 0 && nfsb_rpc_failed(nc->nfs, n))
		return nfsb_lost(c, op, n);
	return n;
}

NFSB_OP(getattr3)
{
	struct nfsb_client *nc = nfsb_cl(c);
	struct nfs_stat_64 st;

	(void)h;
	return nfsb_chk(c, op,
			nfs_lstat64(nc->nfs, nc->fpath[op->path[0]], &st));
}

/* CREATE3: an UNCHECKED CREATE (an existing file is kept); the handle
 * is kept for the path's READ3 and WRITE3 (one already kept stays: the
 * new one, unused, closes without a call) */
NFSB_OP(create3)
{
	struct nfsb_client *nc = nfsb_cl(c);
	uint32_t pi = op->path[0];
	struct nfsfh *fh = NULL;
	int rc;

	(void)h;
	rc = nfsb_chk(
		c, op,
		nfs_open2(nc->nfs, nc->fpath[pi], O_CREAT | O_RDWR, 0644, &fh));
	if (rc)
		return rc;
	if (!nc->ofh[2 * pi])
		nc->ofh[2 * pi] = fh;
	else
		nfs_close(nc->nfs, fh);
	return 0;
}

/* WRITE3: stable 0 UNSTABLE, 1 and 2 FILE_SYNC (libnfs writes FILE_SYNC
 * through a file opened O_SYNC, and has no DATA_SYNC); -s makes every
 * write FILE_SYNC and -F adds a COMMIT, as for WriteX */
NFSB_OP(write3)
{
	uint64_t off = be_offset(c, op), size = (uint64_t)op->arg[1];
	bool sync = op->arg[2] || NFSB_REQ(c, BE_CAN_SYNC_OPEN);
	int n;

	(void)h;
	n = path_io(c, op, op->path[0], sync, IO_WRITE, off, size);
	if (n < 0 || n == BE_REPORTED)
		return n;
	if ((uint64_t)n != size)
		return be_short_write(c, op, n, 0);
	if (NFSB_REQ(c, BE_CAN_FSYNC)) {
		n = path_io(c, op, op->path[0], sync, IO_COMMIT, 0, 0);
		if (n && n != BE_REPORTED) {
			be_warn(c, op, "WRITE3: COMMIT failed (%s)",
				strerror(-n));
			return BE_REPORTED;
		}
		return n;
	}
	return 0;
}

/* READ3: a short read (the end of the file) is no error, as dbench 5's */
NFSB_OP(read3)
{
	uint64_t off = be_offset(c, op), size = (uint64_t)op->arg[1];
	int n;

	(void)h;
	n = path_io(c, op, op->path[0], false, IO_READ, off, size);
	return n < 0 || n == BE_REPORTED ? n : 0;
}

NFSB_OP(commit3)
{
	(void)h;
	return path_io(c, op, op->path[0], false, IO_COMMIT, 0, 0);
}

NFSB_OP(remove3)
{
	struct nfsb_client *nc = nfsb_cl(c);
	int rc = fh_drop(c, op, op->path[0]);

	(void)h;
	return rc ? rc
		  : nfsb_chk(c, op,
			     nfs_unlink(nc->nfs, nc->fpath[op->path[0]]));
}

/* RENAME3: the handles of the file renamed go with it to its new path;
 * those of a file it replaces are closed first */
NFSB_OP(rename3)
{
	struct nfsb_client *nc = nfsb_cl(c);
	uint32_t a = op->path[0], b = op->path[1];
	int rc;

	(void)h;
	if (a == b)
		return nfsb_chk(
			c, op, nfs_rename(nc->nfs, nc->fpath[a], nc->fpath[b]));
	rc = fh_drop(c, op, b);
	if (rc)
		return rc;
	rc = nfsb_chk(c, op, nfs_rename(nc->nfs, nc->fpath[a], nc->fpath[b]));
	if (rc)
		return rc;
	for (int s = 0; s < 2; s++) {
		nc->ofh[2 * b + s] = nc->ofh[2 * a + s];
		nc->ofh[2 * a + s] = NULL;
	}
	return 0;
}

/* LINK3 NEW EXISTING (dbench 5's order) */
NFSB_OP(link3)
{
	struct nfsb_client *nc = nfsb_cl(c);

	(void)h;
	return nfsb_chk(c, op,
			nfs_link(nc->nfs, nc->fpath[op->path[1]],
				 nc->fpath[op->path[0]]));
}

/* SYMLINK3 LINK TARGET: the link's text is the target's path relative
 * to the link's directory ("../../clients/client0/f"), so that it names
 * the target wherever the export is mounted */
NFSB_OP(symlink3)
{
	struct nfsb_client *nc = nfsb_cl(c);
	const char *dir = nc->fparent[op->path[0]];
	const char *to = nc->fpath[op->path[1]];
	char text[NFSB_PATH_BUF];
	size_t k = 0, tl = strlen(to + 1);

	(void)h;
	for (const char *s = dir; *s; s++) {
		if (*s == '/' && s[1] && k + 3 < sizeof(text)) {
			memcpy(text + k, "../", 3);
			k += 3;
		}
	}
	if (k + tl + 1 > sizeof(text))
		return -ENAMETOOLONG;
	memcpy(text + k, to + 1, tl + 1);
	return nfsb_chk(c, op,
			nfs_symlink(nc->nfs, text, nc->fpath[op->path[0]]));
}

NFSB_OP(readlink3)
{
	struct nfsb_client *nc = nfsb_cl(c);
	char buf[NFSB_PATH_BUF];

	(void)h;
	return nfsb_chk(c, op,
			nfs_readlink(nc->nfs, nc->fpath[op->path[0]], buf,
				     sizeof(buf)));
}

/* READDIRPLUS3: the whole directory, as dbench 5's (libnfs reads it
 * whole in nfs_opendir, with each entry's attributes) */
NFSB_OP(readdirplus3)
{
	struct nfsb_client *nc = nfsb_cl(c);
	struct nfsdir *d;
	int rc;

	(void)h;
	rc = nfsb_chk(c, op, nfs_opendir(nc->nfs, nc->fpath[op->path[0]], &d));
	if (rc)
		return rc;
	while (nfs_readdir(nc->nfs, d))
		;
	nfs_closedir(nc->nfs, d);
	return 0;
}

/* ACCESS3: every access bit asked; the line's numbers are not used */
NFSB_OP(access3)
{
	struct nfsb_client *nc = nfsb_cl(c);
	int rc;

	(void)h;
	rc = nfsb_chk(c, op, nfs_access2(nc->nfs, nc->fpath[op->path[0]]));
	return rc < 0 || rc == BE_REPORTED ? rc : 0;
}

/* FSSTAT3, FSINFO3 (no path: the export's root) and PATHCONF3 (its
 * path): an FSSTAT, libnfs's only call of the kind */
NFSB_OP(fsstat3)
{
	struct nfsb_client *nc = nfsb_cl(c);
	struct nfs_statvfs_64 sv;
	const char *p = op->path[0] == LF_NONE ? "/" : nc->fpath[op->path[0]];

	(void)h;
	return nfsb_chk(c, op, nfs_statvfs64(nc->nfs, p, &sv));
}

/* SETATTR3: the times set to the server's time, as dbench 5's */
NFSB_OP(setattr3)
{
	struct nfsb_client *nc = nfsb_cl(c);

	(void)h;
	return nfsb_chk(c, op,
			nfs_lutimes(nc->nfs, nc->fpath[op->path[0]], NULL));
}
