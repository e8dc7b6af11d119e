/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * mountns.c - --paths full without symlink races: the run (the parent,
 * hence every client it forks, the clean-up and fini) moves into a mount
 * namespace of its own in which DIR is bind-mounted onto itself with
 * nosymfollow (MS_NOSYMFOLLOW, Linux 5.10).  There the kernel refuses to
 * follow any symlink met under DIR, in the middle of a path or at its end
 * (ELOOP), so a link planted in DIR/clients during the run cannot lead a
 * whole-path call (stat, mkdir, unlink, rename, rmdir, utimensat) outside,
 * while the calls stay dbench's own: the same names, the same walks.
 *
 * As root: unshare(CLONE_NEWNS).  Without CAP_SYS_ADMIN: a user namespace
 * of our own too (CLONE_NEWUSER, our uid and gid mapped to themselves),
 * where the kernel lets us mount; that needs a process without threads.
 * All mounts become slaves first: nothing mounted here is seen outside,
 * and the namespace goes away with the last process in it.  Where neither
 * works, full mode is refused (exit 3) unless --allow-symlink-races.
 * A DIR already on a nosymfollow mount needs nothing.
 */
#include <fcntl.h>
#include <linux/mount.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fileio.h"

#ifndef ST_NOSYMFOLLOW
#define ST_NOSYMFOLLOW 0x2000 /* statfs(2) f_flags, Linux 5.10 */
#endif
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif

static bool entered; /* once per process: every run of --runs is in it */

static bool nosymfollow(int fd)
{
	struct statvfs sv;

	return !fstatvfs(fd, &sv) && (sv.f_flag & ST_NOSYMFOLLOW);
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* A user namespace with our uid and gid mapped to themselves (so that the
 * owners the start-up check compares stay ours), and a mount namespace
 * owned by it.  0, or -1 with the reason in @why. */
static int enter_userns(char *why, size_t len)
{
	unsigned int uid = (unsigned int)geteuid(), gid = (unsigned int)getegid();
	char map[64];
	int fd;

	if (unshare(CLONE_NEWUSER | CLONE_NEWNS)) {
		snprintf(why, len, "no user namespace either (%s%s)",
			 strerror(errno),
			 errno == EINVAL ? ": the process has threads" : "");
		return -1;
	}
	snprintf(map, sizeof(map), "%u %u 1\n", uid, uid);
	if (write_file("/proc/self/uid_map", map) ||
	    write_file("/proc/self/setgroups", "deny\n"))
		goto bad;
	snprintf(map, sizeof(map), "%u %u 1\n", gid, gid);
	if (write_file("/proc/self/gid_map", map))
		goto bad;
	fileio_g.userns = true;
	fd = open("/proc/sys/kernel/overflowuid", O_RDONLY | O_CLOEXEC);
	fileio_g.overflow_uid = 65534;
	if (fd >= 0) {
		char buf[16] = "";

		if (read(fd, buf, sizeof(buf) - 1) > 0)
			fileio_g.overflow_uid = (uid_t)atoi(buf);
		close(fd);
	}
	return 0;
bad:
	snprintf(why, len, "cannot map the user namespace's ids (%s)",
		 strerror(errno));
	return -1;
}

static int enter_ns(char *why, size_t len)
{
	if (entered)
		return 0;
	if (getenv("DBENCH_NG_NO_MOUNTNS")) { /* tests: as if none could be */
		snprintf(why, len, "DBENCH_NG_NO_MOUNTNS is set");
		return -1;
	}
	if (unshare(CLONE_NEWNS)) {
		if (errno != EPERM) {
			snprintf(why, len, "unshare(CLONE_NEWNS): %s",
				 strerror(errno));
			return -1;
		}
		if (enter_userns(why, len))
			return -1;
	}
	entered = true;
	/* nothing mounted here propagates out (a user namespace's are
	 * slaves already) */
	if (mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL)) {
		snprintf(why, len, "cannot make the mounts private: %s",
			 strerror(errno));
		return -1;
	}
	return 0;
}

/* Bind DIR onto itself, nosymfollow, every mount below it too (DIR/clients
 * may be a mount of its own).  0, or -1 with @why. */
