/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * setup.c - the fileio backend's set-up and tear-down: DIR and
 * DIR/clients before the fork (init), a client's directory names and
 * buffers (setup), the removal of its tree (cleanup), and in the parent
 * what the clients could not remove (fini).
 */
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fileio.h"

/* May someone other than us (or root) change the directory @st is of?
 * A sticky one only if @sticky_ok.  Says so in @err. */
static bool others_may_write(const char *path, const struct stat *st,
			     bool sticky_ok, char *err, size_t errlen)
{
	/* in the run's own user namespace (mountns.c, a later run of
	 * --runs) root's files show as the overflow uid */
	if (st->st_uid != geteuid() && st->st_uid != 0 &&
	    !(fileio_g.userns && st->st_uid == fileio_g.overflow_uid)) {
		snprintf(err, errlen,
			 "%s belongs to uid %u, who could plant a symlink in "
			 "it",
			 path, (unsigned int)st->st_uid);
		return true;
	}
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) &&
	    !(sticky_ok && (st->st_mode & S_ISVTX))) {
		snprintf(err, errlen,
			 "%s is writable by group or others (mode %04o), who "
			 "could plant a symlink in it",
			 path, (unsigned int)(st->st_mode & 07777));
		return true;
	}
	return false;
}

/* Is @name in @dfd (its statx @stx) a mount point: the root of a mount
 * (STATX_ATTR_MOUNT_ROOT, Linux 5.8), or on another device? */
static bool mount_point(const struct statx *stx)
{
	if (stx->stx_attributes_mask & STATX_ATTR_MOUNT_ROOT)
		return stx->stx_attributes & STATX_ATTR_MOUNT_ROOT;
	return makedev(stx->stx_dev_major, stx->stx_dev_minor) !=
	       fileio_g.clients_dev;
}

/* Check directory @fd (@path, in a buffer of PATH_MAX) and below: no
 * mount point in it (-2, both modes), and with @full nothing another user
 * could change and no symlink (-1).  The reason in @err. */
static int check_level(int fd, char *path, size_t plen, int depth, bool full,
		       char *err, size_t errlen)
{
	struct statx stx;
	struct stat st;
	char buf[4096];
	long n;
	int rc = 0;

	if (fstat(fd, &st))
		return 0;
	if (full && others_may_write(path, &st, false, err, errlen))
		return -1;
	if (depth > MAX_DEPTH) {
		if (!full) /* as deep as the clean-up goes */
			return 0;
		snprintf(err, errlen, "%s: more than %d levels deep", path,
			 MAX_DEPTH);
		return -1;
	}
	while (!rc && (n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; !rc && off < n;) {
			struct linux_dirent64 *d = (void *)(buf + off);
			size_t nlen = strlen(d->d_name);
			int sub;

			off += d->d_reclen;
			if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
				continue;
			if (statx(fd, d->d_name, AT_SYMLINK_NOFOLLOW,
				  STATX_TYPE | STATX_MODE, &stx))
				continue; /* gone meanwhile */
			if (plen + 1 + nlen >= PATH_MAX) {
				if (!full) /* --paths dirfd: only mounts */
					continue;
				snprintf(err, errlen,
					 "%.200s...: path too long", path);
				return -1;
			}
			path[plen] = '/';
			memcpy(path + plen + 1, d->d_name, nlen + 1);
			if (mount_point(&stx)) {
				snprintf(err, errlen,
					 "%s is a mount point: dbench-ng never "
					 "works across a mount inside "
					 "DIR/clients (it would write and "
					 "delete in what is mounted there); "
					 "unmount it",
					 path);
				return -2;
			}
			if (full && S_ISLNK(stx.stx_mode)) {
				snprintf(err, errlen, "%s is a symbolic link",
					 path);
				return -1;
			}
			if (S_ISDIR(stx.stx_mode)) {
				sub = subdir_open(fd, d->d_name);
				if (sub < 0 && !full) {
					path[plen] = 0;
					continue;
				}
				if (sub < 0) {
					snprintf(err, errlen,
						 "%s cannot be read to check "
						 "it (%s)",
						 path, strerror(errno));
					return -1;
				}
				rc = check_level(sub, path, plen + 1 + nlen,
						 depth + 1, full, err, errlen);
				close(sub);
			}
			path[plen] = 0;
		}
	}
	return rc;
}

