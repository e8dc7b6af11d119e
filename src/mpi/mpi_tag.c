/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * mpi_tag.c - the standard error of a rank other than 0.  mpirun merges
 * every rank's into its own, so each line of this one begins with
 * "[HOST rank R] ".  While the command line is read, its lines are held
 * back: printed only if this rank's outcome differs from rank 0's (the
 * same bad option would otherwise be told by every rank).
 */
#include "mpi_tag.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct tag {
	int fd; /* the real standard error */
	char prefix[96];
	bool bol;  /* at the beginning of a line */
	bool hold; /* keep what is written */
	char *held;
	size_t len, cap;
};

static struct tag tag = {.fd = -1, .bol = true};

static int out(const char *b, size_t n)
{
	if (tag.hold) {
		if (tag.len + n > tag.cap) {
			size_t cap = (tag.len + n) * 2 + 256;
			char *p = realloc(tag.held, cap);

			if (!p)
				return -1;
			tag.held = p;
			tag.cap = cap;
		}
		memcpy(tag.held + tag.len, b, n);
		tag.len += n;
		return 0;
	}
	while (n) {
		ssize_t w = write(tag.fd, b, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		b += w;
		n -= (size_t)w;
	}
	return 0;
}

static ssize_t tag_write(void *c, const char *b, size_t n)
{
	size_t done = 0;

	(void)c;
	while (done < n) {
		const char *nl = memchr(b + done, '\n', n - done);
		size_t k = nl ? (size_t)(nl - (b + done)) + 1 : n - done;

		if (tag.bol && out(tag.prefix, strlen(tag.prefix)))
			return -1;
		if (out(b + done, k))
			return -1;
		tag.bol = nl != NULL;
		done += k;
	}
	return (ssize_t)n;
}

int mpi_tag_begin(const char *host, int rank)
{
	cookie_io_functions_t io = {.write = tag_write};
	FILE *f;

	tag.fd = dup(STDERR_FILENO);
	if (tag.fd < 0)
		return -1;
	snprintf(tag.prefix, sizeof(tag.prefix), "[%s rank %d] ", host, rank);
	tag.hold = true;
	f = fopencookie(NULL, "w", io);
	if (!f)
		return -1;
	setvbuf(f, NULL, _IOLBF, 0);
	stderr = f;
	return 0;
}

void mpi_tag_release(bool print)
{
	if (tag.fd < 0)
		return;
	fflush(stderr);
	tag.hold = false;
	if (print && tag.len)
		out(tag.held, tag.len);
	free(tag.held);
	tag.held = NULL;
	tag.len = tag.cap = 0;
}
