/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ops_handle.c - the fileio ops that open or use a handle: NTCreateX
 * (dispositions, the hard-link refusal, the -x hook), Close, Qfileinfo,
 * Sfileinfo, WriteX, ReadX, LockX, UnlockX, Flush.
 */
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"

/* -x write hook: read the DOS attribute, then store a fresh one. */
int xattr_write(struct be_client *cl, const struct lf_op *op, int fd)
{
	char val[DOS_ATTR_LEN];
	struct timespec ts;

	fgetxattr(fd, DOS_ATTR, val, sizeof(val));
	memset(val, 0, sizeof(val));
	clock_gettime(CLOCK_REALTIME, &ts);
	if (be_random(cl) % 10 < 2) {
		time_t t = ts.tv_sec;

		memcpy(val, &t, sizeof(t));
	} else {
		struct timeval tv = {ts.tv_sec, ts.tv_nsec / 1000};

		memcpy(val, &tv, sizeof(tv));
	}
	if (fsetxattr(fd, DOS_ATTR, val, sizeof(val), 0)) {
		be_fail(cl, op, "fsetxattr %s on handle %d failed (%s)",
			DOS_ATTR,
			op->handle == LF_NONE ? -1
					      : cl->prog->fnums[op->handle],
			strerror(errno));
		return BE_REPORTED;
	}
	return 0;
}

/* A regular file with more than one link under DIR/clients: refused. */
int hard_link(struct be_client *cl, const struct lf_op *op,
	      const struct stat *st)
{
	char path[1200];

	be_fail(cl, op,
		"NTCreateX %s: refusing a file with %ju hard "
		"links (they may reach outside the client trees)",
		be_path(cl, op->path[0], path, sizeof(path)),
		(uintmax_t)st->st_nlink);
	return BE_REPORTED;
}

/* Anything but a regular file or a directory (a fifo, a device node, a
 * socket planted in the tree): refused, before any write. */
int not_a_file(struct be_client *cl, const struct lf_op *op,
	       const struct stat *st)
{
	char path[1200];
	const char *what = S_ISFIFO(st->st_mode)   ? "fifo"
			   : S_ISCHR(st->st_mode)  ? "character device"
			   : S_ISBLK(st->st_mode)  ? "block device"
			   : S_ISSOCK(st->st_mode) ? "socket"
						   : "special file";

	be_fail(cl, op,
		"NTCreateX %s: refusing a %s (only regular files and "
		"directories are opened)",
		be_path(cl, op->path[0], path, sizeof(path)), what);
	return BE_REPORTED;
}

int fileio_ntcreatex(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	uint32_t pi = op->path[0];
	int64_t opts = op->arg[0], disp = op->arg[1];
	bool is_dir = opts & 1, found;
	int flags = O_RDWR | O_NOFOLLOW | O_CLOEXEC, dfd, fd = -1;
	const char *base;
	struct stat st;
	int rc;

	if (fileio_g.full)
		return full_ntcreatex(cl, op, h);
	/* as dbench: look the name up first (a miss scans the directory) */
	found = !resolve(cl, pi, &st);
	/* no loadfile op makes hard links: one planted in the client tree
	 * may share its data with a file outside DIR/clients, which a
	 * truncation or a write would change; nor device nodes, fifos,
	 * sockets.  Checked again on the fd after the open, before any
	 * write or truncation (ntcreatex_opened) */
	if (found && S_ISREG(st.st_mode) && st.st_nlink > 1)
		return hard_link(cl, op, &st);
	if (found && special_file(st.st_mode))
		return not_a_file(cl, op, &st);
	if (REQ(cl, BE_CAN_SYNC_OPEN))
		flags |= O_SYNC;
	if (disp == 2 && !(REQ(cl, BE_CAN_STAT_CHECK) && found))
		flags |= O_CREAT;
	if (disp == 4 || disp == 5) /* O_TRUNC, but after the checks */
		flags |= O_CREAT;
	if (is_dir) {
		if (!REQ(cl, BE_CAN_STAT_CHECK) || !found)
			AT(cl, RETRY(op), pi, dfd, base,
			   mkdirat(dfd, base, 0700));
		flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	}
	rc = AT(cl, RETRY(op), pi, dfd, base,
		fd = openat(dfd, base, flags, 0600));
	if (rc == -EISDIR)
		rc = AT(cl, RETRY(op), pi, dfd, base,
			fd = openat(dfd, base,
				    O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					    O_CLOEXEC));
	if (rc)
		return rc; /* the engine remembers why, for the handle */
	return ntcreatex_opened(cl, op, h, fd,
				!is_dir && (disp == 4 || disp == 5));
}

