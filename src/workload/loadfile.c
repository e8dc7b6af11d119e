/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * loadfile.c - dbench loadfile parser and compiler.
 *
 * The whole file is read once (zlib reads plain and gzip files alike),
 * every line is checked and compiled into a struct lf_op, and all strings
 * are interned.  Nothing here runs after the clients start.
 */
#include "loadfile.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "sha256.h"

#define MAX_TOKENS   8
#define MAX_PATH_LEN 1024
#define MAX_NAME_LEN 255

/* ---------------------------- interning -------------------------------- */

/* An open-addressing map from a key (string or integer) to a dense index. */
struct imap {
	uint64_t *hash; /* 0 = empty slot */
	uint32_t *idx;
	uint32_t cap; /* power of two */
	uint32_t n;
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h | 1;
}

static uint64_t hash_int(int64_t v)
{
	uint64_t h = (uint64_t)v * 0x9e3779b97f4a7c15ULL;

	return (h ^ (h >> 29)) | 1;
}

static int imap_grow(struct imap *m)
{
	uint32_t cap = m->cap ? m->cap * 2 : 256;
	uint64_t *hash = calloc(cap, sizeof(*hash));
	uint32_t *idx = calloc(cap, sizeof(*idx));

	if (!hash || !idx) {
		free(hash);
		free(idx);
		return -1;
	}
	for (uint32_t i = 0; i < m->cap; i++) {
		uint32_t j;

		if (!m->hash[i])
			continue;
		j = (uint32_t)m->hash[i] & (cap - 1);
		while (hash[j])
			j = (j + 1) & (cap - 1);
		hash[j] = m->hash[i];
		idx[j] = m->idx[i];
	}
	free(m->hash);
	free(m->idx);
	m->hash = hash;
	m->idx = idx;
	m->cap = cap;
	return 0;
}

static void imap_free(struct imap *m)
{
	free(m->hash);
	free(m->idx);
}

/* A growable array of pointers or integers. */
static int grow(void **arr, uint32_t n, uint32_t *cap, size_t elem)
{
	void *p;
	uint32_t ncap;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 64;
	p = realloc(*arr, (size_t)ncap * elem);
	if (!p)
		return -1;
	*arr = p;
	*cap = ncap;
	return 0;
}

struct parser {
	struct program *p;
	const char *name;
	uint32_t line;
	char *err;
	size_t errlen;
	struct imap dirmap, pathmap, fnummap, statmap;
	uint32_t cap_ops, cap_dirs, cap_paths, cap_fnums, cap_status;
	bool *needs_inval; /* per path: used by Rename or Rmdir */
	uint32_t cap_needs;
	struct hstate *hstate; /* per handle slot, see check_handle() */
	uint32_t cap_hstate;
};

/*
 * What the lines so far do to a handle in a client's first pass, which
 * starts with every handle closed.  A client can only have it open when an
 * NTCreateX that may succeed came after the last Close: any other use
 * fails in the first pass, whatever happens at run time.
 */
enum hkind {
	H_NEVER,    /* no NTCreateX of it yet */
	H_FAILOPEN, /* only NTCreateX that expect failure (register nothing) */
	H_OPEN,	    /* an NTCreateX that may succeed, no Close since */
	H_CLOSED,   /* closed at .line */
};

struct hstate {
	uint8_t kind;  /* enum hkind */
	uint32_t line; /* line of the event kind refers to */
};

