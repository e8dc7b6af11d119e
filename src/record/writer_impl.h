/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * writer_impl.h - what the files of the writer share: the processes and
 * their descriptor tables (procs.c), the tree the trace showed (tree.c),
 * the lines and counts (lines.c), the mapping (writer.c) and the output
 * (emit.c).  Private to src/record.
 */
#ifndef DBNG_REC_WRITER_IMPL_H
#define DBNG_REC_WRITER_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "hmap.h"
#include "rec_writer.h"

#define NONE UINT32_MAX
#define TS_LIMIT_NS (UINT64_C(10000000) * 1000000000u) /* 10^7 s */

/* An open file description: what a NetBench handle stands for. */
struct rdesc {
	int refs;	 /* descriptors (of any process) naming it */
	char *path;	 /* absolute; follows renames of it or above it */
	uint32_t node;	 /* its file in the tree, NONE: not under --root */
	int64_t pos;	 /* the file position */
	uint32_t oflags; /* O_APPEND, from the open or F_SETFL */
	bool dir;	 /* a directory: its NTCreateX waits (writer.c) */
	int32_t fnum;	 /* its handle number, 0: none */
	uint32_t slot;	 /* its NTCreateX line, NONE: none (yet) */
	bool pending;	 /* that line is still a placeholder */
	bool listing;	 /* a Find stands for the listing in progress */
	bool listed;	 /* ever listed */
	uint32_t find;	 /* the Find line of that listing */
	struct rdesc *next, *prev; /* all live descriptions */
};

struct fdent {
	struct rdesc *d; /* NULL: a free number */
	bool cloexec;
};

struct fdtab {
	int refs; /* processes sharing it (CLONE_FILES) */
	int n;
	struct fdent *fds;
};

struct rfs {
	int refs;  /* processes sharing it (CLONE_FS) */
	char *cwd; /* absolute, NULL unknown */
};

struct rproc {
	int tgid;
	int threads;
	struct fdtab *ft;
	struct rfs *fs;
};

struct rtask {
	int tid;
	struct rproc *p;
};

/* what the trace showed of a name before it changed it */
enum { NB_UNKNOWN, NB_EXISTED, NB_ABSENT };
enum { T_UNKNOWN, T_FILE, T_DIR };

/* A file or directory of the tree under --root (a file, not a name: a
 * rename moves it to another name; a removal leaves it nameless). */
struct tnode {
	char *rel;	    /* its name now, relative to --root; NULL: gone */
	char *orig;	    /* its name when the trace started */
	uint8_t before;	    /* NB_* */
	uint8_t type;	    /* T_* */
	bool made;	    /* the trace created it */
	bool exists;	    /* it exists now, as far as the trace tells */
	bool modified;	    /* the trace changed its content */
	int64_t size_min;   /* before the trace: at least this size */
	int64_t size_exact; /* before the trace: exactly (-1: unknown) */
	int64_t size;	    /* now, as far as the trace tells (-1) */
};

/* line kinds beyond enum op_type */
#define LN_PENDING 0xfe /* a placeholder for an NTCreateX (writer.c) */
#define LN_DROPPED 0xff /* a placeholder that was not needed */

struct rline {
	uint64_t ts_ns;
	uint8_t op;	/* enum op_type, LN_* */
	uint8_t status; /* index of rec_status_names[] */
	uint32_t path[2]; /* interned loadfile paths, NONE */
	uint8_t head;	  /* written before the others: an inherited open */
	int32_t fnum;
	int64_t a[4];	  /* the integer arguments, in order */
};

/* the kinds of the trailer's counts */
enum tally_kind {
	TK_NOCOUNTER, /* under --root, no NetBench counterpart */
	TK_OUTSIDE,   /* a path outside --root */
	TK_NOTFILE,   /* a descriptor that is no file under --root */
	TK_UNKNOWNFD, /* a descriptor the trace did not see opened */
	TK_FAILED,    /* failed in a way a replay does not repeat */
	TK_NOTE,      /* something else, said in words */
	TK_NR
};

