/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * version.h - the version and the commit of this build, from
 * scripts/version.sh at build time (docs/install.md, "Versions").
 */
#ifndef DBNG_VERSION_H
#define DBNG_VERSION_H

/* "0.5.0", or "0.5.0+3" for a build 3 commits past the tag v0.5.0 */
extern const char dbng_version[];

/* "abc1234", "abc1234-dirty" (a tracked file changed), or "" (not known:
 * a tree without git or its VERSION file) */
extern const char dbng_commit[];

/* dbng_version_long - "0.5.0 (commit abc1234)", or "0.5.0" without a
 * commit: what --version prints after the program's name */
const char *dbng_version_long(void);

#endif
