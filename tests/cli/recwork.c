/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * recwork.c - the workload of tests/cli/record*.sh: a known set of
 * file-system calls in DIR, each one system call (no library call that
 * adds its own), so that the loadfile "dbench-ng record" makes of it has
 * counts the test knows:
 *   recwork DIR [N]
 * N files (default 5), each created, written in 3 blocks of 4096 bytes,
 * fsync'ed, fstat'ed and closed; then each opened again, read with one
 * pread and two reads, and closed; then on the first one ftruncate,
 * a write lock and its unlock; stat and statfs; a listing of the
 * directory; a rename; N unlinks and an rmdir; one open of a missing
 * file.  Exit 0, or 1 naming the call that failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

static char path[4096], path2[4096];

static int die(const char *what)
{
	fprintf(stderr, "recwork: %s %s: %s\n", what, path, strerror(errno));
	exit(1);
}

static const char *at(const char *dir, const char *name, int i)
{
	snprintf(path, sizeof(path), "%s/sub/%s%d", dir, name, i);
	return path;
}

int main(int argc, char **argv)
{
	static char buf[4096];
	const char *dir = argc > 1 ? argv[1] : ".";
	int n = argc > 2 ? atoi(argv[2]) : 5;
	struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET,
			   .l_start = 0, .l_len = 100};
	struct statfs sf;
	struct stat st;
	int fd;

	memset(buf, 'x', sizeof(buf));
	snprintf(path, sizeof(path), "%s/sub", dir);
	if (mkdir(path, 0755))
		die("mkdir");
	for (int i = 0; i < n; i++) {
		fd = open(at(dir, "f", i), O_CREAT | O_WRONLY | O_TRUNC, 0644);
		if (fd < 0)
			die("create");
		for (int k = 0; k < 3; k++)
			if (write(fd, buf, sizeof(buf)) != sizeof(buf))
				die("write");
		if (fsync(fd) || fstat(fd, &st) || close(fd))
			die("fsync, fstat or close");
	}
	for (int i = 0; i < n; i++) {
		fd = open(at(dir, "f", i), O_RDONLY);
		if (fd < 0)
			die("open");
		if (pread(fd, buf, sizeof(buf), 4096) != sizeof(buf) ||
		    read(fd, buf, sizeof(buf)) != sizeof(buf) ||
		    read(fd, buf, sizeof(buf)) != sizeof(buf) || close(fd))
			die("read");
	}
	fd = open(at(dir, "f", 0), O_RDWR);
	if (fd < 0 || ftruncate(fd, 100) || fcntl(fd, F_SETLK, &fl))
		die("ftruncate or lock");
	fl.l_type = F_UNLCK;
	if (fcntl(fd, F_SETLK, &fl) || close(fd))
		die("unlock");
	if (stat(at(dir, "f", 1), &st) || statfs(dir, &sf))
		die("stat or statfs");
	snprintf(path, sizeof(path), "%s/sub", dir);
	fd = open(path, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		die("opendir");
	while (syscall(SYS_getdents64, fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
	snprintf(path2, sizeof(path2), "%s/sub/g0", dir);
	if (rename(at(dir, "f", 0), path2))
		die("rename");
	if (unlink(path2))
		die("unlink");
	for (int i = 1; i < n; i++)
		if (unlink(at(dir, "f", i)))
			die("unlink");
	fd = open(at(dir, "missing", 0), O_RDONLY);
	if (fd >= 0 || errno != ENOENT)
		die("open of a missing file");
	snprintf(path, sizeof(path), "%s/sub", dir);
	if (rmdir(path))
		die("rmdir");
	return 0;
}
