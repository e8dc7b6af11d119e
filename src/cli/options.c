/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * options.c - parse and validate the command line.  Every problem is one
 * line on stderr naming the option and the value; the caller exits 2.
 */
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"
#include "version.h"

/* -o NAME[=VALUE]: collected here, parsed by the backend's registry */
static const char *be_opts[OPT_MAX_BACKEND_OPTS];
static int nbe_opts;

enum {
	O_NO_RESOLVE = 256,
	O_CPP,
	O_ONE_BYTE,
	O_STAT_CHECK,
	O_FAKE_IO,
	O_SKIP_CLEANUP,
	O_PER_CLIENT,
	O_WARMUP,
	O_RUN_ONCE,
	O_MACHINE,
	O_SHOW_EXEC,
	O_NO_PCT,
	O_JSON,
	O_STALL,
	O_RUNS,
	O_VERSION,
};

static const struct option long_opts[] = {
	{"timelimit", required_argument, NULL, 't'},
	{"loadfile", required_argument, NULL, 'c'},
	{"directory", required_argument, NULL, 'D'},
	{"tcp-options", required_argument, NULL, 'T'},
	{"target-rate", required_argument, NULL, 'R'},
	{"sync", no_argument, NULL, 's'},
	{"sync-dir", no_argument, NULL, 'S'},
	{"fsync", no_argument, NULL, 'F'},
	{"xattr", no_argument, NULL, 'x'},
	{"backend", required_argument, NULL, 'B'},
	{"backend-option", required_argument, NULL, 'o'},
	{"no-resolve", no_argument, NULL, O_NO_RESOLVE},
	{"clients-per-process", required_argument, NULL, O_CPP},
	{"one-byte-write-fix", no_argument, NULL, O_ONE_BYTE},
	{"stat-check", no_argument, NULL, O_STAT_CHECK},
	{"fake-io", no_argument, NULL, O_FAKE_IO},
	{"skip-cleanup", no_argument, NULL, O_SKIP_CLEANUP},
	{"per-client-results", no_argument, NULL, O_PER_CLIENT},
	{"warmup", required_argument, NULL, O_WARMUP},
	{"run-once", no_argument, NULL, O_RUN_ONCE},
	{"machine-readable", no_argument, NULL, O_MACHINE},
	{"show-execute-time", no_argument, NULL, O_SHOW_EXEC},
	{"no-percentiles", no_argument, NULL, O_NO_PCT},
	{"json", required_argument, NULL, O_JSON},
	{"stall-threshold", required_argument, NULL, O_STALL},
	{"runs", required_argument, NULL, O_RUNS},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, O_VERSION},
	{NULL, 0, NULL, 0},
};

void opt_usage(FILE *f)
{
	/* clang-format off */
	fprintf(f,
"Usage: dbench-ng [OPTIONS] NPROCS\n"
"Replay a NetBench file-server loadfile with NPROCS client processes\n"
"against a directory and report per-operation latency and throughput.\n"
"\n"
"  -t, --timelimit=SECS       length of the measured phase (default 600)\n"
"      --warmup=SECS          warm-up before it (default timelimit/5)\n"
"  -c, --loadfile=FILE[,...]  loadfile, plain or gzip; a comma list gives\n"
"                             client i the file i modulo the list length\n"
"                             (default: the built-in workload, "
OPT_BUILTIN ")\n"
"  -D, --directory=DIR        base directory (default .); clients work in\n"
"                             DIR/clients and touch nothing else\n");
	backend_help(f);
	fprintf(f,
"  -R, --target-rate=MBPS     per-client target rate in MB/s\n"
"  -s, --sync                 open files with O_SYNC\n"
"  -S, --sync-dir             fdatasync the directory after unlink, rmdir\n"
"                             and rename\n"
"  -F, --fsync                fsync after every write\n"
"  -x, --xattr                emulate Samba's DOS attributes in xattrs\n"
"      --no-resolve           no case-insensitive lookup of missing names\n"
"      --stat-check           skip pointless calls after a stat()\n"
"      --one-byte-write-fix   skip or truncate for 1-byte zero writes\n"
"      --fake-io              do not read or write file data\n"
"      --clients-per-process=N  clients sharing each process (default 1)\n"
"      --run-once             stop after one pass of the loadfile\n"
"      --skip-cleanup         leave DIR/clients/clientN behind\n"
"      --per-client-results   add a table per client\n"
"      --show-execute-time    print the time of every completed pass\n"
"      --machine-readable     dbench's colon-separated output\n"
"      --no-percentiles       omit the percentile table\n"
"      --json=FILE            write the whole result as JSON to FILE\n"
"                             (- for stdout; the text then goes to stderr)\n"
"      --runs=N               run the whole benchmark N times, each on a\n"
"                             fresh tree, and summarise the spread\n"
"      --stall-threshold=MS   record the kernel stack of any op running\n"
"                             longer (default 100; 0 turns it off)\n"
"  -T, --tcp-options=OPTS     accepted for dbench compatibility, ignored\n"
"  -h, --help                 this text\n"
"      --version              print the version\n"
"\n"
"Exit status: 0 success, 1 a client failed, 2 bad usage or input,\n"
"3 environment error, 130/143 interrupted.  See dbench-ng(1).\n");
	/* clang-format on */
}

