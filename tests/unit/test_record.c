/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_record.c - the writer of "dbench-ng record" (src/record/writer*.c,
 * procs.c, lines.c, emit.c): a table of small strace logs (the front end
 * test_strace.c checks) and the loadfile lines the writer makes of them,
 * the recorded calls without their timestamps: dispositions, offsets
 * (positions, lseek, O_APPEND), handles shared by dup and fork and
 * closed by exec, renames out of --root, failures a replay repeats or
 * not, listings, paths relative to a working directory or a directory
 * descriptor, outside --root, names written as hashes, long reads, and
 * descriptors open before the trace.  Each loadfile must also parse.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>
#include <sys/syscall.h>

#include "bpf_rec.h"
#include "loadfile.h"
#include "rec_bpf.h"
#include "rec_writer.h"
#include "strace.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void to_writer(void *ctx, const struct rec_ev *ev)
{
	rec_writer_event(ctx, ev);
}

/* the recorded calls of @log (root /r), one per line; @all: the whole
 * loadfile */
static char *convert(const char *log, bool all)
{
	struct rec_writer_cfg cfg = {.root = "/r", .no_timestamps = true,
				     .initial_cwd = "/r"};
	struct rec_strace_stats st;
	struct rec_writer *w = rec_writer_new(&cfg);
	char path[] = "/tmp/test_record.XXXXXX", err[512];
	int fd = mkstemp(path);
	struct program *prog = NULL;
	char *text = NULL, *s, *e;
	size_t len = 0;
	FILE *f;

	assert_non_null(w);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, log, strlen(log)), (ssize_t)strlen(log));
	close(fd);
	if (rec_strace_read(path, false, to_writer, w, &st, err, sizeof(err)))
		fail_msg("%s", err);
	unlink(path);
	rec_writer_finish(w);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(rec_writer_emit(w, f, false), 0);
	fclose(f);
	rec_writer_free(w);
	if (lf_parse_buffer("rec", text, len, &prog, err, sizeof(err)))
		fail_msg("the loadfile does not parse: %s\n%s", err, text);
	lf_free(prog);
	if (all)
		return text;
	s = strstr(text, "# the recorded calls\n");
	e = strstr(text, "# end of the recorded calls\n");
	assert_non_null(s);
	assert_non_null(e);
	s += strlen("# the recorded calls\n");
	memmove(text, s, (size_t)(e - s));
	text[e - s] = 0;
	return text;
}

#define C "\"\\clients\\client1"

