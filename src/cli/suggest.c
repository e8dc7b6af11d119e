/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * suggest.c - the closest name of a list to a mistyped command or option
 * (suggest.h): "unknown command 'chek'; did you mean 'check'?".
 */
#include "suggest.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define WORD_MAX 64

size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t d[WORD_MAX + 1][WORD_MAX + 1];

	if (la > WORD_MAX || lb > WORD_MAX)
		return (size_t)-1;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

const char *suggest(const char *word, const char *const *names, size_t n)
{
	size_t len = strlen(word), best = (size_t)-1;
	const char *pick = NULL;
	bool tie = false;

	for (size_t i = 0; i < n; i++) {
		size_t d = edit_distance(word, names[i]);

		if (d < best) {
			best = d;
			pick = names[i];
			tie = false;
		} else if (d == best) {
			tie = true;
		}
	}
	if (!pick || tie || best == 0 || best > 2 || 2 * best >= len)
		return NULL;
	return pick;
}

const char *suggest_option(const char *arg, const struct option *opts)
{
	const char *names[128];
	char word[WORD_MAX + 1];
	size_t n = 0, len;

	if (strncmp(arg, "--", 2))
		return NULL;
	arg += 2;
	len = strcspn(arg, "=");
	if (len > WORD_MAX)
		return NULL;
	memcpy(word, arg, len);
	word[len] = '\0';
	for (; opts->name && n < sizeof(names) / sizeof(names[0]); opts++)
		names[n++] = opts->name;
	return suggest(word, names, n);
}

void unknown_option_why(char *buf, size_t len, const char *arg,
			const struct option *opts, const char *help)
{
	const char *near = suggest_option(arg, opts);

	if (near)
		snprintf(buf, len, "unknown option '%s'; did you mean '--%s'?",
			 arg, near);
	else
		snprintf(buf, len, "unknown option '%s' (see %s)", arg, help);
}

int unknown_option(const char *prog, const char *arg, const struct option *opts,
		   const char *help)
{
	char why[256];

	unknown_option_why(why, sizeof(why), arg, opts, help);
	fprintf(stderr, "%s: %s\n", prog, why);
	return 2;
}
