/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * frame.h - the requests of tbench's protocol, read from a byte stream
 * (docs/compat.md, "tbench"): a request is a 4-byte big-endian length N and
 * N bytes, the first 4 of which are the length M of the reply the client
 * wants (the reply is a 4-byte M and M bytes).  tbench_srv keeps a whole
 * request in a 70,000-byte buffer; this keeps 8 bytes, whatever N is:
 * the body after M is only counted.  Pure: no I/O, no allocation, so the
 * unit tests feed it any split of any stream.
 */
#ifndef DBNG_FRAME_H
#define DBNG_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct frame {
	uint8_t head[8];    /* N and M as they come in */
	uint32_t hgot;	    /* bytes of head[] received (0..8) */
	uint32_t n, m;	    /* of the request being read, once known */
	uint64_t body_left; /* bytes of the request after its head */
};

enum frame_ev {
	FRAME_MORE = 0,	       /* every byte taken: a request goes on */
	FRAME_REQUEST = 1,     /* a request is complete: reply with *m */
	FRAME_SHORT = -1,      /* N < 4: no room for the reply's length */
	FRAME_TOO_LONG = -2,   /* N over the limit */
	FRAME_REPLY_LONG = -3, /* M over the limit */
};

/* frame_reset - before the first byte of a stream */
static inline void frame_reset(struct frame *f)
{
	f->hgot = 0;
	f->n = f->m = 0;
	f->body_left = 0;
}

/*
 * frame_feed - take bytes from @p (@len) until the end of a request, the
 * end of @p or an error; *@used is how many were taken.  FRAME_REQUEST
 * with the reply's length word in *@m (the bytes after the request are
 * left for the next call); FRAME_MORE when all @len were taken with no
 * request complete; a negative frame_ev when the stream breaks the
 * protocol (N or M over @max, the largest length word accepted, or
 * N < 4): the stream cannot be read on.
 */
enum frame_ev frame_feed(struct frame *f, const uint8_t *p, size_t len,
			 uint32_t max, size_t *used, uint32_t *m);

/* frame_partial - is a request half read (a close now cuts it)? */
static inline bool frame_partial(const struct frame *f)
{
	return f->hgot || f->body_left;
}

/* frame_received - bytes of the request being read received so far,
 * its length word included; frame_size - its whole size, once known
 * (4 + N), else 0 */
static inline uint64_t frame_received(const struct frame *f)
{
	return f->hgot < 8 ? f->hgot : 8 + (uint64_t)f->n - 4 - f->body_left;
}

static inline uint64_t frame_size(const struct frame *f)
{
	return f->hgot >= 4 ? 4 + (uint64_t)f->n : 0;
}

#endif
