/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * url.c - the smb backend's URLs (smb.h): --smb-share's
 * //SERVER[:PORT]/SHARE[/PATH] checked and taken apart into smb_g (the
 * share's root, its base, its clients/ folder, the names the messages
 * show), and the URL of a path below a directory's, every component
 * percent-encoded but the unreserved bytes.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smb.h"

/* Append @s to @buf (at @n of @len bytes) percent-encoding every byte
 * but the unreserved ones of a URL; false if it does not fit. */
static bool put_encoded(char *buf, size_t len, size_t *n, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (*n + 4 > len)
			return false;
		if (isalnum(ch) || strchr("-._~", ch)) {
			buf[(*n)++] = (char)ch;
		} else {
			buf[(*n)++] = '%';
			buf[(*n)++] = hex[ch >> 4];
			buf[(*n)++] = hex[ch & 15];
		}
	}
	buf[*n] = 0;
	return true;
}

char *smb_url(const char *dir_url, const char *rel)
{
	size_t len = strlen(dir_url) + 3 * strlen(rel) + 2, n;
	char *u = malloc(len), *comp, *save = NULL, *copy;
	bool ok = true;

	if (!u)
		return NULL;
	n = (size_t)snprintf(u, len, "%s", dir_url);
	copy = strdup(rel);
	if (!copy) {
		free(u);
		return NULL;
	}
	for (comp = strtok_r(copy, "/", &save); comp && ok;
	     comp = strtok_r(NULL, "/", &save)) {
		if (!strcmp(comp, "."))
			continue;
		u[n++] = '/';
		ok = put_encoded(u, len, &n, comp);
	}
	free(copy);
	if (!ok) {
		free(u);
		return NULL;
	}
	return u;
}

static void smb_free_share(void)
{
	free(smb_g.shown);
	free(smb_g.root);
	free(smb_g.base);
	free(smb_g.clients);
	free(smb_g.server);
	free(smb_g.share);
	smb_g.shown = smb_g.root = smb_g.base = smb_g.clients = NULL;
	smb_g.server = smb_g.share = NULL;
	smb_g.has_path = false;
}

/* "//SERVER[:PORT]/SHARE[/PATH]" (or "smb://...") into smb_g: 0, or -1
 * with a message */
int smb_parse_share(const char *share, char *err, size_t errlen)
{
	const char *p = share, *srv, *end;
	size_t len, n = 0;
	char *buf = NULL, *copy = NULL, *comp, *save = NULL;
	bool ok = true;

	smb_free_share();
	if (!share) {
		snprintf(err, errlen,
			 "-B smb needs the share: "
			 "--smb-share=//SERVER/SHARE[/PATH]");
		return -1;
	}
	for (const char *q = share; *q; q++) {
		if (iscntrl((unsigned char)*q)) {
			snprintf(err, errlen,
				 "--smb-share: a control "
				 "character in '%s'",
				 share);
			return -1;
		}
	}
	if (!strncmp(p, "smb:", 4))
		p += 4;
	if (strncmp(p, "//", 2))
		goto syntax;
	srv = p + 2;
	end = strchr(srv, '/');
	if (!end || end == srv || end[1] == '/' || !end[1])
		goto syntax;
	smb_g.server = strndup(srv, (size_t)(end - srv));
	len = strlen(share) * 3 + 32;
	buf = malloc(len);
	copy = strdup(end + 1);
	if (!smb_g.server || !buf || !copy)
		goto oom;
	/* a port, if any: digits after the last ':' (not in "[v6]") */
	{
		const char *c = strrchr(smb_g.server, ':');
		const char *b = strrchr(smb_g.server, ']');

		if (c && (!b || c > b)) {
			char *e;
			long port = strtol(c + 1, &e, 10);

			if (c == smb_g.server || *e || port < 1 ||
			    port > 65535 || !c[1]) {
				snprintf(err, errlen,
					 "--smb-share %s: '%s' "
					 "is not SERVER or SERVER:PORT",
					 share, smb_g.server);
				goto fail;
			}
		}
	}
	n = (size_t)snprintf(buf, len, "smb://%s", smb_g.server);
	for (comp = strtok_r(copy, "/", &save); comp && ok;
	     comp = strtok_r(NULL, "/", &save)) {
		if (!strcmp(comp, ".") || !strcmp(comp, "..")) {
			snprintf(err, errlen,
				 "--smb-share %s: no '.' or '..' "
				 "in the path",
				 share);
			goto fail;
		}
		if (!smb_g.share) {
			smb_g.share = strdup(comp);
			if (!smb_g.share)
				goto oom;
		} else {
			smb_g.has_path = true;
		}
		buf[n++] = '/';
		ok = put_encoded(buf, len, &n, comp);
		if (ok && !smb_g.root && !(smb_g.root = strdup(buf)))
			goto oom;
	}
	if (!ok || !smb_g.share)
		goto syntax;
	smb_g.base = strdup(buf);
	smb_g.clients = smb_url(buf, "clients");
	/* shown: "//SERVER/SHARE/PATH" without a trailing '/' */
	snprintf(buf, len, "//%s/%s", smb_g.server, end + 1);
	n = strlen(buf);
	while (n && buf[n - 1] == '/')
		buf[--n] = 0;
	smb_g.shown = strdup(buf);
	if (!smb_g.base || !smb_g.clients || !smb_g.shown)
		goto oom;
	free(buf);
	free(copy);
	return 0;
syntax:
	snprintf(err, errlen,
		 "--smb-share %s: not //SERVER[:PORT]/SHARE[/PATH]", share);
	goto fail;
oom:
	snprintf(err, errlen, "out of memory");
fail:
	free(buf);
	free(copy);
	smb_free_share();
	return -1;
}
