/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_utf8.c - base/utf8.c, utf8_seq() itself: a table of sequences and
 * what it must say of each (the edges of every length, overlong forms,
 * surrogates, values over U+10FFFF, stray and missing continuation
 * bytes, truncation by @n or by a NUL); then against RFC 3629's
 * definition, from the encoder's side: every code point's encoding is
 * taken whole (and refused one byte short), and whatever is taken, of
 * every string of 1 to 3 bytes, of every 4-byte string of a lead byte
 * and three continuation bytes and of random others, is the encoding of
 * the code point it returned.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "utf8.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void test_table(void **state)
{
	static const struct {
		const char *s;
		size_t len; /* utf8_seq's answer, 0: invalid */
		uint32_t cp;
	} t[] = {
		/* one byte: ASCII, controls included */
		{"a", 1, 'a'},
		{"\x01", 1, 0x01},
		{"\x1f", 1, 0x1f},
		{"\x7f", 1, 0x7f},
		{"ab", 1, 'a'}, /* one sequence, not the string */
		/* two bytes */
		{"\xc2\x80", 2,
		 0x80}, /* C1: valid, refusing it is the caller's */
		{"\xc2\xa0", 2, 0xa0},
		{"\xc3\xa9", 2, 0xe9},
		{"\xdf\xbf", 2, 0x7ff},
		{"\xc0\x80", 0, 0}, /* overlong NUL */
		{"\xc0\xaf", 0, 0}, /* overlong '/' */
		{"\xc1\xbf", 0, 0},
		{"\xc3\x28", 0, 0}, /* not a continuation */
		{"\xc3\xc3", 0, 0},
		{"\xc3", 0, 0}, /* cut short by the NUL */
		/* three bytes */
		{"\xe0\xa0\x80", 3, 0x800},
		{"\xe2\x82\xac", 3, 0x20ac},
		{"\xed\x9f\xbf", 3, 0xd7ff},
		{"\xee\x80\x80", 3, 0xe000},
		{"\xef\xbf\xbe", 3, 0xfffe}, /* a non-character: valid */
		{"\xef\xbf\xbf", 3, 0xffff},
		{"\xe0\x80\x80", 0, 0}, /* overlong */
		{"\xe0\x9f\xbf", 0, 0}, /* overlong U+07FF */
		{"\xed\xa0\x80", 0, 0}, /* surrogates */
		{"\xed\xaf\xbf", 0, 0},
		{"\xed\xb0\x80", 0, 0},
		{"\xed\xbf\xbf", 0, 0},
		{"\xed\xa0\xbd\xed\xb2\xa9", 0, 0}, /* a CESU-8 pair */
		{"\xe2\x82", 0, 0},
		{"\xe2\x28\xac", 0, 0},
		{"\xe2\x82\x28", 0, 0},
		/* four bytes */
		{"\xf0\x90\x80\x80", 4, 0x10000},
		{"\xf0\x9f\x98\x80", 4, 0x1f600},
		{"\xf4\x8f\xbf\xbf", 4, 0x10ffff},
		{"\xf0\x80\x80\x80", 0, 0}, /* overlong */
		{"\xf0\x8f\xbf\xbf", 0, 0}, /* overlong U+FFFF */
		{"\xf4\x90\x80\x80", 0, 0}, /* over U+10FFFF */
		{"\xf7\xbf\xbf\xbf", 0, 0},
		{"\xf0\x90\x80", 0, 0},
		{"\xf0\x90\x28\x80", 0, 0},
		{"\xf0\x90\x80\x28", 0, 0},
		/* bytes that never start a sequence */
		{"\x80", 0, 0}, /* a stray continuation */
		{"\xbf", 0, 0},
		{"\xf5\x80\x80\x80", 0, 0},
		{"\xf8\x88\x80\x80\x80", 0, 0}, /* the old 5-byte form */
		{"\xfc\x84\x80\x80\x80\x80", 0, 0},
		{"\xfe", 0, 0},
		{"\xff", 0, 0},
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
		/* bounded by @n: one byte short is invalid, and NULL for
		 * @cp gives the same length */
		if (k > 1 && utf8_seq(s, k - 1, &cp))
			fail_msg("case %zu: valid with %zu bytes", i, k - 1);
		if (utf8_seq(s, strlen(t[i].s) + 1, NULL) != k)
			fail_msg("case %zu: another length without @cp", i);
	}
	/* @n 0 reads nothing; a NUL is a valid sequence of its own */
	assert_int_equal(utf8_seq((const unsigned char *)"a", 0, NULL), 0);
	assert_int_equal(utf8_seq((const unsigned char *)"", 1, NULL), 1);
}

