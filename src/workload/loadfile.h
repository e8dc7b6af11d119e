/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * loadfile.h - parse a dbench loadfile ONCE into a program: an array of
 * compiled operations that the clients walk without any string work.
 *
 * Paths are interned: the program keeps one table of directories and one
 * of paths (directory index + last component), as templates relative to
 * DIR/clients in which "client1" is later replaced by the client's name.
 * Handles (fnums) are mapped to dense slot numbers, so a client's handle
 * table is a plain array.  Errors name file:line.
 */
#ifndef DBNG_LOADFILE_H
#define DBNG_LOADFILE_H

#include <stddef.h>
#include <stdint.h>

#include "ops.h"

#define LF_NONE	    UINT32_MAX	/* unused path or handle index */
#define LF_MAX_IO   (16u << 20) /* largest ReadX/WriteX size accepted */
#define LF_MAX_LINE 4096	/* longest loadfile line accepted */
#define LF_MAX_BYTES (256u << 20) /* largest loadfile, uncompressed */

enum lf_expect {
	LF_EXPECT_OK,	/* NT_STATUS_OK, 0x0, SUCCESS */
	LF_EXPECT_FAIL, /* any other NT_STATUS_ or 0x value, ERROR */
	LF_EXPECT_ANY,	/* "*": any result is fine */
};

#define LF_F_WILDCARD (1u << 0) /* FIND_FIRST pattern has < > * ? or " */
#define LF_F_XOFF     (1u << 1) /* arg[0] indexes program.exprs (READ3, WRITE3) */

#define LF_MAX_OFF    ((1ull << 61) - 1) /* largest offset a line may name */
#define LF_MAX_REPEAT (1u << 20) /* REPEAT N: N, and the lines all add */
#define LF_EXPR_MAXQ  8		 /* qualifiers of one expression */

/*
 * An offset expression of dbench 5 (docs/loadfile.md, "Offset
 * expressions"): '*' a random 64-bit value, then qualifiers applied left
 * to right ('/' N align down, '%' N modulo, '+' N add, wrapping at
 * 2^64); or "+N", the offset of the client's previous READ3 or WRITE3
 * plus N.  The value is then reduced modulo 2^61.
 */
enum lf_expr_kind {
	LF_X_RANDOM, /* '*' and qualifiers */
	LF_X_REL,    /* '+' N: the previous offset plus N */
};

struct lf_expr {
	uint8_t kind; /* enum lf_expr_kind */
	uint8_t nq;
	char qop[LF_EXPR_MAXQ]; /* '/', '%' or '+' */
	uint64_t qv[LF_EXPR_MAXQ];
};

struct lf_op {
	uint8_t type;	      /* enum op_type */
	uint8_t expect;	      /* enum lf_expect */
	uint16_t flags;	      /* LF_F_* */
	uint32_t line;	      /* physical line in the file, 1-based */
	uint32_t line_delta;  /* lines consumed since the previous op */
	uint32_t status;      /* index into program.status (for messages) */
	uint32_t path[2];     /* path indices or LF_NONE */
	uint32_t handle;      /* handle slot or LF_NONE */
	int64_t arg[3];	      /* the integer arguments, in order */
	uint64_t ts_ns;	      /* timestamp from the start of a pass, 0 none */
	uint32_t io_bytes[2]; /* bytes counted: [0] real I/O, [1] --fake-io */
};

struct lf_path {
	uint32_t dir;	 /* index into program.dirs */
	uint32_t inval;	 /* first entry in program.inval */
	uint32_t ninval; /* dirs at or below this path */
	char *base;	 /* last component ("." for the clients root) */
	char *full;	 /* template relative to DIR/clients */
};

struct program {
	char *name; /* file name used in messages */
	struct lf_op *ops;
	uint32_t nops;
	uint32_t nlines;     /* physical lines in the file */
	uint32_t tail_lines; /* lines after the last op */
	char **dirs;	     /* directory templates; dirs[0] is "." */
	uint32_t ndirs;
	struct lf_path *paths;
	uint32_t npaths;
	uint32_t *inval; /* dir indices, see lf_path.inval */
	int32_t *fnums;	 /* fnum of each handle slot */
	uint32_t nhandles;
	char **status; /* distinct status strings */
	uint32_t nstatus;
	uint32_t max_io; /* largest ReadX/WriteX size */
	struct lf_expr *exprs; /* offset expressions (LF_F_XOFF) */
	uint32_t nexprs;
	uint32_t op_count[OP_NR];
	int has_timestamps;
	/* some op's timestamp is past 0: its clients are paced (client.h,
	 * client_paced), found here once rather than by every client */
	int paces;
	char sha256[65];	/* of the loadfile text (after gunzip) */
	/* ops in a mapping of huge pages of their own (lf_pack_ops), to
	 * unmap in lf_free; NULL: ops is malloc's */
	void *ops_map;
	size_t ops_maplen;
};

/*
 * lf_parse_buffer - compile the loadfile text @data (@len bytes) named
 * @name.  On success returns 0 and sets *@out.  On error returns -1 and
 * writes "NAME:LINE: what is wrong" (without newline) into @err.
 */
int lf_parse_buffer(const char *name, const char *data, size_t len,
		    struct program **out, char *err, size_t errlen);

/*
 * lf_parse_file - read @path (plain or gzip) and compile it, as
 * lf_parse_buffer.  An unreadable file is reported as "PATH: reason".
 */
int lf_parse_file(const char *path, struct program **out, char *err,
		  size_t errlen);

/*
 * lf_expr_parse - @tok as an offset expression into *@x: 0, or -1 with
 * why in @why (a phrase: "'/0' divides by zero").  A token that is a
 * plain number is not an expression: 1.
 */
int lf_expr_parse(const char *tok, struct lf_expr *x, char *why, size_t len);

/*
 * lf_expr_eval - the value of @x (below 2^61) given the random value
 * @rnd (used by LF_X_RANDOM only) and the previous offset @prev (used by
 * LF_X_REL only).  Pure: the caller draws @rnd.
 */
uint64_t lf_expr_eval(const struct lf_expr *x, uint64_t rnd, uint64_t prev);

/* lf_free - release a program. */
void lf_free(struct program *p);

/*
 * lf_subst_client - copy template @tmpl into @dst replacing every
 * "client1" by "client<@id>".  Returns the length, or -1 if it does not fit.
 */
int lf_subst_client(char *dst, size_t dstlen, const char *tmpl, int id);

#endif
