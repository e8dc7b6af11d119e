/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * main.c - entry point: "dbench-ng [OPTIONS] NPROCS" runs the benchmark
 * (also spelt "dbench-ng run ...").  Everything the run needs is checked
 * here, before anything is printed or any client is forked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "builtin.h"
#include "loadfile.h"
#include "options.h"
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
			fprintf(stderr,
				"dbench-ng: -c: more than %d "
				"loadfiles\n",
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

static int cmd_run(int argc, char **argv)
{
	static struct program *progs[MAX_LOADFILES];
	const struct backend_ops *be;
	struct config cfg;
	char err[1024];
	int nprogs = 0, rc;

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
			"dbench-ng: -B: unknown backend '%s' (known: "
			"%s)\n",
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

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("dbench-ng version %s - compatible with dbench 4.00\n\n",
	       dbng_version);
	printf("Running for %d seconds with load '%s' and minimum warmup %d "
	       "secs\n",
	       cfg.timelimit, cfg.loadfile, cfg.warmup);
	rc = runner_run(&cfg, progs, nprogs, be);
	for (int i = 0; i < nprogs; i++)
		lf_free(progs[i]);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	return cmd_run(argc, argv);
}
