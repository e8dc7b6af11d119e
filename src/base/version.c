/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * version.c - the one place the version is compiled in.  The Makefile
 * rebuilds this file whenever scripts/version.sh's answer changes, so the
 * banner, --version and the JSON result always agree.
 */
#include "version.h"

#include <stdio.h>

#ifndef DBNG_VERSION
#define DBNG_VERSION "0.0.0"
#endif
#ifndef DBNG_COMMIT
#define DBNG_COMMIT ""
#endif

const char dbng_version[] = DBNG_VERSION;
const char dbng_commit[] = DBNG_COMMIT;

const char *dbng_version_long(void)
{
	static char buf[sizeof(DBNG_VERSION) + sizeof(DBNG_COMMIT) + 16];

	if (!buf[0])
		snprintf(buf, sizeof(buf), "%s%s%s%s", dbng_version,
			 dbng_commit[0] ? " (commit " : "", dbng_commit,
			 dbng_commit[0] ? ")" : "");
	return buf;
}
