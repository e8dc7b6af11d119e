/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * check_busy.h - check on a busy machine (docs/regressions.md, "A busy
 * machine"): runs that carry own latencies are judged on them however
 * busy the machine was; without them a busy baseline is refused and a
 * busy candidate run made again, unless --busy-ok.
 */
#ifndef DBNG_CHECK_BUSY_H
#define DBNG_CHECK_BUSY_H

#include <stdbool.h>
#include <stddef.h>

struct result;

/* The state of one check: its option and how the runs so far went. */
struct check_busy {
	bool ok;       /* --busy-ok: decide on raw figures all the same */
	bool base_own; /* every baseline run carries own latencies */
	int tries;     /* busy tries of the run in hand */
};

/* How many tries a busy run gets before check answers 125. */
#define CHECK_BUSY_TRIES 3

/*
 * check_busy_baseline - whether the baselines @base (named @names) may
 * be used: a baseline recorded on a busy machine only with own
 * latencies (or --busy-ok).  0, or -1 with the message, naming the way
 * out, in @err.
 */
int check_busy_baseline(struct check_busy *b, struct result *const *base,
			const char *const *names, int nb, char *err,
			size_t len);

enum check_busy_step {
	CHECK_BUSY_USE,	    /* judge the run */
	CHECK_BUSY_AGAIN,   /* make the same run again */
	CHECK_BUSY_GIVE_UP, /* busy in every try: 125, @why says so */
};

/*
 * check_busy_run - what to do with candidate run @run (@res): a busy run
 * is judged on its own latencies when it and the baseline carry them,
 * else made again up to CHECK_BUSY_TRIES tries (a line on stderr each).
 */
enum check_busy_step check_busy_run(struct check_busy *b,
				    const struct result *res, int run,
				    char *why, size_t len);

#endif