/*
 * NTCreateX, both modes: @fd was opened for @op; keep it in @h, or close
 * it and say why not.  With @trunc (dispositions 4 and 5) the file is
 * truncated here, not by O_TRUNC: only once the fd is known to be a
 * regular file with one link, so that a hard link renamed into place
 * between the lookup and the open (to a file outside DIR/clients) is
 * refused, not emptied.
 */
int ntcreatex_opened(struct be_client *cl, const struct lf_op *op, be_handle *h,
		     int fd, bool trunc)
{
	struct stat st;
	int rc;

	h->aux = op->path[0]; /* Sfileinfo's path in --paths full */
	if (op->expect == LF_EXPECT_FAIL && !trunc) {
		h->fd = fd; /* the engine closes it and reports "succeeded -
			     * expected" */
		return 0;
	}
	/* as dbench: what was opened decides the xattr hook */
	if (fstat(fd, &st)) {
		rc = -errno;
		close(fd);
		return rc;
	}
	if (S_ISREG(st.st_mode) && st.st_nlink > 1) {
		close(fd);
		return hard_link(cl, op, &st);
	}
	if (special_file(st.st_mode)) {
		close(fd);
		return not_a_file(cl, op, &st);
	}
	if (trunc && S_ISREG(st.st_mode) && ftruncate(fd, 0)) {
		rc = -errno;
		close(fd);
		return rc;
	}
	if (op->expect == LF_EXPECT_FAIL) {
		h->fd = fd;
		return 0;
	}
	if (!S_ISDIR(st.st_mode) && REQ(cl, BE_CAN_XATTR) &&
	    (rc = xattr_write(cl, op, fd))) {
		close(fd);
		return rc;
	}
	h->fd = fd; /* the engine keeps it (or releases it) */
	return 0;
}

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

int fileio_sfileinfo(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	int fd = h->fd;
	char val[DOS_ATTR_LEN];
	struct timespec ts[2];
	struct stat st;

	if (fileio_g.full)
		return full_sfileinfo(cl, op, h);
	if (REQ(cl, BE_CAN_XATTR))
		fgetxattr(fd, DOS_ATTR, val, sizeof(val));
	if (fstat(fd, &st))
		return -errno;
	ts[0] = st.st_atim;
	ts[0].tv_sec -= 10;
	ts[1] = st.st_mtim;
	ts[1].tv_sec -= 12;
	if (futimens(fd, ts))
		return -errno;
	if (!S_ISDIR(st.st_mode) && REQ(cl, BE_CAN_XATTR))
		return xattr_write(cl, op, fd);
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
	n = pwrite(fd, fileio_g.wbuf, (size_t)size, off);
	if (n < 0)
		return -errno;
	if (n != ret) {
		int why = 0;

		/* a short write hides its cause (ENOSPC, EDQUOT, EIO...):
		 * the write of the rest tells it (the client stops anyway) */
		if (n < size &&
		    pwrite(fd, fileio_g.wbuf, (size_t)(size - n), off + n) < 0)
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

	n = pread(fd, fileio_g.rbuf, (size_t)size, off);
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
