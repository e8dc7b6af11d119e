/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * op_tables.c - the per-operation table (latencies, slowest call) and
 * the per-client table of the page.
 */
#include "html.h"
#include "percentiles.h"

#include <inttypes.h>

/* Per-client table: at most this many rows. */
#define MAX_CLIENT_ROWS 1024

static const double table_pcts[] = {PCT_STORED};

/* The slowest call's details are known: a zeroed result_op (a dbench
 * log) has a time of 0 and nothing else. */
static bool max_known(const struct result_op *o)
{
	return o->h.count && (o->max_at_s > 0 || o->max_client >= 0 ||
			      o->max_file || o->max_path || o->max_line);
}

/* The ops the backend cannot execute (backend.h: not_run): their lines
 * were counted, not timed, so they have no row above. */
static void not_run_note(FILE *f, const struct result *r)
{
	bool first = true;

	for (int i = 0; i < OP_NR; i++) {
		const struct result_op *o = &r->op[i];

		if (!o->not_run)
			continue;
		if (first)
			fputs("<p class=\"note\">Not run: the backend cannot "
			      "do these ops, so their lines were counted, not "
			      "timed, and have no row above:",
			      f);
		fputs("<br/>\n", f);
		html_op_name(f, i);
		fprintf(f, " %" PRIu64 " (", o->not_run);
		html_str(f, o->not_run_why);
		fputs(")", f);
		first = false;
	}
	if (!first)
		fputs("</p>\n", f);
}

