/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * frame.c - reading tbench's requests from a stream (frame.h).
 */
#include "frame.h"

#include <string.h>

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

enum frame_ev frame_feed(struct frame *f, const uint8_t *p, size_t len,
			 uint32_t max, size_t *used, uint32_t *m)
{
	size_t i = 0;

	while (i < len) {
		if (f->hgot < 8) {
			size_t k = 8 - f->hgot;

			if (k > len - i)
				k = len - i;
			/* N is checked as soon as it is in, before M */
			if (f->hgot < 4 && f->hgot + k >= 4) {
				memcpy(f->head + f->hgot, p + i, 4 - f->hgot);
				f->n = be32(f->head);
				if (f->n < 4 || f->n > max) {
					*used = i + 4 - f->hgot;
					return f->n < 4 ? FRAME_SHORT
							: FRAME_TOO_LONG;
				}
			}
			memcpy(f->head + f->hgot, p + i, k);
			f->hgot += (uint32_t)k;
			i += k;
			if (f->hgot < 8)
				break;
			f->m = be32(f->head + 4);
			if (f->m > max) {
				*used = i;
				return FRAME_REPLY_LONG;
			}
			f->body_left = (uint64_t)f->n - 4;
		} else {
			uint64_t k = f->body_left;

			if (k > len - i)
				k = len - i;
			f->body_left -= k;
			i += (size_t)k;
		}
		if (f->hgot == 8 && !f->body_left) {
			*m = f->m;
			*used = i;
			f->hgot = 0;
			return FRAME_REQUEST;
		}
	}
	*used = i;
	return FRAME_MORE;
}