static int bind_dir(const char *dir, char *why, size_t len)
{
	struct mount_attr attr = {.attr_set = MOUNT_ATTR_NOSYMFOLLOW};
	struct statvfs sv;
	unsigned long keep = 0;

	if (mount(dir, dir, NULL, MS_BIND | MS_REC, NULL)) {
		snprintf(why, len, "cannot bind-mount it: %s", strerror(errno));
		return -1;
	}
	if (!syscall(SYS_mount_setattr, AT_FDCWD, dir, AT_RECURSIVE, &attr,
		     sizeof(attr)))
		return 0;
	if (errno != ENOSYS) {
		snprintf(why, len, "mount_setattr(nosymfollow): %s",
			 strerror(errno));
		return -1;
	}
	/* Linux 5.10 and 5.11: a remount of DIR's bind, keeping the flags
	 * a user namespace may not clear (ST_* and MS_* share their values
	 * but for relatime); a DIR/clients mounted on its own stays as it
	 * is (reopen() refuses it) */
	if (!statvfs(dir, &sv))
		keep = (sv.f_flag & (ST_RDONLY | ST_NOSUID | ST_NODEV |
				     ST_NOEXEC | ST_NOATIME | ST_NODIRATIME)) |
		       (sv.f_flag & ST_RELATIME ? MS_RELATIME : 0);
	if (mount(NULL, dir, NULL, MS_REMOUNT | MS_BIND | MS_NOSYMFOLLOW | keep,
		  NULL)) {
		snprintf(why, len, "cannot remount it nosymfollow: %s",
			 strerror(errno));
		return -1;
	}
	return 0;
}

/* Open @name in @dfd again, through the new mount: it must be the
 * directory of *@fd, and nosymfollow.  The new fd replaces *@fd. */
static int reopen(int dfd, const char *name, int flags, int *old, char *why,
		  size_t len)
{
	struct stat a, b;
	int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | flags);

	if (fd < 0 || fstat(fd, &a) || fstat(*old, &b) ||
	    a.st_dev != b.st_dev || a.st_ino != b.st_ino) {
		snprintf(why, len, "%s is not the directory that was bound",
			 name);
		goto fail;
	}
	if (!nosymfollow(fd)) { /* Linux 5.10, 5.11: a mount of its own */
		snprintf(why, len, "%s is not nosymfollow (a mount of its "
			 "own?)", name);
		goto fail;
	}
	close(*old);
	*old = fd;
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	return -1;
}

/* DIR (@real) and DIR/clients through the new mount */
static int reopen_both(const char *real, char *why, size_t len)
{
	return reopen(AT_FDCWD, real, 0, &fileio_g.base_fd, why, len) ||
	       reopen(fileio_g.base_fd, "clients", O_NOFOLLOW,
		      &fileio_g.clients_fd, why, len);
}

/* Not protected, for @why: refused, or said once and allowed */
static int unprotected(const struct be_run *run, const char *why, char *err,
		       size_t errlen)
{
	static bool said;

	if (!(run->req & BE_ALLOW_SYMLINK_RACES)) {
		snprintf(err, errlen,
			 "-D %s: --paths full (the default) names whole paths "
			 "and needs a mount namespace of its own, where DIR "
			 "is mounted nosymfollow, to keep a symlink planted "
			 "during the run from leading a call outside DIR; "
			 "none here: %s.  Run with --paths dirfd, or with "
			 "--allow-symlink-races if nothing else writes in DIR "
			 "during the run",
			 run->dir, why);
		return BE_EENV;
	}
	if (!said)
		fprintf(stderr,
			"dbench-ng: --allow-symlink-races: no mount namespace "
			"(%s): a symlink planted in %s/clients during the run "
			"could lead a call outside it\n",
			why, run->dir);
	said = true;
	return 0;
}

int mountns_protect(const struct be_run *run, char *err, size_t errlen)
{
	bool entered_before = entered;
	char why[600], *real;
	int rc;

	if (nosymfollow(fileio_g.base_fd) && nosymfollow(fileio_g.clients_fd))
		return 0; /* mounted so, or bound by the run before */
	/* DIR by its whole path: a walk that starts in DIR ("-D .", the
	 * working directory) stays on the mount below; one that enters DIR
	 * crosses into the new one */
	real = realpath(run->dir, NULL);
	if (!real) {
		snprintf(why, sizeof(why), "realpath: %s", strerror(errno));
		return unprotected(run, why, err, errlen);
	}
	/* in the namespace already (--runs with -D .): DIR is bound */
	rc = enter_ns(why, sizeof(why)) ||
	     ((!entered_before || reopen_both(real, why, sizeof(why))) &&
	      (bind_dir(real, why, sizeof(why)) ||
	       reopen_both(real, why, sizeof(why))));
	free(real);
	return rc ? unprotected(run, why, err, errlen) : 0;
}
