/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tree.c - delete what lies below a directory fd (Deltree, and the
 * clean-up of a client's tree), never following a symlink.
 */
#include <dirent.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fileio.h"

/* Delete the files below directory @fd, and with @rmdirs the directories
 * too.  Never follows a symlink: a link is removed, not its target. */
void tree_clear(int fd, int depth, bool rmdirs)
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
