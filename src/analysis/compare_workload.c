/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare_workload.c - whether runs replayed the same workload, and the
 * message that names two that did not (compare_workload.h).
 */
#include "compare_workload.h"

#include <stdio.h>
#include <string.h>

#include "result.h"
#include "stock.h"
#include "str_clean.h"

void cmp_workload_of(const struct result *x, struct cmp_workload *w)
{
	const char *s = x->cfg.loadfile;
	bool sha = x->env.nloadfiles > 0;

	*w = (struct cmp_workload){.given = s};
	for (int i = 0; sha && i < x->env.nloadfiles; i++)
		sha = x->env.loadfile_sha256[i] && x->env.loadfile_name[i];
	if (sha) {
		w->n = x->env.nloadfiles;
		w->name = (const char *const *)x->env.loadfile_name;
		w->sha256 = (const char *const *)x->env.loadfile_sha256;
		return;
	}
	/* the names of the list, as the run split it: empty ones skipped */
	for (; s && *s; s += strcspn(s, ",")) {
		s += strspn(s, ",");
		w->n += *s != 0;
	}
}

/* Name @i of @w, in @buf when it is cut out of the list. */
static const char *name_at(const struct cmp_workload *w, int i, char *buf,
			   size_t len)
{
	const char *s = w->given;
	size_t n;

	if (w->name)
		return w->name[i];
	for (;;) {
		s += strspn(s, ",");
		n = strcspn(s, ",");
		if (!i--)
			break;
		s += n;
	}
	snprintf(buf, len, "%.*s", (int)n, s);
	return buf;
}

static const char *sha_at(const struct cmp_workload *w, int i)
{
	return w->sha256 ? w->sha256[i] : NULL;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static enum lf_kind kind_at(const struct cmp_workload *w, int i)
{
	char buf[1024];

	return stock_kind(name_at(w, i, buf, sizeof(buf)), sha_at(w, i));
}

bool cmp_workload_same(const struct cmp_workload *a,
		       const struct cmp_workload *b)
{
	char ba[1024], bb[1024];

	if (!a->n || !b->n)
		return true;
	if (a->n != b->n)
		return false;
	for (int i = 0; i < a->n; i++) {
		const char *na = name_at(a, i, ba, sizeof(ba));
		const char *nb = name_at(b, i, bb, sizeof(bb));
		enum lf_kind k = kind_at(a, i);

		if (sha_at(a, i) && sha_at(b, i)) {
			if (strcmp(sha_at(a, i), sha_at(b, i)))
				return false;
			continue;
		}
		if (k != kind_at(b, i) ||
		    (k == LF_KIND_FILE &&
		     strcmp(base_name(na), base_name(nb))) ||
		    (k == LF_KIND_BUILTIN && strcmp(na, nb)))
			return false;
	}
	return true;
}

/* "dbench's client.txt (PATH)", "the built-in workload NAME", "the
 * loadfile NAME", "the loadfiles A,B" into @buf */
static void describe(const struct cmp_workload *w, char *buf, size_t len)
{
	char nb[1024];
	const char *name;

	if (w->n != 1) {
		snprintf(buf, len, "the loadfiles %s",
			 w->given ? w->given : "(not recorded)");
		return;
	}
	name = name_at(w, 0, nb, sizeof(nb));
	switch (kind_at(w, 0)) {
	case LF_KIND_CLIENT_TXT:
		snprintf(buf, len, "dbench's client.txt (%s)", name);
		break;
	case LF_KIND_BUILTIN:
		snprintf(buf, len, "the built-in workload %s", name);
		break;
	case LF_KIND_FILE:
		snprintf(buf, len, "the loadfile %s", name);
		break;
	}
}

/* Does @w have a loadfile of kind @k? */
static bool has_kind(const struct cmp_workload *w, enum lf_kind k)
{
	for (int i = 0; i < w->n; i++) {
		if (kind_at(w, i) == k)
			return true;
	}
	return false;
}

void cmp_workload_say(char *err, size_t len, const char *a,
		      const struct cmp_workload *wa, const char *b,
		      const struct cmp_workload *wb)
{
	char da[1200], db[1200];
	size_t n;

	describe(wa, da, sizeof(da));
	describe(wb, db, sizeof(db));
	/* the same names, other contents: say which contents */
	if (!strcmp(da, db) && sha_at(wa, 0) && sha_at(wb, 0)) {
		n = strlen(da);
		snprintf(da + n, sizeof(da) - n, " (sha256 %.12s...)",
			 sha_at(wa, 0));
		n = strlen(db);
		snprintf(db + n, sizeof(db) - n, " (sha256 %.12s...)",
			 sha_at(wb, 0));
	}
	snprintf(err, len,
		 "%s ran %s and %s %s: other workloads, so their numbers are "
		 "not comparable%s",
		 a, da, b, db,
		 (has_kind(wa, LF_KIND_CLIENT_TXT) &&
		  has_kind(wb, LF_KIND_BUILTIN)) ||
				 (has_kind(wb, LF_KIND_CLIENT_TXT) &&
				  has_kind(wa, LF_KIND_BUILTIN))
			 ? "; without -c, a run replays dbench's client.txt "
			   "where it is installed, else the built-in workload"
			 : "");
	str_clean_buf(err, len); /* loadfile names of results: any string */
}

bool cmp_workloads_differ(struct result *const *res, const char *const *names,
			  int n, const struct cmp_workload *also,
			  const char *also_name, char *err, size_t len)
{
	struct cmp_workload ref, w;
	int r = -1;

	for (int i = 0; i <= n; i++) {
		if (i < n)
			cmp_workload_of(res[i], &w);
		else if (also && r >= 0)
			w = *also;
		else
			break;
		if (!w.n)
			continue;
		if (r < 0) {
			ref = w;
			r = i;
		} else if (!cmp_workload_same(&ref, &w)) {
			cmp_workload_say(
				err, len,
				names && names[r] ? names[r] : "one run", &ref,
				i == n		    ? also_name
				: names && names[i] ? names[i]
						    : "another",
				&w);
			return true;
		}
	}
	return false;
}
