/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * iobuf.c - the per-process data buffers of a backend, grown to the
 * largest ReadX/WriteX of a process's clients (iobuf.h).
 */
#include <stdlib.h>

#include "iobuf.h"

int iobuf_grow(struct iobuf *b, size_t need)
{
	if (!need)
		need = 1;
	if (need <= b->len)
		return 0;
	free(b->wbuf);
	free(b->rbuf);
	b->wbuf = calloc(1, need);
	b->rbuf = malloc(need);
	if (!b->wbuf || !b->rbuf) {
		free(b->wbuf);
		free(b->rbuf);
		*b = (struct iobuf){0};
		return -1;
	}
	b->len = need;
	return 0;
}
