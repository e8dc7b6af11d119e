/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_options.c - the command line: defaults, every option in its short,
 * long and --opt=value forms, rejected values, --help and --version.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options.h"
#include "registry.h"
#include "suggest.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_ARGS 16

/* Run opt_parse on "dbench-ng" followed by the NULL-terminated @args. */
static enum opt_result parse(const char *const *args, struct config *cfg)
{
	char *argv[MAX_ARGS + 2] = { (char *)"dbench-ng" };
	int argc = 1;

	while (args[argc - 1]) {
		assert_true(argc <= MAX_ARGS);
		argv[argc] = (char *)args[argc - 1];
		argc++;
	}
	return opt_parse(argc, argv, cfg, NULL, 0);
}

/* the bool options, as one bit each */
enum {
	F_SYNC = 1 << 0, F_SYNCDIR = 1 << 1, F_FSYNC = 1 << 2,
	F_XATTR = 1 << 3, F_NORES = 1 << 4, F_ONEBYTE = 1 << 5,
	F_STAT = 1 << 6, F_FAKE = 1 << 7, F_SKIP = 1 << 8,
	F_PERCL = 1 << 9, F_ONCE = 1 << 10, F_MACH = 1 << 11,
	F_EXEC = 1 << 12, F_NOPCT = 1 << 13,
};

static unsigned int flags_of(const struct config *c)
{
	const bool b[] = {
		c->sync_open, c->sync_dirs, c->fsync_writes, c->xattr,
		c->no_resolve, c->one_byte_fix, c->stat_check, c->fake_io,
		c->skip_cleanup, c->per_client, c->run_once, c->machine,
		c->show_exec_time, c->no_percentiles,
	};
	unsigned int f = 0;

	for (size_t i = 0; i < ARRAY_SIZE(b); i++)
		f |= (unsigned int)b[i] << i;
	return f;
}

struct good_case {
	const char *args[MAX_ARGS + 1];
	int nprocs, cpp, timelimit, warmup;
	const char *loadfile, *dir, *backend;	/* NULL: the default */
	double rate;
	unsigned int flags;
};

#define A(...) { __VA_ARGS__, NULL }
#define DEF4 4, 1, 600, 120	/* nprocs cpp timelimit warmup */

