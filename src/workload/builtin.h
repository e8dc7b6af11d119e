/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * builtin.h - loadfiles compiled into the binary, so that "dbench-ng 4"
 * runs with no file present.
 */
#ifndef DBNG_BUILTIN_H
#define DBNG_BUILTIN_H

#include <stddef.h>

/* the name of the built-in default workload, for -c */
#define BUILTIN_NETBENCH "builtin:netbench"

/* builtin_find - the text of built-in loadfile @name ("builtin:netbench"),
 * its length in *@len; NULL if there is none of that name. */
const char *builtin_find(const char *name, size_t *len);

#endif
