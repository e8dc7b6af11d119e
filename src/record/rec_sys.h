/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * rec_sys.h - the system calls a recording knows: their names, their
 * numbers on this architecture, the shape of their arguments (which are
 * paths, which structure is read back) and how a call becomes an event
 * of rec_ev.h.  Both front ends fill a struct rec_raw (the BPF program
 * with the raw arguments and the structures it copied, the strace parser
 * with the numbers and strings of the log) and rec_decode() makes the
 * event: the meaning of each argument is written down once, here.
 */
#ifndef DBNG_REC_SYS_H
#define DBNG_REC_SYS_H

#include <stdbool.h>
#include <stdint.h>

#include "rec_ev.h"

/* clang-format off */
enum rec_form {
	SF_OPEN,	/* path, flags, mode */
	SF_OPENAT,	/* dirfd, path, flags, mode */
	SF_OPENAT2,	/* dirfd, path, struct open_how * (flags read back) */
	SF_CREAT,	/* path, mode */
	SF_CLOSE,	/* fd */
	SF_RW,		/* fd, buf, len (read, write) */
	SF_PRW,		/* fd, buf, len, offset (pread64, pwrite64) */
	SF_RWV,		/* fd, iov, n: the length is what was done */
	SF_PRWV,	/* fd, iov, n, offset (-1 in preadv2: the position) */
	SF_LSEEK,	/* fd, offset, whence */
	SF_FSYNC,	/* fd */
	SF_DUP,		/* fd */
	SF_DUP2,	/* fd, newfd */
	SF_DUP3,	/* fd, newfd, flags */
	SF_FCNTL,	/* fd, cmd, arg (struct flock * read back) */
	SF_FLOCK,	/* fd, operation */
	SF_RENAME,	/* old, new */
	SF_RENAMEAT,	/* olddirfd, old, newdirfd, new */
	SF_RENAMEAT2,	/* olddirfd, old, newdirfd, new, flags */
	SF_UNLINK,	/* path */
	SF_UNLINKAT,	/* dirfd, path, flags */
	SF_RMDIR,	/* path */
	SF_MKDIR,	/* path, mode */
	SF_MKDIRAT,	/* dirfd, path, mode */
	SF_STAT,	/* path, struct stat * */
	SF_FSTAT,	/* fd, struct stat * */
	SF_FSTATAT,	/* dirfd, path, struct stat *, flags */
	SF_STATX,	/* dirfd, path, flags, mask, struct statx * */
	SF_STATFS,	/* path, buf */
	SF_FSTATFS,	/* fd, buf */
	SF_UTIMENSAT,	/* dirfd, path (NULL: dirfd itself), times, flags */
	SF_UTIMES,	/* path, times (utime, utimes) */
	SF_FUTIMESAT,	/* dirfd, path, times */
	SF_CHDIR,	/* path */
	SF_FCHDIR,	/* fd */
	SF_TRUNCATE,	/* path, length */
	SF_FTRUNCATE,	/* fd, length */
	SF_GETDENTS,	/* fd, buf, count */
	SF_FALLOCATE,	/* fd, mode, offset, len */
	/* no NetBench counterpart: counted, telling the file by */
	SF_X_FD0,	/* the fd of argument 0 */
	SF_X_FD01,	/* the fds of arguments 0 and 1 (sendfile, tee) */
	SF_X_FD02,	/* the fds of arguments 0 and 2 (splice, copy_file_range) */
	SF_X_PATH0,	/* the path of argument 0 */
	SF_X_PATH1,	/* the path of argument 1 (symlink's new name) */
	SF_X_AT,	/* dirfd 0, path 1 */
	SF_X_AT2,	/* dirfd 1, path 2 (symlinkat) */
	SF_X_MMAP,	/* the fd of argument 4, unless MAP_ANONYMOUS */
	SF_X_NONE,	/* nothing: io_uring, aio, sync */
	SF_NR
};
/* clang-format on */

struct rec_sys {
	const char *name;
	int nr; /* the number on this architecture, -1: none here */
	uint8_t form;
};

/* The positions of a form's path arguments (-1: none) and of the
 * structure the BPF program reads back at the exit (-1: none). */
struct rec_form_info {
	int8_t str[2];
	int8_t blob;
};

extern const struct rec_sys rec_sys_table[];
extern const unsigned int rec_sys_count;
extern const struct rec_form_info rec_form_info[SF_NR];

/* rec_sys_by_name - the entry named @name, or NULL. */
const struct rec_sys *rec_sys_by_name(const char *name);

/* rec_sys_by_nr - the entry of system call number @nr, or NULL. */
const struct rec_sys *rec_sys_by_nr(long nr);

/* One call as a front end saw it. */
struct rec_raw {
	const struct rec_sys *sys;
	uint64_t ts_ns;
	int32_t pid, tgid;
	int64_t ret;
	int64_t arg[6];
	const char *str[2];   /* the form's paths (NULL: a NULL pointer) */
	bool badstr;	      /* a path could not be read, or was cut */
	const char *annot[6]; /* strace -y: the path an fd argument names */
	const char *cwd;      /* strace -y: what AT_FDCWD names */
	/* what the front end read of the call's structures */
	bool has_st;
	uint32_t st_mode;
	int64_t st_size;
	bool has_lock;
	int l_type, l_whence; /* F_RDLCK.., SEEK_SET.. */
	int64_t l_start, l_len;
	bool has_how;
	uint64_t how_flags; /* openat2 */
	int nent;	    /* getdents: entries, -1 unknown */
};

/* rec_raw_init - an empty call of @sys */
void rec_raw_init(struct rec_raw *r, const struct rec_sys *sys);

/*
 * rec_decode - the event of call @r into @ev (its strings point into @r).
 * Returns false for a call that is no file-system event at all (fcntl
 * F_GETFL, an anonymous mmap): nothing to count.
 */
bool rec_decode(const struct rec_raw *r, struct rec_ev *ev);

#endif
