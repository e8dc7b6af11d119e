/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_strace.c - the strace front end of "dbench-ng record"
 * (src/record/strace.c, strace_args.c): tables of log lines and the
 * events they make (prefixes, times, -y annotations, escapes in paths,
 * unfinished and resumed calls, results), and of the lines it refuses
 * with LOG:LINE (malformed lines, numbers out of range, bytes strace
 * never writes), also skipped and counted with skip_bad.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rec_ev.h"
#include "strace.h"
#include "strace_impl.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MAXEV	      8

struct got {
	int n;
	struct {
		int kind, pid, fd;
		char path[64], path2[64], fdpath[64], cwd[64];
		int64_t ret, a0, a1;
		uint64_t ts, line;
	} ev[MAXEV];
};

static void cp(char *dst, const char *s)
{
	snprintf(dst, 64, "%s", s ? s : "(null)");
}

static void collect(void *ctx, const struct rec_ev *ev)
{
	struct got *g = ctx;

	if (g->n == MAXEV)
		return;
	g->ev[g->n].kind = ev->kind;
	g->ev[g->n].pid = ev->pid;
	g->ev[g->n].fd = ev->fd;
	cp(g->ev[g->n].path, ev->path);
	cp(g->ev[g->n].path2, ev->path2);
	cp(g->ev[g->n].fdpath, ev->fdpath);
	cp(g->ev[g->n].cwd, ev->cwd);
	g->ev[g->n].ret = ev->ret;
	g->ev[g->n].a0 = ev->a[0];
	g->ev[g->n].a1 = ev->a[1];
	g->ev[g->n].ts = ev->ts_ns;
	g->ev[g->n].line = ev->line;
	g->n++;
}

/* read @text as a log; the rc, events in @g, the message in @err */
static int read_log(const char *text, bool skip_bad, struct got *g,
		    struct rec_strace_stats *st, char *err, size_t len)
{
	char path[] = "/tmp/test_strace.XXXXXX";
	int fd = mkstemp(path), rc;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	memset(g, 0, sizeof(*g));
	err[0] = 0;
	rc = rec_strace_read(path, skip_bad, collect, g, st, err, len);
	unlink(path);
	/* the message names the file: keep what follows its name */
	if (rc && !strncmp(err, path, strlen(path)))
		memmove(err, err + strlen(path), strlen(err + strlen(path)) + 1);
	return rc;
}

