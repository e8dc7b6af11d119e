/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * result.h - what a run produced: the input of every report, and what the
 * JSON result file holds.  Built from the client slots at the end of a
 * live run (runner.c), read back from a JSON file (result.c) or from a
 * dbench 4.0 text log (dblog.c).  Reports read it; they never measure.
 * Every string is owned by the result and freed by result_free().
 */
#ifndef DBNG_RESULT_H
#define DBNG_RESULT_H

#include <stdbool.h>
#include <stdint.h>

#include "histogram.h"
#include "ops.h"
#include "options.h"

#define RESULT_FORMAT_VERSION 1
#define RESULT_MAX_MSGS 8

enum result_status {
	RESULT_OK,
	RESULT_INTERRUPTED,	/* stopped by a signal: partial results */
	RESULT_FAILED,		/* a client failed: see errors[] */
};

/* One operation over the measured phase, all clients merged. */
struct result_op {
	struct hist h;		/* count, sum, min, max exact; bins */
	uint64_t errors;	/* unexpected (non-fatal) results */
	uint64_t bytes;		/* ReadX/WriteX payload */
	/* the slowest call: when, who, where (unknown: -1 / 0 / NULL) */
	double max_at_s;	/* start, seconds after the release */
	int max_client;
	uint32_t max_line;	/* loadfile line */
	char *max_file;		/* loadfile name */
	char *max_path;		/* real path(s) it worked on */
};

/* One client, for --per-client-results. */
struct result_client {
	uint64_t lines;		/* loadfile lines done, whole run */
	uint64_t bytes;		/* measured part */
	uint64_t count[OP_NR];
	uint64_t sum_ns[OP_NR];
	uint64_t max_ns[OP_NR];
};

/* One interval of the time series. */
struct result_point {
	double t;		/* end of the interval, s after the release */
	double dur;		/* its length, s */
	bool warmup;		/* inside the warmup */
	uint64_t lines;		/* loadfile lines done in it, all clients */
	uint64_t bytes;		/* bytes read and written in it */
	double latency_ms;	/* dbench's per-second latency figure */
	uint64_t count[OP_NR];
	uint64_t max_ns[OP_NR];
	uint64_t p99_ns[OP_NR];
};

/* Where the run happened (all strings may be NULL when unknown). */
struct result_env {
	char *hostname;
	char *kernel;		/* uname -r */
	char *kernel_version;	/* uname -v */
	char *machine;		/* uname -m */
	char *cpu_model;
	int cpus;		/* online */
	uint64_t mem_bytes;
	/* the -D directory */
	char *dir;		/* as given */
	char *dir_real;		/* realpath */
	char *fs_type;
	char *fs_device;
	char *fs_mount_point;
	char *fs_options;	/* mount options, per-mount and superblock */
	uint64_t fs_size_bytes;
	uint64_t fs_free_bytes;
	/* the loadfiles, in -c order */
	int nloadfiles;
	char **loadfile_name;
	char **loadfile_sha256;	/* hex */
};

struct result {
	/* what ran */
	char *tool;		/* "dbench-ng", or "dbench" for a 4.0 log */
	char *version;
	char *start_time;	/* ISO 8601 UTC */
	int argc;
	char **argv;
	struct config cfg;	/* its strings point into owned[] */
	char *owned[4];
	struct result_env env;

	/* how it ended */
	enum result_status status;
	int signal;		/* RESULT_INTERRUPTED: which */
	int nerrors;
	char *errors[RESULT_MAX_MSGS];	/* fatal messages */

	/* what it measured */
	bool has_bins;		/* false: from a dbench log (count/avg/max) */
	struct result_op op[OP_NR];
	int nclients;
	struct result_client *clients;
	double throughput;	/* MB/s, dbench's definition */
	double max_latency_ms;	/* dbench's max_latency */
	double warmup_s;	/* seconds of warmup that ran */
	double measured_s;	/* seconds of the measured phase */
	uint64_t nwarn;
	int nwarn_msgs;
	char *warn_msgs[RESULT_MAX_MSGS];

	/* the time series: at most RESULT_MAX_POINTS intervals; when full,
	 * neighbours are merged and the interval doubles */
	double interval_s;
	uint32_t npoints;
	struct result_point *points;
};

#define RESULT_MAX_POINTS 4096

/* result_new - an empty result (zeroed, max_client -1); NULL on ENOMEM */
struct result *result_new(void);

/* result_free - release @r and everything it owns */
void result_free(struct result *r);

/* result_add_point - append interval @p to the series of @r, halving the
 * resolution when it is full.  0 or -1 (out of memory). */
int result_add_point(struct result *r, const struct result_point *p);

#endif
