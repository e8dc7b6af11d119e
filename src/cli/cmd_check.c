/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cmd_check.c - the "check" subcommand: decide one commit for "git
 * bisect run".
 *
 * Runs the benchmark --min-runs times, compares the candidate runs with
 * the baseline results (src/analysis: Mann-Whitney U, Holm, bootstrap CI,
 * noise floors), and while the answer is unclear adds runs one at a time
 * up to --max-runs.  Exit 0: no regression; 1: regressed; 125: this
 * commit cannot be judged (a run that failed, or an answer still unclear
 * after --max-runs) -- git bisect skips it; 255: the check itself is
 * wrong (its options, a baseline, the run options), the same on every
 * commit -- git bisect run stops instead of skipping them all.  One line
 * on stdout says why (the reason of a 255 also on stderr); the table
 * goes to stderr.  The runs' JSON results are kept (in a fresh
 * $TMPDIR/dbench-ng-check.XXXXXX, or as --json names them) and the line
 * ends with where.
 */
#include "commands.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_busy.h"
#include "cmd_run.h"
#include "compare.h"
#include "compare_workload.h"
#include "loadfile.h"
#include "num.h"
#include "result.h"
#include "result_json.h"
#include "suggest.h"

/* the commit cannot be judged: git bisect run skips it */
#define CHECK_SKIP 125
/* the check cannot work on any commit: git bisect run stops (it aborts
 * on a status over 127) */
#define CHECK_BAD     255
#define MAX_BASELINES 256

/* clang-format off */
static void usage(FILE *f)
{
	fprintf(f,
"Usage: dbench-ng check --baseline FILE... [CHECK OPTIONS] [RUN OPTIONS] NPROCS\n"
"Run the benchmark and compare it with stored baseline results, for\n"
"git bisect run: exit 0 good, 1 regressed, 125 cannot decide (skip the\n"
"commit), 255 bad input: options or a baseline (stop the bisection).\n"
"It looks after each run from --min-runs on and stops once the answer is\n"
"clear, alpha spent over the looks: a false alarm in at most 5 %% of\n"
"bisect steps, and good only once nothing is worse and the throughput is\n"
"shown not worse than the noise floor, so a commit that slows it by that\n"
"much passes in at most 5 %% too (docs/regressions.md).\n"
"\n"
"  --baseline FILE...   baseline results (dbench-ng JSON or dbench logs);\n"
"                       repeat the option or list several files after it\n"
"  --min-runs N         candidate runs before the first decision (5)\n"
"  --max-runs N         give up (exit 125) after this many (12)\n"
"  --metrics LIST       compare only these (see dbench-ng compare)\n"
"  --noise PCT          relative noise floor in percent (5)\n"
"  --verbose            show each run's output on stderr\n"
"  --busy-ok            decide on raw figures even on a busy machine (other\n"
"                       processes using 0.2 CPUs or more, or 2 %% steal):\n"
"                       by default runs that carry own latencies (BPF, as\n"
"                       root) are judged on them, a busy run without them\n"
"                       is made again, 3 tries, then 125, and a busy\n"
"                       baseline without them is refused (255)\n"
"  --json FILE          keep each run's JSON result as FILE-1.json ...\n"
"                       (FILE-RUN before its extension); without it they\n"
"                       are kept in a new $TMPDIR/dbench-ng-check.XXXXXX\n"
"                       (/tmp without $TMPDIR); the stdout line ends with\n"
"                       \"(runs kept in ...)\"\n"
"  --no-keep            keep no JSON result (unless --json)\n"
"  --mixed-workloads    check against baselines of other loadfiles all the\n"
"                       same (by default: bad input, 255)\n"
"  -h, --help           this text\n"
"RUN OPTIONS are those of a run (-t, -D, -c, -s, ...; see --help).\n");
}
/* clang-format on */

static bool is_file(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISREG(st.st_mode);
}

/*
 * bad - the user's mistake, the same on every commit: say @fmt on stdout
 * (the one line) and, unless the message is already there, on stderr;
 * CHECK_BAD, so that git bisect run stops rather than skip every commit.
 */