static const struct {
	const char *what, *log, *want;
} cases[] = {
	{"dispositions",
	 "1 openat(AT_FDCWD, \"/r/a\", O_RDONLY) = 3\n"
	 "1 openat(AT_FDCWD, \"/r/b\", O_WRONLY|O_CREAT, 0644) = 4\n"
	 "1 openat(AT_FDCWD, \"/r/c\", O_WRONLY|O_TRUNC) = 5\n"
	 "1 openat(AT_FDCWD, \"/r/d\", O_RDWR|O_CREAT|O_TRUNC, 0644) = 6\n"
	 "1 creat(\"/r/e\", 0644) = 7\n"
	 "1 openat(AT_FDCWD, \"/r/sub\", O_RDONLY|O_DIRECTORY) = 8\n"
	 "1 fstat(8, {st_mode=S_IFDIR|0755, st_size=4096, ...}) = 0\n"
	 "1 fsync(8) = 0\n",
	 "NTCreateX " C "\\a\" 0x40 0x1 1 NT_STATUS_OK\n"
	 "NTCreateX " C "\\b\" 0x40 0x2 2 NT_STATUS_OK\n"
	 "NTCreateX " C "\\c\" 0x40 0x4 3 NT_STATUS_OK\n"
	 "NTCreateX " C "\\d\" 0x40 0x5 4 NT_STATUS_OK\n"
	 "NTCreateX " C "\\e\" 0x40 0x5 5 NT_STATUS_OK\n"
	 "NTCreateX " C "\\sub\" 0x1 0x1 6 NT_STATUS_OK\n"
	 "QUERY_PATH_INFORMATION " C "\\sub\" 1004 NT_STATUS_OK\n"
	 "Flush 6 NT_STATUS_OK\n"
	 "Close 1 NT_STATUS_OK\nClose 2 NT_STATUS_OK\nClose 3 NT_STATUS_OK\n"
	 "Close 4 NT_STATUS_OK\nClose 5 NT_STATUS_OK\nClose 6 NT_STATUS_OK\n"},
	{"offsets",
	 "1 openat(AT_FDCWD, \"/r/a\", O_RDWR) = 3\n"
	 "1 read(3, \"\", 10) = 10\n"
	 "1 lseek(3, 100, SEEK_SET) = 100\n"
	 "1 read(3, \"\", 10) = 5\n"
	 "1 write(3, \"ab\", 2) = 2\n"
	 "1 pwrite64(3, \"ab\", 2, 7) = 2\n"
	 "1 openat(AT_FDCWD, \"/r/b\", O_WRONLY|O_APPEND) = 4\n"
	 "1 fstat(4, {st_mode=S_IFREG|0644, st_size=50, ...}) = 0\n"
	 "1 write(4, \"x\", 1) = 1\n"
	 "1 write(4, \"x\", 1) = 1\n",
	 "NTCreateX " C "\\a\" 0x40 0x1 1 NT_STATUS_OK\n"
	 "ReadX 1 0 10 10 NT_STATUS_OK\n"
	 "ReadX 1 100 10 5 NT_STATUS_OK\n"
	 "WriteX 1 105 2 2 NT_STATUS_OK\n"
	 "WriteX 1 7 2 2 NT_STATUS_OK\n"
	 "NTCreateX " C "\\b\" 0x40 0x1 2 NT_STATUS_OK\n"
	 "QUERY_FILE_INFORMATION 2 1004 NT_STATUS_OK\n"
	 "WriteX 2 50 1 1 NT_STATUS_OK\n"
	 "WriteX 2 51 1 1 NT_STATUS_OK\n"
	 "Close 1 NT_STATUS_OK\nClose 2 NT_STATUS_OK\n"},
	{"dup, fork, exec",
	 "1 openat(AT_FDCWD, \"/r/a\", O_WRONLY) = 3\n"
	 "1 dup(3) = 5\n"
	 "1 close(3) = 0\n"
	 "1 clone(child_stack=NULL, flags=SIGCHLD) = 2\n"
	 "2 write(5, \"x\", 1) = 1\n"
	 "2 close(5) = 0\n"
	 "1 write(5, \"y\", 1) = 1\n"
	 "1 close(5) = 0\n"
	 "1 openat(AT_FDCWD, \"/r/b\", O_RDONLY|O_CLOEXEC) = 3\n"
	 "1 openat(AT_FDCWD, \"/r/c\", O_RDONLY) = 4\n"
	 "1 execve(\"/bin/true\", [\"true\"], 0x0 /* 0 vars */) = 0\n"
	 "1 close(4) = 0\n",
	 "NTCreateX " C "\\a\" 0x40 0x1 1 NT_STATUS_OK\n"
	 "WriteX 1 0 1 1 NT_STATUS_OK\n"
	 "WriteX 1 1 1 1 NT_STATUS_OK\n"
	 "Close 1 NT_STATUS_OK\n"
	 "NTCreateX " C "\\b\" 0x40 0x1 1 NT_STATUS_OK\n"
	 "NTCreateX " C "\\c\" 0x40 0x1 2 NT_STATUS_OK\n"
	 "Close 1 NT_STATUS_OK\n"
	 "Close 2 NT_STATUS_OK\n"},
	{"names and failures",
	 "1 rename(\"/r/a\", \"/r/b\") = 0\n"
	 "1 rename(\"/r/b\", \"/tmp/out\") = 0\n"
	 "1 rename(\"/tmp/in\", \"/r/c\") = 0\n"
	 "1 unlink(\"/r/gone\") = -1 ENOENT (No such file or directory)\n"
	 "1 unlink(\"/r/ro\") = -1 EACCES (Permission denied)\n"
	 "1 mkdir(\"/r/m\", 0755) = 0\n"
	 "1 rmdir(\"/r/full\") = -1 ENOTEMPTY (Directory not empty)\n"
	 "1 openat(AT_FDCWD, \"/r/x\", O_WRONLY|O_CREAT|O_EXCL, 0600) = -1 "
	 "EEXIST (File exists)\n"
	 "1 openat(AT_FDCWD, \"/r/nope\", O_RDONLY) = -1 ENOENT (No such "
	 "file or directory)\n"
	 "1 newfstatat(AT_FDCWD, \"/r/s\", {st_mode=S_IFREG|0644, "
	 "st_size=3, ...}, 0) = 0\n"
	 "1 statfs(\"/r\", {f_type=TMPFS_MAGIC}) = 0\n"
	 "1 utimensat(AT_FDCWD, \"/r/t\", NULL, 0) = 0\n",
	 "Rename " C "\\a\" " C "\\b\" NT_STATUS_OK\n"
	 "Unlink " C "\\b\" 0x6 NT_STATUS_OK\n"
	 "Unlink " C "\\gone\" 0x6 NT_STATUS_OBJECT_NAME_NOT_FOUND\n"
	 "Mkdir " C "\\m\" NT_STATUS_OK\n"
	 "Rmdir " C "\\full\" NT_STATUS_DIRECTORY_NOT_EMPTY\n"
	 "QUERY_PATH_INFORMATION " C "\\x\" 1004 NT_STATUS_OK\n"
	 "NTCreateX " C "\\nope\" 0x40 0x1 0 "
	 "NT_STATUS_OBJECT_NAME_NOT_FOUND\n"
	 "QUERY_PATH_INFORMATION " C "\\s\" 1004 NT_STATUS_OK\n"
	 "QUERY_FS_INFORMATION 259 NT_STATUS_OK\n"
	 "NTCreateX " C "\\t\" 0x40 0x1 1 NT_STATUS_OK\n"
	 "SET_FILE_INFORMATION 1 1004 NT_STATUS_OK\n"
	 "Close 1 NT_STATUS_OK\n"},
	{"listing and relative paths",
	 "1 openat(AT_FDCWD, \"d\", O_RDONLY|O_DIRECTORY) = 3\n"
	 "1 getdents64(3, 0x1 /* 4 entries */, 32768) = 112\n"
	 "1 getdents64(3, 0x1 /* 0 entries */, 32768) = 0\n"
	 "1 close(3) = 0\n"
	 "1 chdir(\"d\") = 0\n"
	 "1 openat(AT_FDCWD, \"../e/./f\", O_RDONLY) = 3\n"
	 "1 openat(3</r/e/f>, \"g\", O_RDONLY) = 4\n"
	 "1 openat(AT_FDCWD, \"../../etc/passwd\", O_RDONLY) = 5\n"
	 "1 read(5, \"\", 10) = 10\n"
	 "1 mkdir(\"/r/my client1\", 0755) = 0\n",
	 "FIND_FIRST " C "\\d\\*\" 260 1000000 4 NT_STATUS_OK\n"
	 "NTCreateX " C "\\e\\f\" 0x40 0x1 1 NT_STATUS_OK\n"
	 "NTCreateX " C "\\e\\f\\g\" 0x40 0x1 2 NT_STATUS_OK\n"
	 "Mkdir " C "\\492be828af32\" NT_STATUS_OK\n"
	 "Close 1 NT_STATUS_OK\nClose 2 NT_STATUS_OK\n"},
	{"a long read, a descriptor from before",
	 "1 openat(AT_FDCWD, \"/r/big\", O_RDONLY) = 3\n"
	 "1 read(3, \"\", 40000000) = 40000000\n"
	 "1 write(7</r/old>, \"x\", 1) = 1\n"
	 "1 write(1</dev/pts/0>, \"x\", 1) = 1\n",
	 "NTCreateX " C "\\old\" 0x40 0x1 2000000000 NT_STATUS_OK\n"
	 "NTCreateX " C "\\big\" 0x40 0x1 1 NT_STATUS_OK\n"
	 "ReadX 1 0 16777216 16777216 NT_STATUS_OK\n"
	 "ReadX 1 16777216 16777216 16777216 NT_STATUS_OK\n"
	 "ReadX 1 33554432 6445568 6445568 NT_STATUS_OK\n"
	 "WriteX 2000000000 0 1 1 NT_STATUS_OK\n"
	 "Close 1 NT_STATUS_OK\nClose 2000000000 NT_STATUS_OK\n"},
	{"write-through",
	 "1 openat(AT_FDCWD, \"/r/s\", O_WRONLY|O_CREAT|O_SYNC, 0644) = 3\n"
	 "1 openat(AT_FDCWD, \"/r/t\", O_WRONLY|O_DSYNC) = 4\n",
	 "NTCreateX " C "\\s\" 0x42 0x2 1 NT_STATUS_OK\n"
	 "NTCreateX " C "\\t\" 0x42 0x1 2 NT_STATUS_OK\n"
	 "Close 1 NT_STATUS_OK\nClose 2 NT_STATUS_OK\n"},
	{"ftruncate, fallocate, locks",
	 "1 openat(AT_FDCWD, \"/r/a\", O_RDWR) = 3\n"
	 "1 ftruncate(3, 10) = 0\n"
	 "1 fallocate(3, 0, 0, 4096) = 0\n"
	 "1 fcntl(3, F_SETLK, {l_type=F_RDLCK, l_whence=SEEK_SET, "
	 "l_start=5, l_len=-5}) = 0\n"
	 "1 flock(3, LOCK_EX) = 0\n"
	 "1 flock(3, LOCK_UN) = 0\n"
	 "1 ftruncate(3, 0) = -1 EINVAL (Invalid argument)\n",
	 "NTCreateX " C "\\a\" 0x40 0x1 1 NT_STATUS_OK\n"
	 "SET_FILE_INFORMATION 1 1020 NT_STATUS_OK\n"
	 "SET_FILE_INFORMATION 1 1019 NT_STATUS_OK\n"
	 "LockX 1 0 5 NT_STATUS_OK\n"
	 "LockX 1 0 0 NT_STATUS_OK\n"
	 "UnlockX 1 0 0 NT_STATUS_OK\n"
	 "Close 1 NT_STATUS_OK\n"},
};

