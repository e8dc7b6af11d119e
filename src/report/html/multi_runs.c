/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * multi_runs.c - the runs of a page of several, side by side: a table of
 * their figures, their stalls on one lane each, what else their machine
 * did, and the settings and environment that differ between them.
 */
#include "multi.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void run_cell(FILE *f, const struct mset *m, int i)
{
	char s[16], c[16];

	mset_short(m, i, s, sizeof(s));
	fprintf(f,
		"<td class=\"op\"><span class=\"sw\" style=\"background:%s\">"
		"</span>%s</td><td class=\"mono path\">",
		mset_colour(m, i, c, sizeof(c)), s);
	html_str(f, m->run[i].name);
	fputs("</td>", f);
}

void mset_runs_table(FILE *f, const struct mset *m)
{
	fputs("<div class=\"scroll\">\n<table data-table=\"runs\">\n<thead>"
	      "<tr><th>Run</th><th>File</th><th>Started</th><th>Status</th>"
	      "<th class=\"n\">MB/s</th><th class=\"n\">max_latency (ms)</th>"
	      "<th class=\"n\">measured (s)</th><th class=\"n\">stalls</th>"
	      "</tr></thead>\n<tbody>\n",
	      f);
	for (int i = 0; i < m->n; i++) {
		const struct result *r = m->run[i].r;

		fputs("<tr>", f);
		run_cell(f, m, i);
		fputs("<td class=\"mono\">", f);
		html_str(f, r->start_time);
		fprintf(f,
			"</td><td>%s</td><td class=\"n\">%.2f</td>"
			"<td class=\"n\">%.3f</td><td class=\"n\">%.1f</td>",
			result_status_name(r->status), r->throughput,
			r->max_latency_ms, r->measured_s);
		if (r->stalls.enabled || r->stalls.total)
			fprintf(f, "<td class=\"n\">%" PRIu64 "</td></tr>\n",
				r->stalls.total);
		else
			fputs("<td class=\"n na\">not watched</td></tr>\n", f);
	}
	fputs("</tbody>\n</table>\n</div>\n", f);
}

/* ------------------------------------------------------------ stalls */

#define LANE_H 16.0

void mset_stall_lanes(FILE *f, const struct mset *m)
{
	struct frame fr = {.x0 = 60, .y0 = 34, .w = 950};
	int watched = 0;
	double h;

	for (int i = 0; i < m->n; i++)
		watched += m->run[i].r->stalls.enabled ||
			   m->run[i].r->stalls.total;
	if (!watched) {
		html_note(f, "lanes",
			  "No stall timelines: no run had the watchdog on "
			  "(--stall-threshold).");
		return;
	}
	fr.h = LANE_H * m->n;
	fr.xmin = 0;
	fr.xmax = 1;
	for (int i = 0; i < m->n; i++) {
		const struct result *r = m->run[i].r;

		fr.xmin = fmin(fr.xmin, r->npoints ? html_ts_xmin(r) : 0);
		fr.xmax = fmax(fr.xmax,
			       r->npoints ? html_ts_xmax(r) : r->measured_s);
		for (int k = 0; k < r->stalls.nevents; k++) {
			const struct result_stall *ev = &r->stalls.events[k];

			fr.xmin = fmin(fr.xmin, html_ts_t(r, ev->start_s));
			fr.xmax = fmax(
				fr.xmax,
				html_ts_t(r,
					  ev->start_s + ev->duration_ms / 1e3));
		}
	}
	h = fr.y0 + fr.h + 44;
	fputs("<figure>\n", f);
	svg_open(f, "lanes", 1200, h, "stalls of every run over time");
	fputs("<text class=\"title\" x=\"8\" y=\"20\">Stalls of every run "
	      "(the watchdog's longest events)</text>\n",
	      f);
	svg_frame_rect(f, &fr, "bg");
	svg_x_time_axis(f, &fr);
	fprintf(f,
		"<text class=\"at\" x=\"%.1f\" y=\"%.1f\">" HTML_TIME_AXIS
		"</text>\n",
		fr.x0 + fr.w / 2, h - 6);
	for (int i = 0; i < m->n; i++) {
		const struct result *r = m->run[i].r;
		double y = fr.y0 + i * LANE_H;
		char s[16], c[16];

		mset_short(m, i, s, sizeof(s));
		fprintf(f,
			"<g data-lane=\"%s\"><text class=\"yl\" x=\"%.1f\" "
			"y=\"%.1f\" fill=\"%s\">%s</text>\n",
			s, fr.x0 - 6, y + LANE_H - 4,
			mset_colour(m, i, c, sizeof(c)), s);
		if (i)
			svg_hline(f, "grid", fr.x0, fr.x0 + fr.w, y);
		for (int k = 0; k < r->stalls.nevents; k++) {
			const struct result_stall *ev = &r->stalls.events[k];
			int op = ev->op >= 0 && ev->op < OP_NR ? ev->op : -1;
			double a = svg_fx(&fr, html_ts_t(r, ev->start_s));
			double b = svg_fx(
				&fr,
				html_ts_t(r,
					  ev->start_s + ev->duration_ms / 1e3));

			fprintf(f,
				"<rect class=\"stl\" x=\"%.1f\" y=\"%.1f\" "
				"width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
				"<title>%s %s %.3f ms%s, client %d, started "
				"%.3f s into the measured phase</title>"
				"</rect>\n",
				a, y + 3, fmax(b - a, 2), LANE_H - 6,
				op >= 0 ? html_op_colour[op] : "#3b424b", s,
				op >= 0 ? op_info[op].label : "?",
				ev->duration_ms, ev->ended ? "" : " (stuck)",
				ev->client, html_ts_t(r, ev->start_s));
		}
		fprintf(f,
			"<text x=\"%.1f\" y=\"%.1f\">%" PRIu64 " over %.0f ms"
			"</text></g>\n",
			fr.x0 + fr.w + 8, y + LANE_H - 4, r->stalls.total,
			r->stalls.threshold_ms);
	}
	svg_frame_rect(f, &fr, "frame");
	fputs("</svg>\n", f);
	fputs("<figcaption>One lane per run: each bar is a call the watchdog "
	      "caught running past the stall threshold, from its start to "
	      "its end, in the colour of its operation (hover: which, how "
	      "long, which client).  A run's JSON keeps its longest events "
	      "only; the count on the right is all of them.</figcaption>\n"
	      "</figure>\n",
	      f);
}

