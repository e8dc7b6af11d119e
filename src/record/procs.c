/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * procs.c - the writer's copy of the traced processes: tasks, processes,
 * their descriptor tables (shared by CLONE_FILES, copied by fork, the
 * O_CLOEXEC ones closed by exec) and working directories, the open file
 * descriptions the descriptors name, and the resolution of a path given
 * to a call (absolute, from the working directory or from a directory
 * descriptor) into an absolute, normalised path.  Paths are resolved as
 * text: ".." goes up a name, symbolic links are not followed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "writer_impl.h"

static struct rproc *proc_new(struct rec_writer *w, int tgid)
{
	struct rproc *p = calloc(1, sizeof(*p));

	if (!p)
		goto oom;
	if (w->nallp == w->cap_allp) {
		size_t cap = w->cap_allp ? w->cap_allp * 2 : 64;
		struct rproc **v = realloc(w->allp, cap * sizeof(*v));

		if (!v)
			goto oom;
		w->allp = v;
		w->cap_allp = cap;
	}
	w->allp[w->nallp++] = p;
	p->tgid = tgid;
	if (intmap_put(&w->procs, tgid, p))
		goto oom;
	return p;
oom:
	free(p);
	w->oom = true;
	return NULL;
}

static struct rtask *task_new(struct rec_writer *w, int tid, struct rproc *p)
{
	struct rtask *t = intmap_get(&w->tasks, tid);

	if (t) { /* a stale task: its exit was not seen */
		if (t->p && t->p->threads > 0)
			t->p->threads--;
	} else {
		t = calloc(1, sizeof(*t));
		if (!t || intmap_put(&w->tasks, tid, t)) {
			free(t);
			w->oom = true;
			return NULL;
		}
	}
	t->tid = tid;
	t->p = p;
	p->threads++;
	return t;
}

static struct rfs *fs_new(const char *cwd)
{
	struct rfs *fs = calloc(1, sizeof(*fs));

	if (!fs)
		return NULL;
	fs->refs = 1;
	fs->cwd = cwd ? strdup(cwd) : NULL;
	return fs;
}

static void fs_unref(struct rfs *fs)
{
	if (fs && --fs->refs == 0) {
		free(fs->cwd);
		free(fs);
	}
}

static struct fdtab *ft_new(void)
{
	struct fdtab *ft = calloc(1, sizeof(*ft));

	if (ft)
		ft->refs = 1;
	return ft;
}

static struct fdtab *ft_copy(const struct fdtab *src)
{
	struct fdtab *ft = ft_new();

	if (!ft)
		return NULL;
	if (src->n) {
		ft->fds = calloc((size_t)src->n, sizeof(*ft->fds));
		if (!ft->fds) {
			free(ft);
			return NULL;
		}
		ft->n = src->n;
		memcpy(ft->fds, src->fds, (size_t)src->n * sizeof(*ft->fds));
		for (int i = 0; i < ft->n; i++)
			if (ft->fds[i].d)
				ft->fds[i].d->refs++;
	}
	return ft;
}

static void ft_unref(struct rec_writer *w, struct fdtab *ft)
{
	if (!ft || --ft->refs > 0)
		return;
	for (int i = 0; i < ft->n; i++) {
		struct rdesc *d = ft->fds[i].d;

		ft->fds[i].d = NULL;
		if (d)
			desc_unref(w, d);
	}
	free(ft->fds);
	free(ft);
}

/* the process ends: its descriptors are closed */
static void proc_end(struct rec_writer *w, struct rproc *p)
{
	if (!p->ft && !p->fs)
		return;
	intmap_del(&w->procs, p->tgid);
	ft_unref(w, p->ft);
	fs_unref(p->fs);
	p->ft = NULL;
	p->fs = NULL;
}

struct rproc *proc_of(struct rec_writer *w, const struct rec_ev *ev)
{
	struct rtask *t = intmap_get(&w->tasks, ev->pid);
	struct rproc *p;

