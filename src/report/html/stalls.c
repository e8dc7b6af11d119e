/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * stalls.c - the Stalls section of the page: the watchdog's events with
 * their PSI and kernel stacks, and the folded stacks; with BPF tracing
 * each event's sleeps and their wakers, and the table of where the
 * stalled ops spent their time.
 */
#include "html.h"
#include "report_offcpu.h"
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

bool html_stall_waker(const struct result_stall *ev, int cpp, char *buf,
		      size_t len)
{
	const struct result_wait *w = ev->offcpu.waits;
	char who[80], tail[300];

	if (!ev->offcpu.valid || !ev->offcpu.nwaits)
		return false;
	report_stack_tail(w->waker_stack, 1, true, tail, sizeof(tail));
	snprintf(buf, len, "%s%s%s", w->woken ? "woken by " : "",
		 w->woken ? report_waker(w, cpp, who, sizeof(who))
			  : "still asleep",
		 "");
	if (*tail) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, " in %s", tail);
	}
	return true;
}

/* An event's off-CPU time and who woke its longest sleep, one line, with
 * its longest sleeps and their wakers folded under it (a page with 32
 * events of 8 sleeps and 4 stacks each would push the plots out of
 * sight) */
static void offcpu_cell(FILE *f, const struct result_stall *ev, int cpp)
{
	const struct result_offcpu *o = &ev->offcpu;
	double cpu = ev->duration_ms - o->blocked_ms - o->runq_ms;
	char who[400];

	if (!o->valid) {
		fputs("<span class=\"na\">not traced</span>", f);
		return;
	}
	fputs("<details><summary>", f);
	fprintf(f,
		"asleep <b>%.3f</b> ms (%" PRIu32 " sleep%s), runnable %.3f ms "
		"(%" PRIu32 " preemption%s), on CPU %.3f ms%s",
		o->blocked_ms, o->sleeps, o->sleeps == 1 ? "" : "s", o->runq_ms,
		o->preempted, o->preempted == 1 ? "" : "s", cpu > 0 ? cpu : 0,
		o->partial ? " <i>(lower bounds: intervals were lost)</i>"
			   : "");
	if (html_stall_waker(ev, cpp, who, sizeof(who))) {
		fputs("; the longest sleep <b>", f);
		html_esc(f, who);
		fputs("</b>", f);
	}
	fputs("</summary>", f);
	for (int i = 0; i < o->nwaits; i++) {
		const struct result_wait *w = &o->waits[i];

		fprintf(f, "%s<b>%.3f ms</b> %c at %.0f ms", i ? "<br/>" : "",
			w->blocked_ms, w->state == 'D' ? 'D' : 'S', w->at_ms);
		if (w->stack) {
			fputs(" in <span class=\"na\">", f);
			frames(f, w->stack);
			fputs("</span>", f);
		} else {
			fputs(" <span class=\"na\">(short: no stack)</span>",
			      f);
		}
		fputs("<br/>&#8592; ", f);
		if (!w->woken) {
			fputs("still asleep at the end", f);
			continue;
		}
		fputs("woken by <b>", f);
		html_esc(f, report_waker(w, cpp, who, sizeof(who)));
		fprintf(f, "</b>, %.3f ms to a CPU", w->runq_ms);
		if (w->waker_stack) {
			fputs(", in <span class=\"na\">", f);
			frames(f, w->waker_stack);
			fputs("</span>", f);
		}
	}
	fputs("</details>", f);
}

#define PAGE_ROWS   12 /* rows of the table shown open */
#define PAGE_FRAMES 6  /* innermost frames shown of a stack in the table */

/* A stack's innermost frames, the whole of it as the title */
static void short_stack(FILE *f, const char *stack, bool waker)
{
	char tail[1200];

	fputs("<span title=\"", f);
	html_esc(f, stack);
	fputs("\">", f);
	frames(f, report_stack_tail(stack, PAGE_FRAMES, waker, tail,
				    sizeof(tail)));
	fputs("</span>", f);
}

/* Rows @from to @to of the per-op table, as a table (the rows beyond
 * those kept after the last) */
