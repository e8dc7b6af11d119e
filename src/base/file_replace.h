/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * file_replace.h - write a file so that readers see the old one or the whole
 * new one, never half of it: into an unnamed file (O_TMPFILE) in the same
 * directory, or PATH.tmp.XXXXXX on a filesystem without it, mode from the
 * umask, flushed to disk, named PATH.tmp.XXXXXX, then renamed over PATH.
 */
#ifndef DBNG_FILE_REPLACE_H
#define DBNG_FILE_REPLACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Writes the content to @f; 0, or -1 on a write error. */
typedef int (*file_emit_fn)(FILE *f, const void *ctx);

/*
 * A file being replaced: its temporary file exists from file_replace_begin()
 * until file_replace_end() renames it over @path or file_replace_abort()
 * removes it.  @path "-" is stdout (no temporary file, not atomic).
 */
struct file_pending {
	const char *path;
	const char *opt;
	char *tmp; /* NULL: nothing pending; else the temporary name */
	int fd;
	/* the directory, opened with the file: the names are given there,
	 * so a process that changed its mount namespace since (fileio's
	 * mountns.c) links and renames on the mount the file is on */
	int dirfd;
	bool unnamed; /* an O_TMPFILE file, not yet linked as tmp */
};

/*
 * file_replace_begin - check that @path can be written (its directory
 * exists, it is not a directory) and create its temporary file, so that a
 * command learns of a bad path before it does its work.  0, or -1 with
 * "OPT PATH: reason" in @err and nothing created.
 */
int file_replace_begin(struct file_pending *p, const char *path,
		       const char *opt, char *err, size_t errlen);

/*
 * file_replace_end - write what @emit produces into @p's temporary file,
 * flush it to disk and rename it over the path.  0, or -1 with a message
 * in @err; either way no temporary file is left.
 */
int file_replace_end(struct file_pending *p, file_emit_fn emit, const void *ctx,
		     char *err, size_t errlen);

/*
 * The two halves of file_replace_end(), for a file written again and again
 * (the checkpoints of a run, docs/json-format.md).  file_replace_write -
 * write what @emit produces into @p's temporary file; @sync: flush it to
 * disk as well.  file_replace_commit - give the written file its name and
 * rename it over the path: a process killed at any moment leaves the old
 * file or the new one, and only if it dies between the two calls of this
 * one (microseconds) a complete PATH.tmp.XXXXXX beside them.  Each 0, or
 * -1 with a message in @err and no temporary file left.
 */
int file_replace_write(struct file_pending *p, file_emit_fn emit,
		       const void *ctx, bool sync, char *err, size_t errlen);
int file_replace_commit(struct file_pending *p, char *err, size_t errlen);

/* file_replace_abort - remove @p's temporary file, if any. */
void file_replace_abort(struct file_pending *p);

/*
 * file_replace - file_replace_begin() then file_replace_end(): write what
 * @emit produces to @path ("-": stdout, not atomic).  0, or -1 with
 * "OPT PATH: reason" in @err (@opt names the option the path came from,
 * e.g. "--json"); no temporary file is left.
 */
int file_replace(const char *path, const char *opt, file_emit_fn emit,
		 const void *ctx, char *err, size_t errlen);

#endif