/* ----------------------------------------------------------- machine */

void mset_machine(FILE *f, const struct mset *m)
{
	fprintf(f,
		"<div class=\"scroll\">\n<table data-table=\"machine\">\n"
		"<thead><tr><th>Run</th><th>File</th>"
		"<th class=\"n\">other CPUs</th><th>of the bound %.1f</th>"
		"<th class=\"n\">steal %%</th><th class=\"n\">load 1 min</th>"
		"<th class=\"n\">MHz</th><th>busy?</th></tr></thead>\n"
		"<tbody>\n",
		DISTURB_OTHER_CPUS);
	for (int i = 0; i < m->n; i++) {
		const struct result_disturb *d = &m->run[i].r->disturb;
		double w;

		fputs("<tr>", f);
		run_cell(f, m, i);
		if (!d->valid) {
			fputs("<td colspan=\"6\" class=\"na\">not recorded"
			      "</td></tr>\n",
			      f);
			continue;
		}
		w = fmin(d->other_cpus / DISTURB_OTHER_CPUS, 2) * 60;
		fprintf(f,
			"<td class=\"n\">%.2f</td><td><svg class=\"bar\" "
			"viewBox=\"0 0 124 10\" width=\"124\" height=\"10\">"
			"<rect x=\"0\" y=\"1\" width=\"%.1f\" height=\"8\" "
			"fill=\"%s\"/><line x1=\"60\" y1=\"0\" x2=\"60\" "
			"y2=\"10\" stroke=\"#1e2125\"/></svg></td>",
			d->other_cpus, w,
			result_disturbed(d) ? "#d62728" : "#7fa7d0");
		if (d->steal_pct >= 0)
			fprintf(f, "<td class=\"n\">%.1f</td>", d->steal_pct);
		else
			fputs("<td class=\"n na\">unknown</td>", f);
		if (d->load1_start >= 0 && d->load1_end >= 0)
			fprintf(f, "<td class=\"n\">%.2f &#8594; %.2f</td>",
				d->load1_start, d->load1_end);
		else
			fputs("<td class=\"n na\">unknown</td>", f);
		if (d->mhz_max > 0)
			fprintf(f, "<td class=\"n\">%.0f&#8211;%.0f</td>",
				d->mhz_min, d->mhz_max);
		else
			fputs("<td class=\"n na\">unknown</td>", f);
		fprintf(f, "<td>%s</td></tr>\n",
			result_disturbed(d) ? "<b>busy</b>" : "quiet");
	}
	fputs("</tbody>\n</table>\n</div>\n<p class=\"sub\">What else the "
	      "machine did during each run: other processes' CPU time per "
	      "second (the bar, against the bound of a busy machine, the "
	      "line) and the CPU time stolen by a hypervisor.  A busy run's "
	      "figures may be the machine's, not the system's under test "
	      "(docs/regressions.md).</p>\n",
	      f);
}

/* ------------------------------------------------ settings that differ */