static int bad(bool on_stderr, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int bad(bool on_stderr, const char *fmt, ...)
{
	char msg[1280];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (on_stderr)
		fprintf(stderr, "dbench-ng check: %s\n", msg);
	printf("bad input: %s\n", msg);
	return CHECK_BAD;
}

static int parse_int(const char *opt, const char *s, int min, int max,
		     int *out)
{
	int64_t v;

	if (num_i64(s ? s : "", 0, min, max, &v) != NUM_OK)
		return bad(true, "%s: '%s' is not a whole number in %d..%d",
			   opt, s ? s : "", min, max);
	*out = (int)v;
	return 0;
}

/*
 * Where the runs' JSON results are kept: a directory of our own (made by
 * keep_dir(), removed again if no run wrote into it), or the names of
 * the user's --json, from the first run's to the last's.
 */
struct keep {
	char dir[4096];	  /* our directory, or "" */
	char tmpl[4200];  /* its --json template, DIR/run.json */
	char first[4096]; /* the user's --json file of run 1 */
};

/* keep_dir - a fresh $TMPDIR/dbench-ng-check.XXXXXX for the results, its
 * run.json the --json of @cfg; 0, or -1 with a message in @err */
static int keep_dir(struct keep *k, struct config *cfg, char *err, size_t len)
{
	const char *t = getenv("TMPDIR");

	if (!t || !*t)
		t = "/tmp";
	if (snprintf(k->dir, sizeof(k->dir), "%.4000s/dbench-ng-check.XXXXXX",
		     t) >= (int)sizeof(k->dir) ||
	    !mkdtemp(k->dir)) {
		snprintf(err, len,
			 "cannot create %.900s to keep the runs in: %m",
			 k->dir);
		k->dir[0] = 0;
		return -1;
	}
	snprintf(k->tmpl, sizeof(k->tmpl), "%s/run.json", k->dir);
	cfg->json = k->tmpl;
	return 0;
}

/* whether our directory holds a file; removed when it holds none (rmdir
 * removes only an empty directory) */
static bool keep_dir_used(struct keep *k)
{
	if (!k->dir[0])
		return false;
	if (rmdir(k->dir) && errno != ENOENT)
		return true;
	k->dir[0] = 0;
	return false;
}

static struct keep keep;
static struct run_ctx rc;

/*
 * say - the one line on stdout once runs were made: @fmt, then where the
 * runs are kept, " (runs kept in /tmp/dbench-ng-check.XXXXXX)" or
 * " (runs kept in r-1.json .. r-3.json)".
 */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (keep_dir_used(&keep))
		printf(" (runs kept in %s)", keep.dir);
	else if (keep.first[0] && is_file(keep.first) &&
		 strcmp(keep.first, rc.json_path))
		printf(" (runs kept in %s .. %s)", keep.first, rc.json_path);
	else if (keep.first[0] && is_file(keep.first))
		printf(" (run kept in %s)", keep.first);
	printf("\n");
}

/*
 * first_pass - whether the baselines alone have a metric to compare (with
 * --metrics, one it selects): 0, or CHECK_BAD after saying so.  Checked
 * before any run, so that a --metrics naming an op the loadfile does not
 * have stops the bisection instead of passing every commit.
 */
static int first_pass(struct result **base, int nb, const char *const *names,
		      const struct cmp_opts *o)
{
	struct cmp_opts q = *o;
	struct cmp_report *r;
	int n;

	q.boot_iters = 100; /* only the rows are wanted */
	r = cmp_run_named(base, nb, base, nb, names, names, &q);
	if (!r) {
		printf("cannot decide: out of memory\n");
		return CHECK_SKIP;
	}
	n = cmp_nrows(r);
	cmp_free(r);
	if (n)
		return 0;
	return bad(true, "no metric to compare: the baseline runs have %s",
		   o->metric_filter ? "none that --metrics selects"
				    : "no op in common");
}

/*
 * other_workload - whether the baselines, and they and this run, replay
 * the same loadfiles (compare_workload.h): 0, or CHECK_BAD after saying
 * which two differ.  Before any run: the same on every commit.
 */
static int other_workload(struct result **base, int nb,
			  const char *const *names)
{
	static const char *lf[RUN_MAX_LOADFILES], *sha[RUN_MAX_LOADFILES];
	struct cmp_workload me = {rc.nprogs, lf, sha, rc.cfg.loadfile};
	char err[1024];

	for (int i = 0; i < rc.nprogs; i++) {
		lf[i] = rc.progs[i]->name;
		sha[i] = rc.progs[i]->sha256;
	}
	if (!cmp_workloads_differ(base, names, nb, &me, "this run", err,
				  sizeof(err)))
		return 0;
	return bad(true, "%s (--mixed-workloads checks anyway)", err);
}

