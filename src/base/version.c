/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * version.c - the one place the version is compiled in.  The Makefile
 * rebuilds this file whenever "git describe" changes, so the banner and
 * --version always agree.
 */
#include "version.h"

#ifndef DBNG_VERSION
#define DBNG_VERSION "0.1"
#endif

const char dbng_version[] = DBNG_VERSION;
