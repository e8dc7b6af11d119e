/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * offcpu.c - match the clients' off-CPU intervals (BPF records) with the
 * ops that stalled, and say where those ops spent their time: asleep
 * where, woken by whom and where, runnable without a CPU, on a CPU.
 *
 * Stacks are interned once (an id per distinct stack) and turned into
 * names only for what is kept: the events' longest sleeps when they end,
 * the per-op table at the end.  Memory is bounded: a process buffers at
 * most OFFCPU_PROC_MAX records, an open op keeps its STALL_MAX_WAITS
 * longest sleeps and ACC_PAIRS distinct (sleep, waker) pairs, the run at
 * most RUN_PAIRS pairs and OFFCPU_MAX_STACKS stacks; what does not fit is
 * counted (overflow) and shows as "other".
 */
#include "offcpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ksyms.h"
#include "result.h"

#define OFFCPU_PROC_MAX	  65536 /* records buffered per process */
#define OFFCPU_MAX_STACKS 65536 /* distinct stacks */
#define ACC_PAIRS	  32	/* distinct pairs of one stalled op */
#define RUN_PAIRS	  1024	/* distinct pairs of the run */

_Static_assert((int)OFFCPU_CTX_TASK == WAKER_TASK &&
		       (int)OFFCPU_CTX_HARDIRQ == WAKER_HARDIRQ &&
		       (int)OFFCPU_CTX_SOFTIRQ == WAKER_SOFTIRQ &&
		       (int)OFFCPU_CTX_NMI == WAKER_NMI &&
		       (int)OFFCPU_CTX_UNKNOWN == WAKER_UNKNOWN,
	       "the BPF side's contexts are the result's");

/* One off-CPU interval, as the bookkeeping keeps it. */
struct ivl {
	uint64_t off, wake, on; /* wake 0: not woken (preempted, or the
				   open interval of a stuck op) */
	uint32_t pid, waker_pid;
	int32_t waker_proc;	/* -1: not one of ours (or an interrupt) */
	int32_t bstack, wstack; /* stack ids, -1: none */
	uint8_t state;		/* 0 preempted (runnable), 'S', 'D' */
	uint8_t ctx;		/* enum waker_ctx */
	bool woken;
	char comm[OFFCPU_COMM];
	uint8_t hkind;		/* enum holder_kind of who held the CPU
				   while it was runnable (hcomm; "": unknown),
				   for hns of that time */
	char hcomm[OFFCPU_COMM];
	uint64_t hns;
};

#define ACC_HOLDERS 4 /* holders of a stalled op's CPU kept */

/* A row of a per-op table, by ids. */
struct pair {
	int op;
	uint8_t kind; /* enum wait_kind */
	uint8_t ctx;
	bool ours;
	char comm[OFFCPU_COMM]; /* a task not ours */
	int32_t bstack, wstack;
	uint64_t count, ns;
};

/* The op of a client that runs past the threshold, so far. */
struct acc {
	uint64_t start;
	uint64_t blocked, runq;
	uint32_t sleeps, preempted;
	uint64_t lost0; /* the losses when it opened */
	int ntop;	/* its longest sleeps, longest first */
	struct ivl top[STALL_MAX_WAITS];
	int npairs;
	struct pair pairs[ACC_PAIRS];
	uint64_t other_n, other_ns;
	/* who held the CPU while it was runnable: the task it came back
	 * after, with that runnable time */
	int nhold;
	struct {
		char comm[OFFCPU_COMM];
		uint8_t kind;
		uint64_t ns;
	} hold[ACC_HOLDERS];
};

struct stk {
	uint32_t hash;
	uint16_t n;
	__u64 *pc;
	char *folded;
};

struct procbuf {
	struct ivl *v;
	size_t n, cap;
};

struct pidmap {
	int pid, proc;
};

