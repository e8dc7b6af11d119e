/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ops_dirfd.c - the fileio ops of --paths dirfd that name a path:
 * NTCreateX, Rename, Unlink, Deltree, Rmdir, Mkdir, Qpathinfo, Qfsinfo,
 * Find, each one component relative to a cached directory fd (dirs.c),
 * and Sfileinfo on the open fd (docs/compat.md).
 */
#include <stdio.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "fileio.h"

int dirfd_rename(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	uint32_t p0 = op->path[0], p1 = op->path[1];
	const char *b0, *b1;
	struct stat st;
	int d0, d1, rc;
	bool found;

	(void)h;
	found = !resolve(cl, p0, &st);
	resolve(cl, p1, &st);
	if (REQ(cl, BE_CAN_STAT_CHECK) && op->expect == LF_EXPECT_OK &&
	    !found) {
		char path[1200];

		be_fail(cl, op, "Rename %s: file doesn't exist",
			be_path(cl, p0, path, sizeof(path)));
		return BE_REPORTED;
	}
	d1 = dir_get(cl, cl->prog->paths[p1].dir);
	if (d1 < 0)
		return d1;
	b1 = ((struct fileio_client *)cl->priv)->bases[p1];
	rc = AT(cl, RETRY(op), p0, d0, b0, renameat(d0, b0, d1, b1));
	if (!rc) {
		dir_invalidate(cl, p0);
		dir_invalidate(cl, p1);
	}
	if (REQ(cl, BE_CAN_SYNC_DIRS)) /* as dbench: also after a failure */
		sync_dir(cl, p1);
	return rc;
}

int dirfd_unlink(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	const char *base;
	struct stat st;
	int dfd, rc;

	(void)h;
	resolve(cl, op->path[0], &st);
	rc = AT(cl, RETRY(op), op->path[0], dfd, base, unlinkat(dfd, base, 0));
	if (REQ(cl, BE_CAN_SYNC_DIRS)) /* as dbench: also after a failure */
		sync_dir(cl, op->path[0]);
	return rc;
}

int dirfd_deltree(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	const char *base;
	int dfd, fd = -1, rc;

	(void)h;
	rc = AT(cl, RETRY(op), op->path[0], dfd, base,
		fd = subdir_open(dfd, base));
	if (rc)
		return 0; /* nothing to delete (or a mount point: kept) */
	tree_clear(fd, 0, false);
	close(fd);
	return 0;
}

int dirfd_rmdir(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	uint32_t pi = op->path[0];
	const char *base;
	struct stat st;
	int dfd, rc;
	bool found;

	(void)h;
	found = !resolve(cl, pi, &st);
	if (REQ(cl, BE_CAN_STAT_CHECK) && !(found && S_ISDIR(st.st_mode)))
		return op->expect == LF_EXPECT_OK ? 0 : -ENOENT;
	rc = AT(cl, RETRY(op), pi, dfd, base,
		unlinkat(dfd, base, AT_REMOVEDIR));
	if (!rc)
		dir_invalidate(cl, pi);
	if (REQ(cl, BE_CAN_SYNC_DIRS)) /* as dbench: also after a failure */
		sync_dir(cl, pi);
	return rc;
}

int dirfd_mkdir(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	uint32_t pi = op->path[0];
	const char *base;
	struct stat st;
	int dfd;

	(void)h;
	if (!resolve(cl, pi, &st) && REQ(cl, BE_CAN_STAT_CHECK))
		return 0;
	return AT(cl, RETRY(op), pi, dfd, base, mkdirat(dfd, base, 0777));
}

int dirfd_qpathinfo(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	struct stat st;

	(void)h;
	return resolve(cl, op->path[0], &st);
}

int dirfd_qfsinfo(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	struct statvfs sv;

	(void)cl;
	(void)op;
	(void)h;
	return fstatvfs(fileio_g.base_fd, &sv) ? -errno : 0;
}

int dirfd_find(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	struct stat st;
	int fd;

	(void)h;
	resolve(cl, op->path[0], &st);
	if (!(op->flags & LF_F_WILDCARD))
		return 0;
	fd = dir_peek(cl, cl->prog->paths[op->path[0]].dir);
	if (fd < 0)
		return fd;
	if (lseek(fd, 0, SEEK_SET) < 0)
		return -errno;
	dents_skip(fd, fileio_g.dents, sizeof(fileio_g.dents), op->arg[1]);
	return 0;
}

int dirfd_ntcreatex(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	uint32_t pi = op->path[0];
	int64_t opts = op->arg[0], disp = op->arg[1];
	bool is_dir = opts & 1, found;
	int flags = O_RDWR | O_NOFOLLOW | O_CLOEXEC, dfd, fd = -1;
	const char *base;
	struct stat st;
	int rc;

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

int dirfd_sfileinfo(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	int fd = h->fd;
	char val[DOS_ATTR_LEN];
	struct timespec ts[2];
	struct stat st;

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
