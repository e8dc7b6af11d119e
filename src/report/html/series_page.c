/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * series_page.c - the page of report with several files: the runs in the
 * order given (a series, a bisect's steps), each in its own colour from
 * blue (the first) to red (the last), overlaid (multi_*.c), after a plot
 * of each run's throughput and slowest call against its place in the
 * order.
 */
#include "multi.h"

#include "file_replace.h"

#include <math.h>

/* MB/s and max_latency of each run against its number */
static void by_run(FILE *f, const struct mset *m)
{
	struct frame fr = {.x0 = 74, .y0 = 36, .w = 950, .h = 220};
	double vmax = 0, step;
	struct line l = {.f = f};
	char c[16], s[16];

	for (int i = 0; i < m->n; i++)
		vmax = fmax(vmax, m->run[i].r->throughput);
	if (!(vmax > 0))
		vmax = 1;
	step = svg_nice_step(vmax, 5);
	fr.ymax = ceil(vmax / step) * step;
	fr.xmin = 0.5;
	fr.xmax = m->n + 0.5;
	fputs("<figure>\n", f);
	svg_open(f, "byrun", 1200, 300, "throughput of each run");
	fputs("<text class=\"title\" x=\"8\" y=\"20\">Throughput of each run, "
	      "in the order given</text>\n",
	      f);
	svg_frame_rect(f, &fr, "bg");
	svg_y_lin_axis(f, &fr, step);
	svg_y_title(f, 16, fr.y0 + fr.h / 2, "MB/s");
	fputs("<polyline class=\"tput\" points=\"", f);
	for (int i = 0; i < m->n; i++)
		svg_line_pt(&l, svg_fx(&fr, i + 1),
			    svg_fy(&fr, m->run[i].r->throughput));
	svg_line_end(&l);
	fputs("\"/>\n", f);
	for (int i = 0; i < m->n; i++) {
		double x = svg_fx(&fr, i + 1);

		mset_short(m, i, s, sizeof(s));
		fprintf(f,
			"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\">"
			"<title>run %s: %.2f MB/s</title></circle>\n",
			x, svg_fy(&fr, m->run[i].r->throughput),
			mset_colour(m, i, c, sizeof(c)), s,
			m->run[i].r->throughput);
		if (m->n <= 40 || i % ((m->n + 39) / 40) == 0)
			fprintf(f,
				"<text class=\"xl\" x=\"%.1f\" y=\"%.1f\">%s"
				"</text>\n",
				x, fr.y0 + fr.h + 15, s);
	}
	fprintf(f,
		"<text class=\"at\" x=\"%.1f\" y=\"290\">run, in the order "
		"of the command line</text>\n",
		fr.x0 + fr.w / 2);
	svg_frame_rect(f, &fr, "frame");
	fputs("</svg>\n<figcaption>Each run's reported throughput (its "
	      "measured phase); a step between two runs is where the series "
	      "changed.</figcaption>\n</figure>\n",
	      f);
}

int report_html_series(FILE *f, const struct html_run *runs, int n)
{
	struct mset m = {.n = n, .run = runs, .series = true, .nside = {n, 0}};
	bool ran[OP_NR], on[OP_NR];

	mset_ops(&m, NULL, ran, on);
	html_head_open(f);
	fprintf(f, "dbench-ng report: %d runs", n);
	html_head_close(f);
	fprintf(f,
		"<header>\n<h1>dbench-ng report: %d runs overlaid</h1>\n"
		"<div class=\"sub\">In the order given, from blue (run 1) to "
		"red (run %d); each run's own page is <code>dbench-ng report "
		"FILE --html</code>.</div>\n</header>\n",
		n, n);
	fputs("<h2>The runs</h2>\n", f);
	mset_runs_table(f, &m);
	by_run(f, &m);
	mset_overlays(f, &m, ran, on);
	mset_config_diff(f, &m);
	fputs("<p class=\"sub\">Written by dbench-ng report --html; "
	      "self-contained: no script, nothing fetched.</p>\n"
	      "</main>\n</body>\n</html>\n",
	      f);
	return ferror(f) ? -1 : 0;
}

struct series_ctx {
	const struct html_run *runs;
	int n;
};

static int emit(FILE *f, const void *p)
{
	const struct series_ctx *c = p;

	return report_html_series(f, c->runs, c->n);
}

int report_html_series_file(const struct html_run *runs, int n,
			    const char *path, char *err, size_t errlen)
{
	struct series_ctx c = {runs, n};

	return file_replace(path, "--html", emit, &c, err, errlen);
}
