/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_env.c - the environment capture: mountinfo parsing and mount choice
 * on the sample files of tests/data/mountinfo (escapes, optional fields,
 * path-component prefixes, over-mounts, the st_dev cross-check, malformed
 * lines), the cpuinfo / meminfo readers, env_capture() and env_free().
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "env.h"
#include "env_test.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------- helpers ------------------------------- */

/* tests/data/mountinfo/@name, from the source tree root (where make check
 * runs) or else next to the binary (build/tests/test_env); an absolute
 * @name as is */
static const char *data(const char *name)
{
	static char path[PATH_MAX + 64];
	char exe[PATH_MAX], *slash;
	ssize_t n;

	if (name[0] == '/')
		return name;
	snprintf(path, sizeof(path), "tests/data/mountinfo/%s", name);
	if (!access(path, R_OK))
		return path;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
		snprintf(path, sizeof(path), "%s/../../tests/data/mountinfo/%s",
			 exe, name);
	}
	return path;
}

/* write @text to a new temporary file; its path (unlink it) */
static char *tmp_file(const char *text)
{
	static char path[64];
	size_t len = strlen(text);
	int fd;

	strcpy(path, "/tmp/test_env.XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
	return path;
}

/* the mount holding @path in sample @file: must be found */
static void lookup(const char *file, const char *path, const dev_t *dev,
		   struct env_mount *m)
{
	int ret = env_mount_lookup_dev(data(file), path, dev, m);

	if (ret)
		fail_msg("%s: %s: %s", file, path, strerror(-ret));
}

/* lookup() and check the mount point, type and source */
static void expect(const char *file, const char *path, const char *mp,
		   const char *type, const char *source)
{
	struct env_mount m;

	lookup(file, path, NULL, &m);
	if (strcmp(m.mount_point, mp) || strcmp(m.fs_type, type) ||
	    strcmp(m.source, source))
		fail_msg("%s: %s is on %s (%s %s), expected %s (%s %s)", file,
			 path, m.mount_point, m.fs_type, m.source, mp, type,
			 source);
	env_mount_free(&m);
}

/* ------------------------------ mountinfo ------------------------------ */

static void test_mount_fields(void **state)
{
	struct env_mount m;

	(void)state;
	/* optional fields "shared:1 master:2" before the separator */
	lookup("desktop.mountinfo", "/mnt/test", NULL, &m);
	assert_int_equal(m.major, 8);
	assert_int_equal(m.minor, 17);
	assert_string_equal(m.root, "/");
	assert_string_equal(m.mount_point, "/mnt/test");
	assert_string_equal(m.fs_type, "ext4");
	assert_string_equal(m.source, "/dev/sdb1");
	assert_string_equal(m.options, "rw,noatime");
	assert_string_equal(m.super_options, "rw,stripe=256");
	env_mount_free(&m);
	assert_null(m.mount_point);
	env_mount_free(&m); /* twice is harmless */

	/* four optional fields, one without a colon */
	lookup("desktop.mountinfo", "/mnt/test/deeper/x", NULL, &m);
	assert_string_equal(m.source, "/dev/sdb2");
	assert_string_equal(m.options, "rw,relatime");
	assert_string_equal(m.super_options, "rw");
	env_mount_free(&m);

	/* btrfs subvolume: ROOT is the subvolume, same MAJ:MIN as the
	 * top-level mount of the same filesystem */
	lookup("desktop.mountinfo", "/home/user/src", NULL, &m);
	assert_string_equal(m.root, "/@home");
	assert_string_equal(m.mount_point, "/home");
	assert_string_equal(m.fs_type, "btrfs");
	assert_int_equal(m.major, 0);
	assert_int_equal(m.minor, 42);
	assert_string_equal(m.super_options,
			    "rw,space_cache=v2,subvolid=257,subvol=/@home");
	env_mount_free(&m);

	/* bind mount of a subdirectory */
	lookup("desktop.mountinfo", "/mnt/bind", NULL, &m);
	assert_string_equal(m.root, "/var/lib/export");
	assert_string_equal(m.source, "/dev/nvme0n1p2");
	env_mount_free(&m);

	/* no optional field at all, a dotted type */
	lookup("desktop.mountinfo", "/mnt/sshfs/a", NULL, &m);
	assert_string_equal(m.fs_type, "fuse.sshfs");
	assert_string_equal(m.source, "user@host:/srv");
	assert_string_equal(m.options, "rw,nosuid,nodev,relatime");
	env_mount_free(&m);
}

static void test_mount_choice(void **state)
{
	const char *f = "desktop.mountinfo";

	(void)state;
	expect(f, "/", "/", "ext4", "/dev/nvme0n1p2");
	expect(f, "/usr/lib", "/", "ext4", "/dev/nvme0n1p2");
	expect(f, "/proc", "/proc", "proc", "proc");
	expect(f, "/proc/self/fd", "/proc", "proc", "proc");
	expect(f, "/proc/sys/fs/binfmt_misc", "/proc/sys/fs/binfmt_misc",
	       "autofs", "systemd-1");
	expect(f, "/sys", "/sys", "sysfs", "sysfs");
	expect(f, "/sys/fs/cgroup/user.slice", "/sys/fs/cgroup", "cgroup2",
	       "cgroup2");
	expect(f, "/tmp", "/tmp", "tmpfs", "tmpfs");
	expect(f, "/tmp/dbench/clients", "/tmp", "tmpfs", "tmpfs");
	expect(f, "/tmpx", "/", "ext4", "/dev/nvme0n1p2");
	expect(f, "/dev/shm/x", "/dev/shm", "tmpfs", "tmpfs");
	expect(f, "/dev/shmx", "/dev", "devtmpfs", "udev");
	expect(f, "/mnt/test/clients/client1", "/mnt/test", "ext4",
	       "/dev/sdb1");
	expect(f, "/mnt/test/deeperx", "/mnt/test", "ext4", "/dev/sdb1");
	/* path components, not string prefixes */
	expect(f, "/mnt/a", "/mnt/a", "xfs", "/dev/sdc1");
	expect(f, "/mnt/a/b", "/mnt/a", "xfs", "/dev/sdc1");
	expect(f, "/mnt/ab", "/mnt/ab", "xfs", "/dev/sdc2");
	expect(f, "/mnt/ab/c", "/mnt/ab", "xfs", "/dev/sdc2");
	expect(f, "/mnt/abc", "/", "ext4", "/dev/nvme0n1p2");
	expect(f, "/mnt", "/", "ext4", "/dev/nvme0n1p2");
	/* escapes: \040 in a mount point and a source, \011 \134 \012 */
	expect(f, "/mnt/my disk", "/mnt/my disk", "tmpfs", "my tmpfs");
	expect(f, "/mnt/my disk/d e", "/mnt/my disk", "tmpfs", "my tmpfs");
	expect(f, "/mnt/my", "/", "ext4", "/dev/nvme0n1p2");
	expect(f, "/mnt/my\\040disk", "/", "ext4", "/dev/nvme0n1p2");
	expect(f, "/mnt/tab\tand\\back\nnl/x", "/mnt/tab\tand\\back\nnl",
	       "tmpfs", "odd");
	/* an over-mount: the later line is on top */
	expect(f, "/mnt/over", "/mnt/over", "tmpfs", "over");
	expect(f, "/mnt/over/x/y", "/mnt/over", "tmpfs", "over");
}

static void test_mount_overmount(void **state)
{
	const char *f = "overmount.mountinfo";
	struct env_mount m;
	dev_t dev;

	(void)state;
	/* by path alone: the last of the three on /data */
	expect(f, "/data", "/data", "tmpfs", "second");
	expect(f, "/data/x", "/data", "tmpfs", "second");
	expect(f, "/data/hidden/x", "/data/hidden", "xfs", "/dev/sda3");

	/* st_dev agrees with the choice by path */
	dev = makedev(0, 51);
	lookup(f, "/data/x", &dev, &m);
	assert_string_equal(m.source, "second");
	assert_string_equal(m.super_options, "rw,size=2048k");
	env_mount_free(&m);
	/* st_dev says the one listed earlier is on top (a tucked mount) */
	dev = makedev(0, 50);
	lookup(f, "/data/x", &dev, &m);
	assert_string_equal(m.source, "first");
	env_mount_free(&m);
	dev = makedev(8, 2);
	lookup(f, "/data", &dev, &m);
	assert_string_equal(m.source, "/dev/sda2");
	env_mount_free(&m);
	/* /data was covered after /data/hidden was mounted: st_dev shows
	 * that /data/hidden is now a directory of the top /data */
	dev = makedev(0, 51);
	lookup(f, "/data/hidden/x", &dev, &m);
	assert_string_equal(m.source, "second");
	assert_string_equal(m.mount_point, "/data");
	env_mount_free(&m);
	dev = makedev(8, 3);
	lookup(f, "/data/hidden/x", &dev, &m);
	assert_string_equal(m.source, "/dev/sda3");
	env_mount_free(&m);
	/* an st_dev in no MAJ:MIN field (a btrfs subvolume): by path */
	dev = makedev(0, 99);
	lookup(f, "/data/x", &dev, &m);
	assert_string_equal(m.source, "second");
	env_mount_free(&m);
	/* a device that matches only a shallower mount which does not hold
	 * the path is not taken: it must hold the path */
	dev = makedev(8, 3);
	lookup(f, "/data/x", &dev, &m);
	assert_string_equal(m.source, "second");
	env_mount_free(&m);
	dev = makedev(8, 1);
	lookup(f, "/etc", &dev, &m);
	assert_string_equal(m.source, "/dev/sda1");
	env_mount_free(&m);
}

static void test_mount_malformed(void **state)
{
	const char *f = "malformed.mountinfo";
	struct env_mount m;

	(void)state;
	/* every broken line claims /mnt/bad: none may be chosen */
	expect(f, "/mnt/bad", "/", "ext4", "/dev/root");
	expect(f, "/mnt/bad/x", "/", "ext4", "/dev/root");
	expect(f, "/mnt/good/x", "/mnt/good", "ext4", "/dev/good");

	/* an empty source shows as two spaces */
	lookup(f, "/mnt/nosource", NULL, &m);
	assert_string_equal(m.fs_type, "tmpfs");
	assert_string_equal(m.source, "");
	assert_string_equal(m.super_options, "rw,size=4k");
	env_mount_free(&m);
	/* no superblock options: NULL */
	lookup(f, "/mnt/nosuper", NULL, &m);
	assert_string_equal(m.source, "none");
	assert_null(m.super_options);
	env_mount_free(&m);
	/* a field after the superblock options is ignored */
	lookup(f, "/mnt/extra", NULL, &m);
	assert_string_equal(m.super_options, "rw");
	env_mount_free(&m);
	/* incomplete and NUL escapes are kept literally */
	expect(f, "/mnt/trunc\\04", "/mnt/trunc\\04", "tmpfs", "trunc");
	expect(f, "/mnt/nul\\000x", "/mnt/nul\\000x", "tmpfs", "nul");
}

static void test_mount_errors(void **state)
{
	struct env_mount m;
	char *big, *path;
	size_t n = 200000;
	FILE *f;

	(void)state;
	assert_int_equal(env_mount_lookup(data("no-such.mountinfo"), "/", &m),
			 -ENOENT);
	assert_null(m.mount_point);
	assert_int_equal(env_mount_lookup("/", "/", &m), -EISDIR);
	/* nothing matches */
	assert_int_equal(env_mount_lookup("/dev/null", "/", &m), -ENOENT);
	assert_int_equal(env_mount_lookup(data("desktop.mountinfo"), "mnt", &m),
			 -ENOENT);
	assert_int_equal(env_mount_lookup(data("desktop.mountinfo"), "", &m),
			 -ENOENT);
	assert_int_equal(
		env_mount_lookup(data("overmount.mountinfo"), "rel", &m),
		-ENOENT);

	/* a very long line, and a last line without a newline */
	path = tmp_file("");
	f = fopen(path, "w");
	assert_non_null(f);
	big = malloc(n + 1);
	assert_non_null(big);
	memset(big, 'o', n);
	big[n] = '\0';
	fprintf(f, "1 0 8:1 / / rw - ext4 /dev/root rw,%s\n", big);
	fprintf(f, "2 1 8:2 / /%s rw - ext4 /dev/long rw\n", big);
	fprintf(f, "3 1 8:3 / /last rw - ext4 /dev/last rw");
	fclose(f);
	lookup(path, "/x", NULL, &m);
	assert_string_equal(m.source, "/dev/root");
	assert_int_equal(strlen(m.super_options), n + 3);
	env_mount_free(&m);
	big[1000] = '\0';
	big[0] = '/';
	lookup(path, big, NULL, &m);
	assert_string_equal(m.source, "/dev/root");
	env_mount_free(&m);
	lookup(path, "/last/x", NULL, &m);
	assert_string_equal(m.source, "/dev/last");
	assert_string_equal(m.super_options, "rw");
	env_mount_free(&m);
	unlink(path);
	free(big);
}

/* the live table: "/" is always mounted */
static void test_mount_live(void **state)
{
	struct env_mount m;
	struct stat st;

	(void)state;
	assert_int_equal(env_mount_lookup("/proc/self/mountinfo", "/", &m), 0);
	assert_string_equal(m.mount_point, "/");
	assert_non_null(m.fs_type);
	env_mount_free(&m);
	assert_int_equal(stat("/proc", &st), 0);
	assert_int_equal(env_mount_lookup_dev("/proc/self/mountinfo",
					      "/proc/self", &st.st_dev, &m),
			 0);
	assert_string_equal(m.mount_point, "/proc");
	assert_string_equal(m.fs_type, "proc");
	assert_int_equal(makedev(m.major, m.minor), st.st_dev);
	env_mount_free(&m);
}

/* ---------------------------- cpuinfo, meminfo ------------------------- */

static void test_cpu_model(void **state)
{
	static const struct {
		const char *text, *want;
	} v[] = {
		/* x86: "processor" is a number and "cpu MHz" is not "cpu" */
		{"processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n"
		 "model\t\t: 85\nmodel name\t: Intel(R) Xeon(R) Gold 6148 CPU "
		 "@ 2.40GHz  \ncpu MHz\t\t: 2400.000\n\nprocessor\t: 1\n"
		 "model name\t: second\n",
		 "Intel(R) Xeon(R) Gold 6148 CPU @ 2.40GHz"},
		{"processor\t: 0\ncpu MHz\t\t: 2400.000\ncpu cores\t: 4\n",
		 NULL},
		/* 32-bit ARM: Hardware preferred to Processor */
		{"Processor\t: ARMv7 Processor rev 4 (v7l)\nprocessor\t: 0\n"
		 "BogoMIPS\t: 38.40\n\nHardware\t: BCM2835\nRevision\t: "
		 "a02082\n",
		 "BCM2835"},
		{"Processor\t: ARMv6-compatible processor rev 7 (v6l)\n",
		 "ARMv6-compatible processor rev 7 (v6l)"},
		/* arm64 without any name */
		{"processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd\n"
		 "CPU implementer\t: 0x41\n",
		 NULL},
		/* MIPS */
		{"system type\t\t: MediaTek MT7621 ver:1 eco:3\n"
		 "processor\t\t: 0\ncpu model\t\t: MIPS 1004Kc V2.15\n",
		 "MIPS 1004Kc V2.15"},
		/* POWER */
		{"processor\t: 0\ncpu\t\t: POWER9 (architected), altivec "
		 "supported\nclock\t\t: 2750.000000MHz\n",
		 "POWER9 (architected), altivec supported"},
		/* model name wins, even last; empty values are skipped */
		{"cpu\t: x\nmodel name\t:\nHardware: h\nmodel name: m\r\n",
		 "m"},
		{"", NULL},
		{"no colon here\n:\n", NULL},
	};
	char *path, *got;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(v); i++) {
		path = tmp_file(v[i].text);
		got = env_cpu_model(path);
		unlink(path);
		if (!v[i].want && got)
			fail_msg("case %zu: got \"%s\", expected none", i, got);
		if (v[i].want && (!got || strcmp(got, v[i].want)))
			fail_msg("case %zu: got \"%s\", expected \"%s\"", i,
				 got ? got : "(null)", v[i].want);
		free(got);
	}
	assert_null(env_cpu_model("/nonexistent/cpuinfo"));
}

