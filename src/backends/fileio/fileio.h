/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fileio.h - what the files of the fileio backend share (private to
 * src/backends/fileio/): the run-wide state set by the parent before the
 * fork, the per-client directory cache, and the hot helpers, inlined into
 * every op: the cached directory fd, the *at() call with its retry, the
 * name lookup.
 */
#ifndef DBNG_FILEIO_H
#define DBNG_FILEIO_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "backend.h"
#include "iobuf.h"
#include "loadfile.h"

#define DOS_ATTR     "user.DosAttrib"
#define DOS_ATTR_LEN 44
#define MAX_DEPTH    64

/* the run asks for BE_CAN_* @bit (-s, -S, -F, -x ...) */
#define REQ(cl, bit) ((cl)->run->req & (bit))

/* fileio's own options (-o) */
struct fileio_opts {
	bool no_openat2; /* -o no-openat2 */
};

struct fileio_global {
	/* set once by the parent before fork, then read-only */
	int base_fd;	   /* -D */
	int clients_fd;	   /* DIR/clients */
	bool no_openat2;   /* kernel without openat2, or forced */
	bool full;	   /* --paths full: whole paths from DIR (ops_full.c);
			    * else --paths dirfd (ops_dirfd.c) */
	dev_t clients_dev; /* st_dev of DIR/clients: no walk leaves it */
	/* mountns.c: the run went into a user namespace of its own, where
	 * an owner not mapped (root's files) shows as overflow_uid */
	bool userns;
	uid_t overflow_uid;
	bool clients_mnt;  /* DIR/clients is a mount point of its own */
	/* --paths dirfd: DIR/clients as /proc/self/fd names it (a cached
	 * directory is used only while its fd's path is this + "/" + its
	 * name); empty if /proc cannot tell: no directory fd is reused */
	char clients_path[4096];
	size_t clients_plen;
	/* per process, shared by the clients of one process */
	struct iobuf io; /* zeroed write data; read target */
	char dents[32768]; /* getdents64 buffer (--paths dirfd) */
	/* --paths full: the getdents64 buffers of readdir(), [0] for the
	 * lookup and Find, [1 + depth] for each level of a Deltree; grown
	 * on first use (ops_full.c) */
	char *dlevel[MAX_DEPTH + 2];
	size_t dlevel_len[MAX_DEPTH + 2];
};
extern struct fileio_global fileio_g; /* fileio.c */

struct fileio_client {
	char **dirs;  /* directory names, client name substituted */
	char **bases; /* last component of each path, substituted */
	int *dirfd;   /* open directory fds, -1 = not open */
	/* --paths full: each path and each path's directory from DIR,
	 * "clients/client0/dir/file" and "clients/client0/dir" */
	char **fpath;
	const char **fparent;
	char **fdir; /* of each directory of the program */
};

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* dirs.c: the directory cache and the name lookup */
int dir_open(struct be_client *cl, uint32_t d);
void dir_drop_all(struct fileio_client *fc, uint32_t ndirs);
bool dir_stale(struct be_client *cl, uint32_t d);
bool dir_here(struct be_client *cl, uint32_t d);
void dir_invalidate(struct be_client *cl, uint32_t pi);
void dents_find_icase(int fd, char *buf, size_t len, const char *name);
void dents_skip(int fd, char *buf, size_t len, int64_t count);
void scan_icase(int fd, const char *name);
void xattr_read_at(int dfd, const char *base);
void sync_dir(struct be_client *cl, uint32_t pi);

/* mountns.c: --paths full, in a mount namespace where DIR is nosymfollow
 * (refused, BE_EENV with a message in @err, where none can be had, unless
 * the run allows symlink races).  Reopens base_fd and clients_fd through
 * the new mount. */
int mountns_protect(const struct be_run *run, char *err, size_t errlen);

/* tree.c */
int subdir_open(int dfd, const char *name);
int tree_clear(int fd, int depth, bool rmdirs);

/* Not a regular file, a directory or a symlink: a fifo, a device, a
 * socket; never opened or written (opened.c) */
static inline bool special_file(mode_t mode)
{
	return S_ISCHR(mode) || S_ISBLK(mode) || S_ISFIFO(mode) ||
	       S_ISSOCK(mode);
}

/* opened.c: what NTCreateX and Sfileinfo share in both modes */
int xattr_write(struct be_client *cl, const struct lf_op *op, int fd);
int hard_link(struct be_client *cl, const struct lf_op *op,
	      const struct stat *st);
int not_a_file(struct be_client *cl, const struct lf_op *op,
	       const struct stat *st);
int ntcreatex_opened(struct be_client *cl, const struct lf_op *op, be_handle *h,
		     int fd, bool trunc);

/* The ops that name a path, and Sfileinfo, once per --paths mode:
 * full_NAME in ops_full.c, whole paths from DIR; dirfd_NAME in
 * ops_dirfd.c, one component from a cached directory fd */
