/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * emit.c - the loadfile of a recording, written at the end: a header
 * comment (what was recorded, how, what was lost), the set-up (the tree
 * the trace found, made anew at the start of every pass), the recorded
 * calls with their timestamps, and a trailer comment that counts every
 * call that is not in the loadfile, by reason.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ops.h"
#include "writer_impl.h"

#define SETUP_CHUNK (1 << 20) /* the set-up's WriteX size */
#define SETUP_FILE_MAX (INT64_C(1) << 30)

/* a comment's text: no line end or control character in it */
static void put_comment_text(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
}

static void put_line(FILE *f, const struct rec_writer *w,
		     const struct rline *l, bool stamp)
{
	const char *shape = op_info[l->op].args;
	int k = 0, i = 0;

	if (stamp)
		fprintf(f, "%" PRIu64 ".%06" PRIu64 " ", l->ts_ns / 1000000000,
			l->ts_ns % 1000000000 / 1000);
	fputs(op_info[l->op].keyword, f);
	for (; *shape; shape++) {
		switch (*shape) {
		case 'P':
			fprintf(f, " \"%s\"", w->lpaths[l->path[k++]]);
			break;
		case 'H':
			fprintf(f, " %" PRId32, l->fnum);
			break;
		default:
			if (l->op == OP_NTCREATEX || l->op == OP_UNLINK)
				fprintf(f, " 0x%" PRIx64, (uint64_t)l->a[i++]);
			else
				fprintf(f, " %" PRId64, l->a[i++]);
			break;
		}
	}
	fprintf(f, " %s\n", rec_status_names[l->status]);
}

/* the text form of one set-up line (no timestamp) */
static void setup_line(FILE *f, struct rec_writer *w, int op, uint32_t path,
		       int64_t a0, int64_t a1, int64_t a2)
{
	struct rline l = {.op = (uint8_t)op, .fnum = 1};

	l.path[0] = path;
	l.a[0] = a0;
	l.a[1] = a1;
	l.a[2] = a2;
	put_line(f, w, &l, false);
	w->sum.setup++;
}

struct entry {
	const char *name; /* before the trace */
	const struct tnode *t;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name,
		      ((const struct entry *)b)->name);
}

/* Was node @t there before the trace?  Certainly, or (opened with
 * O_CREAT, never seen missing) because it showed content the trace had
 * not written. */
static bool was_there(const struct tnode *t)
{
	if (t->before == NB_EXISTED)
		return true;
	return t->before == NB_UNKNOWN && !t->made &&
	       (t->size_min > 0 || t->size_exact > 0);
}

/* the size the set-up makes a file: what the trace showed, at most
 * SETUP_FILE_MAX (a sparse file of a terabyte is not written as zeros
 * at every pass; reads past the end come back short, and are counted) */
static int64_t size_then(struct rec_writer *w, const struct tnode *t,
			 bool count)
{
	int64_t n = t->size_exact >= 0 ? t->size_exact : t->size_min;

	if (n <= SETUP_FILE_MAX)
		return n;
	if (count)
		tally(w, TK_NOTE,
		      "files larger than 1 GiB before the trace, made 1 GiB "
		      "by the set-up",
		      1);
	return SETUP_FILE_MAX;
}

/* a Mkdir of each directory above @name not made yet */
static void parents(FILE *f, struct rec_writer *w, struct strmap *made,
		    const char *name)
{
	char *buf = strdup(name);
	uint32_t v;

	if (!buf)
		return;
	for (char *s = buf; (s = strchr(s, '/')); s++) {
		*s = 0;
		if (!strmap_get(made, buf, &v)) {
			uint32_t p = lpath(w, buf);

			if (p != NONE)
				setup_line(f, w, OP_MKDIR, p, 0, 0, 0);
			strmap_put(made, buf, 1);
		}
		*s = '/';
	}
	free(buf);
}

static void setup_file(FILE *f, struct rec_writer *w, uint32_t p, int64_t size)
{
	setup_line(f, w, OP_NTCREATEX, p, 0x40, 5, 0);
	for (int64_t off = 0; off < size; off += SETUP_CHUNK) {
		int64_t n = size - off < SETUP_CHUNK ? size - off : SETUP_CHUNK;

		setup_line(f, w, OP_WRITEX, 0, off, n, n);
		w->sum.setup_bytes += (uint64_t)n;
	}
	setup_line(f, w, OP_CLOSE, 0, 0, 0, 0);
}

