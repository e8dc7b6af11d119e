/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ops.c - the loadfile's ops as the nearest SMB calls libsmbclient has
 * (the table: docs/smb.md).  NTCreateX's disposition becomes the open
 * flags libsmbclient turns back into that disposition; a directory (create
 * option 0x1, or an open that meets one) is opened with opendir.  ReadX
 * and WriteX are a seek (local) and one read or write; the Q*info and
 * Sfileinfo ops a stat, fstat, fstatvfs or utimes; Find a directory
 * listing; -x the DOS attributes through getxattr and setxattr
 * (system.dos_attr.mode), which Samba keeps in an xattr of the file as
 * dbench's -x does.  LockX, UnlockX and Flush have no call: the engine
 * counts them as not run (smb.c).
 *
 * A call that fails because the connection is gone (the server was
 * killed, stopped answering for the timeout) ends the client with one
 * message naming the server, whatever the op's policy: every later op
 * would fail the same way.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/time.h>
#include <time.h>

#include "smb.h"

#define SC(c)	 ((struct smb_client *)(c)->priv)
#define XATTR(c) ((c)->run->req & BE_CAN_XATTR)

/* the DOS attributes of a file, as Samba's getxattr and setxattr name
 * them; 0x20 is ARCHIVE */
#define DOS_MODE    "system.dos_attr.mode"
#define DOS_ARCHIVE "0x20"

/* A call failed with errno: -errno for the engine, or, if the
 * connection is gone, the client's end with one message. */
static int failed(struct be_client *c, const struct lf_op *op)
{
	int e = errno ? errno : EIO;

	if (!smb_conn_lost(e))
		return -e;
	/* the same words for every client whose connection went (a reset,
	 * an abort, a refused reconnection), so that the run says it once */
	if (e == ETIMEDOUT)
		be_fail(c, op,
			"the SMB server %s did not answer in time "
			"(-o timeout)",
			smb_g.server);
	else if (e == ECONNABORTED || e == ECONNRESET || e == ENETRESET ||
		 e == ECONNREFUSED || e == EPIPE || e == ENOTCONN)
		be_fail(c, op,
			"lost the connection to the SMB server %s (it "
			"closed it, or is gone)",
			smb_g.server);
	else
		be_fail(c, op, "lost the connection to the SMB server %s (%s)",
			smb_g.server, strerror(e));
	return BE_REPORTED;
}

/* a libsmbclient call's int result: 0, or failed() */
static inline int done(struct be_client *c, const struct lf_op *op, int rc)
{
	return rc < 0 ? failed(c, op) : 0;
}

static inline const char *url_of(struct be_client *c, uint32_t pi)
{
	return SC(c)->url[pi];
}

static inline struct smb_file *file_of(struct be_client *c, be_handle *h)
{
	return &SC(c)->files[h->fd];
}

/* -x: read the DOS attributes of @url, then store them (Samba writes its
 * xattr of the file), as dbench's -x reads and writes user.DosAttrib. */
static int dos_attr_write(struct be_client *c, const struct lf_op *op,
			  const char *url)
{
	struct smb_client *sc = SC(c);
	char val[64] = "";

	errno = 0;
	if (sc->getxattr(sc->ctx, url, DOS_MODE, val, sizeof(val)) < 0 &&
	    smb_conn_lost(errno))
		return failed(c, op);
	errno = 0;
	if (sc->setxattr(sc->ctx, url, DOS_MODE, DOS_ARCHIVE,
			 sizeof(DOS_ARCHIVE) - 1, 0) < 0) {
		char path[1200];

		if (smb_conn_lost(errno))
			return failed(c, op);
		be_fail(c, op, "setting the DOS attributes of %s failed (%s)",
			be_path(c, op->path[0] != LF_NONE ? op->path[0] : 0,
				path, sizeof(path)),
			strerror(errno ? errno : EIO));
		return BE_REPORTED;
	}
	return 0;
}

/* -x on a query: read the DOS attributes (errors but a lost connection
 * are ignored, as dbench ignores getxattr's) */
static int dos_attr_read(struct be_client *c, const struct lf_op *op,
			 const char *url)
{
	struct smb_client *sc = SC(c);
	char val[64] = "";

	errno = 0;
	if (sc->getxattr(sc->ctx, url, DOS_MODE, val, sizeof(val)) < 0 &&
	    smb_conn_lost(errno))
		return failed(c, op);
	return 0;
}

