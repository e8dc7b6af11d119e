/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * rec_sys.c - the table of the system calls a recording knows, and the
 * decoding of one call (struct rec_raw) into an event (struct rec_ev).
 */
#include "rec_sys.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <stddef.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>

/* the calls of the old ABI that x86_64 has and newer architectures lack */
#if defined(__x86_64__)
#define OLD(n) SYS_##n
#else
#define OLD(n) -1
#endif
#define NEW(n) SYS_##n

/* clang-format off */
const struct rec_sys rec_sys_table[] = {
	{"open", OLD(open), SF_OPEN},
	{"openat", NEW(openat), SF_OPENAT},
	{"openat2", NEW(openat2), SF_OPENAT2},
	{"creat", OLD(creat), SF_CREAT},
	{"close", NEW(close), SF_CLOSE},
	{"read", NEW(read), SF_RW},
	{"write", NEW(write), SF_RW},
	{"pread64", NEW(pread64), SF_PRW},
	{"pwrite64", NEW(pwrite64), SF_PRW},
	{"readv", NEW(readv), SF_RWV},
	{"writev", NEW(writev), SF_RWV},
	{"preadv", NEW(preadv), SF_PRWV},
	{"pwritev", NEW(pwritev), SF_PRWV},
	{"preadv2", NEW(preadv2), SF_PRWV},
	{"pwritev2", NEW(pwritev2), SF_PRWV},
	{"lseek", NEW(lseek), SF_LSEEK},
	{"fsync", NEW(fsync), SF_FSYNC},
	{"fdatasync", NEW(fdatasync), SF_FSYNC},
	{"dup", NEW(dup), SF_DUP},
	{"dup2", OLD(dup2), SF_DUP2},
	{"dup3", NEW(dup3), SF_DUP3},
	{"fcntl", NEW(fcntl), SF_FCNTL},
	{"flock", NEW(flock), SF_FLOCK},
	{"rename", OLD(rename), SF_RENAME},
	{"renameat", NEW(renameat), SF_RENAMEAT},
	{"renameat2", NEW(renameat2), SF_RENAMEAT2},
	{"unlink", OLD(unlink), SF_UNLINK},
	{"unlinkat", NEW(unlinkat), SF_UNLINKAT},
	{"rmdir", OLD(rmdir), SF_RMDIR},
	{"mkdir", OLD(mkdir), SF_MKDIR},
	{"mkdirat", NEW(mkdirat), SF_MKDIRAT},
	{"stat", OLD(stat), SF_STAT},
	{"lstat", OLD(lstat), SF_STAT},
	{"fstat", NEW(fstat), SF_FSTAT},
	{"newfstatat", NEW(newfstatat), SF_FSTATAT},
	{"statx", NEW(statx), SF_STATX},
	{"statfs", NEW(statfs), SF_STATFS},
	{"fstatfs", NEW(fstatfs), SF_FSTATFS},
	{"utimensat", NEW(utimensat), SF_UTIMENSAT},
	{"utime", OLD(utime), SF_UTIMES},
	{"utimes", OLD(utimes), SF_UTIMES},
	{"futimesat", OLD(futimesat), SF_FUTIMESAT},
	{"chdir", NEW(chdir), SF_CHDIR},
	{"fchdir", NEW(fchdir), SF_FCHDIR},
	{"truncate", NEW(truncate), SF_TRUNCATE},
	{"ftruncate", NEW(ftruncate), SF_FTRUNCATE},
	{"getdents", OLD(getdents), SF_GETDENTS},
	{"getdents64", NEW(getdents64), SF_GETDENTS},
	{"fallocate", NEW(fallocate), SF_FALLOCATE},
	/* no NetBench counterpart: counted, listed at the end */
	{"mmap", NEW(mmap), SF_X_MMAP},
	{"sendfile", NEW(sendfile), SF_X_FD01},
	{"splice", NEW(splice), SF_X_FD02},
	{"tee", NEW(tee), SF_X_FD01},
	{"vmsplice", NEW(vmsplice), SF_X_FD0},
	{"copy_file_range", NEW(copy_file_range), SF_X_FD02},
	{"io_uring_setup", NEW(io_uring_setup), SF_X_NONE},
	{"io_uring_enter", NEW(io_uring_enter), SF_X_NONE},
	{"io_uring_register", NEW(io_uring_register), SF_X_NONE},
	{"io_setup", NEW(io_setup), SF_X_NONE},
	{"io_submit", NEW(io_submit), SF_X_NONE},
	{"sync", NEW(sync), SF_X_NONE},
	{"syncfs", NEW(syncfs), SF_X_FD0},
	{"sync_file_range", NEW(sync_file_range), SF_X_FD0},
	{"fadvise64", NEW(fadvise64), SF_X_FD0},
	{"readahead", NEW(readahead), SF_X_FD0},
	{"fchmod", NEW(fchmod), SF_X_FD0},
	{"fchown", NEW(fchown), SF_X_FD0},
	{"fgetxattr", NEW(fgetxattr), SF_X_FD0},
	{"fsetxattr", NEW(fsetxattr), SF_X_FD0},
	{"flistxattr", NEW(flistxattr), SF_X_FD0},
	{"fremovexattr", NEW(fremovexattr), SF_X_FD0},
	{"link", OLD(link), SF_X_PATH0},
	{"linkat", NEW(linkat), SF_X_AT},
	{"symlink", OLD(symlink), SF_X_PATH1},
	{"symlinkat", NEW(symlinkat), SF_X_AT2},
	{"readlink", OLD(readlink), SF_X_PATH0},
	{"readlinkat", NEW(readlinkat), SF_X_AT},
	{"chmod", OLD(chmod), SF_X_PATH0},
	{"fchmodat", NEW(fchmodat), SF_X_AT},
	{"chown", OLD(chown), SF_X_PATH0},
	{"lchown", OLD(lchown), SF_X_PATH0},
	{"fchownat", NEW(fchownat), SF_X_AT},
	{"access", OLD(access), SF_X_PATH0},
	{"faccessat", NEW(faccessat), SF_X_AT},
	{"faccessat2", NEW(faccessat2), SF_X_AT},
	{"mknod", OLD(mknod), SF_X_PATH0},
	{"mknodat", NEW(mknodat), SF_X_AT},
	{"getxattr", NEW(getxattr), SF_X_PATH0},
	{"lgetxattr", NEW(lgetxattr), SF_X_PATH0},
	{"setxattr", NEW(setxattr), SF_X_PATH0},
	{"lsetxattr", NEW(lsetxattr), SF_X_PATH0},
	{"listxattr", NEW(listxattr), SF_X_PATH0},
	{"llistxattr", NEW(llistxattr), SF_X_PATH0},
	{"removexattr", NEW(removexattr), SF_X_PATH0},
	{"lremovexattr", NEW(lremovexattr), SF_X_PATH0},
	{"name_to_handle_at", NEW(name_to_handle_at), SF_X_AT},
	{"open_by_handle_at", NEW(open_by_handle_at), SF_X_FD0},
};
/* clang-format on */

