/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * file_replace.h - write a file so that readers see the old one or the whole
 * new one, never half of it: into PATH.tmp.XXXXXX in the same directory,
 * mode from the umask, flushed to disk, then renamed over PATH.
 */
#ifndef DBNG_FILE_REPLACE_H
#define DBNG_FILE_REPLACE_H

#include <stddef.h>
#include <stdio.h>

/* Writes the content to @f; 0, or -1 on a write error. */
typedef int (*file_emit_fn)(FILE *f, const void *ctx);

/*
 * file_replace - write what @emit produces to @path ("-": stdout, not
 * atomic).  0, or -1 with "OPT PATH: reason" in @err (@opt names the
 * option the path came from, e.g. "--json"); no temporary file is left.
 */
int file_replace(const char *path, const char *opt, file_emit_fn emit,
		 const void *ctx, char *err, size_t errlen);

#endif
