/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * result_json_write_stalls.c - a result's time series, stalls and
 * disturbance as objects of its JSON file: the points, the stall events
 * with their samples and why they waited (BPF), the folded stacks, the
 * pressure (PSI) and what else ran on the machine.
 */
#include "result_json_write_impl.h"

#include <string.h>

json_t *series_json(const struct result *r)
{
	json_t *o = json_object(), *pts = json_array();

	set(o, "interval_s", json_real(r->interval_s));
	for (uint32_t k = 0; k < r->npoints; k++) {
		const struct result_point *p = &r->points[k];
		json_t *x = json_object();

		set(x, "t", json_real(p->t));
		set(x, "dur", json_real(p->dur));
		set(x, "warmup", json_boolean(p->warmup));
		set(x, "lines", u64(p->lines));
		set(x, "bytes", u64(p->bytes));
		set(x, "mbps",
		    json_real(p->dur > 0 ? (double)p->bytes / 1e6 / p->dur
					 : 0));
		set(x, "latency_ms", json_real(p->latency_ms));
		set(x, "ops", opmap_json(&jm_point_ops, p));
		if (r->resp.valid)
			set(x, "resp_ops", opmap_json(&jm_point_resp, p));
		json_array_append_new(pts, x);
	}
	set(o, "op_fields", opmap_fields(&jm_point_ops));
	if (r->resp.valid)
		set(o, "resp_op_fields", opmap_fields(&jm_point_resp));
	set(o, "points", pts);
	return o;
}

static json_t *psi_json(const struct result_psi *psi)
{
	json_t *o = json_object();

	for (int i = 0; i < PSI_NR; i++) {
		json_t *x;

		if (!psi[i].valid) {
			set(o, psi_name[i], json_null());
			continue;
		}
		x = json_object();
#define PSI_JSON_DBL(v) json_real(v)
#define PSI_JSON_U64(v) u64(v)
#define X(f, T)		set(x, #f, PSI_JSON_##T(psi[i].f));
		PSI_FIELDS(X)
#undef X
		set(o, psi_name[i], x);
	}
	return o;
}

/* @v, or null when it is @unknown or less (the "unknown" markers of
 * struct result_disturb) */
static json_t *known(double v, double unknown)
{
	return v > unknown ? json_real(v) : json_null();
}

json_t *disturb_json(const struct result_disturb *d)
{
	json_t *o, *p;

	if (!d->valid)
		return json_null();
	o = json_object();
	p = json_object();
	set(o, "seconds", json_real(d->seconds));
	set(o, "other_cpus", json_real(d->other_cpus));
	set(o, "steal_pct", known(d->steal_pct, -1));
	set(o, "load1_start", known(d->load1_start, -1));
	set(o, "load1_end", known(d->load1_end, -1));
	for (int i = 0; i < PSI_NR; i++)
		set(p, psi_name[i], known(d->psi_some_ms[i], -1));
	set(o, "psi_some_ms", p);
	set(o, "cpu_mhz_min", known(d->mhz_min, 0));
	set(o, "cpu_mhz_max", known(d->mhz_max, 0));
	set(o, "disturbed", json_boolean(result_disturbed(d)));
	return o;
}

/* One sleep of a stalled op and its waker (BPF) */
static json_t *wait_json(const struct result_wait *w)
{
	json_t *o = json_object();
	char state[2] = {w->state ? w->state : '?', 0};

	set(o, "at_ms", json_real(w->at_ms));
	set(o, "blocked_ms", json_real(w->blocked_ms));
	set(o, "runq_ms", json_real(w->runq_ms));
	set(o, "state", json_string(state));
	set(o, "woken", json_boolean(w->woken));
	set(o, "stack", str_or_null(w->stack));
	set(o, "waker_pid",
	    w->woken ? json_integer(w->waker_pid) : json_null());
	set(o, "waker_comm", str_or_null(w->waker_comm));
	set(o, "waker_client",
	    w->waker_client >= 0 ? json_integer(w->waker_client) : json_null());
	set(o, "waker_context", json_string(waker_ctx_name(w->waker_ctx)));
	set(o, "waker_stack", str_or_null(w->waker_stack));
	return o;
}

/* Why a stalled op waited (BPF), or null without the tracing */
static json_t *offcpu_json(const struct result_offcpu *oc)
{
	json_t *o, *w;

	if (!oc->valid)
		return json_null();
	o = json_object();
	w = json_array();
	set(o, "blocked_ms", json_real(oc->blocked_ms));
	set(o, "runq_ms", json_real(oc->runq_ms));
	set(o, "sleeps", json_integer(oc->sleeps));
	set(o, "preempted", json_integer(oc->preempted));
	set(o, "partial", json_boolean(oc->partial));
	if (oc->holder[0]) /* optional: who held the CPU it waited for */
		set(o, "holder",
		    json_pack("{s:s, s:f, s:s}", "comm", oc->holder, "ms",
			      oc->holder_ms, "kind",
			      holder_kind_name(oc->holder_kind)));
	for (int i = 0; i < oc->nwaits; i++)
		json_array_append_new(w, wait_json(&oc->waits[i]));
	set(o, "waits", w);
	return o;
}

