/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_registry.c - the backend registry before any fork: the table
 * (names, help), -o options parsed and refused with a message naming the
 * option, the text of the options a result records (secrets hidden), and
 * the refusal of a run a backend cannot do, the backends a build left out
 * for want of their library.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "registry.h"
#include "registry_test.h"

struct fake_opts {
	bool fast;
	int depth;
	const char *url, *password;
};

static const struct be_option fake_options[] = {
	{.name = "fast",
	 .type = BE_OPT_FLAG,
	 .help = "a flag",
	 .offset = offsetof(struct fake_opts, fast)},
	{.name = "depth",
	 .type = BE_OPT_INT,
	 .min = 1,
	 .max = 64,
	 .metavar = "N",
	 .help = "a number",
	 .offset = offsetof(struct fake_opts, depth)},
	{.name = "url",
	 .type = BE_OPT_STR,
	 .metavar = "URL",
	 .help = "text",
	 .lopt = "fake-url",
	 .offset = offsetof(struct fake_opts, url)},
	{.name = "password",
	 .type = BE_OPT_STR,
	 .metavar = "PW",
	 .help = "a secret",
	 .secret = true,
	 .offset = offsetof(struct fake_opts, password)},
	{.name = NULL},
};

static int fake_check(const void *opts, char *err, size_t errlen)
{
	const struct fake_opts *o = opts;

	if (o->password && !o->url) {
		snprintf(err, errlen, "-o password needs -o url");
		return -1;
	}
	return 0;
}

static int fake_op(struct be_client *c, const struct lf_op *op, be_handle *h)
{
	(void)c;
	(void)op;
	(void)h;
	return 0;
}

static const struct backend fake = {
	.api = BACKEND_API_VERSION,
	.name = "fake",
	.summary = "a test",
	.version = 3,
	.caps = BE_CAN_FSYNC,
	.options = fake_options,
	.opts_size = sizeof(struct fake_opts),
	.check = fake_check,
	.op = {[OP_NTCREATEX] = fake_op, [OP_CLOSE] = fake_op},
};

/* parse @n strings into *@o; the return of backend_options() */
static int parse(const char *const *kv, int n, struct fake_opts **o, char *err)
{
	void *p = NULL;
	int rc = backend_options(&fake, kv, n, &p, err, 256);

	*o = p;
	return rc;
}

static void test_table(void **state)
{
	char *buf = NULL, want[64];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_string_equal(backend_default()->name, "fileio");
	assert_ptr_equal(backend_find("null"), &backend_null);
	assert_null(backend_find("smbx"));
	assert_ptr_equal(backend_find("sockio"), &backend_sockio);
	/* then the backends of the build's OPT_BACKENDS it has */
	snprintf(want, sizeof(want), "fileio, null, sockio%s%s",
		 backend_find("nfs") ? ", nfs" : "",
		 backend_find("smb") ? ", smb" : "");
	assert_string_equal(backend_names(), want);
	assert_non_null(f);
	backend_help(f);
	fclose(f);
	assert_non_null(strstr(buf, backend_find("nfs") || backend_find("smb")
					    ? "fileio (default), null (no I/O "
					      "at all), sockio (tbench: "
					    : "fileio (default), null (no "
					      "I/O at all) or sockio (tbench: "));
	assert_non_null(strstr(buf, "fileio: -o no-openat2\n"));
	free(buf);
}

static void test_options(void **state)
{
	const char *ok[] = {"fast", "depth=8", "url=smb://h/s", "password=pw",
			    "fast=0"};
	struct fake_opts *o;
	char err[256], text[256];

	(void)state;
	assert_int_equal(parse(ok, 5, &o, err), 0);
	assert_false(o->fast); /* the last one wins */
	assert_int_equal(o->depth, 8);
	assert_string_equal(o->url, "smb://h/s");
	assert_int_equal(backend_options_text(&fake, o, text, sizeof(text)), 0);
	assert_string_equal(text, "depth=8 url=smb://h/s password=(secret)");
	assert_int_equal(backend_options_text(&fake, o, text, 20), -1);
	free(o);

	assert_int_equal(parse(NULL, 0, &o, err), 0);
	assert_int_equal(backend_options_text(&fake, o, text, sizeof(text)), 0);
	assert_string_equal(text, "");
	free(o);

	/* a long option sets the same field as its -o name; the last wins */
	const char *lo[] = {"url=a", "--fake-url=smb://h/t"};
	assert_int_equal(parse(lo, 2, &o, err), 0);
	assert_string_equal(o->url, "smb://h/t");
	free(o);

	const struct {
		const char *kv, *msg;
	} bad[] = {
		{"nope=1",
		 "-o nope=1: backend 'fake' has no option 'nope' (its "
		 "options: fast, depth, url, password)"},
		{"fast=yes", "-o fast=yes: 'yes' is not 0 or 1"},
		{"depth", "-o depth needs a value (depth=N)"},
		{"depth=65",
		 "-o depth=65: '65' is not a whole number in 1..64"},
		{"depth=1x",
		 "-o depth=1x: '1x' is not a whole number in 1..64"},
		{"url=", "-o url needs a value (url=URL)"},
		{"password=x", "-o password needs -o url"}, /* check() */
		/* long options (be_option.lopt), as options.c passes them */
		{"--fake-url", "--fake-url needs a value (--fake-url=URL)"},
		{"--url=x", "--url=x: backend 'fake' has no option --url"},
		{"--no-openat2", "--no-openat2: backend 'fake' has no option "
				 "--no-openat2"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse(&bad[i].kv, 1, &o, err), -1);
		assert_string_equal(err, bad[i].msg);
		free(o);
	}
}