static const struct good_case good[] = {
	{ A("4"), DEF4, NULL, NULL, NULL, 0, 0 },
	{ A("1"), 1, 1, 600, 120, NULL, NULL, NULL, 0, 0 },
	{ A("100000"), 100000, 1, 600, 120, NULL, NULL, NULL, 0, 0 },
	{ A("-t", "30", "4"), 4, 1, 30, 6, NULL, NULL, NULL, 0, 0 },
	{ A("--timelimit", "30", "4"), 4, 1, 30, 6, NULL, NULL, NULL, 0, 0 },
	{ A("--timelimit=30", "4"), 4, 1, 30, 6, NULL, NULL, NULL, 0, 0 },
	{ A("-t30", "4"), 4, 1, 30, 6, NULL, NULL, NULL, 0, 0 },
	{ A("-t", "4", "4"), 4, 1, 4, 0, NULL, NULL, NULL, 0, 0 },
	{ A("-c", "x.load", "4"), DEF4, "x.load", NULL, NULL, 0, 0 },
	{ A("--loadfile", "a,b.gz", "4"), DEF4, "a,b.gz", NULL, NULL, 0, 0 },
	{ A("--loadfile=y", "4"), DEF4, "y", NULL, NULL, 0, 0 },
	{ A("-D", "/tmp/d", "4"), DEF4, NULL, "/tmp/d", NULL, 0, 0 },
	{ A("--directory=/d", "4"), DEF4, NULL, "/d", NULL, 0, 0 },
	{ A("-R", "2.5", "4"), DEF4, NULL, NULL, NULL, 2.5, 0 },
	{ A("--target-rate=0.25", "4"), DEF4, NULL, NULL, NULL, 0.25, 0 },
	{ A("--target-rate", "0", "4"), DEF4, NULL, NULL, NULL, 0, 0 },
	{ A("-R", "1e-300", "4"), DEF4, NULL, NULL, NULL, 1e-300, 0 },
	{ A("-R", "1e300", "4"), DEF4, NULL, NULL, NULL, 1e300, 0 },
	{ A("-B", "null", "4"), DEF4, NULL, NULL, "null", 0, 0 },
	{ A("--backend", "null", "4"), DEF4, NULL, NULL, "null", 0, 0 },
	{ A("-T", "TCP_NODELAY", "4"), DEF4, NULL, NULL, NULL, 0, 0 },
	{ A("--tcp-options=SO_KEEPALIVE", "4"), DEF4, NULL, NULL, NULL, 0, 0 },
	{ A("-s", "4"), DEF4, NULL, NULL, NULL, 0, F_SYNC },
	{ A("--sync", "4"), DEF4, NULL, NULL, NULL, 0, F_SYNC },
	{ A("-S", "4"), DEF4, NULL, NULL, NULL, 0, F_SYNCDIR },
	{ A("--sync-dir", "4"), DEF4, NULL, NULL, NULL, 0, F_SYNCDIR },
	{ A("-F", "4"), DEF4, NULL, NULL, NULL, 0, F_FSYNC },
	{ A("--fsync", "4"), DEF4, NULL, NULL, NULL, 0, F_FSYNC },
	{ A("-x", "4"), DEF4, NULL, NULL, NULL, 0, F_XATTR },
	{ A("--xattr", "4"), DEF4, NULL, NULL, NULL, 0, F_XATTR },
	{ A("-sSFx", "4"), DEF4, NULL, NULL, NULL, 0,
	  F_SYNC | F_SYNCDIR | F_FSYNC | F_XATTR },
	{ A("--no-resolve", "4"), DEF4, NULL, NULL, NULL, 0, F_NORES },
	{ A("--one-byte-write-fix", "4"), DEF4, NULL, NULL, NULL, 0,
	  F_ONEBYTE },
	{ A("--stat-check", "4"), DEF4, NULL, NULL, NULL, 0, F_STAT },
	{ A("--fake-io", "4"), DEF4, NULL, NULL, NULL, 0, F_FAKE },
	{ A("--skip-cleanup", "4"), DEF4, NULL, NULL, NULL, 0, F_SKIP },
	{ A("--per-client-results", "4"), DEF4, NULL, NULL, NULL, 0,
	  F_PERCL },
	{ A("--run-once", "4"), DEF4, NULL, NULL, NULL, 0, F_ONCE },
	{ A("--machine-readable", "4"), DEF4, NULL, NULL, NULL, 0, F_MACH },
	{ A("--show-execute-time", "4"), DEF4, NULL, NULL, NULL, 0, F_EXEC },
	{ A("--no-percentiles", "4"), DEF4, NULL, NULL, NULL, 0, F_NOPCT },
	{ A("--clients-per-process", "3", "4"), 4, 3, 600, 120, NULL, NULL,
	  NULL, 0, 0 },
	{ A("--clients-per-process=2", "50000"), 50000, 2, 600, 120, NULL,
	  NULL, NULL, 0, 0 },
	{ A("--warmup", "0", "4"), 4, 1, 600, 0, NULL, NULL, NULL, 0, 0 },
	{ A("--warmup=7", "-t", "100", "4"), 4, 1, 100, 7, NULL, NULL, NULL,
	  0, 0 },
	/* GNU permutation: options after NPROCS */
	{ A("4", "-t", "10", "--fake-io"), 4, 1, 10, 2, NULL, NULL, NULL, 0,
	  F_FAKE },
	/* dbench 4.0 accepts and ignores a second operand */
	{ A("4", "localhost"), DEF4, NULL, NULL, NULL, 0, 0 },
	{ A("--", "4"), DEF4, NULL, NULL, NULL, 0, 0 },
	/* mmtests' dbench4 invocation */
	{ A("--run-once", "--skip-cleanup", "--warmup", "0", "--loadfile",
	    "/tmp/client.txt", "-D", "/mnt/t", "-t", "30", "4"),
	  4, 1, 30, 0, "/tmp/client.txt", "/mnt/t", NULL, 0,
	  F_ONCE | F_SKIP },
};

