/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fileio.c - the local filesystem backend, with dbench 4.0's semantics
 * (dbench-compat.md §2): NTCreateX dispositions, name resolution with a
 * case-insensitive scan on a miss, -s/-S/-F/-x, --stat-check,
 * --one-byte-write-fix.
 *
 * Every path is DIR/clients/<dir>/<base>.  A client keeps an fd for each
 * directory of the program, opened beneath DIR/clients with openat2
 * (RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS), or on old kernels one component
 * at a time with O_NOFOLLOW, and runs every call on <base> relative to
 * it with O_NOFOLLOW / AT_SYMLINK_NOFOLLOW.  So neither "..", nor an
 * absolute path, nor a symlink planted in the tree can lead a call outside
 * DIR/clients, and the kernel walks one component per call instead of the
 * whole path, which is where dbench spends much of its time.
 */
#include <dirent.h>
#include <stddef.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "loadfile.h"

#define DOS_ATTR     "user.DosAttrib"
#define DOS_ATTR_LEN 44
#define MAX_DEPTH    64

/* the run asks for BE_CAN_* @bit (-s, -S, -F, -x ...) */
#define REQ(cl, bit) ((cl)->run->req & (bit))

/* fileio's own options (-o) */
struct fio_opts {
	bool no_openat2; /* -o no-openat2 */
};

/* set once by the parent before fork, then read-only */
static int base_fd = -1;    /* -D */
static int clients_fd = -1; /* DIR/clients */
static bool no_openat2;	    /* kernel without openat2, or forced */

/* per process, shared by the clients of one process */
static char *wbuf, *rbuf; /* zeroed write data; read target */
static size_t buflen;
static char dents[32768]; /* getdents64 buffer */

struct fio_client {
	char **dirs;  /* directory names, client name substituted */
	char **bases; /* last component of each path, substituted */
	int *dirfd;   /* open directory fds, -1 = not open */
};

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* ---------------------------- directories ------------------------------ */

/* Open directory @rel beneath DIR/clients; -errno on failure. */
static int open_beneath(const char *rel)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS,
	};
	char comp[256];
	const char *s = rel, *e;
	int fd, nfd;

	if (!no_openat2) {
		fd = (int)syscall(SYS_openat2, clients_fd, rel, &how,
				  sizeof(how));
		return fd < 0 ? -errno : fd;
	}
	/* fallback: one component at a time, never following a symlink */
	fd = dup(clients_fd);
	if (fd < 0)
		return -errno;
	while (*s) {
		e = strchr(s, '/');
		if (!e)
			e = s + strlen(s);
		if ((size_t)(e - s) >= sizeof(comp)) {
			close(fd);
			return -ENAMETOOLONG;
		}
		memcpy(comp, s, (size_t)(e - s));
		comp[e - s] = 0;
		nfd = openat(fd, comp,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(fd);
		if (nfd < 0)
			return -errno;
		fd = nfd;
		s = *e ? e + 1 : e;
	}
	return fd;
}

static void dir_drop(struct fio_client *fc, uint32_t d)
{
	if (d && fc->dirfd[d] >= 0) {
		close(fc->dirfd[d]);
		fc->dirfd[d] = -1;
	}
}

static void dir_drop_all(struct fio_client *fc, uint32_t ndirs)
{
	for (uint32_t d = 1; d < ndirs; d++)
		dir_drop(fc, d);
}

/* The fd of directory @d, opened on first use; -errno if it cannot be. */
static int dir_get(struct be_client *cl, uint32_t d)
{
	struct fio_client *fc = cl->priv;
	int fd = fc->dirfd[d];

	if (fd >= 0)
		return fd;
	fd = open_beneath(fc->dirs[d]);
	if (fd == -EMFILE || fd == -ENFILE) {
		dir_drop_all(fc, cl->prog->ndirs);
		fd = open_beneath(fc->dirs[d]);
	}
	if (fd >= 0)
		fc->dirfd[d] = fd;
	return fd;
}

/* Was cached directory @d removed behind our back (by another process)?
 * Then forget it, so the next dir_get() looks the path up again. */
