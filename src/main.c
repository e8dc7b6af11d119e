/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * main.c - entry point and subcommands:
 *   dbench-ng [run] [OPTIONS] NPROCS     run the benchmark (dbench's CLI)
 *   dbench-ng report FILE [...]          re-render a stored result
 * Everything a run needs is checked here, before anything is printed or
 * any client is forked.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend.h"
#include "builtin.h"
#include "env.h"
#include "loadfile.h"
#include "options.h"
#include "report_html.h"
#include "report_text.h"
#include "result.h"
#include "result_json.h"
#include "runner.h"
#include "version.h"

#define MAX_LOADFILES 1024

/* Parse every loadfile of the comma list @spec into @progs. */
static int load_programs(const char *spec, struct program **progs, int *n)
{
	char err[1024];
	char *list = strdup(spec), *save = NULL, *name;

	if (!list) {
		fprintf(stderr, "dbench-ng: out of memory\n");
		return -1;
	}
	*n = 0;
	for (name = strtok_r(list, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		const char *text;
		size_t len;
		int rc;

		if (*n == MAX_LOADFILES) {
			fprintf(stderr, "dbench-ng: -c: more than %d loadfiles\n",
				MAX_LOADFILES);
			goto fail;
		}
		text = builtin_find(name, &len);
		if (text)
			rc = lf_parse_buffer(name, text, len, &progs[*n], err,
					     sizeof(err));
		else
			rc = lf_parse_file(name, &progs[*n], err, sizeof(err));
		if (rc) {
			fprintf(stderr, "dbench-ng: %s\n", err);
			goto fail;
		}
		(*n)++;
	}
	if (!*n) {
		fprintf(stderr, "dbench-ng: -c: no loadfile named in '%s'\n",
			spec);
		goto fail;
	}
	free(list);
	return 0;
fail:
	free(list);
	return -1;
}

/* What the result records about the run before it starts. */
static int describe_run(struct result *res, const struct config *cfg,
			int argc, char **argv, struct program **progs,
			int nprogs)
{
	char err[512], when[32];
	time_t now = time(NULL);
	struct result_env *env = &res->env;

	res->tool = strdup("dbench-ng");
	res->version = strdup(dbng_version);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	res->start_time = strdup(when);
	res->argv = calloc((size_t)argc, sizeof(char *));
	if (!res->tool || !res->version || !res->start_time || !res->argv)
		return -1;
	for (int i = 0; i < argc; i++) {
		res->argv[i] = strdup(argv[i]);
		if (!res->argv[i])
			return -1;
		res->argc = i + 1;
	}
	res->cfg = *cfg;
	if (env_capture(env, cfg->dir, err, sizeof(err)))
		fprintf(stderr, "dbench-ng: environment: %s\n", err);
	env->loadfile_name = calloc((size_t)nprogs, sizeof(char *));
	env->loadfile_sha256 = calloc((size_t)nprogs, sizeof(char *));
	if (!env->loadfile_name || !env->loadfile_sha256)
		return -1;
	for (int i = 0; i < nprogs; i++) {
		env->loadfile_name[i] = strdup(progs[i]->name);
		env->loadfile_sha256[i] = strdup(progs[i]->sha256);
		env->nloadfiles = i + 1;
	}
	return 0;
}

/* Write the JSON result of run @run: FILE, or with --runs N FILE with
 * "-RUN" before its extension (r.json -> r-1.json, r-2.json, ...). */
static int write_json(const struct result *res, const struct config *cfg,
		      int run)
{
	char path[4096], err[1024];
	const char *dot, *slash;

	if (cfg->runs == 1) {
		snprintf(path, sizeof(path), "%s", cfg->json);
	} else {
		dot = strrchr(cfg->json, '.');
		slash = strrchr(cfg->json, '/');
		if (!dot || (slash && dot < slash) || dot == cfg->json)
			dot = cfg->json + strlen(cfg->json);
		snprintf(path, sizeof(path), "%.*s-%d%s",
			 (int)(dot - cfg->json), cfg->json, run, dot);
	}
	if (result_write_json(res, path, err, sizeof(err))) {
		fprintf(stderr, "dbench-ng: %s\n", err);
		return -1;
	}
	return 0;
}

static int cmd_run(int argc, char **argv)
{
	static struct program *progs[MAX_LOADFILES];
	const struct backend_ops *be;
	struct result **runs = NULL;
	struct config cfg;
	char err[1024];
	int nprogs = 0, rc, nruns = 0;
	FILE *out;

	switch (opt_parse(argc, argv, &cfg)) {
	case OPT_EXIT_OK:
		return 0;
	case OPT_ERROR:
		return 2;
	case OPT_RUN:
		break;
	}
	be = backend_find(cfg.backend);
	if (!be) {
		fprintf(stderr,
			"dbench-ng: -B: unknown backend '%s' (known: %s)\n",
			cfg.backend, backend_names());
		return 2;
	}
	if (load_programs(cfg.loadfile, progs, &nprogs))
		return 2;
	for (int i = 0; i < nprogs; i++) {
		if (backend_check(be, progs[i], err, sizeof(err))) {
			fprintf(stderr, "dbench-ng: %s\n", err);
			return 2;
		}
	}
	if (be->init) {
		rc = be->init(&cfg, err, sizeof(err));
		if (rc) {
			fprintf(stderr, "dbench-ng: %s\n", err);
			return rc;
		}
	}
	runs = calloc((size_t)cfg.runs, sizeof(*runs));
	if (!runs) {
		fprintf(stderr, "dbench-ng: out of memory\n");
		return 3;
	}
	if (cfg.runs > 1 && cfg.json && !strcmp(cfg.json, "-")) {
		fprintf(stderr, "dbench-ng: --json - takes one run; give a "
			"file name with --runs (one file per run)\n");
		return 2;
	}
	out = opt_out(&cfg);
	setvbuf(out, NULL, _IOLBF, 0);
	rc = 0;
	for (int run = 1; run <= cfg.runs && !rc; run++) {
		struct result *res = result_new();

		if (run > 1 && be->init) {	/* a fresh DIR/clients */
			rc = be->init(&cfg, err, sizeof(err));
			if (rc) {
				fprintf(stderr, "dbench-ng: %s\n", err);
				break;
			}
		}
		if (!res ||
		    describe_run(res, &cfg, argc, argv, progs, nprogs)) {
			fprintf(stderr, "dbench-ng: out of memory\n");
			result_free(res);
			rc = 3;
			break;
		}
		if (cfg.runs > 1)
			fprintf(out, "%s==> run %d of %d\n", run > 1 ? "\n" : "",
				run, cfg.runs);
		fprintf(out, "dbench-ng version %s - compatible with dbench "
			"4.00\n\n", dbng_version);
		fprintf(out, "Running for %d seconds with load '%s' and "
			"minimum warmup %d secs\n", cfg.timelimit, cfg.loadfile,
			cfg.warmup);
		rc = runner_run(&cfg, progs, nprogs, be, res);

		/* a failed or interrupted run still leaves what it measured */
		if (cfg.json && write_json(res, &cfg, run))
			rc = rc ? rc : 3;
		if (cfg.runs > 1 && res->status == RESULT_OK)
			runs[nruns++] = res;
		else
			result_free(res);
	}
	if (nruns > 1) {
		report_spread(out, runs, nruns);
		fflush(out);
	}
	for (int i = 0; i < nruns; i++)
		result_free(runs[i]);
	free(runs);
	for (int i = 0; i < nprogs; i++)
		lf_free(progs[i]);
	return rc;
}

static void report_usage(FILE *f)
{
	fprintf(f,
		"Usage: dbench-ng report FILE [--percentiles P,P,...] "
		"[--html OUT.html]\n"
		"Re-render a stored result: a dbench-ng JSON file (--json) or "
		"a dbench\ntext log (the stdout of dbench 4.0 or dbench-ng).\n"
		"\n"
		"      --percentiles=LIST  columns of the percentile table\n"
		"                          (default 50,90,99,99.9)\n"
		"      --html=FILE         also write an HTML report with plots\n"
		"  -h, --help              this text\n");
}

static int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{"percentiles", required_argument, NULL, 'p'},
		{"html", required_argument, NULL, 'H'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct report_pcts pcts, *pp = NULL;
	const char *html = NULL;
	struct result *r;
	char err[1024];
	int c;

	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (report_pcts_parse(optarg, &pcts, err, sizeof(err))) {
				fprintf(stderr, "dbench-ng report: %s\n", err);
				return 2;
			}
			pp = &pcts;
			break;
		case 'H':
			html = optarg;
			break;
		case 'h':
			report_usage(stdout);
			return 0;
		case ':':
			fprintf(stderr, "dbench-ng report: option '%s' needs a "
				"value\n", argv[optind - 1]);
			return 2;
		default:
			fprintf(stderr, "dbench-ng report: unknown option '%s' "
				"(see dbench-ng report --help)\n",
				argv[optind - 1]);
			return 2;
		}
	}
	if (argc - optind != 1) {
		fprintf(stderr, "dbench-ng report: %s (see dbench-ng report "
			"--help)\n", argc - optind ? "one FILE at a time"
						   : "missing FILE");
		return 2;
	}
	if (result_load(argv[optind], &r, err, sizeof(err))) {
		fprintf(stderr, "dbench-ng report: %s\n", err);
		return 2;
	}
	report_text(stdout, r, pp);
	if (html && report_html_file(r, html, err, sizeof(err))) {
		fprintf(stderr, "dbench-ng report: %s\n", err);
		result_free(r);
		return 3;
	}
	result_free(r);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "report"))
		return cmd_report(argc - 1, argv + 1);
	return cmd_run(argc, argv);
}
