/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_num.c - base/num.c: a table of inputs and flags, and for every
 * parser the project had before num.c (options, check, compare, report
 * --percentiles, loadfile, dbench logs) the old code, copied here, against
 * the same caller written with num_*: the same verdict and value on the
 * table and on random strings of number characters (with one deliberate
 * change: an underflow is a value, not an error).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------ the table ------------------------------ */

static void test_i64(void **state)
{
	static const struct {
		const char *s;
		unsigned int flags;
		int64_t min, max;
		enum num_err err;
		int64_t v;
	} t[] = {
		{"0", 0, 0, 10, NUM_OK, 0},
		{"10", 0, 0, 10, NUM_OK, 10},
		{"11", 0, 0, 10, NUM_RANGE, 0},
		{"-1", 0, 0, 10, NUM_RANGE, 0},
		{"-1", 0, -1, 10, NUM_OK, -1},
		{"", 0, 0, 10, NUM_SYNTAX, 0},
		{"x", 0, 0, 10, NUM_SYNTAX, 0},
		{"5x", 0, 0, 10, NUM_SYNTAX, 0},
		{"99x", 0, 0, 10, NUM_SYNTAX, 0},	/* syntax first */
		{"5 ", 0, 0, 10, NUM_SYNTAX, 0},
		{" 5", 0, 0, 10, NUM_OK, 5},		/* as strtol */
		{"+5", 0, 0, 10, NUM_OK, 5},
		{"010", 0, 0, 100, NUM_OK, 10},		/* base 10 */
		{"0x10", 0, 0, 100, NUM_SYNTAX, 0},
		{"010", NUM_BASE0, 0, 100, NUM_OK, 8},
		{"0x10", NUM_BASE0, 0, 100, NUM_OK, 16},
		{"0X1f", NUM_BASE0, 0, 100, NUM_OK, 31},
		{"09", NUM_BASE0, 0, 100, NUM_SYNTAX, 0},
		{"-0x10", NUM_BASE0, -100, 100, NUM_OK, -16},
		{"9223372036854775807", 0, INT64_MIN, INT64_MAX, NUM_OK,
		 INT64_MAX},
		{"9223372036854775808", 0, INT64_MIN, INT64_MAX, NUM_RANGE, 0},
		{"-9223372036854775808", 0, INT64_MIN, INT64_MAX, NUM_OK,
		 INT64_MIN},
		{"-9223372036854775809", 0, INT64_MIN, INT64_MAX, NUM_RANGE,
		 0},
		{"7", NUM_DIGIT_FIRST, 0, 10, NUM_OK, 7},
		{"-7", NUM_DIGIT_FIRST, -10, 10, NUM_OK, -7},
		{" 7", NUM_DIGIT_FIRST, 0, 10, NUM_SYNTAX, 0},
		{"+7", NUM_DIGIT_FIRST, 0, 10, NUM_SYNTAX, 0},
		{"- 7", NUM_DIGIT_FIRST, -10, 10, NUM_SYNTAX, 0},
		{"-0", 0, 0, 10, NUM_OK, 0},
		{"-0", NUM_NO_MINUS, 0, 10, NUM_SYNTAX, 0},
		{" -0", NUM_NO_MINUS, 0, 10, NUM_SYNTAX, 0},
		{"-7", NUM_DIGIT_FIRST | NUM_NO_MINUS, -10, 10, NUM_SYNTAX, 0},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		int64_t v = 12345;
		enum num_err e = num_i64(t[i].s, t[i].flags, t[i].min,
					 t[i].max, &v);

		if (e != t[i].err || (e == NUM_OK && v != t[i].v) ||
		    (e != NUM_OK && v != 12345))
			fail_msg("num_i64('%s', %#x): %d %lld, want %d %lld",
				 t[i].s, t[i].flags, e, (long long)v, t[i].err,
				 (long long)t[i].v);
	}
}

