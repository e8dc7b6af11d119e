/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * launch.h - the BPF recording of a process tree: a command started
 * here (traced from its exec on), or processes already running (and
 * their descendants), with what they had open and their working
 * directories read from /proc first; the events go to the writer until
 * the command ends, or the processes do, or a signal says stop.
 */
#ifndef DBNG_REC_LAUNCH_H
#define DBNG_REC_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#include "rec_writer.h"

struct launch {
	char *const *cmd; /* a command to start, or NULL */
	const int *pids;  /* else the processes to trace */
	int npids;
	unsigned int ring_mib;
	struct rec_writer *w;
	/* results */
	int status;	  /* the command's wait status */
	uint64_t lost;	  /* events the program could not send */
	unsigned int left; /* processes of the tree still running at the end */
	int stop_sig;	  /* the signal that ended a recording of -p */
};

/*
 * launch_record - record as @l says.  0 when the recording ran (its
 * results in @l); 2 (a PID that does not exist, a command that cannot
 * run) or 3 (BPF unavailable, no pipe or fork) with the reason in @why.
 */
int launch_record(struct launch *l, char *why, size_t len);

#endif
