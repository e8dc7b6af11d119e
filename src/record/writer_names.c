/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * writer_names.c - the calls of a recording on names: rename (also into
 * and out of --root), unlink, rmdir, mkdir, stat and statfs of a path,
 * utimensat of a path, and the calls with no NetBench counterpart, which
 * are counted by where they acted.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "ops.h"
#include "writer_impl.h"

void wr_on_rename(struct ctx *c)
{
	static const int again[] = {ENOENT, ENOTDIR, ENOTEMPTY, EISDIR};
	const struct rec_ev *ev = c->ev;
	struct rec_writer *w = c->w;
	char *a1 = wr_path(c, ev->fd, ev->path, ev->fdpath);
	char *a2 = wr_path(c, ev->fd2, ev->path2, ev->fdpath2);
	const char *r1 = under_root(w, a1), *r2 = under_root(w, a2);
	uint32_t n, p1, p2;
	struct rline *l;

	if (!a1 || !a2)
		goto out;
	if (!r1 && !r2) {
		wr_outside(c, a1);
		goto out;
	}
	if (ev->flags & REC_EV_EXCHANGE) {
		tally(w, TK_NOCOUNTER, "renameat2 RENAME_EXCHANGE", 1);
		goto out;
	}
	if (ev->ret < 0) {
		if (!r1 || !r2 || !wr_errno_in(ev->ret, again, 4)) {
			tally(w, TK_FAILED, ev->name, 1);
			goto out;
		}
		if (ev->ret == -ENOENT)
			tree_seen(w, tree_node(w, r1), false, T_UNKNOWN);
	} else if (r1) {
		n = tree_node(w, r1);
		tree_seen(w, n, true, T_UNKNOWN);
	}
	if (r1 && r2) {
		p1 = wr_lpath(c, r1);
		p2 = wr_lpath(c, r2);
		l = p1 == NONE || p2 == NONE
			    ? NULL
			    : line_add(w, c->ts, OP_RENAME, ev->ret);
		if (l) {
			l->path[0] = p1;
			l->path[1] = p2;
		}
		if (!ev->ret) {
			tree_parents(w, r2);
			tree_rename(w, r1, r2);
		}
	} else if (r1) { /* moved out of the tree: gone from it */
		n = tree_find(w, r1);
		if (w->nodes[n].type == T_DIR) {
			tally(w, TK_NOTE,
			      "directories moved out of --root (not replayed)",
			      1);
		} else if ((l = wr_path_line(c, OP_UNLINK, r1))) {
			l->a[0] = 0x6;
			tally(w, TK_NOTE,
			      "files moved out of --root, written as Unlink", 1);
		}
		tree_remove(w, n);
	} else {
		tree_create(w, r2, T_UNKNOWN);
		tally(w, TK_NOTE,
		      "names moved into --root from outside (not replayed: "
		      "later calls on them may fail)",
		      1);
	}
	if (!ev->ret)
		paths_renamed(w, a1, a2);
out:
	free(a1);
	free(a2);
}

/* Unlink, Rmdir, Mkdir, Qpathinfo, Qfsinfo, Sfileinfo of a path */
void wr_on_path(struct ctx *c)
{
	static const int unlink_again[] = {ENOENT, EISDIR, ENOTDIR};
	static const int rmdir_again[] = {ENOENT, ENOTEMPTY, ENOTDIR};
	const struct rec_ev *ev = c->ev;
	struct rec_writer *w = c->w;
	char *abs = wr_path(c, ev->fd, ev->path, ev->fdpath);
	const char *rel = under_root(w, abs);
	struct rline *l = NULL;
	uint32_t n;

	if (!rel) {
		if (abs)
			wr_outside(c, abs);
		free(abs);
		return;
	}
	n = tree_node(w, rel);
	if (ev->ret == -ENOENT)
		tree_seen(w, n, false, T_UNKNOWN);
	switch (ev->kind) {
	case RK_UNLINK:
	case RK_RMDIR: {
		bool rm = ev->kind == RK_RMDIR;

		if (ev->ret < 0 && !wr_errno_in(ev->ret, rm ? rmdir_again
							  : unlink_again,
					     3)) {
			tally(w, TK_FAILED, ev->name, 1);
			break;
		}
		if (!ev->ret || ev->ret == -ENOTEMPTY || ev->ret == -EISDIR)
			tree_seen(w, n, true,
				  rm || ev->ret == -EISDIR ? T_DIR : T_FILE);
		l = wr_path_line(c, rm ? OP_RMDIR : OP_UNLINK, rel);
		if (l && !rm)
			l->a[0] = 0x6;
		if (!ev->ret)
			tree_remove(w, n);
		break;
	}
	case RK_MKDIR:
		if (!ev->ret)
			tree_create(w, rel, T_DIR);
		else if (ev->ret == -EEXIST)
			tree_seen(w, n, true, T_DIR);
		l = wr_path_line(c, OP_MKDIR, rel);
		break;
	case RK_STAT:
		if (!ev->ret) {
			tree_seen(w, n, true, T_UNKNOWN);
			if (ev->flags & REC_EV_STAT)
				tree_stat(w, n, ev->st_mode, ev->st_size);
		}
		if ((l = wr_path_line(c, OP_QPATHINFO, rel)))
			l->a[0] = LEVEL_BASIC;
		break;
	case RK_STATFS:
		if ((l = wr_path_line(c, OP_QFSINFO, rel)))
			l->a[0] = LEVEL_FS;
		break;
	default:
		break;
	}
	free(abs);
}