/* the shortest form of @cp (< 0x110000) in @o; its length */
static size_t encode(uint32_t cp, unsigned char *o)
{
	if (cp < 0x80) {
		o[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (unsigned char)(0xc0 | cp >> 6);
		o[1] = (unsigned char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (unsigned char)(0xe0 | cp >> 12);
		o[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		o[2] = (unsigned char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (unsigned char)(0xf0 | cp >> 18);
	o[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
	o[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
	o[3] = (unsigned char)(0x80 | (cp & 0x3f));
	return 4;
}

static int is_scalar(uint32_t cp)
{
	return cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff);
}

/* every code point: its encoding is taken, whole and only whole */
static void test_every_code_point(void **state)
{
	unsigned char e[4];

	(void)state;
	for (uint32_t cp = 0; cp <= 0x10ffff; cp++) {
		uint32_t got = 0xdeadbeef;
		size_t len, k;

		if (!is_scalar(cp))
			continue;
		len = encode(cp, e);
		k = utf8_seq(e, len, &got);
		if (k != len || got != cp)
			fail_msg("U+%04X: %zu U+%04X, want %zu", cp, k, got,
				 len);
		if (len > 1 && utf8_seq(e, len - 1, NULL))
			fail_msg("U+%04X: taken one byte short", cp);
	}
	/* the surrogates' would-be encodings are refused */
	for (uint32_t cp = 0xd800; cp <= 0xdfff; cp++) {
		encode(cp, e);
		if (utf8_seq(e, 3, NULL))
			fail_msg("the surrogate U+%04X taken", cp);
	}
}

/* what is taken of @b (@n bytes) is the encoding of a code point */
static void sound(const unsigned char *b, size_t n)
{
	unsigned char e[4];
	uint32_t cp = 0xdeadbeef;
	size_t k = utf8_seq(b, n, &cp);

	if (!k)
		return;
	if (!is_scalar(cp) || encode(cp, e) != k || memcmp(e, b, k))
		fail_msg("%02x %02x %02x %02x (n %zu): %zu bytes as U+%04X, "
			 "not its encoding",
			 b[0], n > 1 ? b[1] : 0, n > 2 ? b[2] : 0,
			 n > 3 ? b[3] : 0, n, k, cp);
}

static void test_nothing_else(void **state)
{
	unsigned char b[4];
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	(void)state;
	/* every string of 1 to 3 bytes */
	for (uint32_t v = 0; v < 1u << 24; v++) {
		b[0] = (unsigned char)(v >> 16);
		b[1] = (unsigned char)(v >> 8);
		b[2] = (unsigned char)v;
		for (size_t n = 1; n <= 3; n++)
			sound(b, n);
	}
	/* every lead byte from 0xf0 with three continuation bytes */
	for (uint32_t v = 0; v < 16u << 18; v++) {
		b[0] = (unsigned char)(0xf0 | v >> 18);
		b[1] = (unsigned char)(0x80 | (v >> 12 & 0x3f));
		b[2] = (unsigned char)(0x80 | (v >> 6 & 0x3f));
		b[3] = (unsigned char)(0x80 | (v & 0x3f));
		sound(b, 4);
	}
	/* random 4-byte strings, half of them with a 4-byte lead */
	for (int i = 0; i < 2000000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		b[0] = (unsigned char)(i & 1 ? 0xf0 + x % 5 : x);
		b[1] = (unsigned char)(x >> 8);
		b[2] = (unsigned char)(x >> 16);
		b[3] = (unsigned char)(x >> 24);
		sound(b, 4);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_every_code_point),
		cmocka_unit_test(test_nothing_else),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