static void test_u64(void **state)
{
	static const struct {
		const char *s;
		unsigned int flags;
		uint64_t max;
		enum num_err err;
		uint64_t v;
	} t[] = {
		{"0", 0, 10, NUM_OK, 0},
		{"10", 0, 10, NUM_OK, 10},
		{"11", 0, 10, NUM_RANGE, 0},
		{"18446744073709551615", 0, UINT64_MAX, NUM_OK, UINT64_MAX},
		{"18446744073709551616", 0, UINT64_MAX, NUM_RANGE, 0},
		{"-1", 0, UINT64_MAX, NUM_SYNTAX, 0},	/* no wrap */
		{" -1", 0, UINT64_MAX, NUM_SYNTAX, 0},
		{"-0", 0, UINT64_MAX, NUM_SYNTAX, 0},
		{"", 0, 10, NUM_SYNTAX, 0},
		{"1x", 0, 10, NUM_SYNTAX, 0},
		{" 7", 0, 10, NUM_OK, 7},
		{"+7", 0, 10, NUM_OK, 7},
		{"0x1f", NUM_BASE0, 100, NUM_OK, 31},
		{"0x1f", 0, 100, NUM_SYNTAX, 0},
		{"017", NUM_BASE0, 100, NUM_OK, 15},
		{"7", NUM_DIGIT_FIRST, 10, NUM_OK, 7},
		{" 7", NUM_DIGIT_FIRST, 10, NUM_SYNTAX, 0},
		{"+7", NUM_DIGIT_FIRST, 10, NUM_SYNTAX, 0},
		{"2147483648", NUM_DIGIT_FIRST, INT32_MAX, NUM_RANGE, 0},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		uint64_t v = 12345;
		enum num_err e = num_u64(t[i].s, t[i].flags, t[i].max, &v);

		if (e != t[i].err || (e == NUM_OK && v != t[i].v) ||
		    (e != NUM_OK && v != 12345))
			fail_msg("num_u64('%s', %#x): %d %llu, want %d %llu",
				 t[i].s, t[i].flags, e, (unsigned long long)v,
				 t[i].err, (unsigned long long)t[i].v);
	}
}

static void test_f64(void **state)
{
	static const struct {
		const char *s;
		unsigned int flags;
		bool suffix;	/* pass @end */
		enum num_err err;
		double v;
		size_t used;	/* characters parsed, with @end */
	} t[] = {
		{"1.5", 0, false, NUM_OK, 1.5, 0},
		{" 1.5", 0, false, NUM_OK, 1.5, 0},
		{"-1.5", 0, false, NUM_OK, -1.5, 0},
		{"1e3", 0, false, NUM_OK, 1000, 0},
		{"0x10", 0, false, NUM_OK, 16, 0},
		{"", 0, false, NUM_SYNTAX, 0, 0},
		{".", 0, false, NUM_SYNTAX, 0, 0},
		{"1.5x", 0, false, NUM_SYNTAX, 0, 0},
		{"inf", 0, false, NUM_RANGE, 0, 0},
		{"nan", 0, false, NUM_RANGE, 0, 0},
		{"1e400", 0, false, NUM_RANGE, 0, 0},
		{"-1e400", 0, false, NUM_RANGE, 0, 0},
		{"1e400%", 0, true, NUM_RANGE, 0, 0},
		/* an underflow (strtod's ERANGE) is the tiny value, not an
		 * error: a denormal, or 0 */
		{"1e-320", 0, false, NUM_OK, 1e-320, 0},
		{"4.9e-324", 0, false, NUM_OK, 4.9e-324, 0},
		{"2.225073858507201e-308", 0, false, NUM_OK,
		 2.225073858507201e-308, 0},
		{"1e-400", 0, false, NUM_OK, 0, 0},
		{"-1e-400", 0, false, NUM_OK, -0.0, 0},
		{"1e-320%", 0, true, NUM_OK, 1e-320, 6},
		{"1e-320", NUM_DIGIT_FIRST | NUM_NO_MINUS, false, NUM_OK,
		 1e-320, 0},
		{"5%", 0, true, NUM_OK, 5, 1},
		{"5%", 0, false, NUM_SYNTAX, 0, 0},
		{"50,99", 0, true, NUM_OK, 50, 2},
		{",", 0, true, NUM_SYNTAX, 0, 0},
		{".5", NUM_DIGIT_FIRST, false, NUM_OK, 0.5, 0},
		{"0.5", NUM_DIGIT_FIRST, false, NUM_OK, 0.5, 0},
		{" 0.5", NUM_DIGIT_FIRST, false, NUM_SYNTAX, 0, 0},
		{"+0.5", NUM_DIGIT_FIRST, false, NUM_SYNTAX, 0, 0},
		{"0x10", NUM_DIGIT_FIRST, false, NUM_SYNTAX, 0, 0},
		{"0X1p3", NUM_DIGIT_FIRST, false, NUM_SYNTAX, 0, 0},
		{"inf", NUM_DIGIT_FIRST, false, NUM_SYNTAX, 0, 0},
		{"-0.5", NUM_DIGIT_FIRST, false, NUM_OK, -0.5, 0},
		{"-0", NUM_DIGIT_FIRST | NUM_NO_MINUS, false, NUM_SYNTAX, 0, 0},
		{" -2", NUM_NO_MINUS, false, NUM_SYNTAX, 0, 0},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		double v = 12345;
		const char *end = NULL;
		enum num_err e = num_f64(t[i].s, t[i].flags, &v,
					 t[i].suffix ? &end : NULL);

		if (e != t[i].err || (e == NUM_OK && v != t[i].v) ||
		    (e != NUM_OK && v != 12345))
			fail_msg("num_f64('%s', %#x): %d %g, want %d %g",
				 t[i].s, t[i].flags, e, v, t[i].err, t[i].v);
		if (t[i].suffix && e == NUM_OK &&
		    end != t[i].s + t[i].used)
			fail_msg("num_f64('%s'): end at %td, want %zu", t[i].s,
				 end - t[i].s, t[i].used);
		if (t[i].suffix && e == NUM_SYNTAX && end != t[i].s)
			fail_msg("num_f64('%s'): end moved on a syntax error",
				 t[i].s);
	}
}

