/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * faultfs_ops.c - the pass-through FUSE operations of faultfs.  Each one
 * asks the rules first (inject(): a delay, or an errno to fail with), then
 * does the call relative to the fd of BACKING_DIR; open files and
 * directories keep their backing fd in fi->fh and are served with
 * fd-based calls.
 *
 * POSIX (fcntl) and BSD (flock) locks are left to the kernel's local
 * locking: no lock or flock operation is implemented, so they work between
 * the processes using the mount but are not taken on BACKING_DIR.
 */
#include "faultfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------- pass-through ----------------------------- */

#define INJECT(op, p1, p2)                       \
	do {                                     \
		int inj_rc = inject(op, p1, p2); \
		if (inj_rc)                      \
			return inj_rc;           \
	} while (0)

static int ret0(int r)
{
	return r < 0 ? -errno : 0;
}

/* Give a new file to the caller, as a local filesystem would (as root). */
static void own_at(const char *relpath)
{
	struct fuse_context *c = fuse_get_context();

	if (self_uid || (c->uid == self_uid && c->gid == self_gid))
		return;
	if (fchownat(bfd, relpath, c->uid, c->gid, AT_SYMLINK_NOFOLLOW)) {
		/* best effort */
	}
}

static void own_fd(int fd)
{
	struct fuse_context *c = fuse_get_context();

	if (self_uid || (c->uid == self_uid && c->gid == self_gid))
		return;
	if (fchown(fd, c->uid, c->gid)) {
		/* best effort */
	}
}

/* "/proc/self/fd/BFD/REL", for the calls that have no *at() form */
static int proc_path(char *buf, size_t len, const char *path)
{
	int n = snprintf(buf, len, "/proc/self/fd/%d/%s", bfd, rel(path));

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static void *ffs_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	cfg->use_ino = 1;
	/* unlink/rename really remove: no .fuse_hidden files left behind */
	cfg->hard_remove = 1;
	/* write-through: a write error reaches the writer, not a flusher */
	conn->want &= ~(unsigned)FUSE_CAP_WRITEBACK_CACHE;
	/* the kernel's local locking (see the top of the file) */
	conn->want &= ~(unsigned)(FUSE_CAP_POSIX_LOCKS | FUSE_CAP_FLOCK_LOCKS);
	return NULL;
}

static int ffs_getattr(const char *path, struct stat *st,
		       struct fuse_file_info *fi)
{
	INJECT(OP_GETATTR, path, NULL);
	if (fi)
		return ret0(fstat((int)fi->fh, st));
	return ret0(fstatat(bfd, rel(path), st, AT_SYMLINK_NOFOLLOW));
}

static int ffs_readlink(const char *path, char *buf, size_t size)
{
	ssize_t n;

	INJECT(OP_READLINK, path, NULL);
	if (!size)
		return -EINVAL;
	n = readlinkat(bfd, rel(path), buf, size - 1);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	return 0;
}

static int ffs_mknod(const char *path, mode_t mode, dev_t rdev)
{
	INJECT(OP_MKNOD, path, NULL);
	if (mknodat(bfd, rel(path), mode, rdev))
		return -errno;
	own_at(rel(path));
	return 0;
}

static int ffs_mkdir(const char *path, mode_t mode)
{
	INJECT(OP_MKDIR, path, NULL);
	if (mkdirat(bfd, rel(path), mode))
		return -errno;
	own_at(rel(path));
	return 0;
}

static int ffs_unlink(const char *path)
{
	INJECT(OP_UNLINK, path, NULL);
	return ret0(unlinkat(bfd, rel(path), 0));
}

static int ffs_rmdir(const char *path)
{
	INJECT(OP_RMDIR, path, NULL);
	return ret0(unlinkat(bfd, rel(path), AT_REMOVEDIR));
}

static int ffs_symlink(const char *target, const char *path)
{
	INJECT(OP_SYMLINK, path, NULL);
	if (symlinkat(target, bfd, rel(path)))
		return -errno;
	own_at(rel(path));
	return 0;
}

static int ffs_rename(const char *from, const char *to, unsigned int flags)
{
	INJECT(OP_RENAME, from, to);
	return ret0(renameat2(bfd, rel(from), bfd, rel(to), flags));
}

static int ffs_link(const char *from, const char *to)
{
	INJECT(OP_LINK, from, to);
	return ret0(linkat(bfd, rel(from), bfd, rel(to), 0));
}

static int ffs_chmod(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	INJECT(OP_CHMOD, path, NULL);
	if (fi)
		return ret0(fchmod((int)fi->fh, mode));
	return ret0(fchmodat(bfd, rel(path), mode, 0));
}