static void test_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *got = convert(cases[i].log, false);

		if (strcmp(got, cases[i].want))
			fail_msg("%s:\n%s\nexpected\n%s", cases[i].what, got,
				 cases[i].want);
		free(got);
	}
}

/* the set-up and the trailer: what existed, what was left out */
static void test_setup_trailer(void **state)
{
	char *text = convert("1 openat(AT_FDCWD, \"/r/d/in\", O_RDONLY) = 3\n"
			     "1 read(3, \"\", 100) = 100\n"
			     "1 close(3) = 0\n"
			     "1 openat(AT_FDCWD, \"/etc/x\", O_RDONLY) = 3\n"
			     "1 mmap(NULL, 10, PROT_READ, MAP_SHARED, 3, 0) = "
			     "0x1000\n"
			     "1 access(\"/r/d/in\", R_OK) = 0\n",
			     true);

	(void)state;
	if (!strstr(text, "Mkdir " C "\\d\" NT_STATUS_OK\n"
			  "NTCreateX " C "\\d\\in\" 0x40 0x5 1 NT_STATUS_OK\n"
			  "WriteX 1 0 100 100 NT_STATUS_OK\n"
			  "Close 1 NT_STATUS_OK\n"))
		fail_msg("no set-up of d/in:\n%s", text);
	if (!strstr(text, "#   on paths outside --root: 1 (openat 1)\n") ||
	    !strstr(text, "#     access 1\n"))
		fail_msg("the trailer does not count:\n%s", text);
	free(text);
}

