/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * result_offcpu.c - the names of the off-CPU figures of a result, and
 * their release.
 */
#include "result_offcpu.h"

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

const char *waker_ctx_name(int ctx)
{
	return ctx >= 0 && ctx < WAKER_CTX_NR ? ctx_names[ctx] : "unknown";
}

int waker_ctx_parse(const char *s)
{
	for (int i = 0; s && i < WAKER_CTX_NR; i++) {
		if (!strcmp(s, ctx_names[i]))
			return i;
	}
	return -1;
}

const char *wait_kind_name(int kind)
{
	return kind >= 0 && kind < WAIT_KIND_NR ? kind_names[kind] : "?";
}

int wait_kind_parse(const char *s)
{
	for (int i = 0; s && i < WAIT_KIND_NR; i++) {
		if (!strcmp(s, kind_names[i]))
			return i;
	}
	return -1;
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
