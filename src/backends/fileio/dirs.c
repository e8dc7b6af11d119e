/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * dirs.c - the fileio backend's directory cache: every directory of the
 * program opened beneath DIR/clients (openat2 RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV, or one component at a time with
 * O_NOFOLLOW and the same st_dev), kept open, dropped after a Rename or
 * Rmdir of it, and looked up again when someone else removed or moved it;
 * the case-insensitive scan, the -x read.
 */
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "fileio.h"

/* Open directory @rel beneath DIR/clients, never through a symlink or
 * into another mount; -errno on failure. */
static int open_beneath(const char *rel)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
	};
	char comp[256];
	const char *s = rel, *e;
	int fd, nfd;

	if (!fileio_g.no_openat2) {
		fd = (int)syscall(SYS_openat2, fileio_g.clients_fd, rel, &how,
				  sizeof(how));
		return fd < 0 ? -errno : fd;
	}
	/* fallback: one component at a time, never following a symlink */
	fd = dup(fileio_g.clients_fd);
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
		nfd = subdir_open(fd, comp); /* the same st_dev */
		close(fd);
		if (nfd < 0)
			return -errno;
		fd = nfd;
		s = *e ? e + 1 : e;
	}
	return fd;
}

static void dir_drop(struct fileio_client *fc, uint32_t d)
{
	if (d && fc->dirfd[d] >= 0) {
		close(fc->dirfd[d]);
		fc->dirfd[d] = -1;
	}
}

void dir_drop_all(struct fileio_client *fc, uint32_t ndirs)
{
	for (uint32_t d = 1; d < ndirs; d++)
		dir_drop(fc, d);
}

/* dir_get()'s slow path: open directory @d and cache its fd. */
int dir_open(struct be_client *cl, uint32_t d)
{
	struct fileio_client *fc = cl->priv;
	int fd;

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
bool dir_stale(struct be_client *cl, uint32_t d)
{
	struct fileio_client *fc = cl->priv;
	struct stat st;

	if (!d || fc->dirfd[d] < 0 || fstat(fc->dirfd[d], &st) || st.st_nlink)
		return false;
	dir_drop(fc, d);
	return true;
}

/* Is the cached fd of directory @d still where it was opened, at
 * DIR/clients/<its name>?  The kernel's name of the fd (the readlink of
 * /proc/self/fd/N) follows a rename of it or of any directory above it,
 * and ends in " (deleted)" once it is removed.  If not, forget it: the
 * next open looks the name up beneath DIR/clients, and a directory moved
 * out of the tree is not found there. */
bool dir_here(struct be_client *cl, uint32_t d)
{
	struct fileio_client *fc = cl->priv;
	size_t plen = fileio_g.clients_plen, nlen;
	char link[32], now[sizeof(fileio_g.clients_path) + 1100];
	const char *name = fc->dirs[d];
	ssize_t n;

	if (plen) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fc->dirfd[d]);
		n = readlink(link, now, sizeof(now));
		nlen = strlen(name);
		if (n == (ssize_t)(plen + 1 + nlen) &&
		    !memcmp(now, fileio_g.clients_path, plen) &&
		    now[plen] == '/' && !memcmp(now + plen + 1, name, nlen))
			return true;
	}
	dir_drop(fc, d);
	return false;
}

/* After a successful Rename or Rmdir of path @pi: forget the cached
 * directories at or below it. */
void dir_invalidate(struct be_client *cl, uint32_t pi)
{
	const struct lf_path *pa = &cl->prog->paths[pi];

	for (uint32_t i = 0; i < pa->ninval; i++)
		dir_drop(cl->priv, cl->prog->inval[pa->inval + i]);
}

/* readdir() of @fd in @len-byte getdents64 calls into @buf until a name
 * equal to @name but for case, or the end (both modes' lookups) */
void dents_find_icase(int fd, char *buf, size_t len, const char *name)
{
	long n;

	while ((n = syscall(SYS_getdents64, fd, buf, len)) > 0) {
		for (long off = 0; off < n;) {
			struct linux_dirent64 *d = (void *)(buf + off);

			if (!strcasecmp(d->d_name, name))
				return;
			off += d->d_reclen;
		}
	}
}

/* readdir() of @fd as above until @count entries are consumed, or the end
 * (both modes' Find) */
void dents_skip(int fd, char *buf, size_t len, int64_t count)
{
	long n;

	while (count > 0 && (n = syscall(SYS_getdents64, fd, buf, len)) > 0) {
		for (long off = 0; off < n && count > 0; count--)
			off += ((struct linux_dirent64 *)(buf + off))->d_reclen;
	}
}

/* Case-insensitive search for @name in directory @fd, as Samba does on a
 * miss.  The result is not used: the cost is what dbench emulates. */
void scan_icase(int fd, const char *name)
{
	if (lseek(fd, 0, SEEK_SET) < 0)
		return;
	dents_find_icase(fd, fileio_g.dents, sizeof(fileio_g.dents), name);
}

/* Read the DOS attribute xattr of @base in @dfd (-x). */
void xattr_read_at(int dfd, const char *base)
{
	char path[64 + 256], val[DOS_ATTR_LEN];

	snprintf(path, sizeof(path), "/proc/self/fd/%d/%s", dfd, base);
	lgetxattr(path, DOS_ATTR, val, sizeof(val));
}

void sync_dir(struct be_client *cl, uint32_t pi)
{
	int fd = dir_peek(cl, cl->prog->paths[pi].dir);

	if (fd >= 0)
		fdatasync(fd);
}
