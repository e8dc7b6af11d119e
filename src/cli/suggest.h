/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * suggest.h - what a mistyped command or option was probably meant to
 * be: the closest name of a list, by edit distance.
 */
#ifndef DBNG_SUGGEST_H
#define DBNG_SUGGEST_H

#include <getopt.h>
#include <stddef.h>

/*
 * edit_distance - the optimal string alignment distance of @a and @b:
 * insertions, deletions, substitutions and transpositions of adjacent
 * characters, each 1 (words past 63 characters count as far apart).
 */
size_t edit_distance(const char *a, const char *b);

/*
 * suggest - the name of @names (@n of them) closest to @word, if close
 * enough to be a typo of it: at most 2 edits, and fewer than half of
 * @word's characters; NULL if none is, or two are equally close.
 */
const char *suggest(const char *word, const char *const *names, size_t n);

/*
 * suggest_option - for @arg, a long option no command takes ("--basline"
 * or "--basline=FILE"), the name of @opts (a getopt_long table, ended by
 * a NULL name) it is close to, without the dashes; NULL if none is.
 */
const char *suggest_option(const char *arg, const struct option *opts);

/*
 * unknown_option - say on stderr that @prog ("dbench-ng compare") takes
 * no option @arg: with the one of @opts it is close to ("unknown option
 * '--basline'; did you mean '--baseline'?"), else pointing at @help
 * ("dbench-ng compare --help").  Returns 2, the exit status of misuse.
 */
int unknown_option(const char *prog, const char *arg,
		   const struct option *opts, const char *help);

/* unknown_option_why - the same message, without "@prog: ", in @buf */
void unknown_option_why(char *buf, size_t len, const char *arg,
			const struct option *opts, const char *help);

#endif
