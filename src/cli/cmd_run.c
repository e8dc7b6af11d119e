/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cmd_run.c - the "run" subcommand: everything a run needs is checked here,
 * before anything is printed or any client is forked; then one or
 * --runs N runs, their JSON results and the spread between them.
 */
#include "cmd_run.h"
#include "commands.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "after_run.h"
#include "backend.h"
#include "registry.h"
#include "builtin.h"
#include "checkpoint.h"
#include "env.h"
#include "file_replace.h"
#include "loadfile.h"
#include "report_text.h"
#include "result.h"
#include "result_json.h"
#include "runner.h"
#include "stock.h"
#include "stopsig.h"
#include "version.h"

/* A refusal of the run: on stderr as "dbench-ng: MESSAGE", and MESSAGE
 * in @rc->why for a caller that says why elsewhere too (check) */
static void refuse(struct run_ctx *rc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void refuse(struct run_ctx *rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rc->why, sizeof(rc->why), fmt, ap);
	va_end(ap);
	fprintf(stderr, "dbench-ng: %s\n", rc->why);
}

/* Parse every loadfile of the comma list @spec into @progs; @stock: @spec
 * is the default stock_default() found, which a message says. */
static int load_programs(struct run_ctx *rc, const char *spec, bool stock,
			 struct program **progs, int *n)
{
	char err[1024];
	char *list = strdup(spec), *save = NULL, *name;

	if (!list) {
		refuse(rc, "out of memory");
		return -1;
	}
	*n = 0;
	for (name = strtok_r(list, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		const char *text;
		size_t len;
		int st;

		if (*n == RUN_MAX_LOADFILES) {
			refuse(rc, "-c: more than %d loadfiles",
			       RUN_MAX_LOADFILES);
			goto fail;
		}
		text = builtin_find(name, &len);
		if (text)
			st = lf_parse_buffer(name, text, len, &progs[*n], err,
					     sizeof(err));
		else
			st = lf_parse_file(name, &progs[*n], err, sizeof(err));
		if (st) {
			refuse(rc, "%s%s", err,
			       stock ? " (the loadfile of a run without -c, "
				       "found where dbench 4.0 installs its "
				       "client.txt; -c " BUILTIN_NETBENCH
				       " runs the built-in workload)"
				     : "");
			goto fail;
		}
		(*n)++;
	}
	if (!*n) {
		refuse(rc, "-c: no loadfile named in '%s'", spec);
		goto fail;
	}
	free(list);
	return 0;
fail:
	free(list);
	return -1;
}

/* The BE_CAN_* bits the options of @cfg ask of the backend. */
static unsigned int backend_requests(const struct config *cfg)
{
	return (cfg->sync_open ? BE_CAN_SYNC_OPEN : 0) |
	       (cfg->sync_dirs ? BE_CAN_SYNC_DIRS : 0) |
	       (cfg->fsync_writes ? BE_CAN_FSYNC : 0) |
	       (cfg->xattr ? BE_CAN_XATTR : 0) |
	       (cfg->no_resolve ? BE_CAN_NO_RESOLVE : 0) |
	       (cfg->stat_check ? BE_CAN_STAT_CHECK : 0) |
	       (cfg->one_byte_fix ? BE_CAN_ONE_BYTE_FIX : 0) |
	       (!strcmp(cfg->paths, "dirfd") ? BE_CAN_DIRFD : 0) |
	       (cfg->allow_races ? BE_ALLOW_SYMLINK_RACES : 0);
}

/* A copy of @arg for the result, with the value of a secret backend
 * option in it (a password: opt_secrets) as "(secret)". */
static char *masked_arg(const char *arg)
{
	const char *const *sec;
	int n = opt_secrets(&sec);
	size_t len = strlen(arg);

	for (int i = 0; i < n; i++) {
		uintptr_t p = (uintptr_t)sec[i], a = (uintptr_t)arg;
		size_t at = (size_t)(p - a);
		char *s;

		if (p < a || p > a + len)
			continue;
		s = malloc(at + sizeof("(secret)"));
		if (s)
			snprintf(s, at + sizeof("(secret)"), "%.*s(secret)",
				 (int)at, arg);
		return s;
	}
	return strdup(arg);
}

/* What the result records about the run before it starts. */
static int describe_run(struct result *res, const struct config *cfg,
			const struct backend *be, int argc, char **argv,
			struct program **progs, int nprogs)
{
	char err[512], when[32];
	time_t now = time(NULL);
	struct tm tm;
	struct result_env *env = &res->env;

