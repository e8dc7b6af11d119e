/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lf_expr.c - dbench 5's offset expressions (a '*' then "/0x1000",
 * "%5000000" and "+25"; or "+32768"): parsed once with the loadfile, evaluated
 * by a backend with a random value it draws from the client's generator.  Pure.
 */
#include <stdio.h>
#include <string.h>

#include "loadfile.h"
#include "num.h"

/* The number that starts at @s (hex digits and x, as dbench reads it)
 * into *@v; the characters it took, or 0 if it is not a number. */
static size_t qual_num(const char *s, uint64_t *v)
{
	char buf[32];
	size_t n = strspn(s, "0123456789abcdefABCDEFxX");

	if (!n || n >= sizeof(buf))
		return 0;
	memcpy(buf, s, n);
	buf[n] = 0;
	if (num_u64(buf, NUM_BASE0 | NUM_DIGIT_FIRST, UINT64_MAX, v) != NUM_OK)
		return 0;
	return n;
}

int lf_expr_parse(const char *tok, struct lf_expr *x, char *why, size_t len)
{
	const char *s = tok + 1;
	size_t n;

	memset(x, 0, sizeof(*x));
	if (tok[0] == '+') {
		x->kind = LF_X_REL;
		x->nq = 1;
		x->qop[0] = '+';
		n = qual_num(s, &x->qv[0]);
		if (!n || s[n]) {
			snprintf(why, len,
				 "'+' must be followed by a number alone");
			return -1;
		}
		return 0;
	}
	if (tok[0] != '*')
		return 1;
	x->kind = LF_X_RANDOM;
	while (*s) {
		char q = *s++;

		if (!strchr("/%+", q)) {
			snprintf(why, len,
				 "unknown qualifier '%c' (expected /, %% or +)",
				 q);
			return -1;
		}
		if (x->nq == LF_EXPR_MAXQ) {
			snprintf(why, len, "more than %d qualifiers",
				 LF_EXPR_MAXQ);
			return -1;
		}
		n = qual_num(s, &x->qv[x->nq]);
		if (!n) {
			snprintf(why, len, "'%c' must be followed by a number",
				 q);
			return -1;
		}
		if (q != '+' && !x->qv[x->nq]) {
			snprintf(why, len, "'%c0' divides by zero", q);
			return -1;
		}
		x->qop[x->nq++] = q;
		s += n;
	}
	return 0;
}

uint64_t lf_expr_eval(const struct lf_expr *x, uint64_t rnd, uint64_t prev)
{
	uint64_t v = x->kind == LF_X_REL ? prev : rnd;

	for (int i = 0; i < x->nq; i++) {
		uint64_t q = x->qv[i];

		switch (x->qop[i]) {
		case '/':
			v = v / q * q;
			break;
		case '%':
			v %= q;
			break;
		default:
			v += q;
			break;
		}
	}
	return v & LF_MAX_OFF;
}