/* one call per line, the event it makes */
static void test_calls(void **state)
{
	static const struct {
		const char *line;
		int kind, pid, fd;
		const char *path;
		int64_t ret, a0, a1;
		const char *fdpath; /* "(null)": none */
	} t[] = {
		{"100 openat(AT_FDCWD, \"a.txt\", O_RDONLY|O_CLOEXEC) = 3",
		 RK_OPEN, 100, -100, "a.txt", 3, O_RDONLY | O_CLOEXEC, 0,
		 "(null)"},
		{"100 openat(AT_FDCWD, \"n\", O_WRONLY|O_CREAT|O_TRUNC, 0644) = 4",
		 RK_OPEN, 100, -100, "n", 4, O_WRONLY | O_CREAT | O_TRUNC, 0644,
		 "(null)"},
		{"100 open(\"/x/y\", O_RDWR|O_CREAT|O_EXCL, 0600) = 5", RK_OPEN,
		 100, -100, "/x/y", 5, O_RDWR | O_CREAT | O_EXCL, 0600,
		 "(null)"},
		{"100 creat(\"c\", 0644) = 6", RK_OPEN, 100, -100, "c", 6,
		 O_CREAT | O_WRONLY | O_TRUNC, 0644, "(null)"},
		{"100 openat(AT_FDCWD, \"missing\", O_RDONLY) = -1 ENOENT (No "
		 "such file or directory)",
		 RK_OPEN, 100, -100, "missing", -ENOENT, O_RDONLY, 0, "(null)"},
		/* -y: the descriptor's file, also on the result */
		{"7 openat(3</d>, \"f\", O_RDONLY) = 4</d/f>", RK_OPEN, 7, 3,
		 "f", 4, O_RDONLY, 0, "/d"},
		{"7 read(4</d/f>, \"abc\"..., 4096) = 3", RK_READ, 7, 4,
		 "(null)", 3, 4096, -1, "/d/f"},
		{"7 pread64(4, \"\", 512, 8192) = 0", RK_READ, 7, 4, "(null)", 0,
		 512, 8192, "(null)"},
		{"7 write(1</dev/pts/0>, \"hi\\n\", 3) = 3", RK_WRITE, 7, 1,
		 "(null)", 3, 3, -1, "/dev/pts/0"},
		{"7 pwrite64(4, \"x\", 1, 0x10) = 1", RK_WRITE, 7, 4, "(null)", 1,
		 1, 16, "(null)"},
		{"7 writev(4, [{iov_base=\"a,b\", iov_len=3}], 1) = 3", RK_WRITE,
		 7, 4, "(null)", 3, 3, -1, "(null)"},
		{"7 close(4) = 0", RK_CLOSE, 7, 4, "(null)", 0, 0, 0, "(null)"},
		{"7 fsync(4) = 0", RK_FSYNC, 7, 4, "(null)", 0, 0, 0, "(null)"},
		{"7 fdatasync(4) = -1 EIO (Input/output error)", RK_FSYNC, 7, 4,
		 "(null)", -EIO, 0, 0, "(null)"},
		{"7 unlink(\"old\") = 0", RK_UNLINK, 7, -100, "old", 0, 0, 0,
		 "(null)"},
		{"7 unlinkat(AT_FDCWD, \"dir\", AT_REMOVEDIR) = 0", RK_RMDIR, 7,
		 -100, "dir", 0, 0, 0, "(null)"},
		{"7 mkdir(\"m\", 0755) = -1 EEXIST (File exists)", RK_MKDIR, 7,
		 -100, "m", -EEXIST, 0, 0, "(null)"},
		{"7 rmdir(\"m\") = 0", RK_RMDIR, 7, -100, "m", 0, 0, 0, "(null)"},
		{"7 newfstatat(AT_FDCWD, \"s\", {st_mode=S_IFREG|0644, "
		 "st_size=42, ...}, 0) = 0",
		 RK_STAT, 7, -100, "s", 0, 0, 0, "(null)"},
		{"7 fstat(4, {st_mode=S_IFREG|0644, st_size=42, ...}) = 0",
		 RK_STAT, 7, 4, "(null)", 0, 0, 0, "(null)"},
		{"7 newfstatat(4, \"\", {st_mode=S_IFDIR|0755, ...}, "
		 "AT_EMPTY_PATH) = 0",
		 RK_STAT, 7, 4, "(null)", 0, 0, 0, "(null)"},
		{"7 statfs(\"/\", {f_type=EXT2_SUPER_MAGIC, f_bsize=4096}) = 0",
		 RK_STATFS, 7, -100, "/", 0, 0, 0, "(null)"},
		{"7 getdents64(3, 0x55d0 /* 5 entries */, 32768) = 144",
		 RK_GETDENTS, 7, 3, "(null)", 144, 5, 0, "(null)"},
		{"7 ftruncate(4, 1000) = 0", RK_TRUNCATE, 7, 4, "(null)", 0,
		 1000, 0, "(null)"},
		{"7 lseek(4, 0, SEEK_END) = 1000", RK_LSEEK, 7, 4, "(null)", 1000,
		 0, 0, "(null)"},
		{"7 fcntl(4, F_SETLKW, {l_type=F_WRLCK, l_whence=SEEK_SET, "
		 "l_start=10, l_len=20}) = 0",
		 RK_LOCK, 7, 4, "(null)", 0, REC_LOCK_WRITE, 10, "(null)"},
		{"7 flock(4, LOCK_UN) = 0", RK_LOCK, 7, 4, "(null)", 0,
		 REC_LOCK_UNLOCK, 0, "(null)"},
		{"7 dup2(4, 9) = 9", RK_DUP, 7, 4, "(null)", 9, 9, 0, "(null)"},
		{"7 fcntl(4, F_DUPFD_CLOEXEC, 0) = 10", RK_DUP, 7, 4, "(null)",
		 10, -1, 1, "(null)"},
		{"7 chdir(\"sub\") = 0", RK_CHDIR, 7, -100, "sub", 0, 0, 0,
		 "(null)"},
		{"7 access(\"/etc/x\", R_OK) = 0", RK_OTHER, 7, -100, "/etc/x", 0,
		 0, 0, "(null)"},
		/* escapes: quotes, backslashes, octal (not UTF-8 too), hex */
		{"7 unlink(\"a\\\"b\\\\c\") = 0", RK_UNLINK, 7, -100, "a\"b\\c",
		 0, 0, 0, "(null)"},
		{"7 unlink(\"caf\\303\\251\") = 0", RK_UNLINK, 7, -100,
		 "caf\xc3\xa9", 0, 0, 0, "(null)"},
		{"7 unlink(\"\\377\\x41\\t\") = 0", RK_UNLINK, 7, -100,
		 "\xff" "A\t", 0, 0, 0, "(null)"},
		{"7 unlink(\"a,b) = 3\") = 0", RK_UNLINK, 7, -100, "a,b) = 3", 0,
		 0, 0, "(null)"},
		/* [pid N] on stderr, times with -tt, -T */
		{"[pid 8] 10:00:00.000250 close(3) = 0 <0.000005>", RK_CLOSE, 8,
		 3, "(null)", 0, 0, 0, "(null)"},
		{"9 1700000000.500000 close(3) = 0", RK_CLOSE, 9, 3, "(null)", 0,
		 0, 0, "(null)"},
		/* strace pads the pid: "%-5d " with -o, "[pid %5u] " */
		{"88    close(3) = 0", RK_CLOSE, 88, 3, "(null)", 0, 0, 0,
		 "(null)"},
		{"[pid    88] 10:00:00.1 close(3) = 0", RK_CLOSE, 88, 3, "(null)",
		 0, 0, 0, "(null)"},
		/* an errno strace names that the kernel restarts */
		{"7 read(0, \"\", 1) = -1 ERESTARTSYS (To be restarted)", RK_READ,
		 7, 0, "(null)", -EINTR, 1, -1, "(null)"},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		struct rec_strace_stats st;
		struct got g;
		char err[512], text[512];

		snprintf(text, sizeof(text), "%s\n", t[i].line);
		if (read_log(text, false, &g, &st, err, sizeof(err)))
			fail_msg("line %zu: %s", i, err);
		if (g.n != 1)
			fail_msg("line %zu: %d events", i, g.n);
		if (g.ev[0].kind != t[i].kind || g.ev[0].pid != t[i].pid ||
		    g.ev[0].fd != t[i].fd || strcmp(g.ev[0].path, t[i].path) ||
		    g.ev[0].ret != t[i].ret || g.ev[0].a0 != t[i].a0 ||
		    g.ev[0].a1 != t[i].a1 ||
		    strcmp(g.ev[0].fdpath, t[i].fdpath) || g.ev[0].line != 1)
			fail_msg("line %zu (%s): kind %d pid %d fd %d path '%s' "
				 "ret %lld a0 %lld a1 %lld fdpath '%s'",
				 i, t[i].line, g.ev[0].kind, g.ev[0].pid,
				 g.ev[0].fd, g.ev[0].path,
				 (long long)g.ev[0].ret, (long long)g.ev[0].a0,
				 (long long)g.ev[0].a1, g.ev[0].fdpath);
	}
}

