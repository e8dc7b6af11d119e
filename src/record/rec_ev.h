/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * rec_ev.h - the event stream of a recording: one event per file-system
 * call of the traced tree (and its forks, execs and exits), the same for
 * both front ends (the BPF program through bpf_rec.c, strace logs through
 * strace.c); the writer (writer.c) turns it into loadfile lines.
 *
 * An event holds the call as the kernel saw it: descriptors as numbers,
 * paths as the program gave them (relative ones too); the writer resolves
 * them against its own copy of each process's descriptor table and
 * working directory.
 */
#ifndef DBNG_REC_EV_H
#define DBNG_REC_EV_H

#include <stdbool.h>
#include <stdint.h>

#define REC_AT_FDCWD (-100) /* AT_FDCWD */

/* clang-format off */
enum rec_kind {
	RK_NONE,
	RK_OPEN,	/* fd dirfd, path, a[0] flags, a[1] mode -> fd */
	RK_CLOSE,	/* fd */
	RK_READ,	/* fd, a[0] len, a[1] offset (-1: the position) -> bytes */
	RK_WRITE,	/* fd, a[0] len, a[1] offset (-1: the position) -> bytes */
	RK_LSEEK,	/* fd -> the new position */
	RK_FSYNC,	/* fd (fsync, fdatasync) */
	RK_DUP,		/* fd, a[0] newfd (-1: the lowest free), a[1] cloexec -> newfd */
	RK_SETFD,	/* fd, a[0] cloexec (fcntl F_SETFD) */
	RK_SETFL,	/* fd, a[0] status flags (fcntl F_SETFL) */
	RK_LOCK,	/* fd, a[0] enum rec_lock, a[1] start, a[2] len, a[3] whence */
	RK_RENAME,	/* fd dirfd, path, fd2 dirfd, path2, a[0] RENAME_* flags */
	RK_UNLINK,	/* fd dirfd, path */
	RK_RMDIR,	/* fd dirfd, path */
	RK_MKDIR,	/* fd dirfd, path */
	RK_STAT,	/* fd dirfd, path (NULL: the descriptor fd itself) */
	RK_GETDENTS,	/* fd -> bytes; a[0] entries (-1 unknown) */
	RK_STATFS,	/* fd dirfd, path (NULL: the descriptor fd itself) */
	RK_UTIMES,	/* fd dirfd, path (NULL: the descriptor fd itself) */
	RK_CHDIR,	/* fd dirfd, path (NULL: fchdir of fd) */
	RK_TRUNCATE,	/* fd dirfd, path (NULL: ftruncate of fd), a[0] length
			 * (-1: fallocate, the size is unknown) */
	RK_EXEC,	/* the task exec'd a new program */
	RK_FORK,	/* a[0] the new task, a[1] its process (0 unknown), a[2] REC_FORK_* */
	RK_EXIT,	/* the task ended; a[0] 1: the last of its process (0 unknown) */
	RK_INHERIT,	/* fd was open before the trace: path (absolute), a[0] flags, a[1] position */
	RK_CWD,		/* the working directory of the task's process is path */
	RK_OTHER,	/* no NetBench counterpart: name; fd, or dirfd fd and path, tell the file (-1, NULL: none) */
	RK_NR
};
/* clang-format on */

enum rec_lock {
	REC_LOCK_READ,
	REC_LOCK_WRITE,
	REC_LOCK_UNLOCK,
};

#define REC_FORK_THREAD (1u << 0) /* a thread of the same process */
#define REC_FORK_FILES	(1u << 1) /* shares the descriptor table */
#define REC_FORK_FS	(1u << 2) /* shares the working directory */

#define REC_EV_STAT	(1u << 0) /* st_mode and st_size hold the result */
#define REC_EV_BADPATH	(1u << 1) /* a path could not be read (or was cut) */
#define REC_EV_NOREPLACE (1u << 2) /* rename: RENAME_NOREPLACE */
#define REC_EV_EXCHANGE (1u << 3)  /* rename: RENAME_EXCHANGE */

struct rec_ev {
	uint64_t ts_ns;	  /* when the call started, on the trace's clock */
	int32_t pid;	  /* the task (thread id) */
	int32_t tgid;	  /* its process, 0 if the front end does not know */
	uint16_t kind;	  /* enum rec_kind */
	uint16_t flags;	  /* REC_EV_* */
	const char *name; /* the system call, for the counts */
	int64_t ret;	  /* the result, -errno on failure */
	int fd, fd2;
	const char *path, *path2;
	int64_t a[4];
	uint32_t st_mode; /* REC_EV_STAT */
	int64_t st_size;
	/* strace -y: what the log says a descriptor or AT_FDCWD names */
	const char *fdpath, *fdpath2, *cwd;
	uint64_t line; /* the line of the strace log, 0: none (BPF) */
};

#endif