/* The end of a refusal of --paths full */
static int refuse_full(const char *why, char *err, size_t errlen)
{
	snprintf(err, errlen,
		 "%s: --paths full (the default) walks whole paths, as "
		 "dbench does, and would follow it; fix that, or run with "
		 "--paths dirfd",
		 why);
	return BE_EINPUT;
}

/*
 * --paths full names whole paths, and the kernel follows a symlink met
 * in the middle of one (only opens refuse it, with openat2).  So before
 * the run, refuse a DIR that others could change (a sticky one is fine),
 * a DIR/clients tree that anyone but us (or root) could write into, and a
 * symlink already in it: then only a process of ours or root's could
 * plant one during the run (README, "Safety").
 */
static int check_base(const char *dir, char *err, size_t errlen)
{
	char why[PATH_MAX + 200];
	struct stat st;

	if (!fstat(fileio_g.base_fd, &st) &&
	    others_may_write(dir, &st, true, why, sizeof(why)))
		return refuse_full(why, err, errlen);
	return 0;
}

/* Both modes: no mount point under DIR/clients (a clean-up or a Deltree
 * does not enter one, but the ops would write there); --paths full: what
 * check_base() says of DIR, for the tree. */
static int check_tree(const char *dir, char *err, size_t errlen)
{
	char path[PATH_MAX], why[PATH_MAX + 200];
	int rc;

	snprintf(path, sizeof(path), "%s/clients", dir);
	rc = check_level(fileio_g.clients_fd, path, strlen(path), 0,
			 fileio_g.full, why, sizeof(why));
	lseek(fileio_g.clients_fd, 0, SEEK_SET);
	if (rc == -2) {
		snprintf(err, errlen, "%s", why);
		return BE_EINPUT;
	}
	return rc ? refuse_full(why, err, errlen) : 0;
}

/* What the walks compare with: DIR/clients' device, whether it is a mount
 * of its own (ops_full.c's Deltree cannot then refuse every mount with
 * RESOLVE_NO_XDEV from DIR), and its name for dir_here() (dirs.c). */
static void clients_id(void)
{
	struct statx stx;
	struct stat st;
	char link[32];
	ssize_t n;

	if (!fstat(fileio_g.clients_fd, &st))
		fileio_g.clients_dev = st.st_dev;
	fileio_g.clients_mnt = !statx(fileio_g.clients_fd, "", AT_EMPTY_PATH,
				      STATX_TYPE, &stx) &&
			       mount_point(&stx);
	if (!fstat(fileio_g.base_fd, &st) && st.st_dev != fileio_g.clients_dev)
		fileio_g.clients_mnt = true;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fileio_g.clients_fd);
	n = readlink(link, fileio_g.clients_path,
		     sizeof(fileio_g.clients_path) - 1);
	if (n <= 0 || fileio_g.clients_path[0] != '/' ||
	    (size_t)n >= sizeof(fileio_g.clients_path) - 1)
		n = 0; /* no /proc: dir_here() says no, every time */
	fileio_g.clients_path[n] = 0;
	fileio_g.clients_plen = (size_t)n;
}

