/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cmd_report.c - the "report" subcommand: load a stored result (a
 * dbench-ng JSON file or a dbench text log) and render it again, as text
 * and optionally as an HTML page; several results, each as text and all
 * on one page, overlaid.
 */
#include "commands.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "report_html.h"
#include "report_text.h"
#include "result.h"
#include "result_json.h"
#include "suggest.h"

static void report_usage(FILE *f)
{
	char pcts[64];

	report_pcts_default(pcts, sizeof(pcts));
	fprintf(f,
		"Usage: dbench-ng report FILE... [--percentiles P,P,...] "
		"[--html OUT.html]\n"
		"Re-render a stored result: a dbench-ng JSON file (--json) or "
		"a dbench\ntext log (the stdout of dbench 4.0 or dbench-ng).  "
		"Several FILEs: each one's\nreport in turn, and one page with "
		"them overlaid in the order given\n(a series of runs, a "
		"bisect's steps).\n"
		"\n"
		"      --percentiles=LIST  columns of the percentile table\n"
		"                          (default %s)\n"
		"      --html=FILE         also write an HTML report with "
		"plots\n"
		"  -h, --help              this text\n",
		pcts);
}

int report_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"percentiles", required_argument, NULL, 'p'},
		{"html", required_argument, NULL, 'H'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct report_pcts pcts, *pp = NULL;
	const char *html = NULL;
	struct html_run *runs;
	char err[1024];
	int c, n, rc = 2;

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
			return unknown_option("dbench-ng report", argv[optind - 1],
					      opts, "dbench-ng report --help");
		}
	}
	n = argc - optind;
	if (n < 1) {
		fprintf(stderr, "dbench-ng report: missing FILE (see dbench-ng "
				"report --help)\n");
		return 2;
	}
	runs = calloc((size_t)n, sizeof(*runs));
	if (!runs) {
		fprintf(stderr, "dbench-ng report: out of memory\n");
		return 2;
	}
	for (int i = 0; i < n; i++) {
		struct result *r;

		if (result_load(argv[optind + i], &r, err, sizeof(err))) {
			fprintf(stderr, "dbench-ng report: %s\n", err);
			goto out;
		}
		runs[i] = (struct html_run){r, argv[optind + i], 0};
	}
	for (int i = 0; i < n; i++) {
		if (n > 1) /* the file's name is the user's own argument */
			printf("%s==> report %d of %d <==\n", i ? "\n" : "",
			       i + 1, n);
		report_text(stdout, runs[i].r, pp);
	}
	rc = 0;
	if (html &&
	    (n == 1 ? report_html_file(runs[0].r, html, err, sizeof(err))
		    : report_html_series_file(runs, n, html, err,
					      sizeof(err)))) {
		fprintf(stderr, "dbench-ng report: %s\n", err);
		rc = 3;
	}
out:
	for (int i = 0; i < n; i++)
		result_free((struct result *)runs[i].r);
	free(runs);
	return rc;
}
