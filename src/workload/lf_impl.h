/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lf_impl.h - what the files of the loadfile compiler share (private to
 * src/workload/): the interning maps, the parser's state, and the
 * helpers one file offers the others.  The public interface is
 * loadfile.h.
 */
#ifndef DBNG_LF_IMPL_H
#define DBNG_LF_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loadfile.h"

#define MAX_TOKENS   8
#define MAX_PATH_LEN 1024
#define MAX_NAME_LEN 255

/* An open-addressing map from a key (string or integer) to a dense index. */
struct imap {
	uint64_t *hash; /* 0 = empty slot */
	uint32_t *idx;
	uint32_t cap; /* power of two */
	uint32_t n;
};

struct parser {
	struct program *p;
	const char *name;
	uint32_t line;
	char *err;
	size_t errlen;
	struct imap dirmap, pathmap, fnummap, statmap;
	uint32_t cap_ops, cap_dirs, cap_paths, cap_fnums, cap_status;
	bool *needs_inval; /* per path: used by Rename or Rmdir */
	uint32_t cap_needs;
	struct hstate *hstate; /* per handle slot, see check_handle() */
	uint32_t cap_hstate;
	uint32_t cap_exprs;
	/* REPEAT N: the next op line is compiled N times */
	uint32_t repeat, repeat_line;
	uint64_t repeated; /* lines all REPEATs added */
};

/*
 * What the lines so far do to a handle in a client's first pass, which
 * starts with every handle closed.  A client can only have it open when an
 * NTCreateX that may succeed came after the last Close: any other use
 * fails in the first pass, whatever happens at run time.
 */
enum hkind {
	H_NEVER,    /* no NTCreateX of it yet */
	H_FAILOPEN, /* only NTCreateX that expect failure (register nothing) */
	H_OPEN,	    /* an NTCreateX that may succeed, no Close since */
	H_CLOSED,   /* closed at .line */
};

struct hstate {
	uint8_t kind;  /* enum hkind */
	uint32_t line; /* line of the event kind refers to */
};

/* imap.c: the maps and growable arrays */
uint64_t lf_hash_str(const char *s);
uint64_t lf_hash_int(int64_t v);
int lf_imap_grow(struct imap *m);
void lf_imap_free(struct imap *m);
int lf_vec_grow(void **arr, uint32_t n, uint32_t *cap, size_t elem);
int64_t lf_intern_str(struct imap *m, char ***tab, uint32_t *n, uint32_t *cap,
		      const char *s);

/* loadfile.c: messages */
int lf_perr(struct parser *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int lf_oom(struct parser *ps);

/* lf_paths.c: the path compiler */
const char *lf_shorten(const char *tok, char *buf, size_t len);
int64_t lf_intern_path(struct parser *ps, const char *tok);
int64_t lf_intern_fnum(struct parser *ps, int32_t fnum);
int lf_build_inval(struct parser *ps);

/* lf_line.c: one line into an op */
int lf_parse_line(struct parser *ps, char *line, uint32_t prev_line);
/* the end of the file: a REPEAT with no op after it is refused */
int lf_parse_end(struct parser *ps);

#endif
