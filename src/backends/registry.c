/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * registry.c - the table of backends (the only list of them: names in
 * messages and --help come from it), their -o options, and the checks,
 * before any fork, that a backend can do what the run asks.
 */
#include "registry.h"
#include "registry_test.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const struct backend *const backends[] = {
	&backend_fileio, /* the first is the default */
	&backend_null,
	&backend_sockio,
	/* the backends that need a library, under HAVE_BACKEND_NAME (the
	 * Makefile's OPT_BACKENDS) */
#ifdef HAVE_BACKEND_nfs
	&backend_nfs,
#endif
#ifdef HAVE_BACKEND_smb
	&backend_smb,
#endif
};
#define NBACKENDS (sizeof(backends) / sizeof(backends[0]))

/* "NAME:DEBIAN-PACKAGE ..." of the backends this build left out because
 * pkg-config did not find their library (the Makefile's OPT_BACKENDS) */
#ifndef DBNG_MISSING_BACKENDS
#define DBNG_MISSING_BACKENDS ""
#endif
static const char missing_backends[] = DBNG_MISSING_BACKENDS;

struct missing_entry {
	const char *name;
	int nlen;
	const char *deb;
	int dlen;
};

/* The entry of @list at @p ("NAME:DEB ..."): its name and package; returns
 * where the next one starts, or NULL at the end (or at a malformed one). */
static const char *missing_next(const char *p, struct missing_entry *e)
{
	const char *end, *colon;

	p += strspn(p, " ");
	end = p + strcspn(p, " ");
	colon = memchr(p, ':', (size_t)(end - p));
	if (!*p || !colon)
		return NULL;
	*e = (struct missing_entry){p, (int)(colon - p), colon + 1,
				    (int)(end - colon - 1)};
	return end;
}

int backend_missing_in(const char *list, const char *name, char *deb,
		       size_t len)
{
	struct missing_entry e;

	for (const char *p = list; (p = missing_next(p, &e));) {
		if ((size_t)e.nlen == strlen(name) &&
		    !strncmp(e.name, name, (size_t)e.nlen)) {
			snprintf(deb, len, "%.*s", e.dlen, e.deb);
			return 1;
		}
	}
	return 0;
}

int backend_unavailable(const char *name, char *deb, size_t len)
{
	return backend_missing_in(missing_backends, name, deb, len);
}

void backend_missing_help(FILE *f, const char *list)
{
	struct missing_entry e;
	int n = 0;

	for (const char *p = list; (p = missing_next(p, &e)); n++)
		fprintf(f, "%s%.*s (needs %.*s)",
			n ? ", "
			  : "                             not built here: ",
			e.nlen, e.name, e.dlen, e.deb);
	if (n)
		fputc('\n', f);
}

const struct backend *backend_default(void)
{
	return backends[0];
}

const struct backend *backend_find(const char *name)
{
	for (size_t i = 0; i < NBACKENDS; i++) {
		if (!strcmp(backends[i]->name, name))
			return backends[i];
	}
	return NULL;
}

const char *backend_names(void)
{
	static char buf[256];
	size_t n = 0;

	if (buf[0])
		return buf;
	for (size_t i = 0; i < NBACKENDS && n < sizeof(buf); i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s",
				      i ? ", " : "", backends[i]->name);
	return buf;
}

void backend_help(FILE *f)
{
	/* "fileio (default) or null (no I/O at all)" */
	fprintf(f, "  -B, --backend=NAME         ");
	for (size_t i = 0; i < NBACKENDS; i++)
		fprintf(f, "%s%s (%s)",
			!i ? "" : i + 1 == NBACKENDS ? " or " : ", ",
			backends[i]->name,
			!i ? "default" : backends[i]->summary);
	fputc('\n', f);
	backend_missing_help(f, missing_backends);
	fprintf(f, "  -o, --backend-option=NAME[=VALUE]\n"
		"                             an option of the backend:\n");
	for (size_t i = 0; i < NBACKENDS; i++) {
		const struct be_option *o = backends[i]->options;

		for (; o && o->name; o++) {
			const char *eq = o->metavar ? "=" : "";
			const char *mv = o->metavar ? o->metavar : "";

			fprintf(f, "                             %s: -o %s%s%s",
				backends[i]->name, o->name, eq, mv);
			if (o->lopt)
				fprintf(f, ", --%s%s%s", o->lopt, eq, mv);
			fprintf(f, "\n                               %s\n",
				o->help);
		}
	}
}

/* The option of @b called @name (@len bytes), or, with @lopt, the one
 * whose long option it is. */
