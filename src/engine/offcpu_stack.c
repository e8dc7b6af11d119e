/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * offcpu_stack.c - the stacks of the off-CPU records: interned once (an
 * id per distinct stack), and turned into names only for what is kept:
 * the events' longest sleeps when they end, the per-op table at the end
 * (offcpu_fill), without the tracing's own frames.
 */
#include "offcpu_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ksyms.h"

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
int32_t oc_intern(struct offcpu *oc, const __u64 *pc, int32_t len)
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

bool oc_symbols(const struct offcpu *oc)
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

	if (!oc_symbols(oc))
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
const char *oc_folded(struct offcpu *oc, int32_t id)
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

char *oc_mark(int32_t id)
{
	char b[32];

	if (id < 0)
		return NULL;
	snprintf(b, sizeof(b), "%cstack %d", MARK, (int)id);
	return strdup(b);
}

/* The stack *@s marks, named */
void oc_name_mark(struct offcpu *oc, char **s)
{
	int id;

	if (!*s || (*s)[0] != MARK || sscanf(*s + 1, "stack %d", &id) != 1 ||
	    id < 0 || (size_t)id >= oc->nstk)
		return;
	free(*s);
	*s = oc_dup(oc_folded(oc, id));
}

char *oc_dup(const char *s)
{
	return s ? strdup(s) : NULL;
}
