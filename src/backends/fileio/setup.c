/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * setup.c - the fileio backend's set-up and tear-down: DIR and
 * DIR/clients before the fork (init), a client's directory names and
 * buffers (setup), the removal of its tree (cleanup), and in the parent
 * what the clients could not remove (fini).
 */
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fileio.h"

int fileio_init(struct be_run *run, char *err, size_t errlen)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH,
	};
	const struct fileio_opts *opts = run->opts;
	const char *dir = run->dir;
	struct stat st;
	int fd;

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
	if (mkdirat(fileio_g.base_fd, "clients", 0777) && errno != EEXIST) {
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
	return 0;
}

int fileio_setup(struct be_client *cl)
{
	const struct program *p = cl->prog;
	struct fileio_client *fc = calloc(1, sizeof(*fc));
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
	if (need > fileio_g.buflen) {
		free(fileio_g.wbuf);
		free(fileio_g.rbuf);
		fileio_g.wbuf = calloc(1, need);
		fileio_g.rbuf = malloc(need);
		if (!fileio_g.wbuf || !fileio_g.rbuf)
			goto oom;
		fileio_g.buflen = need;
	}
	return 0;
oom:
	be_fail(cl, NULL, "out of memory");
	return -1;
toolong:
	be_fail(cl, NULL, "a path is too long after naming the client");
	return -1;
}

/* Remove the tree of client @id (the engine released its handles). */
static void fileio_remove_tree(int id)
{
	char name[32];
	int fd;

	snprintf(name, sizeof(name), "client%d", id);
	fd = openat(fileio_g.clients_fd, name,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		tree_clear(fd, 0, true);
		close(fd);
	}
	unlinkat(fileio_g.clients_fd, name, AT_REMOVEDIR);
}

void fileio_cleanup(struct be_client *cl)
{
	struct fileio_client *fc = cl->priv;

	if (fc)
		dir_drop_all(fc, cl->prog->ndirs);
	fileio_remove_tree(cl->id);
}

void fileio_fini(struct be_run *run, const bool *dirty)
{
	struct stat st;
	char name[32];
	int left = 0, first = -1, why = 0;

	if (!fstat(fileio_g.clients_fd, &st) && !st.st_nlink) {
		fprintf(stderr,
			"dbench-ng: %s/clients was removed during the "
			"run (not by dbench-ng)\n",
			run->dir);
		return;
	}
	if (!dirty) /* --skip-cleanup: keep every tree */
		return;
	for (int i = 0; i < run->nclients; i++) {
		if (dirty[i])
			fileio_remove_tree(i);
	}
	/* say so if a tree could not be removed (a read-only filesystem) */
	for (int i = 0; i < run->nclients; i++) {
		snprintf(name, sizeof(name), "client%d", i);
		if (fstatat(fileio_g.clients_fd, name, &st,
			    AT_SYMLINK_NOFOLLOW) ||
		    !S_ISDIR(st.st_mode))
			continue;
		if (!left++) {
			first = i;
			if (unlinkat(fileio_g.clients_fd, name, AT_REMOVEDIR))
				why = errno;
		}
	}
	if (left)
		fprintf(stderr, "dbench-ng: clean-up: %d client tree%s left in "
			"%s/clients (client%d: %s)\n", left,
			left > 1 ? "s" : "", run->dir, first, strerror(why));
	/* fails harmlessly if anything is left */
	unlinkat(fileio_g.base_fd, "clients", AT_REMOVEDIR);
}
