/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ops_full.c - the fileio ops on a path in --paths full, the default: the
 * system calls of dbench 4.0's fileio.c, in its order, each naming the
 * whole path "clients/client0/dir/file" from DIR (the client's working
 * directory, set in setup.c), so the kernel walks every component on every
 * call as it does for dbench.  What differs, and why, is listed in
 * docs/compat.md ("The system calls"):
 *
 *  - opens (NTCreateX, and the directory opens of dbench's opendir() in
 *    the lookup, Find, Deltree and -S) are openat2() with
 *    RESOLVE_NO_SYMLINKS: the same walk, but no symlink is followed, and
 *    since no path has ".." (refused when the loadfile is compiled) it
 *    cannot leave DIR.  Not RESOLVE_BENEATH: a scoped lookup grabs DIR as
 *    its root and checks the result under the global mount_lock on every
 *    open (path_is_under()), work dbench's opens do not do;
 *  - stat(), utime() and getxattr() do not follow a symlink in the last
 *    component (AT_SYMLINK_NOFOLLOW, lgetxattr);
 *  - statfs() names "." (DIR) instead of DIR's own path.
 *
 * No directory fd is kept: every call is a lookup from DIR, as dbench's.
 */
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "fileio.h"

#define FULL_RESOLVE (RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS)

/* Glibc's opendir() reads a directory in buffers of its st_blksize, at
 * least 32 KiB and at most 1 MiB: the same getdents64 calls as dbench's
 * readdir(). */
#define DENTS_MIN (32u << 10)
#define DENTS_MAX (1u << 20)

static inline const char *fpath(struct be_client *cl, uint32_t pi)
{
	return ((struct fileio_client *)cl->priv)->fpath[pi];
}

static inline const char *fparent(struct be_client *cl, uint32_t pi)
{
	return ((struct fileio_client *)cl->priv)->fparent[pi];
}

/* dbench's open(@path, @flags, 0600), beneath DIR and never through a
 * symlink (on kernels without openat2: O_NOFOLLOW on the last component,
 * and the start-up check of setup.c for the others).  -1 and errno. */
static int full_open_how(const char *path, int flags, uint64_t resolve)
{
	struct open_how how = {
		.flags = (uint64_t)(unsigned int)flags,
		.mode = flags & O_CREAT ? 0600 : 0, /* openat2 wants 0 else */
		.resolve = resolve,
	};

	if (fileio_g.no_openat2)
		return open(path, flags | O_NOFOLLOW, 0600);
	return (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));
}

static int full_open(const char *path, int flags)
{
	return full_open_how(path, flags, FULL_RESOLVE);
}

/* The calls of dbench's opendir() (open, fstat); the fd or -1, and in
 * *@bufsz the size of readdir()'s getdents64 buffer.  With @stay (Deltree)
 * not a mount point: the open refuses to cross one (RESOLVE_NO_XDEV, the
 * same call; not when DIR/clients is a mount of its own, the walk from DIR
 * crosses that one), and the fstat refuses another device. */
static int full_opendir(const char *path, size_t *bufsz, bool stay)
{
	uint64_t resolve = FULL_RESOLVE;
	struct stat st;
	int fd;

	if (stay && !fileio_g.clients_mnt)
		resolve |= RESOLVE_NO_XDEV;
	fd = full_open_how(
		path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_DIRECTORY, resolve);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || (stay && st.st_dev != fileio_g.clients_dev)) {
		close(fd);
		return -1;
	}
	*bufsz = st.st_blksize > DENTS_MIN ? (size_t)st.st_blksize : DENTS_MIN;
	if (*bufsz > DENTS_MAX)
		*bufsz = DENTS_MAX;
	return fd;
}

static inline long dents(int fd, char *buf, size_t len)
{
	return syscall(SYS_getdents64, fd, buf, len);
}

/* The readdir() buffer of level @k, at least @len bytes; NULL if out of
 * memory.  Allocated once (the first Deltree, a directory with a larger
 * st_blksize), then reused. */
static char *level_buf(int k, size_t len)
{
	char *b;

	if (fileio_g.dlevel_len[k] >= len)
		return fileio_g.dlevel[k];
	b = realloc(fileio_g.dlevel[k], len);
	if (!b)
		return NULL;
	fileio_g.dlevel[k] = b;
	fileio_g.dlevel_len[k] = len;
	return b;
}

/* dbench's resolve_name(): stat the name; on a miss (unless --no-resolve)
 * read its directory until a name equal but for case, or the end.  The
 * result of the scan is not used, as in dbench.  0 or -errno (the stat). */