static void test_good(void **state)
{
	struct config c;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
		const struct good_case *g = &good[i];

		memset(&c, 0xa5, sizeof(c));
		if (parse(g->args, &c) != OPT_RUN)
			fail_msg("case %zu (%s ...) rejected", i, g->args[0]);
		if (c.nprocs != g->nprocs || c.cpp != g->cpp ||
		    c.nclients != g->nprocs * g->cpp ||
		    c.timelimit != g->timelimit || c.warmup != g->warmup)
			fail_msg("case %zu (%s ...): nprocs %d cpp %d nclients "
				 "%d timelimit %d warmup %d", i, g->args[0],
				 c.nprocs, c.cpp, c.nclients, c.timelimit,
				 c.warmup);
		/* no -c: NULL, run_setup() picks the default (stock.h) */
		if (g->loadfile)
			assert_string_equal(c.loadfile, g->loadfile);
		else
			assert_null(c.loadfile);
		assert_string_equal(c.dir, g->dir ? g->dir : ".");
		assert_string_equal(c.backend,
				    g->backend ? g->backend : "fileio");
		assert_true(c.target_rate == g->rate);
		if (flags_of(&c) != g->flags)
			fail_msg("case %zu (%s ...): flags %#x, want %#x", i,
				 g->args[0], flags_of(&c), g->flags);
	}
}

static const struct {
	const char *args[MAX_ARGS + 1];
} bad[] = {
	{ A(NULL) },			/* no NPROCS */
	{ A("-t", "5") },
	{ A("0") },
	{ A("-1") },			/* an unknown option, as in dbench */
	{ A("abc") },
	{ A("4x") },
	{ A("") },
	{ A("100001") },
	{ A("99999999999999999999") },
	{ A("-t", "0", "4") },
	{ A("-t", "-5", "4") },
	{ A("-t", "abc", "4") },
	{ A("-t", "1.5", "4") },
	{ A("4", "-t") },		/* missing value */
	{ A("4", "--timelimit") },
	{ A("4", "--warmup") },
	{ A("--warmup", "-1", "4") },
	{ A("--clients-per-process", "0", "4") },
	{ A("--clients-per-process", "x", "4") },
	{ A("-R", "-1", "4") },
	{ A("-R", "abc", "4") },
	{ A("-R", "nan", "4") },
	{ A("-R", "inf", "4") },
	{ A("-R", "1e400", "4") },		/* an overflow is one */
	{ A("-R", "-1e-320", "4") },		/* a negative denormal */
	/* an ordinary rate only: not a denormal, an underflow to 0, a
	 * negative zero, nor beyond what pacing computes with */
	{ A("-R", "1e-320", "4") },
	{ A("-R", "1e-400", "4") },
	{ A("-R", "-1e-400", "4") },
	{ A("-R", "-0", "4") },
	{ A("-R", "1e-301", "4") },
	{ A("-R", "1e301", "4") },
	{ A("-c", "", "4") },
	{ A("-D", "", "4") },
	{ A("--frobnicate", "4") },
	{ A("--sync=yes", "4") },
	{ A("--fake-io=1", "4") },
	{ A("-q", "4") },
	{ A("-sq", "4") },
	{ A("4", "a", "b") },		/* a third positional */
	{ A("100000", "--clients-per-process", "2") },
	{ A("--clients-per-process=10000", "11") },
};

static void test_bad(void **state)
{
	struct config c;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		enum opt_result r = parse(bad[i].args, &c);

		if (r != OPT_ERROR)
			fail_msg("case %zu (%s %s ...) gave %d, want "
				 "OPT_ERROR", i,
				 bad[i].args[0] ? bad[i].args[0] : "",
				 bad[i].args[0] && bad[i].args[1] ?
				 bad[i].args[1] : "", r);
	}
}

