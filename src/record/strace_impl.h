/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * strace_impl.h - the pieces of the strace front end: the text of one
 * call's arguments and result (strace_args.c) and the lines of a log
 * (strace.c).  Private to src/record.
 */
#ifndef DBNG_REC_STRACE_IMPL_H
#define DBNG_REC_STRACE_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rec_sys.h"

#define ST_MAX_ARGS 8

/* one call's text split up: its arguments (spans of the text, at the
 * top level) and what follows "=" */
struct st_call {
	char name[32];
	const char *arg[ST_MAX_ARGS];
	size_t alen[ST_MAX_ARGS];
	int nargs;
	const char *ret; /* the text after "= ", NULL: none */
};

/* st_split - split "NAME(ARGS) = RET ..." into @c.  0, or -1 with what
 * is wrong in @why. */
int st_split(const char *text, struct st_call *c, const char **why);

/* st_fill - the arguments and the result of @c into @raw, decoded for
 * @raw->sys's form, strings and annotations copied into @buf (@len
 * bytes, used from *@used).  0, or -1 with @why. */
int st_fill(const struct st_call *c, struct rec_raw *raw, char *buf,
	    size_t len, size_t *used, const char **why);

/* st_ret - the result of @c: its value (-errno on a failure); false if
 * there is none ("= ?") or it cannot be read */
bool st_ret(const struct st_call *c, int64_t *ret);

/* st_unescape - the C-escaped text of @s (@n bytes) into @buf (@len
 * bytes, used from *@used); NULL if it does not fit */
char *st_unescape(const char *s, size_t n, char *buf, size_t len,
		  size_t *used);

/* st_annot_end - the '>' that ends the -y annotation at @s ('<') */
const char *st_annot_end(const char *s);

/* st_has - does the text of @c's arguments contain @word? */
bool st_has(const struct st_call *c, const char *word);

#endif