static int bad_value(const char *opt, const char *val, const char *why)
{
	fprintf(stderr, "dbench-ng: %s: '%s' %s\n", opt, val, why);
	return -1;
}

static int parse_long(const char *opt, const char *s, long min, long max,
		      int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end)
		return bad_value(opt, s, "is not a whole number");
	if (errno || v < min || v > max) {
		fprintf(stderr,
			"dbench-ng: %s: '%s' is out of range "
			"(%ld..%ld)\n",
			opt, s, min, max);
		return -1;
	}
	*out = (int)v;
	return 0;
}

static const char *opt_name(int c, char *buf, size_t len)
{
	snprintf(buf, len, "-%c", c);
	return buf;
}

static bool is_long(const char *arg)
{
	return !strncmp(arg, "--", 2);
}

int opt_backend_options(const char *const **kv)
{
	*kv = be_opts;
	return nbe_opts;
}

FILE *opt_out(const struct config *cfg)
{
	if (cfg->out)
		return cfg->out;
	return cfg->json && !strcmp(cfg->json, "-") ? stderr : stdout;
}

enum opt_result opt_parse(int argc, char **argv, struct config *cfg)
{
	char name[64];
	char *end;
	int c, rc = 0;

	memset(cfg, 0, sizeof(*cfg));
	nbe_opts = 0;
	cfg->cpp = 1;
	cfg->timelimit = 600;
	cfg->warmup = -1;
	cfg->loadfile = OPT_BUILTIN;
	cfg->dir = ".";
	cfg->backend = backend_default()->name;
	cfg->stall_ms = 100;
	cfg->runs = 1;

