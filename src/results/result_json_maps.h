/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * result_json_maps.h - the per-op maps of a result's JSON file, declared
 * once for the writer and the reader (private to src/results/): which
 * figure of which per-op array of a struct stands under which key.
 *
 * Two forms (docs/json-format.md): an object per op, {"count": N, ...}
 * (clients[].ops, stalls.per_op, hosts[].ops), or an array per op in the
 * order of the fields (time_series.points[].ops and .resp_ops, whose
 * order the file states in op_fields and resp_op_fields).
 */
#ifndef DBNG_RESULT_JSON_MAPS_H
#define DBNG_RESULT_JSON_MAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ops.h"

enum jm_kind { JM_U64, JM_NUM };

struct jm_field {
	const char *name;  /* its key (objects) or op_fields name (arrays) */
	enum jm_kind kind; /* uint64_t or double [OP_NR] */
	size_t off;	   /* of the array in the struct */
	bool key;	   /* an op is written where a key field is not 0 */
	bool optional;	   /* absent in older results: read where present */
};

struct jm_map {
	const char *where;	  /* "clients[].ops.": for messages */
	const struct jm_field *f; /* ended by a NULL name */
	const char *shape;	  /* arrays: "[count, max_ns, p99_ns]" */
};

/* objects: struct result_client, result_stalls, result_host */
extern const struct jm_map jm_client_ops, jm_stall_ops, jm_host_ops;
/* arrays: struct result_point */
extern const struct jm_map jm_point_ops, jm_point_resp;

static inline uint64_t *jm_u64(const struct jm_field *f, const void *base,
			       int op)
{
	return (uint64_t *)(void *)((char *)base + f->off) + op;
}

static inline double *jm_num(const struct jm_field *f, const void *base,
			     int op)
{
	return (double *)(void *)((char *)base + f->off) + op;
}

/* jm_present - has @op of @base a figure the map writes? */
static inline bool jm_present(const struct jm_map *m, const void *base, int op)
{
	for (const struct jm_field *f = m->f; f->name; f++)
		if (f->key && (f->kind == JM_U64 ? *jm_u64(f, base, op) != 0
						 : *jm_num(f, base, op) != 0))
			return true;
	return false;
}

#endif