/* NTCreateX's disposition as libsmbclient's open flags, which it turns
 * back into the same disposition (FILE_SUPERSEDE, which it has not, into
 * FILE_OVERWRITE_IF) */
static const int disp_flags[6] = {
	[0] = O_CREAT | O_TRUNC, /* FILE_SUPERSEDE */
	[1] = 0,		 /* FILE_OPEN */
	[2] = O_CREAT | O_EXCL,	 /* FILE_CREATE */
	[3] = O_CREAT,		 /* FILE_OPEN_IF */
	[4] = O_TRUNC,		 /* FILE_OVERWRITE */
	[5] = O_CREAT | O_TRUNC, /* FILE_OVERWRITE_IF */
};

int smb_ntcreatex(struct be_client *c, const struct lf_op *op, be_handle *h)
{
	struct smb_client *sc = SC(c);
	const char *url = url_of(c, op->path[0]);
	int64_t opts = op->arg[0], disp = op->arg[1];
	uint32_t i = sc->free;
	struct smb_file *f;
	int rc;

	if (i == SMB_NO_FILE) {
		be_fail(c, op, "NTCreateX: more files open than handles");
		return BE_REPORTED;
	}
	f = &sc->files[i];
	f->dir = false;
	errno = 0;
	if (opts & 1) { /* FILE_DIRECTORY_FILE: create it if need be */
		if (sc->mkdir(sc->ctx, url, 0777) < 0 && smb_conn_lost(errno))
			return failed(c, op);
		f->f = NULL;
	} else {
		int flags = O_RDWR;

		if (disp >= 0 && disp <= 5)
			flags |= disp_flags[disp];
		f->f = sc->open(sc->ctx, url, flags, 0644);
		if (!f->f && errno != EISDIR)
			return failed(c, op);
	}
	if (!f->f) { /* a directory */
		errno = 0;
		f->f = sc->opendir(sc->ctx, url);
		if (!f->f)
			return failed(c, op);
		f->dir = true;
	}
	sc->free = f->next;
	h->fd = (int)i;
	h->aux = op->path[0];
	if (XATTR(c) && !f->dir && op->expect != LF_EXPECT_FAIL &&
	    (rc = dos_attr_write(c, op, url))) {
		smb_release(c, *h);
		return rc;
	}
	return 0;
}

int smb_close(struct be_client *c, const struct lf_op *op, be_handle *h)
{
	struct smb_client *sc = SC(c);
	struct smb_file *f = file_of(c, h);
	int rc;

	errno = 0;
	rc = f->dir ? sc->closedir(sc->ctx, f->f) : sc->close(sc->ctx, f->f);
	f->f = NULL;
	f->next = sc->free;
	sc->free = (uint32_t)h->fd;
	return done(c, op, rc);
}

int smb_rename(struct be_client *c, const struct lf_op *op, be_handle *h)
{
	struct smb_client *sc = SC(c);

	(void)h;
	errno = 0;
	return done(c, op,
		    sc->rename(sc->ctx, url_of(c, op->path[0]), sc->ctx,
			       url_of(c, op->path[1])));
}

int smb_unlink(struct be_client *c, const struct lf_op *op, be_handle *h)
{
	struct smb_client *sc = SC(c);

	(void)h;
	errno = 0;
	return done(c, op, sc->unlink(sc->ctx, url_of(c, op->path[0])));
}

/* as fileio's (dbench's): files removed, directories emptied and kept */
int smb_deltree(struct be_client *c, const struct lf_op *op, be_handle *h)
{
	struct smb_client *sc = SC(c);

	(void)h;
	smb_tree_remove(sc->ctx, url_of(c, op->path[0]), 0, false);
	return 0;
}

int smb_rmdir(struct be_client *c, const struct lf_op *op, be_handle *h)
{
	struct smb_client *sc = SC(c);

	(void)h;
	errno = 0;
	return done(c, op, sc->rmdir(sc->ctx, url_of(c, op->path[0])));
}

int smb_mkdir(struct be_client *c, const struct lf_op *op, be_handle *h)
{
	struct smb_client *sc = SC(c);

	(void)h;
	errno = 0;
	return done(c, op, sc->mkdir(sc->ctx, url_of(c, op->path[0]), 0777));
}

int smb_qpathinfo(struct be_client *c, const struct lf_op *op, be_handle *h)
{
	struct smb_client *sc = SC(c);
	const char *url = url_of(c, op->path[0]);
	struct stat st;

	(void)h;
	errno = 0;
	if (sc->stat(sc->ctx, url, &st) < 0)
		return failed(c, op);
	return XATTR(c) ? dos_attr_read(c, op, url) : 0;
}

