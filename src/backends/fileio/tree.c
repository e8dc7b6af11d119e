/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tree.c - delete what lies below a directory fd (Deltree, and the
 * clean-up of a client's tree), never following a symlink, never entering
 * another mount.
 */
#include <dirent.h>
#include <errno.h>
#include <linux/openat2.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fileio.h"

/* Open the directory @name in @dfd: not a symlink, and not a mount point
 * (openat2 RESOLVE_NO_XDEV: also a bind mount of the same filesystem; on
 * kernels without openat2, a directory whose st_dev is not DIR/clients').
 * The fd, or -1 and errno (EXDEV for a mount). */
int subdir_open(int dfd, const char *name)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS |
			   RESOLVE_NO_XDEV,
	};
	struct stat st;
	int fd;

	if (!fileio_g.no_openat2)
		return (int)syscall(SYS_openat2, dfd, name, &how, sizeof(how));
	fd = openat(dfd, name, (int)how.flags);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || st.st_dev != fileio_g.clients_dev) {
		close(fd);
		errno = EXDEV;
		return -1;
	}
	return fd;
}

/* Delete the files below directory @fd, and with @rmdirs the directories
 * too.  Never follows a symlink (a link is removed, not its target), never
 * enters a mount point (what is mounted there stays, and the directory
 * with it: rmdir fails with EBUSY).  0, or the errno of the first
 * directory it could not open but for a mount point (EMFILE: no
 * descriptor left), which says why a tree is left. */
int tree_clear(int fd, int depth, bool rmdirs)
{
	char buf[4096];
	long n;
	int removed, why = 0;

	if (depth > MAX_DEPTH)
		return 0;
	for (int round = 0; round < 8; round++) {
		removed = 0;
		if (lseek(fd, 0, SEEK_SET) < 0)
			return why ? why : errno;
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
				sub = subdir_open(fd, name);
				if (sub >= 0) {
					int e = tree_clear(sub, depth + 1,
							   rmdirs);

					why = why ? why : e;
					close(sub);
				} else if (!why && errno != ENOENT &&
					   errno != EXDEV) {
					why = errno; /* a mount: rmdir says */
				}
				if (rmdirs)
					removed += !unlinkat(fd, name,
							     AT_REMOVEDIR);
			}
		}
		if (!removed)
			return why;
	}
	return why;
}