static int ffs_chown(const char *path, uid_t uid, gid_t gid,
		     struct fuse_file_info *fi)
{
	INJECT(OP_CHOWN, path, NULL);
	if (fi)
		return ret0(fchown((int)fi->fh, uid, gid));
	return ret0(fchownat(bfd, rel(path), uid, gid, AT_SYMLINK_NOFOLLOW));
}

static int ffs_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	int fd, r;

	INJECT(OP_TRUNCATE, path, NULL);
	if (fi)
		return ret0(ftruncate((int)fi->fh, size));
	fd = openat(bfd, rel(path), O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = ret0(ftruncate(fd, size));
	close(fd);
	return r;
}

static int ffs_open(const char *path, struct fuse_file_info *fi)
{
	int fd;

	INJECT(OP_OPEN, path, NULL);
	fd = openat(bfd, rel(path),
		    (fi->flags & ~(O_CREAT | O_EXCL | O_NOCTTY)) | O_NOFOLLOW |
			    O_CLOEXEC);
	if (fd < 0)
		return -errno;
	fi->fh = (uint64_t)fd;
	return 0;
}

static int ffs_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	int fd;

	INJECT(OP_CREATE, path, NULL);
	/* O_EXCL, O_TRUNC, O_SYNC, O_APPEND... as the caller asked */
	fd = openat(bfd, rel(path),
		    (fi->flags & ~O_NOCTTY) | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
		    mode);
	if (fd < 0)
		return -errno;
	own_fd(fd);
	fi->fh = (uint64_t)fd;
	return 0;
}