/* the BPF program's records (bpf_decode.c): made up here */
static void test_bpf_records(void **state)
{
	static struct rec_bpf_ev r;
	struct rec_raw raw;
	struct rec_ev ev;
	struct stat st = {.st_mode = S_IFREG | 0644, .st_size = 42};
	size_t full = sizeof(r);

	(void)state;
	memset(&r, 0, sizeof(r));
	r.type = REC_BPF_SYSCALL;
	r.nr = SYS_openat;
	r.pid = r.tgid = 7;
	r.ret = 3;
	r.arg[0] = (uint64_t)(int64_t)-100;
	r.arg[1] = 0x1000; /* the path's pointer: not NULL */
	r.arg[2] = 0101;   /* O_WRONLY|O_CREAT */
	strcpy(r.str[0], "a/b");
	r.slen[0] = 4;
	assert_int_equal(rec_bpf_event(&r, full, &raw, &ev), 1);
	assert_int_equal(ev.kind, RK_OPEN);
	assert_int_equal(ev.fd, -100);
	assert_string_equal(ev.path, "a/b");
	assert_int_equal(ev.a[0], 0101);
	assert_int_equal(ev.flags & REC_EV_BADPATH, 0);
	/* a path without its NUL, or cut, or unreadable: marked bad */
	r.slen[0] = 3;
	assert_int_equal(rec_bpf_event(&r, full, &raw, &ev), 1);
	assert_true(ev.flags & REC_EV_BADPATH);
	r.slen[0] = -14;
	assert_int_equal(rec_bpf_event(&r, full, &raw, &ev), 1);
	assert_true(ev.flags & REC_EV_BADPATH);
	r.slen[0] = 4;
	assert_int_equal(rec_bpf_event(&r, REC_BPF_STR0 + 2, &raw, &ev), 1);
	assert_true(ev.flags & REC_EV_BADPATH);
	/* short records, unknown types and calls: refused */
	assert_int_equal(rec_bpf_event(&r, REC_BPF_HDR - 1, &raw, &ev), -1);
	r.nr = 999;
	assert_int_equal(rec_bpf_event(&r, full, &raw, &ev), -1);
	r.type = 77;
	assert_int_equal(rec_bpf_event(&r, full, &raw, &ev), -1);
	/* fstat's struct stat, read back */
	memset(&r, 0, sizeof(r));
	r.type = REC_BPF_SYSCALL;
	r.nr = SYS_fstat;
	r.arg[0] = 3;
	memcpy(r.blob, &st, sizeof(r.blob));
	r.blen = sizeof(r.blob);
	assert_int_equal(rec_bpf_event(&r, REC_BPF_STR0, &raw, &ev), 1);
	assert_int_equal(ev.kind, RK_STAT);
	assert_true(ev.flags & REC_EV_STAT);
	assert_int_equal(ev.st_size, 42);
	/* a fork that shares the descriptor table */
	memset(&r, 0, sizeof(r));
	r.type = REC_BPF_FORK;
	r.pid = r.tgid = 7;
	r.nr = 8;
	r.other = 8;
	r.flags = REC_BPF_F_FILES;
	assert_int_equal(rec_bpf_event(&r, REC_BPF_HDR, &raw, &ev), 1);
	assert_int_equal(ev.kind, RK_FORK);
	assert_int_equal(ev.a[0], 8);
	assert_int_equal(ev.a[2], REC_FORK_FILES);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_setup_trailer),
		cmocka_unit_test(test_bpf_records),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
