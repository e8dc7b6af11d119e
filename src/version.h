/* SPDX-License-Identifier: GPL-3.0-or-later */
/* version.h - the version string, set by the Makefile from git. */
#ifndef DBNG_VERSION_H
#define DBNG_VERSION_H

#ifndef DBNG_VERSION
#define DBNG_VERSION "0.1"
#endif

#endif
