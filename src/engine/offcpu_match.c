/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * offcpu_match.c - the off-CPU intervals matched with the ops that
 * stalled: an op seen past the threshold opens an accumulation that takes
 * the buffered intervals of its process that fall inside it, keeps its
 * longest sleeps, its (sleep, waker) pairs and who held its CPU, and when
 * it ends fills its stall event and adds to the run's per-op table; the
 * rest of the buffers is dropped as the ops in flight move on.
 */
#include "offcpu_impl.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------ matching ------------------------------- */

static bool same_waker(const struct pair *p, const struct ivl *v, bool ours)
{
	if (p->ctx != v->ctx)
		return false;
	if (p->ctx != WAKER_TASK && p->ctx != WAKER_UNKNOWN)
		return true; /* an interrupt: whoever it interrupted */
	return p->ours == ours && (ours || !strcmp(p->comm, v->comm));
}

/* Add @ns (in @n intervals) to the pair of @kind (and of @v's stacks and
 * waker for a sleep) among @pairs[@*np < @max], or to @other */
static void add_pair(struct pair *pairs, int *np, int max, int op, int kind,
		     const struct ivl *v, uint64_t n, uint64_t ns,
		     uint64_t *other_n, uint64_t *other_ns)
{
	bool ours = v && v->waker_proc >= 0;
	int i;

	for (i = 0; i < *np; i++) {
		struct pair *p = &pairs[i];

		if (p->op == op && p->kind == kind &&
		    (kind != WAIT_SLEEP ||
		     (p->bstack == v->bstack && p->wstack == v->wstack &&
		      same_waker(p, v, ours))))
			break;
	}
	if (i == *np) {
		struct pair *p = &pairs[i];

		if (*np == max) {
			*other_n += n;
			*other_ns += ns;
			return;
		}
		memset(p, 0, sizeof(*p));
		p->op = op;
		p->kind = (uint8_t)kind;
		p->bstack = p->wstack = -1;
		if (kind == WAIT_SLEEP) {
			p->bstack = v->bstack;
			p->wstack = v->wstack;
			p->ctx = v->ctx;
			p->ours = ours;
			if (!ours)
				memcpy(p->comm, v->comm, OFFCPU_COMM);
		}
		(*np)++;
	}
	pairs[i].count += n;
	pairs[i].ns += ns;
}

static uint64_t blocked_of(const struct ivl *v)
{
	return (v->woken ? v->wake : v->on) - v->off;
}

/* @ns of @a's runnable time ended behind @v's holder */
static void held(struct acc *a, const struct ivl *v, uint64_t ns)
{
	int i;

	if (!v->hcomm[0] || !ns)
		return;
	for (i = 0; i < a->nhold; i++) {
		if (a->hold[i].kind == v->hkind &&
		    !strcmp(a->hold[i].comm, v->hcomm))
			break;
	}
	if (i == a->nhold) {
		if (a->nhold == ACC_HOLDERS)
			return; /* a stall of many holders: the first ones */
		memcpy(a->hold[i].comm, v->hcomm, OFFCPU_COMM);
		a->hold[i].kind = v->hkind;
		a->hold[i].ns = 0;
		a->nhold++;
	}
	a->hold[i].ns += ns;
}

/* interval @v belongs to the op of @a */
static void add(struct acc *a, const struct ivl *v)
{
	uint64_t blocked, runq;
	int i;

	if (!v->state) { /* preempted: runnable all along */
		held(a, v, v->hns);
		a->preempted++;
		a->runq += v->on - v->off;
		add_pair(a->pairs, &a->npairs, ACC_PAIRS, 0, WAIT_RUNQ, v, 1,
			 v->on - v->off, &a->other_n, &a->other_ns);
		return;
	}
	blocked = blocked_of(v);
	runq = v->woken ? v->on - v->wake : 0;
	a->sleeps++;
	a->blocked += blocked;
	a->runq += runq;
	held(a, v, v->hns);
	add_pair(a->pairs, &a->npairs, ACC_PAIRS, 0, WAIT_SLEEP, v, 1, blocked,
		 &a->other_n, &a->other_ns);
	if (runq)
		add_pair(a->pairs, &a->npairs, ACC_PAIRS, 0, WAIT_RUNQ, v, 1,
			 runq, &a->other_n, &a->other_ns);
	/* keep the longest sleeps, longest first */
	if (a->ntop == STALL_MAX_WAITS &&
	    blocked_of(&a->top[a->ntop - 1]) >= blocked)
		return;
	if (a->ntop < STALL_MAX_WAITS)
		a->ntop++;
	for (i = a->ntop - 1; i > 0 && blocked_of(&a->top[i - 1]) < blocked;
	     i--)
		a->top[i] = a->top[i - 1];
	a->top[i] = *v;
}

