/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * dblog.h - read the text output (stdout) of a dbench 4.0 run, of a later
 * dbench (its wider table, --machine-readable) or of dbench-ng itself back
 * into a struct result, so that old dbench results can be re-rendered and
 * compared with new ones.  Only what the text holds is filled: counts,
 * mean and max per op (no histogram bins), and a time series estimated
 * from the progress lines.
 */
#ifndef DBNG_DBLOG_H
#define DBNG_DBLOG_H

#include <stdbool.h>
#include <stddef.h>

#include "result.h"

/*
 * dblog_detect - true if @text (@len bytes, need not be NUL-terminated)
 * looks like dbench or dbench-ng text output: it has a line starting with
 * "Throughput " that contains " MB/sec", the " Operation  Count  AvgLat
 * MaxLat" table header (or dbench-ng's " Per op ..."), or a "dbench
 * version " banner.
 */
bool dblog_detect(const char *text, size_t len);

/*
 * dblog_parse - fill @r (as returned by result_new()) from the log @text
 * of @len bytes; @name is used in messages.  Returns 0, or -1 with
 * "NAME:LINE: what is wrong" or "NAME: what is missing" in @err.  On
 * failure @r may hold part of the log: release it with result_free().
 *
 * A log with a table but no Throughput line (a failed or interrupted
 * run) is accepted with r->status = RESULT_FAILED and its last error
 * lines in r->errors[].  So is dbench-ng's own log of a failed or
 * interrupted run, which has no dbench table and no Throughput line (no
 * log parser may take it for a result) but our table (" Per op", rows
 * "NTCreateX:") and a last line "Partial figures of a failed run: X
 * MB/sec ...": its figures are read, and with the "Interrupted by
 * signal" marker the status is RESULT_INTERRUPTED.  A "Figures of run N
 * of M: ..." line (one run of a --runs log, cut out of it: a whole one
 * holds several runs, refused) reads the same way, as a result
 * (RESULT_OK) unless a marker says otherwise.
 */
int dblog_parse(const char *name, const char *text, size_t len,
		struct result *r, char *err, size_t errlen);

#endif
