/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_num.c - base/num.c, the production parsers themselves: tables of
 * inputs, flags and expected verdicts and values (signs, blanks, empty
 * text, text after the number, bases, the edges of every range, overflow
 * and underflow), one table per flag set a caller of the project uses;
 * then, on random strings of number characters, num_i64 and num_u64 in
 * base 10 against what their contract says, decided from the text alone
 * (its shape, and its digits compared with the bounds' as strings).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "num.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* the flag sets of the callers */
#define OPT  0		     /* options.c, cmd_check.c: base 10 */
#define LF   NUM_BASE0	     /* lf_line.c, compare --seed */
#define LOG  NUM_DIGIT_FIRST /* dblog/lex.c, cmd_tbench.c */
#define SOCK (NUM_DIGIT_FIRST | NUM_NO_MINUS) /* sockopt.c, dblog numbers */

static const char *err_name(enum num_err e)
{
	return e == NUM_OK ? "OK" : e == NUM_SYNTAX ? "SYNTAX" : "RANGE";
}

/* ------------------------------- num_i64 ------------------------------- */

static void test_i64(void **state)
{
	static const struct {
		const char *s;
		unsigned int flags;
		int64_t min, max;
		enum num_err err;
		int64_t v;
	} t[] = {
		/* base 10 (options, check): the bounds are the caller's */
		{"0", OPT, 0, 10, NUM_OK, 0},
		{"10", OPT, 0, 10, NUM_OK, 10},
		{"11", OPT, 0, 10, NUM_RANGE, 0},
		{"-1", OPT, 0, 10, NUM_RANGE, 0},
		{"-1", OPT, -1, 10, NUM_OK, -1},
		{"-2", OPT, -1, 10, NUM_RANGE, 0},
		{"-0", OPT, 0, 10, NUM_OK, 0},
		{"007", OPT, 0, 10, NUM_OK, 7},
		{"010", OPT, 0, 100, NUM_OK, 10}, /* not octal */
		{"09", OPT, 0, 100, NUM_OK, 9},
		{"0x10", OPT, 0, 100, NUM_SYNTAX, 0},
		/* empty, signs alone, text after the number */
		{"", OPT, 0, 10, NUM_SYNTAX, 0},
		{"-", OPT, -10, 10, NUM_SYNTAX, 0},
		{"+", OPT, 0, 10, NUM_SYNTAX, 0},
		{"--1", OPT, -10, 10, NUM_SYNTAX, 0},
		{"+-1", OPT, -10, 10, NUM_SYNTAX, 0},
		{"x", OPT, 0, 10, NUM_SYNTAX, 0},
		{"5x", OPT, 0, 10, NUM_SYNTAX, 0},
		{"1.0", OPT, 0, 10, NUM_SYNTAX, 0},
		{"1e3", OPT, 0, 10000, NUM_SYNTAX, 0},
		{"1_000", OPT, 0, 10000, NUM_SYNTAX, 0},
		{"99x", OPT, 0, 10, NUM_SYNTAX, 0}, /* syntax before range */
		{"99999999999999999999x", OPT, 0, 10, NUM_SYNTAX, 0},
		/* blanks: before, as strtol; never after */
		{" 5", OPT, 0, 10, NUM_OK, 5},
		{"\t5", OPT, 0, 10, NUM_OK, 5},
		{"\n\v\f\r 5", OPT, 0, 10, NUM_OK, 5},
		{" -5", OPT, -10, 10, NUM_OK, -5},
		{"+5", OPT, 0, 10, NUM_OK, 5},
		{" +5", OPT, 0, 10, NUM_OK, 5},
		{"- 5", OPT, -10, 10, NUM_SYNTAX, 0},
		{"5 ", OPT, 0, 10, NUM_SYNTAX, 0},
		{"5\n", OPT, 0, 10, NUM_SYNTAX, 0},
		{" ", OPT, 0, 10, NUM_SYNTAX, 0},
		/* the edges of int64_t: overflow is RANGE, whatever the bounds
		 */
		{"9223372036854775807", OPT, INT64_MIN, INT64_MAX, NUM_OK,
		 INT64_MAX},
		{"9223372036854775808", OPT, INT64_MIN, INT64_MAX, NUM_RANGE,
		 0},
		{"-9223372036854775808", OPT, INT64_MIN, INT64_MAX, NUM_OK,
		 INT64_MIN},
		{"-9223372036854775809", OPT, INT64_MIN, INT64_MAX, NUM_RANGE,
		 0},
		{"99999999999999999999999", OPT, INT64_MIN, INT64_MAX,
		 NUM_RANGE, 0},
		{"0000000000000000000000009", OPT, 0, 10, NUM_OK, 9},
		/* base 0 (loadfiles: an int32 field; compare --seed) */
		{"010", LF, 0, 100, NUM_OK, 8},
		{"0x10", LF, 0, 100, NUM_OK, 16},
		{"0X1f", LF, 0, 100, NUM_OK, 31},
		{"-0x10", LF, -100, 100, NUM_OK, -16},
		{"0", LF, 0, 100, NUM_OK, 0},
		{"09", LF, 0, 100, NUM_SYNTAX, 0},
		{"0x", LF, 0, 100, NUM_SYNTAX, 0},
		{"0xg", LF, 0, 100, NUM_SYNTAX, 0},
		{"0b1", LF, 0, 100, NUM_SYNTAX, 0},
		{"2147483647", LF, INT32_MIN, INT32_MAX, NUM_OK, INT32_MAX},
		{"2147483648", LF, INT32_MIN, INT32_MAX, NUM_RANGE, 0},
		{"0x7fffffff", LF, INT32_MIN, INT32_MAX, NUM_OK, INT32_MAX},
		{"0x80000000", LF, INT32_MIN, INT32_MAX, NUM_RANGE, 0},
		{"-2147483648", LF, INT32_MIN, INT32_MAX, NUM_OK, INT32_MIN},
		{"-2147483649", LF, INT32_MIN, INT32_MAX, NUM_RANGE, 0},
		{"0x8000000000000000", LF, INT64_MIN, INT64_MAX, NUM_RANGE, 0},
		/* digit first (dblog, tbench's port): no blank, no '+' */
		{"7", LOG, 0, 10, NUM_OK, 7},
		{"-7", LOG, -10, 10, NUM_OK, -7},
		{" 7", LOG, 0, 10, NUM_SYNTAX, 0},
		{"\t7", LOG, 0, 10, NUM_SYNTAX, 0},
		{"+7", LOG, 0, 10, NUM_SYNTAX, 0},
		{"- 7", LOG, -10, 10, NUM_SYNTAX, 0},
		{"-", LOG, -10, 10, NUM_SYNTAX, 0},
		{"", LOG, -10, 10, NUM_SYNTAX, 0},
		/* no minus (sockopt.c): "-0" too */
		{"-0", NUM_NO_MINUS, 0, 10, NUM_SYNTAX, 0},
		{" -0", NUM_NO_MINUS, 0, 10, NUM_SYNTAX, 0},
		{"+3", NUM_NO_MINUS, 0, 10, NUM_OK, 3},
		{"3", SOCK, 0, 10, NUM_OK, 3},
		{"-7", SOCK, -10, 10, NUM_SYNTAX, 0},
		{"+3", SOCK, 0, 10, NUM_SYNTAX, 0},
		{"2147483648", SOCK, 0, INT32_MAX, NUM_RANGE, 0},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		int64_t v = 12345;
		enum num_err e =
			num_i64(t[i].s, t[i].flags, t[i].min, t[i].max, &v);

		if (e != t[i].err || (e == NUM_OK && v != t[i].v) ||
		    (e != NUM_OK && v != 12345))
			fail_msg("num_i64('%s', %#x): %s %" PRId64
				 ", want %s %" PRId64,
				 t[i].s, t[i].flags, err_name(e), v,
				 err_name(t[i].err), t[i].v);
	}
}

/* ------------------------------- num_u64 ------------------------------- */

static void test_u64(void **state)
{
	static const struct {
		const char *s;
		unsigned int flags;
		uint64_t max;
		enum num_err err;
		uint64_t v;
	} t[] = {
		{"0", OPT, 10, NUM_OK, 0},
		{"10", OPT, 10, NUM_OK, 10},
		{"11", OPT, 10, NUM_RANGE, 0},
		{"18446744073709551615", OPT, UINT64_MAX, NUM_OK, UINT64_MAX},
		{"18446744073709551616", OPT, UINT64_MAX, NUM_RANGE, 0},
		{"99999999999999999999999", OPT, UINT64_MAX, NUM_RANGE, 0},
		/* a '-' is never taken (strtoull wraps "-1" to the max) */
		{"-1", OPT, UINT64_MAX, NUM_SYNTAX, 0},
		{" -1", OPT, UINT64_MAX, NUM_SYNTAX, 0},
		{"\t-1", OPT, UINT64_MAX, NUM_SYNTAX, 0},
		{"-0", OPT, UINT64_MAX, NUM_SYNTAX, 0},
		{"-18446744073709551615", OPT, UINT64_MAX, NUM_SYNTAX, 0},
		{"", OPT, 10, NUM_SYNTAX, 0},
		{" ", OPT, 10, NUM_SYNTAX, 0},
		{"+", OPT, 10, NUM_SYNTAX, 0},
		{"1x", OPT, 10, NUM_SYNTAX, 0},
		{"1 ", OPT, 10, NUM_SYNTAX, 0},
		{"1.5", OPT, 10, NUM_SYNTAX, 0},
		{" 7", OPT, 10, NUM_OK, 7},
		{"+7", OPT, 10, NUM_OK, 7},
		{"0x1f", OPT, 100, NUM_SYNTAX, 0},
		/* base 0 (compare --seed, --bootstrap) */
		{"0x1f", LF, 100, NUM_OK, 31},
		{"017", LF, 100, NUM_OK, 15},
		{"018", LF, 100, NUM_SYNTAX, 0},
		{"0xffffffffffffffff", LF, UINT64_MAX, NUM_OK, UINT64_MAX},
		{"0x10000000000000000", LF, UINT64_MAX, NUM_RANGE, 0},
		{"-0x1", LF, UINT64_MAX, NUM_SYNTAX, 0},
		/* digit first (dblog's counts and ints) */
		{"7", LOG, 10, NUM_OK, 7},
		{" 7", LOG, 10, NUM_SYNTAX, 0},
		{"+7", LOG, 10, NUM_SYNTAX, 0},
		{"2147483647", LOG, INT32_MAX, NUM_OK, INT32_MAX},
		{"2147483648", LOG, INT32_MAX, NUM_RANGE, 0},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		uint64_t v = 12345;
		enum num_err e = num_u64(t[i].s, t[i].flags, t[i].max, &v);

		if (e != t[i].err || (e == NUM_OK && v != t[i].v) ||
		    (e != NUM_OK && v != 12345))
			fail_msg("num_u64('%s', %#x): %s %" PRIu64
				 ", want %s %" PRIu64,
				 t[i].s, t[i].flags, err_name(e), v,
				 err_name(t[i].err), t[i].v);
	}
}

/* ------------------------------- num_f64 ------------------------------- */

static void test_f64(void **state)
{
	static const struct {
		const char *s;
		unsigned int flags;
		bool suffix; /* pass @end */
		enum num_err err;
		double v;
		size_t used; /* characters parsed, with @end */
	} t[] = {
		/* plain (-R, compare's --alpha and --noise, --percentiles) */
		{"1.5", OPT, false, NUM_OK, 1.5, 0},
		{"0", OPT, false, NUM_OK, 0, 0},
		{"-0", OPT, false, NUM_OK, -0.0, 0},
		{" 1.5", OPT, false, NUM_OK, 1.5, 0},
		{"\t\n1.5", OPT, false, NUM_OK, 1.5, 0},
		{"+1.5", OPT, false, NUM_OK, 1.5, 0},
		{"-1.5", OPT, false, NUM_OK, -1.5, 0},
		{"1e3", OPT, false, NUM_OK, 1000, 0},
		{"1E-3", OPT, false, NUM_OK, 1e-3, 0},
		{".5", OPT, false, NUM_OK, 0.5, 0},
		{"5.", OPT, false, NUM_OK, 5, 0},
		{"0x10", OPT, false, NUM_OK, 16, 0},
		{"0x1p3", OPT, false, NUM_OK, 8, 0},
		{"", OPT, false, NUM_SYNTAX, 0, 0},
		{" ", OPT, false, NUM_SYNTAX, 0, 0},
		{".", OPT, false, NUM_SYNTAX, 0, 0},
		{"-", OPT, false, NUM_SYNTAX, 0, 0},
		{"e3", OPT, false, NUM_SYNTAX, 0, 0},
		{"1.5x", OPT, false, NUM_SYNTAX, 0, 0},
		{"1.5 ", OPT, false, NUM_SYNTAX, 0, 0},
		{"1,5", OPT, false, NUM_SYNTAX, 0, 0},
		/* not finite, or overflowing: RANGE */
		{"inf", OPT, false, NUM_RANGE, 0, 0},
		{"-inf", OPT, false, NUM_RANGE, 0, 0},
		{"infinity", OPT, false, NUM_RANGE, 0, 0},
		{"nan", OPT, false, NUM_RANGE, 0, 0},
		{"1e400", OPT, false, NUM_RANGE, 0, 0},
		{"-1e400", OPT, false, NUM_RANGE, 0, 0},
		{"1e400%", OPT, true, NUM_RANGE, 0, 0},
		{"1.7976931348623157e308", OPT, false, NUM_OK,
		 1.7976931348623157e308, 0},
		{"1.8e308", OPT, false, NUM_RANGE, 0, 0},
		/* an underflow (strtod's ERANGE) is the tiny value, not an
		 * error: a denormal, or 0 of the sign */
		{"1e-320", OPT, false, NUM_OK, 1e-320, 0},
		{"4.9e-324", OPT, false, NUM_OK, 4.9e-324, 0},
		{"2.225073858507201e-308", OPT, false, NUM_OK,
		 2.225073858507201e-308, 0},
		{"1e-400", OPT, false, NUM_OK, 0, 0},
		{"-1e-400", OPT, false, NUM_OK, -0.0, 0},
		{"0x1p-1074", OPT, false, NUM_OK, 4.9406564584124654e-324, 0},
		{"0x1p-2000", OPT, false, NUM_OK, 0, 0},
		/* a suffix left to the caller (compare's "5%", the list of
		 * --percentiles): *end after the number, not moved on a
		 * syntax error */
		{"5%", OPT, true, NUM_OK, 5, 1},
		{"5%", OPT, false, NUM_SYNTAX, 0, 0},
		{"1e-320%", OPT, true, NUM_OK, 1e-320, 6},
		{"50,99", OPT, true, NUM_OK, 50, 2},
		{"99.9,", OPT, true, NUM_OK, 99.9, 4},
		{" 7 ", OPT, true, NUM_OK, 7, 2},
		{",", OPT, true, NUM_SYNTAX, 0, 0},
		{"%", OPT, true, NUM_SYNTAX, 0, 0},
		{"", OPT, true, NUM_SYNTAX, 0, 0},
		/* digit first (dblog numbers): no blank, '+', hex, inf, nan */
		{".5", LOG, false, NUM_OK, 0.5, 0},
		{"0.5", LOG, false, NUM_OK, 0.5, 0},
		{"-0.5", LOG, false, NUM_OK, -0.5, 0},
		{"-.5", LOG, false, NUM_OK, -0.5, 0},
		{" 0.5", LOG, false, NUM_SYNTAX, 0, 0},
		{"+0.5", LOG, false, NUM_SYNTAX, 0, 0},
		{"0x10", LOG, false, NUM_SYNTAX, 0, 0},
		{"-0x10", LOG, false, NUM_SYNTAX, 0, 0},
		{"0X1p3", LOG, false, NUM_SYNTAX, 0, 0},
		{"inf", LOG, false, NUM_SYNTAX, 0, 0},
		{"nan", LOG, false, NUM_SYNTAX, 0, 0},
		{"e5", LOG, false, NUM_SYNTAX, 0, 0},
		/* and no minus (dblog numbers) */
		{"1e-320", SOCK, false, NUM_OK, 1e-320, 0},
		{"12.345", SOCK, false, NUM_OK, 12.345, 0},
		{"-0", SOCK, false, NUM_SYNTAX, 0, 0},
		{"-1", SOCK, false, NUM_SYNTAX, 0, 0},
		{" -2", NUM_NO_MINUS, false, NUM_SYNTAX, 0, 0},
		{"\t-2", NUM_NO_MINUS, false, NUM_SYNTAX, 0, 0},
		{"2", NUM_NO_MINUS, false, NUM_OK, 2, 0},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		double v = 12345;
		const char *end = NULL;
		enum num_err e = num_f64(t[i].s, t[i].flags, &v,
					 t[i].suffix ? &end : NULL);

		/* -0 and 0 compare equal: the sign is checked apart */
		if (e != t[i].err ||
		    (e == NUM_OK &&
		     (v != t[i].v || signbit(v) != signbit(t[i].v))) ||
		    (e != NUM_OK && v != 12345))
			fail_msg("num_f64('%s', %#x): %s %g, want %s %g",
				 t[i].s, t[i].flags, err_name(e), v,
				 err_name(t[i].err), t[i].v);
		if (t[i].suffix && e == NUM_OK && end != t[i].s + t[i].used)
			fail_msg("num_f64('%s'): end at %td, want %zu", t[i].s,
				 end - t[i].s, t[i].used);
		if (t[i].suffix && e == NUM_SYNTAX && end != t[i].s)
			fail_msg("num_f64('%s'): end moved on a syntax error",
				 t[i].s);
	}
}

/* --------------------- the contract, on random text -------------------- */

/*
 * What num_i64 and num_u64 in base 10 must answer for @s, decided from
 * the text: blanks (" \t\n\v\f\r", unless @digit_first), a sign ('+' only
 * without @digit_first; '-' for a signed parse), one or more digits and
 * nothing else, or NUM_SYNTAX.  The value is then within the bounds when
 * its digits, leading zeros dropped, are no more than the bound's as a
 * decimal string (shorter, or as long and not greater).  Returns the
 * verdict; for NUM_OK the canonical text of the value in @canon.
 */
static enum num_err contract(const char *s, bool digit_first, bool is_signed,
			     const char *min_abs, const char *max, char *canon,
			     size_t clen)
{
	bool neg = false;
	const char *d, *bound;
	size_t nd;

	if (!digit_first)
		while (*s && strchr(" \t\n\v\f\r", *s))
			s++;
	if (*s == '-' || (*s == '+' && !digit_first)) {
		neg = *s == '-';
		s++;
	}
	if (neg && !is_signed)
		return NUM_SYNTAX;
	d = s;
	while (*s >= '0' && *s <= '9')
		s++;
	if (s == d || *s)
		return NUM_SYNTAX;
	while (*d == '0' && d[1])
		d++;
	nd = strlen(d);
	if (neg && !strcmp(d, "0"))
		neg = false;
	bound = neg ? min_abs : max;
	if (nd > strlen(bound) || (nd == strlen(bound) && strcmp(d, bound) > 0))
		return NUM_RANGE;
	snprintf(canon, clen, "%s%s", neg ? "-" : "", d);
	return NUM_OK;
}

static void check_random(const char *s)
{
	static const struct {
		unsigned int flags;
		int64_t min, max;
		const char *min_abs, *max_s;
	} ib[] = {
		{OPT, INT64_MIN, INT64_MAX, "9223372036854775808",
		 "9223372036854775807"},
		{OPT, 0, 1000, "0", "1000"},
		{OPT, -5, 12, "5", "12"},
		{LOG, INT64_MIN, INT64_MAX, "9223372036854775808",
		 "9223372036854775807"},
		{LOG, INT32_MIN, INT32_MAX, "2147483648", "2147483647"},
	};
	static const struct {
		unsigned int flags;
		uint64_t max;
		const char *max_s;
	} ub[] = {
		{OPT, UINT64_MAX, "18446744073709551615"},
		{LOG, INT32_MAX, "2147483647"},
		{OPT, 99, "99"},
	};
	char want[64], got[64];

	for (size_t i = 0; i < ARRAY_SIZE(ib); i++) {
		int64_t v = 12345;
		enum num_err e =
			num_i64(s, ib[i].flags, ib[i].min, ib[i].max, &v);
		enum num_err c = contract(s, ib[i].flags & NUM_DIGIT_FIRST,
					  true, ib[i].min_abs, ib[i].max_s,
					  want, sizeof(want));

		snprintf(got, sizeof(got), "%" PRId64, v);
		if (e != c || (e == NUM_OK && strcmp(got, want)) ||
		    (e != NUM_OK && v != 12345))
			fail_msg("num_i64('%s', %#x, %s): %s %s, want %s %s", s,
				 ib[i].flags, ib[i].max_s, err_name(e), got,
				 err_name(c), c == NUM_OK ? want : "");
	}
	for (size_t i = 0; i < ARRAY_SIZE(ub); i++) {
		uint64_t v = 12345;
		enum num_err e = num_u64(s, ub[i].flags, ub[i].max, &v);
		enum num_err c =
			contract(s, ub[i].flags & NUM_DIGIT_FIRST, false, "",
				 ub[i].max_s, want, sizeof(want));

		snprintf(got, sizeof(got), "%" PRIu64, v);
		if (e != c || (e == NUM_OK && strcmp(got, want)) ||
		    (e != NUM_OK && v != 12345))
			fail_msg("num_u64('%s', %#x, %s): %s %s, want %s %s", s,
				 ub[i].flags, ub[i].max_s, err_name(e), got,
				 err_name(c), c == NUM_OK ? want : "");
	}
}

static void test_random(void **state)
{
	/* digits weigh most, so that long numbers near the bounds come up */
	static const char alphabet[] = "0123456789012345678901234567899"
				       "-+ \t\n.xe";
	/* every bound, one either side of it, with and without zeros */
	static const char *const edge[] = {
		"9223372036854775806",
		"9223372036854775807",
		"9223372036854775808",
		"-9223372036854775807",
		"-9223372036854775808",
		"-9223372036854775809",
		"18446744073709551614",
		"18446744073709551615",
		"18446744073709551616",
		"2147483646",
		"2147483647",
		"2147483648",
		"-2147483648",
		"-2147483649",
		"1000",
		"1001",
		"-5",
		"-6",
		"12",
		"13",
		"99",
		"100",
		"000099",
		"-0000",
		"+0",
		"00000000000000000000000018446744073709551615",
	};
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	char s[24];

	(void)state;
	for (int it = 0; it < 200000; it++) {
		size_t len;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		len = x % (sizeof(s) - 1);
		for (size_t k = 0; k < len; k++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			s[k] = alphabet[x % (sizeof(alphabet) - 1)];
		}
		s[len] = 0;
		check_random(s);
	}
	for (size_t i = 0; i < ARRAY_SIZE(edge); i++)
		check_random(edge[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_i64),
		cmocka_unit_test(test_u64),
		cmocka_unit_test(test_f64),
		cmocka_unit_test(test_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
