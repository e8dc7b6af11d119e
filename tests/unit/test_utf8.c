/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_utf8.c - base/utf8.c: utf8_seq() on the edge cases of RFC 3629,
 * its code points re-encoded, and against the two decoders it replaces
 * (loadfile.c's, bounded by a length; report_html.c's, printable only and
 * NUL-bounded), copied here: the same answer on every sequence of 1 to 3
 * bytes and on random 4-byte ones, whole and cut short.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "utf8.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void test_cases(void **state)
{
	static const struct {
		const char *s;
		size_t len;	/* utf8_seq, 0: invalid */
		uint32_t cp;
	} t[] = {
		{"a", 1, 'a'},
		{"\x7f", 1, 0x7f},
		{"\xc2\x80", 2, 0x80},		/* C1: valid */
		{"\xc2\xa0", 2, 0xa0},
		{"\xdf\xbf", 2, 0x7ff},
		{"\xc0\x80", 0, 0},		/* overlong NUL */
		{"\xc1\xbf", 0, 0},
		{"\xe0\x9f\xbf", 0, 0},		/* overlong */
		{"\xe0\xa0\x80", 3, 0x800},
		{"\xed\x9f\xbf", 3, 0xd7ff},
		{"\xed\xa0\x80", 0, 0},		/* surrogates */
		{"\xed\xbf\xbf", 0, 0},
		{"\xee\x80\x80", 3, 0xe000},
		{"\xef\xbf\xbf", 3, 0xffff},
		{"\xf0\x8f\xbf\xbf", 0, 0},	/* overlong */
		{"\xf0\x90\x80\x80", 4, 0x10000},
		{"\xf4\x8f\xbf\xbf", 4, 0x10ffff},
		{"\xf4\x90\x80\x80", 0, 0},	/* over U+10FFFF */
		{"\xf5\x80\x80\x80", 0, 0},
		{"\xff", 0, 0},
		{"\x80", 0, 0},			/* a stray continuation */
		{"\xc3", 0, 0},			/* cut short by the NUL */
		{"\xe2\x82", 0, 0},
		{"\xc3\x28", 0, 0},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		const unsigned char *s = (const unsigned char *)t[i].s;
		uint32_t cp = 0xdeadbeef;
		size_t k = utf8_seq(s, strlen(t[i].s) + 1, &cp);

		if (k != t[i].len || (k && cp != t[i].cp))
			fail_msg("case %zu: %zu U+%04X, want %zu U+%04X", i, k,
				 cp, t[i].len, t[i].cp);
		if (!k && cp != 0xdeadbeef)
			fail_msg("case %zu: *cp set on an invalid sequence", i);
		/* bounded: one byte short is invalid */
		if (k > 1 && utf8_seq(s, k - 1, &cp))
			fail_msg("case %zu: valid with %zu bytes", i, k - 1);
	}
	assert_int_equal(utf8_seq((const unsigned char *)"a", 0, NULL), 0);
	assert_int_equal(utf8_seq((const unsigned char *)"", 1, NULL), 1);
}

/* loadfile.c utf8_len, as it was */
static size_t old_loadfile(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t c;

	if (s[0] < 0x80)
		return 1;
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
	return len;
}

/* report_html.c utf8_len, as it was */
static unsigned int old_html(const unsigned char *p)
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
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if (c < 0xa0 || (n == 3 && c < 0x800) ||
	    (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return n;
}

/* html esc() written with utf8_seq */
static size_t new_html(const unsigned char *p)
{
	uint32_t cp;
	size_t n = utf8_seq(p, strlen((const char *)p), &cp);

	if (n == 2 && cp < 0xa0)
		n = 0;
	return n;
}

/* encode @cp again: a valid sequence is its code point's shortest form */
static size_t encode(uint32_t cp, unsigned char *o)
{
	if (cp < 0x80)
		return o[0] = (unsigned char)cp, 1;
	if (cp < 0x800)
		return o[0] = (unsigned char)(0xc0 | cp >> 6),
		       o[1] = (unsigned char)(0x80 | (cp & 0x3f)), 2;
	if (cp < 0x10000)
		return o[0] = (unsigned char)(0xe0 | cp >> 12),
		       o[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f)),
		       o[2] = (unsigned char)(0x80 | (cp & 0x3f)), 3;
	return o[0] = (unsigned char)(0xf0 | cp >> 18),
	       o[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f)),
	       o[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f)),
	       o[3] = (unsigned char)(0x80 | (cp & 0x3f)), 4;
}

static void check(const unsigned char b[5], size_t len)
{
	unsigned char e[4];
	uint32_t cp;
	size_t k;

	for (size_t n = 1; n <= len; n++) {
		k = utf8_seq(b, n, &cp);
		if (k != old_loadfile(b, n))
			fail_msg("%02x %02x %02x %02x (n %zu): %zu, loadfile "
				 "%zu", b[0], b[1], b[2], b[3], n, k,
				 old_loadfile(b, n));
		if (k && (encode(cp, e) != k || memcmp(e, b, k)))
			fail_msg("%02x %02x %02x %02x: U+%04X is not its "
				 "shortest form", b[0], b[1], b[2], b[3], cp);
	}
	/* esc() asks at a character of the string, never at its NUL */
	if (b[0] && new_html(b) != old_html(b))
		fail_msg("%02x %02x %02x %02x: %zu, html %u", b[0], b[1], b[2],
			 b[3], new_html(b), old_html(b));
}

static void test_old_decoders(void **state)
{
	unsigned char b[5] = { 0 };
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	(void)state;
	/* every 1-, 2- and 3-byte string (a NUL ends it early) */
	for (uint32_t v = 0; v < 1u << 24; v++) {
		b[0] = (unsigned char)(v >> 16);
		b[1] = (unsigned char)(v >> 8);
		b[2] = (unsigned char)v;
		b[3] = 0;
		check(b, 3);
	}
	/* random 4-byte strings, most of them starting 0xf0..0xf4 */
	for (int i = 0; i < 2000000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		b[0] = (unsigned char)(i & 1 ? 0xf0 + x % 5 : x);
		b[1] = (unsigned char)(x >> 8);
		b[2] = (unsigned char)(x >> 16);
		b[3] = (unsigned char)(x >> 24);
		if (i & 2)
			b[1] = (unsigned char)(0x80 | (b[1] & 0x3f)),
			b[2] = (unsigned char)(0x80 | (b[2] & 0x3f)),
			b[3] = (unsigned char)(0x80 | (b[3] & 0x3f));
		check(b, 4);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_old_decoders),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
