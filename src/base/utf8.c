/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * utf8.c - decode one UTF-8 sequence (RFC 3629), strictly: the shortest
 * form only, no surrogates, nothing above U+10FFFF.
 */
#include "utf8.h"

size_t utf8_seq(const unsigned char *s, size_t n, uint32_t *cp)
{
	size_t len, i;
	uint32_t c;

	if (!n)
		return 0;
	if (s[0] < 0x80) {
		len = 1, c = s[0];
	} else {
		if (s[0] >= 0xc2 && s[0] <= 0xdf)
			len = 2, c = s[0] & 0x1f;
		else if (s[0] >= 0xe0 && s[0] <= 0xef)
			len = 3, c = s[0] & 0x0f;
		else if (s[0] >= 0xf0 && s[0] <= 0xf4)
			len = 4, c = s[0] & 0x07;
		else
			return 0;
		if (len > n)
			return 0;
		for (i = 1; i < len; i++) {
			if ((s[i] & 0xc0) != 0x80)
				return 0;
			c = c << 6 | (s[i] & 0x3f);
		}
		if ((len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
		    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
			return 0;
	}
	if (cp)
		*cp = c;
	return len;
}
