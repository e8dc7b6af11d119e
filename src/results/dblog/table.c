/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * table.c - the latency tables of a dbench log (4.0's, the wider one,
 * machine-readable rows), the error lines kept, and the dispatch of a
 * line by the state of the reader.
 */
#include "dblog_impl.h"

static bool dblog_is_header(const char *line)
{
	char copy[96], *t[5];

	if (!strcmp(line, TXT_TABLE) || !strcmp(line, TXT_TABLE_WIDE) ||
	    !strcmp(line, TXT_OPS_TABLE))
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
	size_t n = line[0] == ' ' ? strspn(line + 1, "-") : 0;

	if (!n && line[0] == ' ')
		n = strspn(line + 1, "="); /* our table's */
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
			return dblog_fail_at(c, "cannot read the table row");
		t[0] = t[1];
		t[1] = t[2];
		t[2] = t[3];
		t[3] = t[4];
		c->machine = true;
	} else if (dblog_split(line, 0, t, 4) != 4) {
		return dblog_fail_at(c, "cannot read the table row (a label and "
				  "three numbers expected)");
	}
	/* our table's "NTCreateX:" (what is not a result) */
	if (line[0] != ':' && *t[0] && t[0][strlen(t[0]) - 1] == ':')
		t[0][strlen(t[0]) - 1] = '\0';
	label = t[0];
	avg_s = t[2];
	max_s = t[3];
	op = op_by_label(label);
	if (op < 0)
		op = op_lookup(label);
	if (op < 0)
		return dblog_fail_at(c, "unknown operation '%.64s' in the table",
			       label);
	if (!dblog_u64(t[1], &count))
		return dblog_fail_at(c, "bad count '%.32s'", t[1]);
	/* dbench prints nan for a client that did none of a shown op */
	if (!count && strstr(avg_s, "nan") &&
	    strspn(avg_s, "-nan") == strlen(avg_s))
		avg_s = "0";
	if (!dblog_num(avg_s, &avg) || !dblog_num(max_s, &mx))
		return dblog_fail_at(c, "bad latency in the table row");
	if (!dblog_ns(avg, count, &sum) || !dblog_ns(mx, 1, &max))
		return dblog_fail_at(c, "latency out of range in the table row");
	if (c->seen[op])
		return dblog_fail_at(c, "a second row for %s", op_info[op].label);
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
	if (dblog_starts(line, n, "failed to create barrier semaphore"))
		return 0;
	line += strspn(line, " \t");
	free(*slot);
	*slot = strndup(line, DBLOG_MAX_MSG);
	if (!*slot)
		return dblog_fail_at(c, "out of memory");
	c->nmsg++;
	return 0;
}

static int dblog_text(struct dblog_ctx *c, char *line, size_t n)
{
	char *t[DBLOG_MAX_TOK];
	int nt, a, b;

	if (!n)
		return 0;
	if (dblog_starts(line, n, TXT_VERSION_4))
		return dblog_banner(c, line, false);
	if (dblog_starts(line, n, TXT_VERSION_NG))
		return dblog_banner(c, line, true);
	if (dblog_starts(line, n, TXT_RUNNING))
		return dblog_running(c, line);
	if (dblog_starts(line, n, TXT_TPUT))
		return dblog_throughput(c, line);
	if (line[0] == ';')
		return dblog_mr_final(c, line);
	if (line[0] == '@')
		return dblog_mr_progress(c, line);
	if (dblog_starts(line, n, TXT_PCT_TABLE " ") ||
	    dblog_starts(line, n, TXT_RESP_TABLE " ") ||
	    dblog_starts(line, n, TXT_UNEXPECTED)) {
		c->state = DBLOG_SKIP;
		return 0;
	}
	if (dblog_starts(line, n, TXT_NOT_RUN ":")) {
		c->state = DBLOG_NOT_RUN;
		return 0;
	}
	if (!strcmp(line, TXT_PER_CLIENT)) {
		c->r->cfg.per_client = true;
		return 0;
	}
	if (dblog_starts(line, n, TXT_PARTIAL) ||
	    dblog_starts(line, n, TXT_RUN_FIGURES))
		return dblog_partial(c, line);
	if (dblog_starts(line, n, TXT_RUN_FAILED)) {
		c->run_failed = true;
		return dblog_note(c, line, n); /* the errors went to stderr */
	}
	if (dblog_starts(line, n, TXT_CHECKPOINT)) {
		c->checkpoint = true;
		return 0;
	}
	if (sscanf(line, TXT_INTERRUPTED "%d", &a) == 1) {
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
	if (dblog_starts(line, n, TXT_CLIENT) && c->r->cfg.per_client) {
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

/* A row of dbench-ng's "Not run" section: " LockX:   341  why". */
static int dblog_not_run(struct dblog_ctx *c, const char *line)
{
	char label[16];
	unsigned long long count;
	int pos = 0, op;
	struct result_op *ro;

	if (sscanf(line, " %15[A-Za-z]: %llu %n", label, &count, &pos) < 2 ||
	    !pos || (op = op_by_label(label)) < 0)
		return dblog_fail_at(c, "cannot read the row of the ops not "
				     "run");
	ro = &c->r->op[op];
	ro->not_run = count;
	free(ro->not_run_why);
	ro->not_run_why = line[pos] ? strdup(line + pos) : NULL;
	return 0;
}

int dblog_line(struct dblog_ctx *c, char *line, size_t n)
{
	switch (c->state) {
	case DBLOG_RULE:
		if (!dblog_is_rule(line))
			return dblog_fail_at(c, "the dashed rule under the table "
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
	case DBLOG_NOT_RUN:
		if (!n) {
			c->state = DBLOG_TEXT;
			return 0;
		}
		return dblog_not_run(c, line);
	case DBLOG_TEXT:
		break;
	}
	return dblog_text(c, line, n);
}
