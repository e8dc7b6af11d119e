/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * file_replace.c - whole-or-nothing file writes, for the JSON result, the
 * compare report and the HTML page.
 */
#include "file_replace.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int file_replace(const char *path, const char *opt, file_emit_fn emit,
		 const void *ctx, char *err, size_t errlen)
{
	static const char suffix[] = ".tmp.XXXXXX";
	size_t len = strlen(path);
	char *tmp;
	FILE *f;
	mode_t mask;
	int fd, e;

	if (!strcmp(path, "-")) {
		errno = 0;
		if (emit(stdout, ctx) || fflush(stdout)) {
			snprintf(err, errlen,
				 "%s -: cannot write to stdout: %s", opt,
				 strerror(errno ? errno : EIO));
			return -1;
		}
		return 0;
	}
	tmp = malloc(len + sizeof(suffix));
	if (!tmp) {
		snprintf(err, errlen, "%s %s: out of memory", opt, path);
		return -1;
	}
	memcpy(tmp, path, len);
	memcpy(tmp + len, suffix, sizeof(suffix));
	fd = mkstemp(tmp);
	if (fd < 0) {
		e = errno;
		free(tmp);
		snprintf(err, errlen, "%s %s: %s", opt, path, strerror(e));
		return -1;
	}
	mask = umask(0); /* mkstemp made it 0600 */
	umask(mask);
	f = fchmod(fd, 0666 & ~mask) ? NULL : fdopen(fd, "w");
	if (!f) {
		e = errno;
		close(fd);
		goto fail;
	}
	errno = 0;
	if (emit(f, ctx) || fflush(f) || fsync(fileno(f))) {
		e = errno ? errno : EIO;
		fclose(f);
		goto fail;
	}
	if (fclose(f) || rename(tmp, path)) {
		e = errno;
		goto fail;
	}
	free(tmp);
	return 0;
fail:
	unlink(tmp);
	free(tmp);
	snprintf(err, errlen, "%s %s: %s", opt, path, strerror(e));
	return -1;
}