/* the lines that make no event: questions, signals, ends */
static void test_quiet(void **state)
{
	static const char *const t[] = {
		"7 fcntl(3, F_GETFL) = 0x8000 (flags O_RDONLY|O_LARGEFILE)",
		"7 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED} ---",
		"7 exit_group(0) = ?",
		"strace: Process 7 attached",
		"7 read(0, <unfinished ...>) = ?",
		("7 mmap(NULL, 8192, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS, -1, "
		 "0) = 0x7f0000000000"),
		"7 getpid() = 7",
		"",
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		struct rec_strace_stats st;
		struct got g;
		char err[512], text[512];

		snprintf(text, sizeof(text), "7 close(9) = 0\n%s\n", t[i]);
		if (read_log(text, false, &g, &st, err, sizeof(err)))
			fail_msg("line %zu: %s", i, err);
		if (g.n != 1)
			fail_msg("line %zu (%s): %d events", i, t[i], g.n);
	}
}

/* a call split by another process's lines is joined at its start */
static void test_resumed(void **state)
{
	static const char log[] =
		"5 10:00:00.000000 read(3, <unfinished ...>\n"
		"6 10:00:00.000100 close(4) = 0\n"
		"5 10:00:00.000200 <... read resumed>\"ab\", 10) = 2\n"
		"5 23:59:59.999000 close(3) = 0\n"
		"5 00:00:00.001000 close(5) = 0\n"
		"5 10:00:00.000300 +++ exited with 0 +++\n";
	struct rec_strace_stats st;
	struct got g;
	char err[512];

	(void)state;
	assert_int_equal(read_log(log, false, &g, &st, err, sizeof(err)), 0);
	assert_int_equal(g.n, 5);
	assert_int_equal(g.ev[0].kind, RK_CLOSE);
	assert_int_equal(g.ev[0].pid, 6);
	assert_int_equal(g.ev[1].kind, RK_READ);
	assert_int_equal(g.ev[1].ret, 2);
	assert_int_equal(g.ev[1].a0, 10);
	assert_int_equal(g.ev[1].ts, 36000ull * 1000000000ull);
	assert_int_equal(g.ev[1].line, 3);
	/* past midnight: the day goes on */
	assert_true(g.ev[3].ts > g.ev[2].ts);
	assert_int_equal(g.ev[3].ts - g.ev[2].ts, 2000000);
	assert_int_equal(g.ev[4].kind, RK_EXIT);
	assert_true(st.timestamps);
}

