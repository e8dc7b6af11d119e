/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cmd_compare.c - the command line of `dbench-ng compare BASELINE... --
 * CANDIDATE...`: its usage, options and files; the comparison itself is
 * src/analysis/compare*.c.
 */
#include "commands.h"

#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare.h"
#include "compare_html.h"
#include "compare_workload.h"
#include "num.h"
#include "result.h"
#include "result_json.h"
#include "suggest.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: dbench-ng compare [OPTIONS] BASELINE... -- "
		"CANDIDATE...\n"
		"Did the candidate runs regress against the baseline runs?  "
		"Each file is one\nrun: a dbench-ng JSON result (--json) or a "
		"dbench text log (dbench 4.0 or\ndbench-ng stdout; those give "
		"only ops/s, mean, max and MB/s).  Ops are paired\nby name; "
		"per op: ops/s, mean, p50, p99, p99.9, max and ops over 10, "
		"100 and\n500 ms per million, and the run's MB/s; of runs "
		"paced by -R or timestamps,\nalso the response times from "
		"each op's intended start (rp50, rp99, rp99.9,\nrmax) and "
		"the late starts per million (late), where every run has "
		"them.\n"
		"\n"
		"With 2 or more runs per side (5 or more recommended), a "
		"metric regressed when\nthe Mann-Whitney U test on the "
		"per-run values is significant after Holm's\ncorrection "
		"over all metrics, the bootstrap CI of the change lies past "
		"the noise\nfloor, and latency changed by more than the "
		"latency floor.  With 1 run on a\nside, or too few runs to "
		"reach alpha, only documented thresholds flag.  A\nmetric "
		"decides only if every run has enough ops for it (5; 20, "
		"1000, 10000 for\np50, p99, p99.9): 'few ops' otherwise.\n"
		"\n"
		"  -a, --alpha=A        family-wise error rate (default 0.05)\n"
		"  -n, --noise=F        relative noise floor, 0.05 or 5%% "
		"(default 5%%)\n"
		"  -f, --floor=MS       absolute floor of latency changes "
		"(default 0.05 ms)\n"
		"  -m, --metrics=LIST   compare and correct for these only: "
		"METRIC, OP or\n"
		"                       OP:METRIC, comma-separated, e.g. "
		"p99.9,Rename:over100ms\n"
		"                       (metrics: ops/s mean p50 p99 p99.9 "
		"max over10ms\n"
		"                       over100ms over500ms MB/s rp50 rp99 "
		"rp99.9 rmax late)\n"
		"  -b, --bootstrap=N    bootstrap resamples (default 2000)\n"
		"  -s, --seed=N         bootstrap seed (default 1)\n"
		"  -c, --changed        show only the rows that are not 'no "
		"change'\n"
		"      --mixed-paths    compare runs of different --paths "
		"modes all the same\n"
		"      --mixed-workloads  compare runs of different loadfiles "
		"all the same\n"
		"  -j, --json=FILE      also write the comparison as JSON "
		"('-': stdout)\n"
		"      --html=FILE      also write it as a page: the verdicts, "
		"and both sides'\n"
		"                       runs overlaid (docs/html-report.md)\n"
		"  -h, --help           this text\n"
		"\n"
		"Exit: 0 nothing regressed, 1 something regressed, 2 bad "
		"input or options.\n"
		"See docs/regressions.md.\n");
}

static int bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int bad(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "dbench-ng compare: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see dbench-ng compare --help)\n");
	return 2;
}

/* An ordinary number (no nan, inf, overflow, denormal, -0: NUM_NORMAL,
 * NUM_NO_MINUS), with @percent_ok a fraction below 1 or a percentage. */
static int parse_double(const char *s, double *v, bool percent_ok)
{
	const char *end;

	if (num_f64(s, NUM_NORMAL | NUM_NO_MINUS, v, &end) != NUM_OK)
		return -1;
	if (percent_ok && *end == '%') {
		*v /= 100;
		end++;
		if (*v != 0 && !isnormal(*v))
			return -1; /* a denormal once divided */
	} else if (percent_ok && *v >= 1) {
		return -1;
	}
	return *end ? -1 : 0;
}

static int parse_u64(const char *s, uint64_t *v)
{
	return num_u64(s, NUM_BASE0, UINT64_MAX, v) != NUM_OK ? -1 : 0;
}

static int load_side(char **files, int n, struct result **out)
{
	char err[1024];

	for (int i = 0; i < n; i++) {
		if (result_load(files[i], &out[i], err, sizeof(err))) {
			fprintf(stderr, "dbench-ng compare: %s\n", err);
			return -1;
		}
	}
	return 0;
}

