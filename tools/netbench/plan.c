/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * plan.c - gen_netbench's random source (splitmix64, the same on every
 * platform), the lines it writes and counts, and the plan they follow:
 * dbench 4.0's client.txt op counts, and how far each op is behind the
 * share it should have by now (netbench.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "netbench.h"

const struct opdef opdef[NR_OPS] = {
	{ "ReadX", 124199 }, { "NTCreateX", 79230 },
	{ "QUERY_PATH_INFORMATION", 71814 }, { "Close", 58200 },
	{ "WriteX", 39502 }, { "FIND_FIRST", 27765 }, { "Unlink", 16000 },
	{ "QUERY_FS_INFORMATION", 13168 },
	{ "QUERY_FILE_INFORMATION", 12585 },
	{ "SET_FILE_INFORMATION", 6454 }, { "Flush", 5553 },
	{ "Rename", 3355 }, { "LockX", 258 }, { "UnlockX", 258 },
	{ "Deltree", 0 }, { "Mkdir", 0 }, { "Rmdir", 0 }, { "Sleep", 0 },
};

long count[NR_OPS], base_count[NR_OPS], base_lines, nlines;
static uint64_t rng_state = 0x6e657462656e6368ULL;	/* "netbench" */

void die(const char *msg)
{
	fprintf(stderr, "gen_netbench: internal error: %s\n", msg);
	exit(2);
}

/* splitmix64: tiny and the same on every platform */
long rnd(long n)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (long)((z ^ (z >> 31)) % (uint64_t)n);
}

long rnd_range(long lo, long hi)
{
	return lo + rnd(hi - lo + 1);
}

bool chance(int pct)
{
	return rnd(100) < pct;
}

void emit(enum op op, const char *fmt, ...)
{
	va_list ap;

	printf("%s ", opdef[op].name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	count[op]++;
	nlines++;
}

/*
 * Lines of @op missing right now, in 1/1000 lines.  The plan goes linearly
 * from the counts after the set-up (base) to the reference share at
 * TARGET_LINES, so the set-up phase (no reads, no unlinks) causes no
 * transient.  Integer arithmetic: the same output on every platform.
 */
int64_t deficit(enum op op)
{
	int64_t d = TARGET_LINES - base_lines, want;

	if (nlines < TARGET_LINES)
		want = (int64_t)base_count[op] * REF_TOTAL * d +
			(opdef[op].ref * TARGET_LINES -
			 (int64_t)base_count[op] * REF_TOTAL) *
			(nlines - base_lines);
	else
		want = opdef[op].ref * nlines * d;
	return want * 1000 / (REF_TOTAL * d) - count[op] * 1000;
}

/* Is @fails below the share @ref_fails/@ref of @total? */
bool fails_below(long fails, int64_t ref_fails, enum op op)
{
	return fails * opdef[op].ref < ref_fails * count[op];
}
