/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * iobuf.h - the per-process data buffers of a backend: zeroed bytes that
 * WriteX sends and a target ReadX reads into, shared by the clients of
 * one process and grown to the largest ReadX/WriteX of their programs.
 */
#ifndef DBNG_IOBUF_H
#define DBNG_IOBUF_H

#include <stddef.h>

struct iobuf {
	char *wbuf; /* zeroed write data, never written to */
	char *rbuf; /* read target */
	size_t len; /* of each; 0: none yet */
};

/*
 * iobuf_grow - make @b hold at least @need bytes (0 counts as 1, so a
 * program without ReadX or WriteX still has buffers).  Buffers large
 * enough already are kept.  0, or -1 (out of memory) with @b emptied:
 * no buffer is then left freed but still counted.
 */
int iobuf_grow(struct iobuf *b, size_t need);

#endif
