/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * env_test.h - the parts of env.c that only env.c itself and the tests
 * (tests/unit/test_env.c, tests/cli/envprobe.c) call: the mountinfo
 * lookup and the /proc/cpuinfo and /proc/meminfo readers, on any file.
 */
#ifndef DBNG_ENV_TEST_H
#define DBNG_ENV_TEST_H

#include <stdint.h>
#include <sys/types.h>

#include "env.h"

/* One line of /proc/self/mountinfo (proc(5)), escapes decoded. */
struct env_mount {
	unsigned int major, minor; /* MAJ:MIN: st_dev of the mount's root */
	char *root;		   /* the directory of the fs mounted there */
	char *mount_point;
	char *fs_type;	     /* "ext4", "fuse.sshfs", ... */
	char *source;	     /* the mount source: device, "tmpfs" ... */
	char *options;	     /* per-mount options: "rw,relatime" */
	char *super_options; /* superblock options (NULL if absent) */
};

/*
 * env_mount_lookup - find, in the mountinfo file @mountinfo_path, the
 * mount that holds the absolute, symlink-free path @real_path: the one
 * whose mount point is the longest path-component prefix of it ("/mnt/a"
 * holds "/mnt/a" and "/mnt/a/x", not "/mnt/ab").  Of several mounts on
 * the same mount point (over-mounts), the last one listed wins.  Malformed
 * lines are skipped.  The strings of @out are heap copies; release them
 * with env_mount_free().
 *
 * Returns 0, -ENOENT when no mount matches (or the file does not exist),
 * another -errno when the file cannot be read, -ENOMEM.
 */
int env_mount_lookup(const char *mountinfo_path, const char *real_path,
		     struct env_mount *out);

/*
 * env_mount_lookup_dev - env_mount_lookup() cross-checked with @dev, the
 * st_dev of @real_path (NULL: no check).  When the mount chosen by path
 * does not carry @dev in its MAJ:MIN field, the deepest mount that holds
 * @real_path and does carry it is taken instead, if there is one: this
 * finds the mount actually on top when an over-mount is listed before the
 * mount it covers (propagation can do that), or when a parent directory
 * was over-mounted after @real_path's own mount (which is then hidden).
 * A btrfs subvolume has an st_dev of its own, found in no MAJ:MIN field:
 * then the choice by path stands.
 */
int env_mount_lookup_dev(const char *mountinfo_path, const char *real_path,
			 const dev_t *dev, struct env_mount *out);

/* env_mount_free - free the strings of @m and zero it. */
void env_mount_free(struct env_mount *m);

/*
 * env_cpu_model - the processor name from a /proc/cpuinfo format file:
 * the first "model name" line (x86, and most others), else the first
 * "Hardware", "cpu model" (MIPS), "Processor" (older ARM) or "cpu"
 * (POWER) line, in that order of preference.  A heap string, or NULL.
 */
char *env_cpu_model(const char *cpuinfo_path);

/* env_mem_total - MemTotal of a /proc/meminfo format file, in bytes;
 * 0 when unknown. */
uint64_t env_mem_total(const char *meminfo_path);

#endif
