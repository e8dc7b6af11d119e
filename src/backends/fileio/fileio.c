/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fileio.c - the local filesystem backend, with dbench 4.0's semantics
 * (docs/compat.md): NTCreateX dispositions, name resolution with a
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
 * --paths dirfd (ops_dirfd.c, dirs.c): a client keeps an fd
 * for each directory of the program, opened beneath DIR/clients with
 * openat2 (RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS), or on old kernels one
 * component at a time with O_NOFOLLOW, and runs every call on <base>
 * relative to it with O_NOFOLLOW / AT_SYMLINK_NOFOLLOW: the kernel walks
 * one component per call, a lighter load than dbench's.
 *
 * In both, neither "..", nor an absolute path, nor a symlink planted in
 * the tree before the run can lead a call outside DIR/clients.  Each mode
 * is a table of ops below, the ops on a handle (ops_handle.c) in both;
 * init gives the run its mode's.
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

/* The ops of a mode (full or dirfd: its NTCreateX, Sfileinfo and path
 * ops) and the handle ops both share, as fio's variants of an engine
 * share its generic functions */
/* clang-format off */
#define FILEIO_OPS(mode)                                \
	{                                               \
		[OP_NTCREATEX] = mode##_ntcreatex,      \
		[OP_CLOSE] = fileio_close,              \
		[OP_RENAME] = mode##_rename,            \
		[OP_UNLINK] = mode##_unlink,            \
		[OP_DELTREE] = mode##_deltree,          \
		[OP_RMDIR] = mode##_rmdir,              \
		[OP_MKDIR] = mode##_mkdir,              \
		[OP_QPATHINFO] = mode##_qpathinfo,      \
		[OP_QFILEINFO] = fileio_qfileinfo,      \
		[OP_QFSINFO] = mode##_qfsinfo,          \
		[OP_SFILEINFO] = mode##_sfileinfo,      \
		[OP_FIND] = mode##_find,                \
		[OP_WRITEX] = fileio_writex,            \
		[OP_READX] = fileio_readx,              \
		[OP_LOCKX] = fileio_lockx,              \
		[OP_UNLOCKX] = fileio_unlockx,          \
		[OP_FLUSH] = fileio_flush,              \
	}
/* clang-format on */

const be_op_fn fileio_ops_full[OP_NR] = FILEIO_OPS(full);
const be_op_fn fileio_ops_dirfd[OP_NR] = FILEIO_OPS(dirfd);

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
	/* what the registry checks a run against: the default mode's
	 * table; init gives the run its mode's (the same ops) */
	.op = FILEIO_OPS(full),
};
