/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * result_json_read_stalls.c - a JSON result's time series, stalls,
 * off-CPU (BPF) accounting and disturbance read back.
 */
#include "result_json_read_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A paced run's point: "resp_ops", optional (absent in older results
 * and in unpaced runs), [count, max_ns, p99_ns, late] per op. */
static void read_point_resp(struct reader *rd, json_t *x, size_t i,
			    struct result_point *p)
{
	json_t *ops = json_object_get(x, "resp_ops");
	char what[64];

	if (!ops)
		return;
	if (!json_is_object(ops)) {
		rerr(rd, "time_series.points[%zu].resp_ops is not an object",
		     i);
		return;
	}
	snprintf(what, sizeof(what), "time_series.points[%zu].resp_ops", i);
	read_opmap(rd, ops, &jm_point_resp, p, what);
}

void read_series(struct reader *rd, json_t *ts, struct result *r)
{
	json_t *pts, *x;
	size_t i;

	if (!ts)
		return;
	pts = get(rd, ts, "time_series.", "points", JSON_ARRAY);
	json_array_foreach(pts, i, x) {
		struct result_point p = {0};
		json_t *ops = get(rd, x, "time_series.points[].", "ops",
				  JSON_OBJECT);
		const char *w = "time_series.points[].";
		char what[48];

		p.t = get_num(rd, x, w, "t");
		p.dur = get_num(rd, x, w, "dur");
		p.warmup = get_bool(rd, x, w, "warmup");
		p.lines = get_u64(rd, x, w, "lines");
		p.bytes = get_u64(rd, x, w, "bytes");
		p.latency_ms = get_num(rd, x, w, "latency_ms");
		snprintf(what, sizeof(what), "time_series.points[%zu].ops", i);
		read_opmap(rd, ops, &jm_point_ops, &p, what);
		read_point_resp(rd, x, i, &p);
		if (rd->failed || result_add_point(r, &p)) {
			rerr(rd, "out of memory");
			return;
		}
	}
	/* the stored interval, not the one re-derived while appending */
	r->interval_s = get_num(rd, ts, "time_series.", "interval_s");
}

static void read_psi(json_t *o, struct result_psi *psi)
{
	for (int i = 0; i < PSI_NR; i++) {
		json_t *x = json_object_get(o, psi_name[i]);

		if (!json_is_object(x))
			continue;
		psi[i].valid = true;
#define PSI_READ_DBL(v) json_number_value(v)
#define PSI_READ_U64(v) (uint64_t)json_integer_value(v)
#define X(f, T) psi[i].f = PSI_READ_##T(json_object_get(x, #f));
		PSI_FIELDS(X)
#undef X
	}
}

/* An optional number: @unknown when absent or null. */
static double get_known(struct reader *rd, json_t *o, const char *where,
			const char *k, double unknown)
{
	json_t *v = json_object_get(o, k);

	if (!v || json_is_null(v))
		return unknown;
	if (!json_is_number(v)) {
		rerr(rd, "field '%s%s' is not a number", where, k);
		return unknown;
	}
	return json_number_value(v);
}

/* What else the machine did; absent in older results, null when it could
 * not be measured.  "disturbed" is derived again, not read. */
void read_disturb(struct reader *rd, json_t *o, struct result *r)
{
	struct result_disturb *d = &r->disturb;
	const char *w = "disturbance.";
	json_t *p;

	if (!o || json_is_null(o))
		return;
	if (!json_is_object(o)) {
		rerr(rd, "field 'disturbance' is not an object");
		return;
	}
	d->seconds = get_num(rd, o, w, "seconds");
	d->other_cpus = get_num(rd, o, w, "other_cpus");
	if (!(d->seconds >= 0) || !(d->other_cpus >= 0))
		rerr(rd, "field 'disturbance.seconds' or 'other_cpus' is "
			 "negative");
	d->steal_pct = get_known(rd, o, w, "steal_pct", -1);
	d->load1_start = get_known(rd, o, w, "load1_start", -1);
	d->load1_end = get_known(rd, o, w, "load1_end", -1);
	p = json_object_get(o, "psi_some_ms");
	for (int i = 0; i < PSI_NR; i++)
		d->psi_some_ms[i] =
			json_is_object(p)
				? get_known(rd, p, "disturbance.psi_some_ms.",
					    psi_name[i], -1)
				: -1;
	d->mhz_min = get_known(rd, o, w, "cpu_mhz_min", 0);
	d->mhz_max = get_known(rd, o, w, "cpu_mhz_max", 0);
	d->valid = true;
}

/* An optional integer: @unknown when absent or null */
static int get_opt_int(struct reader *rd, json_t *o, const char *where,
		       const char *k, int unknown)
{
	json_t *v = json_object_get(o, k);

	if (!v || json_is_null(v))
		return unknown;
	return get_int(rd, o, where, k, 0, INT32_MAX);
}