void html_op_table(FILE *f, const struct result *r)
{
	const int npc = (int)(sizeof(table_pcts) / sizeof(table_pcts[0]));
	uint64_t count = 0, errors = 0, bytes = 0;
	char b[32];

	fputs("<h2>Operations</h2>\n<div class=\"scroll\">\n<table>\n"
	      "<thead>\n<tr><th rowspan=\"2\">Operation</th>"
	      "<th rowspan=\"2\" class=\"n\">Count</th>"
	      "<th rowspan=\"2\" class=\"n\">Errors</th>"
	      "<th rowspan=\"2\" class=\"n\">Bytes</th>",
	      f);
	fprintf(f, "<th colspan=\"%d\">Latency (ms)</th>", npc + 2);
	fputs("<th colspan=\"4\">Slowest call</th></tr>\n<tr>"
	      "<th class=\"n\">mean</th>",
	      f);
	for (int k = 0; k < npc; k++)
		fprintf(f, "<th class=\"n\">p%g</th>", table_pcts[k]);
	fputs("<th class=\"n\">max</th><th class=\"n\" title=\"" HTML_TIME_AXIS
	      "\">at (s, measured phase)</th>"
	      "<th class=\"n\">client</th><th>loadfile:line</th>"
	      "<th>path</th></tr>\n</thead>\n<tbody>\n",
	      f);
	for (int i = 0; i < OP_NR; i++) {
		const struct result_op *o = &r->op[i];
		const struct hist *h = &o->h;

		if (!html_op_shown(r, i))
			continue;
		count += h->count;
		errors += o->errors;
		bytes += o->bytes;
		fputs("<tr><td>", f);
		html_op_name(f, i);
		fprintf(f, "</td><td class=\"n\">%" PRIu64 "</td>", h->count);
		fprintf(f, "<td class=\"n\">%s%" PRIu64 "%s</td>",
			o->errors ? "<b>" : "", o->errors,
			o->errors ? "</b>" : "");
		html_fmt_size(b, sizeof(b), o->bytes, false);
		if (!r->has_bins) /* a log: dbench prints no bytes per op */
			fputs("<td class=\"n na\">unknown</td>", f);
		else if (o->bytes)
			fprintf(f,
				"<td class=\"n\" title=\"%" PRIu64
				" bytes\">%s</td>",
				o->bytes, b);
		else
			fputs("<td class=\"n na\">0</td>", f);
		fprintf(f, "<td class=\"n\">%.3f</td>", hist_mean(h) / 1e6);
		for (int k = 0; k < npc; k++) {
			if (r->has_bins && h->count)
				fprintf(f, "<td class=\"n\">%.3f</td>",
					html_ns_ms(hist_value_at(h, table_pcts[k])));
			else
				fputs("<td class=\"n na\">&#8211;</td>", f);
		}
		fprintf(f, "<td class=\"n\"><b>%.3f</b></td>", html_ns_ms(h->max));
		if (max_known(o) && o->max_at_s >= 0)
			fprintf(f, "<td class=\"n\">%.3f</td>",
				html_ts_t(r, o->max_at_s));
		else
			fputs("<td class=\"n na\">&#8211;</td>", f);
		if (o->max_client >= 0 && h->count)
			fprintf(f, "<td class=\"n\">%d</td>", o->max_client);
		else
			fputs("<td class=\"n na\">&#8211;</td>", f);
		fputs("<td class=\"mono path\">", f);
		if (o->max_file) {
			html_esc(f, o->max_file);
			if (o->max_line)
				fprintf(f, ":%" PRIu32, o->max_line);
		} else if (o->max_line) {
			fprintf(f, "line %" PRIu32, o->max_line);
		} else {
			fputs("<span class=\"na\">&#8211;</span>", f);
		}
		fputs("</td><td class=\"mono path\">", f);
		if (o->max_path)
			html_esc(f, o->max_path);
		else
			fputs("<span class=\"na\">&#8211;</span>", f);
		fputs("</td></tr>\n", f);
	}
	html_fmt_size(b, sizeof(b), bytes, false);
	fprintf(f,
		"</tbody>\n<tfoot><tr><td>Total</td><td class=\"n\">%" PRIu64
		"</td><td class=\"n\">%" PRIu64 "</td><td class=\"n\">%s</td>"
		"<td colspan=\"%d\"></td></tr></tfoot>\n</table>\n</div>\n",
		count, errors,
		!r->has_bins ? "<span class=\"na\">unknown</span>"
		: bytes	     ? b
			     : "0",
		npc + 6);
	if (!r->has_bins)
		fputs("<p class=\"note\">No percentiles: this result has no "
		      "latency histograms (it was read from a dbench text "
		      "log, which keeps only count, mean and max per "
		      "operation).</p>\n",
		      f);
	not_run_note(f, r);
	if (r->nwarn || r->nwarn_msgs) {
		fprintf(f,
			"<p class=\"note\">Unexpected results: %" PRIu64
			" (counted in the Errors column; the run went on)",
			r->nwarn);
		for (int i = 0; i < r->nwarn_msgs; i++) {
			fputs("<br/>\n<span class=\"mono\">", f);
			html_str(f, r->warn_msgs[i]);
			fputs("</span>", f);
		}
		fputs("</p>\n", f);
	}
}

/* A paced run: per op its response times (from the intended start) and
 * late starts, beside the service times of the table above. */
