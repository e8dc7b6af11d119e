/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * stopsig.c - the signals that stop a run; see stopsig.h.
 */
#include "stopsig.h"

#include <stddef.h>

bool stopsig_inherited_ign(int sig)
{
	struct sigaction sa;

	return !sigaction(sig, NULL, &sa) && sa.sa_handler == SIG_IGN;
}

void stopsig_set(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGPIPE);
	/* a blocked signal is never discarded as ignored: one inherited
	 * ignored is left out, or the signalfd would take it */
	if (!stopsig_inherited_ign(SIGINT))
		sigaddset(set, SIGINT);
	if (!stopsig_inherited_ign(SIGHUP))
		sigaddset(set, SIGHUP);
}

void stopsig_block(void)
{
	sigset_t set;

	stopsig_set(&set);
	sigprocmask(SIG_BLOCK, &set, NULL);
}
