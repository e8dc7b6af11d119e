/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * main.c - entry point and the table of subcommands:
 *   dbench-ng [run] [OPTIONS] NPROCS      run the benchmark (cmd_run.c)
 *   dbench-ng report FILE [...]           re-render a stored result
 *                                         (cmd_report.c)
 *   dbench-ng compare BASE... -- CAND...  compare runs (cmd_compare.c)
 *   dbench-ng check --baseline FILE...    decide for git bisect
 *                                         (cmd_check.c)
 *   dbench-ng tbench [OPTIONS] NPROCS [SERVER]   tbench, the client
 *   dbench-ng tbench_srv [OPTIONS]        tbench's server (cmd_tbench.c)
 *   dbench-ng record [OPTIONS] -- COMMAND a loadfile of a real workload
 *                                         (src/record/record_cli.c)
 * Called tbench or tbench-ng it is "dbench-ng tbench", called tbench_srv
 * or tbench-ng-srv "dbench-ng tbench_srv".  Whatever it is called, a
 * closed standard input, output or error is /dev/null first, and SIGXFSZ
 * is ignored (start.h).
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "start.h"

static const struct {
	const char *name;
	int (*main)(int argc, char **argv);
} commands[] = {
	{"run", run_main},
	{"compare", compare_main},
	{"check", check_main},
	{"report", report_main},
	{"tbench", tbench_main},
	{"tbench_srv", tbench_srv_main},
	{"record", record_main},
};

/* The program's own name decides for tbench's two */
static const struct {
	const char *name;
	int (*main)(int argc, char **argv);
} names[] = {
	{"tbench", tbench_main},
	{"tbench-ng", tbench_main},
	{"tbench_srv", tbench_srv_main},
	{"tbench-ng-srv", tbench_srv_main},
};

int main(int argc, char **argv)
{
	size_t n = sizeof(commands) / sizeof(commands[0]);
	const char *base = argc > 0 ? strrchr(argv[0], '/') : NULL;

	if (start_process())
		return 3;
	base = base ? base + 1 : argc > 0 ? argv[0] : "";
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(base, names[i].name))
			return names[i].main(argc, argv);
	}

	for (size_t i = 0; argc > 1 && i < n; i++) {
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].main(argc - 1, argv + 1);
	}
	/* no subcommand: a run, as dbench's command line */
	return run_main(argc, argv);
}