const unsigned int rec_sys_count =
	sizeof(rec_sys_table) / sizeof(rec_sys_table[0]);

/* clang-format off */
const struct rec_form_info rec_form_info[SF_NR] = {
	[SF_OPEN]      = {{0, -1}, -1},
	[SF_OPENAT]    = {{1, -1}, -1},
	[SF_OPENAT2]   = {{1, -1}, 2},
	[SF_CREAT]     = {{0, -1}, -1},
	[SF_CLOSE]     = {{-1, -1}, -1},
	[SF_RW]        = {{-1, -1}, -1},
	[SF_PRW]       = {{-1, -1}, -1},
	[SF_RWV]       = {{-1, -1}, -1},
	[SF_PRWV]      = {{-1, -1}, -1},
	[SF_LSEEK]     = {{-1, -1}, -1},
	[SF_FSYNC]     = {{-1, -1}, -1},
	[SF_DUP]       = {{-1, -1}, -1},
	[SF_DUP2]      = {{-1, -1}, -1},
	[SF_DUP3]      = {{-1, -1}, -1},
	[SF_FCNTL]     = {{-1, -1}, 2},
	[SF_FLOCK]     = {{-1, -1}, -1},
	[SF_RENAME]    = {{0, 1}, -1},
	[SF_RENAMEAT]  = {{1, 3}, -1},
	[SF_RENAMEAT2] = {{1, 3}, -1},
	[SF_UNLINK]    = {{0, -1}, -1},
	[SF_UNLINKAT]  = {{1, -1}, -1},
	[SF_RMDIR]     = {{0, -1}, -1},
	[SF_MKDIR]     = {{0, -1}, -1},
	[SF_MKDIRAT]   = {{1, -1}, -1},
	[SF_STAT]      = {{0, -1}, 1},
	[SF_FSTAT]     = {{-1, -1}, 1},
	[SF_FSTATAT]   = {{1, -1}, 2},
	[SF_STATX]     = {{1, -1}, 4},
	[SF_STATFS]    = {{0, -1}, -1},
	[SF_FSTATFS]   = {{-1, -1}, -1},
	[SF_UTIMENSAT] = {{1, -1}, -1},
	[SF_UTIMES]    = {{0, -1}, -1},
	[SF_FUTIMESAT] = {{1, -1}, -1},
	[SF_CHDIR]     = {{0, -1}, -1},
	[SF_FCHDIR]    = {{-1, -1}, -1},
	[SF_TRUNCATE]  = {{0, -1}, -1},
	[SF_FTRUNCATE] = {{-1, -1}, -1},
	[SF_GETDENTS]  = {{-1, -1}, -1},
	[SF_FALLOCATE] = {{-1, -1}, -1},
	[SF_X_FD0]     = {{-1, -1}, -1},
	[SF_X_FD01]    = {{-1, -1}, -1},
	[SF_X_FD02]    = {{-1, -1}, -1},
	[SF_X_PATH0]   = {{0, -1}, -1},
	[SF_X_PATH1]   = {{1, -1}, -1},
	[SF_X_AT]      = {{1, -1}, -1},
	[SF_X_AT2]     = {{2, -1}, -1},
	[SF_X_MMAP]    = {{-1, -1}, -1},
	[SF_X_NONE]    = {{-1, -1}, -1},
};
/* clang-format on */