/* ------------------- the old parsers, and the new ones ------------------ */

/* each returns a verdict (0 ok, else the kind of message it printed) and
 * the value */

/*
 * The one deliberate change: the old double parsers refused strtod's
 * ERANGE of an underflow ("1e-320", a denormal; "1e-400", 0) as out of
 * range, so that "-R 1e-320" was "not >= 0"; num_f64 takes the value.
 * The old code below calls strtod through this, which forgives an
 * underflow (ERANGE with a finite result), and must still agree with the
 * new callers on every string.
 */
static double strtod_underflow_ok(const char *s, char **end)
{
	double v = strtod(s, end);

	if (errno == ERANGE && isfinite(v))
		errno = 0;
	return v;
}

/* options.c parse_long (min 0, max 1000 as for -t) */
static int old_options(const char *s, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end)
		return 1;	/* "is not a whole number" */
	if (errno || v < 0 || v > 1000)
		return 2;	/* "is out of range" */
	*out = v;
	return 0;
}

static int new_options(const char *s, long *out)
{
	int64_t v;

	switch (num_i64(s, 0, 0, 1000, &v)) {
	case NUM_OK:
		*out = (long)v;
		return 0;
	case NUM_SYNTAX:
		return 1;
	default:
		return 2;
	}
}

/* check.c parse_int (1..1000 as for --min-runs) */
static int old_check(const char *s, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s ? s : "", &end, 10);
	if (!s || end == s || *end || errno || v < 1 || v > 1000)
		return 1;
	*out = v;
	return 0;
}

static int new_check(const char *s, long *out)
{
	int64_t v;

	if (num_i64(s ? s : "", 0, 1, 1000, &v))
		return 1;
	*out = (long)v;
	return 0;
}

/* loadfile.c parse_int (an int32 field) */
static int old_loadfile(const char *tok, long *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(tok, &end, 0);
	if (end == tok || *end)
		return 1;
	if (errno == ERANGE || v < INT32_MIN || v > INT32_MAX)
		return 2;
	*out = (long)v;
	return 0;
}

static int new_loadfile(const char *tok, long *out)
{
	int64_t v;

	switch (num_i64(tok, NUM_BASE0, INT32_MIN, INT32_MAX, &v)) {
	case NUM_OK:
		*out = (long)v;
		return 0;
	case NUM_SYNTAX:
		return 1;
	default:
		return 2;
	}
}

