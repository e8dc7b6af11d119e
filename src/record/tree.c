/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tree.c - what the trace shows of the tree under --root: a node per file
 * or directory (a rename moves it to another name, a removal leaves it
 * nameless), whether it was there before the trace (a call that needs it
 * succeeded before the trace made it), its type and its size then (a
 * stat's st_size, the end of the data a read found, exactly at a short
 * read), and its name then (through renames of it and of the directories
 * above it).  The set-up of the loadfile recreates the nodes that were
 * there before (emit.c).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "writer_impl.h"

uint32_t tree_find(struct rec_writer *w, const char *rel)
{
	uint32_t n;

	return strmap_get(&w->names, rel, &n) ? n : NONE;
}

/* the nearest node above @rel (NONE: none known) */
static uint32_t ancestor(struct rec_writer *w, const char *rel, size_t *len)
{
	char *buf = strdup(rel), *slash;
	uint32_t n = NONE;

	if (!buf) {
		w->oom = true;
		return NONE;
	}
	while (n == NONE && buf[0]) {
		slash = strrchr(buf, '/');
		if (slash)
			*slash = 0;
		else
			buf[0] = 0;
		n = tree_find(w, buf);
	}
	*len = strlen(buf);
	free(buf);
	return n;
}

/* A node for @rel, first seen now: its name before the trace is its
 * nearest known ancestor's then, and below a directory the trace made
 * nothing was there before. */
static uint32_t node_new(struct rec_writer *w, const char *rel)
{
	struct tnode *t;
	uint32_t a;
	size_t alen = 0;

	if (w->nnodes == w->cap_nodes) {
		uint32_t cap = w->cap_nodes ? w->cap_nodes * 2 : 256;
		struct tnode *v = realloc(w->nodes, cap * sizeof(*v));

		if (!v)
			goto oom;
		w->nodes = v;
		w->cap_nodes = cap;
	}
	t = &w->nodes[w->nnodes];
	memset(t, 0, sizeof(*t));
	t->size_exact = -1;
	t->size = -1;
	t->rel = strdup(rel);
	a = rel[0] ? ancestor(w, rel, &alen) : NONE;
	if (a != NONE && w->nodes[a].made)
		t->before = NB_ABSENT;
	if (a != NONE && w->nodes[a].orig) {
		const char *ao = w->nodes[a].orig;

		t->orig = malloc(strlen(ao) + strlen(rel + alen) + 2);
		if (t->orig)
			sprintf(t->orig, "%s%s%s", ao,
				ao[0] && alen == 0 ? "/" : "", rel + alen);
	} else {
		t->orig = strdup(rel);
	}
	if (!t->rel || !t->orig || strmap_put(&w->names, rel, w->nnodes)) {
		free(t->rel);
		free(t->orig);
		goto oom;
	}
	return w->nnodes++;
oom:
	w->oom = true;
	return NONE;
}

uint32_t tree_node(struct rec_writer *w, const char *rel)
{
	uint32_t n = tree_find(w, rel);

	return n != NONE ? n : node_new(w, rel);
}

static void set_type(struct tnode *t, int type)
{
	if (type != T_UNKNOWN && t->type == T_UNKNOWN)
		t->type = (uint8_t)type;
}

void tree_parents(struct rec_writer *w, const char *rel)
{
	char *buf = strdup(rel), *slash;

	if (!buf) {
		w->oom = true;
		return;
	}
	while (buf[0]) {
		uint32_t n;
		struct tnode *t;

		slash = strrchr(buf, '/');
		if (slash)
			*slash = 0;
		else
			buf[0] = 0;
		n = tree_node(w, buf);
		if (n == NONE)
			break;
		t = &w->nodes[n];
		set_type(t, T_DIR);
		if (t->before != NB_UNKNOWN) {
			t->exists = true;
			break;
		}
		t->before = NB_EXISTED;
		t->exists = true;
	}
	free(buf);
}

void tree_seen(struct rec_writer *w, uint32_t n, bool exists, int type)
{
	struct tnode *t;

	if (n == NONE)
		return;
	t = &w->nodes[n];
	if (t->before == NB_UNKNOWN && !t->exists)
		t->before = exists ? NB_EXISTED : NB_ABSENT;
	t->exists = exists;
	if (exists) {
		set_type(t, type);
		if (t->rel)
			tree_parents(w, t->rel);
	}
}

void tree_stat(struct rec_writer *w, uint32_t n, uint32_t mode, int64_t size)
{
	struct tnode *t;

	if (n == NONE)
		return;
	t = &w->nodes[n];
	set_type(t, S_ISDIR(mode) ? T_DIR : T_FILE);
	if (!S_ISREG(mode))
		return;
	if (!t->modified && !t->made)
		t->size_exact = size;
	t->size = size;
}

