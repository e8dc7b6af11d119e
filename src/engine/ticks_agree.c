/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ticks_agree.c - what this host says at a tick, and the agreement on
 * it: the stop, the phase deadlines passed, the clients' lines, bytes and
 * how far past the end they ran (docs/mpi.md); with one host the
 * agreement is its own word.  A host that loses the others ends its
 * figures at its last point.
 */
#include <stdint.h>

#include "config.h"
#include "deadline.h"
#include "shm.h"
#include "ticks.h"
#include "ticks_impl.h"

static const struct client_slot *slot(const struct ticks *t, int id)
{
	return &t->shm->slot[id];
}

/* How long after the end of the run the last client left its loop (0:
 * before), and the longest line that ran on past the end (overrun() in
 * ticks.c). */
void ticks_over_figs(const struct ticks *t, uint64_t *over_ns,
		     uint64_t *over_lat)
{
	const struct shm_hdr *hdr = &t->shm->hdr;
	uint64_t end = 0, lat = 0;

	for (int i = 0; i < t->cfg->nclients; i++) {
		const struct client_slot *s = slot(t, i);
		uint64_t e = s->exec_end_ns;

		if (e > end)
			end = e;
		/* how long its last line ran, if it ran past the end */
		if (e > hdr->end_ns && s->last_start_ns &&
		    s->last_start_ns <= hdr->end_ns &&
		    e - s->last_start_ns > lat)
			lat = e - s->last_start_ns;
	}
	*over_ns = end > hdr->end_ns ? end - hdr->end_ns : 0;
	*over_lat = lat;
}

/* What this host has to say at @now, for the hosts to agree on. */
void ticks_ctl_take(const struct ticks *t, uint64_t now, struct coord_ctl *c)
{
	const struct shm_hdr *hdr = &t->shm->hdr;

	coord_ctl_init(c);
	c->stop = hdr->stop;
	if (c->stop == STOP_FAILED || c->stop == STOP_SIGNAL)
		c->stop_rank = t->coord ? (uint64_t)t->coord->rank : 0;
	if (c->stop == STOP_SIGNAL)
		c->stop_signal = hdr->stop_signal;
	c->warm_past = t->phase == TICKS_WARMUP &&
		       deadline_past(now, hdr->warmup_end_ns);
	c->end_past =
		t->phase == TICKS_EXECUTE && deadline_past(now, hdr->end_ns);
	c->early = now - t->phase_start < NSEC_PER_SEC;
	c->alive = t->alive;
	c->now_ns = now - hdr->start_ns;
	for (int i = 0; i < t->cfg->nclients; i++) {
		const struct client_slot *s = slot(t, i);

		c->not_done += !s->cleaned;
		c->lines += s->lines;
		if (s->gen == hdr->gen)
			c->bytes += s->bytes;
	}
	ticks_over_figs(t, &c->over_ns, &c->over_lat);
}

/* The other hosts are lost: the run's figures end at its last point,
 * which holds what every host did up to then. */
void ticks_lose(struct ticks *t)
{
	t->lost = true;
	if (!t->cleanup || t->end_ns > t->run_point_ns) {
		t->cleanup = true;
		t->end_ns = t->run_point_ns;
	}
	if (t->over_end_ns > t->run_point_ns)
		t->over_end_ns = 0;
}

/* Agree on @c with the other hosts (one host: it is all there is); a stop
 * of another host stops this one's clients.  -1: lost. */
int ticks_agree_ctl(struct ticks *t, struct coord_ctl *c)
{
	if (t->coord) {
		if (coord_agree(t->coord, c)) {
			ticks_lose(t);
			return -1;
		}
		if (c->stop == STOP_FAILED || c->stop == STOP_SIGNAL)
			shm_set_stop(t->shm, (enum stop_reason)c->stop);
	}
	t->ctl = *c;
	t->alive = c->alive;
	return 0;
}

int ticks_agree(struct ticks *t, uint64_t now)
{
	struct coord_ctl c;

	if (t->lost)
		return -1;
	ticks_ctl_take(t, now, &c);
	return ticks_agree_ctl(t, &c);
}
