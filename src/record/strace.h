/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * strace.h - the strace front end of a recording: a log written by
 * "strace -f -tt -T -y -o LOG COMMAND" (or -p PID) read line by line into
 * the event stream of rec_ev.h, for machines without BPF.  A line that is
 * no strace output, or a call it cannot read, stops the reading with
 * LOG:LINE and why; with skip_bad it is skipped and counted instead (the
 * first one named by its line).
 */
#ifndef DBNG_REC_STRACE_H
#define DBNG_REC_STRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rec_ev.h"

typedef void (*rec_event_fn)(void *ctx, const struct rec_ev *ev);

struct rec_strace_stats {
	uint64_t lines;	     /* lines read */
	uint64_t calls;	     /* system calls understood */
	uint64_t skipped;    /* lines skipped */
	uint64_t first_skip; /* the line number of the first, 0 none */
	char why[96];	     /* and why */
	uint64_t unpaired;   /* calls unfinished at the end of the log */
	bool timestamps;     /* the log has times (-tt, -ttt or -r) */
	char first_cwd[4096]; /* the first AT_FDCWD annotation (-y) */
};

/*
 * rec_strace_read - read the log @path, handing each event to @fn.  -1
 * with "PATH: reason" in @err if it cannot be read, or holds no line of
 * strace output at all, or "PATH:LINE: reason" for its first bad line
 * unless @skip_bad; else 0 and the counts in @st.
 */
int rec_strace_read(const char *path, bool skip_bad, rec_event_fn fn,
		    void *ctx, struct rec_strace_stats *st, char *err,
		    size_t errlen);

/*
 * rec_strace_first_cwd - the first working directory a log shows (the
 * annotation of its first AT_FDCWD) into @buf; false if none.  For the
 * calls with relative paths that come before it.
 */
bool rec_strace_first_cwd(const char *path, char *buf, size_t len);

#endif
