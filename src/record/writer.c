/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * writer.c - the mapping of a recording: each event of rec_ev.h becomes
 * the loadfile lines that make the same calls reach the kernel when
 * dbench-ng's fileio backend replays them (docs/record.md, "The
 * mapping"), or a count in the trailer.  One open file description under
 * --root is one handle (fnum); a directory's NTCreateX waits until its
 * descriptor is closed or needs a handle: one that was only listed is
 * written as the FIND_FIRST that lists it, which opens and closes it.
 * Here: the helpers the calls share, the descriptor table's calls, the
 * dispatch and the writer's life; the calls on files are in
 * writer_files.c, those on names in writer_names.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ops.h"
#include "writer_impl.h"

uint32_t wr_line_index(struct rec_writer *w, const struct rline *l)
{
	return (uint32_t)(l - w->lines);
}

/* The NTCreateX of description @d: the line, or its placeholder */
void wr_open_line(struct ctx *c, struct rdesc *d, uint32_t path, int opts,
		      int disp, bool inherited)
{
	struct rec_writer *w = c->w;
	struct rline *l = line_add(w, inherited ? 0 : c->ts,
				   d->dir ? LN_PENDING : OP_NTCREATEX, 0);

	if (!l)
		return;
	l->path[0] = path;
	l->a[0] = opts;
	l->a[1] = disp;
	d->fnum = inherited ? FNUM_INHERIT + (int32_t)w->ninherit++
			    : fnum_get(w);
	l->fnum = d->fnum;
	l->head = inherited;
	d->slot = wr_line_index(w, l);
	d->pending = d->dir;
}

/* The handle of @d for a call that needs one (0: it has none) */
int32_t wr_handle(struct ctx *c, struct rdesc *d)
{
	struct rec_writer *w = c->w;

	if (d->slot == NONE) {
		tally(w, TK_NOTE,
		      "calls on a file whose path is too long for a loadfile",
		      1);
		return 0;
	}
	if (d->pending) {
		w->lines[d->slot].op = OP_NTCREATEX;
		d->pending = false;
	}
	return d->fnum;
}

static void close_line(struct rec_writer *w, struct rdesc *d)
{
	uint64_t ts = w->last_ts - w->t0;
	struct rline *l = line_add(w, ts < TS_LIMIT_NS ? ts : TS_LIMIT_NS,
				   OP_CLOSE, 0);

	if (l)
		l->fnum = d->fnum;
	if (w->closing)
		tally(w, TK_NOTE, w->closing, 1);
	if (d->fnum < FNUM_INHERIT)
		fnum_put(w, d->fnum);
}

void desc_released(struct rec_writer *w, struct rdesc *d)
{
	if (d->node == NONE || d->slot == NONE)
		return;
	if (d->pending && d->listed) {
		/* listed only: the Find opened and closed it */
		w->lines[d->slot].op = LN_DROPPED;
		if (d->fnum < FNUM_INHERIT)
			fnum_put(w, d->fnum);
		return;
	}
	if (d->pending)
		w->lines[d->slot].op = OP_NTCREATEX;
	close_line(w, d);
}


int64_t wr_size_now(const struct tnode *t)
{
	if (t->size >= 0)
		return t->size;
	return t->size_exact >= 0 ? t->size_exact : t->size_min;
}

bool wr_is_dir(const struct rec_writer *w, uint32_t n, uint32_t flags)
{
	return (flags & O_DIRECTORY) ||
	       (n != NONE && w->nodes[n].type == T_DIR);
}

