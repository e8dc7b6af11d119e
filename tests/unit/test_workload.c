/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_workload.c - the workload of a run: the default loadfile (the
 * search for dbench 4.0's client.txt, through the tests' own list in
 * DBENCH_NG_TEST_CLIENT_TXT_PATH), the kind of a loadfile, and whether two
 * results replayed the same workload (compare_workload.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin.h"
#include "compare_workload.h"
#include "result.h"
#include "stock.h"

static char dir[] = "/tmp/test_workload.XXXXXX";

static void touch(const char *name)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	assert_non_null(f);
	fclose(f);
}

/* the default with the search list @list: names below dir, ':' apart
 * (each that is not empty made "dir/NAME") */
static const char *pick(const char *list, bool *found, char *note, size_t len)
{
	char l[1024] = "";
	size_t k = 0, n;

	for (const char *p = list;; p += n + 1) {
		n = strcspn(p, ":");
		k += (size_t)snprintf(l + k, sizeof(l) - k, "%s%s%s%.*s",
				      p > list ? ":" : "", n ? dir : "",
				      n ? "/" : "", (int)n, p);
		if (!p[n])
			break;
	}
	setenv(STOCK_TEST_ENV, l, 1);
	return stock_default(found, note, len);
}

static void test_default(void **state)
{
	char note[1024], want[300], link[300];
	const char *p;
	bool found;

	(void)state;
	assert_non_null(mkdtemp(dir));
	/* nothing there: the built-in, and a note naming what was searched */
	p = pick("a:b", &found, note, sizeof(note));
	assert_false(found);
	assert_string_equal(p, BUILTIN_NETBENCH);
	snprintf(want, sizeof(want), "none of %s/a, %s/b", dir, dir);
	assert_non_null(strstr(note, want));
	assert_non_null(strstr(note, BUILTIN_NETBENCH));
	/* the first that exists, in the order of the list */
	touch("b");
	p = pick("a:b", &found, note, sizeof(note));
	assert_true(found);
	assert_string_equal(note, "");
	snprintf(want, sizeof(want), "%s/b", dir);
	assert_string_equal(p, want);
	touch("a");
	p = pick("a:b", &found, note, sizeof(note));
	snprintf(want, sizeof(want), "%s/a", dir);
	assert_string_equal(p, want);
	/* a dangling symlink or a path through a file is missing; a
	 * directory exists (reading it refuses it, never a silent switch) */
	snprintf(link, sizeof(link), "%s/dangling", dir);
	assert_int_equal(symlink("/nonexistent/x", link), 0);
	p = pick("dangling:a/x:b", &found, note, sizeof(note));
	snprintf(want, sizeof(want), "%s/b", dir);
	assert_string_equal(p, want);
	p = pick(".", &found, note, sizeof(note));
	assert_true(found);
	snprintf(want, sizeof(want), "%s/.", dir);
	assert_string_equal(p, want);
	/* empty elements are skipped; an empty list searches nothing */
	p = pick("::b:", &found, note, sizeof(note));
	snprintf(want, sizeof(want), "%s/b", dir);
	assert_string_equal(p, want);
	p = pick("", &found, note, sizeof(note));
	assert_false(found);
	assert_string_equal(p, BUILTIN_NETBENCH);
	assert_non_null(strstr(note, "no path searched"));
	unsetenv(STOCK_TEST_ENV);
	/* without the tests' list: STOCK_PATHS, whose first entry is
	 * dbench 4.0's own ./configure default */
	assert_int_equal(
		strncmp(STOCK_PATHS, "/usr/local/share/client.txt:", 28), 0);
	snprintf(want, sizeof(want), "rm -rf %s", dir);
	assert_int_equal(system(want), 0);
}

static void test_kind(void **state)
{
	(void)state;
	assert_int_equal(stock_kind("builtin:netbench", "00"), LF_KIND_BUILTIN);
	assert_int_equal(stock_kind("builtin:netbench", NULL), LF_KIND_BUILTIN);
	assert_int_equal(stock_kind("/x/client.txt", STOCK_SHA256),
			 LF_KIND_CLIENT_TXT);
	assert_int_equal(stock_kind("/x/my.load", STOCK_SHA256),
			 LF_KIND_CLIENT_TXT);
	/* an edited client.txt is the user's file */
	assert_int_equal(stock_kind("/x/client.txt", "ab12"), LF_KIND_FILE);
	/* a log names the file only */
	assert_int_equal(stock_kind("/usr/share/dbench/client.txt", NULL),
			 LF_KIND_CLIENT_TXT);
	assert_int_equal(stock_kind("client.txt", NULL), LF_KIND_CLIENT_TXT);
	assert_int_equal(stock_kind("/x/client.txt.gz", NULL), LF_KIND_FILE);
	assert_int_equal(stock_kind(NULL, NULL), LF_KIND_FILE);
	assert_string_equal(stock_kind_name(LF_KIND_CLIENT_TXT), "client.txt");
	assert_string_equal(stock_kind_name(LF_KIND_BUILTIN), "builtin");
	assert_string_equal(stock_kind_name(LF_KIND_FILE), "file");
}

/* A result with @n loadfiles @names (a ',' list) and their SHA-256s @shas
 * (a ',' list, or NULL: a dbench log, which has only its Running line). */
