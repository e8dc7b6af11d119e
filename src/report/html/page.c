/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * page.c - a result as one self-contained HTML5 page: the head with the
 * CSS (page.css), the title, the summary cards, then the tables
 * (settings.c, op_tables.c, stalls.c) and inline SVG plots (plot_*.c).
 * No script, nothing fetched, every string from the result escaped, and
 * the same result always gives the same bytes.
 */
#include "html.h"
#include "report_html.h"
#include "report_text.h"

#include "file_replace.h"

#include <inttypes.h>

void html_head_open(FILE *f)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\"/>\n"
	      /* the page has no script and fetches nothing: should a
	       * string ever get past html_esc(), the browser still runs
	       * and loads nothing of it */
	      "<meta http-equiv=\"Content-Security-Policy\" "
	      "content=\"default-src 'none'; style-src 'unsafe-inline'\"/>\n"
	      "<meta name=\"viewport\" "
	      "content=\"width=device-width, initial-scale=1\"/>\n"
	      "<title>",
	      f);
}

void html_head_close(FILE *f)
{
	fputs("</title>\n<style>\n", f);
	fputs(html_css_text(), f);
	fputs("</style>\n</head>\n<body>\n<main>\n", f);
}

static void head(FILE *f, const struct result *r)
{
	html_head_open(f);
	html_esc(f, r->tool ? r->tool : "dbench-ng");
	fputs(" run ", f);
	if (r->start_time)
		html_esc(f, r->start_time);
	fprintf(f, ": %.2f MB/s, %s", r->throughput,
		result_status_name(r->status));
	html_head_close(f);
}

static void title(FILE *f, const struct result *r)
{
	const char *st = result_status_name(r->status);

	fputs("<header>\n<h1>", f);
	html_esc(f, r->tool ? r->tool : "dbench-ng");
	fputs(" ", f);
	html_str(f, r->version);
	if (r->commit) {
		fputs(" (commit ", f);
		html_esc(f, r->commit);
		fputs(")", f);
	}
	fprintf(f, " <span class=\"badge st-%s\">%s</span></h1>\n", st, st);
	fputs("<div class=\"sub\">started ", f);
	html_str(f, r->start_time);
	if (r->env.hostname) {
		fputs(" on ", f);
		html_esc(f, r->env.hostname);
	}
	fputs("</div>\n", f);

	if (r->status != RESULT_OK || r->nerrors) {
		fprintf(f, "<div class=\"banner st-%s\">",
			r->status == RESULT_OK ? "failed" : st);
		if (r->status == RESULT_INTERRUPTED && r->measured_s > 0)
			fprintf(f,
				"Interrupted by signal %d after %.1f s of "
				"measurement: partial results.",
				r->signal, r->measured_s);
		else if (r->status == RESULT_INTERRUPTED)
			fprintf(f,
				"Interrupted by signal %d during the warmup: "
				"the figures below are of the warmup.",
				r->signal);
		else if (r->status == RESULT_FAILED)
			fputs("The run failed: a client hit a fatal error and "
			      "the run was stopped; the figures cover what ran "
			      "until then.",
			      f);
		else if (r->status == RESULT_RUNNING)
			fprintf(f,
				"A checkpoint, written while the run ran: it "
				"was still running, or was killed.  Partial "
				"results: the first %.1f s after the release.",
				r->covers_s);
		else
			fputs("Errors were recorded.", f);
		if (r->nerrors) {
			fputs("\n<ul>\n", f);
			for (int i = 0; i < r->nerrors; i++) {
				fputs("<li class=\"mono\">", f);
				html_str(f, r->errors[i]);
				fputs("</li>\n", f);
			}
			fputs("</ul>", f);
		}
		fputs("</div>\n", f);
	}
	if (r->argc > 0) {
		fputs("<div class=\"cmd mono\">$", f);
		for (int i = 0; i < r->argc; i++) {
			fputs(" ", f);
			if (r->argv[i])
				html_shell_word(f, r->argv[i]);
		}
		fputs("</div>\n", f);
	}
	fputs("</header>\n", f);
}

