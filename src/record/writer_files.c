/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * writer_files.c - the calls of a recording on open files: open (the
 * NTCreateX with the disposition and options that reproduce it, or the
 * line that fails as the call failed), read and write (ReadX and WriteX
 * at the offset the writer follows, cut to the parser's 16 MiB), locks,
 * fsync, fstat, fstatfs and futimens (Flush, Qfileinfo, Qfsinfo,
 * Sfileinfo), getdents (the FIND_FIRST of the listing), ftruncate and
 * fallocate.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ops.h"
#include "writer_impl.h"

static void open_failed(struct ctx *c, const char *rel, uint32_t flags)
{
	static const int again[] = {ENOENT, ENOTDIR};
	const struct rec_ev *ev = c->ev;
	struct rec_writer *w = c->w;
	uint32_t n = tree_node(w, rel), p;
	struct rline *l;

	if (ev->ret == -ENOENT)
		tree_seen(w, n, false, T_UNKNOWN);
	if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL) &&
	    ev->ret == -EEXIST) {
		tree_seen(w, n, true, T_UNKNOWN);
		l = wr_path_line(c, OP_QPATHINFO, rel);
		if (l) {
			l->status = 0;
			l->a[0] = LEVEL_BASIC;
		}
		tally(w, TK_NOTE,
		      "exclusive creates that found the name taken, written as "
		      "QUERY_PATH_INFORMATION (a replay cannot fail them)",
		      1);
		return;
	}
	if (!wr_errno_in(ev->ret, again, 2)) {
		tally(w, TK_FAILED, ev->name, 1);
		return;
	}
	p = wr_lpath(c, rel);
	l = p == NONE ? NULL : line_add(w, c->ts, OP_NTCREATEX, ev->ret);
	if (!l)
		return;
	l->path[0] = p;
	if (ev->ret == -ENOTDIR && (flags & O_DIRECTORY)) {
		l->a[0] = NT_DIR; /* the replay's open of a file as a dir */
		l->a[1] = 1;
	} else {
		l->a[0] = (flags & O_DIRECTORY) ? 0 : NT_NONDIR;
		l->a[1] = (flags & O_CREAT) ? 2 : 1;
	}
}

/* the tree after a successful open of @rel; its node */
static uint32_t opened(struct rec_writer *w, const char *rel, uint32_t flags)
{
	uint32_t n = tree_node(w, rel);
	struct tnode *t;

	if (n == NONE)
		return NONE;
	t = &w->nodes[n];
	if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL)) {
		n = tree_create(w, rel, T_FILE);
	} else if (flags & O_CREAT) {
		if (!t->exists && t->before != NB_UNKNOWN) {
			n = tree_create(w, rel, T_FILE); /* it made it */
		} else if (!t->exists) {
			/* made or found: unknown until its content shows */
			t->exists = true;
			t->type = T_FILE;
			tree_parents(w, rel);
		}
	} else {
		tree_seen(w, n, true,
			  (flags & O_DIRECTORY) ? T_DIR : T_UNKNOWN);
	}
	if (n != NONE && (flags & O_TRUNC) && !(flags & O_DIRECTORY))
		tree_truncate(w, n, 0);
	return n;
}

void wr_on_open(struct ctx *c)
{
	const struct rec_ev *ev = c->ev;
	struct rec_writer *w = c->w;
	uint32_t flags = (uint32_t)ev->a[0], n, p;
	char *abs = wr_path(c, ev->fd, ev->path, ev->fdpath);
	const char *rel = under_root(w, abs);
	struct rdesc *d;
	int disp, opts;

	if (ev->ret < 0) {
		if (rel)
			open_failed(c, rel, flags);
		else if (abs)
			wr_outside(c, abs);
		free(abs);
		return;
	}
	d = desc_new(w, abs ? abs : "");
	if (!d || fdt_set(w, c->p, (int)ev->ret, d, flags & O_CLOEXEC)) {
		free(abs);
		return;
	}
	d->oflags = flags;
	if ((flags & O_TMPFILE) == O_TMPFILE) {
		tally(w, TK_NOTE,
		      "O_TMPFILE files (unnamed: their calls are not replayed)",
		      1);
	} else if (rel) {
		n = opened(w, rel, flags);
		d->node = n;
		d->dir = wr_is_dir(w, n, flags);
		p = wr_lpath(c, rel);
		disp = (flags & O_CREAT) ? ((flags & O_TRUNC) ? 5 : 2)
					 : ((flags & O_TRUNC) ? 4 : 1);
		opts = d->dir ? NT_DIR : NT_NONDIR;
		if (!d->dir && (flags & O_DSYNC)) { /* O_SYNC includes it */
			opts |= NT_WRITE_THROUGH;
			tally(w, TK_NOTE,
			      "opens with O_SYNC or O_DSYNC, create_options 0x2 "
			      "(write-through): a replay opens so with -s only",
			      1);
		}
		if (p != NONE && n != NONE)
			wr_open_line(c, d, p, opts,
				  d->dir ? 1 : disp, false);
	} else if (abs) {
		wr_outside(c, abs);
	}
	free(abs);
}