#define MODE_OPS(mode)                                                     \
	int mode##_ntcreatex(struct be_client *cl, const struct lf_op *op, \
			     be_handle *h);                                \
	int mode##_rename(struct be_client *cl, const struct lf_op *op,    \
			  be_handle *h);                                   \
	int mode##_unlink(struct be_client *cl, const struct lf_op *op,    \
			  be_handle *h);                                   \
	int mode##_deltree(struct be_client *cl, const struct lf_op *op,   \
			   be_handle *h);                                  \
	int mode##_rmdir(struct be_client *cl, const struct lf_op *op,     \
			 be_handle *h);                                    \
	int mode##_mkdir(struct be_client *cl, const struct lf_op *op,     \
			 be_handle *h);                                    \
	int mode##_qpathinfo(struct be_client *cl, const struct lf_op *op, \
			     be_handle *h);                                \
	int mode##_qfsinfo(struct be_client *cl, const struct lf_op *op,   \
			   be_handle *h);                                  \
	int mode##_sfileinfo(struct be_client *cl, const struct lf_op *op, \
			     be_handle *h);                                \
	int mode##_find(struct be_client *cl, const struct lf_op *op,      \
			be_handle *h)
MODE_OPS(full);
MODE_OPS(dirfd);

/* ops_handle.c: the ops on a handle, the same in both modes */
#define FILEIO_OP(name)                                                 \
	int fileio_##name(struct be_client *cl, const struct lf_op *op, \
			  be_handle *h)
FILEIO_OP(close);
FILEIO_OP(qfileinfo);
FILEIO_OP(writex);
FILEIO_OP(readx);
FILEIO_OP(lockx);
FILEIO_OP(unlockx);
FILEIO_OP(flush);
void fileio_release(struct be_client *cl, be_handle h);

/* fileio.c: the op table of each mode, which init gives the run
 * (be_run.op) */
extern const be_op_fn fileio_ops_full[OP_NR], fileio_ops_dirfd[OP_NR];

/* setup.c */
int fileio_init(struct be_run *run, char *err, size_t errlen);
int fileio_setup(struct be_client *cl);
void fileio_cleanup(struct be_client *cl);
void fileio_fini(struct be_run *run, const bool *dirty);
void fileio_orphaned(struct be_run *run);

/* The fd of directory @d, opened on first use; -errno if it cannot be.
 * The cached fd is the hot path, inlined into every op; dir_open() the
 * rest.  For a call that changes something, a cached fd is used only
 * while it is still where it was opened (dir_here(): one readlink of
 * /proc/self/fd/N): a directory moved out of DIR/clients by someone else
 * is looked up again, and not found.  Lookups and reads (dir_peek: the
 * stat and scan of every op's resolve, Find's listing, -S's fdatasync)
 * take the cached fd as it is: they change nothing. */
static inline int dir_get(struct be_client *cl, uint32_t d)
{
	struct fileio_client *fc = cl->priv;
	int fd = fc->dirfd[d];

	if (fd >= 0 && (!d || dir_here(cl, d)))
		return fd;
	return dir_open(cl, d);
}

static inline int dir_peek(struct be_client *cl, uint32_t d)
{
	struct fileio_client *fc = cl->priv;
	int fd = fc->dirfd[d];

	if (fd >= 0)
		return fd;
	return dir_open(cl, d);
}

/*
 * AT(cl, retry, pi, dfd, base, call): run the *at() system call @call with
 * @dfd and @base set for path index @pi; evaluates to 0 or -errno.  If it
 * fails with ENOENT, @retry is true and the cached directory turns out to
 * be deleted, the path is looked up again and the call retried once.
 * AT_RO: the same for a call that changes nothing (dir_peek()).
 *
 * RETRY(op): retry an op's own call only where success was expected, so an
 * expected ENOENT costs no extra system call.  Lookups (resolve, exists)
 * never retry: a miss is their normal result.
 */
#define RETRY(op) ((op)->expect != LF_EXPECT_FAIL)

#define AT_(cl, retry, pi, dfd, base, call, get)                    \
	({                                                          \
		const struct lf_path *pa_ = &(cl)->prog->paths[pi]; \
		int r_;                                             \
		for (int try_ = 0;; try_++) {                       \
			dfd = get(cl, pa_->dir);                    \
			if (dfd < 0) {                              \
				r_ = dfd;                           \
				break;                              \
			}                                           \
			base = ((struct fileio_client *)(cl)->priv) \
				       ->bases[pi];                 \
			r_ = (call) < 0 ? -errno : 0;               \
			if (r_ != -ENOENT || try_ || !(retry) ||    \
			    !dir_stale(cl, pa_->dir))               \
				break;                              \
		}                                                   \
		r_;                                                 \
	})
#define AT(cl, retry, pi, dfd, base, call) \
	AT_(cl, retry, pi, dfd, base, call, dir_get)
#define AT_RO(cl, retry, pi, dfd, base, call) \
	AT_(cl, retry, pi, dfd, base, call, dir_peek)

/* dbench's resolve: stat the name; on a miss scan the directory for it
 * ignoring case (unless --no-resolve).  Returns 0 or -errno. */
static inline int resolve(struct be_client *cl, uint32_t pi, struct stat *st)
{
	const char *base;
	int dfd, rc;

	rc = AT_RO(cl, false, pi, dfd, base,
		   fstatat(dfd, base, st, AT_SYMLINK_NOFOLLOW));
	if (!rc) {
		if (REQ(cl, BE_CAN_XATTR))
			xattr_read_at(dfd, base);
	} else if (dfd >= 0 && !REQ(cl, BE_CAN_NO_RESOLVE)) {
		scan_icase(dfd, base);
	}
	return rc;
}

#endif