	res->tool = strdup("dbench-ng");
	res->version = strdup(dbng_version);
	res->commit = dbng_commit[0] ? strdup(dbng_commit) : NULL;
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	res->start_time = strdup(when);
	res->argv = calloc((size_t)argc, sizeof(char *));
	if (!res->tool || !res->version || !res->start_time || !res->argv ||
	    (dbng_commit[0] && !res->commit))
		return -1;
	for (int i = 0; i < argc; i++) {
		res->argv[i] = masked_arg(argv[i]);
		if (!res->argv[i])
			return -1;
		res->argc = i + 1;
	}
	res->cfg = *cfg;
	/* the filesystem of -D only for a backend that works beneath it */
	if (env_capture(env, be->caps & BE_USES_DIR ? cfg->dir : NULL, err,
			sizeof(err)))
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

/* The JSON file of run @run into @path: FILE, or with --runs N FILE with
 * "-RUN" before its extension (r.json -> r-1.json, r-2.json, ...). */
static void json_name(const struct config *cfg, int run, char *path, size_t len)
{
	const char *dot, *slash;

	if (cfg->runs == 1) {
		snprintf(path, len, "%s", cfg->json);
		return;
	}
	dot = strrchr(cfg->json, '.');
	slash = strrchr(cfg->json, '/');
	if (!dot || (slash && dot < slash) || dot == cfg->json)
		dot = cfg->json + strlen(cfg->json);
	snprintf(path, len, "%.*s-%d%s", (int)(dot - cfg->json), cfg->json, run,
		 dot);
}

/* Is @path inside DIR/clients (or DIR/clients itself), which the clean-up
 * removes?  Decided on the real paths of the directories, so that ".."
 * and symlinks do not hide it. */
static bool json_in_tree(const char *dir, const char *path)
{
	char *copy = strdup(path), *slash, *base, *rp = NULL;
	char *rdir = realpath(dir, NULL), clients[4096];
	size_t n;
	bool in = false;

	if (!copy || !rdir)
		goto out;
	slash = strrchr(copy, '/');
	base = slash ? slash + 1 : copy;
	if (slash)
		*slash = 0;
	rp = realpath(!slash ? "." : *copy ? copy : "/", NULL);
	if (!rp)
		goto out;
	n = (size_t)snprintf(clients, sizeof(clients), "%s/clients",
			     strcmp(rdir, "/") ? rdir : "");
	in = (!strncmp(rp, clients, n) && (!rp[n] || rp[n] == '/')) ||
	     (!strcmp(rp, rdir) && !strcmp(base, "clients"));
out:
	free(rp);
	free(rdir);
	free(copy);
	return in;
}

/* Check run @run's JSON path and create its temporary file, before any
 * client is forked: a bad path is refused (exit 2) before the work. */
static int json_begin(struct run_ctx *rc, int run)
{
	const struct config *cfg = &rc->cfg;
	char err[1024];

	if (!cfg->json)
		return 0;
	json_name(cfg, run, rc->json_path, sizeof(rc->json_path));
	if (strcmp(cfg->json, "-") && json_in_tree(cfg->dir, rc->json_path)) {
		refuse(rc,
		       "--json %s: inside %s/clients, "
		       "which the run removes; write it elsewhere",
		       rc->json_path, cfg->dir);
		return 2;
	}
	if (file_replace_begin(&rc->json, rc->json_path, "--json", err,
			       sizeof(err))) {
		refuse(rc, "%s", err);
		return 2;
	}
	return 0;
}

/* Write the JSON result of the run into the file json_begin() made. */
static int json_end(struct run_ctx *rc, const struct result *res)
{
	char err[1024];

	if (result_write_json_pending(res, &rc->json, err, sizeof(err))) {
		fprintf(stderr, "dbench-ng: %s\n", err);
		return -1;
	}
	return 0;
}

int run_setup(struct run_ctx *rc, int argc, char **argv, bool *done)
{
	char err[1024];
	bool stock = false;
	const char *const *kv;
	int nkv;

	memset(rc, 0, sizeof(*rc));
	rc->json.tmp = NULL;
	rc->json.fd = -1;
	*done = false;
	/* no signal is held yet: reading the options and loadfiles can
	 * block (a FIFO), and a signal then ends the program, which has
	 * touched nothing; run_start() blocks them */
	rc->argc = argc;
	rc->argv = argv;
	switch (opt_parse(argc, argv, &rc->cfg, rc->why, sizeof(rc->why))) {
	case OPT_EXIT_OK:
		*done = true;
		return 0;
	case OPT_ERROR:
		return 2;
	case OPT_RUN:
		break;
	}
	rc->be = backend_find(rc->cfg.backend);
	if (!rc->be && backend_unavailable(rc->cfg.backend, err, sizeof(err))) {
		refuse(rc,
		       "-B %s: this build has no '%s' backend: "
		       "pkg-config did not find its library (apt-get install "
		       "%s, then make again)",
		       rc->cfg.backend, rc->cfg.backend, err);
		return 3;
	}
	if (!rc->be) {
		refuse(rc, "-B: unknown backend '%s' (known: %s)",
		       rc->cfg.backend, backend_names());
		return 2;
	}
	rc->be_run.dir = rc->cfg.dir;
	rc->be_run.nclients = rc->cfg.nclients;
	rc->be_run.req = backend_requests(&rc->cfg);
	nkv = opt_backend_options(&kv);
	if (backend_options(rc->be, kv, nkv, &rc->be_opts, err, sizeof(err)) ||
	    backend_check(rc->be, NULL, rc->be_run.req, err, sizeof(err))) {
		refuse(rc, "%s", err);
		return 2;
	}
	rc->be_run.opts = rc->be_opts;
	if (backend_options_text(rc->be, rc->be_opts, rc->be_opts_text,
				 sizeof(rc->be_opts_text))) {
		refuse(rc,
		       "-o: the backend's options are "
		       "longer than %zu bytes",
		       sizeof(rc->be_opts_text) - 1);
		return 2;
	}
	rc->cfg.backend_version = (int)rc->be->version;
	rc->cfg.backend_opts = rc->be_opts_text[0] ? rc->be_opts_text : NULL;
	if (rc->cfg.runs > 1 && rc->cfg.json && !strcmp(rc->cfg.json, "-")) {
		refuse(rc, "--json - takes one run; give a "
			   "file name with --runs (one file per run)");
		return 2;
	}
	if (!rc->cfg.loadfile) /* no -c: dbench 4.0's, else the built-in */
		rc->cfg.loadfile =
			stock_default(&stock, rc->note, sizeof(rc->note));
	if (load_programs(rc, rc->cfg.loadfile, stock, rc->progs, &rc->nprogs))
		return 2;
	for (int i = 0; i < rc->nprogs; i++) {
		if (backend_check(rc->be, rc->progs[i], rc->be_run.req, err,
				  sizeof(err))) {
			refuse(rc, "%s", err);
			return 2;
		}
	}
	rc->out = opt_out(&rc->cfg);
	setvbuf(rc->out, NULL, _IOLBF, 0);
	return 0;
}

int run_start(struct run_ctx *rc)
{
	char err[1024];
	int st;

	/* from here a signal is held until the runner's signalfd takes
	 * it: an interrupted run, with its message and results, never a
	 * silent death (the children unblock them again) */
	stopsig_block();
	st = json_begin(rc, 1);
	if (st)
		return st;
	/* before init: fileio's may move the run into a mount namespace */
	env_keep_mountinfo();
	if (rc->be->init) {
		st = rc->be->init(&rc->be_run, err, sizeof(err));
		if (st) {
			refuse(rc, "%s", err);
			file_replace_abort(&rc->json);
			return st;
		}
	}
	/* said once everything else was accepted: a refused command line
	 * stays one line */
	if (rc->note[0])
		fprintf(stderr, "dbench-ng: %s\n", rc->note);
	return 0;
}

int run_one(struct run_ctx *rc, int run, struct result **out)
{
	const struct config *cfg = &rc->cfg;
	struct result *res = result_new();
	struct checkpoint *ck = NULL;
	struct after_run after;
	char err[1024];
	bool measured;
	int st, sig;

	*out = NULL;
	/* run_start() began run 1's file; a run made again (check makes a
	 * busy run again, the same number) begins its file anew */
	if ((run > 1 || (!rc->json.tmp && rc->json.fd < 0)) &&
	    (st = json_begin(rc, run))) {
		result_free(res);
		return st;
	}
	if (run > 1 && rc->be->init) {	/* a fresh DIR/clients */
		st = rc->be->init(&rc->be_run, err, sizeof(err));
		if (st) {
			fprintf(stderr, "dbench-ng: %s\n", err);
			file_replace_abort(&rc->json);
			result_free(res);
			return st;
		}
	}
	if (!res || describe_run(res, cfg, rc->be, rc->argc, rc->argv, rc->progs,
				 rc->nprogs)) {
		fprintf(stderr, "dbench-ng: out of memory\n");
		file_replace_abort(&rc->json);
		result_free(res);
		return 3;
	}
	if (cfg->runs > 1)
		fprintf(rc->out, "%s==> run %d of %d\n", run > 1 ? "\n" : "",
			run, cfg->runs);
	fprintf(rc->out, "dbench-ng version %s - compatible with dbench "
		"4.00\n\n", dbng_version);
	fprintf(rc->out, "Running for %d seconds with load '%s' and minimum "
		"warmup %d secs\n", cfg->timelimit, cfg->loadfile, cfg->warmup);
	/* the file holds the run so far while it runs: a kill leaves the
	 * last checkpoint (not on stdout) */
	if (cfg->json && strcmp(cfg->json, "-"))
		ck = ckpt_start(rc->json_path, res);
	st = runner_run(cfg, rc->out, rc->progs, rc->nprogs, rc->be,
			&rc->be_run, rc->coord, ck, res, &measured);
	/* a signal from here is said and ends the program once the
	 * report and the JSON are done (a second: at once) */
	after_run_begin(&after, st, cfg->json ? &rc->json : NULL);
	if (measured) {
		/* with --runs only report_spread() prints dbench's table */
		report_text_run(rc->out, res, NULL, cfg->runs > 1 ? run : 0,
				cfg->runs);
		fflush(rc->out);
	}
	ckpt_stop(ck); /* none lands after the final write */
	/* a failed or interrupted run still leaves what it measured */
	if (cfg->json && json_end(rc, res))
		st = st ? st : 3;
	ckpt_free(ck);
	sig = after_run_end(&after);
	if (sig && !st)
		st = 128 + sig;
	*out = res;
	return st;
}

void run_teardown(struct run_ctx *rc)
{
	file_replace_abort(&rc->json);
	for (int i = 0; i < rc->nprogs; i++)
		lf_free(rc->progs[i]);
	rc->nprogs = 0;
	free(rc->be_opts);
	rc->be_opts = NULL;
}

int run_main(int argc, char **argv)
{
	static struct run_ctx rc;
	struct spread_run *runs;
	int st, nruns = 0;
	bool done;

	st = run_setup(&rc, argc, argv, &done);
	if (!st && !done)
		st = run_start(&rc);
	if (st || done) {
		run_teardown(&rc);
		return st;
	}
	/* what the spread needs of each run, not its result: the memory
	 * of --runs stays flat however many runs */
	runs = calloc((size_t)rc.cfg.runs, sizeof(*runs));
	if (!runs) {
		fprintf(stderr, "dbench-ng: out of memory\n");
		run_teardown(&rc);
		return 3;
	}
	for (int run = 1; run <= rc.cfg.runs && !st; run++) {
		struct result *res;

		st = run_one(&rc, run, &res);
		if (res && rc.cfg.runs > 1 && res->status == RESULT_OK)
			report_spread_take(&runs[nruns++], res);
		result_free(res);
	}
	/* the one result of --runs, when every run gave one */
	if (nruns > 1 && nruns == rc.cfg.runs && !st) {
		report_spread(rc.out, runs, nruns);
		fflush(rc.out);
	}
	free(runs);
	run_teardown(&rc);
	return st;
}
