/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_compare_own.c - compare on a busy machine (issue 24, item 2):
 * runs beside other load that carry own latencies (BPF) are compared on
 * those and on the throughput corrected alike; the raw figures stay in
 * the table; the headline says so.  Runs of a quiet machine, or a side
 * that lacks them, are compared raw, with a note.  And the table's
 * numbers: a huge value keeps to its column.  The HTML page of compare
 * shows the same rows, figures and verdicts as its text table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <unistd.h>

#include <cmocka.h>

#include "compare.h"
#include "compare_html.h"
#include "compare_impl.h"
#include "compare_test.h"
#include "result.h"
#include "sigtest_test.h"

/*
 * The model: four ops with lognormal own latencies (shape 0.6) and a
 * run-to-run scale of 3 %; beside a CPU burner each run's clients wait a
 * share @busy of their time for it (a run-to-run draw), which adds to
 * every call's latency in proportion and takes the throughput down by
 * that share.  own_mbps is the throughput with that wait taken out.
 */
#define NOPS 4
static const int mop[NOPS] = {OP_NTCREATEX, OP_READX, OP_WRITEX, OP_RENAME};
static const double mms[NOPS] = {0.3, 0.05, 0.4, 0.4};
static const int mn[NOPS] = {4000, 4000, 3000, 2000};

struct own_run {
	double slower;	/* own latencies times this, own MB/s over it */
	double busy;	/* the mean share of foreign wait; 0: quiet */
	bool bpf;	/* own latencies recorded */
};

static struct result *run(struct st_rng *g, const struct own_run *c)
{
	struct result *r = result_new();
	double scale = exp(0.03 * st_rng_normal(g)) * c->slower;
	double f = c->busy > 0 ? c->busy * (0.5 + st_rng_uniform(g)) : 0;
	double own_mbps = 100 / scale;

	assert_non_null(r);
	r->has_bins = true;
	r->measured_s = 10;
	r->cfg.nclients = 2;
	r->throughput = own_mbps * (1 - f);
	r->disturb.valid = true;
	r->disturb.other_cpus = c->busy > 0 ? 1.0 : 0.01;
	r->disturb.steal_pct = 0;
	if (c->bpf) {
		r->foreign.method = FOREIGN_BPF;
		r->foreign.own_mbps = own_mbps;
		r->foreign.wait_ns = (uint64_t)(f * 2 * 10 * 1e9);
	}
	for (int k = 0; k < NOPS; k++) {
		struct result_op *o = &r->op[mop[k]];
		int n = (int)lround(mn[k] / scale * (1 - f));

		for (int i = 0; i < n; i++) {
			double own = mms[k] * 1e6 * scale *
				     exp(0.6 * st_rng_normal(g));
			/* the wait: most calls none, some a time slice */
			double w = st_rng_uniform(g) < f ? 3e6 : 0;

			hist_record(&o->h, (uint64_t)(own + w));
			if (c->bpf) {
				hist_record(&o->own, (uint64_t)own);
				o->foreign_ns += (uint64_t)w;
			}
		}
	}
	return r;
}

static void runs(struct st_rng *g, struct result **v, int n,
		 const struct own_run *c)
{
	for (int i = 0; i < n; i++)
		v[i] = run(g, c);
}

static void free_runs(struct result **v, int n)
{
	for (int i = 0; i < n; i++)
		result_free(v[i]);
}

static char *printed(const struct cmp_report *rep)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	cmp_print(f, rep);
	fclose(f);
	return buf;
}

static bool row(const struct cmp_report *rep, const char *op,
		const char *metric, struct cmp_row_info *out)
{
	for (int i = 0; i < cmp_nrows(rep); i++) {
		cmp_get_row(rep, i, out);
		if (!strcmp(out->op, op) && !strcmp(out->metric, metric))
			return true;
	}
	return false;
}

static struct cmp_report *compare(struct result **a, int na,
				  struct result **b, int nb)
{
	struct cmp_opts o;
	struct cmp_report *rep;

	cmp_opts_default(&o);
	o.boot_iters = 500;
	rep = cmp_run(a, na, b, nb, &o);
	assert_non_null(rep);
	return rep;
}

/*
 * A vs A, the candidate beside a burner that took 40 % of its clients'
 * time, the baseline on a quiet machine: raw, the throughput is 40 %
 * lower and every latency longer (the raw comparison says regressed);
 * on own latencies nothing changed, the headline says how it decided,
 * and the table keeps the raw figures.
 */