static void inherit(struct ctx *c, int fd, const char *abs, uint32_t flags,
		    int64_t pos, const struct rec_ev *st)
{
	struct rec_writer *w = c->w;
	struct rdesc *d = desc_new(w, abs);
	const char *rel = under_root(w, abs);
	uint32_t n, path;

	if (!d)
		return;
	d->pos = pos;
	d->oflags = flags;
	if (fdt_set(w, c->p, fd, d, flags & O_CLOEXEC)) {
		d->refs = 1;
		desc_unref(w, d);
		return;
	}
	if (!rel)
		return;
	n = tree_node(w, rel);
	tree_seen(w, n, true, (flags & O_DIRECTORY) ? T_DIR : T_UNKNOWN);
	if (st && (st->flags & REC_EV_STAT))
		tree_stat(w, n, st->st_mode, st->st_size);
	d->node = n;
	d->dir = wr_is_dir(w, n, flags);
	path = lpath(w, rel);
	if (path == NONE)
		return;
	wr_open_line(c, d, path, d->dir ? NT_DIR : NT_NONDIR, 1, true);
	tally(w, TK_NOTE,
	      "descriptors open before the trace began, opened at its start "
	      "(positions unknown are taken as 0)",
	      1);
}

struct rdesc *wr_desc(struct ctx *c, int fd, const char *fdpath)
{
	struct rdesc *d = fd_get(c->p, fd);
	const char *name = c->ev->name;

	if (!d && fdpath && fdpath[0] == '/') {
		inherit(c, fd, fdpath, 0, 0, NULL);
		d = fd_get(c->p, fd);
	}
	if (!d) {
		tally(c->w, fdpath ? TK_NOTFILE : TK_UNKNOWNFD, name, 1);
		return NULL;
	}
	if (d->node == NONE) {
		tally(c->w, TK_NOTFILE, name, 1);
		return NULL;
	}
	return d;
}

/* the absolute path of a call's (dirfd, path), counted when unknown */
char *wr_path(struct ctx *c, int dirfd, const char *path,
		     const char *fdpath)
{
	char *abs;

	if (c->ev->flags & REC_EV_BADPATH) {
		tally(c->w, TK_NOTE,
		      "calls whose path could not be read or was cut "
		      "(not replayed)",
		      1);
		return NULL;
	}
	abs = path_resolve(c->w, c->p, dirfd, path, fdpath);
	if (!abs && path)
		tally(c->w, TK_NOTE,
		      "calls on a relative path from an unknown directory "
		      "(not replayed)",
		      1);
	return abs;
}

/* The loadfile path of @rel, counted when a loadfile cannot hold it */
uint32_t wr_lpath(struct ctx *c, const char *rel)
{
	uint32_t p = lpath(c->w, rel);

	if (p == NONE)
		tally(c->w, TK_NOTE,
		      "calls on a path too long for a loadfile (not replayed)",
		      1);
	return p;
}

/* A line on a path: Qpathinfo, Unlink, Rmdir, Mkdir, Qfsinfo */
struct rline *wr_path_line(struct ctx *c, int op, const char *rel)
{
	uint32_t p = wr_lpath(c, rel);
	struct rline *l;

	if (p == NONE)
		return NULL;
	l = line_add(c->w, c->ts, op, c->ev->ret);
	if (l)
		l->path[0] = p;
	return l;
}

void wr_outside(struct ctx *c, const char *abs)
{
	struct rec_writer *w = c->w;
	struct rec_outside *o;

	tally(w, TK_OUTSIDE, c->ev->name, 1);
	w->outside_calls++;
	for (unsigned int i = 0; i < w->noutside; i++)
		if (!strcmp(w->outside[i].path, abs))
			return;
	if (w->noutside == REC_OUTSIDE_MAX)
		return;
	o = &w->outside[w->noutside];
	o->path = strdup(abs);
	if (!o->path) {
		w->oom = true;
		return;
	}
	o->call = c->ev->name;
	o->line = c->ev->line;
	o->pid = c->ev->pid;
	o->ts_ns = c->ts;
	w->noutside++;
}

unsigned int rec_writer_outside(const struct rec_writer *w,
				const struct rec_outside **v, uint64_t *total)
{
	*v = w->outside;
	*total = w->outside_calls;
	return w->noutside;
}

