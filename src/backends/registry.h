/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * registry.h - the table of backends, and what the command line needs of
 * it: find one by name, list them, show their options, parse and check
 * those options, refuse a run a backend cannot do.  All before any fork.
 */
#ifndef DBNG_REGISTRY_H
#define DBNG_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "backend.h"

/* backend_default - the backend of a run without -B (the first one) */
const struct backend *backend_default(void);

/* backend_find - the backend called @name, or NULL */
const struct backend *backend_find(const char *name);

/* backend_unavailable - 1 if @name is a backend this build left out (its
 * library was not found), with the Debian package that has the library
 * in @deb; else 0 */
int backend_unavailable(const char *name, char *deb, size_t len);

/* backend_names - "fileio, null" for messages */
const char *backend_names(void);

/* backend_help - the -B and -o lines of --help, from the table */
void backend_help(FILE *f);

/* backend_option_secret - is "NAME[=VALUE]" (-o) or "--LOPT[=VALUE]" an
 * option that some backend keeps secret (a password)?  For the command
 * line a result records. */
bool backend_option_secret(const char *kv);

/*
 * backend_long_options - the options of every backend that have a long
 * option of the run's command line (be_option.lopt), one per distinct
 * lopt, into @out[0..max-1]; their count, -1 if more than @max.
 */
int backend_long_options(const struct be_option **out, int max);

/*
 * backend_options - parse the -o NAME[=VALUE] strings @kv[0..n-1] for @b
 * (or --LOPT[=VALUE], a long option of an option: backend_long_options)
 * into a new option struct (*@opts, zeroed first; free() it), then run
 * the backend's check().  0, or -1 with a message in @err.
 */
int backend_options(const struct backend *b, const char *const *kv, int n,
		    void **opts, char *err, size_t errlen);

/*
 * backend_options_text - the options @opts of @b that differ from their
 * defaults, as "NAME NAME=VALUE ..." in the order of b->options (a flag
 * by its name alone, a secret as NAME=(secret)), for the result; "" if
 * none.  Returns -1 if @len is too small.
 */
int backend_options_text(const struct backend *b, const void *opts, char *buf,
			 size_t len);

/*
 * backend_check - 0 if @b can honour the requests @req (BE_CAN_* bits)
 * and, with @p not NULL, run every op of @p or declares it not run
 * (backend.not_run: the engine counts it instead); otherwise -1 and
 * "-s: backend 'x' cannot ..." or "FILE:LINE: backend 'x' cannot run
 * 'Op'" in @err.  A backend that declares not run an op the engine needs
 * (be_may_skip) is refused too.
 */
int backend_check(const struct backend *b, const struct program *p,
		  unsigned int req, char *err, size_t errlen);

#endif