static int ffs_read(const char *path, char *buf, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	size_t done = 0;
	ssize_t n;

	INJECT(OP_READ, path, NULL);
	while (done < size) {
		n = pread((int)fi->fh, buf + done, size - done,
			  off + (off_t)done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return done ? (int)done : -errno;
		if (!n)
			break;
		done += (size_t)n;
	}
	return (int)done;
}

static int ffs_write(const char *path, const char *buf, size_t size, off_t off,
		     struct fuse_file_info *fi)
{
	size_t done = 0;
	ssize_t n;

	INJECT(OP_WRITE, path, NULL);
	while (done < size) {
		n = pwrite((int)fi->fh, buf + done, size - done,
			   off + (off_t)done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return done ? (int)done : -errno;
		if (!n)
			break;
		done += (size_t)n;
	}
	return (int)done;
}

static int ffs_statfs(const char *path, struct statvfs *sv)
{
	INJECT(OP_STATFS, path, NULL);
	return ret0(fstatvfs(bfd, sv));
}

static int ffs_flush(const char *path, struct fuse_file_info *fi)
{
	int fd;

	INJECT(OP_FLUSH, path, NULL);
	/* close a duplicate: what close() would do on the backing fs */
	fd = dup((int)fi->fh);
	if (fd < 0)
		return -errno;
	return ret0(close(fd));
}

static int ffs_release(const char *path, struct fuse_file_info *fi)
{
	/* an error here reaches nobody: only a delay makes sense */
	int r = inject(OP_RELEASE, path, NULL);

	close((int)fi->fh);
	return r;
}

static int ffs_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	INJECT(OP_FSYNC, path, NULL);
	return ret0(datasync ? fdatasync((int)fi->fh) : fsync((int)fi->fh));
}

static int ffs_setxattr(const char *path, const char *name, const char *val,
			size_t size, int flags)
{
	char p[PATH_MAX + 64];
	int r;

	INJECT(OP_SETXATTR, path, NULL);
	r = proc_path(p, sizeof(p), path);
	return r ? r : ret0(lsetxattr(p, name, val, size, flags));
}

static int ffs_getxattr(const char *path, const char *name, char *val,
			size_t size)
{
	char p[PATH_MAX + 64];
	ssize_t n;
	int r;

	INJECT(OP_GETXATTR, path, NULL);
	r = proc_path(p, sizeof(p), path);
	if (r)
		return r;
	n = lgetxattr(p, name, val, size);
	return n < 0 ? -errno : (int)n;
}

static int ffs_listxattr(const char *path, char *list, size_t size)
{
	char p[PATH_MAX + 64];
	ssize_t n;
	int r;

	INJECT(OP_LISTXATTR, path, NULL);
	r = proc_path(p, sizeof(p), path);
	if (r)
		return r;
	n = llistxattr(p, list, size);
	return n < 0 ? -errno : (int)n;
}

static int ffs_removexattr(const char *path, const char *name)
{
	char p[PATH_MAX + 64];
	int r;

	INJECT(OP_REMOVEXATTR, path, NULL);
	r = proc_path(p, sizeof(p), path);
	return r ? r : ret0(lremovexattr(p, name));
}

static int ffs_opendir(const char *path, struct fuse_file_info *fi)
{
	int fd;

	INJECT(OP_OPENDIR, path, NULL);
	fd = openat(bfd, rel(path),
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	fi->fh = (uint64_t)fd;
	return 0;
}

/*
 * The offset of an entry is the backing directory's own cookie (d_off),
 * so a listing can be resumed anywhere with lseek(); the kernel serialises
 * readdir calls on one open directory.
 */
static int ffs_readdir(const char *path, void *buf, fuse_fill_dir_t filler,
		       off_t off, struct fuse_file_info *fi,
		       enum fuse_readdir_flags flags)
{
	char dents[32768];
	int fd = (int)fi->fh;
	ssize_t n;

	(void)flags;
	INJECT(OP_READDIR, path, NULL);
	if (lseek(fd, off, SEEK_SET) < 0)
		return -errno;
	while ((n = getdents64(fd, dents, sizeof(dents))) > 0) {
		for (ssize_t pos = 0; pos < n;) {
			struct dirent64 *d = (struct dirent64 *)(dents + pos);
			struct stat st;

			memset(&st, 0, sizeof(st));
			st.st_ino = d->d_ino;
			st.st_mode = DTTOIF(d->d_type);
			if (filler(buf, d->d_name, &st, d->d_off, 0))
				return 0;
			pos += d->d_reclen;
		}
	}
	return n < 0 ? -errno : 0;
}

static int ffs_releasedir(const char *path, struct fuse_file_info *fi)
{
	int r = inject(OP_RELEASEDIR, path, NULL);

	close((int)fi->fh);
	return r;
}

static int ffs_fsyncdir(const char *path, int datasync,
			struct fuse_file_info *fi)
{
	INJECT(OP_FSYNCDIR, path, NULL);
	return ret0(datasync ? fdatasync((int)fi->fh) : fsync((int)fi->fh));
}

static int ffs_access(const char *path, int mask)
{
	INJECT(OP_ACCESS, path, NULL);
	return ret0(faccessat(bfd, rel(path), mask, 0));
}

static int ffs_utimens(const char *path, const struct timespec ts[2],
		       struct fuse_file_info *fi)
{
	INJECT(OP_UTIMENS, path, NULL);
	if (fi)
		return ret0(futimens((int)fi->fh, ts));
	return ret0(utimensat(bfd, rel(path), ts, AT_SYMLINK_NOFOLLOW));
}

static int ffs_fallocate(const char *path, int mode, off_t off, off_t len,
			 struct fuse_file_info *fi)
{
	INJECT(OP_FALLOCATE, path, NULL);
	return ret0(fallocate((int)fi->fh, mode, off, len));
}

static off_t ffs_lseek(const char *path, off_t off, int whence,
		       struct fuse_file_info *fi)
{
	off_t r;

	INJECT(OP_LSEEK, path, NULL);
	r = lseek((int)fi->fh, off, whence);
	return r < 0 ? -errno : r;
}

const struct fuse_operations ffs_ops = {
	.init = ffs_init,
	.getattr = ffs_getattr,
	.readlink = ffs_readlink,
	.mknod = ffs_mknod,
	.mkdir = ffs_mkdir,
	.unlink = ffs_unlink,
	.rmdir = ffs_rmdir,
	.symlink = ffs_symlink,
	.rename = ffs_rename,
	.link = ffs_link,
	.chmod = ffs_chmod,
	.chown = ffs_chown,
	.truncate = ffs_truncate,
	.open = ffs_open,
	.create = ffs_create,
	.read = ffs_read,
	.write = ffs_write,
	.statfs = ffs_statfs,
	.flush = ffs_flush,
	.release = ffs_release,
	.fsync = ffs_fsync,
	.setxattr = ffs_setxattr,
	.getxattr = ffs_getxattr,
	.listxattr = ffs_listxattr,
	.removexattr = ffs_removexattr,
	.opendir = ffs_opendir,
	.readdir = ffs_readdir,
	.releasedir = ffs_releasedir,
	.fsyncdir = ffs_fsyncdir,
	.access = ffs_access,
	.utimens = ffs_utimens,
	.fallocate = ffs_fallocate,
	.lseek = ffs_lseek,
};
