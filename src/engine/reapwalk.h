/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * reapwalk.h - when the parent walks its children for exits that no
 * SIGCHLD named (runner_procs.c, runner_wait_events).
 *
 * A SIGCHLD names one child; one that comes while another is pending is
 * merged into it, so the children that exit in that moment are named by
 * none.  Each is a zombie by the time the pending SIGCHLD is read, so a
 * waitpid(-1) walk after that read finds them all: a child that exits
 * after the read raises a SIGCHLD of its own.  So a walk is owed only
 * once a SIGCHLD was read.  The walk costs the kernel a look at every
 * child (10000 clients: about 2 ms, under the lock that forks and exits
 * take), so it runs at most once per REAP_WALK_NS while children exit,
 * not after every SIGCHLD, and not at every tick while none exits (that
 * was a quarter of the parent's CPU at 10000 clients); a wait ends at
 * the latest REAP_WALK_NS after the last walk while one is owed.  Ten
 * thousand clients whose last SIGCHLDs merged waited for the next tick,
 * up to a second after the last had exited.  A walk every
 * REAP_SAFETY_NS whatever was read is the net under that reasoning.
 *
 * Pure functions of the times they are given: unit-tested on a fake
 * clock in tests/unit/test_reapwalk.c.
 */
#ifndef DBNG_REAPWALK_H
#define DBNG_REAPWALK_H

#include <stdbool.h>
#include <stdint.h>

#include "clock.h"

#define REAP_WALK_NS   (20 * NSEC_PER_MSEC)
#define REAP_SAFETY_NS (5 * NSEC_PER_SEC)

struct reapwalk {
	uint64_t last_ns; /* the last walk */
	bool owed;	  /* a SIGCHLD was read since */
};

/* reapwalk_sigchld - a SIGCHLD was read: others may have merged into it */
static inline void reapwalk_sigchld(struct reapwalk *w)
{
	w->owed = true;
}

/* reapwalk_until - when a wait meant to end at @until ends at the latest */
static inline uint64_t reapwalk_until(const struct reapwalk *w, uint64_t until)
{
	uint64_t due = w->last_ns + REAP_WALK_NS;

	return w->owed && due < until ? due : until;
}

/* reapwalk_due - whether to walk at @now, after a wait meant to end at
 * @until (@timed_out: it ended with no event); if so, it is noted done */
static inline bool reapwalk_due(struct reapwalk *w, uint64_t now,
				uint64_t until, bool timed_out)
{
	bool ended = timed_out || now >= until;

	if (w->owed ? !ended && now < w->last_ns + REAP_WALK_NS
		    : now < w->last_ns + REAP_SAFETY_NS)
		return false;
	w->last_ns = now;
	w->owed = false;
	return true;
}

#endif