void html_resp_table(FILE *f, const struct result *r)
{
	const int npc = (int)(sizeof(table_pcts) / sizeof(table_pcts[0]));
	const struct result_resp *rr = &r->resp;
	uint64_t count = 0, late = 0;

	if (!rr->valid)
		return;
	fputs("<h2>Response time</h2>\n", f);
	fputs("<p class=\"sub\">A paced run (", f);
	if (rr->pacing == RESP_RATE)
		fprintf(f, "-R %g MB/s per client: each line is due when the "
			   "bytes before it allow", r->cfg.target_rate);
	else
		fputs("the loadfile's timestamps: each line is due at its "
		      "time in the pass", f);
	fprintf(f, "): response time is from each op's intended start to "
		   "its end, its service time (the table above) plus how "
		   "late it began, so the ops that queued behind a slow one "
		   "show here, not only the slow one.  A late start began "
		   "more than %g ms after its intended start.</p>\n",
		rr->late_ms);
	fputs("<div class=\"scroll\">\n<table data-table=\"response\">\n"
	      "<thead>\n<tr><th rowspan=\"2\">Operation</th>"
	      "<th rowspan=\"2\" class=\"n\">Count</th>"
	      "<th colspan=\"2\">Late starts</th>",
	      f);
	fprintf(f, "<th colspan=\"%d\">Response time (ms)</th></tr>\n<tr>"
		   "<th class=\"n\">count</th><th class=\"n\">latest (ms)"
		   "</th><th class=\"n\">mean</th>", npc + 2);
	for (int k = 0; k < npc; k++)
		fprintf(f, "<th class=\"n\">p%g</th>", table_pcts[k]);
	fputs("<th class=\"n\">max</th></tr>\n</thead>\n<tbody>\n", f);
	for (int i = 0; i < OP_NR; i++) {
		const struct hist *h = &rr->h[i];

		if (!op_is_timed(i) || !h->count)
			continue;
		count += h->count;
		late += rr->late[i];
		fputs("<tr><td>", f);
		html_op_name(f, i);
		fprintf(f, "</td><td class=\"n\">%" PRIu64 "</td>", h->count);
		fprintf(f, "<td class=\"n\">%s%" PRIu64 "%s</td>",
			rr->late[i] ? "<b>" : "", rr->late[i],
			rr->late[i] ? "</b>" : "");
		fprintf(f, "<td class=\"n\">%.3f</td>",
			html_ns_ms(rr->late_max_ns[i]));
		fprintf(f, "<td class=\"n\">%.3f</td>", hist_mean(h) / 1e6);
		for (int k = 0; k < npc; k++)
			fprintf(f, "<td class=\"n\">%.3f</td>",
				html_ns_ms(hist_value_at(h, table_pcts[k])));
		fprintf(f, "<td class=\"n\"><b>%.3f</b></td></tr>\n",
			html_ns_ms(h->max));
	}
	fprintf(f,
		"</tbody>\n<tfoot><tr><td>Total</td><td class=\"n\">%" PRIu64
		"</td><td class=\"n\">%" PRIu64 "</td>"
		"<td colspan=\"%d\"></td></tr></tfoot>\n</table>\n</div>\n",
		count, late, npc + 3);
}

void html_clients_table(FILE *f, const struct result *r)
{
	int n = r->nclients < MAX_CLIENT_ROWS ? r->nclients : MAX_CLIENT_ROWS;
	char b[32];

	if (!r->clients || r->nclients <= 0)
		return;
	fprintf(f,
		"<details%s>\n<summary><b>Per-client results</b> "
		"(%d clients: count, then mean / max in ms)</summary>\n"
		"<div class=\"scroll\">\n<table>\n<thead><tr><th>Client</th>"
		"<th class=\"n\">Lines</th><th class=\"n\">Bytes</th>",
		r->cfg.per_client ? " open=\"open\"" : "", r->nclients);
	for (int i = 0; i < OP_NR; i++) {
		if (!html_op_shown(r, i))
			continue;
		fputs("<th class=\"n\">", f);
		html_op_name(f, i);
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
	for (int c = 0; c < n; c++) {
		const struct result_client *rc = &r->clients[c];

		html_fmt_size(b, sizeof(b), rc->bytes, false);
		fprintf(f,
			"<tr><td class=\"n\">%d</td><td class=\"n\">%" PRIu64
			"</td><td class=\"n\">%s</td>",
			c, rc->lines, b);
		for (int i = 0; i < OP_NR; i++) {
			double mean = rc->count[i]
					      ? (double)rc->sum_ns[i] /
							(double)rc->count[i] /
							1e6
					      : 0;

			if (!html_op_shown(r, i))
				continue;
			fprintf(f,
				"<td class=\"n\">%" PRIu64 "<br/><span "
				"class=\"na\">%.3f / %.3f</span></td>",
				rc->count[i], mean, html_ns_ms(rc->max_ns[i]));
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody>\n</table>\n</div>\n", f);
	if (n < r->nclients)
		fprintf(f,
			"<p class=\"note\">The first %d of %d clients are "
			"shown; the JSON result has them all.</p>\n",
			n, r->nclients);
	fputs("</details>\n", f);
}
