/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * multi_style.c - how each run of a page of several is drawn: its
 * colour (its side's in a comparison, its place in a series), faint or
 * bold (a side's median run), its short name, the legend, the ops the
 * plots show at first; the sections both pages overlay, and the opening
 * of a panel of one op.
 */
#include "multi.h"

#include <math.h>
#include <stdlib.h>

static const char *const side_colour[2] = {"#1f6fb4", "#e0540c"};

const char *mset_side_name(const struct mset *m, int side)
{
	return m->series ? "run" : side ? "candidate" : "baseline";
}

int mset_index(const struct mset *m, int i)
{
	int k = 0;

	for (int j = 0; j <= i; j++)
		k += m->series || m->run[j].side == m->run[i].side;
	return k;
}

void mset_short(const struct mset *m, int i, char *buf, size_t len)
{
	if (m->series)
		snprintf(buf, len, "%d", i + 1);
	else
		snprintf(buf, len, "%c%d", m->run[i].side ? 'C' : 'B',
			 mset_index(m, i));
}

/* hue @h (degrees), saturation and lightness 0..1, as #rrggbb */
static void hsl(char *buf, size_t len, double h, double s, double l)
{
	/* the sextant of the hue: which of r, g, b get c and x */
	static const int ci[6] = {0, 1, 1, 2, 2, 0}, xi[6] = {1, 0, 2, 1, 0, 2};
	double c = (1 - fabs(2 * l - 1)) * s, hp = h / 60;
	double x = c * (1 - fabs(fmod(hp, 2) - 1)), m = l - c / 2;
	double rgb[3] = {0, 0, 0};
	int k = (int)hp % 6;

	rgb[ci[k]] = c;
	rgb[xi[k]] = x;
	snprintf(buf, len, "#%02x%02x%02x", (int)lround((rgb[0] + m) * 255),
		 (int)lround((rgb[1] + m) * 255),
		 (int)lround((rgb[2] + m) * 255));
}

const char *mset_colour(const struct mset *m, int i, char *buf, size_t len)
{
	double t;

	if (!m->series)
		return side_colour[m->run[i].side ? 1 : 0];
	/* blue (first) through purple to red (last) */
	t = m->n > 1 ? (double)i / (m->n - 1) : 0;
	hsl(buf, len, fmod(225 + t * 135, 360), 0.75, 0.45);
	return buf;
}

static const double *cmp_vals;

static int by_val(const void *a, const void *b)
{
	double x = cmp_vals[*(const int *)a], y = cmp_vals[*(const int *)b];

	return x < y ? -1 : x > y ? 1 : *(const int *)a - *(const int *)b;
}

int mset_median(const struct mset *m, int side, const double *v)
{
	int *idx = malloc((size_t)m->n * sizeof(*idx)), k = 0, best;

	if (!idx)
		return -1;
	for (int i = 0; i < m->n; i++) {
		if ((m->series || m->run[i].side == side) && !isnan(v[i]))
			idx[k++] = i;
	}
	cmp_vals = v;
	qsort(idx, (size_t)k, sizeof(*idx), by_val);
	best = k ? idx[(k - 1) / 2] : -1; /* the lower median */
	free(idx);
	return best;
}

/* the stroke of run i, bold when it is @bold[side]; false: to be drawn
 * coarse (a faint run, a run of a long series) */
static bool mset_stroke(FILE *f, const struct mset *m, int i, const int bold[2])
{
	int side = m->run[i].side ? 1 : 0;
	bool b = !m->series && bold[side] == i;
	char c[16];

	/* page.css: .rf0 .rf1 faint, .rb0 .rb1 bold, .rs a series' run */
	if (m->series)
		fprintf(f, " class=\"rs\" stroke=\"%s\"",
			mset_colour(m, i, c, sizeof(c)));
	else
		fprintf(f, " class=\"%s%d\"", b ? "rb" : "rf", side);
	/* a series of many runs is drawn coarse too: the page stays small */
	return b || (m->series && m->n <= 8);
}

struct line mset_line_open(FILE *f, const struct mset *m, int i,
			   const int bold[2])
{
	struct line l = {.f = f};
	char s[16];

	mset_short(m, i, s, sizeof(s));
	fprintf(f, "<polyline data-run=\"%s\"", s);
	l.coarse = !mset_stroke(f, m, i, bold);
	fputs(" points=\"", f);
	return l;
}

void mset_line_close(struct line *l)
{
	svg_line_end(l);
	fputs("\"/>\n", l->f);
}

void mset_legend(FILE *f, const struct mset *m, const char *bold_by)
{
	char c[16], s[16];

	fputs("<div class=\"legend\">", f);
	if (!m->series) {
		for (int side = 0; side < 2; side++)
			fprintf(f,
				"<span class=\"op\"><span class=\"sw\" "
				"style=\"background:%s\"></span>%s: %d run%s"
				"</span> ",
				side_colour[side], mset_side_name(m, side),
				m->nside[side], m->nside[side] == 1 ? "" : "s");
		fprintf(f,
			"<span class=\"sub\">each run faint, the median run "
			"of its side by %s bold</span>",
			bold_by);
	}
	for (int i = 0; m->series && i < m->n; i++) {
		mset_short(m, i, s, sizeof(s));
		fprintf(f,
			"<span class=\"op\"><span class=\"sw\" "
			"style=\"background:%s\"></span>%s ",
			mset_colour(m, i, c, sizeof(c)), s);
		html_esc(f, m->run[i].name ? m->run[i].name : "?");
		fputs("</span> ", f);
	}
	fputs("</div>\n", f);
}

void mset_ops(const struct mset *m, const bool *boost, bool ran[OP_NR],
	      bool on[OP_NR])
{
	double score[OP_NR];

	for (int op = 0; op < OP_NR; op++) {
		ran[op] = false;
		score[op] = boost && boost[op] ? 1e30 : 0;
		for (int i = 0; i < m->n; i++) {
			const struct result *r = m->run[i].r;

			if (!html_op_shown(r, op))
				continue;
			ran[op] = true;
			score[op] += (double)r->op[op].h.max +
				     (double)r->op[op].h.count * 1e-12;
		}
	}
	html_opsel_top(score, ran, on);
}

void mset_overlays(FILE *f, const struct mset *m, const bool ran[OP_NR],
		   const bool on[OP_NR])
{
	bool bins = false;

	for (int i = 0; i < m->n; i++)
		bins = bins || m->run[i].r->has_bins;
	fputs("<h2>Latency distributions</h2>\n", f);
	if (bins || mset_has_p99(m)) /* else no plot of an op */
		html_opsel(f, ran, on, "the per-operation plots");
	mset_plot_spectra(f, m, ran);
	fputs("<h2>Over time</h2>\n", f);
	mset_plot_throughput(f, m);
	mset_plot_p99(f, m, ran);
	fputs("<h2>Stalls</h2>\n", f);
	mset_stall_lanes(f, m);
	fputs("<h2>The machine</h2>\n", f);
	mset_machine(f, m);
	fputs("<h2>What differs between the runs</h2>\n", f);
}

void mset_panel_open(FILE *f, const char *kind, int op, double h,
		     const char *what, const struct frame *fr)
{
	fprintf(f, "<div class=\"panel os%d\" data-op=\"%s\">\n", op,
		op_info[op].label);
	fprintf(f,
		"<svg class=\"plot\" data-plot=\"%s\" data-op=\"%s\" "
		"viewBox=\"0 0 400 %.0f\" width=\"100%%\" role=\"img\" "
		"aria-label=\"%s of %s, every run\">\n",
		kind, op_info[op].label, h, what, op_info[op].label);
	fprintf(f,
		"<text class=\"pt\" x=\"%.1f\" y=\"18\" fill=\"%s\">%s %s"
		"</text>\n",
		fr->x0, html_op_colour[op], op_info[op].label, what);
	svg_frame_rect(f, fr, "bg");
}
