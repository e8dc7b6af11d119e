/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fileio.c - the local filesystem backend, with dbench 4.0's semantics
 * (dbench-compat.md §2): NTCreateX dispositions, name resolution with a
 * case-insensitive scan on a miss, -s/-S/-F/-x, --stat-check,
 * --one-byte-write-fix.
 *
 * Every path is DIR/clients/<dir>/<base>.  Two ways to name it:
 *
 * --paths full (the default, ops_full.c): as dbench 4.0, every call names
 * the whole path, "clients/client0/dir/file" from DIR (the clients' working
 * directory), so the kernel walks every component on every call; opens
 * are openat2 RESOLVE_NO_SYMLINKS (no path has ".."), and the start-up
 * check of setup.c refuses a tree in which someone else could plant a
 * symlink for the other calls to follow.
 *
 * --paths dirfd (ops_path.c, ops_handle.c, dirs.c): a client keeps an fd
 * for each directory of the program, opened beneath DIR/clients with
 * openat2 (RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS), or on old kernels one
 * component at a time with O_NOFOLLOW, and runs every call on <base>
 * relative to it with O_NOFOLLOW / AT_SYMLINK_NOFOLLOW: the kernel walks
 * one component per call, a lighter load than dbench's.
 *
 * In both, neither "..", nor an absolute path, nor a symlink planted in
 * the tree before the run can lead a call outside DIR/clients.
 */
#include <stddef.h>

#include "fileio.h"

struct fileio_global fileio_g = {
	.base_fd = -1,
	.clients_fd = -1,
};

static const struct be_option fileio_options[] = {
	{
		.name = "no-openat2",
		.type = BE_OPT_FLAG,
		.offset = offsetof(struct fileio_opts, no_openat2),
		.help = "no openat2: one component at a time (Linux < 5.6)",
	},
	{.name = NULL},
};

const struct backend backend_fileio = {
	.api = BACKEND_API_VERSION,
	.name = "fileio",
	.summary = "the local filesystem",
	.version = 2, /* 2: --paths full, the default (1: dirfd only) */
	.caps = BE_CAN_ALL | BE_USES_DIR,
	.options = fileio_options,
	.opts_size = sizeof(struct fileio_opts),
	.init = fileio_init,
	.setup = fileio_setup,
	.release = fileio_release,
	.cleanup = fileio_cleanup,
	.fini = fileio_fini,
	.orphaned = fileio_orphaned,
	.op =
		{
			[OP_NTCREATEX] = fileio_ntcreatex,
			[OP_CLOSE] = fileio_close,
			[OP_RENAME] = fileio_rename,
			[OP_UNLINK] = fileio_unlink,
			[OP_DELTREE] = fileio_deltree,
			[OP_RMDIR] = fileio_rmdir,
			[OP_MKDIR] = fileio_mkdir,
			[OP_QPATHINFO] = fileio_qpathinfo,
			[OP_QFILEINFO] = fileio_qfileinfo,
			[OP_QFSINFO] = fileio_qfsinfo,
			[OP_SFILEINFO] = fileio_sfileinfo,
			[OP_FIND] = fileio_find,
			[OP_WRITEX] = fileio_writex,
			[OP_READX] = fileio_readx,
			[OP_LOCKX] = fileio_lockx,
			[OP_UNLOCKX] = fileio_unlockx,
			[OP_FLUSH] = fileio_flush,
		},
};