/*
 * Run @args with file descriptor @fd (stdout or stderr) going to a
 * temporary file; return what was printed there in @out.
 */
static enum opt_result parse_captured(const char *const *args, int fd,
				      char *out, size_t outlen)
{
	FILE *tmp = tmpfile();
	struct config c;
	enum opt_result r;
	int saved;
	size_t n;

	assert_non_null(tmp);
	fflush(stdout);
	fflush(stderr);
	saved = dup(fd);
	assert_true(saved >= 0);
	assert_true(dup2(fileno(tmp), fd) >= 0);
	r = parse(args, &c);
	fflush(stdout);
	fflush(stderr);
	assert_true(dup2(saved, fd) >= 0);
	close(saved);
	rewind(tmp);
	n = fread(out, 1, outlen - 1, tmp);
	out[n] = 0;
	fclose(tmp);
	return r;
}

/* One line on stderr that names the option (or operand) at fault. */
static void test_error_messages(void **state)
{
	static const struct {
		const char *args[4];
		const char *want;
	} cases[] = {
		{ A("-t", "abc", "4"), "-t" },
		{ A("4", "--warmup"), "--warmup" },
		{ A("-R", "x", "4"), "-R" },
		{ A("--frobnicate", "4"), "--frobnicate" },
		{ A("-q", "4"), "'-q'" },
		{ A("0"), "NPROCS" },
		{ A("4", "a", "b"), "'b'" },
		{ A("--sync=yes", "4"), "--sync" },
		{ A("--fake-io=1", "4"), "--fake-io" },
	};
	char out[1024];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		assert_int_equal(parse_captured(cases[i].args, STDERR_FILENO,
						out, sizeof(out)), OPT_ERROR);
		if (!strstr(out, cases[i].want) || !strchr(out, '\n') ||
		    strchr(out, '\n')[1])
			fail_msg("case %zu: '%s' not in one-line message '%s'",
				 i, cases[i].want, out);
	}
}

static void test_help_version(void **state)
{
	static const struct {
		const char *args[6];
		const char *want;	/* printed on stdout */
	} cases[] = {
		{ A("--help"), "Usage: dbench-ng" },
		{ A("-h"), "Usage: dbench-ng" },
		{ A("4", "--help"), "--timelimit" },
		{ A("--version"), "dbench-ng " },
		{ A("-t", "5", "--version", "4"), "dbench-ng " },
	};
	char out[8192];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		assert_int_equal(parse_captured(cases[i].args, STDOUT_FILENO,
						out, sizeof(out)), OPT_EXIT_OK);
		if (!strstr(out, cases[i].want))
			fail_msg("case %zu: '%s' not in output", i,
				 cases[i].want);
	}
	/* every setting with an option is in --help, with its short form:
	 * a field added to CONFIG_FIELDS without a help line fails here */
	assert_int_equal(parse_captured(cases[0].args, STDOUT_FILENO, out,
					sizeof(out)),
			 OPT_EXIT_OK);
	for (int i = 0; i < CFG_NR; i++) {
		const struct config_field_info *fi = &config_fields[i];
		char want[96];

		if (!fi->lopt)
			continue;
		if (fi->opt[0] == '-' && fi->opt[1] != '-')
			snprintf(want, sizeof(want), "%s, --%s", fi->opt,
				 fi->lopt);
		else
			snprintf(want, sizeof(want), "    --%s", fi->lopt);
		/* spelt without "execute", which log parsers look for */
		if (!strcmp(fi->lopt, "show-execute-time"))
			snprintf(want, sizeof(want),
				 "    --show-exec[ute-time]");
		if (!strstr(out, want))
			fail_msg("--help lacks '%s' (config field %s)", want,
				 fi->field);
	}
}

/*
 * opt_parse is meant to be callable again (it resets optind): a short
 * option cluster left half-read by an error or by --help must not leak
 * into the next parse.
 */
