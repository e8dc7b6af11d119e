/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * config.h - the settings of a run, as parsed from its command line
 * (cli/options.c) and as recorded in its result (result.h).
 */
#ifndef DBNG_CONFIG_H
#define DBNG_CONFIG_H

#include <stdbool.h>
#include <stdio.h>

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

#endif
