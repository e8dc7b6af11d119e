/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lf_line.c - the line parser: one loadfile line, checked (fields,
 * numbers, status, text, handle use) and compiled into a struct lf_op.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lf_impl.h"
#include "num.h"
#include "utf8.h"

static int parse_int(struct parser *ps, const char *tok, const char *what,
		     int64_t min, int64_t max, int64_t *out)
{
	char sh[72];

	switch (num_i64(tok, NUM_BASE0, min, max, out)) {
	case NUM_OK:
		return 0;
	case NUM_SYNTAX:
		return lf_perr(ps, "%s '%s' is not a number", what,
			       lf_shorten(tok, sh, sizeof(sh)));
	case NUM_RANGE:
		break;
	}
	return lf_perr(ps, "%s %s is out of range (%lld..%lld)", what,
		       lf_shorten(tok, sh, sizeof(sh)), (long long)min,
		       (long long)max);
}

static int parse_status(struct parser *ps, const char *tok, uint8_t *expect)
{
	char sh[72];

	if (!strcmp(tok, "NT_STATUS_OK") || !strcmp(tok, "SUCCESS")) {
		*expect = LF_EXPECT_OK;
	} else if (!strncmp(tok, "NT_STATUS_", 10) || !strcmp(tok, "ERROR")) {
		*expect = LF_EXPECT_FAIL;
	} else if (!strcmp(tok, "*")) {
		*expect = LF_EXPECT_ANY;
	} else if (!strncasecmp(tok, "0x", 2) && tok[2]) {
		char *end;
		unsigned long long v;

		errno = 0;
		v = strtoull(tok + 2, &end, 16);
		if (*end || errno)
			goto bad;
		*expect = v ? LF_EXPECT_FAIL : LF_EXPECT_OK;
	} else {
		goto bad;
	}
	return 0;
bad:
	return lf_perr(ps,
		       "bad status '%s' (expected NT_STATUS_..., 0x..., "
		       "SUCCESS, ERROR or *)",
		       lf_shorten(tok, sh, sizeof(sh)));
}

/* Split @line in place into tokens: spaces and tabs separate, double
 * quotes group and are removed.  Returns the count or -1. */
static int tokenize(struct parser *ps, char *line, char **tok)
{
	int n = 0;
	char *r = line, *w;

	for (;;) {
		bool quoted = false;

		while (*r == ' ' || *r == '\t')
			r++;
		if (!*r)
			break;
		if (n == MAX_TOKENS)
			return lf_perr(ps, "too many fields (at most %d)",
				       MAX_TOKENS);
		tok[n++] = w = r;
		while (*r && (quoted || (*r != ' ' && *r != '\t'))) {
			if (*r == '"')
				quoted = !quoted;
			else
				*w++ = *r;
			r++;
		}
		if (quoted)
			return lf_perr(ps, "unterminated quote");
		if (*r)
			r++;
		*w = 0;
	}
	return n;
}

/*
 * An operation line may hold printable text only: no control character
 * but the tab (a name with an escape sequence would reach the terminal
 * in messages) and valid UTF-8 (names go into the JSON and HTML
 * results, which are UTF-8).  Comment lines are not checked.
 */
static int check_text(struct parser *ps, const char *line)
{
	const unsigned char *s = (const unsigned char *)line;
	size_t n = strlen(line), i = 0, k;

	while (i < n) {
		if (s[i] == '\r')
			return lf_perr(ps,
				       "carriage return at column %zu (only "
				       "one just before the line end is "
				       "allowed)",
				       i + 1);
		if ((s[i] < 0x20 && s[i] != '\t') || s[i] == 0x7f)
			return lf_perr(ps,
				       "control character 0x%02x at column %zu",
				       s[i], i + 1);
		k = utf8_seq(s + i, n - i, NULL);
		if (!k)
			return lf_perr(ps,
				       "invalid UTF-8 (byte 0x%02x at column "
				       "%zu)",
				       s[i], i + 1);
		/* U+0080..U+009F: the C1 control characters */
		if (k == 2 && s[i] == 0xc2 && s[i + 1] < 0xa0)
			return lf_perr(ps,
				       "control character U+%04X at column %zu",
				       s[i + 1], i + 1);
		i += k;
	}
	return 0;
}

