/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * result_offcpu.c - the names of the off-CPU figures of a result, their
 * copies and sums (the hosts of a run across hosts) and their release.
 */
#include "result_offcpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const ctx_names[] = {
#define X(id, name) name,
	WAKER_CTX_LIST(X)
#undef X
};

static const char *const kind_names[] = {
#define X(id, name) name,
	WAIT_KIND_LIST(X)
#undef X
};

static const char *const holder_names[] = {
#define X(id, name) name,
	HOLDER_KIND_LIST(X)
#undef X
};

/* the index of @s in @names[n], or -1 */
static int find(const char *const *names, int n, const char *s)
{
	for (int i = 0; s && i < n; i++) {
		if (!strcmp(s, names[i]))
			return i;
	}
	return -1;
}

const char *waker_ctx_name(int ctx)
{
	return ctx >= 0 && ctx < WAKER_CTX_NR ? ctx_names[ctx] : "unknown";
}

int waker_ctx_parse(const char *s)
{
	return find(ctx_names, WAKER_CTX_NR, s);
}

const char *wait_kind_name(int kind)
{
	return kind >= 0 && kind < WAIT_KIND_NR ? kind_names[kind] : "?";
}

int wait_kind_parse(const char *s)
{
	return find(kind_names, WAIT_KIND_NR, s);
}

const char *holder_kind_name(int kind)
{
	return kind >= 0 && kind < HOLDER_KIND_NR ? holder_names[kind]
						  : "other";
}

int holder_kind_parse(const char *s)
{
	return find(holder_names, HOLDER_KIND_NR, s);
}

void result_offcpu_free(struct result_offcpu *o)
{
	for (int i = 0; i < o->nwaits; i++) {
		free(o->waits[i].stack);
		free(o->waits[i].waker_comm);
		free(o->waits[i].waker_stack);
	}
	memset(o, 0, sizeof(*o));
}

void result_offcpu_run_free(struct result_offcpu_run *o)
{
	free(o->method);
	free(o->method_note);
	free(o->irq_method);
	for (int i = 0; i < o->npairs; i++) {
		free(o->pairs[i].stack);
		free(o->pairs[i].waker_comm);
		free(o->pairs[i].waker_stack);
	}
	memset(o, 0, sizeof(*o));
}

static char *dup_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* both NULL, or the same string */
static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

int result_offcpu_copy(struct result_offcpu *dst,
		       const struct result_offcpu *src)
{
	*dst = *src;
	for (int i = 0; i < src->nwaits; i++) {
		const struct result_wait *s = &src->waits[i];
		struct result_wait *d = &dst->waits[i];

		d->stack = dup_null(s->stack);
		d->waker_comm = dup_null(s->waker_comm);
		d->waker_stack = dup_null(s->waker_stack);
		if ((s->stack && !d->stack) ||
		    (s->waker_comm && !d->waker_comm) ||
		    (s->waker_stack && !d->waker_stack)) {
			dst->nwaits = i + 1;
			result_offcpu_free(dst);
			return -1;
		}
	}
	return 0;
}

static bool pair_same(const struct result_wait_pair *a,
		      const struct result_wait_pair *b)
{
	return a->op == b->op && a->kind == b->kind &&
	       a->waker_client == b->waker_client &&
	       a->waker_ctx == b->waker_ctx && same_str(a->stack, b->stack) &&
	       same_str(a->waker_comm, b->waker_comm) &&
	       same_str(a->waker_stack, b->waker_stack);
}

static int pair_add(struct result_offcpu_run *run,
		    const struct result_wait_pair *p)
{
	struct result_wait_pair *d;
	int k;

	for (k = 0; k < run->npairs; k++) {
		if (pair_same(&run->pairs[k], p)) {
			run->pairs[k].count += p->count;
			run->pairs[k].ms += p->ms;
			return 0;
		}
	}
	if (run->npairs == STALL_MAX_PAIRS) {
		run->other_count += p->count;
		run->other_ms += p->ms;
		return 0;
	}
	d = &run->pairs[run->npairs];
	*d = *p;
	d->stack = dup_null(p->stack);
	d->waker_comm = dup_null(p->waker_comm);
	d->waker_stack = dup_null(p->waker_stack);
	run->npairs++; /* counted even if a copy failed: freed with it */
	if ((p->stack && !d->stack) || (p->waker_comm && !d->waker_comm) ||
	    (p->waker_stack && !d->waker_stack))
		return -1;
	return 0;
}

static int pair_cmp(const void *a, const void *b)
{
	const struct result_wait_pair *x = a, *y = b;

	return x->ms < y->ms ? 1 : x->ms > y->ms ? -1 : 0;
}

int result_offcpu_run_add(struct result_offcpu_run *run,
			  const struct result_offcpu_run *h, const char *where)
{
	if (!h->method)
		return 0;
	if (!run->method) {
		run->method = strdup(h->method);
		run->method_note = dup_null(h->method_note);
		run->irq_method = dup_null(h->irq_method);
		run->symbols = h->symbols;
		if (!run->method)
			return -1;
	} else if (strcmp(run->method, h->method) &&
		   !strcmp(h->method, "proc")) {
		/* the run traced with BPF where every host did */
		free(run->method);
		free(run->method_note);
		run->method = strdup("proc");
		if (!run->method ||
		    asprintf(&run->method_note, "%s: %s", where,
			     h->method_note ? h->method_note : "no BPF") < 0)
			run->method_note = NULL;
		if (!run->method)
			return -1;
	}
	if (!strcmp(h->method, "bpf"))
		run->symbols = run->symbols && h->symbols;
	if (!run->irq_method && h->irq_method)
		run->irq_method = strdup(h->irq_method);
	run->intervals += h->intervals;
	run->lost += h->lost;
	run->stack_errors += h->stack_errors;
	run->overflow += h->overflow;
	if (h->stack_min_ms > run->stack_min_ms)
		run->stack_min_ms = h->stack_min_ms;
	run->other_count += h->other_count;
	run->other_ms += h->other_ms;
	for (int i = 0; i < h->npairs; i++) {
		if (pair_add(run, &h->pairs[i]))
			return -1;
	}
	qsort(run->pairs, (size_t)run->npairs, sizeof(run->pairs[0]), pair_cmp);
	return 0;
}