/* dblog.c dblog_u64, dblog_i64, dblog_int, dblog_num */
static int old_dblog_u64(const char *s, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return 1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !(!errno && !*end);
}

static int new_dblog_u64(const char *s, uint64_t *v)
{
	return num_u64(s, NUM_DIGIT_FIRST, UINT64_MAX, v) != NUM_OK;
}

static int old_dblog_i64(const char *s, int64_t *v)
{
	const char *d = *s == '-' ? s + 1 : s;
	char *end;

	if (*d < '0' || *d > '9')
		return 1;
	errno = 0;
	*v = strtoll(s, &end, 10);
	return !(!errno && !*end);
}

static int new_dblog_i64(const char *s, int64_t *v)
{
	return num_i64(s, NUM_DIGIT_FIRST, INT64_MIN, INT64_MAX, v) != NUM_OK;
}

static int old_dblog_int(const char *s, uint64_t *v)
{
	uint64_t u;

	if (old_dblog_u64(s, &u) || u > INT32_MAX)
		return 1;
	*v = u;
	return 0;
}

static int new_dblog_int(const char *s, uint64_t *v)
{
	return num_u64(s, NUM_DIGIT_FIRST, INT32_MAX, v) != NUM_OK;
}

static int old_dblog_num(const char *s, double *v)
{
	char *end;

	if (((*s < '0' || *s > '9') && *s != '.') || strpbrk(s, "xXpP"))
		return 1;
	errno = 0;
	*v = strtod_underflow_ok(s, &end);
	return !(!*end && isfinite(*v) && *v >= 0 && errno != ERANGE);
}

static int new_dblog_num(const char *s, double *v)
{
	return num_f64(s, NUM_DIGIT_FIRST | NUM_NO_MINUS, v, NULL) != NUM_OK ||
	       !(*v >= 0);
}

/* compare.c parse_double */
static int old_cmp_double(const char *s, double *v, bool percent_ok)
{
	char *end;

	errno = 0;
	*v = strtod_underflow_ok(s, &end);
	if (end == s || errno || !isfinite(*v))
		return -1;
	if (percent_ok && *end == '%') {
		*v /= 100;
		end++;
	} else if (percent_ok && *v >= 1) {
		return -1;
	}
	return *end ? -1 : 0;
}

static int new_cmp_double(const char *s, double *v, bool percent_ok)
{
	const char *end;

	if (num_f64(s, 0, v, &end))
		return -1;
	if (percent_ok && *end == '%') {
		*v /= 100;
		end++;
	} else if (percent_ok && *v >= 1) {
		return -1;
	}
	return *end ? -1 : 0;
}

/* compare.c parse_u64 */
static int old_cmp_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	if (*s == '-')
		return -1;
	*v = strtoull(s, &end, 0);
	return end == s || *end || errno ? -1 : 0;
}

static int new_cmp_u64(const char *s, uint64_t *v)
{
	return num_u64(s, NUM_BASE0, UINT64_MAX, v) ? -1 : 0;
}

/* report_text.c report_pcts_parse, one element: 0 ok, *rest after it */
static int old_pct(const char *p, double *v, const char **rest)
{
	char *end;

	errno = 0;
	*v = strtod_underflow_ok(p, &end);
	if (end == p || (*end && *end != ',') || errno ||
	    !(*v > 0 && *v <= 100))
		return 1;
	*rest = end;
	return 0;
}

static int new_pct(const char *p, double *v, const char **rest)
{
	const char *end;

	if (num_f64(p, 0, v, &end) || (*end && *end != ',') ||
	    !(*v > 0 && *v <= 100))
		return 1;
	*rest = end;
	return 0;
}

/* options.c -R */
static int old_rate(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod_underflow_ok(s, &end);
	return end == s || *end || errno || !isfinite(*v) || *v < 0;
}

static int new_rate(const char *s, double *v)
{
	return num_f64(s, 0, v, NULL) || *v < 0;
}

/* compare.c parse_u64 took a '-' after blanks and wrapped it: " -1" was
 * seed 18446744073709551615.  num_u64 refuses it. */