bool wr_errno_in(int64_t ret, const int *errs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (-ret == errs[i])
			return true;
	return false;
}

static void on_dup(struct ctx *c)
{
	const struct rec_ev *ev = c->ev;
	struct rdesc *d = fd_get(c->p, ev->fd);

	if (ev->ret < 0)
		return;
	if (!d && ev->fdpath && ev->fdpath[0] == '/') {
		inherit(c, ev->fd, ev->fdpath, 0, 0, NULL);
		d = fd_get(c->p, ev->fd);
	}
	if (d)
		fdt_set(c->w, c->p, (int)ev->ret, d, ev->a[1] != 0);
	else
		fd_close(c->w, c->p, (int)ev->ret); /* unknown, over it */
}

static void on_chdir(struct ctx *c)
{
	const struct rec_ev *ev = c->ev;
	struct rdesc *d;
	char *abs = NULL;

	if (ev->ret < 0)
		return;
	if (ev->path) {
		abs = wr_path(c, ev->fd, ev->path, ev->fdpath);
	} else if ((d = fd_get(c->p, ev->fd))) {
		abs = strdup(d->path);
	}
	if (!abs || !c->p->fs)
		return free(abs);
	free(c->p->fs->cwd);
	c->p->fs->cwd = abs;
}

static void on_inherit(struct ctx *c)
{
	const struct rec_ev *ev = c->ev;

	if (!ev->path || ev->fd < 0)
		return;
	fd_close(c->w, c->p, ev->fd);
	inherit(c, ev->fd, ev->path, (uint32_t)ev->a[0], ev->a[1], ev);
}

static void on_fd_table(struct ctx *c)
{
	const struct rec_ev *ev = c->ev;
	struct fdent *e = fd_ent(c->p, ev->fd);

	switch (ev->kind) {
	case RK_CLOSE:
		if (e)
			fd_close(c->w, c->p, ev->fd);
		break;
	case RK_LSEEK:
		if (e && ev->ret >= 0) {
			if (e->d->dir && ev->ret == 0)
				e->d->listing = false; /* rewinddir() */
			e->d->pos = ev->ret;
			if (e->d->node != NONE)
				tally(c->w, TK_NOTE,
				      "lseek calls, folded into the offsets of "
				      "ReadX and WriteX",
				      1);
		}
		break;
	case RK_SETFD:
		if (e && !ev->ret)
			e->cloexec = ev->a[0] != 0;
		break;
	case RK_SETFL:
		if (e && !ev->ret)
			e->d->oflags = (e->d->oflags & ~(uint32_t)O_APPEND) |
				       ((uint32_t)ev->a[0] & O_APPEND);
		break;
	default:
		break;
	}
}

