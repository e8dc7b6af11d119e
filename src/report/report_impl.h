/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * report_impl.h - what the files of the text report share (private to
 * src/report/): the default percentiles and the rows of the op tables.
 */
#ifndef DBNG_REPORT_IMPL_H
#define DBNG_REPORT_IMPL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "report_text.h"

/* report_pcts.c: the columns without --percentiles */
extern const struct report_pcts report_default_pcts;

/* report_table.c: an op's label in our sections, "NTCreateX:" (@buf of
 * 16), never a row of dbench's table */
const char *our_label(int op, char buf[16]);

/* report_table.c: one row, count, mean and max in ms: dbench's table's
 * (@classic; with @machine dbench's colon-separated form), else ours */
void report_row(FILE *f, bool classic, bool machine, int op, uint64_t count,
		double mean, double max);

/* report_table.c: the header of dbench 4.0's table (@classic), or of ours
 * for figures that are not a result */
void report_header(FILE *f, bool classic);

static inline double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

#endif
