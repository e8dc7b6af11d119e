/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * after_run.h - the signals that stop a run, once it has ended: while its
 * report is printed and its JSON result written.
 */
#ifndef DBNG_AFTER_RUN_H
#define DBNG_AFTER_RUN_H

#include <pthread.h>
#include <stdbool.h>

#include "file_replace.h"

struct after_run {
	pthread_t tid;
	bool started;
	int sfd, efd;	 /* the stop signals; the end of the watch */
	bool quiet_pipe; /* the run already stopped: SIGPIPE is no news */
	char tmp[4200];	 /* the named temporary file, or "" */
	int sig;	 /* the first signal, once the watch ends */
};

/*
 * after_run_begin - from the end of a run (its status @st) to the end of
 * after_run_end(), a thread takes the signals that stop a run, which are
 * still blocked (cmd_run.c): the first is said on stderr and what is
 * being done is finished (the report, the JSON result @json, whole); a
 * second abandons it, as it may be stuck (a filesystem, a pipe or a
 * terminal that takes nothing): @json's temporary file is removed and
 * the program exits at once with 128 + that signal.  Best effort: with
 * no thread the signals stay held, as before.
 */
void after_run_begin(struct after_run *a, int st,
		     const struct file_pending *json);

/* after_run_end - the first signal of the watch, or 0 */
int after_run_end(struct after_run *a);

#endif
