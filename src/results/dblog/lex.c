/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lex.c - the lexing of dbench log lines: messages naming the line,
 * the numbers of a log (digit first, finite), ms to ns, tokens.
 */
#include "dblog_impl.h"

#include "num.h"

/* "PREFIX" then the message into c->err; always -1 */
static int __attribute__((format(printf, 3, 0)))
vfail(struct dblog_ctx *c, bool at_line, const char *fmt,
      va_list ap)
{
	int n;

	if (!c->err || !c->errlen)
		return -1;
	n = at_line ? snprintf(c->err, c->errlen, "%s:%lu: ", c->name, c->lineno)
		    : snprintf(c->err, c->errlen, "%s: ", c->name);
	if (n < 0 || (size_t)n >= c->errlen)
		return -1;
	vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
	return -1;
}

int dblog_fail_at(struct dblog_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(c, true, fmt, ap);
	va_end(ap);
	return -1;
}

int dblog_fail_file(struct dblog_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(c, false, fmt, ap);
	va_end(ap);
	return -1;
}

bool dblog_starts(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && !memcmp(s, prefix, k);
}

/* The numbers of a log start with a digit (NUM_DIGIT_FIRST: no blank,
 * no '+'), as dbench prints them. */

/* dblog_u64 - all digits, no sign, no overflow */
bool dblog_u64(const char *s, uint64_t *v)
{
	return num_u64(s, NUM_DIGIT_FIRST, UINT64_MAX, v) == NUM_OK;
}

/* dblog_i64 - the same with an optional '-' */
bool dblog_i64(const char *s, int64_t *v)
{
	return num_i64(s, NUM_DIGIT_FIRST, INT64_MIN, INT64_MAX, v) == NUM_OK;
}

/* dblog_int - a non-negative int */
bool dblog_int(const char *s, int *v)
{
	uint64_t u;

	if (num_u64(s, NUM_DIGIT_FIRST, INT32_MAX, &u) != NUM_OK)
		return false;
	*v = (int)u;
	return true;
}

/* dblog_num - a finite non-negative decimal number (no hex, inf, nan) */
bool dblog_num(const char *s, double *v)
{
	return num_f64(s, NUM_DIGIT_FIRST | NUM_NO_MINUS, v, NULL) == NUM_OK &&
	       *v >= 0;
}

/* dblog_ns - @ms milliseconds times @n in ns, if it fits */
bool dblog_ns(double ms, uint64_t n, uint64_t *ns)
{
	double x = ms * 1e6 * (double)n;

	if (!(x >= 0 && x < DBLOG_MAX_VAL))
		return false;
	*ns = (uint64_t)llround(x);
	return true;
}

/* dblog_split - split @s in place at @sep (whitespace if 0) into at most
 * @max tokens; returns the count, or max + 1 when there are more.  With a
 * separator, empty fields count. */
int dblog_split(char *s, char sep, char **tok, int max)
{
	int n = 0;

	if (sep) {
		for (;;) {
			char *e = strchr(s, sep);

			if (n == max)
				return max + 1;
			tok[n++] = s;
			if (!e)
				return n;
			*e = '\0';
			s = e + 1;
		}
	}
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			return n;
		if (n == max)
			return max + 1;
		tok[n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = '\0';
	}
}