static bool dir_stale(struct be_client *cl, uint32_t d)
{
	struct fio_client *fc = cl->priv;
	struct stat st;

	if (!d || fc->dirfd[d] < 0 || fstat(fc->dirfd[d], &st) || st.st_nlink)
		return false;
	dir_drop(fc, d);
	return true;
}

/* After a successful Rename or Rmdir of path @pi: forget the cached
 * directories at or below it. */
static void dir_invalidate(struct be_client *cl, uint32_t pi)
{
	const struct lf_path *pa = &cl->prog->paths[pi];

	for (uint32_t i = 0; i < pa->ninval; i++)
		dir_drop(cl->priv, cl->prog->inval[pa->inval + i]);
}

/*
 * AT(cl, retry, pi, dfd, base, call): run the *at() system call @call with
 * @dfd and @base set for path index @pi; evaluates to 0 or -errno.  If it
 * fails with ENOENT, @retry is true and the cached directory turns out to
 * be deleted, the path is looked up again and the call retried once.
 *
 * RETRY(op): retry an op's own call only where success was expected, so an
 * expected ENOENT costs no extra system call.  Lookups (resolve, exists)
 * never retry: a miss is their normal result.
 */
#define RETRY(op) ((op)->expect != LF_EXPECT_FAIL)

#define AT(cl, retry, pi, dfd, base, call)                                      \
	({                                                                   \
		const struct lf_path *pa_ = &(cl)->prog->paths[pi];          \
		int r_;                                                      \
		for (int try_ = 0;; try_++) {                                \
			dfd = dir_get(cl, pa_->dir);                         \
			if (dfd < 0) {                                       \
				r_ = dfd;                                    \
				break;                                       \
			}                                                    \
			base = ((struct fio_client *)(cl)->priv)->bases[pi]; \
			r_ = (call) < 0 ? -errno : 0;                        \
			if (r_ != -ENOENT || try_ ||                         \
			    !(retry) ||                                      \
			    !dir_stale(cl, pa_->dir))                        \
				break;                                       \
		}                                                            \
		r_;                                                          \
	})

/* Case-insensitive search for @name in directory @fd, as Samba does on a
 * miss.  The result is not used: the cost is what dbench emulates. */
static void scan_icase(int fd, const char *name)
{
	long n;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return;
	while ((n = syscall(SYS_getdents64, fd, dents, sizeof(dents))) > 0) {
		for (long off = 0; off < n;) {
			struct linux_dirent64 *d = (void *)(dents + off);

			if (!strcasecmp(d->d_name, name))
				return;
			off += d->d_reclen;
		}
	}
}

/* Read the DOS attribute xattr of @base in @dfd (-x). */
static void xattr_read_at(int dfd, const char *base)
{
	char path[64 + 256], val[DOS_ATTR_LEN];

	snprintf(path, sizeof(path), "/proc/self/fd/%d/%s", dfd, base);
	lgetxattr(path, DOS_ATTR, val, sizeof(val));
}

/* dbench's resolve: stat the name; on a miss scan the directory for it
 * ignoring case (unless --no-resolve).  Returns 0 or -errno. */
static int resolve(struct be_client *cl, uint32_t pi, struct stat *st)
{
	const char *base;
	int dfd, rc;

	rc = AT(cl, false, pi, dfd, base,
		fstatat(dfd, base, st, AT_SYMLINK_NOFOLLOW));
	if (!rc) {
		if (REQ(cl, BE_CAN_XATTR))
			xattr_read_at(dfd, base);
	} else if (dfd >= 0 && !REQ(cl, BE_CAN_NO_RESOLVE)) {
		scan_icase(dfd, base);
	}
	return rc;
}

static void sync_dir(struct be_client *cl, uint32_t pi)
{
	int fd = dir_get(cl, cl->prog->paths[pi].dir);

	if (fd >= 0)
		fdatasync(fd);
}

/* ------------------------------ xattrs --------------------------------- */

/* -x write hook: read the DOS attribute, then store a fresh one. */
static int xattr_write(struct be_client *cl, const struct lf_op *op, int fd)
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

/* ------------------------------ the ops -------------------------------- */