struct tally {
	uint8_t kind;
	char *what;
	uint64_t n;
};

struct rec_writer {
	struct rec_writer_cfg cfg;
	char *root;
	size_t rootlen;
	uint64_t t0;
	bool have_t0;
	uint64_t last_ts;
	/* processes */
	struct intmap tasks, procs;
	struct rproc **allp; /* every process made (freed at the end) */
	size_t nallp, cap_allp;
	struct rdesc descs; /* the list head of live descriptions */
	/* the tree */
	struct tnode *nodes;
	uint32_t nnodes, cap_nodes;
	struct strmap names; /* rel -> node, of the names that exist */
	/* the lines */
	struct rline *lines;
	uint32_t nlines, cap_lines;
	uint32_t ninherit; /* lines of inherited descriptors at the head */
	char **lpaths;	   /* interned loadfile paths */
	uint32_t nlpaths, cap_lpaths;
	struct strmap lpmap;
	/* handle numbers */
	int32_t next_fnum;
	int32_t *freed; /* a min-heap of the numbers given back */
	uint32_t nfreed, cap_freed;
	/* counts */
	struct tally *tallies;
	uint32_t ntallies, cap_tallies;
	struct strmap tmap;
	struct rec_summary sum;
	const char *closing; /* why descriptions are closed, if not by close */
	struct rec_outside outside[REC_OUTSIDE_MAX];
	unsigned int noutside;
	uint64_t outside_calls;
	bool oom;
};

extern const char *const rec_status_names[];

/* procs.c */
struct rproc *proc_of(struct rec_writer *w, const struct rec_ev *ev);
void proc_fork(struct rec_writer *w, const struct rec_ev *ev);
void proc_exit(struct rec_writer *w, const struct rec_ev *ev);
void proc_exec(struct rec_writer *w, struct rproc *p);
void procs_free(struct rec_writer *w);
struct rdesc *fd_get(struct rproc *p, int fd);
int fdt_set(struct rec_writer *w, struct rproc *p, int fd, struct rdesc *d,
	   bool cloexec);
void fd_close(struct rec_writer *w, struct rproc *p, int fd);
struct fdent *fd_ent(struct rproc *p, int fd);
struct rdesc *desc_new(struct rec_writer *w, const char *abs);
void desc_unref(struct rec_writer *w, struct rdesc *d);
char *path_resolve(struct rec_writer *w, struct rproc *p, int dirfd,
		   const char *path, const char *fdpath);
char *path_norm(const char *base, const char *path);
void paths_renamed(struct rec_writer *w, const char *from, const char *to);
const char *under_root(const struct rec_writer *w, const char *abs);

/* writer.c: the last reference to @d is gone */
void desc_released(struct rec_writer *w, struct rdesc *d);

/* tree.c */
uint32_t tree_node(struct rec_writer *w, const char *rel);
uint32_t tree_find(struct rec_writer *w, const char *rel);
void tree_seen(struct rec_writer *w, uint32_t n, bool exists, int type);
void tree_parents(struct rec_writer *w, const char *rel);
void tree_stat(struct rec_writer *w, uint32_t n, uint32_t mode, int64_t size);
void tree_read(struct rec_writer *w, uint32_t n, int64_t off, int64_t len,
	       int64_t got);
void tree_write(struct rec_writer *w, uint32_t n, int64_t off, int64_t got);
void tree_truncate(struct rec_writer *w, uint32_t n, int64_t len);
uint32_t tree_create(struct rec_writer *w, const char *rel, int type);
void tree_remove(struct rec_writer *w, uint32_t n);
void tree_rename(struct rec_writer *w, const char *from, const char *to);
void tree_free(struct rec_writer *w);

