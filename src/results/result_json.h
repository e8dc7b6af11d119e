/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * result_json.h - a struct result to and from its JSON file (jansson),
 * and loading any stored result: dbench-ng JSON or a dbench text log.
 * The schema is documented in docs/json-format.md.
 */
#ifndef DBNG_RESULT_JSON_H
#define DBNG_RESULT_JSON_H

#include <stddef.h>

struct result;

/*
 * result_write_json - write @r to @path ("-": stdout), atomically: into a
 * temporary file in the same directory, flushed, then renamed.  0, or -1
 * with a message in @err.
 */
int result_write_json(const struct result *r, const char *path, char *err,
		      size_t errlen);

/*
 * result_write_json_pending - write @r into the temporary file @p made by
 * file_replace_begin() before the run, and rename it over its path.  0, or
 * -1 with a message in @err; no temporary file is left either way.
 */
struct file_pending;
int result_write_json_pending(const struct result *r, struct file_pending *p,
			      char *err, size_t errlen);

/*
 * result_dump_json - write the jansson document @doc (which it releases,
 * and may be NULL after an allocation failure) to @path as
 * result_write_json() does.  For other JSON outputs (compare).
 */
struct json_t;
int result_dump_json(struct json_t *doc, const char *path, char *err,
		     size_t errlen);

/*
 * result_json_doc - @r as the jansson document of its JSON file, its
 * config's "json" @path; NULL when out of memory.  result_json_emit -
 * write such a document to @f as the file has it (a file_emit_fn of
 * file_replace.h).  For the checkpoints of a run, which build the
 * document from a snapshot and write it later.
 */
#include <stdio.h>
struct json_t *result_json_doc(const struct result *r, const char *path);
int result_json_emit(FILE *f, const void *doc);

/*
 * result_json_text - @r as one line of JSON text (malloc'd, *@len
 * bytes), its config's "json" @path (NULL: none); NULL when out of
 * memory.  What a host of a run across hosts sends to rank 0, which
 * reads it with result_parse_json().
 */
char *result_json_text(const struct result *r, const char *path,
		       size_t *len);

/*
 * result_parse_json - read the JSON text @text (@len bytes) named @name
 * into a new result *@out.  0, or -1 with "NAME:LINE:COLUMN: what" or
 * "NAME: field 'x' ..." in @err.
 */
int result_parse_json(const char *name, const char *text, size_t len,
		      struct result **out, char *err, size_t errlen);

/*
 * result_load - read @path: a dbench-ng JSON result or a dbench (4.0 or
 * dbench-ng) text log.  0, or -1 with a message in @err naming the file
 * and what was expected, made printable (str_clean_buf: what it quotes of
 * the file shows no control byte, no invalid UTF-8, no bidi override).
 */
int result_load(const char *path, struct result **out, char *err,
		size_t errlen);

#endif
