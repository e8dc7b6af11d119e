/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * offcpu.c - the table of the off-CPU bookkeeping (offcpu.h): made and
 * freed, fed with the clients' off-CPU intervals (BPF records) into a
 * buffer per process, and at the end turned into the run's result: where
 * the stalled ops spent their time, asleep where, woken by whom and
 * where, runnable without a CPU, on a CPU.  Which op an interval belongs
 * to is offcpu_match.c; the stacks are offcpu_stack.c.
 */
#include "offcpu_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ksyms.h"
#include "result.h"

_Static_assert((int)OFFCPU_CTX_TASK == WAKER_TASK &&
		       (int)OFFCPU_CTX_HARDIRQ == WAKER_HARDIRQ &&
		       (int)OFFCPU_CTX_SOFTIRQ == WAKER_SOFTIRQ &&
		       (int)OFFCPU_CTX_NMI == WAKER_NMI &&
		       (int)OFFCPU_CTX_UNKNOWN == WAKER_UNKNOWN,
	       "the BPF side's contexts are the result's");

/* ------------------------------ records -------------------------------- */

static int cmp_pid(const void *a, const void *b)
{
	const struct pidmap *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* The client process with pid @pid, or -1 */
static int proc_of(const struct offcpu *oc, uint32_t pid)
{
	struct pidmap key = {.pid = (int)pid}, *m;

	m = bsearch(&key, oc->pm, (size_t)oc->cfg.nprocs, sizeof(*oc->pm),
		    cmp_pid);
	return m ? m->proc : -1;
}

struct offcpu *offcpu_new(const struct offcpu_cfg *cfg)
{
	struct offcpu *oc = calloc(1, sizeof(*oc));
	int nclients = cfg->nprocs * cfg->cpp;

	if (!oc)
		return NULL;
	oc->cfg = *cfg;
	oc->pm = calloc((size_t)cfg->nprocs, sizeof(*oc->pm));
	oc->pid = calloc((size_t)cfg->nprocs, sizeof(*oc->pid));
	oc->buf = calloc((size_t)cfg->nprocs, sizeof(*oc->buf));
	oc->acc = calloc((size_t)nclients, sizeof(*oc->acc));
	oc->pairs = calloc(RUN_PAIRS, sizeof(*oc->pairs));
	if (!oc->pm || !oc->pid || !oc->buf || !oc->acc || !oc->pairs) {
		offcpu_free(oc);
		return NULL;
	}
	for (int p = 0; p < cfg->nprocs; p++) {
		oc->pm[p] = (struct pidmap){cfg->pids[p], p};
		oc->pid[p] = cfg->pids[p];
	}
	qsort(oc->pm, (size_t)cfg->nprocs, sizeof(*oc->pm), cmp_pid);
	oc->cfg.pids = NULL; /* not kept */
	return oc;
}

void offcpu_free(struct offcpu *oc)
{
	if (!oc)
		return;
	for (int p = 0; oc->buf && p < oc->cfg.nprocs; p++)
		free(oc->buf[p].v);
	for (int c = 0; oc->acc && c < oc->cfg.nprocs * oc->cfg.cpp; c++)
		free(oc->acc[c]);
	for (size_t i = 0; i < oc->nstk; i++) {
		free(oc->stk[i].pc);
		free(oc->stk[i].folded);
	}
	free(oc->stk);
	free(oc->slot);
	ksyms_free(oc->ks);
	free(oc->pairs);
	free(oc->acc);
	free(oc->buf);
	free(oc->pm);
	free(oc->pid);
	free(oc);
}

int offcpu_record(struct offcpu *oc, const void *data, size_t len)
{
	oc->taken++;
	return oc_buffer(oc, data, len);
}

int oc_buffer(struct offcpu *oc, const struct offcpu_rec *r, size_t len)
{
	struct ivl v = {.bstack = -1, .wstack = -1};
	struct procbuf *b;
	int proc;

	if (len < OFFCPU_REC_SHORT || r->on_ns < r->off_ns ||
	    (r->wake_ns && (r->wake_ns < r->off_ns || r->wake_ns > r->on_ns)) ||
	    (proc = proc_of(oc, r->tgid)) < 0) {
		oc->bad++;
		return -1;
	}
	v.off = r->off_ns;
	v.wake = r->wake_ns;
	v.on = r->on_ns;
	v.woken = r->wake_ns != 0;
	v.pid = r->pid;
	v.state = !r->state ? 0 : (r->state & 2) ? 'D' : 'S';
	v.waker_pid = r->waker_pid;
	v.ctx = r->waker_ctx < OFFCPU_CTX_NR ? (uint8_t)r->waker_ctx
					     : WAKER_UNKNOWN;
	memcpy(v.comm, r->waker_comm, OFFCPU_COMM);
	v.comm[OFFCPU_COMM - 1] = 0;
	memcpy(v.hcomm, r->holder_comm, OFFCPU_COMM);
	v.hcomm[r->holder_pid ? OFFCPU_COMM - 1 : 0] = 0;
	v.hns = r->holder_ns;
	v.hkind = r->holder_kind == OFFCPU_HOLDER_OTHER	    ? HOLDER_OTHER
		  : r->holder_kind == OFFCPU_HOLDER_KTHREAD ? HOLDER_KTHREAD
		  : proc_of(oc, r->holder_tgid) >= 0	    ? HOLDER_CLIENT
							    : HOLDER_PARENT;
	if (len >= sizeof(*r)) {
		v.bstack = oc_intern(oc, r->bstack, r->bstack_len);
		v.wstack = oc_intern(oc, r->wstack, r->wstack_len);
	}
	/* a client woke it only if not in an interrupt (known to be none):
	 * never blame the task an interrupt interrupted */
	v.waker_proc = v.state && v.woken && v.ctx == WAKER_TASK
			       ? proc_of(oc, r->waker_tgid)
			       : -1;
	b = &oc->buf[proc];
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 64;
		struct ivl *nv;

		if (cap > OFFCPU_PROC_MAX ||
		    !(nv = realloc(b->v, cap * sizeof(*nv)))) {
			oc->overflow++;
			return 0;
		}
		b->v = nv;
		b->cap = cap;
	}
	b->v[b->n++] = v;
	return 0;
}

