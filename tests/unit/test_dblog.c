/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_dblog.c - reading dbench text logs back: the dbench 4.0 sample of
 * the compatibility notes field by field, real 4.0 logs (-s -S, warmup,
 * --per-client-results), later dbench's wide and machine-readable forms,
 * dbench-ng's own output, truncated and failed runs, and garbage.  Run it
 * from the top of the tree (it reads tests/data/dblog/).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dblog.h"
#include "result.h"

#define DATA_DIR "tests/data/dblog/"

/* ------------------------------ helpers -------------------------------- */

static char *slurp(const char *name, size_t *len)
{
	char path[256];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), DATA_DIR "%s", name);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s (run from the top of the tree)", path);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* parse @len bytes of @text; expect success */
static struct result *parse_ok(const char *name, const char *text, size_t len)
{
	struct result *r = result_new();
	char err[256] = "";

	assert_non_null(r);
	if (dblog_parse(name, text, len, r, err, sizeof(err)))
		fail_msg("%s: unexpected error: %s", name, err);
	return r;
}

static struct result *parse_file(const char *name)
{
	size_t len;
	char *text = slurp(name, &len);
	struct result *r = parse_ok(name, text, len);

	free(text);
	return r;
}

/* parse @text; expect failure with exactly @want */
static void parse_err(const char *name, const char *text, size_t len,
		      const char *want)
{
	struct result *r = result_new();
	char err[256] = "";

	assert_non_null(r);
	assert_int_equal(dblog_parse(name, text, len, r, err, sizeof(err)), -1);
	assert_string_equal(err, want);
	result_free(r);
}

static void parse_err_str(const char *name, const char *text, const char *want)
{
	parse_err(name, text, strlen(text), want);
}

static int op(const char *label)
{
	int i = op_by_label(label);

	if (i < 0)
		i = op_lookup(label);
	assert_true(i >= 0);
	return i;
}

/* mean in ms as dbench prints it */
static double avg_ms(uint64_t sum, uint64_t count)
{
	return count ? (double)sum / (double)count / 1e6 : 0;
}

static void check_printed(double got, double printed)
{
	char a[32], b[32];

	snprintf(a, sizeof(a), "%.3f", got);
	snprintf(b, sizeof(b), "%.3f", printed);
	assert_string_equal(a, b);
}

/*
 * check_table - compare the per-op figures of @r (the total, or client
 * @client when >= 0) with the table starting after line @from of @text:
 * an independent sscanf reading of the same rows.  Ops not in the table
 * must be zero.  Returns where the table ended.
 */
static const char *check_table(const struct result *r, int client,
			       const char *text)
{
	const char *p = strstr(text, " Operation ");
	bool seen[OP_NR] = {false};
	int rows = 0;

	assert_non_null(p);
	p = strchr(p, '\n') + 1; /* the header */
	p = strchr(p, '\n') + 1; /* the rule */
	for (;;) {
		char label[64];
		unsigned int count;
		double avg, max;
		uint64_t c, s, m;
		int i;

		if (*p == '\n' || *p == '\r' || !*p)
			break;
		if (sscanf(p, " %63s %u %lf %lf", label, &count, &avg, &max) !=
			    4 &&
		    sscanf(p, ":%63[^:]:%u:%lf:%lf:", label, &count, &avg,
			   &max) != 4)
			fail_msg("test table row unreadable: %.40s", p);
		i = op(label);
		seen[i] = true;
		rows++;
		if (client < 0) {
			c = r->op[i].h.count;
			s = r->op[i].h.sum;
			m = r->op[i].h.max;
			assert_int_equal(r->op[i].h.min, 0);
		} else {
			c = r->clients[client].count[i];
			s = r->clients[client].sum_ns[i];
			m = r->clients[client].max_ns[i];
		}
		assert_int_equal(c, count);
		check_printed(avg_ms(s, c), avg);
		assert_int_equal(m, (uint64_t)llround(max * 1e6));
		assert_true(llabs((long long)s - llround(avg * 1e6 * count)) <=
			    1);
		p = strchr(p, '\n') + 1;
	}
	assert_true(rows > 0);
	for (int i = 0; i < OP_NR; i++) {
		if (seen[i])
			continue;
		if (client < 0)
			assert_int_equal(r->op[i].h.count + r->op[i].h.sum +
						 r->op[i].h.max,
					 0);
		else
			assert_int_equal(r->clients[client].count[i], 0);
	}
	return p;
}

static void check_bins_empty(const struct result *r)
{
	assert_false(r->has_bins);
	for (int i = 0; i < OP_NR; i++) {
		assert_int_equal(r->op[i].h.overflow, 0);
		for (unsigned int b = 0; b < HIST_BUCKETS; b++)
			assert_int_equal(r->op[i].h.bins[b], 0);
	}
}

