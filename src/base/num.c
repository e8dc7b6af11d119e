/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * num.c - the one number parser (num.h): strtoll, strtoull and strtod with
 * the checks every caller made on its own (nothing parsed, text after the
 * number, errno, range, finiteness) and the flags of their differences.
 */
#include "num.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_blank(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* has_minus - whether @s, after the blanks strto* skips, starts with '-' */
static bool has_minus(const char *s)
{
	while (is_blank(*s))
		s++;
	return *s == '-';
}

/* digit_first - the text starts as NUM_DIGIT_FIRST demands: a digit,
 * after an optional '-'; with @real also a '.', but not "0x" (hex) */
static bool digit_first(const char *s, bool real)
{
	if (*s == '-')
		s++;
	if (real && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return false;
	return is_digit(*s) || (real && *s == '.');
}

enum num_err num_i64(const char *s, unsigned int flags, int64_t min,
		     int64_t max, int64_t *out)
{
	char *end;
	long long v;

	if ((flags & NUM_DIGIT_FIRST) && !digit_first(s, false))
		return NUM_SYNTAX;
	if ((flags & NUM_NO_MINUS) && has_minus(s))
		return NUM_SYNTAX;
	errno = 0;
	v = strtoll(s, &end, flags & NUM_BASE0 ? 0 : 10);
	if (end == s || *end)
		return NUM_SYNTAX;
	if (errno || v < min || v > max)
		return NUM_RANGE;
	*out = v;
	return NUM_OK;
}

enum num_err num_u64(const char *s, unsigned int flags, uint64_t max,
		     uint64_t *out)
{
	char *end;
	unsigned long long v;

	if ((flags & NUM_DIGIT_FIRST) && !digit_first(s, false))
		return NUM_SYNTAX;
	if (has_minus(s))
		return NUM_SYNTAX;
	errno = 0;
	v = strtoull(s, &end, flags & NUM_BASE0 ? 0 : 10);
	if (end == s || *end)
		return NUM_SYNTAX;
	if (errno || v > max)
		return NUM_RANGE;
	*out = v;
	return NUM_OK;
}

enum num_err num_f64(const char *s, unsigned int flags, double *out,
		     const char **end)
{
	char *e;
	double v;

	if (end)
		*end = s;
	if ((flags & NUM_DIGIT_FIRST) && !digit_first(s, true))
		return NUM_SYNTAX;
	if ((flags & NUM_NO_MINUS) && has_minus(s))
		return NUM_SYNTAX;
	errno = 0;
	v = strtod(s, &e);
	if (e == s || (!end && *e))
		return NUM_SYNTAX;
	if (end)
		*end = e;
	/* strtod's ERANGE is an overflow (+-HUGE_VAL, inf here) or an
	 * underflow: a denormal or 0 of the right sign, which is the value
	 * ("1e-320" is a tiny positive number, not an error) */
	if (!isfinite(v) || (errno == ERANGE && fabs(v) > DBL_MIN))
		return NUM_RANGE;
	if ((flags & NUM_NORMAL) &&
	    (errno == ERANGE || (v == 0 && signbit(v)) ||
	     (v != 0 && !isnormal(v))))
		return NUM_RANGE;
	*out = v;
	return NUM_OK;
}