int emit_setup(struct rec_writer *w, FILE *f, bool own)
{
	struct entry *v = calloc(w->nnodes + 1, sizeof(*v));
	struct strmap made = {0}, dirs = {0};
	uint32_t n = 0, nd = 0, nf = 0, x;
	uint64_t bytes = 0;

	if (!v)
		return -1;
	for (uint32_t i = 0; i < w->nnodes; i++) {
		const struct tnode *t = &w->nodes[i];

		if (t->orig && t->orig[0] && was_there(t) &&
		    !strmap_get(&dirs, t->orig, &x)) {
			v[n].name = t->orig;
			v[n++].t = t;
			strmap_put(&dirs, t->orig, 0); /* seen */
		}
	}
	qsort(v, n, sizeof(*v), by_name);
	/* a name with another below it is a directory */
	for (uint32_t i = 0; i + 1 < n; i++) {
		size_t l = strlen(v[i].name);

		if (!strncmp(v[i + 1].name, v[i].name, l) &&
		    v[i + 1].name[l] == '/')
			strmap_put(&dirs, v[i].name, 1);
	}
	for (uint32_t i = 0; i < n; i++) {
		bool dir = v[i].t->type == T_DIR ||
			   (strmap_get(&dirs, v[i].name, &x) && x);

		dir ? nd++ : nf++;
		if (!dir)
			bytes += (uint64_t)size_then(w, v[i].t, false);
	}
	if (own)
		fprintf(f, "# dbench-ng record: the set-up of a recorded "
			   "loadfile, to run before it with --run-once "
			   "--skip-cleanup (docs/record.md)\n");
	fprintf(f,
		"# set-up: the tree as the trace found it (%u directories, %u "
		"files, %" PRIu64 " bytes written as zeros)%s\n",
		nd, nf, bytes,
		own ? "" : ", made anew at the start of every pass");
	setup_line(f, w, OP_DELTREE, lpath(w, ""), 0, 0, 0);
	fprintf(f, "Mkdir \"\\clients\" NT_STATUS_OK\n");
	w->sum.setup++;
	setup_line(f, w, OP_MKDIR, lpath(w, ""), 0, 0, 0);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t p = lpath(w, v[i].name);

		if (p == NONE)
			continue;
		parents(f, w, &made, v[i].name);
		if (v[i].t->type == T_DIR ||
		    (strmap_get(&dirs, v[i].name, &x) && x)) {
			if (!strmap_get(&made, v[i].name, &x))
				setup_line(f, w, OP_MKDIR, p, 0, 0, 0);
			strmap_put(&made, v[i].name, 1);
		} else {
			setup_file(f, w, p, size_then(w, v[i].t, true));
		}
	}
	fprintf(f, "# end of the set-up\n");
	strmap_free(&made);
	strmap_free(&dirs);
	free(v);
	return 0;
}

/* how a call with no counterpart falls short, for the trailer */
static const char *why_not(const char *name)
{
	if (!strcmp(name, "mmap"))
		return " (reads and writes through the mapping are not seen)";
	if (!strcmp(name, "sendfile") || !strcmp(name, "splice") ||
	    !strcmp(name, "tee") || !strcmp(name, "vmsplice") ||
	    !strcmp(name, "copy_file_range"))
		return " (the data it moves is not seen)";
	if (!strncmp(name, "io_", 3))
		return " (its I/O is not seen, nor on which files)";
	return "";
}

static int by_count(const void *a, const void *b)
{
	const struct tally *x = *(const struct tally *const *)a;
	const struct tally *y = *(const struct tally *const *)b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->what, y->what);
}

static void trailer_kind(FILE *f, struct tally **v, uint32_t n, int kind,
			 const char *title)
{
	uint64_t total = 0;
	bool first = true;

	for (uint32_t i = 0; i < n; i++)
		if (v[i]->kind == kind)
			total += v[i]->n;
	if (!total)
		return;
	if (kind == TK_NOCOUNTER) {
		fprintf(f, "#   %s:\n", title);
		for (uint32_t i = 0; i < n; i++)
			if (v[i]->kind == kind)
				fprintf(f, "#     %s %" PRIu64 "%s\n", v[i]->what,
					v[i]->n, why_not(v[i]->what));
		return;
	}
	fprintf(f, "#   %s: %" PRIu64 " (", title, total);
	for (uint32_t i = 0; i < n; i++) {
		if (v[i]->kind != kind)
			continue;
		fprintf(f, "%s%s %" PRIu64, first ? "" : ", ", v[i]->what,
			v[i]->n);
		first = false;
	}
	fprintf(f, ")\n");
}