/* -y's AT_FDCWD annotation gives the working directory */
static void test_cwd(void **state)
{
	static const char log[] =
		"5 openat(AT_FDCWD</w/d\\>x>, \"f\", O_RDONLY) = 3</w/d\\>x/f>\n";
	struct rec_strace_stats st;
	struct got g;
	char err[512];

	(void)state;
	assert_int_equal(read_log(log, false, &g, &st, err, sizeof(err)), 0);
	assert_int_equal(g.n, 1);
	assert_string_equal(g.ev[0].cwd, "/w/d>x");
	assert_string_equal(st.first_cwd, "/w/d>x");
}

/* lines refused with their number and why; with skip_bad, counted */
static void test_refused(void **state)
{
	static const struct {
		const char *log;
		const char *err; /* after the file's name */
	} t[] = {
		{"this is not strace\n", ":1: no system call name"},
		{"7 close(3) = 0\n%%% what\n",
		 ":2: not a line of strace output"},
		{"7 openat(AT_FDCWD, \"x, O_RDONLY) = 3\n",
		 ":1: an unterminated string"},
		{"7 openat(AT_FDCWD, \"x\", O_RDONLY\n",
		 ":1: the arguments do not end"},
		{"7 read(3, \"\", 99999999999999999999) = 0\n",
		 ":1: a number out of range"},
		{"7 read(3, \"\", 10) = 99999999999999999999\n",
		 ":1: a call without a result, or one out of range"},
		{"7 read(3, \"\", 10) = 4611686018427387904\n",
		 ":1: a call without a result, or one out of range"},
		{"7 pread64(3, \"\", 1, 0x10000000000000000) = 0\n",
		 ":1: a number out of range"},
		{"7 read(3, \"\", 10) = banana\n",
		 ":1: a call without a result, or one out of range"},
		{"7 close(3) = 0\n7 unlink(\"caf\xc3\xa9\") = 0\n"
		 "7 unlink(\"\xff\") = 0\n",
		 ":3: a byte strace does not write (0xff at column 11)"},
		{"7 unlink(\"a\x1b[2J\") = 0\n",
		 ":1: a byte strace does not write (0x1b at column 12)"},
		{"7 close(3) = 0\n7 close(4)\0 = 0\n", ":2: a NUL byte in the line"},
		{"[pid x] close(3) = 0\n", ":1: not a line of strace output"},
		{"7 10:00:00.000000 close(3) = 0\n"
		 "7 1700000000.000000 close(3) = 0\n",
		 ":2: a time more than 10^7 s from the log's first"},
		/* times no clock shows (the fuzzer's: 1.4e23 s overflowed
		 * the conversion to ns) */
		{"7 10:00:1.4e23 close(3) = 0\n", ":1: not a line of strace output"},
		{"7 25:00:00.000000 close(3) = 0\n", ":1: not a line of strace output"},
		{"7 1e30.5 close(3) = 0\n", ":1: not a line of strace output"},
		{"7 -1.5 close(3) = 0\n", ":1: not a line of strace output"},
		{"7 <... read resumed> = 3\n7 close(3) = 0\n"
		 "7 <... read = 3\n",
		 ":3: a resumed call without its name"},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		struct rec_strace_stats st;
		struct got g;
		char err[512];
		size_t n = strlen(t[i].log);
		char path[] = "/tmp/test_strace.XXXXXX";
		int fd, rc;

		/* the NUL case: write the bytes up to the last newline */
		if (strstr(t[i].err, "NUL"))
			n = 31;
		fd = mkstemp(path);
		assert_true(fd >= 0);
		assert_int_equal(write(fd, t[i].log, n), (ssize_t)n);
		close(fd);
		rc = rec_strace_read(path, false, collect, &g, &st, err,
				     sizeof(err));
		if (!rc)
			fail_msg("log %zu: accepted", i);
		if (strncmp(err, path, strlen(path)) ||
		    strncmp(err + strlen(path), t[i].err, strlen(t[i].err)))
			fail_msg("log %zu: '%s', not '%s'", i, err, t[i].err);
		/* skipped, the first one named */
		memset(&g, 0, sizeof(g));
		rc = rec_strace_read(path, true, collect, &g, &st, err,
				     sizeof(err));
		unlink(path);
		if (rc && !strstr(err, "no line of strace output"))
			fail_msg("log %zu with skip_bad: %s", i, err);
		if (!rc && !st.skipped)
			fail_msg("log %zu with skip_bad: nothing skipped", i);
	}
}