static void test_own_avsa(void **state)
{
	static const struct own_run quiet = {1, 0, true},
				    busy = {1, 0.4, true},
				    busy_raw = {1, 0.4, false};
	struct result *a[5], *b[5];
	struct cmp_report *rep;
	struct cmp_row_info ri;
	struct st_rng g;
	char *out;

	(void)state;
	st_rng_seed(&g, 2401);
	runs(&g, a, 5, &quiet);
	runs(&g, b, 5, &busy);
	rep = compare(a, 5, b, 5);
	out = printed(rep);
	printf("%s", out);
	assert_true(cmp_own(rep));
	assert_int_equal(cmp_verdict(rep), 0);
	assert_non_null(strstr(cmp_reason(rep),
			       "; on own latencies (busy machine)"));
	assert_non_null(strstr(out, "\nown latencies: 5 of 10 runs ran on a "
				    "busy machine"));
	assert_non_null(strstr(out, " Own chg "));
	assert_true(row(rep, "all", "MB/s", &ri));
	/* the raw figures in the table; the own ones decide */
	assert_true(ri.raw_cand < 0.8 * ri.raw_base);
	assert_true(fabs(ri.cand / ri.base - 1) < 0.1);
	assert_int_equal(ri.verdict, 0);
	free(out);
	cmp_free(rep);
	/* the same candidate without own latencies: raw, and regressed */
	free_runs(b, 5);
	runs(&g, b, 5, &busy_raw);
	rep = compare(a, 5, b, 5);
	out = printed(rep);
	assert_false(cmp_own(rep));
	assert_int_equal(cmp_verdict(rep), 1);
	assert_non_null(strstr(out, "note: 5 of 10 runs ran beside other "
				    "load, but 5 of them (0 baseline, 5 "
				    "candidate) carry no own latencies"));
	assert_null(strstr(out, " Own chg "));
	free(out);
	cmp_free(rep);
	free_runs(a, 5);
	free_runs(b, 5);
}

/*
 * A real regression beside the burner: own latencies twice as long, own
 * throughput halved -- regressed, and the headline names the own
 * throughput.  One run a side alike (past the 40 % of a busy machine's
 * single runs): the own figures decide.
 */
static void test_own_regression(void **state)
{
	static const struct own_run base = {1, 0.3, true},
				    slow = {2, 0.3, true};
	struct result *a[5], *b[5];
	struct cmp_report *rep;
	struct st_rng g;

	(void)state;
	st_rng_seed(&g, 2402);
	runs(&g, a, 5, &base);
	runs(&g, b, 5, &slow);
	rep = compare(a, 5, b, 5);
	assert_true(cmp_own(rep));
	assert_int_equal(cmp_verdict(rep), 1);
	assert_non_null(strstr(cmp_reason(rep), "regressed: own throughput "));
	assert_non_null(strstr(cmp_reason(rep), "on own latencies"));
	cmp_free(rep);
	rep = compare(a, 1, b, 1);
	assert_true(cmp_own(rep));
	assert_int_equal(cmp_verdict(rep), 1);
	assert_non_null(strstr(cmp_reason(rep), "regressed: own throughput "));
	cmp_free(rep);
	free_runs(a, 5);
	free_runs(b, 5);
}

/*
 * One run a side, A vs A: the baseline quiet, the candidate's clients
 * waiting 60 % of their time (on average) for a burner.  Raw, a 60 %
 * lower throughput; on own figures, no change.
 */
static void test_own_one_run(void **state)
{
	static const struct own_run quiet = {1, 0, true},
				    busy = {1, 0.6, true};
	struct result *a[12], *b[12];
	struct cmp_report *rep;
	struct st_rng g;
	int flagged = 0;

	(void)state;
	st_rng_seed(&g, 2403);
	runs(&g, a, 12, &quiet);
	runs(&g, b, 12, &busy);
	for (int i = 0; i < 12; i++) {
		rep = compare(&a[i], 1, &b[i], 1);
		assert_true(cmp_own(rep));
		flagged += cmp_verdict(rep);
		cmp_free(rep);
	}
	assert_int_equal(flagged, 0);
	free_runs(a, 12);
	free_runs(b, 12);
}

/* Own latencies on a quiet machine change nothing: raw, no Own chg. */
static void test_own_quiet(void **state)
{
	static const struct own_run quiet = {1, 0, true};
	struct result *a[3], *b[3];
	struct cmp_report *rep;
	struct st_rng g;
	char *out;

	(void)state;
	st_rng_seed(&g, 2404);
	runs(&g, a, 3, &quiet);
	runs(&g, b, 3, &quiet);
	rep = compare(a, 3, b, 3);
	out = printed(rep);
	assert_false(cmp_own(rep));
	assert_null(strstr(out, "own latencies"));
	assert_null(strstr(out, " Own chg "));
	free(out);
	cmp_free(rep);
	/* a run whose clients waited for a burner (BPF's share past 2 %),
	 * the machine's other processes under the bound: busy too */
	b[0]->foreign.wait_ns = (uint64_t)(0.05 * 2 * 10 * 1e9);
	rep = compare(a, 3, b, 3);
	assert_true(cmp_own(rep));
	cmp_free(rep);
	free_runs(a, 3);
	free_runs(b, 3);
}

/* The table's numbers: 3 significant digits, an exponent past 7 digits
 * (a hostile 1.8e308 MB/s keeps to its column) */