static void test_reparse(void **state)
{
	static const char *const err_then[] = { "-Qx", "4", NULL };
	static const char *const help_then[] = { "-hs", "4", NULL };
	static const char *const plain[] = { "4", NULL };
	struct config c;
	char out[8192];

	(void)state;
	assert_int_equal(parse(err_then, &c), OPT_ERROR);
	assert_int_equal(parse(plain, &c), OPT_RUN);
	assert_false(c.xattr);
	assert_int_equal(parse_captured(help_then, STDOUT_FILENO, out,
					sizeof(out)), OPT_EXIT_OK);
	assert_int_equal(parse(plain, &c), OPT_RUN);
	assert_false(c.sync_open);
}

/*
 * Where the values of secret backend options (a password) begin in argv,
 * in every spelling, for the command line a result records; a secret of
 * no backend of this build cannot be tested, and is not.
 */
static void test_secrets(void **state)
{
	static const char *const args[] = {
		"-o", "user=u%p", "--smb-user=a%b", "--smb-user", "c%d",
		"-ouser=e%f", "-o", "share=//h/s", "4", NULL};
	const char *const *v;
	struct config c;

	(void)state;
	if (!backend_find("smb")) {
		assert_int_equal(parse(args, &c), OPT_ERROR);
		return;
	}
	assert_int_equal(parse(args, &c), OPT_RUN);
	assert_int_equal(opt_secrets(&v), 4);
	assert_string_equal(v[0], "u%p");
	assert_ptr_equal(v[0], args[1] + 5);
	assert_ptr_equal(v[1], args[2] + 11);
	assert_ptr_equal(v[2], args[4]);
	assert_ptr_equal(v[3], args[5] + 7);
	static const char *const none[] = {"4", NULL};
	assert_int_equal(parse(none, &c), OPT_RUN);
	assert_int_equal(opt_secrets(&v), 0);
}

/* A refusal is also a value (check says it on stdout); and the names a
 * mistyped word is close to (suggest.c) */
static void test_why_and_suggest(void **state)
{
	static const char *const cmds[] = {"run", "compare", "check",
					   "report", "tbench", "tbench_srv",
					   "help"};
	char *argv[] = {(char *)"dbench-ng", (char *)"--timelimt",
			(char *)"3", (char *)"2", NULL};
	char *argv2[] = {(char *)"dbench-ng", (char *)"abc", NULL};
	struct config cfg;
	char why[256];

	(void)state;
	assert_int_equal(opt_parse(4, argv, &cfg, why, sizeof(why)),
			 OPT_ERROR);
	assert_string_equal(why, "unknown option '--timelimt'; did you "
				 "mean '--timelimit'?");
	assert_int_equal(opt_parse(2, argv2, &cfg, why, sizeof(why)),
			 OPT_ERROR);
	assert_string_equal(why, "NPROCS: 'abc' is not a whole number");

	assert_int_equal(edit_distance("chek", "check"), 1);
	assert_int_equal(edit_distance("chekc", "check"), 1); /* swapped */
	assert_int_equal(edit_distance("", "run"), 3);
	assert_int_equal(edit_distance("report", "report"), 0);
	assert_string_equal(suggest("chek", cmds, ARRAY_SIZE(cmds)), "check");
	assert_string_equal(suggest("repot", cmds, ARRAY_SIZE(cmds)), "report");
	assert_string_equal(suggest("tbench-srv", cmds, ARRAY_SIZE(cmds)),
			    "tbench_srv");
	/* too far, too short to tell, or itself: nothing */
	assert_null(suggest("abc", cmds, ARRAY_SIZE(cmds)));
	assert_null(suggest("rn", cmds, ARRAY_SIZE(cmds)));
	assert_null(suggest("check", cmds, ARRAY_SIZE(cmds)));
	assert_null(suggest("frobnicate", cmds, ARRAY_SIZE(cmds)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_error_messages),
		cmocka_unit_test(test_help_version),
		cmocka_unit_test(test_reparse),
		cmocka_unit_test(test_secrets),
		cmocka_unit_test(test_why_and_suggest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
