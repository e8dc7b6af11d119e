/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * finish.c - the end of a dbench log: the client count, the series
 * rebuilt from the progress lines, the checks of what must be there.
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
#include "dblog_impl.h"

static uint64_t dblog_sat_mul(uint64_t a, uint64_t b)
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
			pt.lines = dblog_sat_mul((uint64_t)(p[i].lines - prev_lines),
					   ncl);
		prev_lines = p[i].lines;
		if (cum > prev_cum)
			pt.bytes = (uint64_t)llround(cum - prev_cum);
		prev_cum = cum;
		pt.latency_ms = p[i].lat_ms;
		if (p[i].execute)
			r->measured_s = p[i].sec;
		if (result_add_point(r, &pt))
			return dblog_fail_file(c, "out of memory");
	}
	return 0;
}

int dblog_finish(struct dblog_ctx *c)
{
	struct result *r = c->r;
	bool failed;

	if (!c->table && !c->tput && !c->partial)
		return dblog_fail_file(c, "no dbench result found (expected a "
				    "'Throughput ... MB/sec' line)");
	if (c->tput && r->cfg.per_client && r->nclients != r->cfg.nclients)
		return dblog_fail_file(c,
				 "per-client results for %d clients, the "
				 "Throughput line says %d",
				 r->nclients, r->cfg.nclients);
	if (!r->tool) {
		r->tool = strdup("dbench");
		if (!r->tool)
			return dblog_fail_file(c, "out of memory");
	}
	if (!c->tput && !c->partial) {
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

	/* dbench-ng's figures of an interrupted run have no Throughput line:
	 * interrupted, not failed; without the marker they are failed */
	failed = (!c->tput && !c->run_figs &&
		  !(c->partial && (c->interrupted || c->checkpoint))) ||
		 (!c->table && c->nmsg) || c->run_failed;
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
	} else if (c->checkpoint) {
		r->status = RESULT_RUNNING; /* never a result */
	}
	return 0;
}