struct offcpu {
	struct offcpu_cfg cfg;
	struct ksyms *ks;  /* read at the end (names), NULL before or if it
			      cannot be read */
	struct pidmap *pm; /* sorted by pid */
	struct procbuf *buf;
	struct acc **acc; /* per client, NULL: none open */
	uint64_t records, bad, overflow;
	/* the stacks: ids are indexes of stk, found by a hash table of
	 * slots (index + 1, 0 empty) */
	struct stk *stk;
	size_t nstk, capstk;
	uint32_t *slot;
	size_t nslot;
	/* the run's pairs, measured phase */
	struct pair *pairs;
	int npairs;
	uint64_t other_n, other_ns;
};

/* ------------------------------ stacks --------------------------------- */

static uint32_t hash_pcs(const __u64 *pc, int n)
{
	uint64_t h = 1469598103934665603ULL;

	for (int i = 0; i < n; i++) {
		h ^= pc[i];
		h *= 1099511628211ULL;
	}
	return (uint32_t)(h ^ (h >> 32));
}

static int grow_slots(struct offcpu *oc)
{
	size_t n = oc->nslot ? oc->nslot * 2 : 1024;
	uint32_t *s = calloc(n, sizeof(*s));

	if (!s)
		return -1;
	for (size_t i = 0; i < oc->nstk; i++) {
		size_t j = oc->stk[i].hash & (n - 1);

		while (s[j])
			j = (j + 1) & (n - 1);
		s[j] = (uint32_t)i + 1;
	}
	free(oc->slot);
	oc->slot = s;
	oc->nslot = n;
	return 0;
}

/* The id of the stack of @len bytes at @pc, interned; -1: none (an empty
 * or failed stack, or no room left) */
static int32_t intern(struct offcpu *oc, const __u64 *pc, int32_t len)
{
	int n = len > 0 ? len / 8 : 0;
	uint32_t h;
	size_t j;

	if (n > OFFCPU_DEPTH)
		n = OFFCPU_DEPTH;
	while (n > 0 && !pc[n - 1]) /* trailing zeros: no frame */
		n--;
	if (!n)
		return -1;
	h = hash_pcs(pc, n);
	if (oc->nslot) {
		for (j = h & (oc->nslot - 1); oc->slot[j];
		     j = (j + 1) & (oc->nslot - 1)) {
			struct stk *s = &oc->stk[oc->slot[j] - 1];

			if (s->hash == h && s->n == n &&
			    !memcmp(s->pc, pc, (size_t)n * 8))
				return (int32_t)(oc->slot[j] - 1);
		}
	}
	if (oc->nstk == OFFCPU_MAX_STACKS) {
		oc->overflow++;
		return -1;
	}
	if (oc->nstk * 2 >= oc->nslot && grow_slots(oc))
		return -1;
	if (oc->nstk == oc->capstk) {
		size_t cap = oc->capstk ? oc->capstk * 2 : 256;
		struct stk *ns = realloc(oc->stk, cap * sizeof(*ns));

		if (!ns)
			return -1;
		oc->stk = ns;
		oc->capstk = cap;
	}
	oc->stk[oc->nstk] = (struct stk){.hash = h, .n = (uint16_t)n};
	oc->stk[oc->nstk].pc = malloc((size_t)n * 8);
	if (!oc->stk[oc->nstk].pc)
		return -1;
	memcpy(oc->stk[oc->nstk].pc, pc, (size_t)n * 8);
	for (j = h & (oc->nslot - 1); oc->slot[j];
	     j = (j + 1) & (oc->nslot - 1))
		;
	oc->slot[j] = (uint32_t)++oc->nstk;
	return (int32_t)(oc->nstk - 1);
}

static bool symbols(const struct offcpu *oc)
{
	return ksyms_usable(oc->ks);
}

/* The frames at the innermost end of a waker's stack that are the
 * tracing's own: the BPF program (its JIT code resolves to whatever
 * symbol precedes it) and the tracepoint's glue, up to the last
 * bpf_trace_run or __bpf_trace_ frame among the first few. */