static void check_point(const struct result_point *p, double t, bool warmup,
			uint64_t lines, uint64_t bytes, double lat)
{
	assert_true(fabs(p->t - t) < 1e-9);
	assert_true(fabs(p->dur - 1) < 1e-9);
	assert_int_equal(p->warmup, warmup);
	assert_int_equal(p->lines, lines);
	/* computed in doubles: allow the last unit */
	assert_true(llabs((long long)(p->bytes - bytes)) <= 1);
	assert_true(fabs(p->latency_ms - lat) < 1e-9);
	for (int i = 0; i < OP_NR; i++)
		assert_int_equal(p->count[i] + p->max_ns[i] + p->p99_ns[i], 0);
}

/* --------------------------- dbench 4.0 logs --------------------------- */

static void test_sample(void **state)
{
	size_t len;
	char *text = slurp("sample-4.0.txt", &len);
	struct result *r = parse_ok("sample-4.0.txt", text, len);
	const struct hist *h;

	(void)state;
	assert_string_equal(r->tool, "dbench");
	assert_string_equal(r->version, "4.00");
	assert_null(r->start_time);
	assert_int_equal(r->status, RESULT_OK);
	assert_int_equal(r->nerrors, 0);
	/* Running line */
	assert_int_equal(r->cfg.timelimit, 5);
	assert_int_equal(r->cfg.warmup, 1);
	assert_string_equal(r->cfg.loadfile, "/usr/share/dbench/client.txt");
	assert_ptr_equal(r->cfg.loadfile, r->owned[CFS_loadfile]);
	/* Throughput line */
	assert_true(fabs(r->throughput - 414.288) < 1e-9);
	assert_true(fabs(r->max_latency_ms - 13.307) < 1e-9);
	assert_int_equal(r->cfg.nclients, 2);
	assert_int_equal(r->cfg.nprocs, 2);
	assert_int_equal(r->cfg.cpp, 1);
	assert_false(r->cfg.sync_open);
	assert_false(r->cfg.sync_dirs);
	assert_false(r->cfg.per_client);
	assert_false(r->cfg.machine);
	assert_int_equal(r->nclients, 0);
	assert_null(r->clients);
	/* table */
	check_table(r, -1, text);
	check_bins_empty(r);
	h = &r->op[OP_NTCREATEX].h;
	assert_int_equal(h->count, 58831);
	assert_int_equal(h->sum, 764803000);
	assert_int_equal(h->max, 8261000);
	assert_int_equal(h->min, 0);
	assert_int_equal((uint64_t)llround(hist_mean(h)), 13000);
	h = &r->op[OP_FLUSH].h;
	assert_int_equal(h->count, 4127);
	assert_int_equal(h->sum, 5909864000);
	assert_int_equal(h->max, 13302000);
	assert_int_equal(r->op[OP_QFILEINFO].h.sum, 0); /* 0.000 ms */
	assert_int_equal(r->op[OP_DELTREE].h.count, 0);
	assert_int_equal(r->op[OP_SLEEP].h.count, 0);
	for (int i = 0; i < OP_NR; i++) {
		assert_int_equal(r->op[i].errors, 0);
		assert_int_equal(r->op[i].max_client, -1);
		assert_null(r->op[i].max_file);
	}
	/* time series: warmup 1 s, execute 1..4 */
	assert_true(fabs(r->interval_s - 1) < 1e-9);
	assert_true(fabs(r->warmup_s - 1) < 1e-9);
	assert_true(fabs(r->measured_s - 4) < 1e-9);
	assert_int_equal(r->npoints, 4);
	check_point(&r->points[0], 2, false, 166537 * 2, 931210000, 11.190);
	check_point(&r->points[1], 3, false, (197031 - 166537) * 2,
		    630930000ull * 2 - 931210000, 9.748);
	check_point(&r->points[2], 4, false, (213690 - 197031) * 2,
		    480110000ull * 3 - 630930000ull * 2, 13.307);
	check_point(&r->points[3], 5, false, (233890 - 213690) * 2,
		    414290000ull * 4 - 480110000ull * 3, 10.397);
	result_free(r);
	free(text);
}

/* the sample with CRLF line ends and trailing blanks reads the same */
static void test_crlf(void **state)
{
	size_t len, k = 0;
	char *text = slurp("sample-4.0.txt", &len);
	char *crlf = malloc(3 * len + 1);
	struct result *a, *b;

	(void)state;
	assert_non_null(crlf);
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '\n') {
			crlf[k++] = ' ';
			crlf[k++] = '\r';
		}
		crlf[k++] = text[i];
	}
	a = parse_ok("a", text, len);
	b = parse_ok("b", crlf, k);
	assert_string_equal(b->cfg.loadfile, a->cfg.loadfile);
	assert_int_equal(b->npoints, a->npoints);
	assert_memory_equal(b->points, a->points,
			    a->npoints * sizeof(*a->points));
	assert_memory_equal(b->op, a->op, sizeof(a->op));
	assert_true(b->throughput == a->throughput);
	result_free(a);
	result_free(b);
	free(text);
	free(crlf);
}

