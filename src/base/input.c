/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * input.c - opening a file that is read whole; see input.h.
 */
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *input_limit_text(uint64_t max, char *buf, size_t len)
{
	if (max >= (1u << 30) && !(max % (1u << 30)))
		snprintf(buf, len, "%" PRIu64 " GiB", max >> 30);
	else if (max >= (1u << 20) && !(max % (1u << 20)))
		snprintf(buf, len, "%" PRIu64 " MiB", max >> 20);
	else
		snprintf(buf, len, "%" PRIu64 " bytes", max);
	return buf;
}

static const char *kind(mode_t m)
{
	return S_ISDIR(m)    ? "a directory"
	       : S_ISCHR(m)  ? "a character device"
	       : S_ISBLK(m)  ? "a block device"
	       : S_ISSOCK(m) ? "a socket"
			     : "not a regular file";
}

int input_open(const char *path, const char *what, uint64_t max, char *err,
	       size_t errlen)
{
	/* O_NONBLOCK: the open of a FIFO with no writer does not wait */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	char lim[32], pre[64];
	int e;

	/* "PATH: WHAT: reason", or "PATH: reason" without @what */
	snprintf(pre, sizeof(pre), "%s%s", what ? what : "", what ? ": " : "");

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s%s", path, pre, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st)) {
		e = errno;
		goto fail_errno;
	}
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
		snprintf(err, errlen,
			 "%s: %s%s, not a regular file or a "
			 "pipe",
			 path, pre, kind(st.st_mode));
		goto fail;
	}
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max) {
		snprintf(err, errlen,
			 "%s: %slarger than %s (%" PRIu64 " bytes)", path, pre,
			 input_limit_text(max, lim, sizeof(lim)),
			 (uint64_t)st.st_size);
		goto fail;
	}
	/* reads of a pipe wait for its writer's data; one with no writer
	 * reads as empty at once */
	if (fcntl(fd, F_SETFL, 0)) {
		e = errno;
		goto fail_errno;
	}
	return fd;
fail_errno:
	snprintf(err, errlen, "%s: %s%s", path, pre, strerror(e));
fail:
	close(fd);
	return -1;
}
