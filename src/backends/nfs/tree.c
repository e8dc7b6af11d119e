/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tree.c - walks of a directory tree on the export, through READDIRPLUS
 * (nfs_opendir reads the whole directory, with each entry's attributes):
 * the removal of Deltree and of the clean-up, and the start-up check of
 * EXPORT/clients.  A symlink is never followed: it is removed, or the
 * check refuses it.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "nfs.h"

/* The mode of entry @e of directory @path (at @plen, the entry's name
 * already appended): from READDIRPLUS, or a stat if the server sent no
 * attributes; 0 if it cannot tell (gone meanwhile). */
static unsigned int entry_mode(struct nfs_context *nfs, struct nfsdirent *e,
			       const char *path, int *rc)
{
	struct nfs_stat_64 st;

	*rc = 0;
	if (e->mode & S_IFMT)
		return e->mode;
	*rc = nfs_lstat64(nfs, path, &st);
	return *rc ? 0 : (unsigned int)st.nfs_mode;
}

static bool dot(const char *n)
{
	return n[0] == '.' && (!n[1] || (n[1] == '.' && !n[2]));
}

int nfsb_tree_clear(struct nfs_context *nfs, char *path, size_t plen, int depth,
		    bool rmdirs)
{
	struct nfsdirent *e;
	struct nfsdir *d;
	int rc;

	if (depth > NFSB_MAX_DEPTH)
		return 0;
	if (!depth) { /* nfs_opendir follows a symlink: the top is checked,
		       * the entries below by their type */
		struct nfs_stat_64 st;

		rc = nfs_lstat64(nfs, path, &st);
		if (rc || !S_ISDIR(st.nfs_mode))
			return rc && nfsb_rpc_failed(nfs, rc) ? rc : 0;
	}
	rc = nfs_opendir(nfs, path, &d);
	if (rc)
		return nfsb_rpc_failed(nfs, rc) ? rc : 0;
	while ((e = nfs_readdir(nfs, d))) {
		size_t nlen = strlen(e->name);
		unsigned int mode;

		if (dot(e->name) || plen + 1 + nlen >= NFSB_PATH_BUF)
			continue;
		path[plen] = '/';
		memcpy(path + plen + 1, e->name, nlen + 1);
		mode = entry_mode(nfs, e, path, &rc);
		if (!rc && S_ISDIR(mode)) {
			rc = nfsb_tree_clear(nfs, path, plen + 1 + nlen,
					     depth + 1, rmdirs);
			if (!rc && rmdirs)
				rc = nfs_rmdir(nfs, path);
		} else if (!rc) {
			rc = nfs_unlink(nfs, path); /* a link itself */
		}
		path[plen] = 0;
		if (rc && nfsb_rpc_failed(nfs, rc))
			break;
		rc = 0;
	}
	nfs_closedir(nfs, d);
	return rc;
}

/* What a mode is, for the refusal */
static const char *kind(unsigned int mode)
{
	return S_ISLNK(mode)	? "a symbolic link"
	       : S_ISFIFO(mode) ? "a fifo"
	       : S_ISCHR(mode)	? "a character device"
	       : S_ISBLK(mode)	? "a block device"
	       : S_ISSOCK(mode) ? "a socket"
				: "a special file";
}

/*
 * The nfs backend names whole paths from the export, and libnfs follows a
 * symlink in the middle of one (only opens refuse it, O_NOFOLLOW); a file
 * with a second hard link shares its data with a name that may be outside
 * EXPORT/clients.  So before the run, refuse a tree that has either, or a
 * fifo, a device or a socket: then only a process of ours, or someone
 * writing to the export during the run, could plant one.  BE_EINPUT with
 * why in @err, or 0.
 */
int nfsb_tree_check(struct nfs_context *nfs, char *path, size_t plen, int depth,
		    char *err, size_t errlen)
{
	struct nfsdirent *e;
	struct nfsdir *d;
	int rc, bad = 0;

	rc = nfs_opendir(nfs, path, &d);
	if (rc) {
		snprintf(err, errlen, "%s%s cannot be read to check it: %s",
			 nfsb_g.shown, path, nfs_get_error(nfs));
		return BE_EENV;
	}
	while (!bad && (e = nfs_readdir(nfs, d))) {
		size_t nlen = strlen(e->name);
		unsigned int mode;

		if (dot(e->name))
			continue;
		if (plen + 1 + nlen >= NFSB_PATH_BUF ||
		    depth >= NFSB_MAX_DEPTH) {
			snprintf(err, errlen,
				 "%s%s: more than %d levels deep "
				 "or a path too long",
				 nfsb_g.shown, path, NFSB_MAX_DEPTH);
			bad = BE_EINPUT;
			break;
		}
		path[plen] = '/';
		memcpy(path + plen + 1, e->name, nlen + 1);
		mode = entry_mode(nfs, e, path, &rc);
		if (rc) {
			path[plen] = 0;
			continue; /* gone meanwhile */
		}
		if (S_ISDIR(mode)) {
			bad = nfsb_tree_check(nfs, path, plen + 1 + nlen,
					      depth + 1, err, errlen);
		} else if (S_ISREG(mode) && e->nlink > 1) {
			snprintf(err, errlen,
				 "%s%s has %u hard links (they may "
				 "reach outside clients/): remove it",
				 nfsb_g.shown, path, e->nlink);
			bad = BE_EINPUT;
		} else if (!S_ISREG(mode)) {
			snprintf(err, errlen,
				 "%s%s is %s: the nfs backend names "
				 "whole paths and does not work through one; "
				 "remove it",
				 nfsb_g.shown, path, kind(mode));
			bad = BE_EINPUT;
		}
		path[plen] = 0;
	}
	nfs_closedir(nfs, d);
	return bad;
}