static void trailer(FILE *f, struct rec_writer *w)
{
	struct tally **v = calloc(w->ntallies + 1, sizeof(*v));
	uint64_t skipped = 0;

	if (!v)
		return;
	for (uint32_t i = 0; i < w->ntallies; i++) {
		v[i] = &w->tallies[i];
		if (v[i]->kind != TK_NOTE)
			skipped += v[i]->n;
	}
	qsort(v, w->ntallies, sizeof(*v), by_count);
	fprintf(f, "# end of the recorded calls\n");
	fprintf(f, "# calls not in the loadfile: %" PRIu64 "\n", skipped);
	trailer_kind(f, v, w->ntallies, TK_NOCOUNTER,
		     "under --root, with no NetBench counterpart");
	trailer_kind(f, v, w->ntallies, TK_OUTSIDE, "on paths outside --root");
	trailer_kind(f, v, w->ntallies, TK_NOTFILE,
		     "on descriptors that are no files under --root "
		     "(terminals, pipes, sockets, other files)");
	trailer_kind(f, v, w->ntallies, TK_UNKNOWNFD,
		     "on descriptors the trace did not see opened");
	trailer_kind(f, v, w->ntallies, TK_FAILED,
		     "failed in a way a replay would not repeat");
	for (uint32_t i = 0; i < w->ntallies; i++)
		if (v[i]->kind == TK_NOTE)
			fprintf(f, "# %s: %" PRIu64 "\n", v[i]->what, v[i]->n);
	fprintf(f, "# events lost: %" PRIu64 "\n", w->sum.lost);
	free(v);
}

static void header(FILE *f, struct rec_writer *w, bool setup_apart)
{
	const struct rec_writer_cfg *c = &w->cfg;
	struct rec_summary s;

	rec_writer_summary(w, &s);
	fprintf(f, "# dbench-ng record: a NetBench loadfile of the file-system "
		   "calls of ");
	put_comment_text(f, c->source ? c->source : "a process tree");
	fprintf(f, "\n# recorded %s%s; the tree under ",
		c->method ? "by " : "", c->method ? c->method : "");
	put_comment_text(f, c->anonymize ? "--root" : w->root);
	fprintf(f, " is \\clients\\client1%s\n",
		c->anonymize ? " (names as hashes: --anonymize)" : "");
	fprintf(f, "# the traced tree is one client: its calls in the order "
		   "they returned%s\n",
		c->no_timestamps ? ""
				 : ", stamped with the time they began (s)");
	fprintf(f,
		"# %" PRIu64 " events, %" PRIu64 " lines of calls, %" PRIu64
		" calls not replayed (counted at the end)\n",
		s.events, s.lines, s.skipped);
	if (s.lost)
		fprintf(f,
			"# WARNING: %" PRIu64 " events were lost: calls are "
			"missing, this loadfile is incomplete\n",
			s.lost);
	if (s.io_uring)
		fprintf(f, "# WARNING: the tree used io_uring or aio, whose "
			   "I/O is not in this loadfile\n");
	if (setup_apart)
		fprintf(f, "# the set-up is a loadfile of its own (--setup): "
			   "run it first, with --skip-cleanup\n");
	fprintf(f, "# replay: dbench-ng --no-resolve -c THIS -D DIR N "
		   "(docs/record.md)\n");
}

int rec_writer_emit_setup(struct rec_writer *w, FILE *f)
{
	w->sum.setup = 0;
	w->sum.setup_bytes = 0;
	emit_setup(w, f, true);
	fflush(f);
	return ferror(f) ? -1 : 0;
}

int rec_writer_emit(struct rec_writer *w, FILE *f, bool setup_apart)
{
	header(f, w, setup_apart);
	if (!setup_apart) {
		w->sum.setup = 0;
		w->sum.setup_bytes = 0;
		emit_setup(w, f, false);
	}
	fprintf(f, "# the recorded calls\n");
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i < w->nlines; i++) {
			const struct rline *l = &w->lines[i];

			if (l->op >= OP_NR || (l->head != 0) != (pass == 0))
				continue;
			put_line(f, w, l, !w->cfg.no_timestamps);
		}
	}
	trailer(f, w);
	if (w->oom)
		fprintf(f, "# WARNING: out of memory while recording: calls "
			   "are missing\n");
	fflush(f);
	return ferror(f) ? -1 : 0;
}