enum {
	ENV_HOST,
	ENV_KERNEL,
	ENV_KVER,
	ENV_MACHINE,
	ENV_CPU,
	ENV_CPUS,
	ENV_MEM,
	ENV_FS,
	ENV_DEV,
	ENV_FSOPT,
	ENV_LOADSHA,
	ENV_NR
};

static const char *const env_label[ENV_NR] = {
	"Hostname", "Kernel",	     "Kernel version",	 "Machine",
	"CPU",	    "CPUs online",   "Memory",		 "Filesystem",
	"Device",   "Mount options", "Loadfile SHA-256",
};

/* field @k (config fields, then the environment's) of @r as text; false:
 * not one to compare */
static bool value_of(const struct result *r, int k, char *b, size_t n)
{
	const struct result_env *e = &r->env;
	const char *s = NULL;

	if (k < CFG_NR) {
		const struct config_field_info *fi = &config_fields[k];
		const void *v = config_field_c(&r->cfg, k);

		if ((fi->flags & CF_NO_HTML) || k == CFG_json)
			return false;
		switch (fi->type) {
		case CF_INT:
			snprintf(b, n, "%d%s", *(const int *)v, fi->unit);
			return true;
		case CF_DBL:
			snprintf(b, n, "%g%s", *(const double *)v, fi->unit);
			return true;
		case CF_BOOL:
			snprintf(b, n, "%s", *(const bool *)v ? "yes" : "no");
			return true;
		case CF_STR:
			s = *(const char *const *)v;
			break;
		}
	} else {
		switch (k - CFG_NR) {
		case ENV_HOST:
			s = e->hostname;
			break;
		case ENV_KERNEL:
			s = e->kernel;
			break;
		case ENV_KVER:
			s = e->kernel_version;
			break;
		case ENV_MACHINE:
			s = e->machine;
			break;
		case ENV_CPU:
			s = e->cpu_model;
			break;
		case ENV_CPUS:
			snprintf(b, n, "%d", e->cpus);
			return true;
		case ENV_MEM:
			snprintf(b, n, "%" PRIu64, e->mem_bytes);
			return true;
		case ENV_FS:
			s = e->fs_type;
			break;
		case ENV_DEV:
			s = e->fs_device;
			break;
		case ENV_FSOPT:
			s = e->fs_options;
			break;
		default:
			s = e->nloadfiles && e->loadfile_sha256
				    ? e->loadfile_sha256[0]
				    : NULL;
		}
	}
	snprintf(b, n, "%s", s ? s : "\x01"); /* \x01: unknown */
	return true;
}

#define VAL_LEN 256

static void diff_row(FILE *f, const struct mset *m, int k, char (*v)[VAL_LEN])
{
	bool *done = calloc((size_t)m->n, sizeof(bool));
	char s[16];

	if (!done)
		return;
	fprintf(f, "<tr><th>%s</th><td>",
		k < CFG_NR ? config_fields[k].label : env_label[k - CFG_NR]);
	for (int i = 0; i < m->n; i++) {
		if (done[i])
			continue;
		fputs(i ? "<br/>" : "", f);
		if (v[i][0] == 1)
			fputs("<span class=\"na\">unknown</span>", f);
		else
			html_esc(f, v[i]);
		fputs(" <span class=\"na\">(", f);
		for (int j = i; j < m->n; j++) {
			if (done[j] || strcmp(v[i], v[j]))
				continue;
			done[j] = true;
			mset_short(m, j, s, sizeof(s));
			fprintf(f, "%s%s", j == i ? "" : " ", s);
		}
		fputs(")</span>", f);
	}
	fputs("</td></tr>\n", f);
	free(done);
}

void mset_config_diff(FILE *f, const struct mset *m)
{
	char(*v)[VAL_LEN] = calloc((size_t)m->n, VAL_LEN);
	int rows = 0;

	if (!v)
		return;
	for (int k = 0; k < CFG_NR + ENV_NR; k++) {
		bool same = true, cmp = true;

		for (int i = 0; cmp && i < m->n; i++) {
			cmp = value_of(m->run[i].r, k, v[i], VAL_LEN);
			same = same && !strcmp(v[i], v[0]);
		}
		if (!cmp || same)
			continue;
		if (!rows++)
			fputs("<table class=\"kv\" data-table=\"differ\">\n"
			      "<thead><tr><th>Setting</th><th>Values (runs)"
			      "</th></tr></thead>\n<tbody>\n",
			      f);
		diff_row(f, m, k, v);
	}
	if (rows)
		fputs("</tbody>\n</table>\n", f);
	else
		fputs("<p data-differ=\"none\">Every run had the same settings "
		      "and environment (as far as the results record them)."
		      "</p>\n",
		      f);
	free(v);
}
