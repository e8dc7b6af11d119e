/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * result_json_write_impl.h - what the files of the JSON result writer
 * share (private to src/results/): the jansson helpers every part uses
 * and the writers of each part of the file, which result_json_write.c
 * puts together.
 */
#ifndef DBNG_RESULT_JSON_WRITE_IMPL_H
#define DBNG_RESULT_JSON_WRITE_IMPL_H

#include <jansson.h>
#include <stdint.h>

#include "result.h"
#include "result_json_maps.h"

static inline json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static inline void set(json_t *o, const char *k, json_t *v)
{
	json_object_set_new(o, k, v ? v : json_null());
}

static inline json_t *u64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

/* result_json_write_env.c */
json_t *config_json(const struct config *cfg, const char *path);
json_t *env_json(const struct result_env *e);

/* result_json_write_ops.c */
json_t *op_json(const struct result *r, int i);
json_t *opmap_json(const struct jm_map *m, const void *base);
json_t *opmap_fields(const struct jm_map *m);
json_t *clients_json(const struct result *r);
json_t *resp_json(const struct result_resp *rr);
json_t *hosts_json(const struct result *r);

/* result_json_write_stalls.c */
json_t *series_json(const struct result *r);
json_t *disturb_json(const struct result_disturb *d);
json_t *stalls_json(const struct result_stalls *st);

#endif