static int tracer_frames(const struct offcpu *oc, const __u64 *pc, int n)
{
	int skip = 0;
	char name[128];

	if (!symbols(oc))
		return 0;
	for (int i = 0; i < n - 1 && i < 6; i++) {
		ksyms_name(oc->ks, pc[i], name, sizeof(name));
		if (!strncmp(name, "bpf_trace_run", 13) ||
		    !strncmp(name, "__bpf_trace_", 12) ||
		    !strncmp(name, "__traceiter_", 12))
			skip = i + 1;
	}
	return skip;
}

/* Stack @id folded: outermost frame first, ';'-separated, "name [module]"
 * or a raw address, without the tracing's own frames; NULL for -1.
 * Owned by the table. */
static const char *folded(struct offcpu *oc, int32_t id)
{
	struct stk *s;
	size_t len = 0;
	char *out;
	int skip;

	if (id < 0)
		return NULL;
	s = &oc->stk[id];
	if (s->folded)
		return s->folded;
	out = malloc((size_t)s->n * 130 + 1);
	if (!out)
		return NULL;
	skip = tracer_frames(oc, s->pc, s->n);
	out[0] = 0;
	for (int i = s->n - 1; i >= skip; i--) {
		char name[128];

		ksyms_name(oc->ks, s->pc[i], name, sizeof(name));
		len += (size_t)sprintf(out + len, "%s%s", len ? ";" : "", name);
	}
	s->folded = out;
	return out;
}

/*
 * The stacks of the events are named at the end (offcpu_fill), when
 * kallsyms is read: until then a stack of a result_wait is its id,
 * marked so that no name can be taken for one.
 */
#define MARK '\x01'

static char *mark(int32_t id)
{
	char b[32];

	if (id < 0)
		return NULL;
	snprintf(b, sizeof(b), "%cstack %d", MARK, (int)id);
	return strdup(b);
}

static char *dup(const char *s);

/* The stack *@s marks, named */
static void name_mark(struct offcpu *oc, char **s)
{
	int id;

	if (!*s || (*s)[0] != MARK || sscanf(*s + 1, "stack %d", &id) != 1 ||
	    id < 0 || (size_t)id >= oc->nstk)
		return;
	free(*s);
	*s = dup(folded(oc, id));
}

static char *dup(const char *s)
{
	return s ? strdup(s) : NULL;
}

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
	oc->buf = calloc((size_t)cfg->nprocs, sizeof(*oc->buf));
	oc->acc = calloc((size_t)nclients, sizeof(*oc->acc));
	oc->pairs = calloc(RUN_PAIRS, sizeof(*oc->pairs));
	if (!oc->pm || !oc->buf || !oc->acc || !oc->pairs) {
		offcpu_free(oc);
		return NULL;
	}
	for (int p = 0; p < cfg->nprocs; p++)
		oc->pm[p] = (struct pidmap){cfg->pids[p], p};
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
	free(oc);
}

