/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * str_clean.h - what of a string from a result file may reach a terminal
 * or a page as it is: one definition for the text report, the HTML
 * escaper and compare's text output.
 */
#ifndef DBNG_STR_CLEAN_H
#define DBNG_STR_CLEAN_H

#include <stddef.h>
#include <stdio.h>

/*
 * str_printable - the length of the printable character at @p (@n bytes
 * left): a valid UTF-8 sequence that is not a control character (C0,
 * DEL, C1) nor a format character that reorders or breaks the text
 * unseen (the bidirectional controls U+061C, U+200E, U+200F,
 * U+202A-U+202E, U+2066-U+2069; U+2028, U+2029); 0 if the byte at @p
 * must be shown escaped, as str_byte() does.
 */
size_t str_printable(const unsigned char *p, size_t n);

/* str_byte - the byte @c as a visible \xNN */
void str_byte(FILE *f, unsigned char c);

/*
 * str_text - @s for the text report: control characters (newlines,
 * tabs, ESC, BEL, C1 included) and bytes that are not UTF-8 as \xNN, and
 * the words dbench log parsers look for ("execute", "Operation") broken
 * with an underscore (execut_e, Operatio_n), so that no string of a
 * result is taken for a progress line or a table.
 */
void str_text(FILE *f, const char *s);

/*
 * str_clean_buf - the message in @buf (@len bytes) rewritten in place
 * with each byte str_printable() refuses as \xNN, cut at a character
 * boundary to fit: a message that quotes a file (a parser's error) may
 * then be printed anywhere.  No word is broken: it is not for a log.
 */
void str_clean_buf(char *buf, size_t len);

#endif