/* Move the buffered records of @proc that left the CPU at @from or later
 * and came back by @upto into @a */
static void absorb(struct offcpu *oc, struct acc *a, int proc, uint64_t from,
		   uint64_t upto)
{
	struct procbuf *b = &oc->buf[proc];
	size_t k = 0;

	for (size_t i = 0; i < b->n; i++) {
		if (b->v[i].off >= from && b->v[i].on <= upto)
			add(a, &b->v[i]);
		else
			b->v[k++] = b->v[i];
	}
	b->n = k;
}

void offcpu_open(struct offcpu *oc, int client, uint64_t start, uint64_t now)
{
	struct acc *a = oc->acc[client];

	if (!a) {
		a = malloc(sizeof(*a));
		if (!a)
			return;
		oc->acc[client] = a;
	}
	memset(a, 0, sizeof(*a));
	a->start = start;
	a->lost0 = oc_losses(oc, NULL);
	absorb(oc, a, client / oc->cfg.cpp, start, now);
}

void offcpu_drop(struct offcpu *oc, int client)
{
	free(oc->acc[client]);
	oc->acc[client] = NULL;
}

/* The open interval of @proc's task at @now, if it left the CPU in the
 * op that started at @start: an op still stuck at the end of the run has
 * no record of it. */
static void still_off(struct offcpu *oc, struct acc *a, int proc,
		      uint64_t start, uint64_t now)
{
	struct offcpu_rec r;

	if (!oc->cfg.src.peek ||
	    oc->cfg.src.peek(oc->cfg.src.ctx, (uint32_t)oc->pid[proc], &r) ||
	    !r.off_ns || r.off_ns < start || r.off_ns > now ||
	    (r.wake_ns && r.wake_ns > now))
		return;
	r.on_ns = now;
	r.tgid = (uint32_t)oc->pid[proc];
	if (oc_buffer(oc, &r, OFFCPU_REC_SHORT))
		return;
	/* the record just buffered: not woken means still asleep */
	absorb(oc, a, proc, start, now);
}

/*
 * Whether a switch of the task of @proc in the op from @start to @end was
 * not seen.  Its entry (a peek) still holds an interval that began in the
 * op: the op ended, so the task ran again, and the drain before took
 * every record begun by then (a switch-in resets the open interval before
 * its record is sent), so its switch-in was not seen.  Or a switch-in in
 * the op found no interval open (the peek's on_ns: offcpu.h): its
 * switch-out was not seen.  The BPF side counts both as unpaired, the
 * first only at the task's next switch-out, and the stall may have been
 * opened after the count; this marks the op itself.  Only with the
 * client's own end (@end before @now): a later switch-out is after it.
 */
static bool unseen_switch(struct offcpu *oc, int proc, uint64_t start,
			  uint64_t end)
{
	struct offcpu_rec r;

	if (oc->no_wait || !oc->cfg.src.peek ||
	    oc->cfg.src.peek(oc->cfg.src.ctx, (uint32_t)oc->pid[proc], &r))
		return false;
	return (r.off_ns >= start && r.off_ns < end) ||
	       (r.on_ns > start && r.on_ns <= end);
}

/* Fill @w from interval @v of an op that started at @start */
static void wait_of(struct offcpu *oc, const struct ivl *v, uint64_t start,
		    struct result_wait *w)
{
	w->at_ms = (double)(v->off - start) / 1e6;
	w->blocked_ms = (double)blocked_of(v) / 1e6;
	w->runq_ms = v->woken ? (double)(v->on - v->wake) / 1e6 : 0;
	w->state = (char)v->state;
	w->woken = v->woken;
	w->stack = oc_mark(v->bstack);
	w->waker_ctx = v->woken ? v->ctx : WAKER_UNKNOWN;
	w->waker_client = v->waker_proc >= 0
				  ? oc->cfg.first + v->waker_proc * oc->cfg.cpp
				  : -1;
	w->waker_pid = v->woken ? (int)v->waker_pid : 0;
	w->waker_comm = v->woken ? strdup(v->comm) : NULL;
	w->waker_stack = oc_mark(v->wstack);
}