int fileio_init(struct be_run *run, char *err, size_t errlen)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH,
	};
	const struct fileio_opts *opts = run->opts;
	const char *dir = run->dir;
	struct stat st;
	bool made;
	int fd, rc;

	if (fileio_g.clients_fd >= 0) /* again for the next of --runs */
		close(fileio_g.clients_fd);
	if (fileio_g.base_fd >= 0)
		close(fileio_g.base_fd);
	fileio_g.clients_fd = fileio_g.base_fd = -1;
	if (stat(dir, &st)) {
		snprintf(err, errlen, "-D %s: %s", dir, strerror(errno));
		return BE_EINPUT;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "-D %s: not a directory", dir);
		return BE_EINPUT;
	}
	fileio_g.base_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fileio_g.base_fd < 0) {
		snprintf(err, errlen, "-D %s: %s", dir, strerror(errno));
		return BE_EENV;
	}
	fileio_g.full = !(run->req & BE_CAN_DIRFD);
	run->op = fileio_g.full ? fileio_ops_full : fileio_ops_dirfd;
	/* DIR first: nothing is created in a DIR that is refused */
	if (fileio_g.full && (rc = check_base(dir, err, errlen)))
		return rc;
	made = !mkdirat(fileio_g.base_fd, "clients", 0755);
	if (!made && errno != EEXIST) {
		snprintf(err, errlen, "cannot create %s/clients: %s", dir,
			 strerror(errno));
		return BE_EENV;
	}
	fileio_g.clients_fd =
		openat(fileio_g.base_fd, "clients",
		       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fileio_g.clients_fd < 0) {
		snprintf(err, errlen, "%s/clients: %s%s", dir, strerror(errno),
			 errno == ELOOP || errno == ENOTDIR
				 ? " (refusing to work through a symlink or "
				   "file)"
				 : "");
		return errno == ELOOP || errno == ENOTDIR ? BE_EINPUT : BE_EENV;
	}
	fileio_g.no_openat2 = getenv("DBENCH_NG_NO_OPENAT2") != NULL ||
			      (opts && opts->no_openat2);
	if (!fileio_g.no_openat2) {
		fd = (int)syscall(SYS_openat2, fileio_g.clients_fd, ".", &how,
				  sizeof(how));
		if (fd >= 0)
			close(fd);
		else if (errno == ENOSYS)
			fileio_g.no_openat2 = true;
	}
	clients_id();
	rc = check_tree(dir, err, errlen);
	/* checked as the user sees it; then into a namespace where DIR is
	 * nosymfollow (both fds opened anew there), or refused: then what
	 * this made is undone */
	if (!rc && fileio_g.full)
		rc = mountns_protect(run, err, errlen);
	if (rc && made)
		unlinkat(fileio_g.base_fd, "clients", AT_REMOVEDIR);
	clients_id();
	return rc;
}

/* --paths full: the whole path of every path and directory of the
 * program from DIR, which becomes the working directory; and no
 * directory created group- or world-writable (the start-up check).
 * 0, -ENOMEM, -ENAMETOOLONG, or -1 after be_fail(). */
static int setup_full(struct be_client *cl, struct fileio_client *fc)
{
	const struct program *p = cl->prog;
	char buf[2048 + 16], sub[2048];

	fc->fpath = calloc(p->npaths, sizeof(char *));
	fc->fparent = calloc(p->npaths, sizeof(char *));
	fc->fdir = calloc(p->ndirs, sizeof(char *));
	if (!fc->fpath || !fc->fparent || !fc->fdir)
		goto oom;
	for (uint32_t d = 0; d < p->ndirs; d++) {
		if (!d) {
			fc->fdir[d] = strdup("clients");
		} else {
			if (lf_subst_client(sub, sizeof(sub), p->dirs[d],
					    cl->id) < 0)
				goto toolong;
			if (snprintf(buf, sizeof(buf), "clients/%s", sub) >=
			    (int)sizeof(buf))
				goto toolong;
			fc->fdir[d] = strdup(buf);
		}
		if (!fc->fdir[d])
			goto oom;
	}
	for (uint32_t i = 0; i < p->npaths; i++) {
		const struct lf_path *pa = &p->paths[i];

		if (!strcmp(pa->full, ".")) { /* \clients itself, in DIR */
			fc->fpath[i] = strdup("clients");
			fc->fparent[i] = ".";
			free(fc->bases[i]);
			fc->bases[i] = strdup("clients");
			if (!fc->bases[i])
				goto oom;
		} else {
			if (lf_subst_client(sub, sizeof(sub), pa->full,
					    cl->id) < 0)
				goto toolong;
			if (snprintf(buf, sizeof(buf), "clients/%s", sub) >=
			    (int)sizeof(buf))
				goto toolong;
			fc->fpath[i] = strdup(buf);
			fc->fparent[i] = fc->fdir[pa->dir];
		}
		if (!fc->fpath[i])
			goto oom;
	}
	if (fchdir(fileio_g.base_fd)) {
		be_fail(cl, NULL, "cannot change into %s: %s", cl->run->dir,
			strerror(errno));
		return -1;
	}
	umask(umask(022) | 022);
	return 0;
oom:
	return -ENOMEM;
toolong:
	return -ENAMETOOLONG;
}

