/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * options.h - the command line of "dbench-ng [OPTIONS] NPROCS": every
 * dbench 4.0 option that applies to a local filesystem plus the later ones
 * people use, parsed into a struct config and validated.
 */
#ifndef DBNG_OPTIONS_H
#define DBNG_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define OPT_MAX_PROCS 100000
#define OPT_BUILTIN   "builtin:netbench"

struct config {
	int nprocs;	      /* NPROCS: forked processes */
	int cpp;	      /* --clients-per-process */
	int nclients;	      /* nprocs * cpp */
	int timelimit;	      /* -t seconds of the execute phase */
	int warmup;	      /* --warmup seconds; default timelimit / 5 */
	const char *loadfile; /* -c as given (may be a comma list) */
	const char *dir;      /* -D */
	const char *backend;  /* -B */
	double target_rate;   /* -R MB/s per client, 0 = off */
	bool sync_open;	      /* -s */
	bool sync_dirs;	      /* -S */
	bool fsync_writes;    /* -F */
	bool xattr;	      /* -x */
	bool no_resolve;      /* --no-resolve */
	bool one_byte_fix;    /* --one-byte-write-fix */
	bool stat_check;      /* --stat-check */
	bool fake_io;	      /* --fake-io */
	bool skip_cleanup;    /* --skip-cleanup */
	bool per_client;      /* --per-client-results */
	bool run_once;	      /* --run-once */
	bool machine;	      /* --machine-readable */
	bool show_exec_time;  /* --show-execute-time */
	bool no_percentiles;  /* --no-percentiles */
	const char *json;     /* --json FILE ("-": stdout), or NULL */
	int stall_ms;	      /* --stall-threshold, 0 = no watchdog */
	int runs;	      /* --runs: repeat the whole benchmark */
	FILE *out;	      /* not an option: overrides opt_out() */
};

/* opt_out - where the human-readable output goes: stdout, or stderr when
 * the JSON result is written to stdout. */
FILE *opt_out(const struct config *cfg);

enum opt_result {
	OPT_RUN,     /* run the benchmark */
	OPT_EXIT_OK, /* --help or --version was printed */
	OPT_ERROR,   /* a message was printed to stderr; exit 2 */
};

/* opt_parse - fill @cfg from @argv.  Messages go to stderr (errors) or
 * stdout (--help, --version). */
enum opt_result opt_parse(int argc, char **argv, struct config *cfg);

/* opt_usage - print the option summary. */
void opt_usage(FILE *f);

#endif