/* lines.c */
struct rline *line_add(struct rec_writer *w, uint64_t ts, int op, int64_t ret);
uint32_t lpath(struct rec_writer *w, const char *rel);
uint8_t status_of(int64_t ret);
int32_t fnum_get(struct rec_writer *w);
void fnum_put(struct rec_writer *w, int32_t fnum);
void tally(struct rec_writer *w, int kind, const char *what, uint64_t n);
uint64_t ts_of(struct rec_writer *w, const struct rec_ev *ev);
void lines_free(struct rec_writer *w);
char *anon_name(const char *name, bool all);

/* emit.c */
int emit_setup(struct rec_writer *w, FILE *f, bool own);

/* writer.c, writer_files.c, writer_names.c: the mapping */
#define NT_DIR	    0x1	 /* FILE_DIRECTORY_FILE */
#define NT_NONDIR   0x40 /* FILE_NON_DIRECTORY_FILE */
#define NT_WRITE_THROUGH 0x2 /* FILE_WRITE_THROUGH */
#define LEVEL_BASIC 1004 /* FileBasicInformation */
#define LEVEL_FS    259	 /* FileFsSizeInformation */
#define LEVEL_ALLOC 1019 /* FileAllocationInformation */
#define LEVEL_EOF   1020 /* FileEndOfFileInformation */
#define LEVEL_FIND  260	 /* FileBothDirectoryInformation */
#define FIND_MAX    1000000 /* entries a Find may read: to the end */
#define IO_MAX	    (16 << 20)	 /* the parser's largest ReadX/WriteX */
#define OFF_MAX	    ((INT64_C(1) << 61) - 1) /* its largest offset */
#define FNUM_INHERIT 2000000000 /* handles of descriptors opened before */

struct ctx {
	struct rec_writer *w;
	const struct rec_ev *ev;
	struct rproc *p;
	uint64_t ts;
};

uint32_t wr_line_index(struct rec_writer *w, const struct rline *l);
/* the NTCreateX of description @d: the line, or its placeholder */
void wr_open_line(struct ctx *c, struct rdesc *d, uint32_t path, int opts,
		  int disp, bool inherited);
/* the handle of @d for a call that needs one (0: it has none) */
int32_t wr_handle(struct ctx *c, struct rdesc *d);
int64_t wr_size_now(const struct tnode *t);
bool wr_is_dir(const struct rec_writer *w, uint32_t n, uint32_t flags);
/* the description of descriptor @fd for a call on a file: NULL (and
 * counted) when it is no file under --root.  strace -y names the files of
 * descriptors opened before the log began: they are taken as inherited. */
struct rdesc *wr_desc(struct ctx *c, int fd, const char *fdpath);
/* the absolute path of a call's (dirfd, path), counted when unknown */
char *wr_path(struct ctx *c, int dirfd, const char *path, const char *fdpath);
/* the loadfile path of @rel, counted when a loadfile cannot hold it */
uint32_t wr_lpath(struct ctx *c, const char *rel);
/* a line on a path: Qpathinfo, Unlink, Rmdir, Mkdir, Qfsinfo */
struct rline *wr_path_line(struct ctx *c, int op, const char *rel);
bool wr_errno_in(int64_t ret, const int *errs, size_t n);
/* a call on @abs, outside --root: counted, the first ones kept with
 * where the trace showed them */
void wr_outside(struct ctx *c, const char *abs);

/* writer_files.c */
void wr_on_open(struct ctx *c);
void wr_on_rw(struct ctx *c);
void wr_on_lock(struct ctx *c);
void wr_on_fd_info(struct ctx *c, int op);
void wr_on_getdents(struct ctx *c);
void wr_on_truncate(struct ctx *c);

/* writer_names.c */
void wr_on_rename(struct ctx *c);
void wr_on_path(struct ctx *c);
void wr_on_utimes_path(struct ctx *c);
void wr_on_other(struct ctx *c);

#endif