/* @a, no option of a run, close to one of check's ("--basline"): said,
 * with the one */
static bool mistyped(const char *a)
{
	static const struct option mine[] = {
		{"baseline", required_argument, NULL, 0},
		{"min-runs", required_argument, NULL, 0},
		{"max-runs", required_argument, NULL, 0},
		{"noise", required_argument, NULL, 0},
		{"metrics", required_argument, NULL, 0},
		{"verbose", no_argument, NULL, 0},
		{"busy-ok", no_argument, NULL, 0},
		{"no-keep", no_argument, NULL, 0},
		{"mixed-workloads", no_argument, NULL, 0},
		{"help", no_argument, NULL, 0},
		{NULL, 0, NULL, 0},
	};
	const char *near = suggest_option(a, mine);

	if (!near || opt_is_long(a))
		return false;
	bad(true, "unknown option '%s'; did you mean '--%s'?", a, near);
	return true;
}

int check_main(int argc, char **argv)
{
	static const char *base_names[MAX_BASELINES];
	struct result *base[MAX_BASELINES] = { 0 }, **cand = NULL;
	int nb = 0, nc = 0, min_runs = 5, max_runs = 12, noise_pct = 5;
	int rargc = 1, st = CHECK_BAD;
	char **rargv = calloc((size_t)argc + 1, sizeof(char *));
	struct cmp_report *rep = NULL;
	struct cmp_opts o;
	bool verbose = false, done, setup = false, busy_ok = false;
	bool keep_runs = true, mixed_wl = false;
	enum cmp_seq_step step_next;
	enum check_busy_step busy_step;
	struct check_busy busy = {0};
	char err[1024];
	FILE *null = NULL;

	cmp_opts_default(&o);
	if (!rargv) {
		printf("cannot decide: out of memory\n");
		return CHECK_SKIP;
	}
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
				bad(true, "%s",
				    i + 1 >= argc ? "--metrics needs a list"
						  : err);
				goto out;
			}
			o.metric_filter = argv[++i];
		} else if (!strcmp(a, "--verbose")) {
			verbose = true;
		} else if (!strcmp(a, "--busy-ok")) {
			busy_ok = true;
		} else if (!strcmp(a, "--no-keep")) {
			keep_runs = false;
		} else if (!strcmp(a, "--mixed-workloads")) {
			mixed_wl = true;
		} else if (mistyped(a)) {
			goto out;
		} else {
			rargv[rargc++] = argv[i];
		}
	}
	if (!nb) {
		bad(true, "no --baseline given (see dbench-ng check --help)");
		goto out;
	}
	if (min_runs > max_runs)
		max_runs = min_runs;
	o.noise = noise_pct / 100.0;
	for (int i = 0; i < nb; i++) {
		if (result_load(base_names[i], &base[i], err, sizeof(err))) {
			bad(true, "%s", err);
			goto out;
		}
		/* its figures stop where the run was when it was written */
		if (base[i]->status == RESULT_RUNNING) {
			bad(true,
			    "%s: a checkpoint of a run that had not ended "
			    "(status running: still running, or killed), not a "
			    "baseline",
			    base_names[i]);
			goto out;
		}
	}
	st = first_pass(base, nb, base_names, &o);
	if (st)
		goto out;

	/* the reason of a refusal is rc.why, for stdout too */
	st = run_setup(&rc, rargc, rargv, &done);
	setup = true;
	if (st) {
		/* refused options, loadfile (2), a backend this build lacks
		 * (3): the same on every commit */
		st = bad(false, "%s",
			 rc.why[0] ? rc.why : "the run options were refused");
		goto out;
	}
	if (done)
		goto out; /* the run's --help or --version: st 0 */
	for (int i = 0; i < nb; i++) {
		const char *p = cmp_paths_of(base[i]);

		if (p && strcmp(p, rc.cfg.paths)) {
			cmp_paths_say(err, sizeof(err), base_names[i], p,
				      "this run", rc.cfg.paths);
			st = bad(true, "%s", err);
			goto out;
		}
	}
	if (!mixed_wl && (st = other_workload(base, nb, base_names)))
		goto out;
	busy.ok = busy_ok;
	if (check_busy_baseline(&busy, base, base_names, nb, err,
				sizeof(err))) {
		st = bad(true, "%s", err);
		goto out;
	}
	rc.cfg.runs = max_runs; /* --json names one file per run */
	if (!rc.cfg.json && keep_runs &&
	    keep_dir(&keep, &rc.cfg, err, sizeof(err))) {
		/* $TMPDIR is the machine's, not the commit's: stop */
		st = bad(true, "%s (--no-keep runs without)", err);
		goto out;
	}
	st = run_start(&rc);
	if (!st && !keep.dir[0] && rc.cfg.json && strcmp(rc.cfg.json, "-"))
		snprintf(keep.first, sizeof(keep.first), "%s", rc.json_path);
	if (st)
		keep_dir_used(&keep); /* nothing was written: removed */
	if (st == 3) {
		/* the directory could not be prepared (DIR/clients cannot be
		 * created, ...): the system under test, not the command line */
		printf("cannot decide: %s\n",
		       rc.why[0] ? rc.why
				 : "the run could not be set up (exit 3)");
		st = CHECK_SKIP;
		goto out;
	}
	if (st) {
		/* a refused DIR or --json path (2): the same on every commit */
		st = bad(false, "%s",
			 rc.why[0] ? rc.why : "the run was refused");
		goto out;
	}
	null = verbose ? NULL : fopen("/dev/null", "w");
	rc.out = rc.cfg.out = verbose ? stderr : null ? null : stderr;
	st = CHECK_SKIP;
	cand = calloc((size_t)max_runs, sizeof(*cand));
	if (!cand) {
		printf("cannot decide: out of memory\n");
		goto out;
	}

	for (int run = 1; run <= max_runs; run++) {
		struct result *res;
		int rst = run_one(&rc, run, &res);

		if (rst) {
			result_free(res);
			/* interrupted (128 + the signal): stop the bisection
			 * too; a failed run is the commit's: skip it */
			st = rst >= 128 ? rst : CHECK_SKIP;
			if (rst >= 128)
				say("interrupted: run %d (exit %d)", run, rst);
			else
				say("cannot decide: run %d failed (exit %d)",
				    run, rst);
			goto out;
		}
		busy_step = check_busy_run(&busy, res, run, err, sizeof(err));
		if (busy_step == CHECK_BUSY_GIVE_UP) {
			say("cannot decide: %s", err);
			result_free(res);
			st = CHECK_SKIP;
			goto out;
		}
		if (busy_step == CHECK_BUSY_AGAIN) {
			result_free(res);
			run--; /* the same run again, the same --json name */
			continue;
		}
		cand[nc++] = res;
		fprintf(stderr, "check: run %d: Throughput %g MB/sec, "
			"max_latency %.3f ms\n", run, res->throughput,
			res->max_latency_ms);
		if (nc < min_runs)
			continue;
		cmp_free(rep);
		/* look nc - min_runs + 1 of the sequence: its share of alpha */
		o.look_alpha = cmp_seq_alpha(o.alpha, nc - min_runs + 1,
					     max_runs - min_runs + 1);
		rep = cmp_run_named(base, nb, cand, nc, base_names, NULL, &o);
		if (!rep) {
			say("cannot decide: out of memory");
			goto out;
		}
		if (!cmp_nrows(rep)) {
			/* the baselines have metrics (first_pass): the
			 * candidate never ran their ops */
			say("cannot decide: the candidate runs have no op "
			    "in common with the baseline%s",
			    o.metric_filter ? " that --metrics selects" : "");
			goto out;
		}
		step_next = cmp_seq_next(rep, nc, max_runs);
		if (step_next == CMP_SEQ_MORE)
			continue;
		st = step_next == CMP_SEQ_BAD	 ? 1
		     : step_next == CMP_SEQ_GOOD ? 0
						 : CHECK_SKIP;
		break;
	}
	if (rep) {
		cmp_print(stderr, rep);
		if (st == CHECK_SKIP)
			say("cannot decide after %d runs: %s", nc,
			    cmp_reason(rep));
		else
			say("%s", cmp_reason(rep));
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
