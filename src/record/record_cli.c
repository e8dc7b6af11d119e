/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * record_cli.c - the command line of "dbench-ng record" (docs/record.md):
 *   dbench-ng record [OPTIONS] -- COMMAND [ARG...]
 *   dbench-ng record [OPTIONS] -p PID [-p PID...]
 *   dbench-ng record [OPTIONS] --from-strace LOG
 * A usage error is exit status 2 with one line naming the option.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"

#define MAX_PIDS 64

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: dbench-ng record [OPTIONS] -- COMMAND [ARG...]\n"
		"       dbench-ng record [OPTIONS] -p PID [-p PID...]\n"
		"       dbench-ng record [OPTIONS] --from-strace LOG\n"
		"Record the file-system calls of a process tree as a "
		"loadfile that dbench-ng\nreplays with N clients "
		"(docs/record.md): with BPF (root, or CAP_BPF and\n"
		"CAP_PERFMON), or from a log of strace -f -tt -T [-y].\n"
		"\n"
		"  -o, --output=FILE      the loadfile (default: standard "
		"output)\n"
		"  -r, --root=DIR         the tree that becomes "
		"\\clients\\client1 (default: the\n"
		"                         working directory); calls outside "
		"it are not recorded\n"
		"  -p, --pid=PID          trace this running process (and "
		"what it forks from now on)\n"
		"      --from-strace=LOG  read a log of strace -f -tt -T "
		"instead of tracing\n"
		"      --cwd=DIR          the working directory the traced "
		"command started in\n"
		"                         (--from-strace; default: what the "
		"log shows (-y),\n"
		"                         else the working directory)\n"
		"      --skip-bad         skip and count the lines of LOG that "
		"cannot be read\n"
		"                         (default: the first one is an "
		"error, exit status 2)\n"
		"      --setup=FILE       write the set-up (the tree the trace "
		"found) to FILE\n"
		"                         instead of the head of the "
		"loadfile\n"
		"      --anonymize        names as stable hashes (extensions "
		"and depth kept)\n"
		"      --no-timestamps    no timestamps: the replay does not "
		"pace the calls\n"
		"      --buffer=MIB       the BPF ring buffer (a power of two, "
		"default 16)\n"
		"  -h, --help             this text\n"
		"\n"
		"Exit status: 0 recorded; 1 recorded but incomplete (events "
		"lost, the command\nfailed); 2 bad usage or input; 3 no BPF "
		"here (--from-strace works anywhere).\n");
}

static int __attribute__((format(printf, 1, 2))) bad(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "dbench-ng record: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see dbench-ng record --help)\n");
	return 2;
}

static bool parse_uint(const char *s, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v <= 0 || v > max)
		return false;
	*out = v;
	return true;
}

int record_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"output", required_argument, NULL, 'o'},
		{"root", required_argument, NULL, 'r'},
		{"pid", required_argument, NULL, 'p'},
		{"from-strace", required_argument, NULL, 'S'},
		{"cwd", required_argument, NULL, 'C'},
		{"skip-bad", no_argument, NULL, 'K'},
		{"setup", required_argument, NULL, 'U'},
		{"anonymize", no_argument, NULL, 'A'},
		{"no-timestamps", no_argument, NULL, 'T'},
		{"buffer", required_argument, NULL, 'B'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct record_opts o = {.out = "-"};
	int pids[MAX_PIDS];
	long v;
	int c;

	opterr = 0;
	optind = 0;
	/* "+": the options end at the command's name */
	while ((c = getopt_long(argc, argv, "+:o:r:p:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o.out = optarg;
			break;
		case 'r':
			o.root = optarg;
			break;
		case 'p':
			if (!parse_uint(optarg, INT_MAX, &v))
				return bad("-p '%s': not a process id", optarg);
			if (o.npids == MAX_PIDS)
				return bad("-p %s: at most 64 processes",
					   optarg);
			pids[o.npids++] = (int)v;
			break;
		case 'S':
			o.strace = optarg;
			break;
		case 'C':
			o.cwd = optarg;
			break;
		case 'K':
			o.skip_bad = true;
			break;
		case 'U':
			o.setup = optarg;
			break;
		case 'A':
			o.anonymize = true;
			break;
		case 'T':
			o.no_timestamps = true;
			break;
		case 'B':
			if (!parse_uint(optarg, 4096, &v) || (v & (v - 1)))
				return bad("--buffer '%s': MiB, a power of two "
					   "from 1 to 4096",
					   optarg);
			o.ring_mib = (unsigned int)v;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case ':':
			return bad("option '%s' needs a value",
				   argv[optind - 1]);
		default:
			return bad("unknown option '%s'", argv[optind - 1]);
		}
	}
	o.pids = pids;
	if (optind < argc)
		o.cmd = argv + optind;
	if (!!o.strace + !!o.npids + !!o.cmd != 1)
		return bad("%s",
			   o.strace || o.npids || o.cmd
				   ? "name one of -- COMMAND, -p PID and "
				     "--from-strace LOG"
				   : "nothing to record: name -- COMMAND, -p "
				     "PID or --from-strace LOG");
	if (o.cwd && !o.strace)
		return bad("%s", "--cwd is for --from-strace (a traced "
				 "process's directory is read from /proc)");
	if (o.skip_bad && !o.strace)
		return bad("%s", "--skip-bad is for --from-strace");
	if (o.setup && !strcmp(o.setup, "-"))
		return bad("%s", "--setup needs a file, not standard output");
	return record_run(&o);
}
