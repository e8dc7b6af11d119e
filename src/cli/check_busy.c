/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * check_busy.c - what check does with runs made on a busy machine
 * (check_busy.h).
 */
#include "check_busy.h"

#include <stdio.h>

#include "compare.h"
#include "result.h"

static double stolen(const struct result_disturb *d)
{
	return d->steal_pct > 0 ? d->steal_pct : 0.0;
}

int check_busy_baseline(struct check_busy *b, struct result *const *base,
			const char *const *names, int nb, char *err, size_t len)
{
	b->base_own = nb > 0;
	for (int i = 0; i < nb; i++)
		b->base_own = b->base_own && cmp_run_has_own(base[i]);
	for (int i = 0; i < nb; i++) {
		const struct result_disturb *d = &base[i]->disturb;

		/* the same on every commit: every verdict would be doubtful */
		if (b->ok || !result_disturbed(d) || cmp_run_has_own(base[i]))
			continue;
		snprintf(err, len,
			 "%s: recorded on a busy machine (other processes used "
			 "%.2f CPUs, %.1f %% stolen; bound %.1f CPUs, %.0f %%) "
			 "without own latencies (they need BPF, as root): "
			 "record it again as root or on a quiet machine, or "
			 "give --busy-ok to decide on its raw figures",
			 names[i], d->other_cpus, stolen(d), DISTURB_OTHER_CPUS,
			 DISTURB_STEAL_PCT);
		return -1;
	}
	return 0;
}

enum check_busy_step check_busy_run(struct check_busy *b,
				    const struct result *res, int run,
				    char *why, size_t len)
{
	const struct result_disturb *d = &res->disturb;
	bool last;

	if (b->ok || !result_disturbed(d) ||
	    (b->base_own && cmp_run_has_own(res))) {
		b->tries = 0;
		return CHECK_BUSY_USE;
	}
	last = ++b->tries >= CHECK_BUSY_TRIES;
	fprintf(stderr,
		"check: run %d: the machine was busy (other processes used "
		"%.2f CPUs, %.1f %% stolen) and %s no own latencies: %s\n",
		run, d->other_cpus, stolen(d),
		cmp_run_has_own(res) ? "the baseline has" : "the run has",
		last ? "giving up" : "made again");
	if (!last)
		return CHECK_BUSY_AGAIN;
	snprintf(why, len,
		 "machine too busy to decide (run %d: other processes used "
		 "%.2f CPUs, %.1f %% stolen, in each of %d tries; bound %.1f "
		 "CPUs, %.0f %%): run as root for own latencies (with a "
		 "baseline that has them too), or give --busy-ok to decide "
		 "on raw figures",
		 run, d->other_cpus, stolen(d), b->tries, DISTURB_OTHER_CPUS,
		 DISTURB_STEAL_PCT);
	b->tries = 0;
	return CHECK_BUSY_GIVE_UP;
}
