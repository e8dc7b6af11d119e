/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * str_clean.c - strings of a result, made safe to print: no terminal
 * escape, no invalid UTF-8, no word a dbench log parser takes for ours.
 */
#include "str_clean.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

/*
 * The format characters that move text on a terminal or a page without
 * being seen: the bidirectional marks, embeddings, overrides and
 * isolates (a "Trojan Source" name reads in another order than its
 * bytes), and the line and paragraph separators (a line break to some
 * terminals and browsers).
 */
static bool invisible_mover(uint32_t cp)
{
	return cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

size_t str_printable(const unsigned char *p, size_t n)
{
	uint32_t cp;
	size_t len = utf8_seq(p, n, &cp);

	if (!len || cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) ||
	    invisible_mover(cp))
		return 0;
	return len;
}

void str_byte(FILE *f, unsigned char c)
{
	fprintf(f, "\\x%02X", c);
}

void str_text(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + strlen(s);

	while (*p) {
		size_t n = str_printable(p, (size_t)(end - p));

		if (!n) {
			str_byte(f, *p++);
			continue;
		}
		fwrite(p, 1, n, f);
		/* mmtests takes any line with "execute" for a progress
		 * line and rows after one with "Operation" for the table */
		if (!strncmp((const char *)p, "execut", 6) ||
		    !strncmp((const char *)p, "Operatio", 8)) {
			size_t k = p[0] == 'e' ? 6 : 8;

			fwrite(p + 1, 1, k - 1, f);
			fputc('_', f);
			p += k;
			continue;
		}
		p += n;
	}
}

void str_clean_buf(char *buf, size_t len)
{
	char *src = len ? strdup(buf) : NULL;
	const unsigned char *p = (const unsigned char *)src, *end;
	size_t at = 0;

	if (!src) {
		/* no memory for a copy: each byte that is not plain ASCII
		 * text as '?', in place */
		for (unsigned char *q = (unsigned char *)buf; len && *q; q++) {
			if (*q < 0x20 || *q >= 0x7f)
				*q = '?';
		}
		return;
	}
	end = p + strlen(src);
	while (*p) {
		size_t n = str_printable(p, (size_t)(end - p));

		if (at + (n ? n : 4) >= len)
			break;
		if (n)
			memcpy(buf + at, p, n);
		else
			snprintf(buf + at, 5, "\\x%02X", *p);
		at += n ? n : 4;
		p += n ? n : 1;
	}
	buf[at] = 0;
	free(src);
}