/* Records begun by @begun that the source has not handed over, less
 * those the ring buffer had no room for (@c: its counters now) */
static uint64_t behind(const struct offcpu *oc, uint64_t begun,
		       const struct offcpu_counts *c)
{
	uint64_t due = begun > c->lost ? begun - c->lost : 0;

	return due > oc->taken ? due - oc->taken : 0;
}

/*
 * Take what the source has, and what was on its way at the call.  The BPF
 * side counts a record as begun before it reserves its place in the ring
 * buffer, and the ring is read in the order of the reservations: a record
 * that a CPU is still writing (its vCPU stopped by the host, an interrupt
 * in the middle) hides the ones reserved after it, though they were sent.
 * The watchdog drains after it read the slots, so the record of an op it
 * saw ended was begun before the count read here: the drain goes on until
 * that many were handed over.  After OFFCPU_DRAIN_TRIES re-reads in vain
 * (a record that never comes: a defect) the missing ones count as lost,
 * which marks the stalls open meanwhile as lower bounds, and no later
 * drain waits.
 */
void offcpu_drain(struct offcpu *oc)
{
	struct offcpu_counts c = {0};
	struct timespec pause = {0, OFFCPU_DRAIN_PAUSE_NS};
	uint64_t begun;

	if (!oc->cfg.src.drain)
		return;
	if (oc->cfg.src.counts && !oc->no_wait)
		oc->cfg.src.counts(oc->cfg.src.ctx, &c);
	begun = c.begun;
	oc->cfg.src.drain(oc->cfg.src.ctx, oc);
	for (int i = 0; begun && behind(oc, begun, &c); i++) {
		if (i == OFFCPU_DRAIN_TRIES) {
			oc->late += behind(oc, begun, &c);
			oc->no_wait = true;
			return;
		}
		if (i >= OFFCPU_DRAIN_SPINS)
			nanosleep(&pause, NULL);
		oc->cfg.src.counts(oc->cfg.src.ctx, &c);
		oc->cfg.src.drain(oc->cfg.src.ctx, oc);
	}
}

