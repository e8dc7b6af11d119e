/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lf_read.c - read a loadfile from disk, plain or gzip (zlib reads both),
 * whole, then compile it; a corrupt or truncated gzip file is an error.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "input.h"

#include "lf_impl.h"

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
		/* zlib's message starts with the path, or "<fd:N>" for
		 * gzdopen()'s file */
		if (!strncmp(msg, path, pl) && msg[pl] == ':')
			msg += pl + 2;
		else if (!strncmp(msg, "<fd:", 4) && strstr(msg, ">: "))
			msg = strstr(msg, ">: ") + 3;
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
	char *buf = NULL, lim[32];
	struct stat st;
	bool is_pipe;
	gzFile gz;
	int fd, n, rc;

	fd = input_open(path, "cannot open loadfile", LF_MAX_BYTES, err,
			errlen);
	if (fd < 0)
		return -1;
	is_pipe = !fstat(fd, &st) && S_ISFIFO(st.st_mode);
	gz = gzdopen(fd, "rb");
	if (!gz) {
		close(fd);
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	buf = malloc(cap);
	if (!buf)
		goto nomem;
	for (;;) {
		if (len == cap) {
			char *nb;

			/* one byte over the limit is enough to refuse: a
			 * gzip bomb costs the limit in memory, no more */
			if (cap > LF_MAX_BYTES) {
				snprintf(err, errlen,
					 "%s: loadfile larger "
					 "than %s (uncompressed)",
					 path,
					 input_limit_text(LF_MAX_BYTES, lim,
							  sizeof(lim)));
				goto fail;
			}
			cap = cap * 2 > LF_MAX_BYTES ? LF_MAX_BYTES + 1
						     : cap * 2;
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
	if (!len && is_pipe) {
		snprintf(err, errlen,
			 "%s: a pipe with nothing written to it "
			 "(no process had it open for writing)",
			 path);
		free(buf);
		return -1;
	}
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