	if (t && t->p && t->p->ft)
		return t->p;
	/* a task first seen: of a known process (BPF knows), or a new one */
	p = ev->tgid ? intmap_get(&w->procs, ev->tgid) : NULL;
	if (!p) {
		p = proc_new(w, ev->tgid ? ev->tgid : ev->pid);
		if (!p)
			return NULL;
		p->ft = ft_new();
		p->fs = fs_new(ev->cwd ? ev->cwd : w->cfg.initial_cwd);
		if (!p->ft || !p->fs) {
			w->oom = true;
			return NULL;
		}
	}
	if (!task_new(w, ev->pid, p))
		return NULL;
	return p;
}

void proc_fork(struct rec_writer *w, const struct rec_ev *ev)
{
	struct rproc *parent = proc_of(w, ev), *p;
	unsigned int fl = (unsigned int)ev->a[2];
	int child = (int)ev->a[0];

	if (!parent)
		return;
	if ((fl & REC_FORK_THREAD) ||
	    (ev->a[1] && ev->a[1] == parent->tgid)) {
		task_new(w, child, parent);
		return;
	}
	p = proc_new(w, ev->a[1] ? (int)ev->a[1] : child);
	if (!p)
		return;
	if (fl & REC_FORK_FILES) {
		p->ft = parent->ft;
		p->ft->refs++;
	} else {
		p->ft = ft_copy(parent->ft);
	}
	if (fl & REC_FORK_FS) {
		p->fs = parent->fs;
		p->fs->refs++;
	} else {
		p->fs = fs_new(parent->fs->cwd);
	}
	if (!p->ft || !p->fs) {
		w->oom = true;
		return;
	}
	task_new(w, child, p);
}

void proc_exit(struct rec_writer *w, const struct rec_ev *ev)
{
	struct rtask *t = intmap_get(&w->tasks, ev->pid);
	struct rproc *p;

	if (!t)
		return;
	p = t->p;
	intmap_del(&w->tasks, ev->pid);
	free(t);
	if (!p)
		return;
	if (p->threads > 0)
		p->threads--;
	if (ev->a[0] == 1 || p->threads == 0)
		proc_end(w, p);
}

void proc_exec(struct rec_writer *w, struct rproc *p)
{
	struct fdtab *ft = p->ft;

	if (ft->refs > 1) { /* exec unshares a table shared by CLONE_FILES */
		struct fdtab *c = ft_copy(ft);

		if (!c) {
			w->oom = true;
			return;
		}
		ft->refs--;
		p->ft = ft = c;
	}
	for (int i = 0; i < ft->n; i++)
		if (ft->fds[i].d && ft->fds[i].cloexec)
			fd_close(w, p, i);
}

void procs_free(struct rec_writer *w)
{
	for (size_t i = 0; i < w->tasks.cap; i++)
		free(w->tasks.val[i]);
	intmap_free(&w->tasks);
	for (size_t i = 0; i < w->nallp; i++) {
		proc_end(w, w->allp[i]);
		free(w->allp[i]);
	}
	free(w->allp);
	w->allp = NULL;
	w->nallp = w->cap_allp = 0;
	intmap_free(&w->procs);
}

struct fdent *fd_ent(struct rproc *p, int fd)
{
	if (!p || !p->ft || fd < 0 || fd >= p->ft->n || !p->ft->fds[fd].d)
		return NULL;
	return &p->ft->fds[fd];
}

struct rdesc *fd_get(struct rproc *p, int fd)
{
	struct fdent *e = fd_ent(p, fd);

	return e ? e->d : NULL;
}

int fdt_set(struct rec_writer *w, struct rproc *p, int fd, struct rdesc *d,
	   bool cloexec)
{
	struct fdtab *ft = p->ft;

	if (fd < 0 || fd > (1 << 24))
		return -1;
	if (fd >= ft->n) {
		int n = fd + 16;
		struct fdent *v = realloc(ft->fds, (size_t)n * sizeof(*v));

		if (!v) {
			w->oom = true;
			return -1;
		}
		memset(v + ft->n, 0, (size_t)(n - ft->n) * sizeof(*v));
		ft->fds = v;
		ft->n = n;
	}
	d->refs++;
	if (ft->fds[fd].d) /* dup2() over an open descriptor closes it */
		fd_close(w, p, fd);
	ft->fds[fd].d = d;
	ft->fds[fd].cloexec = cloexec;
	return 0;
}

