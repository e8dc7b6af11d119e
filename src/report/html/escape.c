/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * escape.c - strings of a result as HTML text: markup as entities,
 * control bytes and invalid UTF-8 as a visible \xNN, argv as shell words.
 */
#include "html.h"

#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at @p that is printable (no C1
 * control), or 0. */
static unsigned int utf8_len(const unsigned char *p)
{
	unsigned int n;
	uint32_t c;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		n = 2;
		c = p[0] & 0x1f;
	} else if ((p[0] & 0xf0) == 0xe0) {
		n = 3;
		c = p[0] & 0x0f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4;
		c = p[0] & 0x07;
	} else {
		return 0;
	}
	for (unsigned int i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0; /* the terminating NUL stops here too */
		c = c << 6 | (p[i] & 0x3f);
	}
	if (c < 0xa0 || (n == 3 && c < 0x800) ||
	    (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return n;
}

/*
 * esc - @s as HTML text or attribute value: the markup characters as
 * entities, control characters and bytes that are not UTF-8 as a visible
 * \xNN (a path may hold anything; the page stays well-formed).
 */
void html_esc(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		unsigned int n = utf8_len(p);

		if (n > 1) {
			fwrite(p, 1, n, f);
			p += n;
			continue;
		}
		if (!n || *p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\x%02X", *p++);
			continue;
		}
		switch (*p) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			fputc(*p, f);
		}
		p++;
	}
}

/* @s escaped, or a grey "unknown". */
void html_str(FILE *f, const char *s)
{
	if (s)
		html_esc(f, s);
	else
		fputs("<span class=\"na\">unknown</span>", f);
}

/* @s as one shell word: quoted when it needs to be, then escaped. */
void html_shell_word(FILE *f, const char *s)
{
	bool plain = *s;
	char *q, *o;

	for (const char *p = s; *p; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("_-./:=,@%+", *p)))
			plain = false;
	}
	q = plain ? NULL : malloc(4 * strlen(s) + 3);
	if (!q) {
		html_esc(f, s);
		return;
	}
	o = q;
	*o++ = '\'';
	for (const char *p = s; *p; p++) {
		if (*p == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *p;
		}
	}
	*o++ = '\'';
	*o = 0;
	html_esc(f, q);
	free(q);
}