const struct rec_sys *rec_sys_by_name(const char *name)
{
	for (unsigned int i = 0; i < rec_sys_count; i++)
		if (!strcmp(rec_sys_table[i].name, name))
			return &rec_sys_table[i];
	return NULL;
}

const struct rec_sys *rec_sys_by_nr(long nr)
{
	for (unsigned int i = 0; nr >= 0 && i < rec_sys_count; i++)
		if (rec_sys_table[i].nr == nr)
			return &rec_sys_table[i];
	return NULL;
}

void rec_raw_init(struct rec_raw *r, const struct rec_sys *sys)
{
	memset(r, 0, sizeof(*r));
	r->sys = sys;
	r->nent = -1;
}

/* a path argument (position @i of the form's paths) */
static void at_path(const struct rec_raw *r, struct rec_ev *ev, int dirarg,
		    int i)
{
	ev->fd = dirarg < 0 ? REC_AT_FDCWD : (int)r->arg[dirarg];
	ev->path = r->str[i];
	if (dirarg >= 0)
		ev->fdpath = r->annot[dirarg];
}

static bool dec_open(const struct rec_raw *r, struct rec_ev *ev)
{
	ev->kind = RK_OPEN;
	switch (r->sys->form) {
	case SF_OPEN:
		at_path(r, ev, -1, 0);
		ev->a[0] = r->arg[1];
		ev->a[1] = r->arg[2];
		break;
	case SF_CREAT:
		at_path(r, ev, -1, 0);
		ev->a[0] = O_CREAT | O_WRONLY | O_TRUNC;
		ev->a[1] = r->arg[1];
		break;
	case SF_OPENAT2:
		at_path(r, ev, 0, 0);
		if (!r->has_how)
			return false; /* flags unknown: counted as a bad call */
		ev->a[0] = (int64_t)r->how_flags;
		break;
	default:
		at_path(r, ev, 0, 0);
		ev->a[0] = r->arg[2];
		ev->a[1] = r->arg[3];
		break;
	}
	return true;
}

/* fcntl: the commands that change what the writer follows */
static bool dec_fcntl(const struct rec_raw *r, struct rec_ev *ev)
{
	int cmd = (int)r->arg[1];

	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		ev->kind = RK_DUP;
		ev->a[0] = -1; /* the lowest free at or above arg: the result */
		ev->a[1] = cmd == F_DUPFD_CLOEXEC;
		return true;
	case F_SETFD:
		ev->kind = RK_SETFD;
		ev->a[0] = (r->arg[2] & FD_CLOEXEC) != 0;
		return true;
	case F_SETFL:
		ev->kind = RK_SETFL;
		ev->a[0] = r->arg[2];
		return true;
	case F_SETLK:
	case F_SETLKW:
	case F_OFD_SETLK:
	case F_OFD_SETLKW:
		if (!r->has_lock) {
			ev->kind = RK_OTHER; /* its range unknown */
			return true;
		}
		ev->kind = RK_LOCK;
		ev->a[0] = r->l_type == F_UNLCK	  ? REC_LOCK_UNLOCK
			   : r->l_type == F_RDLCK ? REC_LOCK_READ
						  : REC_LOCK_WRITE;
		ev->a[1] = r->l_start;
		ev->a[2] = r->l_len;
		ev->a[3] = r->l_whence;
		return true;
	case F_GETFD:
	case F_GETFL:
		return false; /* questions, no file-system work */
	default:
		ev->kind = RK_OTHER;
		return true;
	}
}

