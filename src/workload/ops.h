/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ops.h - every operation a dbench loadfile may contain, in one list.
 *
 * The order of OP_LIST is dbench 4.0's report order (the rows of the
 * classic table), so the table is printed by walking the enum.  Each entry
 * names the loadfile keyword, a short alias, the report label, the shape of
 * its arguments and what a result that differs from the loadfile's status
 * means.
 *
 * Argument shape: one character per token between the keyword and the
 * status: 'P' a path, 'H' a handle (fnum), 'I' an integer, 'O' an offset
 * (an integer or an expression, lf_expr.c), 'i' an integer that may be
 * left out (the last only).
 *
 * The ops after Sleep are dbench 5's NFSv3 ops (op_is_nfs3): a loadfile
 * of its nfs backend (nfs.load) replays them with -B nfs.  Their rows
 * come after the NetBench rows, and like those only when they ran.
 */
#ifndef DBNG_OPS_H
#define DBNG_OPS_H

#include <stdbool.h>

/* What a mismatch between the real result and the expected status means. */
enum op_policy {
	OP_POL_IGNORE,	  /* the status is not checked at all */
	OP_POL_WARN,	  /* mismatch: counted and reported, run goes on */
	OP_POL_FATAL,	  /* mismatch: the client fails, the run ends */
	OP_POL_FATAL_ERR, /* any error is fatal whatever the status says */
	OP_POL_WARN_ERR,  /* any error is counted whatever the status says */
};

/* clang-format off */
/*     id          keyword                   alias        label        args    policy */
#define OP_LIST(X)                                                                       \
	X(NTCREATEX, "NTCreateX",              NULL,        "NTCreateX", "PIIH", OP_POL_WARN)      \
	X(CLOSE,     "Close",                  NULL,        "Close",     "H",    OP_POL_IGNORE)    \
	X(RENAME,    "Rename",                 NULL,        "Rename",    "PP",   OP_POL_FATAL)     \
	X(UNLINK,    "Unlink",                 NULL,        "Unlink",    "PI",   OP_POL_FATAL)     \
	X(DELTREE,   "Deltree",                NULL,        "Deltree",   "P",    OP_POL_IGNORE)    \
	X(RMDIR,     "Rmdir",                  NULL,        "Rmdir",     "P",    OP_POL_FATAL)     \
	X(MKDIR,     "Mkdir",                  NULL,        "Mkdir",     "P",    OP_POL_IGNORE)    \
	X(QPATHINFO, "QUERY_PATH_INFORMATION", "Qpathinfo", "Qpathinfo", "PI",   OP_POL_IGNORE)    \
	X(QFILEINFO, "QUERY_FILE_INFORMATION", "Qfileinfo", "Qfileinfo", "HI",   OP_POL_IGNORE)    \
	X(QFSINFO,   "QUERY_FS_INFORMATION",   "Qfsinfo",   "Qfsinfo",   "I",    OP_POL_IGNORE)    \
	X(SFILEINFO, "SET_FILE_INFORMATION",   "Sfileinfo", "Sfileinfo", "HI",   OP_POL_IGNORE)    \
	X(FIND,      "FIND_FIRST",             "Find",      "Find",      "PIII", OP_POL_IGNORE)    \
	X(WRITEX,    "WriteX",                 NULL,        "WriteX",    "HIII", OP_POL_FATAL_ERR) \
	X(READX,     "ReadX",                  NULL,        "ReadX",     "HIII", OP_POL_WARN_ERR)  \
	X(LOCKX,     "LockX",                  NULL,        "LockX",     "HII",  OP_POL_IGNORE)    \
	X(UNLOCKX,   "UnlockX",                NULL,        "UnlockX",   "HII",  OP_POL_IGNORE)    \
	X(FLUSH,     "Flush",                  NULL,        "Flush",     "H",    OP_POL_IGNORE)    \
	X(SLEEP,     "Sleep",                  NULL,        "Sleep",     "I",    OP_POL_IGNORE)    \
	X(GETATTR3,  "GETATTR3",               NULL,        "GETATTR3",  "P",    OP_POL_FATAL)     \
	X(LOOKUP3,   "LOOKUP3",                NULL,        "LOOKUP3",   "P",    OP_POL_FATAL)     \
	X(CREATE3,   "CREATE3",                NULL,        "CREATE3",   "Pi",   OP_POL_FATAL)     \
	X(WRITE3,    "WRITE3",                 NULL,        "WRITE3",    "POII", OP_POL_FATAL)     \
	X(COMMIT3,   "COMMIT3",                NULL,        "COMMIT3",   "P",    OP_POL_FATAL)     \
	X(READ3,     "READ3",                  NULL,        "READ3",     "POI",  OP_POL_FATAL)     \
	X(REMOVE3,   "REMOVE3",                NULL,        "REMOVE3",   "P",    OP_POL_FATAL)     \
	X(MKDIR3,    "MKDIR3",                 NULL,        "MKDIR3",    "P",    OP_POL_FATAL)     \
	X(RMDIR3,    "RMDIR3",                 NULL,        "RMDIR3",    "P",    OP_POL_FATAL)     \
	X(RENAME3,   "RENAME3",                NULL,        "RENAME3",   "PP",   OP_POL_FATAL)     \
	X(LINK3,     "LINK3",                  NULL,        "LINK3",     "PP",   OP_POL_FATAL)     \
	X(SYMLINK3,  "SYMLINK3",               NULL,        "SYMLINK3",  "PP",   OP_POL_FATAL)     \
	X(READLINK3, "READLINK3",              NULL,        "READLINK3", "P",    OP_POL_FATAL)     \
	X(READDIRPLUS3, "READDIRPLUS3",        NULL,        "READDIRPLUS3", "P", OP_POL_FATAL)     \
	X(ACCESS3,   "ACCESS3",                NULL,        "ACCESS3",   "PII",  OP_POL_FATAL)     \
	X(FSSTAT3,   "FSSTAT3",                NULL,        "FSSTAT3",   "",     OP_POL_FATAL)     \
	X(FSINFO3,   "FSINFO3",                NULL,        "FSINFO3",   "",     OP_POL_FATAL)     \
	X(PATHCONF3, "PATHCONF3",              NULL,        "PATHCONF3", "P",    OP_POL_FATAL)     \
	X(SETATTR3,  "SETATTR3",               NULL,        "SETATTR3",  "P",    OP_POL_FATAL)
/* clang-format on */

/* clang-format off */
enum op_type {
#define X(id, kw, alias, label, args, pol) OP_##id,
	OP_LIST(X)
#undef X
	OP_NR
};
/* clang-format on */

struct op_info {
	const char *keyword; /* dbench loadfile keyword */
	const char *alias;   /* short keyword also accepted, or NULL */
	const char *label;   /* row label in the report */
	const char *args;    /* argument shape, see above */
	enum op_policy policy;
};

extern const struct op_info op_info[OP_NR];

/*
 * op_lookup - map a loadfile keyword (or its alias) to an op, ignoring
 * case as later dbench versions do.  Returns the op or -1.
 */
int op_lookup(const char *keyword);

/* op_by_label - map a report label ("Qpathinfo") to an op, or -1. */
int op_by_label(const char *label);

/* op_is_timed - false for ops that dbench does not time (Sleep). */
static inline bool op_is_timed(enum op_type t)
{
	return t != OP_SLEEP;
}

/* op_is_nfs3 - one of dbench 5's NFSv3 ops (GETATTR3 ... SETATTR3)? */
static inline bool op_is_nfs3(enum op_type t)
{
	return t > OP_SLEEP;
}

#endif
