/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * dblog_impl.h - private to src/results/dblog: the state of the reader of
 * a dbench log and what its files share.
 */
#ifndef DBNG_RESULTS_DBLOG_IMPL_H
#define DBNG_RESULTS_DBLOG_IMPL_H

#include "dblog.h"
#include "text_format.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define DBLOG_MAX_LINE 65536 /* longer lines are not dbench's */
#define DBLOG_MAX_TOK  16
#define DBLOG_MAX_MSG  512 /* error lines kept up to this length */
/* largest ns or byte figure accepted: below 2^63, so llround is defined */
#define DBLOG_MAX_VAL 9.2e18

enum dblog_state {
	DBLOG_TEXT, /* between sections */
	DBLOG_RULE, /* after a table header: the rule (dashes, ours '=') */
	DBLOG_ROWS, /* table rows, until a blank line */
	DBLOG_SKIP, /* a dbench-ng section we do not read, until a blank */
	DBLOG_NOT_RUN, /* dbench-ng's rows of "Not run", until a blank */
};

/* Where the rows of the table being read go. */
#define DBLOG_DISCARD (-2)
#define DBLOG_TOTAL   (-1)

/* One progress line, turned into a point at the end. */
struct dblog_prog {
	bool execute;
	int active;    /* first column */
	int64_t lines; /* loadfile lines per client, since the start */
	double mbs;    /* MB/s since the phase start */
	double sec;    /* seconds since the phase start */
	double lat_ms; /* the latency column */
};

struct dblog_ctx {
	const char *name;
	char *err;
	size_t errlen;
	struct result *r;
	unsigned long lineno;
	enum dblog_state state;
	bool banner, running, tput, table, machine, interrupted;
	bool run_failed; /* dbench-ng's "Run failed ..." marker */
	bool checkpoint; /* its "Checkpoint of a run ..." (status running) */
	bool partial;	 /* dbench-ng's "Partial figures of ..." line */
	bool run_figs;	 /* or its "Figures of run N of M: ..." (--runs) */
	int target;	    /* DBLOG_DISCARD, DBLOG_TOTAL or a client */
	int client_pending; /* client whose table comes next, or -1 */
	bool seen[OP_NR];   /* rows of the current table */
	int launch_procs;   /* from "N of N processes prepared", or 0 */
	struct dblog_prog *prog;
	size_t nprog, capprog;
	size_t nclients_cap;
	char *msg[RESULT_MAX_MSGS]; /* ring of the last error lines */
	unsigned int nmsg;
};

/* lex.c */
int dblog_fail_at(struct dblog_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int dblog_fail_file(struct dblog_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
bool dblog_starts(const char *s, size_t n, const char *prefix);
bool dblog_u64(const char *s, uint64_t *v);
bool dblog_i64(const char *s, int64_t *v);
bool dblog_int(const char *s, int *v);
bool dblog_num(const char *s, double *v);
bool dblog_ns(double ms, uint64_t n, uint64_t *ns);
int dblog_split(char *s, char sep, char **tok, int max);

/* lines.c */
int dblog_banner(struct dblog_ctx *c, const char *line, bool ng);
int dblog_running(struct dblog_ctx *c, char *line);
int dblog_throughput(struct dblog_ctx *c, char *line);
int dblog_partial(struct dblog_ctx *c, char *line);
int dblog_mr_final(struct dblog_ctx *c, char *line);
int dblog_progress(struct dblog_ctx *c, char **t, int n);
int dblog_mr_progress(struct dblog_ctx *c, char *line);
int dblog_client(struct dblog_ctx *c, char **t, int n);

/* table.c */
int dblog_line(struct dblog_ctx *c, char *line, size_t n);

/* finish.c */
int dblog_finish(struct dblog_ctx *c);

#endif