static int perr(struct parser *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int perr(struct parser *ps, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(ps->err, ps->errlen, "%s:%u: ", ps->name, ps->line);

	if (n < 0 || (size_t)n >= ps->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(ps->err + n, ps->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static int oom(struct parser *ps)
{
	return perr(ps, "out of memory");
}

/*
 * Find @s among the strings *@tab (through map @m), adding a copy if new.
 * Returns the index or -1 (out of memory).
 */
static int64_t intern_str(struct imap *m, char ***tab, uint32_t *n,
			  uint32_t *cap, const char *s)
{
	uint64_t h = hash_str(s);
	uint32_t j;

	if ((m->n + 1) * 2 > m->cap && imap_grow(m))
		return -1;
	j = (uint32_t)h & (m->cap - 1);
	while (m->hash[j]) {
		if (m->hash[j] == h && !strcmp((*tab)[m->idx[j]], s))
			return m->idx[j];
		j = (j + 1) & (m->cap - 1);
	}
	if (grow((void **)tab, *n, cap, sizeof(char *)))
		return -1;
	(*tab)[*n] = strdup(s);
	if (!(*tab)[*n])
		return -1;
	m->hash[j] = h;
	m->idx[j] = *n;
	m->n++;
	return (*n)++;
}

/* ------------------------------ paths ---------------------------------- */

/* @tok for a message: at most 64 bytes of it, "..." marking a cut. */
static const char *shorten(const char *tok, char *buf, size_t len)
{
	if (strlen(tok) < 68)
		return tok;
	snprintf(buf, len, "%.64s...", tok);
	return buf;
}

/*
 * Turn a loadfile path ("/clients/client1/dir/file" after the backslash
 * rewrite) into a path index.  Only paths below /clients are accepted; '.'
 * and empty components are dropped, '..' is refused, so no path can name
 * anything outside DIR/clients however the client name is substituted.
 */
static int64_t intern_path(struct parser *ps, const char *tok)
{
	struct program *p = ps->p;
	char full[MAX_PATH_LEN + 1], dir[MAX_PATH_LEN + 1], sh[72];
	const char *s = tok, *comp;
	size_t flen = 0, clen, last = 0;
	int ncomp = 0;
	int64_t pi, di;
	uint64_t h;
	uint32_t j;

	if (*s != '/')
		return perr(ps, "path '%s' must start with a backslash",
			    shorten(tok, sh, sizeof(sh)));
	while (*s) {
		while (*s == '/')
			s++;
		if (!*s)
			break;
		comp = s;
		while (*s && *s != '/')
			s++;
		clen = (size_t)(s - comp);
		if (clen == 1 && comp[0] == '.')
			continue;
		if (clen == 2 && comp[0] == '.' && comp[1] == '.')
			return perr(ps, "path '%s': '..' is not allowed",
				    shorten(tok, sh, sizeof(sh)));
		if (clen > MAX_NAME_LEN)
			return perr(ps,
				    "path '%s': a component is longer "
				    "than %d bytes (%zu)",
				    shorten(tok, sh, sizeof(sh)), MAX_NAME_LEN,
				    clen);
		if (ncomp++ == 0) {
			if (clen != 7 || memcmp(comp, "clients", 7))
				return perr(ps,
					    "path '%s' is outside "
					    "\\clients",
					    shorten(tok, sh, sizeof(sh)));
			continue;
		}
		if (flen + clen + 1 > MAX_PATH_LEN)
			return perr(ps,
				    "path '%s' is too long (more than %d "
				    "bytes below \\clients)",
				    shorten(tok, sh, sizeof(sh)), MAX_PATH_LEN);
		if (flen)
			full[flen++] = '/';
		last = flen;
		memcpy(full + flen, comp, clen);
		flen += clen;
	}
	if (!ncomp)
		return perr(ps, "path '%s' is outside \\clients",
			    shorten(tok, sh, sizeof(sh)));
	if (!flen)
		full[flen++] = '.';
	full[flen] = 0;

	h = hash_str(full);
	if (ps->pathmap.cap) {
		j = (uint32_t)h & (ps->pathmap.cap - 1);
		while (ps->pathmap.hash[j]) {
			if (ps->pathmap.hash[j] == h &&
			    !strcmp(p->paths[ps->pathmap.idx[j]].full, full))
				return ps->pathmap.idx[j];
			j = (j + 1) & (ps->pathmap.cap - 1);
		}
	}

	/* a new path: intern its directory, then the path itself */
	if (last) {
		memcpy(dir, full, last - 1);
		dir[last - 1] = 0;
	} else {
		strcpy(dir, ".");
	}
	di = intern_str(&ps->dirmap, &p->dirs, &p->ndirs, &ps->cap_dirs, dir);
	if (di < 0)
		return oom(ps);
	if ((ps->pathmap.n + 1) * 2 > ps->pathmap.cap &&
	    imap_grow(&ps->pathmap))
		return oom(ps);
	if (grow((void **)&p->paths, p->npaths, &ps->cap_paths,
		 sizeof(*p->paths)) ||
	    grow((void **)&ps->needs_inval, p->npaths, &ps->cap_needs,
		 sizeof(bool)))
		return oom(ps);
	pi = p->npaths;
	memset(&p->paths[pi], 0, sizeof(p->paths[pi]));
	p->paths[pi].dir = (uint32_t)di;
	p->paths[pi].full = strdup(full);
	p->paths[pi].base = strdup(full + last);
	ps->needs_inval[pi] = false;
	if (!p->paths[pi].full || !p->paths[pi].base)
		return oom(ps);
	p->npaths++;
	j = (uint32_t)h & (ps->pathmap.cap - 1);
	while (ps->pathmap.hash[j])
		j = (j + 1) & (ps->pathmap.cap - 1);
	ps->pathmap.hash[j] = h;
	ps->pathmap.idx[j] = (uint32_t)pi;
	ps->pathmap.n++;
	return pi;
}

/* Map an fnum to its dense handle slot. */
static int64_t intern_fnum(struct parser *ps, int32_t fnum)
{
	struct program *p = ps->p;
	struct imap *m = &ps->fnummap;
	uint64_t h = hash_int(fnum);
	uint32_t j;

	if ((m->n + 1) * 2 > m->cap && imap_grow(m))
		return oom(ps);
	j = (uint32_t)h & (m->cap - 1);
	while (m->hash[j]) {
		if (m->hash[j] == h && p->fnums[m->idx[j]] == fnum)
			return m->idx[j];
		j = (j + 1) & (m->cap - 1);
	}
	if (grow((void **)&p->fnums, p->nhandles, &ps->cap_fnums,
		 sizeof(*p->fnums)) ||
	    grow((void **)&ps->hstate, p->nhandles, &ps->cap_hstate,
		 sizeof(*ps->hstate)))
		return oom(ps);
	p->fnums[p->nhandles] = fnum;
	ps->hstate[p->nhandles] = (struct hstate){H_NEVER, 0};
	m->hash[j] = h;
	m->idx[j] = p->nhandles;
	m->n++;
	return p->nhandles++;
}

/* Compute, for the paths that Rename and Rmdir use, which cached
 * directories live at or below them (clients drop those after success). */
static int build_inval(struct parser *ps)
{
	struct program *p = ps->p;
	uint32_t n = 0, cap = 0;

	for (uint32_t i = 0; i < p->npaths; i++) {
		struct lf_path *pa = &p->paths[i];
		size_t len = strlen(pa->full);
		bool root = !strcmp(pa->full, ".");

		pa->inval = n;
		if (!ps->needs_inval[i])
			continue;
		for (uint32_t d = 1; d < p->ndirs; d++) {
			const char *dn = p->dirs[d];

			if (!root && (strncmp(dn, pa->full, len) ||
				      (dn[len] && dn[len] != '/')))
				continue;
			if (grow((void **)&p->inval, n, &cap, sizeof(uint32_t)))
				return oom(ps);
			p->inval[n++] = d;
		}
		pa->ninval = n - pa->inval;
	}
	return 0;
}

/* ------------------------------ lines ---------------------------------- */

static int parse_int(struct parser *ps, const char *tok, const char *what,
		     int64_t min, int64_t max, int64_t *out)
{
	char *end, sh[72];
	long long v;

	errno = 0;
	v = strtoll(tok, &end, 0);
	if (end == tok || *end)
		return perr(ps, "%s '%s' is not a number", what,
			    shorten(tok, sh, sizeof(sh)));
	if (errno == ERANGE || v < min || v > max)
		return perr(ps, "%s %s is out of range (%lld..%lld)", what,
			    shorten(tok, sh, sizeof(sh)), (long long)min,
			    (long long)max);
	*out = v;
	return 0;
}

static int parse_status(struct parser *ps, const char *tok, uint8_t *expect)
{
	char sh[72];

	if (!strcmp(tok, "NT_STATUS_OK") || !strcmp(tok, "SUCCESS")) {
		*expect = LF_EXPECT_OK;
	} else if (!strncmp(tok, "NT_STATUS_", 10) || !strcmp(tok, "ERROR")) {
		*expect = LF_EXPECT_FAIL;
	} else if (!strcmp(tok, "*")) {
		*expect = LF_EXPECT_ANY;
	} else if (!strncasecmp(tok, "0x", 2) && tok[2]) {
		char *end;
		unsigned long long v;

		errno = 0;
		v = strtoull(tok + 2, &end, 16);
		if (*end || errno)
			goto bad;
		*expect = v ? LF_EXPECT_FAIL : LF_EXPECT_OK;
	} else {
		goto bad;
	}
	return 0;
bad:
	return perr(ps,
		    "bad status '%s' (expected NT_STATUS_..., 0x..., "
		    "SUCCESS, ERROR or *)",
		    shorten(tok, sh, sizeof(sh)));
}

/* Split @line in place into tokens: spaces and tabs separate, double
 * quotes group and are removed.  Returns the count or -1. */
static int tokenize(struct parser *ps, char *line, char **tok)
{
	int n = 0;
	char *r = line, *w;

	for (;;) {
		bool quoted = false;

		while (*r == ' ' || *r == '\t')
			r++;
		if (!*r)
			break;
		if (n == MAX_TOKENS)
			return perr(ps, "too many fields (at most %d)",
				    MAX_TOKENS);
		tok[n++] = w = r;
		while (*r && (quoted || (*r != ' ' && *r != '\t'))) {
			if (*r == '"')
				quoted = !quoted;
			else
				*w++ = *r;
			r++;
		}
		if (quoted)
			return perr(ps, "unterminated quote");
		if (*r)
			r++;
		*w = 0;
	}
	return n;
}

/*
 * Length of the UTF-8 sequence at @s (at most @n bytes), 0 if it is not
 * valid: overlong forms, surrogates and values over U+10FFFF are not.
 */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t c;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, c = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, c = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	return len;
}

/*
 * An operation line may hold printable text only: no control character
 * but the tab (a name with an escape sequence would reach the terminal
 * in messages) and valid UTF-8 (names go into the JSON and HTML
 * results, which are UTF-8).  Comment lines are not checked.
 */
static int check_text(struct parser *ps, const char *line)
{
	const unsigned char *s = (const unsigned char *)line;
	size_t n = strlen(line), i = 0, k;

	while (i < n) {
		if (s[i] == '\r')
			return perr(ps,
				    "carriage return at column %zu (only "
				    "one just before the line end is "
				    "allowed)",
				    i + 1);
		if ((s[i] < 0x20 && s[i] != '\t') || s[i] == 0x7f)
			return perr(ps,
				    "control character 0x%02x at column %zu",
				    s[i], i + 1);
		k = utf8_len(s + i, n - i);
		if (!k)
			return perr(ps,
				    "invalid UTF-8 (byte 0x%02x at column "
				    "%zu)",
				    s[i], i + 1);
		/* U+0080..U+009F: the C1 control characters */
		if (k == 2 && s[i] == 0xc2 && s[i + 1] < 0xa0)
			return perr(ps,
				    "control character U+%04X at column %zu",
				    s[i + 1], i + 1);
		i += k;
	}
	return 0;
}

/*
 * Follow handle use in file order (see struct hstate): a use that must
 * fail in every client's first pass is refused now, before anything runs.
 */
static int check_handle(struct parser *ps, const struct lf_op *op,
			const char *kw)
{
	struct hstate *h = &ps->hstate[op->handle];
	int32_t fnum = ps->p->fnums[op->handle];

	if (op->type == OP_NTCREATEX) {
		if (op->expect != LF_EXPECT_FAIL)
			*h = (struct hstate){H_OPEN, ps->line};
		else if (h->kind == H_NEVER)
			*h = (struct hstate){H_FAILOPEN, ps->line};
		return 0;
	}
	switch (h->kind) {
	case H_NEVER:
		return perr(ps,
			    "%s: handle %d is used before it is opened (no "
			    "NTCreateX of it on an earlier line)",
			    kw, fnum);
	case H_FAILOPEN:
		return perr(ps,
			    "%s: handle %d is never opened: its NTCreateX at "
			    "line %u expects failure",
			    kw, fnum, h->line);
	case H_CLOSED:
		return perr(ps,
			    "%s: handle %d was closed at line %u and not "
			    "opened again",
			    kw, fnum, h->line);
	default:
		break;
	}
	if (op->type == OP_CLOSE)
		*h = (struct hstate){H_CLOSED, ps->line};
	return 0;
}

static int parse_line(struct parser *ps, char *line, uint32_t prev_line)
{
	struct program *p = ps->p;
	char *tok[MAX_TOKENS], sh[72];
	const char *shape;
	struct lf_op *op;
	int n, t, first = 0, nargs, ni = 0, type;
	int64_t v;

	for (char *c = line; *c == ' ' || *c == '\t'; c++)
		if (c[1] == '#')
			return 0;
	if (line[0] == '#')
		return 0;
	if (check_text(ps, line))
		return -1;
	for (char *c = line; *c; c++) {
		if (*c == '\\')
			*c = '/';
	}
	n = tokenize(ps, line, tok);
	if (n < 0)
		return -1;
	if (n == 0 || tok[0][0] == '#')
		return 0;
	if (!strncmp(tok[0], "SMB", 3))
		return perr(ps,
			    "this is a dbench 1 loadfile ('%s'); dbench 4 "
			    "loadfiles are needed",
			    shorten(tok[0], sh, sizeof(sh)));
	if (grow((void **)&p->ops, p->nops, &ps->cap_ops, sizeof(*p->ops)))
		return oom(ps);
	op = &p->ops[p->nops];
	memset(op, 0, sizeof(*op));
	op->path[0] = op->path[1] = op->handle = LF_NONE;
	op->line = ps->line;
	op->line_delta = ps->line - prev_line;

	if (isdigit((unsigned char)tok[0][0]) ||
	    (strchr("+-.", tok[0][0]) && isdigit((unsigned char)tok[0][1]))) {
		char *end;
		double ts = strtod(tok[0], &end);

		if (*end || !isdigit((unsigned char)tok[0][0]) ||
		    !isfinite(ts) || ts < 0 || ts > 1e7)
			return perr(ps,
				    "bad timestamp '%s' (seconds, a number "
				    "from 0 to 10000000)",
				    shorten(tok[0], sh, sizeof(sh)));
		op->ts_ns = (uint64_t)llround(ts * 1e9);
		p->has_timestamps = 1;
		first = 1;
	}
	if (n == first)
		return perr(ps, "timestamp '%s' without an operation",
			    shorten(tok[0], sh, sizeof(sh)));
	if (n - first < 2)
		return perr(ps, "'%s' has no status field",
			    shorten(tok[first], sh, sizeof(sh)));
	type = op_lookup(tok[first]);
	if (type < 0)
		return perr(ps, "unknown operation '%s'",
			    shorten(tok[first], sh, sizeof(sh)));
	op->type = (uint8_t)type;
	shape = op_info[type].args;
	nargs = n - first - 2;
	if (nargs != (int)strlen(shape))
		return perr(ps,
			    "%s takes %zu argument%s and a status, "
			    "found %d",
			    tok[first], strlen(shape),
			    strlen(shape) == 1 ? "" : "s", nargs);
	if (parse_status(ps, tok[n - 1], &op->expect))
		return -1;
	v = intern_str(&ps->statmap, &p->status, &p->nstatus, &ps->cap_status,
		       tok[n - 1]);
	if (v < 0)
		return oom(ps);
	op->status = (uint32_t)v;

	for (t = 0; t < nargs; t++) {
		const char *a = tok[first + 1 + t];

		switch (shape[t]) {
		case 'P':
			v = intern_path(ps, a);
			if (v < 0)
				return -1;
			op->path[op->path[0] == LF_NONE ? 0 : 1] = (uint32_t)v;
			break;
		case 'H':
			if (parse_int(ps, a, "handle", INT32_MIN, INT32_MAX,
				      &v))
				return -1;
			v = intern_fnum(ps, (int32_t)v);
			if (v < 0)
				return -1;
			op->handle = (uint32_t)v;
			break;
		default:
			if (parse_int(ps, a, "argument", INT64_MIN, INT64_MAX,
				      &op->arg[ni]))
				return -1;
			ni++;
			break;
		}
	}

	switch (type) {
	case OP_WRITEX:
	case OP_READX:
		if (op->arg[0] < 0 || op->arg[0] > (INT64_MAX >> 2))
			return perr(ps, "offset %lld is out of range",
				    (long long)op->arg[0]);
		if (op->arg[1] < 0 || op->arg[1] > LF_MAX_IO ||
		    op->arg[2] < 0 || op->arg[2] > LF_MAX_IO)
			return perr(ps, "size out of range (0..%u)", LF_MAX_IO);
		op->io_bytes[0] = (uint32_t)op->arg[1];
		op->io_bytes[1] = (uint32_t)op->arg[2];
		if (op->arg[1] > p->max_io)
			p->max_io = (uint32_t)op->arg[1];
		break;
	case OP_LOCKX:
	case OP_UNLOCKX:
		if (op->arg[0] < 0 || op->arg[1] < 0)
			return perr(ps, "lock range must not be negative");
		break;
	case OP_SLEEP:
		if (op->arg[0] < 0 || op->arg[0] > 3600000000LL)
			return perr(ps,
				    "sleep of %lld us is out of range "
				    "(0..3600000000)",
				    (long long)op->arg[0]);
		break;
	case OP_FIND:
		if (strpbrk(p->paths[op->path[0]].full, "<>*?\""))
			op->flags |= LF_F_WILDCARD;
		break;
	case OP_RENAME:
		ps->needs_inval[op->path[1]] = true;
		/* fall through */
	case OP_RMDIR:
		ps->needs_inval[op->path[0]] = true;
		break;
	default:
		break;
	}
	if (op->handle != LF_NONE && check_handle(ps, op, tok[first]))
		return -1;
	p->op_count[type]++;
	p->nops++;
	return 0;
}

/* ------------------------------ entry ---------------------------------- */

int lf_parse_buffer(const char *name, const char *data, size_t len,
		    struct program **out, char *err, size_t errlen)
{
	struct parser ps = {.name = name, .err = err, .errlen = errlen};
	char line[LF_MAX_LINE + 1];
	const char *s = data, *end = data + len, *nl;
	uint32_t prev = 0;
	int rc = -1;

	ps.p = calloc(1, sizeof(*ps.p));
	if (!ps.p)
		return oom(&ps);
	ps.p->name = strdup(name);
	if (!ps.p->name || intern_str(&ps.dirmap, &ps.p->dirs, &ps.p->ndirs,
				      &ps.cap_dirs, ".") < 0) {
		oom(&ps);
		goto out;
	}
	while (s < end) {
		const char *nul;
		size_t ll;

		if (ps.line == UINT32_MAX - 1) {
			perr(&ps, "too many lines");
			goto out;
		}
		ps.line++;
		nl = memchr(s, '\n', (size_t)(end - s));
		ll = (size_t)((nl ? nl : end) - s);
		if (ll && s[ll - 1] == '\r')
			ll--; /* CRLF files work as LF files */
		if (ll > LF_MAX_LINE) {
			perr(&ps, "line longer than %d bytes (%zu)",
			     LF_MAX_LINE, ll);
			goto out;
		}
		if ((nul = memchr(s, 0, ll))) {
			perr(&ps, "NUL byte in line (column %zu)",
			     (size_t)(nul - s) + 1);
			goto out;
		}
		memcpy(line, s, ll);
		line[ll] = 0;
		s = nl ? nl + 1 : end;
		if (parse_line(&ps, line, prev))
			goto out;
		if (ps.p->nops && ps.p->ops[ps.p->nops - 1].line == ps.line)
			prev = ps.line;
	}
	sha256_hex(data, len, ps.p->sha256);
	ps.p->nlines = ps.line;
	ps.p->tail_lines = ps.line - prev;
	if (!ps.p->nops) {
		snprintf(err, errlen, "%s: no operations in loadfile", name);
		goto out;
	}
	if (build_inval(&ps))
		goto out;
	*out = ps.p;
	ps.p = NULL;
	rc = 0;
out:
	lf_free(ps.p);
	imap_free(&ps.dirmap);
	imap_free(&ps.pathmap);
	imap_free(&ps.fnummap);
	imap_free(&ps.statmap);
	free(ps.needs_inval);
	free(ps.hstate);
	return rc;
}

/* Did reading @gz stop on an error (a corrupt or truncated gzip file)? */
static bool gz_failed(gzFile gz)
{
	int zerr;

	(void)gzerror(gz, &zerr);
	return zerr != Z_OK && zerr != Z_STREAM_END;
}

/* "PATH: cannot read loadfile: REASON" for a failed gzread of @gz. */
static void gz_error(gzFile gz, const char *path, char *err, size_t errlen)
{
	int zerr;
	const char *msg = gzerror(gz, &zerr), *hint = "";
	size_t pl = strlen(path);

	if (zerr == Z_ERRNO) {
		msg = strerror(errno);
	} else {
		/* zlib's message starts with the path */
		if (!strncmp(msg, path, pl) && msg[pl] == ':')
			msg += pl + 2;
		if (zerr == Z_BUF_ERROR)
			hint = " (truncated gzip file?)";
		else if (zerr == Z_DATA_ERROR)
			hint = " (corrupt gzip file)";
	}
	snprintf(err, errlen, "%s: cannot read loadfile: %s%s", path, msg,
		 hint);
}

int lf_parse_file(const char *path, struct program **out, char *err,
		  size_t errlen)
{
	size_t len = 0, cap = 1 << 20;
	char *buf = NULL;
	gzFile gz;
	int n, rc;

	gz = gzopen(path, "rb");
	if (!gz) {
		snprintf(err, errlen, "%s: cannot open loadfile: %s", path,
			 errno ? strerror(errno) : "out of memory");
		return -1;
	}
	buf = malloc(cap);
	if (!buf)
		goto nomem;
	for (;;) {
		if (len == cap) {
			char *nb;

			cap *= 2;
			if (cap > (1u << 30)) {
				snprintf(err, errlen,
					 "%s: loadfile larger than "
					 "1 GiB",
					 path);
				goto fail;
			}
			nb = realloc(buf, cap);
			if (!nb)
				goto nomem;
			buf = nb;
		}
		n = gzread(gz, buf + len, (unsigned int)(cap - len));
		if (n < 0 || (n == 0 && gz_failed(gz))) {
			gz_error(gz, path, err, errlen);
			goto fail;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	gzclose(gz);
	rc = lf_parse_buffer(path, buf, len, out, err, errlen);
	free(buf);
	return rc;
nomem:
	snprintf(err, errlen, "%s: out of memory", path);
fail:
	gzclose(gz);
	free(buf);
	return -1;
}

void lf_free(struct program *p)
{
	if (!p)
		return;
	for (uint32_t i = 0; i < p->ndirs; i++)
		free(p->dirs[i]);
	for (uint32_t i = 0; i < p->npaths; i++) {
		free(p->paths[i].full);
		free(p->paths[i].base);
	}
	for (uint32_t i = 0; i < p->nstatus; i++)
		free(p->status[i]);
	free(p->dirs);
	free(p->paths);
	free(p->inval);
	free(p->fnums);
	free(p->status);
	free(p->ops);
	free(p->name);
	free(p);
}

int lf_subst_client(char *dst, size_t dstlen, const char *tmpl, int id)
{
	size_t n = 0;
	int k;

	while (*tmpl) {
		if (!strncmp(tmpl, "client1", 7)) {
			k = snprintf(dst + n, dstlen - n, "client%d", id);
			if (k < 0 || (size_t)k >= dstlen - n)
				return -1;
			n += (size_t)k;
			tmpl += 7;
			continue;
		}
		if (n + 1 >= dstlen)
			return -1;
		dst[n++] = *tmpl++;
	}
	if (n >= dstlen)
		return -1;
	dst[n] = 0;
	return (int)n;
}
