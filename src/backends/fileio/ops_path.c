/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ops_path.c - the fileio ops on a path: Rename, Unlink, Deltree, Rmdir,
 * Mkdir, Qpathinfo, Qfsinfo, Find; each one component relative to a
 * cached directory fd (dbench-compat.md §2.3-§2.6).
 */
#include <stdio.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fileio.h"

int fileio_rename(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	uint32_t p0 = op->path[0], p1 = op->path[1];
	const char *b0, *b1;
	struct stat st;
	int d0, d1, rc;
	bool found;

	if (fileio_g.full)
		return full_rename(cl, op, h);
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

int fileio_unlink(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	const char *base;
	struct stat st;
	int dfd, rc;

	if (fileio_g.full)
		return full_unlink(cl, op, h);
	(void)h;
	resolve(cl, op->path[0], &st);
	rc = AT(cl, RETRY(op), op->path[0], dfd, base, unlinkat(dfd, base, 0));
	if (REQ(cl, BE_CAN_SYNC_DIRS)) /* as dbench: also after a failure */
		sync_dir(cl, op->path[0]);
	return rc;
}

int fileio_deltree(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	const char *base;
	int dfd, fd = -1, rc;

	if (fileio_g.full)
		return full_deltree(cl, op, h);
	(void)h;
	rc = AT(cl, RETRY(op), op->path[0], dfd, base,
		fd = subdir_open(dfd, base));
	if (rc)
		return 0; /* nothing to delete (or a mount point: kept) */
	tree_clear(fd, 0, false);
	close(fd);
	return 0;
}

int fileio_rmdir(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	uint32_t pi = op->path[0];
	const char *base;
	struct stat st;
	int dfd, rc;
	bool found;

	if (fileio_g.full)
		return full_rmdir(cl, op, h);
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

int fileio_mkdir(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	uint32_t pi = op->path[0];
	const char *base;
	struct stat st;
	int dfd;

	if (fileio_g.full)
		return full_mkdir(cl, op, h);
	(void)h;
	if (!resolve(cl, pi, &st) && REQ(cl, BE_CAN_STAT_CHECK))
		return 0;
	return AT(cl, RETRY(op), pi, dfd, base, mkdirat(dfd, base, 0777));
}

int fileio_qpathinfo(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	struct stat st;

	if (fileio_g.full)
		return full_qpathinfo(cl, op, h);
	(void)h;
	return resolve(cl, op->path[0], &st);
}

int fileio_qfsinfo(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	struct statvfs sv;

	if (fileio_g.full)
		return full_qfsinfo(cl, op, h);
	(void)cl;
	(void)op;
	(void)h;
	return fstatvfs(fileio_g.base_fd, &sv) ? -errno : 0;
}

int fileio_find(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	struct stat st;
	int fd;

	if (fileio_g.full)
		return full_find(cl, op, h);
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