static bool cmp_u64_fixed(const char *s)
{
	while (*s == ' ' || (*s >= '\t' && *s <= '\r'))
		s++;
	return *s == '-';
}

static void same(const char *s)
{
	long lo, ln;
	uint64_t uo, un;
	int64_t io, in;
	double dold, dnew;
	const char *ro, *rn;
	int a, b;

#define SAME_INT(old, new, vo, vn)                                        \
	do {                                                              \
		vo = vn = 0;                                              \
		a = old(s, &vo);                                          \
		b = new(s, &vn);                                          \
		if (a != b || (!a && vo != vn))                           \
			fail_msg("%s('%s'): old %d %lld, new %d %lld",     \
				 #new, s, a, (long long)vo, b,             \
				 (long long)vn);                           \
	} while (0)
#define SAME_DBL(call_old, call_new)                                      \
	do {                                                              \
		dold = dnew = 0;                                          \
		a = call_old;                                             \
		b = call_new;                                             \
		if (!!a != !!b || (!a && dold != dnew))                   \
			fail_msg("%s('%s'): old %d %g, new %d %g",         \
				 #call_new, s, a, dold, b, dnew);          \
	} while (0)

	SAME_INT(old_options, new_options, lo, ln);
	SAME_INT(old_check, new_check, lo, ln);
	SAME_INT(old_loadfile, new_loadfile, lo, ln);
	SAME_INT(old_dblog_u64, new_dblog_u64, uo, un);
	SAME_INT(old_dblog_i64, new_dblog_i64, io, in);
	SAME_INT(old_dblog_int, new_dblog_int, uo, un);
	if (!cmp_u64_fixed(s))
		SAME_INT(old_cmp_u64, new_cmp_u64, uo, un);
	else
		assert_int_equal(new_cmp_u64(s, &un), -1);
	SAME_DBL(old_dblog_num(s, &dold), new_dblog_num(s, &dnew));
	SAME_DBL(old_cmp_double(s, &dold, false),
		 new_cmp_double(s, &dnew, false));
	SAME_DBL(old_cmp_double(s, &dold, true),
		 new_cmp_double(s, &dnew, true));
	SAME_DBL(old_rate(s, &dold), new_rate(s, &dnew));
	ro = rn = NULL;
	SAME_DBL(old_pct(s, &dold, &ro), new_pct(s, &dnew, &rn));
	if (!a && ro != rn)
		fail_msg("new_pct('%s'): rest at %td, old at %td", s, rn - s,
			 ro - s);
#undef SAME_INT
#undef SAME_DBL
}

static void test_callers_table(void **state)
{
	static const char *const t[] = {
		"", "0", "1", "-1", "+1", " 1", "\t1", "1 ", "01", "010", "09",
		"0x", "0x1f", "0X1F", "-0x1", "0x1p3", "1e3", "1e400",
		"1e-400", "-1e-400", "1e-320", "-1e-320", "1e-320%", "1e-320,5",
		"0x1p-1074", "0x1p-2000", "1.5", ".5", "5.", ".", "-.5", "-0",
		"-", "+",
		"5%", "5%%", "50%", "150%", "0.05", "1", "100", "100.5",
		"50,99", ",", "1,", "inf", "-inf", "nan", "infinity", "1000",
		"1001", "2147483647", "2147483648", "-2147483648",
		"-2147483649", "9223372036854775807", "9223372036854775808",
		"-9223372036854775808", "18446744073709551615",
		"18446744073709551616", "99999999999999999999999", " -1",
		"\n5", "5\n", "1x", "x1", "0b1", "1_000",
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++)
		same(t[i]);
}

static void test_callers_random(void **state)
{
	static const char alphabet[] = "0123456789-+ .xXeEpP%,inaf\t";
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	char s[12];

	(void)state;
	for (int it = 0; it < 300000; it++) {
		size_t len;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		len = x % 10;
		for (size_t k = 0; k < len; k++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			s[k] = alphabet[x % (sizeof(alphabet) - 1)];
		}
		s[len] = 0;
		same(s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_i64),
		cmocka_unit_test(test_u64),
		cmocka_unit_test(test_f64),
		cmocka_unit_test(test_callers_table),
		cmocka_unit_test(test_callers_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