static const struct be_option *find_option(const struct backend *b,
					   const char *name, size_t len,
					   bool lopt)
{
	for (const struct be_option *o = b->options; o && o->name; o++) {
		const char *n = lopt ? o->lopt : o->name;

		if (n && strlen(n) == len && !strncmp(n, name, len))
			return o;
	}
	return NULL;
}

bool backend_option_secret(const char *kv)
{
	bool lopt = !strncmp(kv, "--", 2);
	const char *name = lopt ? kv + 2 : kv;
	size_t len = strcspn(name, "=");

	for (size_t i = 0; i < NBACKENDS; i++) {
		const struct be_option *o =
			find_option(backends[i], name, len, lopt);

		if (o && o->secret)
			return true;
	}
	return false;
}

int backend_long_options(const struct be_option **out, int max)
{
	int n = 0;

	for (size_t i = 0; i < NBACKENDS; i++) {
		for (const struct be_option *o = backends[i]->options;
		     o && o->name; o++) {
			int k = 0;

			if (!o->lopt)
				continue;
			while (k < n && strcmp(out[k]->lopt, o->lopt))
				k++;
			if (k < n)
				continue; /* another backend's, already in */
			if (n == max)
				return -1;
			out[n++] = o;
		}
	}
	return n;
}

/* @kv of an option no backend takes as given, as a message may show it:
 * the value of an option that is secret for some backend, or whose name
 * says it is a password, as "(secret)" (-o password=PW to a backend
 * without that option echoed the password) */
static const char *shown(const char *kv, size_t len, char *buf, size_t blen)
{
	char name[64];

	snprintf(name, sizeof(name), "%.*s", (int)len, kv);
	if (!kv[len] || (!backend_option_secret(kv) && !strcasestr(name, "pass") &&
			 !strcasestr(name, "secret")))
		return kv;
	snprintf(buf, blen, "%.*s=(secret)", (int)len, kv);
	return buf;
}

/* "--LOPT[=VALUE]: backend 'B' has no option --LOPT (an option of -B X,
 * -B Y)" in @err */
static int no_long_option(const struct backend *b, const char *kv, size_t len,
			  char *err, size_t errlen)
{
	char buf[128];
	size_t n = (size_t)snprintf(err, errlen, "%s: backend '%s' has no "
				    "option %.*s",
				    shown(kv, len, buf, sizeof(buf)), b->name,
				    (int)len, kv);
	int k = 0;

	for (size_t i = 0; i < NBACKENDS && n < errlen; i++) {
		if (find_option(backends[i], kv + 2, len - 2, true))
			n += (size_t)snprintf(err + n, errlen - n, "%s-B %s",
					      k++ ? ", " : " (an option of ",
					      backends[i]->name);
	}
	if (k && n < errlen)
		snprintf(err + n, errlen - n, ")");
	return -1;
}

static int needs_value(const char *kv, size_t len, bool lopt,
		       const struct be_option *o, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s%.*s needs a value (%.*s=%s)",
		 lopt ? "" : "-o ", (int)len, kv, (int)len, kv, o->metavar);
	return -1;
}

static int set_option(const struct backend *b, void *opts, const char *kv,
		      char *err, size_t errlen)
{
	const char *eq = strchr(kv, '=');
	size_t len = eq ? (size_t)(eq - kv) : strlen(kv);
	const char *val = eq ? eq + 1 : NULL;
	bool lopt = !strncmp(kv, "--", 2);
	const struct be_option *o =
		lopt ? find_option(b, kv + 2, len - 2, true)
		     : find_option(b, kv, len, false);
	char *dst, *end;
	long v;

	if (!o && lopt)
		return no_long_option(b, kv, len, err, errlen);
	if (!o) {
		char buf[128];
		size_t n = (size_t)snprintf(err, errlen, "-o %s: backend '%s' "
					    "has no option '%.*s'",
					    shown(kv, len, buf, sizeof(buf)),
					    b->name, (int)len, kv);
		const struct be_option *p = b->options;

		for (int i = 0; p && p->name && n < errlen; p++, i++)
			n += (size_t)snprintf(err + n, errlen - n, "%s%s",
					      i ? ", " : " (its options: ",
					      p->name);
		if (b->options && b->options->name && n < errlen)
			snprintf(err + n, errlen - n, ")");
		return -1;
	}
	dst = (char *)opts + o->offset;
	switch (o->type) {
	case BE_OPT_FLAG:
		if (val && strcmp(val, "0") && strcmp(val, "1")) {
			snprintf(err, errlen, "%s%s: '%s' is not 0 or 1",
				 lopt ? "" : "-o ", kv, val);
			return -1;
		}
		*(bool *)(void *)dst = !val || !strcmp(val, "1");
		return 0;
	case BE_OPT_INT:
		if (!val || !*val)
			return needs_value(kv, len, lopt, o, err, errlen);
		errno = 0;
		v = strtol(val, &end, 10);
		if (*end || errno || v < o->min || v > o->max ||
		    v < INT_MIN || v > INT_MAX) {
			snprintf(err, errlen, "%s%s: '%s' is not a whole "
				 "number in %ld..%ld", lopt ? "" : "-o ", kv,
				 val, o->min, o->max);
			return -1;
		}
		*(int *)(void *)dst = (int)v;
		return 0;
	case BE_OPT_STR:
		if (!val || !*val)
			return needs_value(kv, len, lopt, o, err, errlen);
		*(const char **)(void *)dst = val;
		return 0;
	}
	return -1;
}