static void test_check(void **state)
{
	struct lf_op ops[2] = {{.type = OP_NTCREATEX, .line = 4},
			       {.type = OP_RENAME, .line = 9}};
	struct program p = {.name = "x.load", .ops = ops, .nops = 2};
	char err[256];

	(void)state;
	assert_int_equal(
		backend_check(&fake, NULL, BE_CAN_FSYNC, err, sizeof(err)), 0);
	assert_int_equal(backend_check(&fake, NULL,
				       BE_CAN_FSYNC | BE_CAN_SYNC_OPEN, err,
				       sizeof(err)),
			 -1);
	assert_string_equal(err, "-s: backend 'fake' cannot open files with "
				 "O_SYNC");
	/* a refusal may say why, and what does the same */
	static const struct be_refusal why[] = {
		{BE_CAN_FSYNC, "no"}, {BE_CAN_SYNC_OPEN, "set X on the server"},
		{0, NULL}};
	struct backend r = fake;

	r.refusals = why;
	assert_int_equal(backend_check(&r, NULL, BE_CAN_SYNC_OPEN, err,
				       sizeof(err)),
			 -1);
	assert_string_equal(err, "-s: backend 'fake' cannot open files with "
				 "O_SYNC: set X on the server");
	assert_int_equal(backend_check(&r, NULL, BE_CAN_SYNC_DIRS, err,
				       sizeof(err)),
			 -1);
	assert_string_equal(err, "-S: backend 'fake' cannot sync "
				 "directories");
	assert_int_equal(backend_check(&fake, &p, 0, err, sizeof(err)), -1);
	assert_string_equal(err, "x.load:9: backend 'fake' cannot run "
				 "'Rename'");
	p.nops = 1;
	assert_int_equal(backend_check(&fake, &p, 0, err, sizeof(err)), 0);
	/* null does no I/O: every request is moot */
	assert_int_equal(backend_check(&backend_null, NULL, BE_CAN_ALL, err,
				       sizeof(err)),
			 0);
}

/* A backend may declare ops it cannot execute (not_run): a loadfile with
 * them is accepted, one with an op neither run nor declared is not, and
 * an op the engine needs cannot be declared. */
static void test_not_run(void **state)
{
	struct backend b = fake;
	struct lf_op ops[3] = {{.type = OP_NTCREATEX, .line = 4},
			       {.type = OP_LOCKX, .line = 5},
			       {.type = OP_FLUSH, .line = 6}};
	struct program p = {.name = "x.load", .ops = ops, .nops = 3};
	char err[256];

	(void)state;
	b.not_run[OP_LOCKX] = "no locks";
	assert_int_equal(backend_check(&b, &p, 0, err, sizeof(err)), -1);
	assert_string_equal(err, "x.load:6: backend 'fake' cannot run "
				 "'Flush'");
	b.not_run[OP_FLUSH] = "no flush";
	assert_int_equal(backend_check(&b, &p, 0, err, sizeof(err)), 0);
	assert_string_equal(be_not_run(&b, OP_LOCKX), "no locks");
	assert_null(be_not_run(&b, OP_NTCREATEX));
	/* a handler wins over a reason: the op runs */
	b.op[OP_FLUSH] = b.op[OP_CLOSE];
	assert_null(be_not_run(&b, OP_FLUSH));
	b.not_run[OP_READX] = "no reads";
	assert_int_equal(backend_check(&b, NULL, 0, err, sizeof(err)), -1);
	assert_string_equal(err, "backend 'fake' declares 'ReadX' not run, "
				 "which the engine cannot do without");
	/* the backends of the table declare nothing the engine needs */
	for (const char *n = backend_names(); *n;) {
		size_t len = strcspn(n, ",");
		char name[32];

		snprintf(name, sizeof(name), "%.*s", (int)len, n);
		assert_non_null(backend_find(name));
		assert_int_equal(backend_check(backend_find(name), NULL, 0,
					       err, sizeof(err)),
				 0);
		n += len + strspn(n + len, ", ");
	}
}

static void test_missing(void **state)
{
	const char *list = "smb:libsmbclient-dev  nfs:libnfs-dev ";
	char deb[64], *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(backend_missing_in(list, "nfs", deb, sizeof(deb)), 1);
	assert_string_equal(deb, "libnfs-dev");
	assert_int_equal(backend_missing_in(list, "smb", deb, sizeof(deb)), 1);
	assert_string_equal(deb, "libsmbclient-dev");
	assert_int_equal(backend_missing_in(list, "sm", deb, sizeof(deb)), 0);
	assert_int_equal(backend_missing_in(list, "libnfs-dev", deb, 64), 0);
	assert_int_equal(backend_missing_in("", "smb", deb, sizeof(deb)), 0);
	/* this build: a backend of OPT_BACKENDS it has is not left out, one
	 * it lacks is, with its package; one not in the list is not */
	assert_int_equal(backend_unavailable("nfs", deb, sizeof(deb)),
			 !backend_find("nfs"));
	if (!backend_find("nfs"))
		assert_string_equal(deb, "libnfs-dev");
	/* this build: a backend of OPT_BACKENDS it has is not "left out",
	 * one it lacks is, with its package */
	assert_int_equal(backend_unavailable("smb", deb, sizeof(deb)),
			 !backend_find("smb"));
	if (!backend_find("smb"))
		assert_string_equal(deb, "libsmbclient-dev");
	assert_int_equal(backend_unavailable("null", deb, sizeof(deb)), 0);

	f = open_memstream(&buf, &len);
	assert_non_null(f);
	backend_missing_help(f, list);
	backend_missing_help(f, "");
	fclose(f);
	assert_string_equal(buf, "                             not built here: "
				 "smb (needs libsmbclient-dev), nfs (needs "
				 "libnfs-dev)\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_not_run),
		cmocka_unit_test(test_missing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
