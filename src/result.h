/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * result.h - what a run produced, merged from the client slots: the input
 * of every report.  Reports read it; they never measure.
 */
#ifndef DBNG_RESULT_H
#define DBNG_RESULT_H

#include <stdint.h>

#include "options.h"
#include "stats.h"

#define RESULT_MAX_MSGS 8

struct client_result {
	uint64_t lines; /* loadfile lines done, whole run */
	uint64_t bytes; /* bytes read and written, measured part */
	const struct stats *st;
};

struct result {
	const struct config *cfg;
	struct stats *total;	       /* merged over clients */
	struct client_result *clients; /* cfg->nclients entries */
	double throughput;	       /* MB/s, dbench's definition */
	double max_latency_ms;	       /* dbench's max_latency */
	double measured_s;	       /* seconds of the measured phase */
	int interrupted;	       /* signal that stopped the run, or 0 */
	uint64_t nwarn;		       /* unexpected results, all clients */
	const char *warn_msgs[RESULT_MAX_MSGS];
	int nwarn_msgs;
};

#endif
