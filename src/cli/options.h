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

#include "builtin.h"
#include "config.h"

#define OPT_MAX_PROCS 100000
#define OPT_BUILTIN   BUILTIN_NETBENCH
#define OPT_MAX_BACKEND_OPTS 64
#define OPT_MAX_BACKEND_LOPTS 32 /* distinct --LOPT of all backends */


/* opt_out - where the human-readable output goes: stdout, or stderr when
 * the JSON result is written to stdout. */
FILE *opt_out(const struct config *cfg);

enum opt_result {
	OPT_RUN,     /* run the benchmark */
	OPT_EXIT_OK, /* --help or --version was printed */
	OPT_ERROR,   /* a message was printed to stderr; exit 2 */
};

/* opt_parse - fill @cfg from @argv.  Messages go to stderr (errors) or
 * stdout (--help, --version); with OPT_ERROR the error is also in @why
 * (@whylen bytes; NULL: not kept), without "dbench-ng: ".  Without -c,
 * cfg->loadfile is NULL: run_setup() picks the default (stock.h). */
enum opt_result opt_parse(int argc, char **argv, struct config *cfg, char *why,
			  size_t whylen);

/* opt_help - the --help of a run (options_help.c): @mode_usage, or
 * dbench-ng's usage line and commands, then the options */
void opt_help(FILE *f, const char *mode_usage);

/* opt_is_long - is @arg ("--NAME" or "--NAME=VALUE") a long option of a
 * run, the backends' included? */
bool opt_is_long(const char *arg);

/* opt_tbench - parse tbench's command lines from now on: @backend is
 * the default backend (sockio) and @usage the head of --help */
void opt_tbench(const char *backend, const char *usage);

/* opt_secrets - where in the argv of the last opt_parse() the values of
 * secret backend options begin (pointers into argv's strings), so that
 * the command line a result records can hide them; their count. */
int opt_secrets(const char *const **v);

/* opt_backend_options - the -o NAME[=VALUE] strings of the last
 * opt_parse(), and the backends' long options as "--LOPT[=VALUE]", in
 * their order, for the backend (registry.h); their count */
int opt_backend_options(const char *const **kv);

#endif
