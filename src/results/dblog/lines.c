/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lines.c - the single lines of a dbench log: the banner, the Running
 * line, the Throughput line (text and machine-readable), progress
 * lines and the per-client headers.
 */
#include "dblog_impl.h"

int dblog_banner(struct dblog_ctx *c, const char *line, bool ng)
{
	struct result *r = c->r;
	const char *v = line + strlen(ng ? TXT_VERSION_NG : TXT_VERSION_4);
	size_t n = strcspn(v, " \t");

	if (c->banner)
		return dblog_fail_at(c, "a second dbench run starts here (one run "
				  "per log, please split it)");
	free(r->tool);
	free(r->version);
	r->tool = strdup(ng ? "dbench-ng" : "dbench");
	r->version = n ? strndup(v, n) : NULL;
	if (!r->tool || (n && !r->version))
		return dblog_fail_at(c, "out of memory");
	c->banner = true;
	return 0;
}

/* Running for %d seconds with load '%s' and minimum warmup %d secs */
int dblog_running(struct dblog_ctx *c, char *line)
{
	static const char mid[] = " seconds with load '";
	static const char tail[] = "' and minimum warmup ";
	struct result *r = c->r;
	char *p = line + strlen(TXT_RUNNING), *q, *load, *w;
	int timelimit, warmup;
	size_t n;

	if (c->running)
		return dblog_fail_at(c, "a second 'Running for' line");
	n = strspn(p, "0123456789");
	q = strstr(p, mid);
	if (!n || q != p + n)
		return dblog_fail_at(c, "cannot read the 'Running for' line");
	*q = '\0';
	load = q + strlen(mid);
	/* the load may hold quotes: the last tail is the real one */
	for (w = NULL, q = load; (q = strstr(q, tail)); q++)
		w = q;
	if (!w || !dblog_int(p, &timelimit))
		return dblog_fail_at(c, "cannot read the 'Running for' line");
	*w = '\0';
	w += strlen(tail);
	n = strspn(w, "0123456789");
	if (!n || strcmp(w + n, " secs"))
		return dblog_fail_at(c, "cannot read the 'Running for' line");
	w[n] = '\0';
	if (!dblog_int(w, &warmup))
		return dblog_fail_at(c, "cannot read the 'Running for' line");
	r->owned[CFS_loadfile] = strdup(load);
	if (!r->owned[CFS_loadfile])
		return dblog_fail_at(c, "out of memory");
	r->cfg.loadfile = r->owned[CFS_loadfile];
	r->cfg.timelimit = timelimit;
	r->cfg.warmup = warmup;
	c->running = true;
	return 0;
}

static int dblog_set_tput(struct dblog_ctx *c, double tp, int nclients,
			  int nprocs, double maxlat)
{
	struct result *r = c->r;

	if (c->tput || c->partial)
		return dblog_fail_at(c, "a second Throughput line");
	r->throughput = tp;
	r->max_latency_ms = maxlat;
	r->cfg.nclients = nclients;
	r->cfg.nprocs = nprocs;
	r->cfg.cpp = nprocs ? nclients / nprocs : 0;
	c->tput = true;
	return 0;
}

/* TXT_FIGURES: %g MB/sec[ (sync open)][ (sync dirs)]  %d clients  %d
 * procs  max_latency=%.03f ms, in @s; 0, or -1 (nothing set) */
static int dblog_figures(char *s, double *tp, int *ncl, int *nproc, double *ml,
			 bool *so, bool *sd)
{
	char *t[DBLOG_MAX_TOK];
	int n = dblog_split(s, 0, t, DBLOG_MAX_TOK), i = 2;

	*so = *sd = false;
	if (n < 8 || n > 12 || !dblog_num(t[0], tp) || strcmp(t[1], "MB/sec"))
		return -1;
	if (i + 1 < n && !strcmp(t[i], "(sync") && !strcmp(t[i + 1], "open)")) {
		*so = true;
		i += 2;
	}
	if (i + 1 < n && !strcmp(t[i], "(sync") && !strcmp(t[i + 1], "dirs)")) {
		*sd = true;
		i += 2;
	}
	if (n != i + 6 || !dblog_int(t[i], ncl) ||
	    strcmp(t[i + 1], "clients") || !dblog_int(t[i + 2], nproc) ||
	    strcmp(t[i + 3], "procs") ||
	    strncmp(t[i + 4], "max_latency=", 12) ||
	    !dblog_num(t[i + 4] + 12, ml) || strcmp(t[i + 5], "ms"))
		return -1;
	return 0;
}

/* Throughput TXT_FIGURES */
int dblog_throughput(struct dblog_ctx *c, char *line)
{
	bool so, sd;
	int ncl, nproc;
	double tp, ml;

	if (dblog_figures(line + strlen(TXT_TPUT), &tp, &ncl, &nproc, &ml, &so,
			  &sd))
		return dblog_fail_at(c, "cannot read the Throughput line");
	if (dblog_set_tput(c, tp, ncl, nproc, ml))
		return -1;
	c->r->cfg.sync_open = so;
	c->r->cfg.sync_dirs = sd;
	return 0;
}