/*
 * Follow handle use in file order (see struct hstate): a use that must
 * fail in every client's first pass is refused now, before anything runs.
 */
static int check_handle(struct parser *ps, const struct lf_op *op,
			const char *kw)
{
	struct hstate *h = &ps->hstate[op->handle];
	int32_t fnum = ps->p->fnums[op->handle];

	if (op->type == OP_NTCREATEX) {
		if (op->expect != LF_EXPECT_FAIL)
			*h = (struct hstate){H_OPEN, ps->line};
		else if (h->kind == H_NEVER)
			*h = (struct hstate){H_FAILOPEN, ps->line};
		return 0;
	}
	switch (h->kind) {
	case H_NEVER:
		return lf_perr(ps,
			       "%s: handle %d is used before it is opened (no "
			       "NTCreateX of it on an earlier line)",
			       kw, fnum);
	case H_FAILOPEN:
		return lf_perr(
			ps,
			"%s: handle %d is never opened: its NTCreateX at "
			"line %u expects failure",
			kw, fnum, h->line);
	case H_CLOSED:
		return lf_perr(ps,
			       "%s: handle %d was closed at line %u and not "
			       "opened again",
			       kw, fnum, h->line);
	default:
		break;
	}
	if (op->type == OP_CLOSE)
		*h = (struct hstate){H_CLOSED, ps->line};
	return 0;
}

/* "REPEAT N": the next op line is compiled N times (dbench 5) */
static int parse_repeat(struct parser *ps, char **tok, int n)
{
	int64_t v;

	if (ps->repeat)
		return lf_perr(ps,
			       "REPEAT after the REPEAT at line %u (a "
			       "REPEAT repeats the operation line after it)",
			       ps->repeat_line);
	if (n != 2)
		return lf_perr(ps,
			       "REPEAT takes one count (REPEAT N), "
			       "found %d",
			       n - 1);
	if (parse_int(ps, tok[1], "REPEAT count", 1, LF_MAX_REPEAT, &v))
		return -1;
	ps->repeat = (uint32_t)v;
	ps->repeat_line = ps->line;
	return 0;
}

int lf_parse_end(struct parser *ps)
{
	if (!ps->repeat)
		return 0;
	ps->line = ps->repeat_line;
	return lf_perr(ps, "REPEAT is not followed by an operation line");
}

/* An 'O' argument: a number (0..2^61-1) or an offset expression, whose
 * index in program.exprs arg[@ni] then holds */
static int parse_offset(struct parser *ps, struct lf_op *op, const char *a,
			int ni)
{
	struct program *p = ps->p;
	char why[96], sh[72];
	struct lf_expr x;
	int rc = lf_expr_parse(a, &x, why, sizeof(why));

	if (rc > 0)
		return parse_int(ps, a, "offset", 0, (int64_t)LF_MAX_OFF,
				 &op->arg[ni]);
	if (rc < 0)
		return lf_perr(ps, "bad offset expression '%s': %s",
			       lf_shorten(a, sh, sizeof(sh)), why);
	if (lf_vec_grow((void **)&p->exprs, p->nexprs, &ps->cap_exprs,
			sizeof(*p->exprs)))
		return lf_oom(ps);
	p->exprs[p->nexprs] = x;
	op->arg[ni] = p->nexprs++;
	op->flags |= LF_F_XOFF;
	return 0;
}

/* The arguments of @shape the line must have: all but an optional 'i' */
static size_t shape_min(const char *shape)
{
	size_t n = strlen(shape);

	return n && shape[n - 1] == 'i' ? n - 1 : n;
}

/* The checks of dbench 5's READ3 and WRITE3: a size as ReadX's, counted
 * as its bytes; WRITE3's stable how (0 UNSTABLE, 1 DATA_SYNC, 2
 * FILE_SYNC) */
