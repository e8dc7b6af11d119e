/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * escape.c - strings of a result as HTML text: markup as entities,
 * control bytes and invalid UTF-8 as a visible \xNN, argv as shell words.
 */
#include "html.h"

#include "str_clean.h"

#include <stdlib.h>
#include <string.h>

/*
 * esc - @s as HTML text or attribute value: the markup characters as
 * entities, control characters and bytes that are not UTF-8 as a visible
 * \xNN (a path may hold anything; the page stays well-formed).
 */
void html_esc(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + strlen(s);

	while (*p) {
		size_t n = str_printable(p, (size_t)(end - p));

		if (n > 1) {
			fwrite(p, 1, n, f);
			p += n;
			continue;
		}
		if (!n) {
			str_byte(f, *p++);
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
