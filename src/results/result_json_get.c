/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * result_json_get.c - the field readers of a JSON result file: each
 * reads one field of an object, checks its type and range and names a
 * bad one (the first error only), and the per-op maps read.
 */
#include "result_json_read_impl.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rerr(struct reader *rd, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (rd->failed++)
		return;
	n = snprintf(rd->err, rd->errlen, "%s: ", rd->name);
	if (n < 0 || (size_t)n >= rd->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(rd->err + n, rd->errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

json_t *get(struct reader *rd, json_t *o, const char *where,
	    const char *k, json_type type)
{
	json_t *v = json_object_get(o, k);

	if (!v || json_typeof(v) != type) {
		rerr(rd, "field '%s%s' is missing or has the wrong type", where,
		     k);
		return NULL;
	}
	return v;
}

uint64_t get_u64(struct reader *rd, json_t *o, const char *where,
		 const char *k)
{
	json_t *v = get(rd, o, where, k, JSON_INTEGER);

	if (v && json_integer_value(v) < 0) {
		rerr(rd, "field '%s%s' is negative", where, k);
		return 0;
	}
	return v ? (uint64_t)json_integer_value(v) : 0;
}

int get_int(struct reader *rd, json_t *o, const char *where,
	    const char *k, int min, int max)
{
	json_t *v = get(rd, o, where, k, JSON_INTEGER);
	json_int_t x = v ? json_integer_value(v) : min;

	if (x < min || x > max) {
		rerr(rd, "field '%s%s' is out of range", where, k);
		return min;
	}
	return (int)x;
}

double get_num(struct reader *rd, json_t *o, const char *where,
	       const char *k)
{
	json_t *v = json_object_get(o, k);

	if (!v || !json_is_number(v)) {
		rerr(rd, "field '%s%s' is missing or not a number", where, k);
		return 0;
	}
	return json_number_value(v);
}

/* A figure that cannot be below 0 (a rate, a time): a negative one is a
 * crafted or broken file, refused as a negative integer is. */
double get_figure(struct reader *rd, json_t *o, const char *where,
		  const char *k)
{
	double v = get_num(rd, o, where, k);

	if (v < 0) {
		rerr(rd, "field '%s%s' is negative", where, k);
		return 0;
	}
	return v;
}

bool get_bool(struct reader *rd, json_t *o, const char *where,
	      const char *k)
{
	json_t *v = json_object_get(o, k);

	if (!v || !json_is_boolean(v)) {
		rerr(rd, "field '%s%s' is missing or not a boolean", where, k);
		return false;
	}
	return json_is_true(v);
}

/* An optional string: NULL when absent or null. */
char *get_str(struct reader *rd, json_t *o, const char *where,
	      const char *k)
{
	json_t *v = json_object_get(o, k);

	if (!v || json_is_null(v))
		return NULL;
	if (!json_is_string(v)) {
		rerr(rd, "field '%s%s' is not a string", where, k);
		return NULL;
	}
	return strdup(json_string_value(v));
}

int get_strings(struct reader *rd, json_t *o, const char *k,
		char **out, int max)
{
	json_t *a = get(rd, o, "", k, JSON_ARRAY), *v;
	size_t i;
	int n = 0;

	if (!a)
		return 0;
	json_array_foreach(a, i, v) {
		if (!json_is_string(v)) {
			rerr(rd, "field '%s[%zu]' is not a string", k, i);
			break;
		}
		if (n < max)
			out[n++] = strdup(json_string_value(v));
	}
	return n;
}

/*
 * A per-op map of the file (result_json_maps.h) into @base; @what names
 * it in messages ("clients[3].ops").  An object per op: a key that is
 * not an operation is refused, each field read as the writer wrote it
 * (an optional one where present); an array per op: one of another
 * length or with other than non-negative integers is refused.
 */
void read_opmap(struct reader *rd, json_t *ops, const struct jm_map *m,
		void *base, const char *what)
{
	const char *k;
	json_t *v;

	json_object_foreach(ops, k, v) {
		int op = op_by_label(k);
		size_t j = 0;

		if (m->shape && op >= 0 && json_is_array(v)) {
			for (const struct jm_field *f = m->f; f->name; f++) {
				json_t *e = json_array_get(v, j++);

				if (!json_is_integer(e) ||
				    json_integer_value(e) < 0)
					op = -1;
				else
					*jm_u64(f, base, op) =
						(uint64_t)json_integer_value(e);
			}
		}
		if (m->shape && (op < 0 || json_array_size(v) != j)) {
			rerr(rd, "%s.%s is not %s", what, k, m->shape);
			return;
		}
		if (m->shape)
			continue;
		if (op < 0) {
			rerr(rd, "%s: '%s' is not an operation", what, k);
			return;
		}
		for (const struct jm_field *f = m->f; f->name; f++) {
			if (f->optional && !json_object_get(v, f->name))
				continue;
			if (f->kind == JM_U64)
				*jm_u64(f, base, op) =
					get_u64(rd, v, m->where, f->name);
			else
				*jm_num(f, base, op) =
					get_num(rd, v, m->where, f->name);
		}
	}
}