int backend_options(const struct backend *b, const char *const *kv, int n,
		    void **opts, char *err, size_t errlen)
{
	*opts = calloc(1, b->opts_size ? b->opts_size : 1);
	if (!*opts) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i < n; i++) {
		if (set_option(b, *opts, kv[i], err, errlen))
			return -1;
	}
	return b->check ? b->check(*opts, err, errlen) : 0;
}

int backend_options_text(const struct backend *b, const void *opts, char *buf,
			 size_t len)
{
	size_t n = 0;
	int w = 0;

	buf[0] = '\0';
	for (const struct be_option *o = b->options; o && o->name; o++) {
		const char *v = (const char *)opts + o->offset;
		const char *sep = n ? " " : "", *s;

		switch (o->type) {
		case BE_OPT_FLAG:
			if (!*(const bool *)(const void *)v)
				continue;
			w = snprintf(buf + n, len - n, "%s%s", sep, o->name);
			break;
		case BE_OPT_INT:
			if (!*(const int *)(const void *)v)
				continue;
			w = snprintf(buf + n, len - n, "%s%s=%d", sep, o->name,
				     *(const int *)(const void *)v);
			break;
		case BE_OPT_STR:
			s = *(const char *const *)(const void *)v;
			if (!s)
				continue;
			w = snprintf(buf + n, len - n, "%s%s=%s", sep, o->name,
				     o->secret ? "(secret)" : s);
			break;
		}
		if (w < 0 || (size_t)w >= len - n)
			return -1;
		n += (size_t)w;
	}
	return 0;
}

/* What each request bit asks, for the message that refuses it */
static const struct {
	unsigned int bit;
	const char *opt, *what;
} requests[] = {
	{BE_CAN_SYNC_OPEN, "-s", "open files with O_SYNC"},
	{BE_CAN_SYNC_DIRS, "-S", "sync directories"},
	{BE_CAN_FSYNC, "-F", "fsync after writes"},
	{BE_CAN_XATTR, "-x", "store DOS attributes in xattrs"},
	{BE_CAN_NO_RESOLVE, "--no-resolve", "skip the name lookup"},
	{BE_CAN_STAT_CHECK, "--stat-check", "skip calls after a stat"},
	{BE_CAN_ONE_BYTE_FIX, "--one-byte-write-fix",
	 "skip one-byte zero writes"},
	{BE_CAN_DIRFD, "--paths dirfd", "work through directory fds"},
};

int backend_check(const struct backend *b, const struct program *p,
		  unsigned int req, char *err, size_t errlen)
{
	unsigned int missing = b->caps & BE_NO_IO ? 0 : req & ~b->caps;

	for (size_t i = 0; i < sizeof(requests) / sizeof(requests[0]); i++) {
		const struct be_refusal *r = b->refusals;

		if (!(missing & requests[i].bit))
			continue;
		while (r && r->bit && r->bit != requests[i].bit)
			r++;
		snprintf(err, errlen, "%s: backend '%s' cannot %s%s%s",
			 requests[i].opt, b->name, requests[i].what,
			 r && r->bit ? ": " : "", r && r->bit ? r->why : "");
		return -1;
	}
	for (int t = 0; t < OP_NR; t++) {
		if (b->not_run[t] && !be_may_skip(t)) {
			snprintf(err, errlen, "backend '%s' declares '%s' not "
				 "run, which the engine cannot do without",
				 b->name, op_info[t].keyword);
			return -1;
		}
	}
	for (uint32_t i = 0; p && i < p->nops; i++) {
		const struct lf_op *op = &p->ops[i];

		if (op->type != OP_SLEEP && !b->op[op->type] &&
		    !be_not_run(b, op->type)) {
			snprintf(err, errlen,
				 "%s:%u: backend '%s' cannot run "
				 "'%s'%s",
				 p->name, op->line, b->name,
				 op_info[op->type].keyword,
				 op_is_nfs3(op->type)
					 ? " (an NFSv3 operation of dbench 5's "
					   "nfs loadfiles: run it with -B nfs)"
					 : "");
			return -1;
		}
	}
	return 0;
}