static struct result *res(const char *names, const char *shas)
{
	struct result *r = result_new();
	char *n = strdup(names), *s = shas ? strdup(shas) : NULL, *p, *q;
	char *sn = NULL, *ss = NULL;
	int k = 0;

	assert_non_null(r);
	r->owned[CFS_loadfile] = strdup(names);
	r->cfg.loadfile = r->owned[CFS_loadfile];
	if (!s) {
		free(n);
		return r;
	}
	r->env.loadfile_name = calloc(8, sizeof(char *));
	r->env.loadfile_sha256 = calloc(8, sizeof(char *));
	for (p = strtok_r(n, ",", &sn), q = strtok_r(s, ",", &ss); p && q;
	     p = strtok_r(NULL, ",", &sn), q = strtok_r(NULL, ",", &ss)) {
		r->env.loadfile_name[k] = strdup(p);
		r->env.loadfile_sha256[k++] = strdup(q);
	}
	r->env.nloadfiles = k;
	free(n);
	free(s);
	return r;
}

static bool same(struct result *a, struct result *b)
{
	struct cmp_workload wa, wb;
	bool s;

	cmp_workload_of(a, &wa);
	cmp_workload_of(b, &wb);
	s = cmp_workload_same(&wa, &wb);
	assert_true(s == cmp_workload_same(&wb, &wa));
	result_free(a);
	result_free(b);
	return s;
}

static void test_same(void **state)
{
	const char *ct = "/usr/share/dbench/client.txt";

	(void)state;
	/* by content where both have it: the name does not matter */
	assert_true(same(res("/a/x.load", "aa"), res("/b/y.load", "aa")));
	assert_false(same(res("/a/x.load", "aa"), res("/a/x.load", "bb")));
	assert_false(same(res("builtin:netbench", "aa"),
			  res("builtin:netbench", "bb")));
	/* lists: the same files in the same order */
	assert_true(same(res("a,b", "aa,bb"), res("c,d", "aa,bb")));
	assert_false(same(res("a,b", "aa,bb"), res("a,b", "bb,aa")));
	assert_false(same(res("a,b", "aa,bb"), res("a", "aa")));
	/* logs: by kind, then by file name (the directories may differ) */
	assert_true(
		same(res(ct, NULL), res("/usr/local/share/client.txt", NULL)));
	assert_true(same(res(ct, NULL), res(ct, STOCK_SHA256)));
	assert_false(same(res(ct, NULL), res(ct, "ab12")));
	assert_false(same(res(ct, NULL), res("builtin:netbench", NULL)));
	assert_false(same(res(ct, NULL), res("builtin:netbench", "aa")));
	assert_true(same(res("/a/my.load", NULL), res("/b/my.load", "aa")));
	assert_false(same(res("/a/my.load", NULL), res("/a/other.load", NULL)));
	assert_true(same(res("a,,b", NULL), res("a,b", "aa,bb")));
	assert_false(same(res("a,b", NULL), res("a", NULL)));
	/* a log without its Running line: not known, no difference */
	{
		struct result *none = result_new();

		assert_true(same(none, res("builtin:netbench", "aa")));
	}
}

static void test_message(void **state)
{
	struct result *r[3] = {
		res("/usr/share/dbench/client.txt", STOCK_SHA256),
		res("/usr/share/dbench/client.txt", STOCK_SHA256),
		res("builtin:netbench", "aa")};
	const char *names[3] = {"a.json", "b.json", "c.json"};
	struct cmp_workload me = {0};
	const char *lf[1] = {"/x/base.load"}, *sha[1] = {"0123456789abcdef"};
	char err[1024];

	(void)state;
	assert_false(cmp_workloads_differ(r, names, 2, NULL, NULL, err,
					  sizeof(err)));
	assert_true(cmp_workloads_differ(r, names, 3, NULL, NULL, err,
					 sizeof(err)));
	assert_string_equal(
		err,
		"a.json ran dbench's client.txt (/usr/share/dbench/"
		"client.txt) and c.json the built-in workload "
		"builtin:netbench: other workloads, so their numbers are not "
		"comparable; without -c, a run replays dbench's client.txt "
		"where it is installed, else the built-in workload");
	/* the run of check, against the baselines */
	me = (struct cmp_workload){1, lf, sha, "/x/base.load"};
	assert_true(cmp_workloads_differ(r, names, 2, &me, "this run", err,
					 sizeof(err)));
	assert_string_equal(
		err,
		"a.json ran dbench's client.txt (/usr/share/dbench/"
		"client.txt) and this run the loadfile /x/base.load: other "
		"workloads, so their numbers are not comparable");
	/* the same name, another content: the SHA-256s tell them apart */
	result_free(r[2]);
	r[2] = res("/x/base.load", "fedcba9876543210");
	assert_true(cmp_workloads_differ(r + 2, names, 1, &me, "this run", err,
					 sizeof(err)));
	assert_string_equal(
		err,
		"a.json ran the loadfile /x/base.load (sha256 fedcba987654...) "
		"and this run the loadfile /x/base.load (sha256 "
		"0123456789ab...): other workloads, so their numbers are not "
		"comparable");
	for (int i = 0; i < 3; i++)
		result_free(r[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default),
		cmocka_unit_test(test_kind),
		cmocka_unit_test(test_same),
		cmocka_unit_test(test_message),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
