/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * stopsig.h - the signals that stop a run (design.md §4).
 *
 * SIGTERM always; SIGINT and SIGHUP unless the run was started with them
 * ignored (a background job of a non-interactive shell has SIGINT and
 * SIGQUIT ignored, nohup ignores SIGHUP: such a run keeps ignoring them,
 * as make and the shells do); SIGPIPE, so that a closed stdout stops the
 * run like an interrupt instead of killing it silently.  The parent blocks
 * them once the set-up can no longer block (run_start()) and takes them
 * from a signalfd (runner.c).
 */
#ifndef DBNG_STOPSIG_H
#define DBNG_STOPSIG_H

#include <signal.h>
#include <stdbool.h>

/* stopsig_inherited_ign - was @sig ignored when the program started?
 * (Asks the current disposition: the parent never installs a handler.) */
bool stopsig_inherited_ign(int sig);

/* stopsig_set - fill @set with the signals that stop a run. */
void stopsig_set(sigset_t *set);

/* stopsig_block - block them in the calling thread. */
void stopsig_block(void);

#endif