static bool dec_other(const struct rec_raw *r, struct rec_ev *ev)
{
	ev->kind = RK_OTHER;
	switch (r->sys->form) {
	case SF_X_FD0:
		ev->fd = (int)r->arg[0];
		ev->fdpath = r->annot[0];
		break;
	case SF_X_FD01:
	case SF_X_FD02: {
		int k = r->sys->form == SF_X_FD01 ? 1 : 2;

		ev->fd = (int)r->arg[0];
		ev->fdpath = r->annot[0];
		ev->fd2 = (int)r->arg[k];
		ev->fdpath2 = r->annot[k];
		break;
	}
	case SF_X_PATH0:
	case SF_X_PATH1:
		at_path(r, ev, -1, 0);
		break;
	case SF_X_AT:
		at_path(r, ev, 0, 0);
		break;
	case SF_X_AT2:
		at_path(r, ev, 1, 0);
		break;
	case SF_X_MMAP:
		if (r->arg[3] & MAP_ANONYMOUS)
			return false;
		ev->fd = (int)r->arg[4];
		ev->fdpath = r->annot[4];
		break;
	default:
		break;
	}
	return true;
}

/* stat family: a path, or (AT_EMPTY_PATH and "") the descriptor */
static void dec_stat(const struct rec_raw *r, struct rec_ev *ev)
{
	int form = r->sys->form;

	ev->kind = RK_STAT;
	if (form == SF_STAT) {
		at_path(r, ev, -1, 0);
	} else if (form == SF_FSTAT) {
		ev->fd = (int)r->arg[0];
		ev->fdpath = r->annot[0];
	} else {
		int64_t flags = form == SF_STATX ? r->arg[2] : r->arg[3];

		at_path(r, ev, 0, 0);
		if ((flags & AT_EMPTY_PATH) && ev->path && !ev->path[0])
			ev->path = NULL;
	}
	if (r->has_st && r->ret == 0) {
		ev->flags |= REC_EV_STAT;
		ev->st_mode = r->st_mode;
		ev->st_size = r->st_size;
	}
}

static bool dec_rename(const struct rec_raw *r, struct rec_ev *ev)
{
	ev->kind = RK_RENAME;
	if (r->sys->form == SF_RENAME) {
		at_path(r, ev, -1, 0);
		ev->fd2 = REC_AT_FDCWD;
		ev->path2 = r->str[1];
		return true;
	}
	at_path(r, ev, 0, 0);
	ev->fd2 = (int)r->arg[2];
	ev->fdpath2 = r->annot[2];
	ev->path2 = r->str[1];
	if (r->sys->form == SF_RENAMEAT2) {
		if (r->arg[4] & RENAME_NOREPLACE)
			ev->flags |= REC_EV_NOREPLACE;
		if (r->arg[4] & RENAME_EXCHANGE)
			ev->flags |= REC_EV_EXCHANGE;
	}
	return true;
}

/* the descriptor (argument 0) of the fd calls, and its -y path */
static void fd0(const struct rec_raw *r, struct rec_ev *ev, int kind)
{
	ev->kind = (uint16_t)kind;
	ev->fd = (int)r->arg[0];
	ev->fdpath = r->annot[0];
}

/* The fd-based calls: 1 an event, 0 none (fcntl F_GETFL), -1 for a
 * form that is not one. */
