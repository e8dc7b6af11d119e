/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * utf8.h - decode one UTF-8 sequence, the one definition of valid UTF-8
 * for the loadfile parser and the HTML escaper.
 */
#ifndef DBNG_UTF8_H
#define DBNG_UTF8_H

#include <stddef.h>
#include <stdint.h>

/*
 * utf8_seq - the length (1..4) of the valid UTF-8 sequence at @s, reading
 * at most @n bytes, and its code point in *@cp (if @cp is not NULL); 0 if
 * it is not valid (a stray continuation byte, a truncated sequence,
 * overlong forms, surrogates, values over U+10FFFF) or @n is 0.  ASCII,
 * NUL and the C0 and C1 control characters are valid: refusing those is
 * the caller's choice.  A NUL inside a sequence ends it as invalid, so
 * @n may be the strlen() of the rest of a string.
 */
size_t utf8_seq(const unsigned char *s, size_t n, uint32_t *cp);

#endif
