/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * dblog.c - read dbench's text output back into a struct result: the
 * banner, the Running line, the progress lines, the first latency table
 * (4.0's, later dbench's wider one, or --machine-readable rows), the
 * per-client tables and the final Throughput line.  One pass with a small
 * state machine; everything it does not know is ignored, except inside a
 * table, where a line that is not a row is an error.
 *
 * The time series is rebuilt from the progress lines once the client count
 * (on the last line) is known, one point of 1 s per line:
 *  - t: the seconds column; an execute line adds the warmup length, since
 *    dbench restarts its clock when the warmup ends.  That length is the
 *    Running line's warmup, or one second after the last warmup line when
 *    clients without I/O made dbench 4.0 stay longer; with warmup 0 there
 *    is no restart (nor any reset of the figures).
 *  - lines: the lines column is cumulative lines per client since the
 *    start (integer division), so a point gets the difference to the
 *    previous line times the client count.
 *  - bytes: an ESTIMATE.  The MB/sec column is the average since the phase
 *    start, so MB/sec x seconds x 1e6 is the phase's cumulative byte count
 *    and a point gets the difference to the previous line of its phase.
 *    Both figures are rounded (0.01 MB/s, whole seconds, and the real tick
 *    comes a little late), so single points are off by up to a few
 *    percent; a difference below zero gives 0.
 * The silent tick that ends the warmup is in the first execute point's
 * lines, not in its bytes.  Per-op counts, max and p99 per point are
 * unknown (0).
 */
#include "dblog.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define DBLOG_MAX_LINE 65536 /* longer lines are not dbench's */
#define DBLOG_MAX_TOK  16
#define DBLOG_MAX_MSG  512 /* error lines kept up to this length */
/* largest ns or byte figure accepted: below 2^63, so llround is defined */
#define DBLOG_MAX_VAL 9.2e18

static const char hdr_tput[] = "Throughput ";
static const char hdr_run[] = "Running for ";
static const char hdr_ver4[] = "dbench version ";
static const char hdr_verng[] = "dbench-ng version ";
static const char hdr_table[] = " Operation      Count    AvgLat    MaxLat";
static const char hdr_wide[] = " Operation                Count    AvgLat    "
			       "MaxLat";

enum dblog_state {
	DBLOG_TEXT, /* between sections */
	DBLOG_RULE, /* after a table header: the dashed rule */
	DBLOG_ROWS, /* table rows, until a blank line */
	DBLOG_SKIP, /* a dbench-ng section we do not read, until a blank */
};

/* Where the rows of the table being read go. */
#define DBLOG_DISCARD (-2)
#define DBLOG_TOTAL   (-1)

/* One progress line, turned into a point at the end. */
struct dblog_prog {
	bool execute;
	int active;    /* first column */
	int64_t lines; /* loadfile lines per client, since the start */
	double mbs;    /* MB/s since the phase start */
	double sec;    /* seconds since the phase start */
	double lat_ms; /* the latency column */
};

struct dblog_ctx {
	const char *name;
	char *err;
	size_t errlen;
	struct result *r;
	unsigned long lineno;
	enum dblog_state state;
	bool banner, running, tput, table, machine, interrupted;
	bool run_failed; /* dbench-ng's "Run failed ..." marker */
	int target;	    /* DBLOG_DISCARD, DBLOG_TOTAL or a client */
	int client_pending; /* client whose table comes next, or -1 */
	bool seen[OP_NR];   /* rows of the current table */
	int launch_procs;   /* from "N of N processes prepared", or 0 */
	struct dblog_prog *prog;
	size_t nprog, capprog;
	size_t nclients_cap;
	char *msg[RESULT_MAX_MSGS]; /* ring of the last error lines */
	unsigned int nmsg;
};