static void pair_rows(FILE *f, const struct result_offcpu_run *o, int from,
		      int to)
{
	char who[80];

	if (to > o->npairs)
		to = o->npairs;
	fputs("<div class=\"scroll\">\n<table>\n<thead><tr>"
	      "<th>Operation</th><th class=\"n\">ms</th>"
	      "<th class=\"n\">count</th><th>asleep in</th>"
	      "<th>woken by</th><th>the waker in</th></tr></thead>\n"
	      "<tbody>\n",
	      f);
	for (int i = from; i < to; i++) {
		const struct result_wait_pair *p = &o->pairs[i];

		fputs("<tr><td>", f);
		html_op_name(f, p->op);
		fprintf(f,
			"</td><td class=\"n\">%.3f</td>"
			"<td class=\"n\">%" PRIu64 "</td>",
			p->ms, p->count);
		if (p->kind != WAIT_SLEEP) {
			fprintf(f,
				"<td colspan=\"3\" class=\"na\">%s</td></tr>\n",
				p->kind == WAIT_RUNQ
					? "runnable, waiting for a CPU"
					: "on a CPU");
			continue;
		}
		fputs("<td class=\"mono stk\">", f);
		if (p->stack)
			short_stack(f, p->stack, false);
		else
			fputs("<span class=\"na\">short sleeps: no "
			      "stacks</span>",
			      f);
		fputs("</td><td>", f);
		html_esc(f, report_pair_waker(p, who, sizeof(who)));
		fputs("</td><td class=\"mono stk\">", f);
		if (p->waker_stack)
			short_stack(f, p->waker_stack, true);
		fputs("</td></tr>\n", f);
	}
	if (to == o->npairs && o->other_count)
		fprintf(f,
			"<tr><td></td><td class=\"n\">%.3f</td>"
			"<td class=\"n\">%" PRIu64 "</td><td "
			"colspan=\"3\" class=\"na\">beyond the rows "
			"kept</td></tr>\n",
			o->other_ms, o->other_count);
	fputs("</tbody>\n</table>\n</div>\n", f);
}

/* The per-op table of where the stalled ops spent their time, and how
 * the stalls were explained */
static void offcpu_table(FILE *f, const struct result *r)
{
	const struct result_offcpu_run *o = &r->stalls.offcpu;

	if (o->method && strcmp(o->method, "bpf")) {
		fputs("<p class=\"note\">No BPF tracing", f);
		if (o->method_note) {
			fputs(" (", f);
			html_esc(f, o->method_note);
			fputs(")", f);
		}
		fputs(": where the stalled clients slept comes from /proc "
		      "samples only, not who woke them.</p>\n",
		      f);
		return;
	}
	if (!o->method)
		return;
	if (o->npairs) {
		fputs("<h3>Where the stalled ops spent their time</h3>\n"
		      "<p>Traced with BPF: every sleep of the stalled ops "
		      "of the measured phase, by where it slept and what woke "
		      "it, and their time runnable without a CPU and on a "
		      "CPU, the most first.  Stacks show their innermost "
		      "frames (hover for the whole).</p>\n",
		      f);
		pair_rows(f, o, 0, PAGE_ROWS);
		if (o->npairs > PAGE_ROWS || o->other_count) {
			fprintf(f, "<details><summary>%d more rows</summary>\n",
				o->npairs - PAGE_ROWS > 0
					? o->npairs - PAGE_ROWS
					: 0);
			pair_rows(f, o, PAGE_ROWS, o->npairs);
			fputs("</details>\n", f);
		}
	}
	fprintf(f,
		"<p class=\"note\">Traced with BPF: %" PRIu64 " off-CPU "
		"intervals of the clients; %" PRIu64 " lost (ring buffer "
		"full), %" PRIu64 " over the bounds; "
		"stacks of sleeps of %.3g ms or more%s; interrupt wakers told "
		"by ",
		o->intervals, o->lost, o->overflow, o->stack_min_ms,
		o->symbols ? "" : " (raw addresses: no kernel symbols)");
	html_str(f, o->irq_method);
	fputs(".", f);
	if (o->method_note) {
		fputs(" ", f);
		html_esc(f, o->method_note);
	}
	fputs("</p>\n", f);
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
	if (st->unsampled) { /* the watchdog's budget (watchdog.h) */
		fputs(".  ", f);
		report_stall_unsampled(f, st->unsampled);
	}
	fprintf(f, ".  The %d longest, while they were stuck:</p>\n",
		st->nevents);
	fputs("<div class=\"scroll\">\n<table>\n<thead><tr><th>#</th>"
	      "<th>Operation</th><th class=\"n\">ms</th>"
	      "<th class=\"n\" title=\"" HTML_TIME_AXIS
	      "\">started (s into the measured phase)</th><th "
	      "class=\"n\">client (pid)</th>"
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
			ev->warmup ? "<br/>warmup" : "",
			html_ts_t(r, ev->start_s), ev->client, ev->pid);
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
		if (ev->offcpu.valid) { /* a row of its own: the width */
			fputs("<tr><td></td><td colspan=\"7\" class=\"mono "
			      "stk\"><b>off CPU (BPF):</b> ",
			      f);
			offcpu_cell(f, ev, r->cfg.cpp);
			fputs("</td></tr>\n", f);
		}
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
	offcpu_table(f, r);
out:
	if (st->note) {
		fputs("<p class=\"note\">", f);
		html_esc(f, st->note);
		fputs("</p>\n", f);
	}
}