static int dec_fd_call(const struct rec_raw *r, struct rec_ev *ev)
{
	switch (r->sys->form) {
	case SF_CLOSE:
		fd0(r, ev, RK_CLOSE);
		return 1;
	case SF_RW:
	case SF_PRW:
	case SF_RWV:
	case SF_PRWV:
		fd0(r, ev, strstr(r->sys->name, "read") ? RK_READ : RK_WRITE);
		ev->a[0] = r->sys->form == SF_RW || r->sys->form == SF_PRW
				   ? r->arg[2]
				   : (r->ret > 0 ? r->ret : 0);
		ev->a[1] = r->sys->form == SF_PRW || r->sys->form == SF_PRWV
				   ? r->arg[3]
				   : -1;
		if (ev->a[1] < -1)
			ev->a[1] = -1;
		return 1;
	case SF_LSEEK:
		fd0(r, ev, RK_LSEEK);
		return 1;
	case SF_FSYNC:
		fd0(r, ev, RK_FSYNC);
		return 1;
	case SF_DUP:
	case SF_DUP2:
	case SF_DUP3:
		fd0(r, ev, RK_DUP);
		ev->a[0] = r->sys->form == SF_DUP ? -1 : r->arg[1];
		ev->a[1] = r->sys->form == SF_DUP3 && (r->arg[2] & O_CLOEXEC);
		return 1;
	case SF_FCNTL:
		fd0(r, ev, RK_NONE);
		return dec_fcntl(r, ev) ? 1 : 0;
	case SF_FLOCK:
		fd0(r, ev, RK_LOCK);
		ev->a[0] = (r->arg[1] & LOCK_UN)   ? REC_LOCK_UNLOCK
			   : (r->arg[1] & LOCK_EX) ? REC_LOCK_WRITE
						   : REC_LOCK_READ;
		return 1; /* a[1..3] 0: the whole file */
	case SF_FSTATFS:
		fd0(r, ev, RK_STATFS);
		return 1;
	case SF_FCHDIR:
		fd0(r, ev, RK_CHDIR);
		return 1;
	case SF_FTRUNCATE:
		fd0(r, ev, RK_TRUNCATE);
		ev->a[0] = r->arg[1];
		return 1;
	case SF_FALLOCATE:
		fd0(r, ev, RK_TRUNCATE);
		ev->a[0] = -1; /* not a new size: the writer keeps its own */
		return 1;
	case SF_GETDENTS:
		fd0(r, ev, RK_GETDENTS);
		ev->a[0] = r->nent;
		return 1;
	default:
		return -1;
	}
}

bool rec_decode(const struct rec_raw *r, struct rec_ev *ev)
{
	int form = r->sys->form;

	memset(ev, 0, sizeof(*ev));
	ev->ts_ns = r->ts_ns;
	ev->pid = r->pid;
	ev->tgid = r->tgid;
	ev->name = r->sys->name;
	ev->ret = r->ret;
	ev->fd = ev->fd2 = -1;
	ev->cwd = r->cwd;
	if (r->badstr)
		ev->flags |= REC_EV_BADPATH;
	switch (dec_fd_call(r, ev)) {
	case 1:
		return true;
	case 0:
		return false;
	default:
		break;
	}
	switch (form) {
	case SF_OPEN:
	case SF_OPENAT:
	case SF_OPENAT2:
	case SF_CREAT:
		return dec_open(r, ev);
	case SF_RENAME:
	case SF_RENAMEAT:
	case SF_RENAMEAT2:
		return dec_rename(r, ev);
	case SF_UNLINK:
		ev->kind = RK_UNLINK;
		at_path(r, ev, -1, 0);
		return true;
	case SF_UNLINKAT:
		ev->kind = r->arg[2] & AT_REMOVEDIR ? RK_RMDIR : RK_UNLINK;
		at_path(r, ev, 0, 0);
		return true;
	case SF_RMDIR:
		ev->kind = RK_RMDIR;
		at_path(r, ev, -1, 0);
		return true;
	case SF_MKDIR:
	case SF_MKDIRAT:
		ev->kind = RK_MKDIR;
		at_path(r, ev, form == SF_MKDIR ? -1 : 0, 0);
		return true;
	case SF_STAT:
	case SF_FSTAT:
	case SF_FSTATAT:
	case SF_STATX:
		dec_stat(r, ev);
		return true;
	case SF_STATFS:
		ev->kind = RK_STATFS;
		at_path(r, ev, -1, 0);
		return true;
	case SF_UTIMENSAT:
	case SF_FUTIMESAT:
		ev->kind = RK_UTIMES;
		at_path(r, ev, 0, 0);
		if (!r->arg[1] || (form == SF_UTIMENSAT &&
				   (r->arg[3] & AT_EMPTY_PATH) && ev->path &&
				   !ev->path[0])) {
			ev->path = NULL; /* futimens(): the descriptor */
			ev->flags &= (uint16_t)~REC_EV_BADPATH;
		}
		return true;
	case SF_UTIMES:
		ev->kind = RK_UTIMES;
		at_path(r, ev, -1, 0);
		return true;
	case SF_CHDIR:
		ev->kind = RK_CHDIR;
		at_path(r, ev, -1, 0);
		return true;
	case SF_TRUNCATE:
		ev->kind = RK_TRUNCATE;
		at_path(r, ev, -1, 0);
		ev->a[0] = r->arg[1];
		return true;
	default:
		return dec_other(r, ev);
	}
}
