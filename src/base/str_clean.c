/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * str_clean.c - strings of a result, made safe to print: no terminal
 * escape, no invalid UTF-8, no word a dbench log parser takes for ours.
 */
#include "str_clean.h"

#include <stdint.h>
#include <string.h>

#include "utf8.h"

size_t str_printable(const unsigned char *p, size_t n)
{
	uint32_t cp;
	size_t len = utf8_seq(p, n, &cp);

	if (!len || cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0))
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
