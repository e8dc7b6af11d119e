/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cmd_run.h - running the benchmark from a command line: parse and check
 * everything (options, loadfiles, backend, directory) before anything
 * runs, then run it once or several times.  Used by "dbench-ng [run]"
 * (cmd_run.c) and by "dbench-ng check" (cmd_check.c).
 */
#ifndef DBNG_CMD_RUN_H
#define DBNG_CMD_RUN_H

#include "options.h"

#include "backend.h"
#include "file_replace.h"

struct coord;
struct program;
struct result;

#define RUN_MAX_LOADFILES 1024

struct run_ctx {
	struct config cfg;
	const struct backend *be;
	struct be_run be_run;	/* what the backend sees of the run */
	void *be_opts;		/* the backend's options (-o) */
	char be_opts_text[1024]; /* cfg.backend_opts points here */
	struct program *progs[RUN_MAX_LOADFILES];
	int nprogs;
	int argc;
	char **argv;
	FILE *out;		/* the human output (stdout, stderr, null) */
	struct file_pending json; /* this run's --json file, until written */
	char json_path[4096];
	struct coord *coord;	/* NULL, or a run across hosts (coord.h) */
	char note[1024];	/* for stderr once the run starts, or "" */
	/* why run_setup() or run_start() refused the run: their message
	 * without "dbench-ng: ", or "" */
	char why[1280];
};

/*
 * run_setup - parse @argv (a run command line), load the loadfiles and
 * check the backend; nothing is created yet.  Returns 0, or the exit
 * status (2 usage/input, 3 environment) after a message, which is also
 * @rc->why; *@done is set
 * when --help or --version was printed (return 0).
 */
int run_setup(struct run_ctx *rc, int argc, char **argv, bool *done);

/*
 * run_start - after run_setup() (and after the caller has settled
 * cfg.runs, which names the --json files): hold the signals that stop a
 * run, check the --json path and create its temporary file, then prepare
 * the directory (the backend's init); then say what run_setup() noted
 * (no -c and no client.txt: the built-in workload).  0, or the exit
 * status after a message (2 for a --json path that cannot be written or
 * lies in DIR/clients), with nothing created; the message is also
 * @rc->why.
 */
int run_start(struct run_ctx *rc);

/*
 * run_one - run the benchmark once (run @run of cfg.runs; the directory
 * is prepared again for every run after the first) and return the exit
 * status; *@out receives the result (also of a failed or interrupted
 * run), NULL if none could be made.
 */
int run_one(struct run_ctx *rc, int run, struct result **out);

/* run_teardown - release what run_setup() loaded */
void run_teardown(struct run_ctx *rc);

#endif