void tree_read(struct rec_writer *w, uint32_t n, int64_t off, int64_t len,
	       int64_t got)
{
	struct tnode *t;

	if (n == NONE || got < 0)
		return;
	t = &w->nodes[n];
	set_type(t, T_FILE);
	if (t->modified || t->made)
		return;
	if (off + got > t->size_min)
		t->size_min = off + got;
	if (got < len)
		t->size_exact = off + got; /* a short read: the end */
}

/* the size now, as far as the trace tells (0 unknown) */
static int64_t size_now(const struct tnode *t)
{
	if (t->size >= 0)
		return t->size;
	return t->size_exact >= 0 ? t->size_exact : t->size_min;
}

void tree_write(struct rec_writer *w, uint32_t n, int64_t off, int64_t got)
{
	struct tnode *t;
	int64_t s;

	if (n == NONE)
		return;
	t = &w->nodes[n];
	s = size_now(t);
	t->modified = true;
	set_type(t, T_FILE);
	t->size = off + got > s ? off + got : s;
}

void tree_truncate(struct rec_writer *w, uint32_t n, int64_t len)
{
	if (n == NONE)
		return;
	w->nodes[n].modified = true;
	w->nodes[n].size = len;
}

/* Take node @n off its name: it was removed, or replaced */
static void detach(struct rec_writer *w, uint32_t n)
{
	struct tnode *t = &w->nodes[n];

	if (!t->rel)
		return;
	strmap_del(&w->names, t->rel);
	free(t->rel);
	t->rel = NULL;
	t->exists = false;
}

uint32_t tree_create(struct rec_writer *w, const char *rel, int type)
{
	uint32_t n = tree_find(w, rel);
	struct tnode *t;

	/* a name that held a real file (now gone, or unseen gone) gets a
	 * new node; one only seen missing is reused */
	if (n != NONE) {
		t = &w->nodes[n];
		if (t->exists || t->made || t->before == NB_EXISTED) {
			detach(w, n);
			n = NONE;
		}
	}
	if (n == NONE)
		n = node_new(w, rel);
	if (n == NONE)
		return NONE;
	t = &w->nodes[n];
	if (t->before == NB_UNKNOWN)
		t->before = NB_ABSENT;
	t->made = true;
	t->exists = true;
	t->type = (uint8_t)type;
	t->size = 0;
	tree_parents(w, rel);
	return n;
}

void tree_remove(struct rec_writer *w, uint32_t n)
{
	if (n == NONE)
		return;
	/* the name stays, pointing at a node that no longer exists, until
	 * something is made under it */
	w->nodes[n].exists = false;
}

/* @s below (or at) @from: the rest of it, else NULL */
static const char *below(const char *s, const char *from)
{
	size_t fl = strlen(from);

	if (!fl)
		return s; /* the root: everything is below it */
	if (strncmp(s, from, fl) || (s[fl] && s[fl] != '/'))
		return NULL;
	return s + fl;
}

void tree_rename(struct rec_writer *w, const char *from, const char *to)
{
	uint32_t src = tree_find(w, from);

	if (src == NONE || !strcmp(from, to))
		return;
	if (w->nodes[src].type == T_FILE) { /* nothing below either */
		uint32_t dst = tree_find(w, to);
		char *nrel = strdup(to);

		if (!nrel) {
			w->oom = true;
			return;
		}
		if (dst != NONE)
			detach(w, dst);
		strmap_del(&w->names, from);
		free(w->nodes[src].rel);
		w->nodes[src].rel = nrel;
		if (strmap_put(&w->names, to, src))
			w->oom = true;
		return;
	}
	/* what was at @to, and below it, is replaced */
	for (uint32_t i = 0; i < w->nnodes; i++) {
		const char *r = w->nodes[i].rel;

		if (i != src && r && below(r, to))
			detach(w, i);
	}
	for (uint32_t i = 0; i < w->nnodes; i++) {
		struct tnode *t = &w->nodes[i];
		const char *rest = t->rel ? below(t->rel, from) : NULL;
		char *nrel;

		if (!rest)
			continue;
		nrel = malloc(strlen(to) + strlen(rest) + 1);
		if (!nrel) {
			w->oom = true;
			return;
		}
		sprintf(nrel, "%s%s", to, rest);
		strmap_del(&w->names, t->rel);
		free(t->rel);
		t->rel = nrel;
		if (strmap_put(&w->names, nrel, i))
			w->oom = true;
	}
}

void tree_free(struct rec_writer *w)
{
	for (uint32_t i = 0; i < w->nnodes; i++) {
		free(w->nodes[i].rel);
		free(w->nodes[i].orig);
	}
	free(w->nodes);
	strmap_free(&w->names);
}