static int check_rw3(struct parser *ps, struct lf_op *op)
{
	struct program *p = ps->p;

	if (op->arg[1] < 0 || op->arg[1] > LF_MAX_IO)
		return lf_perr(ps, "size out of range (0..%u)", LF_MAX_IO);
	if (op->type == OP_WRITE3 && (op->arg[2] < 0 || op->arg[2] > 2))
		return lf_perr(ps,
			       "stable %lld is not 0 (UNSTABLE), 1 "
			       "(DATA_SYNC) or 2 (FILE_SYNC)",
			       (long long)op->arg[2]);
	op->io_bytes[0] = op->io_bytes[1] = (uint32_t)op->arg[1];
	if (op->arg[1] > p->max_io)
		p->max_io = (uint32_t)op->arg[1];
	return 0;
}

/* The copies of the op just compiled that a REPEAT before it asks for */
static int repeat_op(struct parser *ps, const char *kw)
{
	struct program *p = ps->p;
	uint32_t n = ps->repeat - 1;

	ps->repeat = 0;
	if (ps->repeated + n > LF_MAX_REPEAT)
		return lf_perr(ps,
			       "the REPEAT lines add more than %u operation "
			       "lines in all",
			       LF_MAX_REPEAT);
	ps->repeated += n;
	for (uint32_t i = 0; i < n; i++) {
		struct lf_op *op;

		if (lf_vec_grow((void **)&p->ops, p->nops, &ps->cap_ops,
				sizeof(*p->ops)))
			return lf_oom(ps);
		op = &p->ops[p->nops];
		*op = p->ops[p->nops - 1];
		op->line_delta = 0; /* the same line, again */
		if (op->handle != LF_NONE && check_handle(ps, op, kw))
			return -1;
		p->op_count[op->type]++;
		p->nops++;
	}
	return 0;
}