int offcpu_record(struct offcpu *oc, const void *data, size_t len)
{
	const struct offcpu_rec *r = data;
	struct ivl v = {.bstack = -1, .wstack = -1};
	struct procbuf *b;
	int proc;

	if (len < OFFCPU_REC_SHORT || r->on_ns < r->off_ns ||
	    (r->wake_ns && (r->wake_ns < r->off_ns || r->wake_ns > r->on_ns)) ||
	    (proc = proc_of(oc, r->tgid)) < 0) {
		oc->bad++;
		return -1;
	}
	oc->records++;
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
	v.hkind = r->holder_kind == OFFCPU_HOLDER_OTHER     ? HOLDER_OTHER
		  : r->holder_kind == OFFCPU_HOLDER_KTHREAD ? HOLDER_KTHREAD
		  : proc_of(oc, r->holder_tgid) >= 0	    ? HOLDER_CLIENT
							    : HOLDER_PARENT;
	if (len >= sizeof(*r)) {
		v.bstack = intern(oc, r->bstack, r->bstack_len);
		v.wstack = intern(oc, r->wstack, r->wstack_len);
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

void offcpu_drain(struct offcpu *oc)
{
	if (oc->cfg.src.drain)
		oc->cfg.src.drain(oc->cfg.src.ctx, oc);
}

/* Losses so far: the BPF side's and ours */
static uint64_t losses(const struct offcpu *oc, struct offcpu_counts *c)
{
	struct offcpu_counts z = {0};

	if (!c)
		c = &z;
	memset(c, 0, sizeof(*c));
	if (oc->cfg.src.counts)
		oc->cfg.src.counts(oc->cfg.src.ctx, c);
	return c->lost + oc->overflow + oc->bad;
}

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
	a->lost0 = losses(oc, NULL);
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
	const struct pidmap *m = NULL;

	for (int i = 0; i < oc->cfg.nprocs; i++) {
		if (oc->pm[i].proc == proc)
			m = &oc->pm[i];
	}
	if (!m || !oc->cfg.src.peek ||
	    oc->cfg.src.peek(oc->cfg.src.ctx, (uint32_t)m->pid, &r) ||
	    !r.off_ns || r.off_ns < start || r.off_ns > now ||
	    (r.wake_ns && r.wake_ns > now))
		return;
	r.on_ns = now;
	r.tgid = (uint32_t)m->pid;
	if (offcpu_record(oc, &r, OFFCPU_REC_SHORT))
		return;
	/* the record just buffered: not woken means still asleep */
	absorb(oc, a, proc, start, now);
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
	w->stack = mark(v->bstack);
	w->waker_ctx = v->woken ? v->ctx : WAKER_UNKNOWN;
	w->waker_client = v->waker_proc >= 0
				  ? oc->cfg.first + v->waker_proc * oc->cfg.cpp
				  : -1;
	w->waker_pid = v->woken ? (int)v->waker_pid : 0;
	w->waker_comm = v->woken ? strdup(v->comm) : NULL;
	w->waker_stack = mark(v->wstack);
}

void offcpu_close(struct offcpu *oc, int client, uint64_t end, bool ended,
		  uint64_t now, struct result_stall *ev)
{
	struct acc *a = oc->acc[client];
	struct result_offcpu *o = &ev->offcpu;
	int proc = client / oc->cfg.cpp;
	uint64_t dur, cpu;

	if (!a)
		return;
	absorb(oc, a, proc, a->start, end);
	if (!ended)
		still_off(oc, a, proc, a->start, now);
	result_offcpu_free(o);
	o->valid = true;
	o->blocked_ms = (double)a->blocked / 1e6;
	o->runq_ms = (double)a->runq / 1e6;
	o->sleeps = a->sleeps;
	o->preempted = a->preempted;
	o->partial = losses(oc, NULL) != a->lost0;
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

			name_mark(oc, &w->stack);
			name_mark(oc, &w->waker_stack);
		}
	}
	losses(oc, &c);
	free(o->method);
	o->method = strdup("bpf");
	if (named && !symbols(oc) && !o->method_note)
		o->method_note = strdup(
			oc->ks ? "BPF stacks are raw addresses: /proc/kallsyms "
				 "shows no addresses (needs CAP_SYSLOG)"
			       : "BPF stacks are raw addresses: no kernel "
				 "symbols");
	o->intervals = c.records;
	o->lost = c.lost + oc->bad;
	o->stack_errors = c.stack_errors;
	o->overflow = oc->overflow;
	o->stack_min_ms = (double)oc->cfg.stack_min_ns / 1e6;
	o->symbols = !named || symbols(oc);
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
		w->stack = dup(folded(oc, p->bstack));
		w->waker_client = p->ours;
		w->waker_ctx = p->kind == WAIT_SLEEP ? p->ctx : WAKER_UNKNOWN;
		w->waker_comm = p->kind == WAIT_SLEEP && !p->ours &&
						(p->ctx == WAKER_TASK ||
						 p->ctx == WAKER_UNKNOWN)
					? strdup(p->comm)
					: NULL;
		w->waker_stack = dup(folded(oc, p->wstack));
	}
}
