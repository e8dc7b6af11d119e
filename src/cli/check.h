/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * check.h - "dbench-ng check": run the benchmark, compare with a stored
 * baseline, and answer git bisect run: 0 good, 1 regressed, 125 skip.
 */
#ifndef DBNG_CHECK_H
#define DBNG_CHECK_H

/* check_main - the subcommand; @argv[0] is "check"; the exit status */
int check_main(int argc, char **argv);

#endif
