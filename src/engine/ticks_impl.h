/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ticks_impl.h - what ticks.c and ticks_agree.c share; not an API.
 */
#ifndef DBNG_TICKS_IMPL_H
#define DBNG_TICKS_IMPL_H

#include <stdint.h>

#include "coord.h"
#include "ticks.h"

/* How long after the end of the run the last client left its loop (0:
 * before), and the longest line that ran on past the end. */
void ticks_over_figs(const struct ticks *t, uint64_t *over_ns,
		     uint64_t *over_lat);

/* What this host has to say at @now, for the hosts to agree on. */
void ticks_ctl_take(const struct ticks *t, uint64_t now, struct coord_ctl *c);

/* The other hosts are lost: the run's figures end at its last point. */
void ticks_lose(struct ticks *t);

/* Agree on @c with the other hosts (one host: it is all there is); a stop
 * of another host stops this one's clients.  -1: lost. */
int ticks_agree_ctl(struct ticks *t, struct coord_ctl *c);

#endif
