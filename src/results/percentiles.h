/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * percentiles.h - the percentiles shown by default, once.
 */
#ifndef DBNG_PERCENTILES_H
#define DBNG_PERCENTILES_H

/* the columns of the text report's percentile table (report_text.c;
 * "dbench-ng report --percentiles" replaces them) */
#define PCT_TEXT_DEFAULT 50, 90, 99, 99.9

/* the percentiles stored in the JSON result (informative) and the
 * columns of the HTML operations table */
#define PCT_STORED 50, 90, 99, 99.9, 99.99

#endif
