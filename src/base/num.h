/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * num.h - parse one number from a string, whole or with a suffix left to
 * the caller: the strtoll/strtoull/strtod checks once, for every parser
 * of the project.  Each caller keeps its own error message.
 */
#ifndef DBNG_NUM_H
#define DBNG_NUM_H

#include <stdint.h>

enum num_err {
	NUM_OK,		/* parsed, in range, *out set */
	NUM_SYNTAX,	/* not a number, or text after it */
	NUM_RANGE,	/* a number, but out of range (or not finite) */
};

/* base 0: "0x1f" hex and "017" octal, as strtoll(s, &end, 0) (loadfiles,
 * compare --bootstrap and --seed); otherwise base 10 */
#define NUM_BASE0       (1u << 0)
/* no leading blank or '+': the text starts with a digit, a '-' and a digit,
 * or for num_f64 a '.'; num_f64 then takes no hex, inf or nan (dbench
 * logs).  Without it, leading blanks and a '+' are taken, as by strtol. */
#define NUM_DIGIT_FIRST (1u << 1)
/* refuse a '-' sign (NUM_SYNTAX); num_u64 always does */
#define NUM_NO_MINUS    (1u << 2)
/* num_f64: an ordinary value only, 0 or a normal number: a denormal
 * ("1e-320"), an underflow to 0 ("1e-400") and a negative zero ("-0")
 * are NUM_RANGE, as inf, nan and overflow always are (the options) */
#define NUM_NORMAL      (1u << 3)

/* num_i64 - @s, all of it, as an integer in @min..@max into *@out.
 * NUM_SYNTAX before NUM_RANGE: "12x" is SYNTAX even when 12 is too big. */
enum num_err num_i64(const char *s, unsigned int flags, int64_t min,
		     int64_t max, int64_t *out);

/* num_u64 - @s, all of it, as an unsigned integer up to @max into *@out.
 * A '-' sign is NUM_SYNTAX (strtoull would wrap "-1" to UINT64_MAX). */
enum num_err num_u64(const char *s, unsigned int flags, uint64_t max,
		     uint64_t *out);

/* num_f64 - @s as a finite double into *@out.  With @end NULL all of @s
 * must be the number; otherwise *@end is set to the first character after
 * it (a suffix such as "5%" or a comma list is the caller's).  Overflow,
 * inf and nan are NUM_RANGE; an underflow is not an error: "1e-320" is
 * the denormal strtod returns, "1e-400" is 0 (-0 with a '-'), unless
 * NUM_NORMAL refuses them. */
enum num_err num_f64(const char *s, unsigned int flags, double *out,
		     const char **end);

#endif