/* A regular file with more than one link under DIR/clients: refused. */
static int hard_link(struct be_client *cl, const struct lf_op *op,
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

static int fio_ntcreatex(struct be_client *cl, const struct lf_op *op,
			 be_handle *h)
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
	 * may share its data with a file outside DIR/clients, which an
	 * O_TRUNC or a write would change; checked again after the open */
	if (found && S_ISREG(st.st_mode) && st.st_nlink > 1)
		return hard_link(cl, op, &st);
	if (REQ(cl, BE_CAN_SYNC_OPEN))
		flags |= O_SYNC;
	if (disp == 2 && !(REQ(cl, BE_CAN_STAT_CHECK) && found))
		flags |= O_CREAT;
	if (disp == 4 || disp == 5)
		flags |= O_CREAT | O_TRUNC;
	if (is_dir) {
		if (!REQ(cl, BE_CAN_STAT_CHECK) || !found)
			AT(cl, RETRY(op), pi, dfd, base, mkdirat(dfd, base, 0700));
		flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	}
	rc = AT(cl, RETRY(op), pi, dfd, base, fd = openat(dfd, base, flags, 0600));
	if (rc == -EISDIR)
		rc = AT(cl, RETRY(op), pi, dfd, base,
			fd = openat(dfd, base,
				    O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					    O_CLOEXEC));
	if (rc)
		return rc; /* the engine remembers why, for the handle */
	if (op->expect == LF_EXPECT_FAIL) {
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
	if (!S_ISDIR(st.st_mode) && REQ(cl, BE_CAN_XATTR) &&
	    (rc = xattr_write(cl, op, fd))) {
		close(fd);
		return rc;
	}
	h->fd = fd; /* the engine keeps it (or releases it) */
	return 0;
}

static int fio_close(struct be_client *cl, const struct lf_op *op,
		     be_handle *h)
{
	(void)cl;
	(void)op;
	return close(h->fd) ? -errno : 0;
}

/* the engine drops a handle: replaced, unwanted, or at the clean-up */
static void fio_release(struct be_client *cl, be_handle h)
{
	(void)cl;
	close(h.fd);
}

static int fio_rename(struct be_client *cl, const struct lf_op *op,
		      be_handle *h)
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
	b1 = ((struct fio_client *)cl->priv)->bases[p1];
	rc = AT(cl, RETRY(op), p0, d0, b0, renameat(d0, b0, d1, b1));
	if (!rc) {
		dir_invalidate(cl, p0);
		dir_invalidate(cl, p1);
	}
	if (REQ(cl, BE_CAN_SYNC_DIRS)) /* as dbench: also after a failure */
		sync_dir(cl, p1);
	return rc;
}

static int fio_unlink(struct be_client *cl, const struct lf_op *op,
		      be_handle *h)
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

/* Delete the files below directory @fd, and with @rmdirs the directories
 * too.  Never follows a symlink: a link is removed, not its target. */
static void tree_clear(int fd, int depth, bool rmdirs)
{
	char buf[4096];
	long n;
	int removed;

	if (depth > MAX_DEPTH)
		return;
	for (int round = 0; round < 8; round++) {
		removed = 0;
		if (lseek(fd, 0, SEEK_SET) < 0)
			return;
		while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) >
		       0) {
			for (long off = 0; off < n;) {
				struct linux_dirent64 *d = (void *)(buf + off);
				const char *name = d->d_name;
				unsigned char type = d->d_type;
				struct stat st;
				int sub;

				off += d->d_reclen;
				if (!strcmp(name, ".") || !strcmp(name, ".."))
					continue;
				if (type == DT_UNKNOWN) {
					if (fstatat(fd, name, &st,
						    AT_SYMLINK_NOFOLLOW))
						continue;
					type = S_ISDIR(st.st_mode) ? DT_DIR
								   : DT_REG;
				}
				if (type != DT_DIR) {
					removed += !unlinkat(fd, name, 0);
					continue;
				}
				sub = openat(fd, name,
					     O_RDONLY | O_DIRECTORY |
						     O_NOFOLLOW | O_CLOEXEC);
				if (sub >= 0) {
					tree_clear(sub, depth + 1, rmdirs);
					close(sub);
				}
				if (rmdirs)
					removed += !unlinkat(fd, name,
							     AT_REMOVEDIR);
			}
		}
		if (!removed)
			return;
	}
}