/* dbench -t 3 -s -S: suffixes; warmup 0 so no clock restart */
static void test_sync(void **state)
{
	size_t len;
	char *text = slurp("sync-4.0.txt", &len);
	struct result *r = parse_ok("sync-4.0.txt", text, len);

	(void)state;
	assert_true(r->cfg.sync_open);
	assert_true(r->cfg.sync_dirs);
	assert_true(fabs(r->throughput - 196.385) < 1e-9);
	assert_true(fabs(r->max_latency_ms - 7.129) < 1e-9);
	assert_int_equal(r->cfg.nclients, 2);
	assert_int_equal(r->cfg.nprocs, 2);
	assert_int_equal(r->cfg.warmup, 0);
	assert_int_equal(r->cfg.timelimit, 3);
	check_table(r, -1, text);
	assert_int_equal(r->op[OP_DELTREE].h.count, 2);
	assert_int_equal(r->op[OP_MKDIR].h.count, 2);
	assert_true(r->warmup_s == 0);
	assert_true(r->measured_s == 2);
	assert_int_equal(r->npoints, 2);
	check_point(&r->points[0], 1, false, 15149 * 2, 197080000, 4.044);
	check_point(&r->points[1], 2, false, (33278 - 15149) * 2,
		    196390000ull * 2 - 197080000, 7.129);
	result_free(r);
	free(text);
}

/* dbench -t 10: a warmup line, then the clock restarts */
static void test_warmup(void **state)
{
	struct result *r = parse_file("warmup-4.0.txt");

	(void)state;
	assert_int_equal(r->cfg.warmup, 2);
	assert_int_equal(r->npoints, 10);
	assert_true(r->warmup_s == 2);
	assert_true(r->measured_s == 9);
	check_point(&r->points[0], 1, true, 17035 * 2, 215800000, 11.538);
	/* the silent warmup-end tick is in the lines, not the bytes */
	check_point(&r->points[1], 3, false, (57144 - 17035) * 2, 220230000,
		    15.367);
	check_point(&r->points[2], 4, false, (75145 - 57144) * 2,
		    207850000ull * 2 - 220230000, 19.428);
	check_point(&r->points[9], 11, false, (257881 - 243097) * 2,
		    (uint64_t)llround(265.02e6 * 9 - 278.24e6 * 8), 12.347);
	assert_true(fabs(r->throughput - 265.015) < 1e-9);
	result_free(r);
}

static void test_per_client(void **state)
{
	size_t len;
	char *text = slurp("perclient-4.0.txt", &len);
	struct result *r = parse_ok("perclient-4.0.txt", text, len);
	const char *p;
	uint64_t sum = 0;

	(void)state;
	assert_true(r->cfg.per_client);
	assert_int_equal(r->cfg.nclients, 4);
	assert_int_equal(r->cfg.nprocs, 2);
	assert_int_equal(r->cfg.cpp, 2);
	assert_int_equal(r->nclients, 4);
	assert_non_null(r->clients);
	p = check_table(r, -1, text);
	p = strstr(p, "Per client results:");
	assert_non_null(p);
	for (int i = 0; i < 4; i++) {
		unsigned int id, lines;
		double bytes;

		p = strstr(p, "Client ");
		assert_non_null(p);
		assert_int_equal(sscanf(p,
					"Client %u did %u lines and %lf "
					"bytes",
					&id, &lines, &bytes),
				 3);
		assert_int_equal(id, i);
		assert_int_equal(r->clients[i].lines, lines);
		assert_int_equal(r->clients[i].bytes, (uint64_t)bytes);
		p = check_table(r, i, p);
		sum += r->clients[i].count[OP_NTCREATEX];
	}
	assert_int_equal(sum, r->op[OP_NTCREATEX].h.count);
	assert_int_equal(r->clients[0].lines, 33604);
	assert_int_equal(r->clients[0].bytes, 198318824);
	assert_int_equal(r->clients[3].sum_ns[OP_MKDIR], 5272000);
	/* lines: column x 4 clients */
	assert_int_equal(r->npoints, 2);
	assert_int_equal(r->points[0].lines, 17031 * 4);
	result_free(r);
	free(text);
}

/* a client with count 0 in a shown row prints nan */
static void test_per_client_nan(void **state)
{
	static const char log[] =
		"Running for 1 seconds with load 'x' and minimum warmup 0 "
		"secs\n"
		"\n Operation      Count    AvgLat    MaxLat\n"
		" ----------------------------------------\n"
		" Deltree            1     0.500     0.500\n\n"
		"Per client results:\n"
		"Client 0 did 10 lines and 0 bytes\n"
		" Operation      Count    AvgLat    MaxLat\n"
		" ----------------------------------------\n"
		" Deltree            0      -nan     0.000\n\n"
		"Client 1 did 12 lines and 7 bytes\n"
		" Operation      Count    AvgLat    MaxLat\n"
		" ----------------------------------------\n"
		" Deltree            1     0.500     0.500\n\n"
		"Throughput 0 MB/sec  2 clients  1 procs  max_latency=0.000 "
		"ms\n";
	struct result *r = parse_ok("nan", log, strlen(log));

	(void)state;
	assert_null(r->version);
	assert_string_equal(r->tool, "dbench");
	assert_int_equal(r->nclients, 2);
	assert_int_equal(r->clients[0].count[OP_DELTREE], 0);
	assert_int_equal(r->clients[0].sum_ns[OP_DELTREE], 0);
	assert_int_equal(r->clients[1].sum_ns[OP_DELTREE], 500000);
	assert_int_equal(r->clients[1].bytes, 7);
	assert_int_equal(r->cfg.cpp, 2);
	assert_int_equal(r->npoints, 0);
	result_free(r);
}

