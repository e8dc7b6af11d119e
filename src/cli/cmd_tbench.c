/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cmd_tbench.c - tbench's two programs: "tbench [OPTIONS] NPROCS [SERVER]"
 * (a run whose default backend is sockio: cmd_run.c) and "tbench_srv [-t
 * SOCKOPTS]" (the server of src/server/, with what dbench 4.0's lacks: a
 * port, addresses to bind, threads, a limit, a summary at the stop).
 * main.c calls them for "dbench-ng tbench ..." and "dbench-ng tbench_srv
 * ...", and when the program is called tbench, tbench-ng, tbench_srv or
 * tbench-ng-srv (make install makes the -ng names as links).
 */
#include "commands.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "num.h"
#include "options.h"
#include "server.h"
#include "version.h"
#include "suggest.h"

#define NAME "tbench_srv"

int tbench_main(int argc, char **argv)
{
	/* clang-format off */
	opt_tbench("sockio",
		   "Usage: tbench [OPTIONS] NPROCS [SERVER]\n"
		   "Replay a NetBench loadfile with NPROCS client processes, "
		   "each op an exchange\nof tbench's sizes with a tbench "
		   "server (tbench_srv) at SERVER, port 7003\n(default "
		   "localhost), and report per-operation latency and "
		   "throughput\n(dbench-ng's -B sockio).\n\n");
	return run_main(argc, argv);
}

static void srv_usage(FILE *f)
{
	/* clang-format off */
	fprintf(f,
		"Usage: tbench_srv [OPTIONS]\n"
		"Serve tbench clients (dbench 4.0's tbench, or dbench-ng -B "
		"sockio): one\nconnection per client, a reply of the asked "
		"size to every request.\n"
		"\n"
		"  -t, -T, --tcp-options=OPTS  socket options, tbench's names "
		"(default\n"
		"                            \"" SOCKOPT_DEFAULT "\")\n"
		"  -b, --bind=ADDR           listen on ADDR (IPv4 or IPv6; "
		"again for more);\n"
		"                            default: every address, IPv6 "
		"and IPv4\n"
		"  -p, --port=N              TCP port (default 7003; 0: any, "
		"said on stderr)\n"
		"      --threads=N           event loops, at most (default "
		"4 x the CPUs): a\n"
		"                            connection each, then shared\n"
		"      --max-length=BYTES    largest request or reply taken "
		"(default %u);\n"
		"                            a client over it is "
		"disconnected\n"
		"      --trace               a line per exchange on stderr "
		"(slow)\n"
		"  -h, --help                this text\n"
		"      --version             print the version\n"
		"\n"
		"SIGINT, SIGTERM or SIGHUP stop it; it then prints what it "
		"served and exits 0.\nExit status 2 bad usage, 3 cannot "
		"listen.  See dbench-ng(1).\n",
		SRV_MAX_LEN);
	/* clang-format on */
}

static int srv_number(const char *opt, const char *s, int64_t min, int64_t max,
		      int64_t *v)
{
	if (num_i64(s, NUM_DIGIT_FIRST, min, max, v) == NUM_OK)
		return 0;
	fprintf(stderr,
		NAME ": %s: '%s' is not a whole number in "
		     "%lld..%lld\n",
		opt, s, (long long)min, (long long)max);
	return -1;
}

static void srv_summary(FILE *f, const struct srv_stats *st)
{
	struct rusage ru;
	double u, s;

	fprintf(f, NAME ": stopped by signal %d (%s) after %.2f s\n",
		st->signal, strsignal(st->signal), st->seconds);
	fprintf(f,
		NAME ": served %llu connections (at most %llu at once), "
		     "%llu exchanges, %llu bytes received, %llu bytes sent\n",
		(unsigned long long)st->conns, (unsigned long long)st->max_open,
		(unsigned long long)st->exchanges,
		(unsigned long long)st->bytes_in,
		(unsigned long long)st->bytes_out);
	if (st->dropped || st->cut)
		fprintf(f,
			NAME
			": %llu connections dropped (a broken "
			"request or an error), %llu closed by their client "
			"in the middle of an exchange\n",
			(unsigned long long)st->dropped,
			(unsigned long long)st->cut);
	if (!getrusage(RUSAGE_SELF, &ru)) {
		u = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
		s = (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
		fprintf(f, NAME ": CPU time %.2f s (user %.2f, system %.2f)",
			u + s, u, s);
		if (st->exchanges)
			fprintf(f, ", %.2f us per exchange",
				(u + s) * 1e6 / (double)st->exchanges);
		fputc('\n', f);
	}
	fflush(f);
}

int tbench_srv_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"tcp-options", required_argument, NULL, 't'},
		{"bind", required_argument, NULL, 'b'},
		{"port", required_argument, NULL, 'p'},
		{"threads", required_argument, NULL, 'n'},
		{"max-length", required_argument, NULL, 'm'},
		{"trace", no_argument, NULL, 'r'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	struct srv_cfg cfg = {
		.port = SRV_PORT,
		.max_len = SRV_MAX_LEN,
		.name = NAME,
		.out = stdout,
		.err = stderr,
	};
	const char *tcp = SOCKOPT_DEFAULT;
	struct srv_stats st;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	char err[400];
	int64_t v;
	int c, rc;

	/* a loop each for the first 4 x CPUs clients (tbench_srv gives
	 * each a process; the scheduler shares the CPUs by task), beyond
	 * that they share them */
	ncpu = ncpu < 1 ? 1 : 4 * ncpu;
	cfg.threads = ncpu > SRV_MAX_THREADS ? SRV_MAX_THREADS : (int)ncpu;
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":t:T:b:p:h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
		case 'T':
			tcp = optarg;
			break;
		case 'b':
			if (cfg.nbind == SRV_MAX_BIND) {
				fprintf(stderr,
					NAME ": more than %d "
					     "--bind\n",
					SRV_MAX_BIND);
				return 2;
			}
			cfg.bind[cfg.nbind++] = optarg;
			break;
		case 'p':
			if (srv_number("--port", optarg, 0, 65535, &v))
				return 2;
			cfg.port = (int)v;
			break;
		case 'n':
			if (srv_number("--threads", optarg, 1, SRV_MAX_THREADS,
				       &v))
				return 2;
			cfg.threads = (int)v;
			break;
		case 'm':
			if (srv_number("--max-length", optarg, 8, UINT32_MAX,
				       &v))
				return 2;
			cfg.max_len = (uint32_t)v;
			break;
		case 'r':
			cfg.trace = true;
			break;
		case 'h':
			srv_usage(stdout);
			return 0;
		case 'V':
			printf("tbench_srv of dbench-ng %s\n", dbng_version_long());
			return 0;
		case ':':
			fprintf(stderr, NAME ": option '%s' needs a value\n",
				argv[optind - 1]);
			return 2;
		default:
			return unknown_option(NAME, argv[optind - 1], opts,
					      "tbench_srv --help");
		}
	}
	if (optind < argc) {
		fprintf(stderr, NAME ": unexpected argument '%s'\n",
			argv[optind]);
		return 2;
	}
	if (sockopt_parse(tcp, &cfg.opts, err, sizeof(err))) {
		fprintf(stderr, NAME ": -t: %s\n", err);
		return 2;
	}
	rc = srv_run(&cfg, &st);
	if (!rc)
		srv_summary(stdout, &st);
	return rc;
}