/* How the stalls were explained, and where the stalled ops spent their
 * time (BPF): keys of the stalls object */
static void offcpu_run_json(json_t *st, const struct result_offcpu_run *oc)
{
	json_t *b, *a, *x;

	set(st, "method", str_or_null(oc->method));
	set(st, "method_note", str_or_null(oc->method_note));
	if (!oc->method || strcmp(oc->method, "bpf")) {
		set(st, "bpf", json_null());
		return;
	}
	b = json_object();
	set(b, "intervals", u64(oc->intervals));
	set(b, "lost", u64(oc->lost));
	set(b, "stack_errors", u64(oc->stack_errors));
	set(b, "overflow", u64(oc->overflow));
	set(b, "stack_min_ms", json_real(oc->stack_min_ms));
	set(b, "symbols", json_boolean(oc->symbols));
	set(b, "irq_method", str_or_null(oc->irq_method));
	a = json_array();
	for (int i = 0; i < oc->npairs; i++) {
		const struct result_wait_pair *p = &oc->pairs[i];

		x = json_object();
		set(x, "op", json_string(op_info[p->op].label));
		set(x, "kind", json_string(wait_kind_name(p->kind)));
		set(x, "count", u64(p->count));
		set(x, "ms", json_real(p->ms));
		if (p->kind == WAIT_SLEEP) {
			set(x, "stack", str_or_null(p->stack));
			set(x, "waker_client", json_boolean(p->waker_client));
			set(x, "waker_context",
			    json_string(waker_ctx_name(p->waker_ctx)));
			set(x, "waker_comm", str_or_null(p->waker_comm));
			set(x, "waker_stack", str_or_null(p->waker_stack));
		}
		json_array_append_new(a, x);
	}
	set(b, "waits", a);
	x = json_object();
	set(x, "count", u64(oc->other_count));
	set(x, "ms", json_real(oc->other_ms));
	set(b, "waits_other", x);
	set(st, "bpf", b);
}

json_t *stalls_json(const struct result_stalls *st)
{
	json_t *o = json_object(), *ev = json_array();
	json_t *fo = json_array();
	char state[2] = "?";

	set(o, "enabled", json_boolean(st->enabled));
	set(o, "threshold_ms", json_real(st->threshold_ms));
	set(o, "total", u64(st->total));
	set(o, "warmup_total", u64(st->warmup_total));
	set(o, "per_op", opmap_json(&jm_stall_ops, st));
	for (int k = 0; k < st->nevents; k++) {
		const struct result_stall *e = &st->events[k];
		json_t *x = json_object(), *sm = json_array();

		set(x, "op", json_string(op_info[e->op].label));
		set(x, "duration_ms", json_real(e->duration_ms));
		set(x, "ended", json_boolean(e->ended));
		set(x, "warmup", json_boolean(e->warmup));
		set(x, "client", json_integer(e->client));
		set(x, "pid", json_integer(e->pid));
		set(x, "start_s", json_real(e->start_s));
		set(x, "start_time", str_or_null(e->start_time));
		set(x, "file", str_or_null(e->file));
		set(x, "line", json_integer(e->line));
		set(x, "path", str_or_null(e->path));
		if (e->host) { /* a run across hosts */
			set(x, "host", json_string(e->host));
			set(x, "rank", json_integer(e->rank));
		}
		set(x, "psi_start", psi_json(e->psi_start));
		set(x, "psi_end", psi_json(e->psi_end));
		for (int i = 0; i < e->nsamples; i++) {
			const struct result_stall_sample *p = &e->samples[i];
			json_t *y = json_object();

			state[0] = p->state;
			set(y, "t_ms", json_real(p->t_ms));
			set(y, "state", json_string(state));
			set(y, "repeat", json_integer(p->repeat));
			set(y, "wchan", str_or_null(p->wchan));
			set(y, "stack", str_or_null(p->stack));
			json_array_append_new(sm, y);
		}
		set(x, "samples", sm);
		set(x, "offcpu", offcpu_json(&e->offcpu));
		json_array_append_new(ev, x);
	}
	set(o, "events", ev);
	for (int i = 0; i < st->nfolded; i++) {
		json_t *x = json_object();

		set(x, "stack", json_string(st->folded[i].stack));
		set(x, "count", u64(st->folded[i].count));
		json_array_append_new(fo, x);
	}
	set(o, "folded_stacks", fo);
	set(o, "folded_other", u64(st->folded_other));
	set(o, "unsampled", u64(st->unsampled));
	set(o, "note", str_or_null(st->note));
	offcpu_run_json(o, &st->offcpu);
	return o;
}
