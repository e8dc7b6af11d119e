/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * stock.c - dbench 4.0's client.txt as the default workload: the search
 * for it, and the kind of a loadfile (stock.h).
 */
#include "stock.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "builtin.h"

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

enum lf_kind stock_kind(const char *name, const char *sha256)
{
	if (name && !strncmp(name, "builtin:", 8))
		return LF_KIND_BUILTIN;
	if (sha256)
		return !strcmp(sha256, STOCK_SHA256) ? LF_KIND_CLIENT_TXT
						     : LF_KIND_FILE;
	return name && !strcmp(base_name(name), "client.txt")
		       ? LF_KIND_CLIENT_TXT
		       : LF_KIND_FILE;
}

const char *stock_kind_name(enum lf_kind k)
{
	switch (k) {
	case LF_KIND_CLIENT_TXT:
		return "client.txt";
	case LF_KIND_BUILTIN:
		return "builtin";
	case LF_KIND_FILE:
		break;
	}
	return "file";
}

const char *stock_default(bool *found, char *note, size_t len)
{
	static char path[4096];
	const char *list = getenv(STOCK_TEST_ENV), *p, *end;
	char tried[1024] = "";
	size_t n, k = 0;
	struct stat st;
	int ntried = 0;

	if (!list)
		list = STOCK_PATHS;
	*found = false;
	note[0] = 0;
	for (p = list; *p; p = *end ? end + 1 : end) {
		end = p + strcspn(p, ":");
		n = (size_t)(end - p);
		if (!n || n >= sizeof(path))
			continue;
		memcpy(path, p, n);
		path[n] = 0;
		/* missing (also a dangling symlink): the next one; anything
		 * else is the file, and reading it will say what is wrong */
		if (stat(path, &st) && (errno == ENOENT || errno == ENOTDIR)) {
			if (k < sizeof(tried))
				k += (size_t)snprintf(tried + k,
						      sizeof(tried) - k, "%s%s",
						      k ? ", " : "", path);
			ntried++;
			continue;
		}
		*found = true;
		return path;
	}
	snprintf(note, len,
		 "dbench 4.0's client.txt is not installed (%s%s): running "
		 "the built-in workload, %s, whose figures are not those of "
		 "dbench 4.0's default (apt-get install dbench, or name a "
		 "loadfile with -c)",
		 ntried ? "none of " : "no path searched", ntried ? tried : "",
		 BUILTIN_NETBENCH);
	return BUILTIN_NETBENCH;
}