static int fio_deltree(struct be_client *cl, const struct lf_op *op,
		       be_handle *h)
{
	const char *base;
	int dfd, fd = -1, rc;

	(void)h;
	rc = AT(cl, RETRY(op), op->path[0], dfd, base,
		fd = openat(dfd, base,
			    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
	if (rc)
		return 0; /* nothing to delete */
	tree_clear(fd, 0, false);
	close(fd);
	return 0;
}

static int fio_rmdir(struct be_client *cl, const struct lf_op *op,
		     be_handle *h)
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
	rc = AT(cl, RETRY(op), pi, dfd, base, unlinkat(dfd, base, AT_REMOVEDIR));
	if (!rc)
		dir_invalidate(cl, pi);
	if (REQ(cl, BE_CAN_SYNC_DIRS)) /* as dbench: also after a failure */
		sync_dir(cl, pi);
	return rc;
}

static int fio_mkdir(struct be_client *cl, const struct lf_op *op,
		     be_handle *h)
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

static int fio_qpathinfo(struct be_client *cl, const struct lf_op *op,
			 be_handle *h)
{
	struct stat st;

	(void)h;
	return resolve(cl, op->path[0], &st);
}

static int fio_qfileinfo(struct be_client *cl, const struct lf_op *op,
			 be_handle *h)
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

static int fio_qfsinfo(struct be_client *cl, const struct lf_op *op,
		       be_handle *h)
{
	struct statvfs sv;

	(void)cl;
	(void)op;
	(void)h;
	return fstatvfs(base_fd, &sv) ? -errno : 0;
}

static int fio_sfileinfo(struct be_client *cl, const struct lf_op *op,
			 be_handle *h)
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

static int fio_find(struct be_client *cl, const struct lf_op *op,
		    be_handle *h)
{
	int64_t maxcnt = op->arg[1], seen = 0;
	struct stat st;
	long n;
	int fd;

	(void)h;
	resolve(cl, op->path[0], &st);
	if (!(op->flags & LF_F_WILDCARD))
		return 0;
	fd = dir_get(cl, cl->prog->paths[op->path[0]].dir);
	if (fd < 0)
		return fd;
	if (lseek(fd, 0, SEEK_SET) < 0)
		return -errno;
	while (seen < maxcnt &&
	       (n = syscall(SYS_getdents64, fd, dents, sizeof(dents))) > 0) {
		for (long off = 0; off < n && seen < maxcnt; seen++)
			off += ((struct linux_dirent64 *)(dents + off))
				       ->d_reclen;
	}
	return 0;
}

static int fio_writex(struct be_client *cl, const struct lf_op *op,
		      be_handle *h)
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
	n = pwrite(fd, wbuf, (size_t)size, off);
	if (n < 0)
		return -errno;
	if (n != ret) {
		int why = 0;

		/* a short write hides its cause (ENOSPC, EDQUOT, EIO...):
		 * the write of the rest tells it (the client stops anyway) */
		if (n < size &&
		    pwrite(fd, wbuf, (size_t)(size - n), off + n) < 0)
			why = errno;
		be_fail(cl, op,
			"WriteX handle %d: wrote %zd bytes, "
			"expected to write %lld bytes%s%s%s",
			cl->prog->fnums[op->handle], n, (long long)ret,
			why ? " (" : "", why ? strerror(why) : "",
			why ? ")" : "");
		return BE_REPORTED;
	}
	if (REQ(cl, BE_CAN_FSYNC) && fsync(fd)) {
		/* dbench ignores it; we count it */
		be_warn(cl, op, "WriteX handle %d: fsync failed (%s)",
			cl->prog->fnums[op->handle], strerror(errno));
		return BE_REPORTED;
	}
	return 0;
}