static void test_fmt_num(void **state)
{
	static const struct {
		double v;
		const char *s;
	} t[] = {
		{0, "0"},
		{0.0346, "0.0346"},
		{8, "8.00"},
		{12.04, "12.0"},
		{1930, "1930"},
		{9999999, "9999999"},
		{12345678, "1.23e+07"},
		{1.7976931348623157e308, "1.8e+308"},
		{-2.5e9, "-2.5e+09"},
		{INFINITY, "inf"},
		{NAN, "-"},
	};
	char buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		assert_string_equal(cmp_fmt_num(buf, sizeof(buf), t[i].v),
				    t[i].s);
}

/* the whole of file @path, NUL-terminated */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/*
 * compare --html of a comparison decided on own latencies: the page's
 * verdict rows are the text table's, cell for cell (raw Baseline,
 * Candidate and Change, the Own chg, p, CI and the verdict word), with
 * the Own chg column and the lines on what decided.
 */
static void page_is_table(struct result **a, int na, struct result **b,
			  int nb, bool own)
{
	char dir[] = "/tmp/test_compare_own.XXXXXX", path[64], err[256];
	char *names[10], *out, *page;
	struct result *all[10];
	struct cmp_report *rep = compare(a, na, b, nb);
	char scope[2048];

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/cmp.html", dir);
	for (int i = 0; i < na + nb; i++) {
		all[i] = i < na ? a[i] : b[i - na];
		names[i] = i < na ? "base.json" : "cand.json";
	}
	assert_int_equal(cmp_own(rep), own);
	assert_int_equal(compare_html_file(rep, all, names, na, names + na,
					   nb, path, err, sizeof(err)),
			 0);
	page = slurp(path);
	out = printed(rep);
	assert_int_equal(strstr(page, "<th class=\"n\">Own chg</th>") != NULL,
			 own);
	for (int i = 0; i < cmp_nrows(rep); i++) {
		struct cmp_row_text t;
		struct cmp_row_info ri;
		char cells[400], line[400], num[32];

		cmp_row_text(rep, i, &t);
		/* both show the raw medians, the own ones decide */
		cmp_get_row(rep, i, &ri);
		assert_string_equal(t.base, cmp_fmt_num(num, sizeof(num),
							ri.raw_base));
		assert_string_equal(t.cand, cmp_fmt_num(num, sizeof(num),
							ri.raw_cand));
		/* the page's row */
		snprintf(cells, sizeof(cells),
			 "<td class=\"n\">%s</td><td class=\"n\">%s</td><td "
			 "class=\"n\">%s</td>%s%s%s<td>",
			 t.base, t.cand, t.change,
			 own ? "<td class=\"n\">" : "", own ? t.own : "",
			 own ? "</td>" : "");
		if (!strstr(page, cells))
			fail_msg("row %d (%s): not on the page: %s", i,
				 t.metric, cells);
		snprintf(cells, sizeof(cells),
			 "<td class=\"n\">%s</td><td class=\"n\">%s</td><td "
			 "style=", t.ci, t.p);
		assert_non_null(strstr(page, cells));
		/* the text's row: the same texts */
		if (own)
			snprintf(line, sizeof(line),
				 " %10s %10s %9s %9s %9s %19s  %s\n", t.base,
				 t.cand, t.change, t.own, t.p, t.ci, t.word);
		else
			snprintf(line, sizeof(line),
				 " %10s %10s %9s %9s %19s  %s\n", t.base,
				 t.cand, t.change, t.p, t.ci, t.word);
		if (!strstr(out, line))
			fail_msg("row %d (%s): not in the text: %s", i,
				 t.metric, line);
		snprintf(cells, sizeof(cells), "<b>%s</b>", t.word);
		assert_non_null(strstr(page, cells));
	}
	/* what decided: the machine line, and the own one where it did */
	cmp_scope_text(rep, scope, sizeof(scope));
	assert_non_null(strstr(out, scope));
	assert_non_null(strstr(page, "<p class=\"scope\">machine: "));
	assert_int_equal(strstr(page, "<p class=\"scope\">own latencies: ") !=
				 NULL,
			 own);
	free(page);
	free(out);
	cmp_free(rep);
	unlink(path);
	rmdir(dir);
}

static void test_own_page(void **state)
{
	static const struct own_run quiet = {1, 0, true},
				    busy = {1, 0.4, true};
	struct result *a[5], *b[5];
	struct st_rng g;

	(void)state;
	st_rng_seed(&g, 2405);
	runs(&g, a, 5, &quiet);
	runs(&g, b, 5, &busy);
	page_is_table(a, 5, b, 5, true);
	page_is_table(a, 3, a + 3, 2, false);
	free_runs(a, 5);
	free_runs(b, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_own_avsa),
		cmocka_unit_test(test_own_page),
		cmocka_unit_test(test_own_regression),
		cmocka_unit_test(test_own_one_run),
		cmocka_unit_test(test_own_quiet),
		cmocka_unit_test(test_fmt_num),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
