/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * commands.h - the entry points of the subcommands, one per cmd_*.c, for
 * the table in main.c (record's is in its own layer, src/record).  Each takes the command line from its own name on
 * (@argv[0] is "compare", ...) and returns the exit status.
 */
#ifndef DBNG_COMMANDS_H
#define DBNG_COMMANDS_H

/* run_main - "dbench-ng [run] [OPTIONS] NPROCS", with --runs: 0, 1, 2,
 * 3, 130 or 143 (cmd_run.c) */
int run_main(int argc, char **argv);

/* report_main - "dbench-ng report FILE": 0, 2 or 3 (cmd_report.c) */
int report_main(int argc, char **argv);

/* compare_main - "dbench-ng compare BASE... -- CAND...": 0, 1 or 2
 * (cmd_compare.c) */
int compare_main(int argc, char **argv);

/* check_main - "dbench-ng check --baseline FILE... NPROCS", for git
 * bisect run: 0 good, 1 regressed, 125 cannot decide (cmd_check.c) */
int check_main(int argc, char **argv);

/* tbench_main - "tbench [OPTIONS] NPROCS [SERVER]": a run whose default
 * backend is sockio (cmd_tbench.c) */
int tbench_main(int argc, char **argv);

/* tbench_srv_main - "tbench_srv [-t SOCKOPTS] [--bind ADDR] [--port N]":
 * the tbench server until a signal stops it: 0, 2 or 3 (cmd_tbench.c) */
int tbench_srv_main(int argc, char **argv);

/* record_main - "dbench-ng record [OPTIONS] -- COMMAND", "-p PID" or
 * "--from-strace LOG": a loadfile of a real workload; 0, 1, 2 or 3
 * (src/record/record_cli.c, docs/record.md) */
int record_main(int argc, char **argv);

#endif
