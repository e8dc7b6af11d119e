/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * probe_synth.h - what the probes that make synthetic results share
 * (htmlprobe.c, multiprobe.c): a deterministic random source, latencies
 * with a heavy-ish tail, a strdup that cannot fail.
 */
#ifndef DBNG_TESTS_PROBE_SYNTH_H
#define DBNG_TESTS_PROBE_SYNTH_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 88172645463325252ULL;

/* xorshift64: deterministic, so two runs give the same page */
static inline double uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0;
}

/* a heavy-ish tail around @base ns */
static inline uint64_t sample(uint64_t base)
{
	double u = uniform();

	return (uint64_t)((double)base * (0.5 + u * u * u * u * 6 +
					  (u > 0.999 ? 40 * uniform() : 0)));
}

static inline char *dup(const char *s)
{
	char *d = strdup(s);

	if (!d) {
		perror("strdup");
		exit(2);
	}
	return d;
}

#endif