/* A waker's context by name; an unknown name is an error */
static int get_ctx(struct reader *rd, json_t *o, const char *where)
{
	const char *s = json_string_value(json_object_get(o, "waker_context"));
	int c = waker_ctx_parse(s);

	if (c < 0) {
		rerr(rd, "field '%swaker_context' is not a waker context",
		     where);
		return WAKER_UNKNOWN;
	}
	return c;
}

/* Who held the CPU a stalled op waited for; optional */
static void read_holder(struct reader *rd, json_t *h, struct result_offcpu *oc)
{
	const char *c = json_string_value(json_object_get(h, "comm"));
	int k = holder_kind_parse(json_string_value(json_object_get(h,
								     "kind")));

	if (!h)
		return;
	if (!c || k < 0) {
		rerr(rd, "field 'stalls.events[].offcpu.holder' is not "
			 "{comm, ms, kind}");
		return;
	}
	snprintf(oc->holder, sizeof(oc->holder), "%s", c);
	oc->holder_ms = get_figure(rd, h, "stalls.events[].offcpu.holder.",
				   "ms");
	oc->holder_kind = k;
}

/* Why a stalled op waited (BPF); absent or null without the tracing */
static void read_offcpu(struct reader *rd, json_t *o, struct result_offcpu *oc)
{
	const char *w = "stalls.events[].offcpu.", *ww = "offcpu.waits[].";
	json_t *x;
	size_t i;

	if (!o || json_is_null(o))
		return;
	oc->valid = true;
	oc->blocked_ms = get_num(rd, o, w, "blocked_ms");
	oc->runq_ms = get_num(rd, o, w, "runq_ms");
	oc->sleeps = (uint32_t)get_int(rd, o, w, "sleeps", 0, INT32_MAX);
	oc->preempted = (uint32_t)get_int(rd, o, w, "preempted", 0, INT32_MAX);
	oc->partial = get_bool(rd, o, w, "partial");
	read_holder(rd, json_object_get(o, "holder"), oc);
	json_array_foreach(get(rd, o, w, "waits", JSON_ARRAY), i, x) {
		struct result_wait *v;
		const char *st;

		if (i >= STALL_MAX_WAITS)
			break;
		v = &oc->waits[oc->nwaits++];
		v->at_ms = get_num(rd, x, ww, "at_ms");
		v->blocked_ms = get_num(rd, x, ww, "blocked_ms");
		v->runq_ms = get_num(rd, x, ww, "runq_ms");
		st = json_string_value(json_object_get(x, "state"));
		v->state = st && *st == 'D' ? 'D' : 'S';
		v->woken = get_bool(rd, x, ww, "woken");
		v->stack = get_str(rd, x, ww, "stack");
		v->waker_pid = get_opt_int(rd, x, ww, "waker_pid", 0);
		v->waker_comm = get_str(rd, x, ww, "waker_comm");
		v->waker_client = get_opt_int(rd, x, ww, "waker_client", -1);
		v->waker_ctx = get_ctx(rd, x, ww);
		v->waker_stack = get_str(rd, x, ww, "waker_stack");
	}
}

/* How the stalls were explained, and the per-op table (BPF); absent in
 * older results */
static void read_offcpu_run(struct reader *rd, json_t *o,
			    struct result_offcpu_run *oc)
{
	const char *w = "stalls.bpf.", *ww = "stalls.bpf.waits[].";
	json_t *b = json_object_get(o, "bpf"), *x, *ot;
	size_t i;

	oc->method = get_str(rd, o, "stalls.", "method");
	oc->method_note = get_str(rd, o, "stalls.", "method_note");
	if (!b || json_is_null(b))
		return;
	oc->intervals = get_u64(rd, b, w, "intervals");
	oc->lost = get_u64(rd, b, w, "lost");
	oc->stack_errors = get_u64(rd, b, w, "stack_errors");
	oc->overflow = get_u64(rd, b, w, "overflow");
	oc->stack_min_ms = get_num(rd, b, w, "stack_min_ms");
	oc->symbols = get_bool(rd, b, w, "symbols");
	oc->irq_method = get_str(rd, b, w, "irq_method");
	json_array_foreach(get(rd, b, w, "waits", JSON_ARRAY), i, x) {
		const char *op = json_string_value(json_object_get(x, "op"));
		const char *k = json_string_value(json_object_get(x, "kind"));
		struct result_wait_pair *p;

		if (i >= STALL_MAX_PAIRS)
			break;
		if (op_by_label(op ? op : "") < 0 || wait_kind_parse(k) < 0) {
			rerr(rd, "stalls.bpf.waits[%zu] is not a row of "
				 "waits", i);
			return;
		}
		p = &oc->pairs[oc->npairs++];
		p->op = op_by_label(op);
		p->kind = wait_kind_parse(k);
		p->count = get_u64(rd, x, ww, "count");
		p->ms = get_num(rd, x, ww, "ms");
		p->waker_ctx = WAKER_UNKNOWN;
		if (p->kind != WAIT_SLEEP)
			continue;
		p->stack = get_str(rd, x, ww, "stack");
		p->waker_client = get_bool(rd, x, ww, "waker_client");
		p->waker_ctx = get_ctx(rd, x, ww);
		p->waker_comm = get_str(rd, x, ww, "waker_comm");
		p->waker_stack = get_str(rd, x, ww, "waker_stack");
	}
	ot = get(rd, b, w, "waits_other", JSON_OBJECT);
	if (ot) {
		oc->other_count = get_u64(rd, ot, "stalls.bpf.waits_other.",
					  "count");
		oc->other_ms = get_num(rd, ot, "stalls.bpf.waits_other.", "ms");
	}
}

