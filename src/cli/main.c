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
 *   dbench-ng help [COMMAND]              --help of the run or COMMAND
 * A first word that is no command but close to one ("chek") is refused
 * with the one it is close to (suggest.c).
 * Called tbench or tbench-ng it is "dbench-ng tbench", called tbench_srv
 * or tbench-ng-srv "dbench-ng tbench_srv".  Whatever it is called, a
 * closed standard input, output or error is /dev/null first, and SIGXFSZ
 * is ignored (start.h).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "start.h"
#include "suggest.h"

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
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static int (*command(const char *name))(int, char **)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(name, commands[i].name))
			return commands[i].main;
	return NULL;
}

/* @word, not a command, close to one ("chek"): said, with the one */
static bool mistyped(const char *word)
{
	const char *names[NCOMMANDS + 1];
	const char *near;

	for (size_t i = 0; i < NCOMMANDS; i++)
		names[i] = commands[i].name;
	names[NCOMMANDS] = "help";
	near = suggest(word, names, NCOMMANDS + 1);
	if (!near)
		return false;
	fprintf(stderr,
		"dbench-ng: unknown command '%s'; did you mean '%s'?\n", word,
		near);
	return true;
}

/* "help": the run's --help, which lists the commands; "help COMMAND":
 * that command's --help */
static int help_main(int argc, char **argv)
{
	char help[] = "--help";
	char *av[] = {argv[argc > 1 ? 1 : 0], help, NULL};
	int (*m)(int, char **);

	if (argc > 2) {
		fprintf(stderr, "dbench-ng help: one COMMAND at a time\n");
		return 2;
	}
	if (argc < 2)
		return run_main(2, (char *[]){"dbench-ng", help, NULL});
	m = command(argv[1]);
	if (m)
		return m(2, av);
	if (!mistyped(argv[1]))
		fprintf(stderr,
			"dbench-ng: unknown command '%s' (see dbench-ng "
			"--help)\n",
			argv[1]);
	return 2;
}

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

/* a word in the place of a command that is no number: not NPROCS */
static bool word(const char *s)
{
	return *s && *s != '-' && s[strspn(s, "0123456789")];
}

int main(int argc, char **argv)
{
	const char *base = argc > 0 ? strrchr(argv[0], '/') : NULL;
	int (*m)(int, char **);

	if (start_process())
		return 3;
	base = base ? base + 1 : argc > 0 ? argv[0] : "";
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(base, names[i].name))
			return names[i].main(argc, argv);
	}
	if (argc > 1 && (m = command(argv[1])))
		return m(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "help"))
		return help_main(argc - 1, argv + 1);
	/* a command mistyped; anything else is a run, as dbench's command
	 * line, whose messages stay dbench-ng's (NPROCS: 'x' is not a whole
	 * number) */
	if (argc > 1 && word(argv[1]) && mistyped(argv[1]))
		return 2;
	return run_main(argc, argv);
}