/* --------------------------- later dbench ------------------------------ */

static void test_wide(void **state)
{
	size_t len;
	char *text = slurp("wide-head.txt", &len);
	struct result *r = parse_ok("wide-head.txt", text, len);

	(void)state;
	check_table(r, -1, text);
	assert_int_equal(r->op[OP_QPATHINFO].h.count, 22415);
	assert_int_equal(r->op[OP_FIND].h.count, 8658);
	assert_int_equal(r->op[OP_SFILEINFO].h.max, 2154000);
	assert_int_equal(r->op[OP_QFSINFO].h.count, 4121);
	assert_int_equal(r->op[OP_NTCREATEX].h.count, 24838);
	assert_true(fabs(r->throughput - 176.934) < 1e-9);
	assert_int_equal(r->npoints, 2);
	assert_false(r->cfg.machine);
	result_free(r);
	free(text);
}

static void test_machine(void **state)
{
	size_t len;
	char *text = slurp("machine-head.txt", &len);
	struct result *r = parse_ok("machine-head.txt", text, len);

	(void)state;
	assert_true(r->cfg.machine);
	check_table(r, -1, text);
	assert_int_equal(r->op[OP_QPATHINFO].h.count, 22415);
	assert_int_equal(r->op[OP_DELTREE].h.count, 2);
	assert_int_equal(r->cfg.nclients, 2);
	assert_int_equal(r->cfg.nprocs, 2);
	assert_true(fabs(r->max_latency_ms - 19.428) < 1e-9);
	/* its final line says 0 (a dbench bug): the last execute line */
	assert_true(fabs(r->throughput - 200.42) < 1e-9);
	/* @W@ + 3 @R@; @C@ ignored */
	assert_int_equal(r->npoints, 4);
	check_point(&r->points[0], 1, true, 17035 * 2, 215800000, 11.538);
	check_point(&r->points[1], 3, false, (57144 - 17035) * 2, 220230000,
		    15.367);
	check_point(&r->points[3], 5, false, (92501 - 75145) * 2,
		    (uint64_t)llround(200.42e6 * 3 - 207.85e6 * 2), 14.231);
	assert_true(r->measured_s == 3);
	result_free(r);
	free(text);
}

/* ----------------------------- dbench-ng ------------------------------- */

static void test_ng(void **state)
{
	size_t len;
	char *text = slurp("ng-interrupted.txt", &len);
	struct result *r = parse_ok("ng-interrupted.txt", text, len);

	(void)state;
	assert_string_equal(r->tool, "dbench-ng");
	assert_string_equal(r->version, "0.3-12-gabcdef");
	assert_int_equal(r->status, RESULT_INTERRUPTED);
	assert_int_equal(r->signal, 2);
	assert_int_equal(r->nerrors, 0);
	assert_string_equal(r->cfg.loadfile, "builtin:netbench");
	/* the classic table, not the percentile one */
	check_table(r, -1, strstr(text, " Operation "));
	assert_int_equal(r->op[OP_UNLINK].h.count, 40);
	assert_int_equal(r->npoints, 13);
	assert_true(r->warmup_s == 12);
	assert_true(r->measured_s == 2);
	check_point(&r->points[11], 13, false, 3200, 18500000, 5.5);
	check_point(&r->points[12], 14, false, 1600, 17750000ull * 2 - 18500000,
		    6.25);
	result_free(r);
	free(text);
}

/* dbench-ng's "Not run" section (ops the backend cannot execute) is read
 * into the ops' not_run counts and reasons; a row it cannot read is named */