/* a file's fstat; a directory's stat by its path (libsmbclient's fstatdir
 * asks the server nothing) */
int smb_qfileinfo(struct be_client *c, const struct lf_op *op, be_handle *h)
{
	struct smb_client *sc = SC(c);
	struct smb_file *f = file_of(c, h);
	const char *url = url_of(c, h->aux);
	struct stat st;
	int rc;

	errno = 0;
	rc = f->dir ? sc->stat(sc->ctx, url, &st)
		    : sc->fstat(sc->ctx, f->f, &st);
	if (rc < 0)
		return failed(c, op);
	return XATTR(c) ? dos_attr_read(c, op, url) : 0;
}

/* the share's size and free space, asked through the client's clients/
 * held open since setup */
int smb_qfsinfo(struct be_client *c, const struct lf_op *op, be_handle *h)
{
	struct smb_client *sc = SC(c);
	struct statvfs sv;

	(void)h;
	errno = 0;
	return done(c, op, sc->fstatvfs(sc->ctx, sc->fsdir, &sv));
}

/* as dbench's: the access and change times set 10 and 12 s back, by
 * the handle's path (SET_INFO); -x then writes the DOS attributes */
int smb_sfileinfo(struct be_client *c, const struct lf_op *op, be_handle *h)
{
	struct smb_client *sc = SC(c);
	const char *url = url_of(c, h->aux);
	time_t now = time(NULL);
	struct timeval tv[2] = {{now - 10, 0}, {now - 12, 0}};

	errno = 0;
	if (sc->utimes(sc->ctx, url, tv) < 0)
		return failed(c, op);
	if (XATTR(c) && !file_of(c, h)->dir)
		return dos_attr_write(c, op, url);
	return 0;
}

/* FIND_FIRST: a pattern lists the directory (libsmbclient reads it whole
 * at opendir) and takes up to maxcnt entries; a plain name is looked up */
int smb_find(struct be_client *c, const struct lf_op *op, be_handle *h)
{
	struct smb_client *sc = SC(c);
	SMBCFILE *d;
	struct stat st;

	(void)h;
	errno = 0;
	if (!(op->flags & LF_F_WILDCARD)) {
		if (sc->stat(sc->ctx, url_of(c, op->path[0]), &st) < 0)
			return failed(c, op);
		return 0;
	}
	d = sc->opendir(sc->ctx, sc->durl[c->prog->paths[op->path[0]].dir]);
	if (!d)
		return failed(c, op);
	for (int64_t n = 0; n < op->arg[1] && sc->readdir(sc->ctx, d); n++)
		;
	sc->closedir(sc->ctx, d);
	return 0;
}

/* ReadX and WriteX: the file of @h, positioned at the op's offset, in
 * *@fp; 0, or what the op returns */
static int seek_to(struct be_client *c, const struct lf_op *op, be_handle *h,
		   struct smb_file **fp)
{
	struct smb_client *sc = SC(c);
	struct smb_file *f = file_of(c, h);

	errno = 0;
	if (f->dir)
		return -EISDIR;
	if (sc->lseek(sc->ctx, f->f, op->arg[0], SEEK_SET) < 0)
		return failed(c, op);
	*fp = f;
	return 0;
}

int smb_writex(struct be_client *c, const struct lf_op *op, be_handle *h)
{
	struct smb_client *sc = SC(c);
	struct smb_file *f;
	ssize_t n;
	int rc = seek_to(c, op, h, &f);

	if (rc)
		return rc;
	n = sc->write(sc->ctx, f->f, smb_g.io.wbuf, (size_t)op->arg[1]);
	if (n < 0)
		return failed(c, op);
	if (n != op->arg[2])
		return be_short_write(c, op, n, 0);
	return 0;
}

int smb_readx(struct be_client *c, const struct lf_op *op, be_handle *h)
{
	struct smb_client *sc = SC(c);
	struct smb_file *f;
	ssize_t n;
	int rc = seek_to(c, op, h, &f);

	if (rc)
		return rc;
	n = sc->read(sc->ctx, f->f, smb_g.io.rbuf, (size_t)op->arg[1]);
	if (n < 0)
		return failed(c, op);
	if (n != op->arg[2])
		return be_short_read(c, op, n);
	return 0;
}
