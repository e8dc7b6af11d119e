/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * loadfile.c - dbench loadfile parser and compiler: the entry points.
 *
 * The whole file is read once (lf_read.c: zlib reads plain and gzip
 * files alike), every line is checked and compiled into a struct lf_op
 * (lf_line.c), paths and handles are compiled (lf_paths.c) and all
 * strings are interned (imap.c).  Nothing here runs after the clients
 * start.
 */
#include "loadfile.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "lf_impl.h"
#include "sha256.h"

int lf_perr(struct parser *ps, const char *fmt, ...)
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

int lf_oom(struct parser *ps)
{
	return lf_perr(ps, "out of memory");
}

#define LF_HUGE (2u << 20) /* a transparent huge page (x86-64, arm64 4K) */

/*
 * The ops of a large loadfile (client.txt: 458k lines, 33 MB of ops) in
 * memory of their own, 2 MB aligned and advised to be huge pages: every
 * client process is forked with a copy of the parent's page tables of
 * them, 8400 entries of 4 KB pages (66 KB of page tables per process,
 * and a reference taken on each page: seconds for 10000 processes), or
 * 17 of huge ones.  Where the kernel gives no huge pages, or the mapping
 * fails, the ops stay where they are: only the cost of a fork changes.
 */
static void lf_pack_ops(struct program *p)
{
	size_t len = (size_t)p->nops * sizeof(*p->ops), map;
	uintptr_t a;
	char *m;

	if (len < LF_HUGE)
		return;
	map = (len + LF_HUGE - 1) / LF_HUGE * LF_HUGE;
	m = mmap(NULL, map + LF_HUGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return;
	/* the aligned part of it, the rest given back */
	a = ((uintptr_t)m + LF_HUGE - 1) & ~(uintptr_t)(LF_HUGE - 1);
	if (a > (uintptr_t)m)
		munmap(m, a - (uintptr_t)m);
	if ((uintptr_t)m + map + LF_HUGE > a + map)
		munmap((char *)(a + map),
		       (uintptr_t)m + map + LF_HUGE - (a + map));
	madvise((void *)a, map, MADV_HUGEPAGE); /* a hint: may fail */
	memcpy((void *)a, p->ops, len);
	free(p->ops);
	p->ops = (struct lf_op *)a;
	p->ops_map = (void *)a;
	p->ops_maplen = map;
}

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
		return lf_oom(&ps);
	ps.p->name = strdup(name);
	if (!ps.p->name || lf_intern_str(&ps.dirmap, &ps.p->dirs, &ps.p->ndirs,
					 &ps.cap_dirs, ".") < 0) {
		lf_oom(&ps);
		goto out;
	}
	while (s < end) {
		const char *nul;
		size_t ll;

		if (ps.line == UINT32_MAX - 1) {
			lf_perr(&ps, "too many lines");
			goto out;
		}
		ps.line++;
		nl = memchr(s, '\n', (size_t)(end - s));
		ll = (size_t)((nl ? nl : end) - s);
		if (ll && s[ll - 1] == '\r')
			ll--; /* CRLF files work as LF files */
		if (ll > LF_MAX_LINE) {
			lf_perr(&ps, "line longer than %d bytes (%zu)",
				LF_MAX_LINE, ll);
			goto out;
		}
		if ((nul = memchr(s, 0, ll))) {
			lf_perr(&ps, "NUL byte in line (column %zu)",
				(size_t)(nul - s) + 1);
			goto out;
		}
		memcpy(line, s, ll);
		line[ll] = 0;
		s = nl ? nl + 1 : end;
		if (lf_parse_line(&ps, line, prev))
			goto out;
		if (ps.p->nops && ps.p->ops[ps.p->nops - 1].line == ps.line)
			prev = ps.line;
	}
	if (lf_parse_end(&ps))
		goto out;
	sha256_hex(data, len, ps.p->sha256);
	ps.p->nlines = ps.line;
	ps.p->tail_lines = ps.line - prev;
	if (!ps.p->nops) {
		snprintf(err, errlen, "%s: no operations in loadfile", name);
		goto out;
	}
	if (lf_build_inval(&ps))
		goto out;
	lf_pack_ops(ps.p);
	*out = ps.p;
	ps.p = NULL;
	rc = 0;
out:
	lf_free(ps.p);
	lf_imap_free(&ps.dirmap);
	lf_imap_free(&ps.pathmap);
	lf_imap_free(&ps.fnummap);
	lf_imap_free(&ps.statmap);
	free(ps.needs_inval);
	free(ps.hstate);
	return rc;
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
	free(p->exprs);
	if (p->ops_map)
		munmap(p->ops_map, p->ops_maplen);
	else
		free(p->ops);
	free(p->name);
	free(p);
}
