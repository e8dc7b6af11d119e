/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * result_load.c - load any stored result: a dbench-ng JSON result
 * (result_json_read.c) or a dbench text log (dblog.c), told apart by
 * their first bytes.
 */
#include "result_json.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dblog.h"
#include "result.h"

int result_load(const char *path, struct result **out, char *err,
		size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	const char *s;
	int rc = -1;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	do {
		if (len == cap) {
			char *nb;

			cap = cap ? cap * 2 : 65536;
			if (cap > (1u << 30)) {
				snprintf(err, errlen, "%s: larger than 1 GiB",
					 path);
				goto out;
			}
			nb = realloc(buf, cap + 1);
			if (!nb) {
				snprintf(err, errlen, "%s: out of memory", path);
				goto out;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	if (ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto out;
	}
	buf[len] = 0;
	for (s = buf; s < buf + len && strchr(" \t\r\n", *s); s++)
		;
	if (s < buf + len && *s == '{') {
		rc = result_parse_json(path, buf, len, out, err, errlen);
	} else if (dblog_detect(buf, len)) {
		struct result *r = result_new();

		if (!r) {
			snprintf(err, errlen, "%s: out of memory", path);
			goto out;
		}
		rc = dblog_parse(path, buf, len, r, err, errlen);
		if (rc)
			result_free(r);
		else
			*out = r;
	} else {
		snprintf(err, errlen, "%s: neither a dbench-ng JSON result "
			 "nor a dbench text log (expected '{' or a "
			 "'Throughput ... MB/sec' line)", path);
	}
out:
	fclose(f);
	free(buf);
	return rc;
}