static int full_resolve(struct be_client *cl, uint32_t pi, struct stat *st)
{
	struct fileio_client *fc = cl->priv;
	const char *path = fc->fpath[pi];
	char val[DOS_ATTR_LEN], *buf;
	size_t len;
	int fd, rc;

	if (!fstatat(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW)) {
		if (REQ(cl, BE_CAN_XATTR))
			lgetxattr(path, DOS_ATTR, val, sizeof(val));
		return 0;
	}
	rc = -errno;
	if (REQ(cl, BE_CAN_NO_RESOLVE))
		return rc;
	fd = full_opendir(fc->fparent[pi], &len, false);
	if (fd >= 0) {
		buf = level_buf(0, len);
		if (buf)
			dents_find_icase(fd, buf, len, fc->bases[pi]);
		close(fd);
	}
	return rc;
}

/* a stat() of --stat-check: does @pi exist? */
static bool exists(struct be_client *cl, uint32_t pi, struct stat *st)
{
	return !fstatat(AT_FDCWD, fpath(cl, pi), st, AT_SYMLINK_NOFOLLOW);
}

/* dbench's sync_parent() of -S: open the directory, fdatasync, close */
static void sync_parent(struct be_client *cl, uint32_t pi)
{
	int fd = full_open(fparent(cl, pi), O_RDONLY);

	if (fd >= 0) {
		fdatasync(fd);
		close(fd);
	}
}

int full_ntcreatex(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	uint32_t pi = op->path[0];
	const char *path = fpath(cl, pi);
	int64_t opts = op->arg[0], disp = op->arg[1];
	int flags = O_RDWR, fd;
	struct stat st;
	bool trunc;

	/* no loadfile op makes hard links: one planted in the client tree
	 * may share its data with a file outside DIR/clients, which a
	 * truncation or a write would change; nor device nodes, fifos,
	 * sockets.  Checked again on the fd after the open, before any
	 * write or truncation (ntcreatex_opened) */
	if (!full_resolve(cl, pi, &st)) {
		if (S_ISREG(st.st_mode) && st.st_nlink > 1)
			return hard_link(cl, op, &st);
		if (special_file(st.st_mode))
			return not_a_file(cl, op, &st);
	}
	if (REQ(cl, BE_CAN_SYNC_OPEN))
		flags |= O_SYNC;
	if (disp == 2) {
		if (REQ(cl, BE_CAN_STAT_CHECK) && exists(cl, pi, &st))
			disp = 1;
		else
			flags |= O_CREAT;
	}
	/* dbench's O_TRUNC is an ftruncate() once the fd is checked */
	trunc = (disp == 4 || disp == 5) && !(opts & 1);
	if (disp == 4 || disp == 5)
		flags |= O_CREAT;
	if (opts & 1) {
		if (!REQ(cl, BE_CAN_STAT_CHECK) || !exists(cl, pi, &st))
			mkdir(path, 0700);
		flags = O_RDONLY | O_DIRECTORY;
	}
	fd = full_open(path, flags);
	if (fd < 0 && errno == EISDIR) {
		fd = full_open(path, O_RDONLY | O_DIRECTORY);
		trunc = false;
	}
	if (fd < 0)
		return -errno; /* the engine remembers why, for the handle */
	return ntcreatex_opened(cl, op, h, fd, trunc);
}

int full_rename(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	uint32_t p0 = op->path[0], p1 = op->path[1];
	struct stat st;
	int rc;

	(void)h;
	full_resolve(cl, p0, &st);
	full_resolve(cl, p1, &st);
	if (REQ(cl, BE_CAN_STAT_CHECK) && !exists(cl, p0, &st) &&
	    op->expect == LF_EXPECT_OK) {
		char path[1200];

		be_fail(cl, op, "Rename %s: file doesn't exist",
			be_path(cl, p0, path, sizeof(path)));
		return BE_REPORTED;
	}
	rc = rename(fpath(cl, p0), fpath(cl, p1)) ? -errno : 0;
	if (REQ(cl, BE_CAN_SYNC_DIRS)) /* as dbench: also after a failure */
		sync_parent(cl, p1);
	return rc;
}

int full_unlink(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	uint32_t pi = op->path[0];
	struct stat st;
	int rc;

	(void)h;
	full_resolve(cl, pi, &st);
	rc = unlink(fpath(cl, pi)) ? -errno : 0;
	if (REQ(cl, BE_CAN_SYNC_DIRS))
		sync_parent(cl, pi);
	return rc;
}