	opterr = 0;
	optind = 0; /* glibc: a full reset, also inside "-abc" clusters */
	while ((c = getopt_long(argc, argv, ":t:c:D:T:R:sSFxB:o:h", long_opts,
				NULL)) != -1) {
		switch (c) {
		case 't':
			rc = parse_long("-t", optarg, 1, 100000000,
					&cfg->timelimit);
			break;
		case O_WARMUP:
			rc = parse_long("--warmup", optarg, 0, 100000000,
					&cfg->warmup);
			break;
		case O_CPP:
			rc = parse_long("--clients-per-process", optarg, 1,
					10000, &cfg->cpp);
			break;
		case 'c':
			if (!*optarg)
				rc = bad_value("-c", optarg, "is empty");
			cfg->loadfile = optarg;
			break;
		case 'D':
			if (!*optarg)
				rc = bad_value("-D", optarg, "is empty");
			cfg->dir = optarg;
			break;
		case 'B':
			cfg->backend = optarg;
			break;
		case 'o':
			if (nbe_opts == OPT_MAX_BACKEND_OPTS)
				rc = bad_value("-o", optarg, "is one too many");
			else
				be_opts[nbe_opts++] = optarg;
			break;
		case 'T':
			break; /* tbench socket options: nothing to do */
		case 'R':
			errno = 0;
			cfg->target_rate = strtod(optarg, &end);
			if (end == optarg || *end || errno ||
			    !isfinite(cfg->target_rate) || cfg->target_rate < 0)
				rc = bad_value("-R", optarg,
					       "is not a rate in MB/s (>= 0)");
			break;
		case 's':
			cfg->sync_open = true;
			break;
		case 'S':
			cfg->sync_dirs = true;
			break;
		case 'F':
			cfg->fsync_writes = true;
			break;
		case 'x':
			cfg->xattr = true;
			break;
		case O_NO_RESOLVE:
			cfg->no_resolve = true;
			break;
		case O_ONE_BYTE:
			cfg->one_byte_fix = true;
			break;
		case O_STAT_CHECK:
			cfg->stat_check = true;
			break;
		case O_FAKE_IO:
			cfg->fake_io = true;
			break;
		case O_SKIP_CLEANUP:
			cfg->skip_cleanup = true;
			break;
		case O_PER_CLIENT:
			cfg->per_client = true;
			break;
		case O_RUN_ONCE:
			cfg->run_once = true;
			break;
		case O_MACHINE:
			cfg->machine = true;
			break;
		case O_SHOW_EXEC:
			cfg->show_exec_time = true;
			break;
		case O_NO_PCT:
			cfg->no_percentiles = true;
			break;
		case O_RUNS:
			rc = parse_long("--runs", optarg, 1, 1000, &cfg->runs);
			break;
		case O_STALL:
			rc = parse_long("--stall-threshold", optarg, 0,
					3600000, &cfg->stall_ms);
			break;
		case O_JSON:
			if (!*optarg)
				rc = bad_value("--json", optarg, "is empty");
			cfg->json = optarg;
			break;
		case 'h':
			opt_usage(stdout);
			return OPT_EXIT_OK;
		case O_VERSION:
			printf("dbench-ng %s\n", dbng_version);
			return OPT_EXIT_OK;
		case ':':
			fprintf(stderr,
				"dbench-ng: option '%s' needs a value\n",
				is_long(argv[optind - 1])
					? argv[optind - 1]
					: opt_name(optopt, name, sizeof(name)));
			return OPT_ERROR;
		default:
			if (optopt && is_long(argv[optind - 1]))
				fprintf(stderr,
					"dbench-ng: option '%.*s' takes "
					"no value\n",
					(int)strcspn(argv[optind - 1], "="),
					argv[optind - 1]);
			else if (optopt)
				fprintf(stderr,
					"dbench-ng: unknown option "
					"'-%c' (see dbench-ng --help)\n",
					optopt);
			else
				fprintf(stderr,
					"dbench-ng: unknown option "
					"'%s' (see dbench-ng --help)\n",
					argv[optind - 1]);
			return OPT_ERROR;
		}
		if (rc)
			return OPT_ERROR;
	}

	if (optind >= argc) {
		fprintf(stderr, "dbench-ng: missing NPROCS, the number of "
				"client processes (see dbench-ng --help)\n");
		return OPT_ERROR;
	}
	/* dbench 4.0 accepts and ignores a second operand (tbench's server) */
	if (argc - optind > 2) {
		fprintf(stderr,
			"dbench-ng: unexpected argument '%s' after "
			"NPROCS\n",
			argv[optind + 2]);
		return OPT_ERROR;
	}
	if (parse_long("NPROCS", argv[optind], 1, OPT_MAX_PROCS, &cfg->nprocs))
		return OPT_ERROR;
	if ((long)cfg->nprocs * cfg->cpp > OPT_MAX_PROCS) {
		fprintf(stderr,
			"dbench-ng: NPROCS x --clients-per-process = "
			"%ld clients, more than %d\n",
			(long)cfg->nprocs * cfg->cpp, OPT_MAX_PROCS);
		return OPT_ERROR;
	}
	cfg->nclients = cfg->nprocs * cfg->cpp;
	if (cfg->warmup < 0)
		cfg->warmup = cfg->timelimit / 5;
	return OPT_RUN;
}