static int fail_at(struct dblog_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int fail_at(struct dblog_ctx *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!c->err || !c->errlen)
		return -1;
	n = snprintf(c->err, c->errlen, "%s:%lu: ", c->name, c->lineno);
	if (n < 0 || (size_t)n >= c->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static int fail_file(struct dblog_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int fail_file(struct dblog_ctx *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!c->err || !c->errlen)
		return -1;
	n = snprintf(c->err, c->errlen, "%s: ", c->name);
	if (n < 0 || (size_t)n >= c->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static bool starts(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && !memcmp(s, prefix, k);
}

/* ------------------------------ numbers -------------------------------- */

/* dblog_u64 - all digits, no sign, no overflow */
static bool dblog_u64(const char *s, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && !*end;
}

static bool dblog_i64(const char *s, int64_t *v)
{
	const char *d = *s == '-' ? s + 1 : s;
	char *end;

	if (*d < '0' || *d > '9')
		return false;
	errno = 0;
	*v = strtoll(s, &end, 10);
	return !errno && !*end;
}

/* dblog_int - a non-negative int */
static bool dblog_int(const char *s, int *v)
{
	uint64_t u;

	if (!dblog_u64(s, &u) || u > INT32_MAX)
		return false;
	*v = (int)u;
	return true;
}

/* dblog_num - a finite non-negative decimal number (no hex, inf, nan) */
static bool dblog_num(const char *s, double *v)
{
	char *end;

	if (((*s < '0' || *s > '9') && *s != '.') || strpbrk(s, "xXpP"))
		return false;
	errno = 0;
	*v = strtod(s, &end);
	return !*end && isfinite(*v) && *v >= 0 && errno != ERANGE;
}

/* dblog_ns - @ms milliseconds times @n in ns, if it fits */
static bool dblog_ns(double ms, uint64_t n, uint64_t *ns)
{
	double x = ms * 1e6 * (double)n;

	if (!(x >= 0 && x < DBLOG_MAX_VAL))
		return false;
	*ns = (uint64_t)llround(x);
	return true;
}

/* dblog_split - split @s in place at @sep (whitespace if 0) into at most
 * @max tokens; returns the count, or max + 1 when there are more.  With a
 * separator, empty fields count. */
static int dblog_split(char *s, char sep, char **tok, int max)
{
	int n = 0;

	if (sep) {
		for (;;) {
			char *e = strchr(s, sep);

			if (n == max)
				return max + 1;
			tok[n++] = s;
			if (!e)
				return n;
			*e = '\0';
			s = e + 1;
		}
	}
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			return n;
		if (n == max)
			return max + 1;
		tok[n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = '\0';
	}
}

/* ------------------------------ lines ---------------------------------- */

static int dblog_banner(struct dblog_ctx *c, const char *line, bool ng)
{
	struct result *r = c->r;
	const char *v = line + strlen(ng ? hdr_verng : hdr_ver4);
	size_t n = strcspn(v, " \t");

	if (c->banner)
		return fail_at(c, "a second dbench run starts here (one run "
				  "per log, please split it)");
	free(r->tool);
	free(r->version);
	r->tool = strdup(ng ? "dbench-ng" : "dbench");
	r->version = n ? strndup(v, n) : NULL;
	if (!r->tool || (n && !r->version))
		return fail_at(c, "out of memory");
	c->banner = true;
	return 0;
}

/* Running for %d seconds with load '%s' and minimum warmup %d secs */
static int dblog_running(struct dblog_ctx *c, char *line)
{
	static const char mid[] = " seconds with load '";
	static const char tail[] = "' and minimum warmup ";
	struct result *r = c->r;
	char *p = line + strlen(hdr_run), *q, *load, *w;
	int timelimit, warmup;
	size_t n;

	if (c->running)
		return fail_at(c, "a second 'Running for' line");
	n = strspn(p, "0123456789");
	q = strstr(p, mid);
	if (!n || q != p + n)
		return fail_at(c, "cannot read the 'Running for' line");
	*q = '\0';
	load = q + strlen(mid);
	/* the load may hold quotes: the last tail is the real one */
	for (w = NULL, q = load; (q = strstr(q, tail)); q++)
		w = q;
	if (!w || !dblog_int(p, &timelimit))
		return fail_at(c, "cannot read the 'Running for' line");
	*w = '\0';
	w += strlen(tail);
	n = strspn(w, "0123456789");
	if (!n || strcmp(w + n, " secs"))
		return fail_at(c, "cannot read the 'Running for' line");
	w[n] = '\0';
	if (!dblog_int(w, &warmup))
		return fail_at(c, "cannot read the 'Running for' line");
	r->owned[0] = strdup(load);
	if (!r->owned[0])
		return fail_at(c, "out of memory");
	r->cfg.loadfile = r->owned[0];
	r->cfg.timelimit = timelimit;
	r->cfg.warmup = warmup;
	c->running = true;
	return 0;
}

static int dblog_set_tput(struct dblog_ctx *c, double tp, int nclients,
			  int nprocs, double maxlat)
{
	struct result *r = c->r;

	if (c->tput)
		return fail_at(c, "a second Throughput line");
	r->throughput = tp;
	r->max_latency_ms = maxlat;
	r->cfg.nclients = nclients;
	r->cfg.nprocs = nprocs;
	r->cfg.cpp = nprocs ? nclients / nprocs : 0;
	c->tput = true;
	return 0;
}

/* Throughput %g MB/sec[ (sync open)][ (sync dirs)]  %d clients  %d procs
 * max_latency=%.03f ms */
static int dblog_throughput(struct dblog_ctx *c, char *line)
{
	char *t[DBLOG_MAX_TOK];
	int n = dblog_split(line, 0, t, DBLOG_MAX_TOK), i = 3;
	bool so = false, sd = false;
	int ncl, nproc;
	double tp, ml;

	if (n < 9 || n > 13 || !dblog_num(t[1], &tp) || strcmp(t[2], "MB/sec"))
		goto bad;
	if (i + 1 < n && !strcmp(t[i], "(sync") && !strcmp(t[i + 1], "open)")) {
		so = true;
		i += 2;
	}
	if (i + 1 < n && !strcmp(t[i], "(sync") && !strcmp(t[i + 1], "dirs)")) {
		sd = true;
		i += 2;
	}
	if (n != i + 6 || !dblog_int(t[i], &ncl) ||
	    strcmp(t[i + 1], "clients") || !dblog_int(t[i + 2], &nproc) ||
	    strcmp(t[i + 3], "procs") ||
	    strncmp(t[i + 4], "max_latency=", 12) ||
	    !dblog_num(t[i + 4] + 12, &ml) || strcmp(t[i + 5], "ms"))
		goto bad;
	if (dblog_set_tput(c, tp, ncl, nproc, ml))
		return -1;
	c->r->cfg.sync_open = so;
	c->r->cfg.sync_dirs = sd;
	return 0;
bad:
	return fail_at(c, "cannot read the Throughput line");
}

/* --machine-readable: ;%g;%d;%d;%.03f; */
static int dblog_mr_final(struct dblog_ctx *c, char *line)
{
	char *t[8];
	int ncl, nproc;
	double tp, ml;

	if (dblog_split(line, ';', t, 8) != 6 || *t[0] || *t[5] ||
	    !dblog_num(t[1], &tp) || !dblog_int(t[2], &ncl) ||
	    !dblog_int(t[3], &nproc) || !dblog_num(t[4], &ml))
		return fail_at(c, "cannot read the final ';throughput;clients;"
				  "procs;max_latency;' line");
	c->machine = true;
	return dblog_set_tput(c, tp, ncl, nproc, ml);
}

static int dblog_add_prog(struct dblog_ctx *c, const struct dblog_prog *p)
{
	if (c->nprog && c->prog[c->nprog - 1].execute && !p->execute)
		return fail_at(c, "a warmup line after the execute phase");
	/* bytes of the phase so far, in ns-like range for llround */
	if (!(p->mbs * 1e6 * p->sec < DBLOG_MAX_VAL) || p->sec > 1e9)
		return fail_at(c, "progress figures out of range");
	if (c->nprog == c->capprog) {
		size_t cap = c->capprog ? 2 * c->capprog : 64;
		struct dblog_prog *np = realloc(c->prog, cap * sizeof(*np));

		if (!np)
			return fail_at(c, "out of memory");
		c->prog = np;
		c->capprog = cap;
	}
	c->prog[c->nprog++] = *p;
	return 0;
}

/* %4d  %8d  %7.2f MB/sec  warmup|execute %3.0f sec  latency %.03f ms */
static int dblog_progress(struct dblog_ctx *c, char **t, int n)
{
	struct dblog_prog p = {0};

	p.execute = !strcmp(t[4], "execute");
	if (n != 10 || !dblog_int(t[0], &p.active) ||
	    !dblog_i64(t[1], &p.lines) || !dblog_num(t[2], &p.mbs) ||
	    !dblog_num(t[5], &p.sec) || strcmp(t[6], "sec") ||
	    strcmp(t[7], "latency") || !dblog_num(t[8], &p.lat_ms) ||
	    strcmp(t[9], "ms"))
		return fail_at(c, "cannot read the progress line");
	return dblog_add_prog(c, &p);
}

/* --machine-readable: @W@%d@%d@%.2f@%u@%.03f@ (W, R; C is ignored) */
static int dblog_mr_progress(struct dblog_ctx *c, char *line)
{
	struct dblog_prog p = {0};
	char *t[10];

	if (line[1] == 'C' || (line[1] != 'W' && line[1] != 'R') ||
	    line[2] != '@')
		return 0;
	p.execute = line[1] == 'R';
	if (dblog_split(line, '@', t, 10) != 8 || *t[7] ||
	    !dblog_int(t[2], &p.active) || !dblog_i64(t[3], &p.lines) ||
	    !dblog_num(t[4], &p.mbs) || !dblog_num(t[5], &p.sec) ||
	    !dblog_num(t[6], &p.lat_ms))
		return fail_at(c, "cannot read the progress line");
	c->machine = true;
	return dblog_add_prog(c, &p);
}

/* Client %u did %u lines and %.0f bytes */
static int dblog_client(struct dblog_ctx *c, char **t, int n)
{
	struct result *r = c->r;
	struct result_client *cl;
	uint64_t id, lines;
	double bytes;

	if (n != 8 || !dblog_u64(t[1], &id) || !dblog_u64(t[3], &lines) ||
	    strcmp(t[4], "lines") || strcmp(t[5], "and") ||
	    !dblog_num(t[6], &bytes) || strcmp(t[7], "bytes") ||
	    bytes >= DBLOG_MAX_VAL)
		return fail_at(c, "cannot read the 'Client N did' line");
	if (id != (uint64_t)r->nclients)
		return fail_at(c,
			       "client %" PRIu64 " where client %d was "
			       "expected",
			       id, r->nclients);
	if (r->nclients == INT32_MAX)
		return fail_at(c, "too many clients");
	if ((size_t)r->nclients == c->nclients_cap) {
		size_t cap = c->nclients_cap ? 2 * c->nclients_cap : 16;
		struct result_client *nc =
			realloc(r->clients, cap * sizeof(*nc));

		if (!nc)
			return fail_at(c, "out of memory");
		r->clients = nc;
		c->nclients_cap = cap;
	}
	cl = &r->clients[r->nclients];
	memset(cl, 0, sizeof(*cl));
	cl->lines = lines;
	cl->bytes = (uint64_t)llround(bytes);
	c->client_pending = r->nclients++;
	return 0;
}

static bool dblog_is_header(const char *line)
{
	char copy[96], *t[5];

	if (!strcmp(line, hdr_table) || !strcmp(line, hdr_wide))
		return true;
	/* any spacing: split a copy, the caller may still need the line */
	if (strncmp(line, " Operation ", 11) || strlen(line) >= sizeof(copy))
		return false;
	strcpy(copy, line);
	return dblog_split(copy, 0, t, 4) == 4 && !strcmp(t[1], "Count") &&
	       !strcmp(t[2], "AvgLat") && !strcmp(t[3], "MaxLat");
}

static void dblog_table_start(struct dblog_ctx *c)
{
	if (c->client_pending >= 0) {
		c->target = c->client_pending;
		c->client_pending = -1;
	} else if (!c->table) {
		c->target = DBLOG_TOTAL;
		c->table = true;
	} else {
		c->target = DBLOG_DISCARD;
	}
	memset(c->seen, 0, sizeof(c->seen));
	c->state = DBLOG_RULE;
}

static bool dblog_is_rule(const char *line)
{
	size_t n = strspn(line + 1, "-");

	return line[0] == ' ' && n >= 10 && !line[1 + n];
}

/* ` %-12s %7u %9.03f %9.03f`, ` %-22s ...` or `:%s:%u:%.03f:%.03f:` */
static int dblog_row(struct dblog_ctx *c, char *line)
{
	char *t[8];
	const char *label, *avg_s, *max_s;
	uint64_t count, sum, max;
	double avg, mx;
	int op;

	if (line[0] == ':') {
		if (dblog_split(line, ':', t, 8) != 6 || *t[0] || *t[5])
			return fail_at(c, "cannot read the table row");
		t[0] = t[1];
		t[1] = t[2];
		t[2] = t[3];
		t[3] = t[4];
		c->machine = true;
	} else if (dblog_split(line, 0, t, 4) != 4) {
		return fail_at(c, "cannot read the table row (a label and "
				  "three numbers expected)");
	}
	label = t[0];
	avg_s = t[2];
	max_s = t[3];
	op = op_by_label(label);
	if (op < 0)
		op = op_lookup(label);
	if (op < 0)
		return fail_at(c, "unknown operation '%.64s' in the table",
			       label);
	if (!dblog_u64(t[1], &count))
		return fail_at(c, "bad count '%.32s'", t[1]);
	/* dbench prints nan for a client that did none of a shown op */
	if (!count && strstr(avg_s, "nan") &&
	    strspn(avg_s, "-nan") == strlen(avg_s))
		avg_s = "0";
	if (!dblog_num(avg_s, &avg) || !dblog_num(max_s, &mx))
		return fail_at(c, "bad latency in the table row");
	if (!dblog_ns(avg, count, &sum) || !dblog_ns(mx, 1, &max))
		return fail_at(c, "latency out of range in the table row");
	if (c->seen[op])
		return fail_at(c, "a second row for %s", op_info[op].label);
	c->seen[op] = true;
	if (c->target == DBLOG_TOTAL) {
		struct hist *h = &c->r->op[op].h;

		h->count = count;
		h->sum = sum;
		h->max = max;
	} else if (c->target >= 0) {
		struct result_client *cl = &c->r->clients[c->target];

		cl->count[op] = count;
		cl->sum_ns[op] = sum;
		cl->max_ns[op] = max;
	}
	return 0;
}

/* Keep the last lines that look like an error, for a failed run. */
static int dblog_note(struct dblog_ctx *c, const char *line, size_t n)
{
	char **slot = &c->msg[c->nmsg % RESULT_MAX_MSGS];

	if (!strstr(line, "ERROR") && !strcasestr(line, "failed"))
		return 0;
	if (starts(line, n, "failed to create barrier semaphore"))
		return 0;
	line += strspn(line, " \t");
	free(*slot);
	*slot = strndup(line, DBLOG_MAX_MSG);
	if (!*slot)
		return fail_at(c, "out of memory");
	c->nmsg++;
	return 0;
}

static int dblog_text(struct dblog_ctx *c, char *line, size_t n)
{
	char *t[DBLOG_MAX_TOK];
	int nt, a, b;

	if (!n)
		return 0;
	if (starts(line, n, hdr_ver4))
		return dblog_banner(c, line, false);
	if (starts(line, n, hdr_verng))
		return dblog_banner(c, line, true);
	if (starts(line, n, hdr_run))
		return dblog_running(c, line);
	if (starts(line, n, hdr_tput))
		return dblog_throughput(c, line);
	if (line[0] == ';')
		return dblog_mr_final(c, line);
	if (line[0] == '@')
		return dblog_mr_progress(c, line);
	if (starts(line, n, " Latency ms ") ||
	    starts(line, n, " Unexpected results")) {
		c->state = DBLOG_SKIP;
		return 0;
	}
	if (!strcmp(line, "Per client results:")) {
		c->r->cfg.per_client = true;
		return 0;
	}
	if (starts(line, n, "Run failed ")) {
		c->run_failed = true;
		return dblog_note(c, line, n); /* the errors went to stderr */
	}
	if (sscanf(line, "Interrupted by signal %d", &a) == 1) {
		c->interrupted = true;
		c->r->signal = a;
		return 0;
	}
	if (sscanf(line, "%d of %d processes prepared for launch", &a, &b) ==
	    2) {
		c->launch_procs = b;
		return 0;
	}
	if (dblog_is_header(line)) {
		dblog_table_start(c);
		return 0;
	}
	if (starts(line, n, "Client ") && c->r->cfg.per_client) {
		nt = dblog_split(line, 0, t, DBLOG_MAX_TOK);
		if (nt >= 3 && !strcmp(t[2], "did"))
			return dblog_client(c, t, nt);
		return 0;
	}
	if (dblog_note(c, line, n))
		return -1;
	nt = dblog_split(line, 0, t, DBLOG_MAX_TOK);
	if (nt >= 5 && !strcmp(t[3], "MB/sec") &&
	    (!strcmp(t[4], "execute") || !strcmp(t[4], "warmup")))
		return dblog_progress(c, t, nt);
	return 0;
}

static int dblog_line(struct dblog_ctx *c, char *line, size_t n)
{
	switch (c->state) {
	case DBLOG_RULE:
		if (!dblog_is_rule(line))
			return fail_at(c, "the dashed rule under the table "
					  "header is missing");
		c->state = DBLOG_ROWS;
		return 0;
	case DBLOG_ROWS:
		if (!n) {
			c->state = DBLOG_TEXT;
			return 0;
		}
		return dblog_row(c, line);
	case DBLOG_SKIP:
		if (!n)
			c->state = DBLOG_TEXT;
		return 0;
	case DBLOG_TEXT:
		break;
	}
	return dblog_text(c, line, n);
}

/* ------------------------------ the end -------------------------------- */

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	uint64_t x;

	return __builtin_mul_overflow(a, b, &x) ? UINT64_MAX : x;
}

/* The client count the lines column is divided by. */
static int dblog_nclients(const struct dblog_ctx *c)
{
	int exec = 0, any = 0;

	if (c->tput && c->r->cfg.nclients > 0)
		return c->r->cfg.nclients;
	for (size_t i = 0; i < c->nprog; i++) {
		if (c->prog[i].execute && c->prog[i].active > exec)
			exec = c->prog[i].active;
		if (c->prog[i].active > any)
			any = c->prog[i].active;
	}
	if (exec)
		return exec;
	if (c->r->nclients)
		return c->r->nclients;
	return any;
}

static int dblog_points(struct dblog_ctx *c)
{
	struct result *r = c->r;
	const struct dblog_prog *p = c->prog;
	uint64_t ncl = (uint64_t)dblog_nclients(c);
	double last_wsec = -1, offset = 0, prev_cum = 0;
	size_t first_exec = c->nprog;
	bool restart;
	int64_t prev_lines = 0;

	for (size_t i = 0; i < c->nprog; i++) {
		if (p[i].execute) {
			first_exec = i;
			break;
		}
		last_wsec = p[i].sec;
	}
	/* dbench restarts its clock and figures at the warmup end, unless
	 * the warmup is 0; without a Running line, see whether it did */
	if (c->running)
		restart = r->cfg.warmup > 0;
	else
		restart = first_exec < c->nprog && last_wsec >= 0 &&
			  p[first_exec].sec <= last_wsec;
	if (restart)
		offset = fmax(r->cfg.warmup, last_wsec + 1);
	if (first_exec == c->nprog)
		r->warmup_s = last_wsec > 0 ? last_wsec : 0;
	else
		r->warmup_s = offset;

	r->interval_s = 1;
	for (size_t i = 0; i < c->nprog; i++) {
		struct result_point pt;
		double cum = p[i].mbs * 1e6 * p[i].sec;

		memset(&pt, 0, sizeof(pt));
		if (i == first_exec && restart)
			prev_cum = 0;
		pt.t = p[i].execute ? offset + p[i].sec : p[i].sec;
		pt.dur = 1;
		pt.warmup = !p[i].execute;
		if (p[i].lines > prev_lines)
			pt.lines = sat_mul((uint64_t)(p[i].lines - prev_lines),
					   ncl);
		prev_lines = p[i].lines;
		if (cum > prev_cum)
			pt.bytes = (uint64_t)llround(cum - prev_cum);
		prev_cum = cum;
		pt.latency_ms = p[i].lat_ms;
		if (p[i].execute)
			r->measured_s = p[i].sec;
		if (result_add_point(r, &pt))
			return fail_file(c, "out of memory");
	}
	return 0;
}

static int dblog_finish(struct dblog_ctx *c)
{
	struct result *r = c->r;
	bool failed;

	if (!c->table && !c->tput)
		return fail_file(c, "no dbench result found (expected a "
				    "'Throughput ... MB/sec' line)");
	if (c->tput && r->cfg.per_client && r->nclients != r->cfg.nclients)
		return fail_file(c,
				 "per-client results for %d clients, the "
				 "Throughput line says %d",
				 r->nclients, r->cfg.nclients);
	if (!r->tool) {
		r->tool = strdup("dbench");
		if (!r->tool)
			return fail_file(c, "out of memory");
	}
	if (!c->tput) {
		r->cfg.nclients = dblog_nclients(c);
		r->cfg.nprocs = c->launch_procs;
		r->cfg.cpp =
			r->cfg.nprocs ? r->cfg.nclients / r->cfg.nprocs : 0;
	}
	r->cfg.machine = c->machine;
	r->has_bins = false;
	/* later dbench's --machine-readable always prints throughput 0:
	 * take the last execute line's, which is what it should be */
	if (c->machine && c->tput && r->throughput == 0) {
		for (size_t i = c->nprog; i-- > 0;) {
			if (c->prog[i].execute) {
				r->throughput = c->prog[i].mbs;
				break;
			}
		}
	}
	if (dblog_points(c))
		return -1;

	failed = !c->tput || (!c->table && c->nmsg) || c->run_failed;
	if (failed) {
		unsigned int n =
			c->nmsg < RESULT_MAX_MSGS ? c->nmsg : RESULT_MAX_MSGS;

		r->status = RESULT_FAILED;
		r->signal = 0;
		for (unsigned int i = c->nmsg - n; i < c->nmsg; i++) {
			char **m = &c->msg[i % RESULT_MAX_MSGS];

			r->errors[r->nerrors++] = *m;
			*m = NULL;
		}
	} else if (c->interrupted) {
		r->status = RESULT_INTERRUPTED;
	}
	return 0;
}

/* ------------------------------ entry points --------------------------- */

bool dblog_detect(const char *text, size_t len)
{
	size_t pos = 0;

	while (pos < len) {
		const char *s = text + pos;
		const char *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;

		pos += n + 1;
		if (starts(s, n, hdr_tput) && memmem(s, n, " MB/sec", 7))
			return true;
		if (starts(s, n, hdr_table) || starts(s, n, hdr_wide) ||
		    starts(s, n, hdr_ver4) || starts(s, n, hdr_verng))
			return true;
	}
	return false;
}

/* Where processing starts: the banner line, or the start without one. */
static size_t dblog_begin(const char *text, size_t len, unsigned long *line)
{
	size_t pos = 0;
	unsigned long no = 1;

	while (pos < len) {
		const char *s = text + pos;
		const char *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;

		if (starts(s, n, hdr_ver4) || starts(s, n, hdr_verng)) {
			*line = no;
			return pos;
		}
		pos += n + 1;
		no++;
	}
	*line = 1;
	return 0;
}

static void dblog_ctx_free(struct dblog_ctx *c)
{
	free(c->prog);
	for (int i = 0; i < RESULT_MAX_MSGS; i++)
		free(c->msg[i]);
}

int dblog_parse(const char *name, const char *text, size_t len,
		struct result *r, char *err, size_t errlen)
{
	struct dblog_ctx c = {
		.name = name ? name : "(log)",
		.err = err,
		.errlen = errlen,
		.r = r,
		.state = DBLOG_TEXT,
		.client_pending = -1,
	};
	const char *nul = memchr(text, '\0', len);
	char *buf = NULL;
	size_t pos;
	int rc = 0;

	if (err && errlen)
		err[0] = '\0';
	if (nul) {
		c.lineno = 1;
		for (const char *s = text; s < nul; s++)
			c.lineno += *s == '\n';
		return fail_at(&c, "NUL byte: this is not a text log");
	}
	buf = malloc(DBLOG_MAX_LINE + 1);
	if (!buf)
		return fail_file(&c, "out of memory");
	pos = dblog_begin(text, len, &c.lineno);
	for (; pos < len && !rc; c.lineno++) {
		const char *s = text + pos;
		const char *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;

		pos += n + 1;
		while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' ||
			     s[n - 1] == '\t'))
			n--;
		if (n > DBLOG_MAX_LINE) {
			if (c.state == DBLOG_RULE || c.state == DBLOG_ROWS ||
			    (c.state == DBLOG_TEXT &&
			     (starts(s, n, hdr_tput) || starts(s, n, hdr_run) ||
			      starts(s, n, "Client "))))
				rc = fail_at(&c, "line too long (%zu bytes)",
					     n);
			continue;
		}
		memcpy(buf, s, n);
		buf[n] = '\0';
		rc = dblog_line(&c, buf, n);
		/* an unterminated last line is a truncated log: skip it */
		if (rc && !nl) {
			rc = 0;
			if (err && errlen)
				err[0] = '\0';
		}
	}
	if (!rc)
		rc = dblog_finish(&c);
	free(buf);
	dblog_ctx_free(&c);
	return rc;
}
