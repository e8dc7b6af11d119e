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

#include "result.h"

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
 * (realpath fails); then @env is not modified.  A NULL @dir (a backend
 * that works on no directory, such as sockio) fills the host fields
 * alone.
 */
int env_capture(struct result_env *env, const char *dir, char *err,
		size_t errlen);

/*
 * env_free - free every string @env owns, the loadfile_name[] and
 * loadfile_sha256[] arrays (nloadfiles entries each) included, and zero
 * it.  Safe on a zeroed or already freed @env.
 */
/*
 * env_keep_mountinfo - remember this process's mounts as they are now:
 * env_capture() then describes -D's filesystem from them, as the user
 * sees it, also after the run moved into a mount namespace of its own
 * (docs/safety.md) whose bind of DIR would be found instead.  Once; a
 * failure leaves the current mounts read.
 */
void env_keep_mountinfo(void);

void env_free(struct result_env *env);

#endif