static void test_ng_not_run(void **state)
{
	static const char sect[] =
		" Not run: 44 lines of ops the backend cannot do (counted, "
		"not timed, not in the tables)\n"
		" LockX:               41  libsmbclient has no byte-range lock "
		"call\n"
		" Flush:                3  no flush\n"
		"\n";
	size_t len, at;
	char *text = slurp("ng-interrupted.txt", &len), *both, *u;
	struct result *r;

	(void)state;
	u = strstr(text, " Unexpected results");
	assert_non_null(u);
	at = (size_t)(u - text);
	both = malloc(len + sizeof(sect));
	assert_non_null(both);
	memcpy(both, text, at);
	memcpy(both + at, sect, sizeof(sect) - 1);
	memcpy(both + at + sizeof(sect) - 1, text + at, len - at + 1);
	r = parse_ok("nr.txt", both, len + sizeof(sect) - 1);
	assert_int_equal(r->op[OP_LOCKX].not_run, 41);
	assert_string_equal(r->op[OP_LOCKX].not_run_why,
			    "libsmbclient has no byte-range lock call");
	assert_int_equal(r->op[OP_FLUSH].not_run, 3);
	assert_string_equal(r->op[OP_FLUSH].not_run_why, "no flush");
	assert_int_equal(r->op[OP_FLUSH].h.count, 81); /* the table's */
	assert_int_equal(r->op[OP_UNLINK].not_run, 0);
	result_free(r);
	memcpy(both + at + strlen(" Not run: 44 lines of ops the backend "
				  "cannot do (counted, not timed, not in the "
				  "tables)\n LockX:  "),
	       "x", 1);
	parse_err("nr.txt", both, len + sizeof(sect) - 1,
		  "nr.txt:34: cannot read the row of the ops not run");
	free(both);
	free(text);
}

/* A paced run's log (tests/cli/paced_fuse.sh's timestamped pass, -t 6):
 * its response-time table and late starts are skipped as ours, the
 * classic table is read (a log keeps no response times). */
static void test_ng_paced(void **state)
{
	size_t len;
	char *text = slurp("ng-paced.txt", &len);
	struct result *r = parse_ok("ng-paced.txt", text, len);

	(void)state;
	assert_string_equal(r->tool, "dbench-ng");
	assert_int_equal(r->status, RESULT_OK);
	check_table(r, -1, strstr(text, " Operation "));
	assert_int_equal(r->op[OP_QPATHINFO].h.count, 447);
	assert_int_equal(r->op[OP_QPATHINFO].h.max, 426000);
	assert_false(r->resp.valid);
	assert_int_equal(r->nwarn, 0);
	assert_true(r->max_latency_ms == 629.246);
	result_free(r);
	free(text);
}

/* ------------------------- failed and truncated ------------------------ */

static void test_truncated(void **state)
{
	size_t len;
	char *text = slurp("truncated-4.0.txt", &len);
	struct result *r = parse_ok("truncated-4.0.txt", text, len);

	(void)state;
	assert_int_equal(r->status, RESULT_FAILED);
	assert_int_equal(r->nerrors, 0);
	assert_int_equal(r->op[OP_FIND].h.count, 20609);
	assert_int_equal(r->op[OP_NTCREATEX].h.count, 58831);
	/* the cut row is ignored */
	assert_int_equal(r->op[OP_WRITEX].h.count, 0);
	assert_true(r->throughput == 0);
	/* guessed from the progress and launch lines */
	assert_int_equal(r->cfg.nclients, 2);
	assert_int_equal(r->cfg.nprocs, 2);
	assert_int_equal(r->npoints, 4);
	assert_true(r->measured_s == 4);
	result_free(r);
	free(text);
}

static void test_failed_errors(void **state)
{
	char log[4096];
	size_t n;
	struct result *r;

	(void)state;
	n = (size_t)snprintf(log, sizeof(log),
			     "dbench version 4.00 - Copyright\n"
			     "Running for 5 seconds with load 'c.txt' and "
			     "minimum warmup 1 secs\n"
			     "failed to create barrier semaphore \n"
			     "   2      1000    10.00 MB/sec  execute   1 "
			     "sec  latency 1.000 ms\n"
			     "\n Operation      Count    AvgLat    MaxLat\n"
			     " ----------------------------------------\n"
			     " ReadX             10     0.100     0.200\n\n");
	for (int i = 0; i < 10; i++)
		n += (size_t)snprintf(log + n, sizeof(log) - n,
				      "(%d) ERROR: handle %d was not found\n",
				      i, i);
	n += (size_t)snprintf(log + n, sizeof(log) - n,
			      "Child failed with status 1\n");
	r = parse_ok("failed", log, n);
	assert_int_equal(r->status, RESULT_FAILED);
	assert_int_equal(r->nerrors, RESULT_MAX_MSGS);
	assert_string_equal(r->errors[0], "(3) ERROR: handle 3 was not found");
	assert_string_equal(r->errors[6], "(9) ERROR: handle 9 was not found");
	assert_string_equal(r->errors[7], "Child failed with status 1");
	assert_int_equal(r->op[OP_READX].h.count, 10);
	assert_int_equal(r->cfg.nclients, 2);
	assert_int_equal(r->cfg.nprocs, 0);
	result_free(r);
}

