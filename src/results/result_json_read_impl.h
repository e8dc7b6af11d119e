/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * result_json_read_impl.h - what the files of the JSON result reader
 * share (private to src/results/): the reader's state, its field readers
 * (result_json_get.c) and the readers of each part of the file, which
 * result_json_read.c calls in turn.
 */
#ifndef DBNG_RESULT_JSON_READ_IMPL_H
#define DBNG_RESULT_JSON_READ_IMPL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "result.h"
#include "result_json.h"
#include "result_json_maps.h"

struct reader {
	const char *name;
	char *err;
	size_t errlen;
	int failed;
	bool seen_op[OP_NR];	/* an op may appear once in "ops" */
};

/* result_json_get.c: the first error only is kept, as "NAME: ..." */
void rerr(struct reader *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
json_t *get(struct reader *rd, json_t *o, const char *where,
	    const char *k, json_type type);
uint64_t get_u64(struct reader *rd, json_t *o, const char *where,
		 const char *k);
int get_int(struct reader *rd, json_t *o, const char *where,
	    const char *k, int min, int max);
double get_num(struct reader *rd, json_t *o, const char *where,
	       const char *k);
double get_figure(struct reader *rd, json_t *o, const char *where,
		  const char *k);
bool get_bool(struct reader *rd, json_t *o, const char *where,
	      const char *k);
char *get_str(struct reader *rd, json_t *o, const char *where,
	      const char *k);
int get_strings(struct reader *rd, json_t *o, const char *k,
		char **out, int max);
void read_opmap(struct reader *rd, json_t *ops, const struct jm_map *m,
		void *base, const char *what);

/* result_json_read_env.c */
void read_config(struct reader *rd, json_t *c, struct result *r);
void old_stall_threshold(json_t *c, struct result *r);
void read_env(struct reader *rd, json_t *e, struct result_env *env);

/* result_json_read_ops.c */
void read_op(struct reader *rd, json_t *o, struct result *r);
void read_clients(struct reader *rd, json_t *a, struct result *r);
void read_resp(struct reader *rd, json_t *o, struct result *r);
void read_hosts(struct reader *rd, json_t *a, struct result *r);

/* result_json_read_stalls.c */
void read_series(struct reader *rd, json_t *ts, struct result *r);
void read_disturb(struct reader *rd, json_t *o, struct result *r);
void read_stalls(struct reader *rd, json_t *o, struct result *r);

#endif
