/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * record.h - "dbench-ng record": trace the file-system calls of a
 * process tree (a command it starts, or running processes) with BPF, or
 * read them from a log of strace, and write them as a NetBench loadfile
 * that dbench-ng replays with N clients (docs/record.md).
 */
#ifndef DBNG_RECORD_H
#define DBNG_RECORD_H

#include <stdbool.h>

struct record_opts {
	const char *out;    /* -o FILE, "-": stdout */
	const char *setup;  /* --setup FILE: the set-up apart, or NULL */
	const char *root;   /* --root DIR (NULL: the working directory) */
	bool anonymize;	    /* --anonymize */
	bool no_timestamps; /* --no-timestamps */
	const char *strace; /* --from-strace LOG */
	const char *cwd;    /* --cwd DIR: where the strace log began */
	bool skip_bad;	    /* --skip-bad: skip the log's bad lines */
	const int *pids;    /* -p PID... */
	int npids;
	char *const *cmd;	/* -- COMMAND... */
	unsigned int ring_mib; /* --buffer MiB */
};

/* record_main - "dbench-ng record ...": the command line (record_cli.c);
 * the exit status of record_run(), or 2 for a usage error */
int record_main(int argc, char **argv);

/*
 * record_run - record as @o says.  Returns the exit status: 0 a complete
 * recording written; 1 written but incomplete (events lost, the command
 * failed, nothing under --root); 2 bad input (an unreadable log, a bad
 * --root or PID); 3 no tracing possible here (BPF unavailable: the
 * message names --from-strace).
 */
int record_run(const struct record_opts *o);

#endif
