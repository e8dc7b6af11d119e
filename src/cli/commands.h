/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * commands.h - the entry points of the subcommands, one per cmd_*.c, for
 * the table in main.c.  Each takes the command line from its own name on
 * (@argv[0] is "compare", ...) and returns the exit status.
 */
#ifndef DBNG_COMMANDS_H
#define DBNG_COMMANDS_H

/* compare_main - `dbench-ng compare ...`: 0, 1 or 2 (cmd_compare.c) */
int compare_main(int argc, char **argv);

#endif