void rec_writer_event(struct rec_writer *w, const struct rec_ev *ev)
{
	struct ctx c = {w, ev, NULL, ts_of(w, ev)};

	w->sum.events++;
	if (ev->kind == RK_FORK)
		return proc_fork(w, ev);
	if (ev->kind == RK_EXIT) {
		w->closing = "descriptors closed by the exit of their "
			     "process, written as Close";
		proc_exit(w, ev);
		w->closing = NULL;
		return;
	}
	c.p = proc_of(w, ev);
	if (!c.p || !c.p->fs)
		return;
	if (ev->cwd && ev->cwd[0] == '/' &&
	    (!c.p->fs->cwd || strcmp(c.p->fs->cwd, ev->cwd))) {
		char *cwd = path_norm(NULL, ev->cwd);

		if (cwd) {
			free(c.p->fs->cwd);
			c.p->fs->cwd = cwd;
		}
	}
	switch (ev->kind) {
	case RK_OPEN:
		return wr_on_open(&c);
	case RK_CLOSE:
	case RK_LSEEK:
	case RK_SETFD:
	case RK_SETFL:
		return on_fd_table(&c);
	case RK_READ:
	case RK_WRITE:
		return wr_on_rw(&c);
	case RK_FSYNC:
		return wr_on_fd_info(&c, OP_FLUSH);
	case RK_DUP:
		return on_dup(&c);
	case RK_LOCK:
		return wr_on_lock(&c);
	case RK_RENAME:
		return wr_on_rename(&c);
	case RK_UNLINK:
	case RK_RMDIR:
	case RK_MKDIR:
		return wr_on_path(&c);
	case RK_STAT:
	case RK_STATFS:
		if (ev->path)
			return wr_on_path(&c);
		return wr_on_fd_info(&c, ev->kind == RK_STAT ? OP_QFILEINFO
							  : OP_QFSINFO);
	case RK_UTIMES:
		if (ev->path)
			return wr_on_utimes_path(&c);
		return wr_on_fd_info(&c, OP_SFILEINFO);
	case RK_GETDENTS:
		return wr_on_getdents(&c);
	case RK_CHDIR:
		return on_chdir(&c);
	case RK_TRUNCATE:
		return wr_on_truncate(&c);
	case RK_EXEC:
		if (ev->ret >= 0) {
			w->closing = "descriptors closed by exec "
				     "(O_CLOEXEC), written as Close";
			proc_exec(w, c.p);
			w->closing = NULL;
		}
		return;
	case RK_INHERIT:
		return on_inherit(&c);
	case RK_CWD:
		if (ev->path && ev->path[0] == '/') {
			free(c.p->fs->cwd);
			c.p->fs->cwd = path_norm(NULL, ev->path);
		}
		return;
	case RK_OTHER:
		return wr_on_other(&c);
	default:
		return;
	}
}

struct rec_writer *rec_writer_new(const struct rec_writer_cfg *cfg)
{
	struct rec_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->cfg = *cfg;
	w->root = path_norm(NULL, cfg->root ? cfg->root : "/");
	if (!w->root) {
		free(w);
		return NULL;
	}
	w->rootlen = strlen(w->root);
	w->descs.next = w->descs.prev = &w->descs;
	w->next_fnum = 1;
	return w;
}

void rec_writer_lost(struct rec_writer *w, uint64_t n, const char *why)
{
	w->sum.lost += n;
	if (n)
		tally(w, TK_NOTE, why, n);
}

void rec_writer_count(struct rec_writer *w, const char *what, uint64_t n)
{
	if (n)
		tally(w, TK_NOTE, what, n);
}

void rec_writer_no_timestamps(struct rec_writer *w)
{
	w->cfg.no_timestamps = true;
}

void rec_writer_finish(struct rec_writer *w)
{
	w->closing = "descriptors still open when the trace ended, "
		     "written as Close";
	for (size_t i = 0; i < w->nallp; i++) {
		struct rproc *p = w->allp[i];

		if (p->ft) {
			struct fdtab *ft = p->ft;

			for (int fd = 0; fd < ft->n; fd++)
				fd_close(w, p, fd);
		}
	}
	w->closing = NULL;
}

unsigned int rec_writer_live(const struct rec_writer *w)
{
	unsigned int n = 0;

	for (size_t i = 0; i < w->nallp; i++)
		n += w->allp[i]->ft != NULL;
	return n;
}

void rec_writer_summary(const struct rec_writer *w, struct rec_summary *s)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < w->nlines; i++)
		n += w->lines[i].op < OP_NR;
	*s = w->sum;
	s->lines = n;
}

void rec_writer_free(struct rec_writer *w)
{
	if (!w)
		return;
	procs_free(w);
	while (w->descs.next != &w->descs) { /* left by an early stop */
		struct rdesc *d = w->descs.next;

		d->prev->next = d->next;
		d->next->prev = d->prev;
		free(d->path);
		free(d);
	}
	tree_free(w);
	lines_free(w);
	for (unsigned int i = 0; i < w->noutside; i++)
		free(w->outside[i].path);
	free(w->root);
	free(w);
}
