/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * netbench.h - what the files of gen_netbench share (the model is at the
 * top of tools/gen_netbench.c): the ops and their reference counts, the
 * file kinds, the simulated share's nodes and handles, the counters of
 * what was written, and the functions each file offers the others.
 *   plan.c    the random source, the lines written, the plan they follow
 *   share.c   the simulated share and its operations (one line each)
 *   office.c  files as office applications write them, the activities
 *   steer.c   which activity next, the background calls, the evening
 */
#ifndef GEN_NETBENCH_H
#define GEN_NETBENCH_H

#include <stdbool.h>
#include <stdint.h>

#define ROOT		"\\clients\\client1"
#define TARGET_LINES	75000		/* plan reaches the mix */
#define PATH_LEN	96		/* paths are kept to 80 chars */
#define MAX_NODES	8192
#define MAX_HANDLES	30		/* open at once */
#define FNUM_BASE	10001
#define LOCK_OFFSET	2147483538L	/* database "user lock" byte */
#define MAX_IO		65536L
#define MAX_END		(16L << 20)
#define KB		1024L

#define OK		"NT_STATUS_OK"
#define NOT_FOUND	"NT_STATUS_OBJECT_NAME_NOT_FOUND"
#define PATH_NOT_FOUND	"NT_STATUS_OBJECT_PATH_NOT_FOUND"
#define NO_SUCH_FILE	"NT_STATUS_NO_SUCH_FILE"

enum op {
	OP_READX, OP_NTCREATEX, OP_QPATHINFO, OP_CLOSE, OP_WRITEX,
	OP_FINDFIRST, OP_UNLINK, OP_QFSINFO, OP_QFILEINFO, OP_SFILEINFO,
	OP_FLUSH, OP_RENAME, OP_LOCKX, OP_UNLOCKX, OP_DELTREE, OP_MKDIR,
	OP_RMDIR, OP_SLEEP, NR_OPS
};

/* Op counts of dbench 4.0's client.txt (458344 lines); 0 = structural. */
#define REF_TOTAL	458344
struct opdef {
	const char *name;
	int64_t ref;
};
extern const struct opdef opdef[NR_OPS];
/* client.txt's expected failures in NTCreateX, QPI and FIND_FIRST */
#define NTC_FAIL	21030
#define QPI_FAIL	24385
#define FIND_FAIL	14328

enum kind { K_DIR, K_DOC, K_XLS, K_PPT, K_MDB, K_TXT, K_DOT, K_PST, K_TMP };
#define M(k)		(1u << (k))
#define M_FILE		(~M(K_DIR))

struct kind_def {
	const char *ext;
	long min, max;		/* size range of the working-set files */
};
extern const struct kind_def kinds[K_TMP + 1];
#define NR_DEPTS	6	/* office[1..6] */

/* A directory or file of the simulated share. */
struct node {
	char path[PATH_LEN];
	int parent;
	enum kind kind;
	long size;
	bool exists;
	int nopen;
};
extern struct node nodes[MAX_NODES];

/* share.c: the nodes, the handles, what the lines did */
extern int nnodes, handle_fnum[MAX_HANDLES], handle_node[MAX_HANDLES];
extern int next_fnum, nopen, peak_open;
extern long ntc_fail, qpi_fail, find_fail;
extern long footprint, peak_footprint, max_end;
extern double bytes_read, bytes_written;
/* office.c: the folders, the mailbox's handle */
extern int temp_seq, d_dept[NR_DEPTS + 1], d_tmpl, d_scratch, h_mail;
/* plan.c: the lines written */
extern long count[NR_OPS], base_count[NR_OPS], base_lines, nlines;
/* steer.c: background calls */
extern long filler_lines;

#define FNUM(h)		handle_fnum[h]
#define FILE_OF(h)	(&nodes[handle_node[h]])

/* ---- plan.c ---- */
void die(const char *msg) __attribute__((noreturn));
long rnd(long n);
long rnd_range(long lo, long hi);
bool chance(int pct);
void emit(enum op op, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int64_t deficit(enum op op);
bool fails_below(long fails, int64_t ref_fails, enum op op);

/* ---- share.c ---- */
int node(int parent, const char *name, enum kind kind);
const char *base_name(int n);
int pick(int dir, unsigned int kindmask, bool closed);
int op_open(int n, int options, int disp);
void op_close(int h);
void op_open_missing(const char *path);
int op_mkdir_open(int parent, const char *name);
void op_read(int h, long off, long len);
void op_write(int h, long off, long len);
void op_fh(enum op op, int h, int level);
void op_lock(enum op op, int h);
void op_qpi(const char *path, int level);
void op_qfs(void);
void op_find(int dir, const char *pat);
void op_unlink(int n);
void op_rename(int from, int to);

/* ---- office.c ---- */
void set_up_office(void);
void edit_document(void);
void view_document(void);
void browse_folder(void);
void temp_file(void);
void review_folder(void);
void db_session(void);
void unpack_archive(void);

/* ---- steer.c ---- */
#define NR_ACTIVITIES	6
struct activity {
	void (*fn)(void);
	const char *name;
	int weight;		/* per mille */
	enum op key;		/* skip while this op is ahead */
	long runs;
};
extern struct activity activity[NR_ACTIVITIES];
int next_activity(void);
bool fill_one(int64_t slack);
void end_of_day(void);

#endif