static int fio_readx(struct be_client *cl, const struct lf_op *op,
		     be_handle *h)
{
	int fd = h->fd;
	int64_t off = op->arg[0], size = op->arg[1], ret = op->arg[2];
	ssize_t n;

	n = pread(fd, rbuf, (size_t)size, off);
	if (n < 0)
		return -errno;
	if (n != ret) {
		be_warn(cl, op,
			"ReadX handle %d: read %zd bytes at %lld, "
			"expected %lld",
			cl->prog->fnums[op->handle], n, (long long)off,
			(long long)ret);
		return BE_REPORTED;
	}
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

static int fio_lockx(struct be_client *cl, const struct lf_op *op,
		     be_handle *h)
{
	(void)cl;
	return lock(op, h, F_WRLCK);
}

static int fio_unlockx(struct be_client *cl, const struct lf_op *op,
		       be_handle *h)
{
	(void)cl;
	return lock(op, h, F_UNLCK);
}

static int fio_flush(struct be_client *cl, const struct lf_op *op,
		     be_handle *h)
{
	(void)cl;
	(void)op;
	return fsync(h->fd) ? -errno : 0;
}

/* ------------------------- set-up and clean-up ------------------------- */

static int fio_init(struct be_run *run, char *err, size_t errlen)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH,
	};
	const struct fio_opts *opts = run->opts;
	const char *dir = run->dir;
	struct stat st;
	int fd;

	if (clients_fd >= 0)	/* again for the next of --runs */
		close(clients_fd);
	if (base_fd >= 0)
		close(base_fd);
	clients_fd = base_fd = -1;
	if (stat(dir, &st)) {
		snprintf(err, errlen, "-D %s: %s", dir, strerror(errno));
		return BE_EINPUT;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "-D %s: not a directory", dir);
		return BE_EINPUT;
	}
	base_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (base_fd < 0) {
		snprintf(err, errlen, "-D %s: %s", dir, strerror(errno));
		return BE_EENV;
	}
	if (mkdirat(base_fd, "clients", 0777) && errno != EEXIST) {
		snprintf(err, errlen, "cannot create %s/clients: %s", dir,
			 strerror(errno));
		return BE_EENV;
	}
	clients_fd = openat(base_fd, "clients",
			    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (clients_fd < 0) {
		snprintf(err, errlen, "%s/clients: %s%s", dir,
			 strerror(errno),
			 errno == ELOOP || errno == ENOTDIR
				 ? " (refusing to work through a symlink or "
				   "file)"
				 : "");
		return errno == ELOOP || errno == ENOTDIR ? BE_EINPUT : BE_EENV;
	}
	no_openat2 = getenv("DBENCH_NG_NO_OPENAT2") != NULL ||
		     (opts && opts->no_openat2);
	if (!no_openat2) {
		fd = (int)syscall(SYS_openat2, clients_fd, ".", &how,
				  sizeof(how));
		if (fd >= 0)
			close(fd);
		else if (errno == ENOSYS)
			no_openat2 = true;
	}
	return 0;
}

static int fio_setup(struct be_client *cl)
{
	const struct program *p = cl->prog;
	struct fio_client *fc = calloc(1, sizeof(*fc));
	char buf[2048];
	size_t need = p->max_io ? p->max_io : 1;

	if (!fc)
		goto oom;
	cl->priv = fc;
	fc->dirs = calloc(p->ndirs, sizeof(char *));
	fc->bases = calloc(p->npaths, sizeof(char *));
	fc->dirfd = malloc(p->ndirs * sizeof(int));
	if (!fc->dirs || !fc->bases || !fc->dirfd)
		goto oom;
	for (uint32_t d = 0; d < p->ndirs; d++) {
		if (lf_subst_client(buf, sizeof(buf), p->dirs[d], cl->id) < 0)
			goto toolong;
		fc->dirs[d] = strdup(buf);
		fc->dirfd[d] = d ? -1 : clients_fd;
		if (!fc->dirs[d])
			goto oom;
	}
	for (uint32_t i = 0; i < p->npaths; i++) {
		if (lf_subst_client(buf, sizeof(buf), p->paths[i].base,
				    cl->id) < 0)
			goto toolong;
		fc->bases[i] = strdup(buf);
		if (!fc->bases[i])
			goto oom;
	}
	if (need > buflen) {
		free(wbuf);
		free(rbuf);
		wbuf = calloc(1, need);
		rbuf = malloc(need);
		if (!wbuf || !rbuf)
			goto oom;
		buflen = need;
	}
	return 0;
oom:
	be_fail(cl, NULL, "out of memory");
	return -1;
toolong:
	be_fail(cl, NULL, "a path is too long after naming the client");
	return -1;
}

