/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * text_format.h - the words of the text output that the reader of dbench
 * logs (dblog/) recognises, once: each is printed by one file and matched
 * by another, so a change of wording changes both sides.
 */
#ifndef DBNG_TEXT_FORMAT_H
#define DBNG_TEXT_FORMAT_H

/* dbench's last line (report_text.c: report_tput_line) */
#define TXT_TPUT      "Throughput "
#define TXT_FIGURES   "%g MB/sec%s%s  %d clients  %d procs  max_latency=%.03f ms"
#define TXT_TPUT_LINE TXT_TPUT TXT_FIGURES
#define TXT_SYNC_OPEN " (sync open)"
#define TXT_SYNC_DIRS " (sync dirs)"

/* the dbench 4.0 table header (report_text.c); later dbench's is wider */
#define TXT_TABLE      " Operation      Count    AvgLat    MaxLat"
#define TXT_TABLE_WIDE " Operation                Count    AvgLat    MaxLat"

/* what is not a result (a failed or interrupted run, a checkpoint, each
 * run of --runs) has our table instead of dbench's, rows "NTCreateX:", and
 * ends with TXT_PARTIAL "a failed run: " (or "an interrupted run: ", "an
 * unfinished run: ") or
 * TXT_RUN_FIGURES "N of M: ", then TXT_FIGURES */
#define TXT_OPS_TABLE	" Per op         Count    AvgLat    MaxLat"
#define TXT_PARTIAL	"Partial figures of "
#define TXT_RUN_FIGURES "Figures of run "

/* the sections of report_text.c before the table */
#define TXT_PCT_TABLE   " Latency ms"	       /* the percentile table */
#define TXT_RESP_TABLE  " Response ms"	       /* a paced run's (resp) */
#define TXT_UNEXPECTED  " Unexpected results"  /* then ": N (...)" */
#define TXT_NOT_RUN     " Not run"	       /* then ": N lines ..." */
#define TXT_INTERRUPTED "Interrupted by signal " /* then the number */
#define TXT_RUN_FAILED  "Run failed "
/* a checkpoint's (status running), then "after X s of measurement: ...",
 * "during the warmup: ..." or "before any operation was measured" */
#define TXT_CHECKPOINT  "Checkpoint of a run still running or killed, "
#define TXT_HOSTS	"Hosts: " /* a run across hosts: the imbalance */

/* the per-client tables of report_text.c */
#define TXT_PER_CLIENT "Per client results:"
#define TXT_CLIENT     "Client " /* "Client N did N lines and N bytes" */

/* the banners: dbench 4.0's, and dbench-ng's (printed by cli/run.c) */
#define TXT_VERSION_4  "dbench version "
#define TXT_VERSION_NG "dbench-ng version "
#define TXT_RUNNING    "Running for " /* cli/run.c */

#endif
