/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lines.c - what the writer accumulates: the loadfile lines (kept until
 * the end: the set-up before them depends on the whole trace, and a
 * directory's NTCreateX waits for what its descriptor is used for), the
 * loadfile paths (a name a loadfile cannot hold, or every name with
 * --anonymize, becomes a stable hash that keeps its extension), the
 * NetBench status of an errno, handle numbers (the lowest free one, so
 * the replay's handle table stays as small as the trace's), and the
 * counts of the trailer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "loadfile.h"
#include "sha256.h"
#include "utf8.h"
#include "writer_impl.h"

/* index 0 is success; rec_status_of() maps an errno */
const char *const rec_status_names[] = {
	"NT_STATUS_OK",
	"NT_STATUS_OBJECT_NAME_NOT_FOUND",
	"NT_STATUS_OBJECT_PATH_NOT_FOUND",
	"NT_STATUS_OBJECT_NAME_COLLISION",
	"NT_STATUS_ACCESS_DENIED",
	"NT_STATUS_FILE_IS_A_DIRECTORY",
	"NT_STATUS_DIRECTORY_NOT_EMPTY",
	"NT_STATUS_NOT_A_DIRECTORY",
	"NT_STATUS_OBJECT_NAME_INVALID",
	"NT_STATUS_DISK_FULL",
	"NT_STATUS_MEDIA_WRITE_PROTECTED",
	"NT_STATUS_INVALID_HANDLE",
	"NT_STATUS_INVALID_PARAMETER",
	"NT_STATUS_NOT_SAME_DEVICE",
	"NT_STATUS_SHARING_VIOLATION",
	"NT_STATUS_STOPPED_ON_SYMLINK",
	"NT_STATUS_UNSUCCESSFUL",
};

uint8_t status_of(int64_t ret)
{
	static const struct {
		int err;
		uint8_t st;
	} map[] = {
		{ENOENT, 1},  {EEXIST, 3},  {EACCES, 4},	{EPERM, 4},
		{EISDIR, 5},  {ENOTEMPTY, 6}, {ENOTDIR, 7}, {ENAMETOOLONG, 8},
		{ENOSPC, 9},  {EDQUOT, 9},  {EROFS, 10},	{EBADF, 11},
		{EINVAL, 12}, {EXDEV, 13},  {EBUSY, 14},	{ETXTBSY, 14},
		{ELOOP, 15},
	};

	if (ret >= 0)
		return 0;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i].err == -ret)
			return map[i].st;
	return 16;
}

uint64_t ts_of(struct rec_writer *w, const struct rec_ev *ev)
{
	/* the trace starts at its first call, not at what was read of the
	 * processes before it */
	if (ev->kind == RK_INHERIT || ev->kind == RK_CWD)
		return 0;
	if (!w->have_t0) {
		w->t0 = ev->ts_ns;
		w->have_t0 = true;
	}
	if (ev->ts_ns > w->last_ts)
		w->last_ts = ev->ts_ns;
	if (ev->ts_ns > w->t0 + TS_LIMIT_NS) {
		/* a loadfile's timestamps end at 10^7 s (115 days) */
		tally(w, TK_NOTE, "calls past 10^7 s, stamped 10^7 s", 1);
		return TS_LIMIT_NS;
	}
	return ev->ts_ns > w->t0 ? ev->ts_ns - w->t0 : 0;
}

struct rline *line_add(struct rec_writer *w, uint64_t ts, int op, int64_t ret)
{
	struct rline *l;

	if (w->nlines == w->cap_lines) {
		uint32_t cap = w->cap_lines ? w->cap_lines * 2 : 1024;
		struct rline *v = realloc(w->lines, cap * sizeof(*v));

		if (!v) {
			w->oom = true;
			return NULL;
		}
		w->lines = v;
		w->cap_lines = cap;
	}
	l = &w->lines[w->nlines++];
	memset(l, 0, sizeof(*l));
	l->ts_ns = ts;
	l->op = (uint8_t)op;
	l->status = status_of(ret);
	l->path[0] = l->path[1] = NONE;
	return l;
}

/* Can the loadfile hold component @s as it is?  Printable UTF-8 without
 * quotes or backslashes (which the parser reads as separators), and
 * without "client1", which a replay replaces in every path. */
static bool holdable(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, k;

	if (strstr(s, "client1"))
		return false;
	while (i < n) {
		if (u[i] < 0x20 || u[i] == 0x7f || u[i] == '"' || u[i] == '\\')
			return false;
		k = utf8_seq(u + i, n - i, NULL);
		if (!k || (k == 2 && u[i] == 0xc2 && u[i + 1] < 0xa0))
			return false;
		i += k;
	}
	return true;
}

char *anon_name(const char *name, bool all)
{
	const char *dot = strrchr(name, '.'), *ext = "";
	char hex[SHA256_HEX], *r;

	(void)all;
	/* the extension stays if it is a short, plain one */
	if (dot && dot != name && strlen(dot) <= 16 && holdable(dot) &&
	    !strchr(dot, ' '))
		ext = dot;
	sha256_hex(name, strlen(name), hex);
	hex[12] = 0; /* 48 bits: 100,000 names collide with odds 2e-5 */
	r = malloc(1 + 12 + strlen(ext) + 1);
	if (r)
		sprintf(r, "%s%s%s", name[0] == '.' ? "." : "", hex, ext);
	return r;
}