/* dbench-ng prints the partial results of a failed run, marked */
static void test_ng_failed(void **state)
{
	static const char log[] =
		"dbench-ng version 0.4 - compatible with dbench 4.00\n\n"
		"Running for 5 seconds with load 'builtin:netbench' and "
		"minimum warmup 0 secs\n"
		"2 of 2 processes prepared for launch   0 sec\n"
		"releasing clients\n"
		"   0  cleanup   0 sec\n\n"
		"Run failed after 0.3 s of measurement: partial results\n\n"
		" Operation      Count    AvgLat    MaxLat\n"
		" ----------------------------------------\n"
		" WriteX            51     0.049     1.671\n\n"
		"Throughput 402.699 MB/sec  2 clients  2 procs  "
		"max_latency=0.000 ms\n";
	struct result *r = parse_ok("ng-failed", log, sizeof(log) - 1);

	(void)state;
	assert_int_equal(r->status, RESULT_FAILED);
	assert_int_equal(r->nerrors, 1);
	assert_string_equal(r->errors[0], "Run failed after 0.3 s of "
			    "measurement: partial results");
	assert_int_equal(r->op[OP_WRITEX].h.count, 51);
	assert_true(r->throughput > 402 && r->throughput < 403);
	result_free(r);
}

/* The text of a checkpoint (dbench-ng report of a file of status
 * running) reads back as running: never a result, nor a failed run. */
static void test_ng_checkpoint(void **state)
{
	static const char log[] =
		"\nCheckpoint of a run still running or killed, after 6.0 s of "
		"measurement: partial results\n\n"
		" Per op         Count    AvgLat    MaxLat\n"
		" ========================================\n"
		" NTCreateX:     96633     0.022     4.317\n"
		" Flush:          6768     0.763    10.775\n\n"
		"Partial figures of an unfinished run: 530.949 MB/sec  2 "
		"clients  2 procs  max_latency=60.785 ms\n";
	struct result *r = parse_ok("ng-ckpt", log, sizeof(log) - 1);

	(void)state;
	assert_int_equal(r->status, RESULT_RUNNING);
	assert_int_equal(r->nerrors, 0);
	assert_int_equal(r->op[OP_NTCREATEX].h.count, 96633);
	assert_int_equal(r->op[OP_FLUSH].h.count, 6768);
	assert_true(r->throughput > 530 && r->throughput < 531);
	result_free(r);
}

static void test_failed_to_start(void **state)
{
	static const char log[] =
		"dbench version 4.00 - Copyright Andrew Tridgell 1999-2004\n\n"
		"Running for 5 seconds with load 'c.txt' and minimum warmup 1 "
		"secs\n"
		"0 of 2 processes prepared for launch   0 sec\n"
		"FAILED TO START 2 CLIENTS (started 0)\n"
		"Throughput 0 MB/sec  2 clients  2 procs  max_latency=0.000 "
		"ms\n";
	struct result *r = parse_ok("fts", log, strlen(log));

	(void)state;
	assert_int_equal(r->status, RESULT_FAILED);
	assert_int_equal(r->nerrors, 1);
	assert_string_equal(r->errors[0],
			    "FAILED TO START 2 CLIENTS (started 0)");
	assert_int_equal(r->cfg.nclients, 2);
	result_free(r);
}

/* a run that failed before any table: nothing to read */
static void test_failed_nothing(void **state)
{
	(void)state;
	parse_err_str("f.log",
		      "dbench version 4.00 - Copyright\n"
		      "   2      1000    10.00 MB/sec  execute   1 sec  "
		      "latency 1.000 ms\n"
		      "Child failed with status 1\n",
		      "f.log: no dbench result found (expected a 'Throughput "
		      "... MB/sec' line)");
}

/* ------------------------------ garbage -------------------------------- */

