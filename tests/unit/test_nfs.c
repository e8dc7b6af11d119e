/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_nfs.c - the nfs backend before any fork (src/backends/nfs/, through
 * the registry): its options in every spelling (-o url=, --nfs=, --server=
 * with --export=) and what a result records of them, each malformed
 * export refused with its message, the requests it honours or refuses,
 * and a loadfile with LockX/UnlockX accepted as not run, with the reason.
 * Skipped in a build without libnfs (the backend is not there).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "loadfile.h"
#include "registry.h"

static const struct backend *nfs(void)
{
	const struct backend *b = backend_find("nfs");

	assert_non_null(b); /* main() skips a build without libnfs */
	return b;
}

/* parse @n option strings; 0 or -1 with the message in @err; the options'
 * text in @text on success */
static int parse(const char *const *kv, int n, char *err, char *text)
{
	const struct backend *b = nfs();
	void *o = NULL;
	int rc = backend_options(b, kv, n, &o, err, 512);

	if (!rc)
		assert_int_equal(backend_options_text(b, o, text, 512), 0);
	free(o);
	return rc;
}

static void test_spellings(void **state)
{
	const char *url[] = {"url=nfs://h/srv/e?nfsport=2049&mountport=20048"};
	const char *lopt[] = {"--nfs=nfs://10.0.0.1/e/"};
	const char *se[] = {"--server=h", "--export=/srv/e", "timeout=5"};
	const char *ose[] = {"server=::1", "export=/"};
	char err[512], text[512];

	(void)state;
	assert_int_equal(parse(url, 1, err, text), 0);
	assert_string_equal(text,
			    "url=nfs://h/srv/e?nfsport=2049&mountport=20048");
	assert_int_equal(parse(lopt, 1, err, text), 0);
	assert_int_equal(parse(se, 3, err, text), 0);
	assert_string_equal(text, "server=h export=/srv/e timeout=5");
	/* an IPv6 address is no HOST:PORT */
	assert_int_equal(parse(ose, 2, err, text), 0);
}

static void refused(const char *const *kv, int n, const char *want)
{
	char err[512], text[512];

	assert_int_equal(parse(kv, n, err, text), -1);
	if (!strstr(err, want))
		fail_msg("'%s' does not say '%s'", err, want);
}

static void test_refused(void **state)
{
	const char *none[] = {"timeout=1"};
	const char *srv[] = {"--server=h"};
	const char *both[] = {"--nfs=nfs://h/e", "--export=/e"};
	const char *scheme[] = {"--nfs=smb://h/e"};
	const char *list[] = {"--nfs=nfs://h/e,nfs://g/e"};
	const char *port[] = {"--nfs=nfs://h:2049/e"};
	const char *sport[] = {"--server=h:2049", "--export=/e"};
	const char *noexp[] = {"--nfs=nfs://h?nfsport=1"};
	const char *nohost[] = {"--nfs=nfs:///e"};
	const char *v4[] = {"--nfs=nfs://h/e?version=4"};
	const char *v3[] = {"--nfs=nfs://h/e?version=3&uid=0&if=lo"};
	const char *key[] = {"--nfs=nfs://h/e?nfsport=1&bogus=2"};
	const char *noval[] = {"--nfs=nfs://h/e?dircache"};
	const char *num[] = {"--nfs=nfs://h/e?uid=root"};
	const char *rel[] = {"--server=h", "--export=srv"};
	const char *slash[] = {"--server=h/x", "--export=/srv"};
	char err[512], text[512];

	(void)state;
	refused(none, 1,
		"-B nfs needs the export: --nfs=nfs://SERVER/EXPORT, "
		"or --server=HOST --export=PATH");
	refused(srv, 1, "--server needs --export too");
	refused(both, 2, "--nfs names the server and the export");
	refused(scheme, 1, "not an nfs:// URL");
	refused(list, 1,
		"one URL (dbench 5's list of exports is not "
		"supported)");
	refused(port, 1,
		"'h:2049': give the ports in the URL's query "
		"(--nfs=nfs://h/EXPORT?nfsport=2049&mountport=N)");
	refused(sport, 2, "--server: 'h:2049': give the ports");
	refused(noexp, 1, "no export");
	refused(nohost, 1, "--nfs: no server");
	refused(v4, 1, "'version=4': the nfs backend speaks NFSv3 only");
	assert_int_equal(parse(v3, 1, err, text), 0);
	refused(key, 1,
		"'bogus=2' in the URL's query is not KEY=VALUE of "
		"libnfs");
	refused(noval, 1, "'dircache' in the URL's query is not KEY=VALUE");
	refused(num, 1, "'uid=root' in the URL's query: not a whole number");
	refused(rel, 2,
		"--export srv: the export's path on the server, "
		"from /");
	refused(slash, 2, "--server h/x: a host name or address");
}

static void test_requests(void **state)
{
	const struct backend *b = nfs();
	const char text[] = "NTCreateX \"\\clients\\client1\\a\" 0x0 0x5 1 "
			    "NT_STATUS_OK\n"
			    "LockX 1 0 1 NT_STATUS_OK\n"
			    "UnlockX 1 0 1 NT_STATUS_OK\n"
			    "Flush 1 NT_STATUS_OK\n"
			    "Close 1 NT_STATUS_OK\n";
	struct program *p = NULL;
	char err[512];

	(void)state;
	assert_int_equal(lf_parse_buffer("l.load", text, strlen(text), &p, err,
					 sizeof(err)),
			 0);
	assert_int_equal(backend_check(b, p,
				       BE_CAN_SYNC_OPEN | BE_CAN_FSYNC |
					       BE_CAN_NO_RESOLVE,
				       err, sizeof(err)),
			 0);
	assert_non_null(strstr(be_not_run(b, OP_LOCKX), "NFSv3 lock call"));
	assert_non_null(strstr(be_not_run(b, OP_UNLOCKX), "NFSv4-only"));
	assert_null(be_not_run(b, OP_FLUSH)); /* a COMMIT */
	assert_int_equal(
		backend_check(b, p, BE_CAN_SYNC_DIRS, err, sizeof(err)), -1);
	assert_string_equal(err, "-S: backend 'nfs' cannot sync directories: "
				 "NFSv3 has no call that syncs a directory (the "
				 "server decides when a directory change is "
				 "stable)");
	assert_int_equal(backend_check(b, NULL, BE_CAN_XATTR, err, sizeof(err)),
			 -1);
	assert_int_equal(backend_check(b, NULL, BE_CAN_DIRFD, err, sizeof(err)),
			 -1);
	lf_free(p);
}

int main(void)
{
	if (!backend_find("nfs")) {
		printf("SKIP: this build has no nfs backend (apt-get install "
		       "libnfs-dev, then make)\n");
		return 77;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spellings),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_requests),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
