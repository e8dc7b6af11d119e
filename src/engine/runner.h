/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * runner.h - the parent's side of a run: fork the clients, release them
 * together, tick once a second (progress, warmup end, time limit), notice
 * signals and dead children, reap, merge into the result (the caller
 * renders it).
 */
#ifndef DBNG_RUNNER_H
#define DBNG_RUNNER_H

#include <stdbool.h>
#include <stdio.h>

struct backend;
struct be_run;
struct checkpoint;
struct config;
struct coord;
struct program;
struct result;

/*
 * runner_run - run the benchmark: client i uses progs[i % nprogs].  The
 * backend's init(@run) has been done.  Prints the progress lines to @out,
 * fills @res with what was measured (also when the run failed or was
 * interrupted) and returns the exit status (0, 1, 3, 128+signal);
 * *@measured tells whether @res holds a report's worth (the clients ran).
 * @co: NULL, or the coordinator of a run across hosts (coord.h): this
 * host runs clients run->first_id ..., and on rank 0 @res becomes the
 * run's, every host's merged; the exit status is the run's.  @ck: NULL,
 * or the checkpoints of the --json file (checkpoint.h), offered after
 * every tick.
 */
int runner_run(const struct config *cfg, FILE *out, struct program **progs,
	       int nprogs, const struct backend *b, struct be_run *run,
	       struct coord *co, struct checkpoint *ck, struct result *res,
	       bool *measured);

#endif