int compare_main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{"alpha", required_argument, NULL, 'a'},
		{"noise", required_argument, NULL, 'n'},
		{"floor", required_argument, NULL, 'f'},
		{"metrics", required_argument, NULL, 'm'},
		{"metric", required_argument, NULL, 'm'},
		{"bootstrap", required_argument, NULL, 'b'},
		{"seed", required_argument, NULL, 's'},
		{"json", required_argument, NULL, 'j'},
		{"html", required_argument, NULL, 'H'},
		{"changed", no_argument, NULL, 'c'},
		{"mixed-paths", no_argument, NULL, 'P'},
		{"mixed-workloads", no_argument, NULL, 'W'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct result **res = NULL;
	struct cmp_report *rep = NULL;
	const char *json = NULL, *html = NULL;
	struct cmp_opts o;
	char err[1024];
	int sep = -1, c, nb, nc, rc = 2;
	bool changed = false, mixed = false, mixed_wl = false;
	uint64_t u;

	cmp_opts_default(&o);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			sep = i;
			break;
		}
	}
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(sep < 0 ? argc : sep, argv, ":a:n:f:m:b:s:j:ch",
				lopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			if (parse_double(optarg, &o.alpha, false) ||
			    !(o.alpha > 0 && o.alpha < 1))
				return bad("--alpha: '%s' is not a number "
					   "between 0 and 1",
					   optarg);
			break;
		case 'n':
			if (parse_double(optarg, &o.noise, true) || o.noise < 0)
				return bad("--noise: '%s' is not a fraction "
					   "(0.05) or a percentage (5%%)",
					   optarg);
			break;
		case 'f':
			if (parse_double(optarg, &o.floor_ms, false) ||
			    o.floor_ms < 0)
				return bad("--floor: '%s' is not a number of "
					   "ms >= 0",
					   optarg);
			break;
		case 'm':
			if (cmp_filter_check(optarg, err, sizeof(err)))
				return bad("%s", err);
			o.metric_filter = optarg;
			break;
		case 'b':
			if (parse_u64(optarg, &u) || u < 100 || u > 1000000)
				return bad("--bootstrap: '%s' is not a number "
					   "of resamples from 100 to 1000000",
					   optarg);
			o.boot_iters = (int)u;
			break;
		case 's':
			if (parse_u64(optarg, &o.seed))
				return bad("--seed: '%s' is not an unsigned "
					   "integer",
					   optarg);
			break;
		case 'j':
			json = optarg;
			break;
		case 'H':
			html = optarg;
			break;
		case 'c':
			changed = true;
			break;
		case 'P':
			mixed = true;
			break;
		case 'W':
			mixed_wl = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case ':':
			return bad("option '%s' needs a value",
				   argv[optind - 1]);
		default:
			return unknown_option("dbench-ng compare",
					      argv[optind - 1], lopts,
					      "dbench-ng compare --help");
		}
	}
	if (sep < 0)
		return bad("missing '--' between the baseline and the "
			   "candidate files");
	nb = sep - optind;
	nc = argc - sep - 1;
	if (nb < 1 || nc < 1)
		return bad("no %s file given",
			   nb < 1 ? "baseline" : "candidate");
	for (int i = sep + 1; i < argc; i++) {
		if (argv[i][0] == '-' && access(argv[i], F_OK))
			return bad("'%s' comes after '--', so it is taken as a "
				   "candidate file, and there is none: options "
				   "go before '--'",
				   argv[i]);
	}
	res = calloc((size_t)(nb + nc), sizeof(*res));
	if (!res) {
		fprintf(stderr, "dbench-ng compare: out of memory\n");
		return 2;
	}
	if (load_side(argv + optind, nb, res) ||
	    load_side(argv + sep + 1, nc, res + nb))
		goto out;
	if (!mixed || !mixed_wl) {
		const char **names = calloc((size_t)(nb + nc), sizeof(*names));

		for (int i = 0; names && i < nb + nc; i++)
			names[i] = i < nb ? argv[optind + i]
					  : argv[sep + 1 + i - nb];
		if (names && !mixed &&
		    cmp_paths_differ(res, names, nb + nc, err, sizeof(err))) {
			fprintf(stderr,
				"dbench-ng compare: %s (--mixed-paths compares "
				"them anyway)\n",
				err);
			free(names);
			goto out;
		}
		if (names && !mixed_wl &&
		    cmp_workloads_differ(res, names, nb + nc, NULL, NULL, err,
					 sizeof(err))) {
			fprintf(stderr,
				"dbench-ng compare: %s (--mixed-workloads "
				"compares them anyway)\n",
				err);
			free(names);
			goto out;
		}
		free(names);
	}
	rep = cmp_run_named(res, nb, res + nb, nc,
			    (const char *const *)argv + optind,
			    (const char *const *)argv + sep + 1, &o);
	if (!rep) {
		fprintf(stderr, "dbench-ng compare: out of memory\n");
		goto out;
	}
	if (!cmp_nrows(rep)) {
		fprintf(stderr,
			"dbench-ng compare: no metric to compare: the "
			"runs have no op in common%s\n",
			o.metric_filter ? " or --metrics selects none" : "");
		goto out;
	}
	cmp_print_changed(stdout, rep, changed);
	fflush(stdout);
	if (json && cmp_write_json(rep, json, err, sizeof(err))) {
		fprintf(stderr, "dbench-ng compare: %s\n", err);
		goto out;
	}
	if (html &&
	    compare_html_file(rep, res, argv + optind, nb, argv + sep + 1, nc,
			      html, err, sizeof(err))) {
		/* as --json: the table is out, the page is not */
		fprintf(stderr, "dbench-ng compare: %s\n", err);
		goto out;
	}
	rc = cmp_verdict(rep);
out:
	cmp_free(rep);
	for (int i = 0; i < nb + nc; i++)
		result_free(res[i]);
	free(res);
	return rc;
}