/* dbench-ng's last line for what is not a result: TXT_PARTIAL "a failed
 * run: " or TXT_RUN_FIGURES "N of M: ", then TXT_FIGURES.  The figures
 * are kept; the run stays failed (or interrupted): no Throughput line. */
int dblog_partial(struct dblog_ctx *c, char *line)
{
	char *p = strstr(line, ": ");
	bool so, sd;
	int ncl, nproc;
	double tp, ml;

	if (!p || dblog_figures(p + 2, &tp, &ncl, &nproc, &ml, &so, &sd))
		return dblog_fail_at(c, "cannot read the figures of the line");
	if (c->partial || c->tput)
		return dblog_fail_at(c, "a second line of final figures");
	c->r->throughput = tp;
	c->r->max_latency_ms = ml;
	c->r->cfg.nclients = ncl;
	c->r->cfg.nprocs = nproc;
	c->r->cfg.cpp = nproc ? ncl / nproc : 0;
	c->r->cfg.sync_open = so;
	c->r->cfg.sync_dirs = sd;
	c->partial = true;
	c->run_figs = dblog_starts(line, strlen(line), TXT_RUN_FIGURES);
	return 0;
}

/* --machine-readable: ;%g;%d;%d;%.03f; */
int dblog_mr_final(struct dblog_ctx *c, char *line)
{
	char *t[8];
	int ncl, nproc;
	double tp, ml;

	if (dblog_split(line, ';', t, 8) != 6 || *t[0] || *t[5] ||
	    !dblog_num(t[1], &tp) || !dblog_int(t[2], &ncl) ||
	    !dblog_int(t[3], &nproc) || !dblog_num(t[4], &ml))
		return dblog_fail_at(c, "cannot read the final ';throughput;clients;"
				  "procs;max_latency;' line");
	c->machine = true;
	return dblog_set_tput(c, tp, ncl, nproc, ml);
}

static int dblog_add_prog(struct dblog_ctx *c, const struct dblog_prog *p)
{
	if (c->nprog && c->prog[c->nprog - 1].execute && !p->execute)
		return dblog_fail_at(c, "a warmup line after the execute phase");
	/* bytes of the phase so far, in ns-like range for llround */
	if (!(p->mbs * 1e6 * p->sec < DBLOG_MAX_VAL) || p->sec > 1e9)
		return dblog_fail_at(c, "progress figures out of range");
	if (c->nprog == c->capprog) {
		size_t cap = c->capprog ? 2 * c->capprog : 64;
		struct dblog_prog *np = realloc(c->prog, cap * sizeof(*np));

		if (!np)
			return dblog_fail_at(c, "out of memory");
		c->prog = np;
		c->capprog = cap;
	}
	c->prog[c->nprog++] = *p;
	return 0;
}

/* %4d  %8d  %7.2f MB/sec  warmup|execute %3.0f sec  latency %.03f ms */
int dblog_progress(struct dblog_ctx *c, char **t, int n)
{
	struct dblog_prog p = {0};

	p.execute = !strcmp(t[4], "execute");
	if (n != 10 || !dblog_int(t[0], &p.active) ||
	    !dblog_i64(t[1], &p.lines) || !dblog_num(t[2], &p.mbs) ||
	    !dblog_num(t[5], &p.sec) || strcmp(t[6], "sec") ||
	    strcmp(t[7], "latency") || !dblog_num(t[8], &p.lat_ms) ||
	    strcmp(t[9], "ms"))
		return dblog_fail_at(c, "cannot read the progress line");
	return dblog_add_prog(c, &p);
}

/* --machine-readable: @W@%d@%d@%.2f@%u@%.03f@ (W, R; C is ignored) */
int dblog_mr_progress(struct dblog_ctx *c, char *line)
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
		return dblog_fail_at(c, "cannot read the progress line");
	c->machine = true;
	return dblog_add_prog(c, &p);
}

/* Client %u did %u lines and %.0f bytes */
int dblog_client(struct dblog_ctx *c, char **t, int n)
{
	struct result *r = c->r;
	struct result_client *cl;
	uint64_t id, lines;
	double bytes;

	if (n != 8 || !dblog_u64(t[1], &id) || !dblog_u64(t[3], &lines) ||
	    strcmp(t[4], "lines") || strcmp(t[5], "and") ||
	    !dblog_num(t[6], &bytes) || strcmp(t[7], "bytes") ||
	    bytes >= DBLOG_MAX_VAL)
		return dblog_fail_at(c, "cannot read the 'Client N did' line");
	if (id != (uint64_t)r->nclients)
		return dblog_fail_at(c,
			       "client %" PRIu64 " where client %d was "
			       "expected",
			       id, r->nclients);
	if (r->nclients == INT32_MAX)
		return dblog_fail_at(c, "too many clients");
	if ((size_t)r->nclients == c->nclients_cap) {
		size_t cap = c->nclients_cap ? 2 * c->nclients_cap : 16;
		struct result_client *nc =
			realloc(r->clients, cap * sizeof(*nc));

		if (!nc)
			return dblog_fail_at(c, "out of memory");
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
