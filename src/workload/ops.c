/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ops.c - the operation table built from OP_LIST, and keyword lookup.
 */
#include "ops.h"

#include <stddef.h>
#include <string.h>
#include <strings.h>

const struct op_info op_info[OP_NR] = {
#define X(id, kw, al, lab, a, pol) [OP_##id] = {kw, al, lab, a, pol},
	OP_LIST(X)
#undef X
};

int op_lookup(const char *keyword)
{
	for (int i = 0; i < OP_NR; i++) {
		if (!strcasecmp(keyword, op_info[i].keyword))
			return i;
		if (op_info[i].alias && !strcasecmp(keyword, op_info[i].alias))
			return i;
	}
	return -1;
}

int op_by_label(const char *label)
{
	for (int i = 0; i < OP_NR; i++) {
		if (!strcmp(label, op_info[i].label))
			return i;
	}
	return -1;
}