int fileio_setup(struct be_client *cl)
{
	const struct program *p = cl->prog;
	struct fileio_client *fc = calloc(1, sizeof(*fc));
	char buf[2048];
	int rc;

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
		fc->dirfd[d] = d ? -1 : fileio_g.clients_fd;
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
	rc = fileio_g.full ? setup_full(cl, fc) : 0;
	if (rc == -ENOMEM)
		goto oom;
	if (rc == -ENAMETOOLONG)
		goto toolong;
	if (rc)
		return rc;
	if (iobuf_grow(&fileio_g.io, p->max_io))
		goto oom;
	return 0;
oom:
	be_fail(cl, NULL, "out of memory");
	return -1;
toolong:
	be_fail(cl, NULL, "a path is too long after naming the client");
	return -1;
}

/* Remove the tree of client @id (the engine released its handles): 0,
 * or why a directory of it could not be opened (tree_clear). */
static int fileio_remove_tree(int id)
{
	char name[32];
	int fd, why = 0;

	snprintf(name, sizeof(name), "client%d", id);
	fd = subdir_open(fileio_g.clients_fd, name); /* not a mount */
	if (fd >= 0) {
		why = tree_clear(fd, 0, true);
		close(fd);
	} else if (errno != ENOENT && errno != EXDEV) {
		why = errno;
	}
	unlinkat(fileio_g.clients_fd, name, AT_REMOVEDIR);
	return why;
}

void fileio_cleanup(struct be_client *cl)
{
	struct fileio_client *fc = cl->priv;

	if (fc)
		dir_drop_all(fc, cl->prog->ndirs);
	(void)fileio_remove_tree(cl->id); /* the parent says it if left */
}

void fileio_orphaned(struct be_run *run)
{
	(void)run;
	/* fails harmlessly while another client's tree is left */
	unlinkat(fileio_g.base_fd, "clients", AT_REMOVEDIR);
}

void fileio_fini(struct be_run *run, const bool *dirty)
{
	struct stat st;
	char name[32];
	int left = 0, first = -1, why = 0, *open_err;

	/* shared with other hosts (dbench-ng-mpi), another host may have
	 * removed it, which is no news */
	if (!fstat(fileio_g.clients_fd, &st) && !st.st_nlink && !run->shared) {
		fprintf(stderr,
			"dbench-ng: %s/clients was removed during the "
			"run (not by dbench-ng)\n",
			run->dir);
		return;
	}
	if (!dirty) /* --skip-cleanup: keep every tree */
		return;
	/* the trees of the clients that did not clean up, and what is left
	 * of the others' (a client that ran out of descriptors, ulimit -n,
	 * left its tree; this process may have more to spare) */
	open_err = calloc((size_t)run->nclients, sizeof(*open_err));
	for (int i = 0; i < run->nclients; i++) {
		int e = fileio_remove_tree(run->first_id + i);

		if (open_err)
			open_err[i] = e;
	}
	/* say so if a tree could not be removed (a read-only filesystem) */
	for (int i = 0; i < run->nclients; i++) {
		snprintf(name, sizeof(name), "client%d", run->first_id + i);
		if (fstatat(fileio_g.clients_fd, name, &st,
			    AT_SYMLINK_NOFOLLOW) ||
		    !S_ISDIR(st.st_mode))
			continue;
		if (!left++) {
			first = run->first_id + i;
			/* a directory it could not open says more than
			 * rmdir's "not empty" (EMFILE: ulimit -n) */
			if (open_err && open_err[i])
				why = open_err[i];
			else if (unlinkat(fileio_g.clients_fd, name,
					  AT_REMOVEDIR))
				why = errno;
		}
	}
	free(open_err);
	if (left)
		fprintf(stderr,
			"dbench-ng: clean-up: %d client tree%s left in "
			"%s/clients (client%d: %s)\n",
			left, left > 1 ? "s" : "", run->dir, first,
			strerror(why));
	/* fails harmlessly if anything is left; shared, it is the run's
	 * to remove once every host is done (orphaned()) */
	if (!run->shared)
		unlinkat(fileio_g.base_fd, "clients", AT_REMOVEDIR);
}