int full_rmdir(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	uint32_t pi = op->path[0];
	struct stat st;
	int rc;

	(void)h;
	full_resolve(cl, pi, &st);
	if (REQ(cl, BE_CAN_STAT_CHECK) &&
	    !(exists(cl, pi, &st) && S_ISDIR(st.st_mode)))
		return op->expect == LF_EXPECT_OK ? 0 : -ENOENT;
	rc = rmdir(fpath(cl, pi)) ? -errno : 0;
	if (REQ(cl, BE_CAN_SYNC_DIRS))
		sync_parent(cl, pi);
	return rc;
}

int full_mkdir(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	uint32_t pi = op->path[0];
	struct stat st;

	(void)h;
	full_resolve(cl, pi, &st);
	if (REQ(cl, BE_CAN_STAT_CHECK) && exists(cl, pi, &st))
		return 0;
	return mkdir(fpath(cl, pi), 0777) ? -errno : 0;
}

int full_qpathinfo(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	struct stat st;

	(void)h;
	return full_resolve(cl, op->path[0], &st);
}

int full_qfsinfo(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	struct statvfs sv;

	(void)cl;
	(void)op;
	(void)h;
	return statvfs(".", &sv) ? -errno : 0;
}

int full_sfileinfo(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	char val[DOS_ATTR_LEN];
	struct timespec ts[2] = {{0}};
	struct stat st;

	if (REQ(cl, BE_CAN_XATTR))
		fgetxattr(h->fd, DOS_ATTR, val, sizeof(val));
	if (fstat(h->fd, &st))
		return -errno;
	/* dbench's utime(): whole seconds */
	ts[0].tv_sec = st.st_atim.tv_sec - 10;
	ts[1].tv_sec = st.st_mtim.tv_sec - 12;
	if (utimensat(AT_FDCWD, fpath(cl, h->aux), ts, AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (!S_ISDIR(st.st_mode) && REQ(cl, BE_CAN_XATTR))
		return xattr_write(cl, op, h->fd);
	return 0;
}

int full_find(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	struct stat st;
	char *buf;
	size_t len;
	int fd;

	(void)h;
	full_resolve(cl, op->path[0], &st);
	if (!(op->flags & LF_F_WILDCARD))
		return 0;
	fd = full_opendir(fparent(cl, op->path[0]), &len, false);
	if (fd < 0)
		return 0;
	buf = level_buf(0, len);
	if (buf) /* readdir() until maxcnt entries are consumed */
		dents_skip(fd, buf, len, op->arg[1]);
	close(fd);
	return 0;
}

/* dbench's nb_deltree(): for each entry of @path (length @plen in a
 * buffer of PATH_BUF bytes) but . and .., stat it: a directory is emptied
 * the same way (and kept), anything else unlinked.  A mount point is not
 * entered (full_opendir's @stay).  Each level reads with
 * its own buffer, as each opendir() of dbench does. */
#define PATH_BUF 4096
static void deltree(char *path, size_t plen, int depth)
{
	struct stat st;
	size_t len;
	char *buf;
	long n;
	int fd;

	if (depth > MAX_DEPTH)
		return;
	fd = full_opendir(path, &len, true);
	if (fd < 0)
		return;
	buf = level_buf(depth + 1, len);
	while (buf && (n = dents(fd, buf, len)) > 0) {
		for (long off = 0; off < n;) {
			struct linux_dirent64 *d = (void *)(buf + off);
			size_t nlen = strlen(d->d_name);

			off += d->d_reclen;
			if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
				continue;
			if (plen + 1 + nlen >= PATH_BUF)
				continue;
			path[plen] = '/';
			memcpy(path + plen + 1, d->d_name, nlen + 1);
			if (!fstatat(AT_FDCWD, path, &st,
				     AT_SYMLINK_NOFOLLOW)) {
				if (S_ISDIR(st.st_mode))
					deltree(path, plen + 1 + nlen,
						depth + 1);
				else
					unlink(path);
			}
			path[plen] = 0;
		}
	}
	close(fd);
}

int full_deltree(struct be_client *cl, const struct lf_op *op, be_handle *h)
{
	const char *p = fpath(cl, op->path[0]);
	char path[PATH_BUF];
	size_t plen = strlen(p);

	(void)h;
	if (plen >= sizeof(path))
		return 0;
	memcpy(path, p, plen + 1);
	deltree(path, plen, 0);
	return 0;
}
