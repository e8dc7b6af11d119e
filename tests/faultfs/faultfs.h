/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * faultfs.h - what the files of faultfs share: the operations, the rules,
 * the globals and the functions one file gives the others.  Internal to
 * tests/faultfs; faultfs.c has the overview.
 */
#ifndef FAULTFS_H
#define FAULTFS_H

#ifndef FUSE_USE_VERSION
#if defined(__has_include)
#if __has_include(<libfuse_config.h>)
/* libfuse >= 3.12: the loop configuration with max_threads */
#define FUSE_USE_VERSION 312
#endif
#endif
#endif
#ifndef FUSE_USE_VERSION
#define FUSE_USE_VERSION 32
#endif

#include <fuse.h>

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define PROG	   "faultfs"
#define SHOWN_MAX  8192 /* the path field of a log line */
#define NS_PER_MS  1000000LL
#define NS_PER_SEC 1000000000LL

/* ------------------------------ operations ----------------------------- */

enum op {
	OP_GETATTR,
	OP_READLINK,
	OP_MKNOD,
	OP_MKDIR,
	OP_UNLINK,
	OP_RMDIR,
	OP_SYMLINK,
	OP_RENAME,
	OP_LINK,
	OP_CHMOD,
	OP_CHOWN,
	OP_TRUNCATE,
	OP_OPEN,
	OP_READ,
	OP_WRITE,
	OP_STATFS,
	OP_FLUSH,
	OP_RELEASE,
	OP_FSYNC,
	OP_SETXATTR,
	OP_GETXATTR,
	OP_LISTXATTR,
	OP_REMOVEXATTR,
	OP_OPENDIR,
	OP_READDIR,
	OP_RELEASEDIR,
	OP_FSYNCDIR,
	OP_ACCESS,
	OP_CREATE,
	OP_UTIMENS,
	OP_FALLOCATE,
	OP_LSEEK,
	OP_ANY,
	NR_OPS
};

extern const char *const op_names[NR_OPS];

/* -------------------------------- rules -------------------------------- */

struct rule {
	enum op op;
	char *pattern;	  /* glob on the relative path; NULL: any */
	long long delay;  /* ms; -1: no delay */
	int err;	  /* errno; 0: no error */
	long long every;  /* inject on every Nth matching call */
	long long period; /* ms; 0: not periodic */
	long long after;  /* ms after mounting */
	long long count;  /* at most this many injections; 0: no limit */
	bool intr;	  /* a signal to the caller cuts the delay: EINTR */
	char dtext[32];	  /* "delay=300", the action field of the log */
	char etext[48];	  /* "error=ENOSPC" */
	/* state, under rules_lock */
	long long calls;  /* matching calls counted */
	long long fired;  /* injections */
	long long origin; /* period grid origin, ns; valid if started */
	long long slot;	  /* last period slot injected into */
	bool started;
};

struct ruleset {
	struct rule *v;
	size_t n;
};

/* faultfs_rules.c */
extern pthread_mutex_t rules_lock;
extern struct ruleset cli_rules;  /* --rule, kept for the whole mount */
extern struct ruleset file_rules; /* --rules FILE, replaced on SIGHUP */

int parse_rule(const char *spec, struct rule *r, char *msg, size_t msglen);
void rule_free(struct rule *r);
void ruleset_free(struct ruleset *rs);
int ruleset_add(struct ruleset *rs, const struct rule *r);
int load_rules_file(const char *path, struct ruleset *rs);
void update_mask(void);
int inject(enum op op, const char *path, const char *path2);

/* faultfs.c */
extern int bfd;			     /* BACKING_DIR */
extern long long mount_ns;	     /* CLOCK_MONOTONIC at mount */
extern struct fuse_session *session; /* set before the loop starts */
extern uid_t self_uid;
extern gid_t self_gid;

long long mono_ns(void);
const char *rel(const char *path);
size_t esc(char *d, size_t n, const char *s);
void log_event(enum op op, const char *shown, const char *action,
	       const char *event, long long at);

/* faultfs_ops.c */
extern const struct fuse_operations ffs_ops;

#endif
