/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * stalls.c - the Stalls section of the page: the watchdog's events with
 * their PSI and kernel stacks, and the folded stacks.
 */
#include "html.h"
#include "report_text.h"

#include <inttypes.h>
#include <string.h>

/* A ';'-separated stack, escaped, breakable after each frame. */
static void frames(FILE *f, const char *stack)
{
	char frame[512];

	while (*stack) {
		size_t n = strcspn(stack, ";");

		if (n >= sizeof(frame))
			n = sizeof(frame) - 1;
		memcpy(frame, stack, n);
		frame[n] = 0;
		html_esc(f, frame);
		stack += n;
		if (*stack == ';') {
			fputs(";<wbr/>", f);
			stack++;
		} else if (*stack) {
			stack++; /* a frame longer than the buffer: cut */
		}
	}
}

/* PSI avg10 before and after, and the stalled time, per resource. */
static void psi_cell(FILE *f, const struct result_stall *ev)
{
	bool any = false;

	for (int i = 0; i < PSI_NR; i++) {
		struct psi_change c;

		if (!psi_change(ev, i, &c))
			continue;
		fprintf(f,
			"%s<span class=\"op\">%s some %.2f&#8594;%.2f%%, "
			"full %.2f&#8594;%.2f%%, +%.1f ms</span>",
			any ? "<br/>" : "", psi_name[i], c.some0, c.some1,
			c.full0, c.full1, c.stalled_ms);
		any = true;
	}
	if (!any)
		fputs("<span class=\"na\">&#8211;</span>", f);
}

/* The watchdog's findings: ops in flight past --stall-threshold, where
 * their client was in the kernel, and the stacks seen most often. */
void html_stalls_section(FILE *f, const struct result *r)
{
	const struct result_stalls *st = &r->stalls;

	if (!st->enabled && !st->total && !st->warmup_total)
		return;
	fputs("<h2>Stalls</h2>\n", f);
	if (!st->total && !st->warmup_total) {
		fprintf(f,
			"<p>No operation ran longer than the stall threshold "
			"of %.0f ms.</p>\n",
			st->threshold_ms);
		goto out;
	}
	fprintf(f,
		"<p><b>%" PRIu64 " operation%s ran longer than %.0f ms</b>"
		" (",
		st->total, st->total == 1 ? "" : "s", st->threshold_ms);
	report_stall_ops(f, st->count, st->max_ms);
	fputs(st->total ? ")" : "none)", f);
	if (st->warmup_total) {
		/* apart, as the tables leave the warmup out */
		fprintf(f, ", and %" PRIu64 " in the warmup, not in the tables (",
			st->warmup_total);
		report_stall_ops(f, st->warmup_count, st->warmup_max_ms);
		fputs(")", f);
	}
	fprintf(f, ".  The %d longest, while they were stuck:</p>\n",
		st->nevents);
	fputs("<div class=\"scroll\">\n<table>\n<thead><tr><th>#</th>"
	      "<th>Operation</th><th class=\"n\">ms</th>"
	      "<th class=\"n\">at (s)</th><th class=\"n\">client (pid)</th>"
	      "<th>loadfile:line / path</th><th>PSI avg10 during</th>"
	      "<th>samples: state, wchan, kernel stack</th></tr></thead>\n"
	      "<tbody>\n",
	      f);
	for (int k = 0; k < st->nevents; k++) {
		const struct result_stall *ev = &st->events[k];

		fprintf(f, "<tr><td class=\"n\">%d</td><td>", k + 1);
		if (ev->op >= 0 && ev->op < OP_NR)
			html_op_name(f, ev->op);
		fprintf(f,
			"</td><td class=\"n\"><b>%.3f</b>%s%s</td>"
			"<td class=\"n\">%.3f</td><td class=\"n\">%d (%d)</td>"
			"<td class=\"mono path\">",
			ev->duration_ms, ev->ended ? "" : "<br/>still stuck",
			ev->warmup ? "<br/>warmup" : "", ev->start_s,
			ev->client, ev->pid);
		html_str(f, ev->file);
		fprintf(f, ":%" PRIu32, ev->line);
		if (ev->path) {
			fputs("<br/>", f);
			html_esc(f, ev->path);
		}
		fputs("</td><td class=\"mono\">", f);
		psi_cell(f, ev);
		fputs("</td><td class=\"mono stk\">", f);
		for (int i = 0; i < ev->nsamples; i++) {
			const struct result_stall_sample *sm = &ev->samples[i];

			fprintf(f, "%s<b>%.0f ms</b> %c ", i ? "<br/>" : "",
				sm->t_ms,
				sm->state >= 'A' && sm->state <= 'Z' ? sm->state
								     : '?');
			html_str(f, sm->wchan && *sm->wchan ? sm->wchan : NULL);
			if (sm->repeat)
				fprintf(f, " (&#215;%u more)", sm->repeat);
			if (sm->stack && *sm->stack) {
				fputs("<br/><span class=\"na\">", f);
				frames(f, sm->stack);
				fputs("</span>", f);
			}
		}
		if (!ev->nsamples)
			fputs("<span class=\"na\">no sample</span>", f);
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody>\n</table>\n</div>\n", f);
	if (st->nfolded) {
		fputs("<h3>Kernel stacks of the stalled clients</h3>\n"
		      "<div class=\"scroll\">\n<table>\n<thead><tr>"
		      "<th class=\"n\">samples</th><th>stack (outermost frame "
		      "first)</th></tr></thead>\n<tbody>\n",
		      f);
		for (int i = 0; i < st->nfolded; i++) {
			fprintf(f,
				"<tr><td class=\"n\">%" PRIu64 "</td>"
				"<td class=\"mono stk\">",
				st->folded[i].count);
			if (st->folded[i].stack)
				frames(f, st->folded[i].stack);
			fputs("</td></tr>\n", f);
		}
		if (st->folded_other)
			fprintf(f,
				"<tr><td class=\"n\">%" PRIu64 "</td><td "
				"class=\"na\">other stacks</td></tr>\n",
				st->folded_other);
		fputs("</tbody>\n</table>\n</div>\n", f);
	}
out:
	if (st->note) {
		fputs("<p class=\"note\">", f);
		html_esc(f, st->note);
		fputs("</p>\n", f);
	}
}