static void test_mem_total(void **state)
{
	char *path;

	(void)state;
	path = tmp_file("MemTotal:       24684096 kB\nMemFree:  1 kB\n");
	assert_int_equal(env_mem_total(path), 24684096ULL * 1024);
	unlink(path);
	path = tmp_file("MemFree:  1 kB\nMemTotal: 1 kB\n");
	assert_int_equal(env_mem_total(path), 1024);
	unlink(path);
	path = tmp_file("MemFree:  1 kB\n");
	assert_int_equal(env_mem_total(path), 0);
	unlink(path);
	assert_int_equal(env_mem_total("/nonexistent/meminfo"), 0);
	assert_true(env_mem_total("/proc/meminfo") > 0);
}

/* -------------------------- env_capture, env_free ---------------------- */

static void test_capture_root(void **state)
{
	struct result_env env;
	struct utsname u;
	char err[256] = "";

	(void)state;
	memset(&env, 0, sizeof(env));
	assert_int_equal(env_capture(&env, "/", err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_int_equal(uname(&u), 0);
	assert_string_equal(env.hostname, u.nodename);
	assert_string_equal(env.kernel, u.release);
	assert_string_equal(env.kernel_version, u.version);
	assert_string_equal(env.machine, u.machine);
	assert_int_equal(env.cpus, sysconf(_SC_NPROCESSORS_ONLN));
	assert_true(env.mem_bytes > 0);
	assert_string_equal(env.dir, "/");
	assert_string_equal(env.dir_real, "/");
	assert_string_equal(env.fs_mount_point, "/");
	assert_non_null(env.fs_type);
	assert_non_null(env.fs_device);
	assert_non_null(env.fs_options);
	assert_true(env.fs_size_bytes > 0);
	assert_true(env.fs_free_bytes <= env.fs_size_bytes);
	/* the loadfile fields are someone else's */
	assert_int_equal(env.nloadfiles, 0);
	assert_null(env.loadfile_name);
	assert_null(env.loadfile_sha256);
	env_free(&env);
	assert_null(env.hostname);
	assert_null(env.fs_options);
	env_free(&env);
}

static void test_capture_paths(void **state)
{
	char tmpl[] = "/tmp/test_env.XXXXXX", link[64], sub[64], cwd[PATH_MAX];
	struct result_env env, zero;
	struct env_mount m;
	char err[256];
	char *d;

	(void)state;
	d = mkdtemp(tmpl);
	assert_non_null(d);
	snprintf(sub, sizeof(sub), "%s/sub dir", d);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(link, sizeof(link), "%s/link", d);
	assert_int_equal(symlink("sub dir/../sub dir", link), 0);

	/* through a symlink: dir as given, dir_real resolved */
	memset(&env, 0, sizeof(env));
	assert_int_equal(env_capture(&env, link, err, sizeof(err)), 0);
	assert_string_equal(env.dir, link);
	assert_string_equal(env.dir_real, sub);
	/* the same mount as a lookup of the directory finds */
	assert_int_equal(env_mount_lookup("/proc/self/mountinfo", sub, &m), 0);
	assert_string_equal(env.fs_mount_point, m.mount_point);
	assert_string_equal(env.fs_type, m.fs_type);
	assert_string_equal(env.fs_device, m.source);
	assert_non_null(strstr(env.fs_options, m.options));
	assert_non_null(strstr(env.fs_options, " | "));
	env_mount_free(&m);
	env_free(&env);

	/* relative */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	memset(&env, 0, sizeof(env));
	assert_int_equal(env_capture(&env, ".", err, sizeof(err)), 0);
	assert_string_equal(env.dir, ".");
	assert_string_equal(env.dir_real, cwd);
	env_free(&env);

	/* unresolvable: -1, a message, nothing filled */
	memset(&env, 0, sizeof(env));
	memset(&zero, 0, sizeof(zero));
	snprintf(sub, sizeof(sub), "%s/missing/x", d);
	assert_int_equal(env_capture(&env, sub, err, sizeof(err)), -1);
	assert_non_null(strstr(err, sub));
	assert_non_null(strstr(err, "No such file or directory"));
	assert_memory_equal(&env, &zero, sizeof(env));
	assert_int_equal(
		env_capture(&env, "/nonexistent-dbng-dir", err, sizeof(err)),
		-1);
	assert_string_equal(err, "/nonexistent-dbng-dir: No such file or "
				 "directory");
	/* a dangling symlink is not a directory either; no buffer is fine */
	assert_int_equal(unlink(link), 0);
	assert_int_equal(symlink("nowhere", link), 0);
	assert_int_equal(env_capture(&env, link, NULL, 0), -1);
	assert_memory_equal(&env, &zero, sizeof(env));

	unlink(link);
	snprintf(sub, sizeof(sub), "%s/sub dir", d);
	rmdir(sub);
	rmdir(d);
}

static void test_free_loadfiles(void **state)
{
	struct result_env env;

	(void)state;
	memset(&env, 0, sizeof(env));
	assert_int_equal(env_capture(&env, "/tmp", NULL, 0), 0);
	env.nloadfiles = 2;
	env.loadfile_name = calloc(2, sizeof(char *));
	env.loadfile_sha256 = calloc(2, sizeof(char *));
	assert_non_null(env.loadfile_name);
	assert_non_null(env.loadfile_sha256);
	env.loadfile_name[0] = strdup("a.load");
	env.loadfile_name[1] = strdup("builtin:netbench");
	env.loadfile_sha256[0] = strdup("00");
	/* [1] left NULL: a digest that could not be computed */
	env_free(&env); /* valgrind: nothing leaks */
	assert_int_equal(env.nloadfiles, 0);
	assert_null(env.loadfile_name);

	/* a count without arrays */
	env.nloadfiles = 3;
	env_free(&env);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mount_fields),
		cmocka_unit_test(test_mount_choice),
		cmocka_unit_test(test_mount_overmount),
		cmocka_unit_test(test_mount_malformed),
		cmocka_unit_test(test_mount_errors),
		cmocka_unit_test(test_mount_live),
		cmocka_unit_test(test_cpu_model),
		cmocka_unit_test(test_mem_total),
		cmocka_unit_test(test_capture_root),
		cmocka_unit_test(test_capture_paths),
		cmocka_unit_test(test_free_loadfiles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
