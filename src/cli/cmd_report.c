/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cmd_report.c - the "report" subcommand: load a stored result (a
 * dbench-ng JSON file or a dbench text log) and render it again, as text
 * and optionally as an HTML page.
 */
#include "commands.h"

#include <getopt.h>
#include <stdio.h>

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
		"Usage: dbench-ng report FILE [--percentiles P,P,...] "
		"[--html OUT.html]\n"
		"Re-render a stored result: a dbench-ng JSON file (--json) or "
		"a dbench\ntext log (the stdout of dbench 4.0 or dbench-ng).\n"
		"\n"
		"      --percentiles=LIST  columns of the percentile table\n"
		"                          (default %s)\n"
		"      --html=FILE         also write an HTML report with plots\n"
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
			return unknown_option("dbench-ng report", argv[optind - 1],
					      opts, "dbench-ng report --help");
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