void fd_close(struct rec_writer *w, struct rproc *p, int fd)
{
	struct fdent *e = fd_ent(p, fd);
	struct rdesc *d;

	if (!e)
		return;
	d = e->d;
	e->d = NULL;
	desc_unref(w, d);
}

struct rdesc *desc_new(struct rec_writer *w, const char *abs)
{
	struct rdesc *d = calloc(1, sizeof(*d));

	if (!d || !(d->path = strdup(abs))) {
		free(d);
		w->oom = true;
		return NULL;
	}
	d->node = NONE;
	d->slot = NONE;
	d->next = w->descs.next;
	d->prev = &w->descs;
	w->descs.next->prev = d;
	w->descs.next = d;
	return d;
}

void desc_unref(struct rec_writer *w, struct rdesc *d)
{
	if (--d->refs > 0)
		return;
	desc_released(w, d);
	d->prev->next = d->next;
	d->next->prev = d->prev;
	free(d->path);
	free(d);
}

/* @path (relative to @base, or absolute) as an absolute path without
 * ".", ".." or empty names; malloc'd, NULL out of memory */
char *path_norm(const char *base, const char *path)
{
	size_t bl = base && path[0] != '/' ? strlen(base) : 0;
	size_t cap = bl + strlen(path) + 3, n = 0;
	char *out = malloc(cap), *buf = malloc(cap), *s, *save = NULL;

	if (!out || !buf) {
		free(out);
		free(buf);
		return NULL;
	}
	snprintf(buf, cap, "%s/%s", bl ? base : "", path);
	out[0] = 0;
	for (s = strtok_r(buf, "/", &save); s; s = strtok_r(NULL, "/", &save)) {
		if (!strcmp(s, "."))
			continue;
		if (!strcmp(s, "..")) {
			char *slash = strrchr(out, '/');

			n = slash ? (size_t)(slash - out) : 0;
			out[n] = 0;
			continue;
		}
		n += (size_t)snprintf(out + n, cap - n, "/%s", s);
	}
	if (!n)
		strcpy(out, "/");
	free(buf);
	return out;
}

char *path_resolve(struct rec_writer *w, struct rproc *p, int dirfd,
		   const char *path, const char *fdpath)
{
	const char *base = NULL;
	char *r;

	if (!path)
		return NULL;
	if (path[0] != '/') {
		struct rdesc *d;

		if (dirfd == REC_AT_FDCWD)
			base = p->fs ? p->fs->cwd : NULL;
		else if ((d = fd_get(p, dirfd)))
			base = d->path;
		else
			base = fdpath && fdpath[0] == '/' ? fdpath : NULL;
		if (!base)
			return NULL;
	}
	r = path_norm(base, path);
	if (!r)
		w->oom = true;
	return r;
}

const char *under_root(const struct rec_writer *w, const char *abs)
{
	size_t n = w->rootlen;

	if (!abs)
		return NULL;
	if (!strcmp(abs, w->root))
		return "";
	if (n == 1) /* --root / */
		return abs + 1;
	if (!strncmp(abs, w->root, n) && abs[n] == '/')
		return abs + n + 1;
	return NULL;
}

/* @s, if it is @from or below it, with @from replaced by @to */
static char *moved(const char *s, const char *from, const char *to)
{
	size_t fl = strlen(from);
	char *r;

	if (!s || strncmp(s, from, fl) || (s[fl] && s[fl] != '/'))
		return NULL;
	r = malloc(strlen(to) + strlen(s + fl) + 1);
	if (r)
		sprintf(r, "%s%s", to, s + fl);
	return r;
}

void paths_renamed(struct rec_writer *w, const char *from, const char *to)
{
	char *m;

	for (struct rdesc *d = w->descs.next; d != &w->descs; d = d->next) {
		if ((m = moved(d->path, from, to))) {
			free(d->path);
			d->path = m;
		}
	}
	for (size_t i = 0; i < w->nallp; i++) {
		struct rfs *fs = w->allp[i]->fs;

		if (fs && (m = moved(fs->cwd, from, to))) {
			free(fs->cwd);
			fs->cwd = m;
		}
	}
}
