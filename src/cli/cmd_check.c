/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cmd_check.c - the "check" subcommand: decide one commit for "git
 * bisect run".
 *
 * Runs the benchmark --min-runs times, compares the candidate runs with
 * the baseline results (src/analysis: Mann-Whitney U, Holm, bootstrap CI,
 * noise floors), and while the answer is unclear adds runs one at a time
 * up to --max-runs.  Exit 0: no regression; 1: regressed; 125: cannot
 * decide (too few runs to reach significance, a run that failed, or bad
 * input -- git bisect then skips the commit instead of blaming it).
 * One line on stdout says why; the table goes to stderr.
 */
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd_run.h"
#include "compare.h"
#include "num.h"
#include "result.h"
#include "result_json.h"

#define CHECK_SKIP 125
#define MAX_BASELINES 256

static void usage(FILE *f)
{
	fprintf(f,
"Usage: dbench-ng check --baseline FILE... [CHECK OPTIONS] [RUN OPTIONS] NPROCS\n"
"Run the benchmark and compare it with stored baseline results, for\n"
"git bisect run: exit 0 good, 1 regressed, 125 cannot decide.\n"
"\n"
"  --baseline FILE...   baseline results (dbench-ng JSON or dbench logs);\n"
"                       repeat the option or list several files after it\n"
"  --min-runs N         candidate runs before the first decision (5)\n"
"  --max-runs N         give up (exit 125) after this many (12)\n"
"  --metrics LIST       compare only these (see dbench-ng compare)\n"
"  --noise PCT          relative noise floor in percent (5)\n"
"  --verbose            show each run's output on stderr\n"
"  -h, --help           this text\n"
"RUN OPTIONS are those of a run (-t, -D, -c, -s, ...; see --help).\n");
}

static bool is_file(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISREG(st.st_mode);
}

static int parse_int(const char *opt, const char *s, int min, int max,
		     int *out)
{
	int64_t v;

	if (num_i64(s ? s : "", 0, min, max, &v) != NUM_OK) {
		fprintf(stderr, "dbench-ng check: %s: '%s' is not a whole "
			"number in %d..%d\n", opt, s ? s : "", min, max);
		return -1;
	}
	*out = (int)v;
	return 0;
}

