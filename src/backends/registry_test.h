/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * registry_test.h - the registry's handling of the backends a build left
 * out, on a list given as an argument (the build's own list is the
 * Makefile's), for the unit test.
 */
#ifndef DBNG_REGISTRY_TEST_H
#define DBNG_REGISTRY_TEST_H

#include <stddef.h>
#include <stdio.h>

/* backend_missing_in - as backend_unavailable(), on @list
 * ("NAME:DEBIAN-PACKAGE ...") */
int backend_missing_in(const char *list, const char *name, char *deb,
		       size_t len);

/* backend_missing_help - the "not built here" line of --help for @list
 * (nothing if it is empty) */
void backend_missing_help(FILE *f, const char *list);

#endif