/* The stalls section; absent in results of older dbench-ng versions. */
void read_stalls(struct reader *rd, json_t *o, struct result *r)
{
	struct result_stalls *st = &r->stalls;
	const char *w = "stalls.";
	json_t *x, *v;
	size_t i, j;

	if (!o)
		return;
	st->enabled = get_bool(rd, o, w, "enabled");
	st->threshold_ms = get_num(rd, o, w, "threshold_ms");
	st->total = get_u64(rd, o, w, "total");
	/* the warmup's own counts: absent in older results, whose total
	 * held them */
	if (json_object_get(o, "warmup_total"))
		st->warmup_total = get_u64(rd, o, w, "warmup_total");
	read_opmap(rd, json_object_get(o, "per_op"), &jm_stall_ops, st,
		   "stalls.per_op");
	if (rd->failed)
		return;
	json_array_foreach(get(rd, o, w, "events", JSON_ARRAY), i, x) {
		struct result_stall *e;
		const char *op = json_string_value(json_object_get(x, "op"));

		if (i >= STALL_MAX_EVENTS || !op || op_by_label(op) < 0) {
			rerr(rd, "stalls.events[%zu] is not a stall event", i);
			return;
		}
		e = &st->events[st->nevents++];
		e->op = op_by_label(op);
		e->duration_ms = get_num(rd, x, "stalls.events[].",
					 "duration_ms");
		e->ended = get_bool(rd, x, "stalls.events[].", "ended");
		e->warmup = json_is_true(json_object_get(x, "warmup"));
		e->client = get_int(rd, x, "stalls.events[].", "client", 0,
				    INT32_MAX);
		e->pid = get_int(rd, x, "stalls.events[].", "pid", 0,
				 INT32_MAX);
		e->start_s = get_num(rd, x, "stalls.events[].", "start_s");
		e->start_time = get_str(rd, x, "stalls.events[].",
					"start_time");
		e->file = get_str(rd, x, "stalls.events[].", "file");
		e->line = (uint32_t)get_int(rd, x, "stalls.events[].", "line",
					    0, INT32_MAX);
		e->path = get_str(rd, x, "stalls.events[].", "path");
		e->host = get_str(rd, x, "stalls.events[].", "host");
		if (e->host)
			e->rank = get_int(rd, x, "stalls.events[].", "rank", 0,
					  INT32_MAX);
		read_psi(json_object_get(x, "psi_start"), e->psi_start);
		read_psi(json_object_get(x, "psi_end"), e->psi_end);
		json_array_foreach(json_object_get(x, "samples"), j, v) {
			struct result_stall_sample *p;
			const char *state;

			if (j >= STALL_MAX_SAMPLES)
				break;
			p = &e->samples[e->nsamples++];
			p->t_ms = get_num(rd, v, "samples[].", "t_ms");
			state = json_string_value(json_object_get(v, "state"));
			p->state = state && *state ? state[0] : '?';
			p->repeat = (uint32_t)get_int(rd, v, "samples[].",
						      "repeat", 0, INT32_MAX);
			p->wchan = get_str(rd, v, "samples[].", "wchan");
			p->stack = get_str(rd, v, "samples[].", "stack");
		}
		read_offcpu(rd, json_object_get(x, "offcpu"), &e->offcpu);
	}
	json_array_foreach(get(rd, o, w, "folded_stacks", JSON_ARRAY), i, x) {
		if (i >= STALL_MAX_FOLDED)
			break;
		st->folded[i].stack = get_str(rd, x, "folded_stacks[].",
					      "stack");
		st->folded[i].count = get_u64(rd, x, "folded_stacks[].",
					      "count");
		st->nfolded = (int)i + 1;
	}
	st->folded_other = get_u64(rd, o, w, "folded_other");
	/* absent in results before the watchdog's budget: none */
	if (json_object_get(o, "unsampled"))
		st->unsampled = get_u64(rd, o, w, "unsampled");
	st->note = get_str(rd, o, w, "note");
	read_offcpu_run(rd, o, &st->offcpu);
}
