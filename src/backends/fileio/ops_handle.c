/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ops_handle.c - the fileio ops on a handle, the same in both --paths
 * modes (in both tables of fileio.c): Close, Qfileinfo, WriteX, ReadX,
 * LockX, UnlockX, Flush.  It calls neither mode's file.
 */
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "fileio.h"

int fileio_close(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	(void)cl;
	(void)op;
	return close(h->fd) ? -errno : 0;
}

/* the engine drops a handle: replaced, unwanted, or at the clean-up */
void fileio_release(struct be_client *cl, be_handle h)
{
	(void)cl;
	close(h.fd);
}

int fileio_qfileinfo(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	int fd = h->fd;
	char val[DOS_ATTR_LEN];
	struct stat st;

	(void)op;
	if (fstat(fd, &st))
		return -errno;
	if (REQ(cl, BE_CAN_XATTR))
		fgetxattr(fd, DOS_ATTR, val, sizeof(val));
	return 0;
}

int fileio_writex(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	int fd = h->fd;
	int64_t off = op->arg[0], size = op->arg[1], ret = op->arg[2];
	ssize_t n;

	if (size == 1 && REQ(cl, BE_CAN_ONE_BYTE_FIX)) {
		struct stat st;
		char c;

		if (fstat(fd, &st))
			return -errno;
		if (off < st.st_size) {
			if (pread(fd, &c, 1, off) == 1 && c == 0)
				return 0;
		} else {
			return ftruncate(fd, off + 1) ? -errno : 0;
		}
	}
	n = pwrite(fd, fileio_g.io.wbuf, (size_t)size, off);
	if (n < 0)
		return -errno;
	if (n != ret) {
		int why = 0;

		/* a short write hides its cause (ENOSPC, EDQUOT, EIO...):
		 * the write of the rest tells it (the client stops anyway) */
		if (n < size &&
		    pwrite(fd, fileio_g.io.wbuf, (size_t)(size - n), off + n) < 0)
			why = errno;
		return be_short_write(cl, op, n, why);
	}
	if (REQ(cl, BE_CAN_FSYNC) && fsync(fd)) {
		/* dbench ignores it; we count it */
		be_warn(cl, op, "WriteX handle %d: fsync failed (%s)",
			cl->prog->fnums[op->handle], strerror(errno));
		return BE_REPORTED;
	}
	return 0;
}

int fileio_readx(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	int fd = h->fd;
	int64_t off = op->arg[0], size = op->arg[1], ret = op->arg[2];
	ssize_t n;

	n = pread(fd, fileio_g.io.rbuf, (size_t)size, off);
	if (n < 0)
		return -errno;
	if (n != ret)
		return be_short_read(cl, op, n);
	return 0;
}

static int lock(const struct lf_op *op, be_handle *h, short type)
{
	struct flock fl = {
		.l_type = type,
		.l_whence = SEEK_SET,
		.l_start = (uint32_t)op->arg[0],
		.l_len = op->arg[1],
	};

	return fcntl(h->fd, F_SETLKW, &fl) ? -errno : 0;
}

int fileio_lockx(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	(void)cl;
	return lock(op, h, F_WRLCK);
}

int fileio_unlockx(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	(void)cl;
	return lock(op, h, F_UNLCK);
}

int fileio_flush(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	(void)cl;
	(void)op;
	return fsync(h->fd) ? -errno : 0;
}
