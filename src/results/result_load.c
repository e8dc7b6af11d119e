/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * result_load.c - load any stored result: a dbench-ng JSON result
 * (result_json_read.c) or a dbench text log (dblog.c), told apart by
 * their first bytes.  Its messages are printable (str_clean_buf).
 */
#include "result_json.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input.h"
#include "str_clean.h"

#include "dblog.h"
#include "result.h"

int result_load(const char *path, struct result **out, char *err,
		size_t errlen)
{
	char *buf = NULL, lim[32];
	size_t len = 0, cap = 0;
	ssize_t n;
	const char *s;
	int rc = -1, fd;

	fd = input_open(path, NULL, RESULT_MAX_BYTES, err, errlen);
	if (fd < 0) {
		str_clean_buf(err, errlen);
		return -1;
	}
	do {
		if (len == cap) {
			char *nb;

			/* one byte over the limit is enough to refuse */
			if (cap > RESULT_MAX_BYTES) {
				snprintf(err, errlen, "%s: larger than %s",
					 path,
					 input_limit_text(RESULT_MAX_BYTES, lim,
							  sizeof(lim)));
				goto out;
			}
			cap = !cap ? 65536
			      : cap * 2 > RESULT_MAX_BYTES
				      ? RESULT_MAX_BYTES + 1
				      : cap * 2;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				snprintf(err, errlen, "%s: out of memory", path);
				goto out;
			}
			buf = nb;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			goto out;
		}
		len += (size_t)n;
	} while (n);
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
	/* a parser's message may quote the file: ESC, CR, bidi overrides */
	if (rc)
		str_clean_buf(err, errlen);
	close(fd);
	free(buf);
	return rc;
}
