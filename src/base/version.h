/* SPDX-License-Identifier: GPL-3.0-or-later */
/* version.h - the version string, from git describe at build time. */
#ifndef DBNG_VERSION_H
#define DBNG_VERSION_H

extern const char dbng_version[];

#endif