static void test_garbage(void **state)
{
	static const char tbl[] = "\n Operation      Count    AvgLat    "
				  "MaxLat\n ------------------------------"
				  "----------\n";
	char buf[1024];

	(void)state;
	parse_err_str("g.txt", "hello\nworld\n",
		      "g.txt: no dbench result found (expected a 'Throughput "
		      "... MB/sec' line)");
	parse_err_str("e.txt", "",
		      "e.txt: no dbench result found (expected a 'Throughput "
		      "... MB/sec' line)");
	parse_err_str("j.json", "{\"format_version\": 1}\n",
		      "j.json: no dbench result found (expected a "
		      "'Throughput ... MB/sec' line)");
	snprintf(buf, sizeof(buf), "%s Frobnicate 1 0.1 0.2\n", tbl);
	parse_err_str("t", buf,
		      "t:4: unknown operation 'Frobnicate' in the "
		      "table");
	snprintf(buf, sizeof(buf), "%s ReadX 1 0.1\n", tbl);
	parse_err_str("t", buf,
		      "t:4: cannot read the table row (a label and "
		      "three numbers expected)");
	snprintf(buf, sizeof(buf), "%s ReadX 99999999999999999999 0.1 0.2\n",
		 tbl);
	parse_err_str("t", buf, "t:4: bad count '99999999999999999999'");
	snprintf(buf, sizeof(buf), "%s ReadX 1000 1e300 0.2\n", tbl);
	parse_err_str("t", buf, "t:4: latency out of range in the table row");
	snprintf(buf, sizeof(buf), "%s ReadX 4000000000 9999999.000 1.0\n",
		 tbl);
	parse_err_str("t", buf, "t:4: latency out of range in the table row");
	snprintf(buf, sizeof(buf), "%s ReadX 1 inf 0.2\n", tbl);
	parse_err_str("t", buf, "t:4: bad latency in the table row");
	snprintf(buf, sizeof(buf), "%s ReadX 1 0x1p3 0.2\n", tbl);
	parse_err_str("t", buf, "t:4: bad latency in the table row");
	snprintf(buf, sizeof(buf), "%s ReadX 1 nan 0.2\n", tbl);
	parse_err_str("t", buf, "t:4: bad latency in the table row");
	snprintf(buf, sizeof(buf), "%s ReadX 1 -0.5 0.2\n", tbl);
	parse_err_str("t", buf, "t:4: bad latency in the table row");
	snprintf(buf, sizeof(buf), "%s ReadX 1 0.1 0.2\n ReadX 1 0.1 0.2\n",
		 tbl);
	parse_err_str("t", buf, "t:5: a second row for ReadX");
	parse_err_str("t",
		      "\n Operation      Count    AvgLat    MaxLat\n ReadX 1 "
		      "0.1 0.2\n",
		      "t:3: the dashed rule under the table header is "
		      "missing");
	parse_err_str("tp",
		      "x\nThroughput 1e999 MB/sec  2 clients  2 procs  "
		      "max_latency=1.000 ms\n",
		      "tp:2: cannot read the Throughput line");
	parse_err_str("tp",
		      "Throughput 1 MB/sec  99999999999 clients  2 "
		      "procs  max_latency=1.000 ms\n",
		      "tp:1: cannot read the Throughput line");
	parse_err_str("tp",
		      "Throughput 1 MB/sec (sync dirs) (sync open)  2 "
		      "clients  2 procs  max_latency=1.000 ms\n",
		      "tp:1: cannot read the Throughput line");
	parse_err_str("tp",
		      "Throughput 1 MB/sec  2 clients  2 procs  "
		      "max_latency=1.000 ms\nThroughput 1 MB/sec  2 clients  "
		      "2 procs  max_latency=1.000 ms\n",
		      "tp:2: a second Throughput line");
	parse_err_str("run", "Running for 5 seconds with load 'x' and\n",
		      "run:1: cannot read the 'Running for' line");
	parse_err_str("pr",
		      "   2  99999999999999999999   1.00 MB/sec  execute   1 "
		      "sec  latency 1.000 ms\n",
		      "pr:1: cannot read the progress line");
	parse_err_str("pr",
		      "   2  1   1e300 MB/sec  execute   1 sec  latency 1.000 "
		      "ms\n",
		      "pr:1: progress figures out of range");
	parse_err_str(
		"pr",
		"   2  1   1.00 MB/sec  execute   1 sec  latency 1.000 "
		"ms\n   2  1   1.00 MB/sec  warmup   2 sec  latency 1.000 "
		"ms\n",
		"pr:2: a warmup line after the execute phase");
	parse_err_str("mr", "@R@2@1@1.00@1@@\n",
		      "mr:1: cannot read the progress line");
	parse_err_str("mr", ";1;2;\n",
		      "mr:1: cannot read the final ';throughput;clients;"
		      "procs;max_latency;' line");
	parse_err_str("two",
		      "dbench version 4.00 - x\nThroughput 1 MB/sec  1 "
		      "clients  1 procs  max_latency=1.000 ms\n"
		      "dbench version 4.00 - x\n",
		      "two:3: a second dbench run starts here (one run per "
		      "log, please split it)");
	parse_err_str("pc",
		      "Per client results:\nClient 1 did 3 lines and 4 "
		      "bytes\n",
		      "pc:2: client 1 where client 0 was expected");
	parse_err_str("pc",
		      "Per client results:\nClient 0 did 3 lines and 4 "
		      "bytes\nThroughput 1 MB/sec  2 clients  2 procs  "
		      "max_latency=1.000 ms\n",
		      "pc: per-client results for 1 clients, the Throughput "
		      "line says 2");
}

static void test_nul(void **state)
{
	static const char log[] = "dbench version 4.00\n\nRunning\0for\n";

	(void)state;
	parse_err("nul.log", log, sizeof(log) - 1,
		  "nul.log:3: NUL byte: this is not a text log");
	/* a small err buffer is cut, not overrun */
	{
		struct result *r = result_new();
		char err[8];

		assert_int_equal(dblog_parse("nul.log", log, sizeof(log) - 1, r,
					     err, sizeof(err)),
				 -1);
		assert_string_equal(err, "nul.log");
		assert_int_equal(dblog_parse("nul.log", log, sizeof(log) - 1, r,
					     NULL, 0),
				 -1);
		result_free(r);
	}
}

