/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * report_text.h - the text report: our extra sections first, then the
 * dbench 4.0 table and the Throughput line, byte-compatible and last.
 */
#ifndef DBNG_REPORT_TEXT_H
#define DBNG_REPORT_TEXT_H

#include <stdio.h>

struct result;

/* report_text - print the end-of-run report of @r to @f. */
void report_text(FILE *f, const struct result *r);

#endif
