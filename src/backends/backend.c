/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * backend.c - the registry of backends and the check, before any fork,
 * that a backend can run every operation of a program.
 */
#include "backend.h"

#include <stdio.h>
#include <string.h>

#include "loadfile.h"

static const struct backend_ops *const backends[] = {
	&backend_fileio,
	&backend_null,
};

const struct backend_ops *backend_find(const char *name)
{
	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++) {
		if (!strcmp(backends[i]->name, name))
			return backends[i];
	}
	return NULL;
}

const char *backend_names(void)
{
	return "fileio, null";
}

int backend_check(const struct backend_ops *b, const struct program *p,
		  char *err, size_t errlen)
{
	for (uint32_t i = 0; i < p->nops; i++) {
		const struct lf_op *op = &p->ops[i];

		if (!b->op[op->type]) {
			snprintf(err, errlen,
				 "%s:%u: backend '%s' cannot run "
				 "'%s'",
				 p->name, op->line, b->name,
				 op_info[op->type].keyword);
			return -1;
		}
	}
	return 0;
}