int lf_parse_line(struct parser *ps, char *line, uint32_t prev_line)
{
	struct program *p = ps->p;
	char *tok[MAX_TOKENS], sh[72];
	const char *shape;
	struct lf_op *op;
	int n, t, first = 0, nargs, ni = 0, type;
	int64_t v;

	for (char *c = line; *c == ' ' || *c == '\t'; c++)
		if (c[1] == '#')
			return 0;
	if (line[0] == '#')
		return 0;
	if (check_text(ps, line))
		return -1;
	for (char *c = line; *c; c++) {
		if (*c == '\\')
			*c = '/';
	}
	n = tokenize(ps, line, tok);
	if (n < 0)
		return -1;
	if (n == 0 || tok[0][0] == '#')
		return 0;
	if (!strcasecmp(tok[0], "REPEAT"))
		return parse_repeat(ps, tok, n);
	if (!strncmp(tok[0], "SMB", 3))
		return lf_perr(ps,
			       "this is a dbench 1 loadfile ('%s'); dbench 4 "
			       "loadfiles are needed",
			       lf_shorten(tok[0], sh, sizeof(sh)));
	if (lf_vec_grow((void **)&p->ops, p->nops, &ps->cap_ops,
			sizeof(*p->ops)))
		return lf_oom(ps);
	op = &p->ops[p->nops];
	memset(op, 0, sizeof(*op));
	op->path[0] = op->path[1] = op->handle = LF_NONE;
	op->line = ps->line;
	op->line_delta = ps->line - prev_line;

	if (isdigit((unsigned char)tok[0][0]) ||
	    (strchr("+-.", tok[0][0]) && isdigit((unsigned char)tok[0][1]))) {
		char *end;
		double ts = strtod(tok[0], &end);

		if (*end || !isdigit((unsigned char)tok[0][0]) ||
		    !isfinite(ts) || ts < 0 || ts > 1e7)
			return lf_perr(ps,
				       "bad timestamp '%s' (seconds, a number "
				       "from 0 to 10000000)",
				       lf_shorten(tok[0], sh, sizeof(sh)));
		op->ts_ns = (uint64_t)llround(ts * 1e9);
		p->has_timestamps = 1;
		p->paces |= op->ts_ns != 0;
		first = 1;
	}
	if (n == first)
		return lf_perr(ps, "timestamp '%s' without an operation",
			       lf_shorten(tok[0], sh, sizeof(sh)));
	if (n - first < 2)
		return lf_perr(ps, "'%s' has no status field",
			       lf_shorten(tok[first], sh, sizeof(sh)));
	type = op_lookup(tok[first]);
	if (type < 0)
		return lf_perr(ps, "unknown operation '%s'",
			       lf_shorten(tok[first], sh, sizeof(sh)));
	op->type = (uint8_t)type;
	shape = op_info[type].args;
	nargs = n - first - 2;
	if (nargs != (int)strlen(shape) && nargs != (int)shape_min(shape))
		return shape_min(shape) == strlen(shape)
			       ? lf_perr(ps,
					 "%s takes %zu argument%s and a "
					 "status, found %d",
					 tok[first], strlen(shape),
					 strlen(shape) == 1 ? "" : "s", nargs)
			       : lf_perr(ps,
					 "%s takes %zu or %zu arguments and "
					 "a status, found %d",
					 tok[first], shape_min(shape),
					 strlen(shape), nargs);
	if (parse_status(ps, tok[n - 1], &op->expect))
		return -1;
	v = lf_intern_str(&ps->statmap, &p->status, &p->nstatus,
			  &ps->cap_status, tok[n - 1]);
	if (v < 0)
		return lf_oom(ps);
	op->status = (uint32_t)v;

	for (t = 0; t < nargs; t++) {
		const char *a = tok[first + 1 + t];

		switch (shape[t]) {
		case 'P':
			v = lf_intern_path(ps, a);
			if (v < 0)
				return -1;
			op->path[op->path[0] == LF_NONE ? 0 : 1] = (uint32_t)v;
			break;
		case 'H':
			if (parse_int(ps, a, "handle", INT32_MIN, INT32_MAX,
				      &v))
				return -1;
			v = lf_intern_fnum(ps, (int32_t)v);
			if (v < 0)
				return -1;
			op->handle = (uint32_t)v;
			break;
		case 'O':
			if (parse_offset(ps, op, a, ni))
				return -1;
			ni++;
			break;
		default:
			if (parse_int(ps, a, "argument", INT64_MIN, INT64_MAX,
				      &op->arg[ni]))
				return -1;
			ni++;
			break;
		}
	}

	switch (type) {
	case OP_WRITEX:
	case OP_READX:
		if (op->arg[0] < 0 || op->arg[0] > (INT64_MAX >> 2))
			return lf_perr(ps, "offset %lld is out of range",
				       (long long)op->arg[0]);
		if (op->arg[1] < 0 || op->arg[1] > LF_MAX_IO ||
		    op->arg[2] < 0 || op->arg[2] > LF_MAX_IO)
			return lf_perr(ps, "size out of range (0..%u)",
				       LF_MAX_IO);
		op->io_bytes[0] = (uint32_t)op->arg[1];
		op->io_bytes[1] = (uint32_t)op->arg[2];
		if (op->arg[1] > p->max_io)
			p->max_io = (uint32_t)op->arg[1];
		break;
	case OP_LOCKX:
	case OP_UNLOCKX:
		if (op->arg[0] < 0 || op->arg[1] < 0)
			return lf_perr(ps, "lock range must not be negative");
		break;
	case OP_SLEEP:
		if (op->arg[0] < 0 || op->arg[0] > 3600000000LL)
			return lf_perr(ps,
				       "sleep of %lld us is out of range "
				       "(0..3600000000)",
				       (long long)op->arg[0]);
		break;
	case OP_READ3:
	case OP_WRITE3:
		if (check_rw3(ps, op))
			return -1;
		break;
	case OP_FIND:
		if (strpbrk(p->paths[op->path[0]].full, "<>*?\""))
			op->flags |= LF_F_WILDCARD;
		break;
	case OP_RENAME:
		ps->needs_inval[op->path[1]] = true;
		/* fall through */
	case OP_RMDIR:
		ps->needs_inval[op->path[0]] = true;
		break;
	default:
		break;
	}
	if (op->handle != LF_NONE && check_handle(ps, op, tok[first]))
		return -1;
	p->op_count[type]++;
	p->nops++;
	return ps->repeat ? repeat_op(ps, tok[first]) : 0;
}