/* Losses so far: the BPF side's (its ring buffer full, a switch that
 * came without its event) and ours */
uint64_t oc_losses(const struct offcpu *oc, struct offcpu_counts *c)
{
	struct offcpu_counts z = {0};

	if (!c)
		c = &z;
	memset(c, 0, sizeof(*c));
	if (oc->cfg.src.counts)
		oc->cfg.src.counts(oc->cfg.src.ctx, c);
	return c->lost + c->unpaired + oc->overflow + oc->bad + oc->late;
}

size_t offcpu_buffered(const struct offcpu *oc)
{
	size_t n = 0;

	for (int p = 0; p < oc->cfg.nprocs; p++)
		n += oc->buf[p].n;
	return n;
}

/* ------------------------------ the result ----------------------------- */

static int by_ns(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	return (x->ns < y->ns) - (x->ns > y->ns);
}

void offcpu_fill(struct offcpu *oc, struct result_stalls *st)
{
	struct result_offcpu_run *o = &st->offcpu;
	struct offcpu_counts c;
	bool named = false;

	/* kallsyms, once, if a stack is kept */
	for (int i = 0; i < oc->npairs; i++)
		named = named || oc->pairs[i].bstack >= 0 ||
			oc->pairs[i].wstack >= 0;
	for (int k = 0; k < st->nevents; k++) {
		for (int i = 0; i < st->events[k].offcpu.nwaits; i++)
			named = named || st->events[k].offcpu.waits[i].stack ||
				st->events[k].offcpu.waits[i].waker_stack;
	}
	if (named && !oc->ks && oc->cfg.kallsyms)
		oc->ks = ksyms_load(oc->cfg.kallsyms);
	for (int k = 0; k < st->nevents; k++) {
		for (int i = 0; i < st->events[k].offcpu.nwaits; i++) {
			struct result_wait *w = &st->events[k].offcpu.waits[i];

			oc_name_mark(oc, &w->stack);
			oc_name_mark(oc, &w->waker_stack);
		}
	}
	oc_losses(oc, &c);
	free(o->method);
	o->method = strdup("bpf");
	if (named && !oc_symbols(oc) && !o->method_note)
		o->method_note = strdup(
			oc->ks ? "BPF stacks are raw addresses: /proc/kallsyms "
				 "shows no addresses (needs CAP_SYSLOG)"
			       : "BPF stacks are raw addresses: no kernel "
				 "symbols");
	o->intervals = c.records;
	o->lost = c.lost + c.unpaired + oc->bad + oc->late;
	o->stack_errors = c.stack_errors;
	o->overflow = oc->overflow;
	o->stack_min_ms = (double)oc->cfg.stack_min_ns / 1e6;
	o->symbols = !named || oc_symbols(oc);
	free(o->irq_method);
	o->irq_method = strdup(c.ctx_by == 1   ? "preempt count"
			       : c.ctx_by == 2 ? "interrupt tracepoints"
					       : "none");
	qsort(oc->pairs, (size_t)oc->npairs, sizeof(*oc->pairs), by_ns);
	o->other_count = oc->other_n;
	o->other_ms = (double)oc->other_ns / 1e6;
	for (int i = 0; i < oc->npairs; i++) {
		const struct pair *p = &oc->pairs[i];
		struct result_wait_pair *w;

		if (o->npairs == STALL_MAX_PAIRS) {
			o->other_count += p->count;
			o->other_ms += (double)p->ns / 1e6;
			continue;
		}
		w = &o->pairs[o->npairs++];
		w->op = p->op;
		w->kind = p->kind;
		w->count = p->count;
		w->ms = (double)p->ns / 1e6;
		w->stack = oc_dup(oc_folded(oc, p->bstack));
		w->waker_client = p->ours;
		w->waker_ctx = p->kind == WAIT_SLEEP ? p->ctx : WAKER_UNKNOWN;
		w->waker_comm = p->kind == WAIT_SLEEP && !p->ours &&
						(p->ctx == WAKER_TASK ||
						 p->ctx == WAKER_UNKNOWN)
					? strdup(p->comm)
					: NULL;
		w->waker_stack = oc_dup(oc_folded(oc, p->wstack));
	}
}