/* utimensat() of a path: SET_FILE_INFORMATION takes a handle, that of a
 * description open on it, else one opened and closed around it */
void wr_on_utimes_path(struct ctx *c)
{
	const struct rec_ev *ev = c->ev;
	struct rec_writer *w = c->w;
	char *abs = wr_path(c, ev->fd, ev->path, ev->fdpath);
	const char *rel = under_root(w, abs);
	struct rdesc *d;
	struct rline *l;
	uint32_t n, p;
	int32_t fnum;

	if (!rel || ev->ret < 0) {
		if (abs && rel)
			tally(w, TK_FAILED, ev->name, 1);
		else if (abs)
			wr_outside(c, abs);
		free(abs);
		return;
	}
	n = tree_node(w, rel);
	tree_seen(w, n, true, T_UNKNOWN);
	for (d = w->descs.next; d != &w->descs; d = d->next)
		if (d->node == n && d->slot != NONE)
			break;
	if (d != &w->descs) {
		fnum = wr_handle(c, d);
		l = line_add(w, c->ts, OP_SFILEINFO, 0);
		if (l) {
			l->fnum = fnum;
			l->a[0] = LEVEL_BASIC;
		}
		free(abs);
		return;
	}
	p = wr_lpath(c, rel);
	free(abs);
	if (p == NONE)
		return;
	fnum = fnum_get(w);
	l = line_add(w, c->ts, OP_NTCREATEX, 0);
	if (l) {
		l->path[0] = p;
		l->fnum = fnum;
		l->a[0] = w->nodes[n].type == T_DIR ? NT_DIR : NT_NONDIR;
		l->a[1] = 1;
	}
	if ((l = line_add(w, c->ts, OP_SFILEINFO, 0))) {
		l->fnum = fnum;
		l->a[0] = LEVEL_BASIC;
	}
	if ((l = line_add(w, c->ts, OP_CLOSE, 0)))
		l->fnum = fnum;
	fnum_put(w, fnum);
	tally(w, TK_NOTE,
	      "utimensat() of a path no descriptor had open, written as "
	      "NTCreateX, SET_FILE_INFORMATION and Close",
	      1);
}

void wr_on_other(struct ctx *c)
{
	const struct rec_ev *ev = c->ev;
	struct rec_writer *w = c->w;
	int kind = TK_UNKNOWNFD;

	if (!strncmp(ev->name, "io_", 3)) {
		w->sum.io_uring = true;
		kind = TK_NOCOUNTER;
	} else if (ev->path) {
		char *abs = wr_path(c, ev->fd, ev->path, ev->fdpath);

		kind = !abs		    ? TK_NOTE
		       : under_root(w, abs) ? TK_NOCOUNTER
					    : TK_OUTSIDE;
		if (kind == TK_OUTSIDE)
			wr_outside(c, abs);
		free(abs);
		if (kind != TK_NOCOUNTER)
			return;
	} else if (ev->fd >= 0 || ev->fd2 >= 0) {
		struct rdesc *d1 = fd_get(c->p, ev->fd);
		struct rdesc *d2 = fd_get(c->p, ev->fd2);

		if ((d1 && d1->node != NONE) || (d2 && d2->node != NONE))
			kind = TK_NOCOUNTER;
		else if (d1 || d2 || ev->fdpath || ev->fdpath2)
			kind = TK_NOTFILE;
	} else {
		kind = TK_NOCOUNTER; /* sync(): of every file */
	}
	tally(w, kind, ev->name, 1);
}