/* ReadX or WriteX lines of @got bytes (@len asked) at @off, in pieces
 * the parser takes */
static void io_lines(struct ctx *c, int op, int32_t fnum, int64_t off,
		     int64_t len, int64_t got)
{
	do {
		int64_t size = len > IO_MAX ? IO_MAX : len;
		int64_t ret = got > size ? size : got;
		struct rline *l = line_add(c->w, c->ts, op, 0);

		if (!l)
			return;
		l->fnum = fnum;
		l->a[0] = off;
		l->a[1] = op == OP_WRITEX ? ret : size;
		l->a[2] = ret;
		off += size;
		len -= size;
		got -= ret;
	} while (got > 0);
}

void wr_on_rw(struct ctx *c)
{
	const struct rec_ev *ev = c->ev;
	struct rdesc *d = wr_desc(c, ev->fd, ev->fdpath);
	bool wr = ev->kind == RK_WRITE;
	int64_t off, got = ev->ret, len = ev->a[0];
	int32_t fnum;

	if (!d)
		return;
	if (got < 0 || d->dir) {
		tally(c->w, TK_FAILED, ev->name, 1);
		return;
	}
	if (ev->a[1] >= 0)
		off = ev->a[1];
	else if (wr && (d->oflags & O_APPEND))
		off = wr_size_now(&c->w->nodes[d->node]);
	else
		off = d->pos;
	if (off < 0 || got > OFF_MAX - IO_MAX || off > OFF_MAX - IO_MAX - got) {
		tally(c->w, TK_NOTE,
		      "reads and writes beyond the largest offset of a "
		      "loadfile, 2^61 - 1 (not replayed)",
		      1);
		return;
	}
	if (!(fnum = wr_handle(c, d)))
		return;
	if (wr) {
		/* the bytes written: a replay writes its size whole */
		io_lines(c, OP_WRITEX, fnum, off, got, got);
		tree_write(c->w, d->node, off, got);
	} else {
		io_lines(c, OP_READX, fnum, off, len < got ? got : len, got);
		tree_read(c->w, d->node, off, len, got);
	}
	if (ev->a[1] < 0)
		d->pos = off + got;
}

/* the description of a call on a descriptor that succeeded; NULL (and
 * counted) for a failed call or no file under --root */
static struct rdesc *done_desc(struct ctx *c)
{
	const struct rec_ev *ev = c->ev;
	struct rdesc *d = wr_desc(c, ev->fd, ev->fdpath);

	if (d && ev->ret < 0) {
		tally(c->w, TK_FAILED, ev->name, 1);
		return NULL;
	}
	return d;
}

void wr_on_lock(struct ctx *c)
{
	const struct rec_ev *ev = c->ev;
	struct rdesc *d = done_desc(c);
	int64_t start = ev->a[1], len = ev->a[2];
	struct rline *l;
	int32_t fnum;

	if (!d)
		return;
	if (!(fnum = wr_handle(c, d)))
		return;
	if (start < -OFF_MAX || start > OFF_MAX || len < -OFF_MAX ||
	    len > OFF_MAX) {
		tally(c->w, TK_NOTE, "locks of ranges a loadfile cannot hold", 1);
		return;
	}
	if (ev->a[3] == SEEK_CUR)
		start += d->pos;
	else if (ev->a[3] == SEEK_END)
		start += wr_size_now(&c->w->nodes[d->node]);
	if (len < 0) {
		start += len;
		len = -len;
	}
	l = line_add(c->w, c->ts,
		     ev->a[0] == REC_LOCK_UNLOCK ? OP_UNLOCKX : OP_LOCKX, 0);
	if (!l)
		return;
	l->fnum = fnum;
	l->a[0] = start < 0 ? 0 : start;
	l->a[1] = len;
}

