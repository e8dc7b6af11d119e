/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * main.c - entry point and the table of subcommands:
 *   dbench-ng [run] [OPTIONS] NPROCS      run the benchmark (cmd_run.c)
 *   dbench-ng report FILE [...]           re-render a stored result
 *                                         (cmd_report.c)
 *   dbench-ng compare BASE... -- CAND...  compare runs (cmd_compare.c)
 *   dbench-ng check --baseline FILE...    decide for git bisect
 *                                         (cmd_check.c)
 */
#include <stddef.h>
#include <string.h>

#include "commands.h"

static const struct {
	const char *name;
	int (*main)(int argc, char **argv);
} commands[] = {
	{"run", run_main},
	{"compare", compare_main},
	{"check", check_main},
	{"report", report_main},
};

int main(int argc, char **argv)
{
	size_t n = sizeof(commands) / sizeof(commands[0]);

	for (size_t i = 0; argc > 1 && i < n; i++) {
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].main(argc - 1, argv + 1);
	}
	/* no subcommand: a run, as dbench's command line */
	return run_main(argc, argv);
}
