/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fileio.c - the local filesystem backend, with dbench 4.0's semantics
 * (dbench-compat.md §2): NTCreateX dispositions, name resolution with a
 * case-insensitive scan on a miss, -s/-S/-F/-x, --stat-check,
 * --one-byte-write-fix.
 *
 * Every path is DIR/clients/<dir>/<base>.  A client keeps an fd for each
 * directory of the program, opened beneath DIR/clients with openat2
 * (RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS), or on old kernels one component
 * at a time with O_NOFOLLOW, and runs every call on <base> relative to
 * it with O_NOFOLLOW / AT_SYMLINK_NOFOLLOW.  So neither "..", nor an
 * absolute path, nor a symlink planted in the tree can lead a call outside
 * DIR/clients, and the kernel walks one component per call instead of the
 * whole path, which is where dbench spends much of its time.
 */
#include <stddef.h>

#include "fileio.h"

struct fio_global fio_g = {
	.base_fd = -1,
	.clients_fd = -1,
};

static const struct be_option fio_options[] = {
	{
		.name = "no-openat2",
		.type = BE_OPT_FLAG,
		.offset = offsetof(struct fio_opts, no_openat2),
		.help = "no openat2: one component at a time (Linux < 5.6)",
	},
	{.name = NULL},
};

const struct backend backend_fileio = {
	.api = BACKEND_API_VERSION,
	.name = "fileio",
	.summary = "the local filesystem",
	.version = 1,
	.caps = BE_CAN_ALL | BE_USES_DIR,
	.options = fio_options,
	.opts_size = sizeof(struct fio_opts),
	.init = fio_init,
	.setup = fio_setup,
	.release = fio_release,
	.cleanup = fio_cleanup,
	.fini = fio_fini,
	.op =
		{
			[OP_NTCREATEX] = fio_ntcreatex,
			[OP_CLOSE] = fio_close,
			[OP_RENAME] = fio_rename,
			[OP_UNLINK] = fio_unlink,
			[OP_DELTREE] = fio_deltree,
			[OP_RMDIR] = fio_rmdir,
			[OP_MKDIR] = fio_mkdir,
			[OP_QPATHINFO] = fio_qpathinfo,
			[OP_QFILEINFO] = fio_qfileinfo,
			[OP_QFSINFO] = fio_qfsinfo,
			[OP_SFILEINFO] = fio_sfileinfo,
			[OP_FIND] = fio_find,
			[OP_WRITEX] = fio_writex,
			[OP_READX] = fio_readx,
			[OP_LOCKX] = fio_lockx,
			[OP_UNLOCKX] = fio_unlockx,
			[OP_FLUSH] = fio_flush,
		},
};
