/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * opened.c - what the NTCreateX and Sfileinfo of both --paths modes
 * (ops_full.c, ops_dirfd.c) share: the hard-link and special-file
 * refusals, the checks of what was opened, the -x hook.
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