int check_main(int argc, char **argv)
{
	static const char *base_names[MAX_BASELINES];
	struct result *base[MAX_BASELINES] = { 0 }, **cand = NULL;
	int nb = 0, nc = 0, min_runs = 5, max_runs = 12, noise_pct = 5;
	int rargc = 1, st = CHECK_SKIP;
	char **rargv = calloc((size_t)argc + 1, sizeof(char *));
	static struct run_ctx rc;
	struct cmp_report *rep = NULL;
	struct cmp_opts o;
	bool verbose = false, done, setup = false;
	char err[1024];
	FILE *null = NULL;

	cmp_opts_default(&o);
	if (!rargv)
		return CHECK_SKIP;
	rargv[0] = "dbench-ng";
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			free(rargv);
			return 0;
		} else if (!strcmp(a, "--baseline") ||
			   !strncmp(a, "--baseline=", 11)) {
			int first = 1;

			if (a[10] == '=')
				base_names[nb++] = a + 11;
			/* the files after it, while they are files */
			while (i + 1 < argc && argv[i + 1][0] != '-' &&
			       (first || is_file(argv[i + 1])) &&
			       nb < MAX_BASELINES && a[10] != '=') {
				base_names[nb++] = argv[++i];
				first = 0;
			}
		} else if (!strcmp(a, "--min-runs")) {
			if (parse_int(a, i + 1 < argc ? argv[++i] : NULL, 1,
				      1000, &min_runs))
				goto out;
		} else if (!strcmp(a, "--max-runs")) {
			if (parse_int(a, i + 1 < argc ? argv[++i] : NULL, 1,
				      1000, &max_runs))
				goto out;
		} else if (!strcmp(a, "--noise")) {
			if (parse_int(a, i + 1 < argc ? argv[++i] : NULL, 0,
				      1000, &noise_pct))
				goto out;
		} else if (!strcmp(a, "--metrics")) {
			if (i + 1 >= argc ||
			    cmp_filter_check(argv[i + 1], err, sizeof(err))) {
				fprintf(stderr, "dbench-ng check: %s\n",
					i + 1 >= argc ? "--metrics needs a list"
						      : err);
				goto out;
			}
			o.metric_filter = argv[++i];
		} else if (!strcmp(a, "--verbose")) {
			verbose = true;
		} else {
			rargv[rargc++] = argv[i];
		}
	}
	if (!nb) {
		fprintf(stderr, "dbench-ng check: no --baseline given (see "
			"dbench-ng check --help)\n");
		goto out;
	}
	if (min_runs > max_runs)
		max_runs = min_runs;
	o.noise = noise_pct / 100.0;
	for (int i = 0; i < nb; i++) {
		if (result_load(base_names[i], &base[i], err, sizeof(err))) {
			fprintf(stderr, "dbench-ng check: %s\n", err);
			goto out;
		}
	}

	st = run_setup(&rc, rargc, rargv, &done);
	setup = true;
	if (st || done) {
		st = done ? 0 : CHECK_SKIP;
		goto out;
	}
	for (int i = 0; i < nb; i++) {
		const char *p = cmp_paths_of(base[i]);

		if (p && strcmp(p, rc.cfg.paths)) {
			cmp_paths_say(err, sizeof(err), base_names[i], p,
				      "this run", rc.cfg.paths);
			fprintf(stderr, "dbench-ng check: %s\n", err);
			st = CHECK_SKIP;
			goto out;
		}
	}
	rc.cfg.runs = max_runs;	/* --json names one file per run */
	st = run_start(&rc);
	if (st) {
		st = CHECK_SKIP;
		goto out;
	}
	null = verbose ? NULL : fopen("/dev/null", "w");
	rc.out = rc.cfg.out = verbose ? stderr : null ? null : stderr;
	cand = calloc((size_t)max_runs, sizeof(*cand));
	if (!cand)
		goto out;

	st = CHECK_SKIP;
	for (int run = 1; run <= max_runs; run++) {
		struct result *res;
		int rst = run_one(&rc, run, &res);

		if (rst) {
			result_free(res);
			st = rst >= 128 ? rst : CHECK_SKIP;
			printf("cannot decide: run %d failed (exit %d)\n", run,
			       rst);
			goto out;
		}
		cand[nc++] = res;
		fprintf(stderr, "check: run %d: Throughput %g MB/sec, "
			"max_latency %.3f ms\n", run, res->throughput,
			res->max_latency_ms);
		if (nc < min_runs)
			continue;
		cmp_free(rep);
		rep = cmp_run_named(base, nb, cand, nc, base_names, NULL, &o);
		if (!rep) {
			printf("cannot decide: out of memory\n");
			goto out;
		}
		if (cmp_mode(rep) == CMP_MODE_TEST) {
			if (cmp_verdict(rep)) {
				st = 1;
				break;
			}
			if (!cmp_unclear(rep)) {
				st = 0;
				break;
			}
			continue;	/* unclear: another run may settle it */
		}
		/* too few runs for a test: add runs while that can help;
		 * otherwise (one baseline run, or significance out of reach
		 * even at --max-runs) the thresholds decide */
		if (cmp_mode(rep) == CMP_MODE_SMALL_N &&
		    cmp_cand_runs_needed(rep) &&
		    cmp_cand_runs_needed(rep) <= max_runs)
			continue;
		st = cmp_verdict(rep);
		break;
	}
	if (rep) {
		cmp_print(stderr, rep);
		if (st == CHECK_SKIP)
			printf("cannot decide after %d runs: %s\n", nc,
			       cmp_reason(rep));
		else
			printf("%s\n", cmp_reason(rep));
	}
out:
	fflush(stdout);
	cmp_free(rep);
	for (int i = 0; i < nb; i++)
		result_free(base[i]);
	for (int i = 0; i < nc; i++)
		result_free(cand[i]);
	free(cand);
	if (setup)
		run_teardown(&rc);
	if (null)
		fclose(null);
	free(rargv);
	return st;
}
