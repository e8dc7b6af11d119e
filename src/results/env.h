/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * env.h - where a run happens: the host (uname, CPU, memory) and the
 * filesystem holding the -D directory (type, device, mount point, options,
 * size), recorded in struct result_env so that results can be compared
 * knowing what they were measured on.  Linux /proc interfaces only.
 */
#ifndef DBNG_ENV_H
#define DBNG_ENV_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "result.h"

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
 * env_capture - fill the host and filesystem fields of @env for directory
 * @dir: everything but the loadfile fields, which are left alone.  The
 * filled fields must be NULL / 0 beforehand (as after result_new()).
 *
 * Strings are heap copies owned by @env (free them with env_free()).
 * Information that cannot be had is left NULL / 0: that is not an error.
 * fs_options is "PER-MOUNT | SUPER", the two option fields of mountinfo
 * (e.g. "rw,relatime | rw,size=1048576k"), or PER-MOUNT alone when the
 * superblock options are absent.  fs_size_bytes and fs_free_bytes are
 * statvfs f_blocks and f_bavail (what an unprivileged user may fill)
 * times f_frsize, as df shows them.
 *
 * Returns 0, or -1 with a message in @err when @dir cannot be resolved
 * (realpath fails); then @env is not modified.
 */
int env_capture(struct result_env *env, const char *dir, char *err,
		size_t errlen);

/*
 * env_free - free every string @env owns, the loadfile_name[] and
 * loadfile_sha256[] arrays (nloadfiles entries each) included, and zero
 * it.  Safe on a zeroed or already freed @env.
 */
void env_free(struct result_env *env);

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