/* st_split: the top-level commas and the result */
static void test_split(void **state)
{
	static const struct {
		const char *text;
		int nargs;
		const char *last; /* the last argument */
		const char *ret;
	} t[] = {
		{"close(3) = 0", 1, "3", "0"},
		{"getpid() = 5", 0, NULL, "5"},
		{"f(\"a,b\", {x=1, y=[2, 3]}, 4</p,q>) = 0", 3, "4</p,q>", "0"},
		{"f(1 /* a, b */, 2) = -1 ENOENT (x)", 2, "2",
		 "-1 ENOENT (x)"},
		{"f(1, 2 <unfinished", -1, NULL, NULL},
		{"(1) = 0", -1, NULL, NULL},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		struct st_call c;
		const char *why = NULL;
		int rc = st_split(t[i].text, &c, &why);

		if (t[i].nargs < 0) {
			if (!rc)
				fail_msg("%s: accepted", t[i].text);
			continue;
		}
		if (rc)
			fail_msg("%s: %s", t[i].text, why);
		assert_int_equal(c.nargs, t[i].nargs);
		if (t[i].last)
			assert_memory_equal(c.arg[c.nargs - 1], t[i].last,
					    strlen(t[i].last));
		assert_string_equal(c.ret, t[i].ret);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_calls),	cmocka_unit_test(test_quiet),
		cmocka_unit_test(test_resumed), cmocka_unit_test(test_cwd),
		cmocka_unit_test(test_refused), cmocka_unit_test(test_split),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