uint32_t lpath(struct rec_writer *w, const char *rel)
{
	char buf[64 + 4 * 1024], *copy, *s, *save = NULL;
	size_t n = (size_t)snprintf(buf, sizeof(buf), "\\clients\\client1");
	uint32_t id;
	bool ok = true;

	copy = strdup(rel);
	if (!copy) {
		w->oom = true;
		return NONE;
	}
	for (s = strtok_r(copy, "/", &save); ok && s;
	     s = strtok_r(NULL, "/", &save)) {
		bool hold = holdable(s);
		char *a = NULL;
		const char *c = s;

		if (w->cfg.anonymize || !hold) {
			a = anon_name(s, w->cfg.anonymize);
			if (!a) {
				w->oom = true;
				ok = false;
				break;
			}
			if (!hold && !w->cfg.anonymize)
				tally(w, TK_NOTE,
				      "names a loadfile cannot hold (quotes, "
				      "backslashes, control characters, bytes "
				      "that are not UTF-8, \"client1\"), "
				      "written as hashes",
				      1);
			c = a;
		}
		if (strlen(c) > 255 || n + 1 + strlen(c) >= sizeof(buf))
			ok = false;
		else
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "\\%s",
					      c);
		free(a);
	}
	free(copy);
	/* the parser's limit: 1024 bytes below \clients */
	if (!ok || n - strlen("\\clients\\") > 1024)
		return NONE;
	if (strmap_get(&w->lpmap, buf, &id))
		return id;
	if (w->nlpaths == w->cap_lpaths) {
		uint32_t cap = w->cap_lpaths ? w->cap_lpaths * 2 : 256;
		char **v = realloc(w->lpaths, cap * sizeof(*v));

		if (!v) {
			w->oom = true;
			return NONE;
		}
		w->lpaths = v;
		w->cap_lpaths = cap;
	}
	w->lpaths[w->nlpaths] = strdup(buf);
	if (!w->lpaths[w->nlpaths] ||
	    strmap_put(&w->lpmap, buf, w->nlpaths)) {
		free(w->lpaths[w->nlpaths]);
		w->oom = true;
		return NONE;
	}
	return w->nlpaths++;
}

/* the handle numbers given back: a binary min-heap */
int32_t fnum_get(struct rec_writer *w)
{
	int32_t top;
	uint32_t i = 0;

	if (!w->nfreed)
		return w->next_fnum++;
	top = w->freed[0];
	w->freed[0] = w->freed[--w->nfreed];
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;
		int32_t t;

		if (l < w->nfreed && w->freed[l] < w->freed[m])
			m = l;
		if (r < w->nfreed && w->freed[r] < w->freed[m])
			m = r;
		if (m == i)
			break;
		t = w->freed[i];
		w->freed[i] = w->freed[m];
		w->freed[m] = t;
		i = m;
	}
	return top;
}

void fnum_put(struct rec_writer *w, int32_t fnum)
{
	uint32_t i;

	if (fnum <= 0)
		return;
	if (w->nfreed == w->cap_freed) {
		uint32_t cap = w->cap_freed ? w->cap_freed * 2 : 64;
		int32_t *v = realloc(w->freed, cap * sizeof(*v));

		if (!v) {
			w->oom = true; /* the number is just not reused */
			return;
		}
		w->freed = v;
		w->cap_freed = cap;
	}
	i = w->nfreed++;
	w->freed[i] = fnum;
	while (i && w->freed[(i - 1) / 2] > w->freed[i]) {
		int32_t t = w->freed[i];

		w->freed[i] = w->freed[(i - 1) / 2];
		w->freed[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

void tally(struct rec_writer *w, int kind, const char *what, uint64_t n)
{
	char key[256];
	uint32_t i;

	if (kind != TK_NOTE)
		w->sum.skipped += n;
	snprintf(key, sizeof(key), "%d %s", kind, what);
	if (strmap_get(&w->tmap, key, &i)) {
		w->tallies[i].n += n;
		return;
	}
	if (w->ntallies == w->cap_tallies) {
		uint32_t cap = w->cap_tallies ? w->cap_tallies * 2 : 32;
		struct tally *v = realloc(w->tallies, cap * sizeof(*v));

		if (!v) {
			w->oom = true;
			return;
		}
		w->tallies = v;
		w->cap_tallies = cap;
	}
	w->tallies[w->ntallies].kind = (uint8_t)kind;
	w->tallies[w->ntallies].what = strdup(what);
	w->tallies[w->ntallies].n = n;
	if (!w->tallies[w->ntallies].what ||
	    strmap_put(&w->tmap, key, w->ntallies)) {
		free(w->tallies[w->ntallies].what);
		w->oom = true;
		return;
	}
	w->ntallies++;
}

void lines_free(struct rec_writer *w)
{
	for (uint32_t i = 0; i < w->nlpaths; i++)
		free(w->lpaths[i]);
	free(w->lpaths);
	strmap_free(&w->lpmap);
	free(w->lines);
	free(w->freed);
	for (uint32_t i = 0; i < w->ntallies; i++)
		free(w->tallies[i].what);
	free(w->tallies);
	strmap_free(&w->tmap);
}