static void card_open(FILE *f, const char *key)
{
	fprintf(f,
		"<div class=\"card\"><div class=\"k\">%s</div>"
		"<div class=\"v\">",
		key);
}

static void summary(FILE *f, const struct result *r)
{
	const struct config *c = &r->cfg;
	uint64_t total = 0;

	for (int i = 0; i < OP_NR; i++) {
		if (op_is_timed(i))
			total += r->op[i].h.count;
	}
	fputs("<h2>Summary</h2>\n<div class=\"cards\">\n", f);
	card_open(f, "Throughput");
	fprintf(f, "%.2f MB/s</div></div>\n", r->throughput);
	card_open(f, "max_latency (dbench)");
	fprintf(f, "%.3f ms</div></div>\n", r->max_latency_ms);
	card_open(f, "Clients");
	fprintf(f, "%d</div><div class=\"k\">%d procs &#215; %d</div></div>\n",
		c->nclients, c->nprocs, c->cpp);
	card_open(f, "Measured");
	fprintf(f,
		"%.1f s</div><div class=\"k\">after %.1f s of warmup"
		"</div></div>\n",
		r->measured_s, r->warmup_s);
	card_open(f, "Operations");
	fprintf(f, "%" PRIu64 "</div></div>\n", total);
	card_open(f, "Unexpected results");
	fprintf(f, "%" PRIu64 "</div></div>\n", r->nwarn);
	if (r->resp.valid) {
		uint64_t late = 0;

		for (int i = 0; i < OP_NR; i++)
			late += op_is_timed(i) ? r->resp.late[i] : 0;
		card_open(f, "Late starts");
		fprintf(f,
			"%" PRIu64 "</div><div class=\"k\">more than %g ms "
			"after the intended start</div></div>\n",
			late, r->resp.late_ms);
	}
	fputs("</div>\n", f);
	fputs("<p class=\"sub\">", f);
	report_tput_line(f, r->throughput, r->max_latency_ms, c);
	fputs("</p>\n", f);
}

static void plots(FILE *f, const struct result *r)
{
	bool ran[OP_NR], on[OP_NR];

	html_plot_spectrum(f, r);
	fputs("<h2>Over time</h2>\n", f);
	if (!r->npoints || !r->points) {
		html_note(f, "time",
		     "No time plots: this result has no time series "
		     "(the run ended before the first interval, or it was read "
		     "from a log without progress lines).");
		return;
	}
	if (r->npoints == 1)
		html_note(f, "time", "The time series has a single interval.");
	html_ops_ran(r, ran, on);
	html_opsel(f, ran, on, "the latency plots");
	html_plot_throughput(f, r);
	html_plot_latency(f, r, false);
	html_plot_latency(f, r, true);
}

/* ------------------------------------------------------------------ API */

int report_html(FILE *f, const struct result *r)
{
	head(f, r);
	title(f, r);
	summary(f, r);
	fputs("<h2>Configuration and environment</h2>\n<div class=\"cols\">\n",
	      f);
	html_config_table(f, &r->cfg);
	html_env_table(f, &r->env);
	fputs("</div>\n", f);
	html_op_table(f, r);
	html_resp_table(f, r);
	html_stalls_section(f, r);
	html_clients_table(f, r);
	plots(f, r);
	fputs("<p class=\"sub\">Written by ", f);
	html_esc(f, r->tool ? r->tool : "dbench-ng");
	fputs(" report; self-contained: no script, nothing fetched.</p>\n"
	      "</main>\n</body>\n</html>\n",
	      f);
	return ferror(f) ? -1 : 0;
}

static int emit_html(FILE *f, const void *r)
{
	return report_html(f, r);
}

int report_html_file(const struct result *r, const char *path, char *err,
		     size_t errlen)
{
	return file_replace(path, "--html", emit_html, r, err, errlen);
}