/* a call on a descriptor whose line needs its handle: Flush,
 * Sfileinfo; a stat: Qfileinfo (or the Qpathinfo of a directory whose
 * NTCreateX waits) */
void wr_on_fd_info(struct ctx *c, int op)
{
	const struct rec_ev *ev = c->ev;
	struct rdesc *d = done_desc(c);
	struct rline *l;
	int32_t fnum;

	if (!d)
		return;
	if (ev->flags & REC_EV_STAT)
		tree_stat(c->w, d->node, ev->st_mode, ev->st_size);
	if (op == OP_QFSINFO) { /* fstatfs(): no handle in the line */
		if ((l = line_add(c->w, c->ts, op, 0)))
			l->a[0] = LEVEL_FS;
		return;
	}
	if (op == OP_QFILEINFO && d->pending) {
		const char *rel = under_root(c->w, d->path);

		l = rel ? wr_path_line(c, OP_QPATHINFO, rel) : NULL;
		if (l)
			l->a[0] = LEVEL_BASIC;
		return;
	}
	if (!(fnum = wr_handle(c, d)))
		return;
	l = line_add(c->w, c->ts, op, 0);
	if (!l)
		return;
	l->fnum = fnum;
	if (op != OP_FLUSH)
		l->a[0] = LEVEL_BASIC;
}

void wr_on_getdents(struct ctx *c)
{
	const struct rec_ev *ev = c->ev;
	struct rdesc *d = done_desc(c);
	char *pat;
	const char *rel;
	struct rline *l;
	uint32_t p;

	if (!d)
		return;
	if (!d->listing) {
		rel = under_root(c->w, d->path);
		if (!rel)
			return;
		pat = malloc(strlen(rel) + 3);
		if (!pat) {
			c->w->oom = true;
			return;
		}
		sprintf(pat, "%s%s*", rel, rel[0] ? "/" : "");
		p = wr_lpath(c, pat);
		free(pat);
		if (p == NONE)
			return;
		l = line_add(c->w, c->ts, OP_FIND, 0);
		if (!l)
			return;
		l->path[0] = p;
		l->a[0] = LEVEL_FIND;
		l->a[1] = FIND_MAX;
		d->find = wr_line_index(c->w, l);
		d->listing = d->listed = true;
		tree_seen(c->w, d->node, true, T_DIR);
	}
	if (ev->a[0] > 0)
		c->w->lines[d->find].a[2] =
			ev->a[0] > FIND_MAX - c->w->lines[d->find].a[2]
				? FIND_MAX
				: c->w->lines[d->find].a[2] + ev->a[0];
}

void wr_on_truncate(struct ctx *c)
{
	const struct rec_ev *ev = c->ev;
	struct rec_writer *w = c->w;
	struct rdesc *d = NULL;
	struct rline *l;
	uint32_t n = NONE;
	int32_t fnum;

	if (ev->path) {
		char *abs = wr_path(c, ev->fd, ev->path, ev->fdpath);
		const char *rel = under_root(w, abs);

		if (rel)
			n = tree_node(w, rel);
		else if (abs)
			wr_outside(c, abs);
		free(abs);
		if (!rel)
			return;
	} else {
		d = wr_desc(c, ev->fd, ev->fdpath);
		if (!d)
			return;
		n = d->node;
	}
	if (!ev->ret && ev->a[0] >= 0)
		tree_truncate(w, n, ev->a[0]);
	if (!d) { /* truncate() of a path: no handle to set it on */
		tally(w, TK_NOCOUNTER, ev->name, 1);
		return;
	}
	if (ev->ret < 0 || d->dir) {
		tally(w, TK_FAILED, ev->name, 1);
		return;
	}
	/* ftruncate and fallocate: the SET_FILE_INFORMATION of a size (the
	 * replay sets the file's times, as dbench does: not its size) */
	if (!(fnum = wr_handle(c, d)))
		return;
	l = line_add(w, c->ts, OP_SFILEINFO, 0);
	if (!l)
		return;
	l->fnum = fnum;
	l->a[0] = ev->a[0] >= 0 ? LEVEL_EOF : LEVEL_ALLOC;
}

/* a call with no counterpart: under --root (which file?) or not */
