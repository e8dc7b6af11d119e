/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * dblog.c - read dbench's text output back into a struct result: the
 * banner, the Running line, the progress lines, the first latency table
 * (4.0's, later dbench's wider one, or --machine-readable rows), the
 * per-client tables and the final Throughput line.  One pass with a small
 * state machine; everything it does not know is ignored, except inside a
 * table, where a line that is not a row is an error.  This file: the
 * entry points; lex.c, lines.c, table.c and finish.c the rest.  dbench-ng's
 * own form of what is not a result (our table, "Partial figures of ...")
 * is read too, as a failed or interrupted run.
 */
#include "dblog_impl.h"

bool dblog_detect(const char *text, size_t len)
{
	size_t pos = 0;

	while (pos < len) {
		const char *s = text + pos;
		const char *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;

		pos += n + 1;
		if (dblog_starts(s, n, TXT_TPUT) && memmem(s, n, " MB/sec", 7))
			return true;
		if (dblog_starts(s, n, TXT_TABLE) ||
		    dblog_starts(s, n, TXT_TABLE_WIDE) ||
		    dblog_starts(s, n, TXT_OPS_TABLE) ||
		    dblog_starts(s, n, TXT_VERSION_4) ||
		    dblog_starts(s, n, TXT_VERSION_NG))
			return true;
	}
	return false;
}

/* Where processing starts: the banner line, or the start without one. */
static size_t dblog_begin(const char *text, size_t len, unsigned long *line)
{
	size_t pos = 0;
	unsigned long no = 1;

	while (pos < len) {
		const char *s = text + pos;
		const char *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;

		if (dblog_starts(s, n, TXT_VERSION_4) || dblog_starts(s, n, TXT_VERSION_NG)) {
			*line = no;
			return pos;
		}
		pos += n + 1;
		no++;
	}
	*line = 1;
	return 0;
}

static void dblog_ctx_free(struct dblog_ctx *c)
{
	free(c->prog);
	for (int i = 0; i < RESULT_MAX_MSGS; i++)
		free(c->msg[i]);
}

int dblog_parse(const char *name, const char *text, size_t len,
		struct result *r, char *err, size_t errlen)
{
	struct dblog_ctx c = {
		.name = name ? name : "(log)",
		.err = err,
		.errlen = errlen,
		.r = r,
		.state = DBLOG_TEXT,
		.client_pending = -1,
	};
	const char *nul = memchr(text, '\0', len);
	char *buf = NULL;
	size_t pos;
	int rc = 0;

	if (err && errlen)
		err[0] = '\0';
	if (nul) {
		c.lineno = 1;
		for (const char *s = text; s < nul; s++)
			c.lineno += *s == '\n';
		return dblog_fail_at(&c, "NUL byte: this is not a text log");
	}
	buf = malloc(DBLOG_MAX_LINE + 1);
	if (!buf)
		return dblog_fail_file(&c, "out of memory");
	pos = dblog_begin(text, len, &c.lineno);
	for (; pos < len && !rc; c.lineno++) {
		const char *s = text + pos;
		const char *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;

		pos += n + 1;
		while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' ||
			     s[n - 1] == '\t'))
			n--;
		if (n > DBLOG_MAX_LINE) {
			if (c.state == DBLOG_RULE || c.state == DBLOG_ROWS ||
			    (c.state == DBLOG_TEXT &&
			     (dblog_starts(s, n, TXT_TPUT) || dblog_starts(s, n, TXT_RUNNING) ||
			      dblog_starts(s, n, "Client "))))
				rc = dblog_fail_at(&c, "line too long (%zu bytes)",
					     n);
			continue;
		}
		memcpy(buf, s, n);
		buf[n] = '\0';
		rc = dblog_line(&c, buf, n);
		/* an unterminated last line is a truncated log: skip it */
		if (rc && !nl) {
			rc = 0;
			if (err && errlen)
				err[0] = '\0';
		}
	}
	if (!rc)
		rc = dblog_finish(&c);
	free(buf);
	dblog_ctx_free(&c);
	return rc;
}