static void fio_remove_tree(int id);

static void fio_cleanup(struct be_client *cl)
{
	struct fio_client *fc = cl->priv;

	if (fc)
		dir_drop_all(fc, cl->prog->ndirs);
	fio_remove_tree(cl->id);
}

/* Remove the tree of client @id (the engine released its handles). */
static void fio_remove_tree(int id)
{
	char name[32];
	int fd;

	snprintf(name, sizeof(name), "client%d", id);
	fd = openat(clients_fd, name,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		tree_clear(fd, 0, true);
		close(fd);
	}
	unlinkat(clients_fd, name, AT_REMOVEDIR);
}

static void fio_fini(struct be_run *run, const bool *dirty)
{
	struct stat st;
	char name[32];
	int left = 0, first = -1, why = 0;

	if (!fstat(clients_fd, &st) && !st.st_nlink) {
		fprintf(stderr, "dbench-ng: %s/clients was removed during the "
			"run (not by dbench-ng)\n", run->dir);
		return;
	}
	if (!dirty) /* --skip-cleanup: keep every tree */
		return;
	for (int i = 0; i < run->nclients; i++) {
		if (dirty[i])
			fio_remove_tree(i);
	}
	/* say so if a tree could not be removed (a read-only filesystem) */
	for (int i = 0; i < run->nclients; i++) {
		snprintf(name, sizeof(name), "client%d", i);
		if (fstatat(clients_fd, name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISDIR(st.st_mode))
			continue;
		if (!left++) {
			first = i;
			if (unlinkat(clients_fd, name, AT_REMOVEDIR))
				why = errno;
		}
	}
	if (left)
		fprintf(stderr, "dbench-ng: clean-up: %d client tree%s left in "
			"%s/clients (client%d: %s)\n", left,
			left > 1 ? "s" : "", run->dir, first, strerror(why));
	/* fails harmlessly if anything is left */
	unlinkat(base_fd, "clients", AT_REMOVEDIR);
}

static const struct be_option fio_options[] = {
	{
		.name = "no-openat2",
		.type = BE_OPT_FLAG,
		.offset = offsetof(struct fio_opts, no_openat2),
		.help = "no openat2: one component at a time (Linux < 5.6)",
	},
	{.name = NULL},
};

const struct backend backend_fileio = {
	.api = BACKEND_API_VERSION,
	.name = "fileio",
	.summary = "the local filesystem",
	.version = 1,
	.caps = BE_CAN_ALL | BE_USES_DIR,
	.options = fio_options,
	.opts_size = sizeof(struct fio_opts),
	.init = fio_init,
	.setup = fio_setup,
	.release = fio_release,
	.cleanup = fio_cleanup,
	.fini = fio_fini,
	.op =
		{
			[OP_NTCREATEX] = fio_ntcreatex,
			[OP_CLOSE] = fio_close,
			[OP_RENAME] = fio_rename,
			[OP_UNLINK] = fio_unlink,
			[OP_DELTREE] = fio_deltree,
			[OP_RMDIR] = fio_rmdir,
			[OP_MKDIR] = fio_mkdir,
			[OP_QPATHINFO] = fio_qpathinfo,
			[OP_QFILEINFO] = fio_qfileinfo,
			[OP_QFSINFO] = fio_qfsinfo,
			[OP_SFILEINFO] = fio_sfileinfo,
			[OP_FIND] = fio_find,
			[OP_WRITEX] = fio_writex,
			[OP_READX] = fio_readx,
			[OP_LOCKX] = fio_lockx,
			[OP_UNLOCKX] = fio_unlockx,
			[OP_FLUSH] = fio_flush,
		},
};
