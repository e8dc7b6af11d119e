/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lf_paths.c - the path compiler: a loadfile path into (directory index,
 * last component) below /clients, fnums into dense handle slots, the
 * directories each Rename and Rmdir invalidates, and the client name
 * substituted into a compiled path.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lf_impl.h"

/* @tok for a message: at most 64 bytes of it, "..." marking a cut. */
const char *lf_shorten(const char *tok, char *buf, size_t len)
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
int64_t lf_intern_path(struct parser *ps, const char *tok)
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
		return lf_perr(ps, "path '%s' must start with a backslash",
			       lf_shorten(tok, sh, sizeof(sh)));
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
			return lf_perr(ps, "path '%s': '..' is not allowed",
				       lf_shorten(tok, sh, sizeof(sh)));
		if (clen > MAX_NAME_LEN)
			return lf_perr(ps,
				       "path '%s': a component is longer "
				       "than %d bytes (%zu)",
				       lf_shorten(tok, sh, sizeof(sh)),
				       MAX_NAME_LEN, clen);
		if (ncomp++ == 0) {
			if (clen != 7 || memcmp(comp, "clients", 7))
				return lf_perr(ps,
					       "path '%s' is outside "
					       "\\clients",
					       lf_shorten(tok, sh, sizeof(sh)));
			continue;
		}
		if (flen + clen + 1 > MAX_PATH_LEN)
			return lf_perr(ps,
				       "path '%s' is too long (more than %d "
				       "bytes below \\clients)",
				       lf_shorten(tok, sh, sizeof(sh)),
				       MAX_PATH_LEN);
		if (flen)
			full[flen++] = '/';
		last = flen;
		memcpy(full + flen, comp, clen);
		flen += clen;
	}
	if (!ncomp)
		return lf_perr(ps, "path '%s' is outside \\clients",
			       lf_shorten(tok, sh, sizeof(sh)));
	if (!flen)
		full[flen++] = '.';
	full[flen] = 0;

	h = lf_hash_str(full);
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
	di = lf_intern_str(&ps->dirmap, &p->dirs, &p->ndirs, &ps->cap_dirs,
			   dir);
	if (di < 0)
		return lf_oom(ps);
	if ((ps->pathmap.n + 1) * 2 > ps->pathmap.cap &&
	    lf_imap_grow(&ps->pathmap))
		return lf_oom(ps);
	if (lf_vec_grow((void **)&p->paths, p->npaths, &ps->cap_paths,
			sizeof(*p->paths)) ||
	    lf_vec_grow((void **)&ps->needs_inval, p->npaths, &ps->cap_needs,
			sizeof(bool)))
		return lf_oom(ps);
	pi = p->npaths;
	memset(&p->paths[pi], 0, sizeof(p->paths[pi]));
	p->paths[pi].dir = (uint32_t)di;
	p->paths[pi].full = strdup(full);
	p->paths[pi].base = strdup(full + last);
	ps->needs_inval[pi] = false;
	if (!p->paths[pi].full || !p->paths[pi].base)
		return lf_oom(ps);
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
int64_t lf_intern_fnum(struct parser *ps, int32_t fnum)
{
	struct program *p = ps->p;
	struct imap *m = &ps->fnummap;
	uint64_t h = lf_hash_int(fnum);
	uint32_t j;

	if ((m->n + 1) * 2 > m->cap && lf_imap_grow(m))
		return lf_oom(ps);
	j = (uint32_t)h & (m->cap - 1);
	while (m->hash[j]) {
		if (m->hash[j] == h && p->fnums[m->idx[j]] == fnum)
			return m->idx[j];
		j = (j + 1) & (m->cap - 1);
	}
	if (lf_vec_grow((void **)&p->fnums, p->nhandles, &ps->cap_fnums,
			sizeof(*p->fnums)) ||
	    lf_vec_grow((void **)&ps->hstate, p->nhandles, &ps->cap_hstate,
			sizeof(*ps->hstate)))
		return lf_oom(ps);
	p->fnums[p->nhandles] = fnum;
	ps->hstate[p->nhandles] = (struct hstate){H_NEVER, 0};
	m->hash[j] = h;
	m->idx[j] = p->nhandles;
	m->n++;
	return p->nhandles++;
}

/* Compute, for the paths that Rename and Rmdir use, which cached
 * directories live at or below them (clients drop those after success). */
int lf_build_inval(struct parser *ps)
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
			if (lf_vec_grow((void **)&p->inval, n, &cap,
					sizeof(uint32_t)))
				return lf_oom(ps);
			p->inval[n++] = d;
		}
		pa->ninval = n - pa->inval;
	}
	return 0;
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
