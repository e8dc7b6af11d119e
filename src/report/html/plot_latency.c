/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * plot_latency.c - latency over time: the slowest call, or the p99, per
 * op and interval, dbench's latency, and the watchdog's stalls.
 */
#include "svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Time plots with more intervals than this are drawn one column per group
 * of intervals (the group's max), which keeps every spike. */
#define MAX_COLUMNS 1000

/* One series of a time plot, already reduced to @n columns. */
struct series {
	double *x, *v; /* x in s, value in ms */
	bool *ok;      /* the column has a value */
	size_t n;
};

/* Polylines for runs of columns with a value, dots for lone ones. */
static void series_draw(FILE *f, const struct frame *fr, const struct series *s)
{
	for (size_t i = 0; i < s->n;) {
		size_t j = i;
		struct line l = {.f = f};

		if (!s->ok[i]) {
			i++;
			continue;
		}
		while (j < s->n && s->ok[j])
			j++;
		if (j - i == 1) {
			fprintf(f,
				"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\"/>\n",
				svg_fx(fr, s->x[i]), svg_fy(fr, s->v[i]));
		} else {
			fputs("<polyline points=\"", f);
			for (; i < j; i++)
				svg_line_pt(&l, svg_fx(fr, s->x[i]), svg_fy(fr, s->v[i]));
			svg_line_end(&l);
			fputs("\"/>\n", f);
		}
		i = j;
	}
}

/* The value of @op (-1: dbench's latency) in point @p, ms; false: none */
static bool ts_value(const struct result_point *p, int op, bool p99, double *v)
{
	if (op < 0) {
		*v = p->latency_ms;
		return p->latency_ms > 0;
	}
	if (!p->count[op])
		return false;
	*v = html_ns_ms(p99 ? p->p99_ns[op] : p->max_ns[op]);
	return !p99 || p->p99_ns[op];
}

/* Fill @s with op @op (-1: dbench's latency): the max of each column. */
static void series_fill(struct series *s, const struct result *r, int op,
			bool p99)
{
	uint32_t n = r->npoints;

	for (size_t c = 0; c < s->n; c++) {
		uint32_t a = (uint32_t)((uint64_t)c * n / s->n);
		uint32_t b = (uint32_t)((uint64_t)(c + 1) * n / s->n);
		double v;

		s->ok[c] = false;
		s->v[c] = 0;
		s->x[c] = html_ts_t(r, (r->points[a].t - r->points[a].dur +
					r->points[b - 1].t) /
					       2);
		for (uint32_t i = a; i < b; i++) {
			if (!ts_value(&r->points[i], op, p99, &v))
				continue;
			if (!s->ok[c] || v > s->v[c])
				s->v[c] = v;
			s->ok[c] = true;
		}
	}
}

#define WAKER_LABELS 8 /* markers labelled with their waker, at most */

/* A diamond per stall the watchdog caught, where the call ended and as
 * high as it lasted: it sits on the spike of its op.  With BPF tracing
 * its title says who woke its longest sleep, and so does a label beside
 * the longest ones, where it overlaps no other label (labels.c). */
static void stall_marks(FILE *f, const struct result *r, const struct frame *fr,
			struct labels *lb, int labelled)
{
	int nl = 0;

	for (int k = 0; k < r->stalls.nevents; k++) {
		const struct result_stall *ev = &r->stalls.events[k];
		const char *label = ev->op >= 0 && ev->op < OP_NR
					    ? op_info[ev->op].label
					    : "?";
		double x = svg_fx(
			fr, html_ts_t(r, ev->start_s + ev->duration_ms / 1e3));
		double tx, ty;
		bool end;
		double y = svg_fy(fr, ev->duration_ms) - 5;
		char waker[400];
		bool has =
			html_stall_waker(ev, r->cfg.cpp, waker, sizeof(waker));

		fprintf(f,
			"<path class=\"stm os%d\" stroke=\"%s\" "
			"d=\"M%.1f %.1fl5 5-5 5-5-5z\"><title>%s %.3f ms%s, "
			"client %d, from %.3f s (watchdog)",
			ev->op >= 0 && ev->op < OP_NR ? ev->op : OP_NR,
			ev->op >= 0 && ev->op < OP_NR ? html_op_colour[ev->op]
						      : "#3b424b",
			x, y, label, ev->duration_ms,
			ev->ended ? "" : " (still stuck)", ev->client,
			html_ts_t(r, ev->start_s));
		if (has) {
			fputs(", ", f);
			html_esc(f, waker);
		}
		fputs("</title></path>\n", f);
		if (!has || k == labelled || nl == WAKER_LABELS ||
		    !html_label_place(lb, waker, 10, NULL, x, y + 5, &tx, &ty,
				      &end))
			continue;
		nl++;
		fprintf(f,
			"<text class=\"wl lbl os%d\" x=\"%.1f\" y=\"%.1f\"%s>",
			ev->op >= 0 && ev->op < OP_NR ? ev->op : OP_NR, tx, ty,
			end ? " text-anchor=\"end\"" : "");
		html_esc(f, waker);
		fputs("</text>\n", f);
	}
}

/* The stall the watchdog caught on the largest spike (@op, @ms), with
 * who woke it in @waker (BPF): the event, or -1 */
static int top_stall(const struct result *r, int op, double ms, char *waker,
		     size_t len)
{
	for (int k = 0; k < r->stalls.nevents; k++) {
		const struct result_stall *ev = &r->stalls.events[k];

		if (ev->op == op && fabs(ev->duration_ms - ms) <= ms * 0.01 &&
		    html_stall_waker(ev, r->cfg.cpp, waker, len))
			return k;
	}
	return -1;
}

void html_plot_latency(FILE *f, const struct result *r, bool p99)
{
	struct frame fr = html_ts_base;
	bool has[OP_NR] = {false}, has_lat = false;
	double lo = INFINITY, hi = 0, ly, top = -1, top_x = 0;
	struct labels lb = {0};
	bool ran[OP_NR], on[OP_NR];
	int nops = 0, top_op = -1, top_ev = -1;
	struct series s;
	char b[32];

	html_ops_ran(r, ran, on);
	for (int op = -1; op < OP_NR; op++) {
		/* the ops that ran in the measured phase, as in the tables */
		if (op >= 0 && !html_op_shown(r, op))
			continue;
		if (op < 0 && p99)
			continue;
		for (uint32_t i = 0; i < r->npoints; i++) {
			double v;

			if (!ts_value(&r->points[i], op, p99, &v))
				continue;
			if (op < 0) {
				has_lat = true;
			} else if (!has[op]) {
				has[op] = true;
				nops++;
			}
			if (v > 0 && v < lo)
				lo = v;
			if (v > hi)
				hi = v;
		}
	}
	for (int k = 0; !p99 && (nops || has_lat) && k < r->stalls.nevents;
	     k++) {
		double v = r->stalls.events[k].duration_ms;

		if (v > 0 && v < lo)
			lo = v;
		if (v > hi)
			hi = v;
	}
	if (!nops && !has_lat) {
		html_note(f, p99 ? "p99" : "maxlat",
		     p99 ? "No p99 over time: the time series of this result "
			   "has no per-operation percentiles."
			 : "No latency over time: the time series of this "
			   "result has no per-operation figures and no "
			   "latency.");
		return;
	}
	s.n = r->npoints < MAX_COLUMNS ? r->npoints : MAX_COLUMNS;
	s.x = calloc(s.n, sizeof(*s.x));
	s.v = calloc(s.n, sizeof(*s.v));
	s.ok = calloc(s.n, sizeof(*s.ok));
	if (!s.x || !s.v || !s.ok) {
		html_note(f, p99 ? "p99" : "maxlat", "Not drawn: out of memory.");
		goto out;
	}
	fr.xmin = html_ts_xmin(r);
	fr.xmax = html_ts_xmax(r);
	svg_log_range(&fr, lo, hi);
	lb.x0 = fr.x0;
	lb.y0 = fr.y0;
	lb.x1 = fr.x0 + fr.w;
	lb.y1 = fr.y0 + fr.h;
	if (r->npoints && r->points[0].warmup) /* its "warmup" label */
		html_label_text_box(&lb, "warmup", 10, svg_fx(&fr, fr.xmin) + 4,
				    fr.y0 + 12, false);

	fputs("<figure>\n", f);
	html_ts_begin(f, r, &fr, p99 ? "p99" : "maxlat",
		 p99 ? "p99 latency per interval, per operation"
		     : "Slowest call per interval, per operation",
		 "latency (log scale)");
	svg_y_log_axis(f, &fr, true);
	html_ts_warmup(f, r, &fr, true);
	ly = fr.y0 + 8;
	if (has_lat) {
		series_fill(&s, r, -1, false);
		fputs("<g class=\"dbl\" data-op=\"dbench\" stroke=\"#3b424b\" "
		      "fill=\"#3b424b\" stroke-width=\"1.4\" opacity=\"0.8\">"
		      "<title>dbench latency</title>\n",
		      f);
		series_draw(f, &fr, &s);
		fputs("</g>\n", f);
	}
	for (int op = 0; op < OP_NR; op++) {
		if (!has[op])
			continue;
		series_fill(&s, r, op, p99);
		fprintf(f,
			"<g class=\"os%d\" data-op=\"%s\" stroke=\"%s\" "
			"fill=\"%s\" stroke-width=\"1.4\"><title>%s</title>\n",
			op, op_info[op].label, html_op_colour[op],
			html_op_colour[op], op_info[op].label);
		series_draw(f, &fr, &s);
		fputs("</g>\n", f);
		for (size_t c = 0; on[op] && c < s.n; c++) {
			if (s.ok[c] && s.v[c] > top) {
				top = s.v[c];
				top_x = s.x[c];
				top_op = op;
			}
		}
	}
	if (has_lat) {
		svg_legend_entry(f, fr.x0 + fr.w + 16, ly, "#3b424b",
			     "dbench latency", true);
		ly += 17;
	}
	if (top_op >= 0 && !p99) {
		double x = svg_fx(&fr, top_x), y = svg_fy(&fr, top), tx, ty;
		bool end;
		char t[96], waker[400];

		html_fmt_lat(b, sizeof(b), top);
		snprintf(t, sizeof(t), "%s %s at %.1f s", op_info[top_op].label,
			 b, top_x);
		fprintf(f,
			"<circle class=\"os%d\" cx=\"%.1f\" cy=\"%.1f\" "
			"r=\"6\" fill=\"none\" stroke=\"#1e2125\"/>\n",
			top_op, x, y);
		html_label_mark(&lb, x, y, 7);
		/* the stalls' diamonds are drawn after: keep clear of them */
		for (int k = 0; k < r->stalls.nevents; k++) {
			const struct result_stall *ev = &r->stalls.events[k];
			double end_s = ev->start_s + ev->duration_ms / 1e3;

			html_label_mark(&lb, svg_fx(&fr, html_ts_t(r, end_s)),
					svg_fy(&fr, ev->duration_ms), 6);
		}
		/* with who woke its stall under it, else alone */
		top_ev = top_stall(r, top_op, top, waker, sizeof(waker));
		if (top_ev >= 0 &&
		    !html_label_place(&lb, t, 12, waker, x, y, &tx, &ty, &end))
			top_ev = -1;
		if (top_ev >= 0 ||
		    html_label_place(&lb, t, 12, NULL, x, y, &tx, &ty, &end)) {
			if (fabs(ty - y) > 20) /* placed away: a leader */
				fprintf(f,
					"<line class=\"lead os%d\" x1=\"%.1f\" "
					"y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
					top_op, x, y + (ty > y ? 6 : -6), tx,
					ty > y ? ty - 12 : ty + 2);
			fprintf(f,
				"<text class=\"ann lbl os%d\" x=\"%.1f\" "
				"y=\"%.1f\" text-anchor=\"%s\">%s</text>\n",
				top_op, tx, ty, end ? "end" : "start", t);
		}
		if (top_ev >= 0) {
			fprintf(f,
				"<text class=\"wl lbl os%d\" x=\"%.1f\" "
				"y=\"%.1f\"%s>",
				top_op, tx, ty + 14,
				end ? " text-anchor=\"end\"" : "");
			html_esc(f, waker);
			fputs("</text>\n", f);
		}
	}
	if (!p99 && r->stalls.nevents) {
		stall_marks(f, r, &fr, &lb, top_ev);
		fprintf(f,
			"<path class=\"stm\" stroke=\"#3b424b\" "
			"d=\"M%.1f %.1fl5 5-5 5-5-5z\"/>\n",
			fr.x0 + fr.w + 27, ly - 9);
		fprintf(f,
			"<text x=\"%.1f\" y=\"%.1f\">watchdog stall</text>\n",
			fr.x0 + fr.w + 44, ly);
	}
	svg_frame_rect(f, &fr, "frame");
	fputs("</svg>\n", f);
	if (p99)
		fprintf(f,
			"<figcaption>The 99th percentile of the calls of "
			"each operation that ended in each %g s interval (from "
			"the histogram difference).  Where intervals were "
			"merged to keep the series bounded, the larger p99 of "
			"the two is kept: an upper bound.</figcaption>\n",
			r->interval_s);
	else
		fprintf(f,
			"<figcaption>The slowest call of each operation "
			"that ended in each %g s interval (exact), and dashed "
			"dbench's latency figure of the progress line.  A "
			"stall is a spike far above the band of its operation: "
			"stalls that recur at a fixed period form a comb of "
			"evenly spaced spikes.  The largest of the operations "
			"shown at "
			"first is circled, labelled with the middle of its "
			"interval (and, traced with BPF, who woke its stall).  "
			"A "
			"missing line segment means the operation did not "
			"complete in that interval.</figcaption>\n",
			r->interval_s);
	fputs("</figure>\n", f);
out:
	free(s.x);
	free(s.v);
	free(s.ok);
}
