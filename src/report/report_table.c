/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * report_table.c - the rows of the text report's op tables, shared by a
 * run's report (report_text.c) and the spread of --runs
 * (report_spread.c): dbench's table, labelled as dbench labels it, and
 * ours, whose labels no dbench parser takes for a row ("NTCreateX:").
 */
#include <stdio.h>

#include "ops.h"
#include "report_impl.h"
#include "text_format.h"

/* An op's label in our sections: "NTCreateX:", never a table row's. */
const char *our_label(int op, char buf[16])
{
	snprintf(buf, 16, "%s:", op_info[op].label);
	return buf;
}

/* One row of a table: count, mean and max in ms; the dbench table's
 * (@classic) labelled as dbench does, ours "NTCreateX:". */
void report_row(FILE *f, bool classic, bool machine, int op, uint64_t count,
		double mean, double max)
{
	char label[16];

	if (classic && machine)
		fprintf(f, ":%s:%u:%.03f:%.03f:\n", op_info[op].label,
			(unsigned int)count, mean, max);
	else
		fprintf(f, " %-12s %7u %9.03f %9.03f\n",
			classic ? op_info[op].label : our_label(op, label),
			(unsigned int)count, mean, max);
}

/* The dbench 4.0 table header, or ours for figures that are not a
 * result.  Rows with a zero global count are omitted, also in the
 * per-client tables. */
void report_header(FILE *f, bool classic)
{
	if (classic) {
		fprintf(f, TXT_TABLE "\n");
		fprintf(f, " ----------------------------------------\n");
	} else {
		fprintf(f, TXT_OPS_TABLE "\n");
		fprintf(f, " ========================================\n");
	}
}