void offcpu_close(struct offcpu *oc, int client, uint64_t end, bool ended,
		  uint64_t now, struct result_stall *ev)
{
	struct acc *a = oc->acc[client];
	struct result_offcpu *o = &ev->offcpu;
	int proc = client / oc->cfg.cpp;
	uint64_t dur, cpu;
	bool unseen = false; /* a switch of its task came without an event */

	if (!a)
		return;
	absorb(oc, a, proc, a->start, end);
	if (!ended)
		still_off(oc, a, proc, a->start, now);
	else
		unseen = end < now && unseen_switch(oc, proc, a->start, end);
	result_offcpu_free(o);
	o->valid = true;
	o->blocked_ms = (double)a->blocked / 1e6;
	o->runq_ms = (double)a->runq / 1e6;
	o->sleeps = a->sleeps;
	o->preempted = a->preempted;
	o->partial = unseen || oc_losses(oc, NULL) != a->lost0;
	for (int i = 0; i < a->ntop; i++)
		wait_of(oc, &a->top[i], a->start, &o->waits[o->nwaits++]);
	for (int i = 0; i < a->nhold; i++) {
		if (a->hold[i].ns / 1e6 <= o->holder_ms)
			continue;
		memcpy(o->holder, a->hold[i].comm, sizeof(o->holder));
		o->holder_ms = (double)a->hold[i].ns / 1e6;
		o->holder_kind = a->hold[i].kind;
	}
	if (!ev->warmup) { /* the per-op table: measured phase */
		dur = end > a->start ? end - a->start : 0;
		for (int i = 0; i < a->npairs; i++) {
			struct pair p = a->pairs[i];
			int j;

			for (j = 0; j < oc->npairs; j++) {
				struct pair *q = &oc->pairs[j];

				if (q->op == ev->op && q->kind == p.kind &&
				    q->bstack == p.bstack &&
				    q->wstack == p.wstack && q->ctx == p.ctx &&
				    q->ours == p.ours &&
				    !strcmp(q->comm, p.comm))
					break;
			}
			if (j == oc->npairs) {
				if (oc->npairs == RUN_PAIRS) {
					oc->other_n += p.count;
					oc->other_ns += p.ns;
					continue;
				}
				oc->pairs[j] = p;
				oc->pairs[j].op = ev->op;
				oc->pairs[j].count = oc->pairs[j].ns = 0;
				oc->npairs++;
			}
			oc->pairs[j].count += p.count;
			oc->pairs[j].ns += p.ns;
		}
		oc->other_n += a->other_n;
		oc->other_ns += a->other_ns;
		cpu = dur > a->blocked + a->runq ? dur - a->blocked - a->runq
						 : 0;
		add_pair(oc->pairs, &oc->npairs, RUN_PAIRS, ev->op, WAIT_CPU,
			 NULL, 1, cpu, &oc->other_n, &oc->other_ns);
	}
	offcpu_drop(oc, client);
}

void offcpu_settle(struct offcpu *oc, uint64_t now, const uint64_t *inflight)
{
	int cpp = oc->cfg.cpp;

	for (int p = 0; p < oc->cfg.nprocs; p++) {
		struct procbuf *b = &oc->buf[p];
		uint64_t keep = 0; /* the earliest op in flight */
		size_t k = 0;

		for (int c = p * cpp; c < (p + 1) * cpp; c++) {
			if (oc->acc[c] && inflight[c] == oc->acc[c]->start)
				absorb(oc, oc->acc[c], p, oc->acc[c]->start,
				       now);
			if (inflight[c] && (!keep || inflight[c] < keep))
				keep = inflight[c];
		}
		/* no op left the CPU before its start; without one in
		 * flight, the next starts after @now */
		for (size_t i = 0; i < b->n; i++) {
			if (keep ? b->v[i].off >= keep : b->v[i].on > now)
				b->v[k++] = b->v[i];
		}
		b->n = k;
	}
}