static void test_long_lines(void **state)
{
	size_t len, big = 200000;
	char *sample = slurp("sample-4.0.txt", &len);
	char *text = malloc(len + 2 * big + 64);
	struct result *r;
	size_t n = 0, b1 = (size_t)(strchr(sample, '\n') - sample) + 1;

	(void)state;
	assert_non_null(text);
	/* junk before the banner and a long junk line after it: ignored */
	memset(text, 'x', big);
	n = big;
	text[n++] = '\n';
	memcpy(text + n, sample, b1); /* the banner line */
	n += b1;
	memset(text + n, 'y', big);
	n += big;
	text[n++] = '\n';
	memcpy(text + n, sample + b1, len - b1);
	n += len - b1;
	r = parse_ok("long", text, n);
	assert_int_equal(r->op[OP_FLUSH].h.count, 4127);
	result_free(r);

	/* a long Running line is not skipped silently */
	memcpy(text, "Running for ", 12);
	memset(text + 12, '9', big);
	parse_err("long", text, big + 12,
		  "long:1: line too long (200012 "
		  "bytes)");
	free(text);
	free(sample);
}

/* noise before the banner, even a Throughput line, is ignored */
static void test_before_banner(void **state)
{
	size_t len;
	char *sample = slurp("sample-4.0.txt", &len);
	char *text = malloc(len + 256);
	int n;
	struct result *r;

	(void)state;
	assert_non_null(text);
	n = snprintf(text, 256,
		     "$ dbench -t 5 2\nThroughput 1 MB/sec  1 clients  1 "
		     "procs  max_latency=1.000 ms\n");
	memcpy(text + n, sample, len);
	r = parse_ok("noise", text, (size_t)n + len);
	assert_true(fabs(r->throughput - 414.288) < 1e-9);
	result_free(r);
	free(text);
	free(sample);
}

/* a very long run: the series is bounded and coarsened */
static void test_many_points(void **state)
{
	size_t cap = 10000 * 80 + 256, n = 0;
	char *text = malloc(cap);
	struct result *r;
	uint64_t lines = 0;

	(void)state;
	assert_non_null(text);
	for (int i = 1; i <= 10000; i++)
		n += (size_t)snprintf(text + n, cap - n,
				      "   3  %8d   %6.2f MB/sec  execute %3d "
				      "sec  latency 1.000 ms\n",
				      i * 10, 5.0, i);
	n += (size_t)snprintf(text + n, cap - n,
			      "Throughput 5 MB/sec  3 clients  3 procs  "
			      "max_latency=1.000 ms\n");
	r = parse_ok("many", text, n);
	assert_true(r->npoints <= RESULT_MAX_POINTS);
	assert_true(r->interval_s > 1);
	for (uint32_t i = 0; i < r->npoints; i++)
		lines += r->points[i].lines;
	assert_int_equal(lines, 10000 * 10 * 3);
	assert_true(r->measured_s == 10000);
	assert_int_equal(r->nerrors, 0);
	result_free(r);
	free(text);
}

/* ------------------------------- detect -------------------------------- */

static void test_detect(void **state)
{
	static const char *yes[] = {
		("Throughput 414.288 MB/sec  2 clients  2 procs  "
		 "max_latency=13.307 ms\n"),
		"junk\r\nThroughput 1 MB/sec",
		" Operation      Count    AvgLat    MaxLat\n",
		"x\n Operation                Count    AvgLat    MaxLat\n",
		"dbench version 4.00 - Copyright Andrew Tridgell 1999-2004\n",
		"dbench-ng version 1.0 - compatible with dbench 4.00\n",
	};
	static const char *no[] = {
		"{\"format_version\": 1}",
		"{\"format_version\": 1,\n \"tool\": \"dbench-ng\"}\n",
		"",
		"\n\n",
		"Throughput is high\n",
		"The Throughput 1 MB/sec\n",
		"  Throughput 1 MB/sec\n",
		"Operation      Count    AvgLat    MaxLat\n",
		"dbench\n",
	};
	size_t len;
	char *text;

	(void)state;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		if (!dblog_detect(yes[i], strlen(yes[i])))
			fail_msg("not detected: %s", yes[i]);
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (dblog_detect(no[i], strlen(no[i])))
			fail_msg("detected: %s", no[i]);
	/* length is honoured: the match lies past it */
	assert_false(dblog_detect(yes[2], 10));
	assert_false(dblog_detect("junk\nThroughput 1 MB/sec", 12));
	text = slurp("machine-head.txt", &len);
	assert_true(dblog_detect(text, len));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sample),
		cmocka_unit_test(test_crlf),
		cmocka_unit_test(test_sync),
		cmocka_unit_test(test_warmup),
		cmocka_unit_test(test_per_client),
		cmocka_unit_test(test_per_client_nan),
		cmocka_unit_test(test_wide),
		cmocka_unit_test(test_machine),
		cmocka_unit_test(test_ng),
		cmocka_unit_test(test_ng_not_run),
		cmocka_unit_test(test_ng_paced),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_failed_errors),
		cmocka_unit_test(test_ng_failed),
		cmocka_unit_test(test_ng_checkpoint),
		cmocka_unit_test(test_failed_to_start),
		cmocka_unit_test(test_failed_nothing),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_nul),
		cmocka_unit_test(test_long_lines),
		cmocka_unit_test(test_before_banner),
		cmocka_unit_test(test_many_points),
		cmocka_unit_test(test_detect),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
