/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * result_foreign.h - the "foreign" object of a result (struct
 * result_foreign, result.h): its JSON form both ways, its merge across
 * the hosts of a run, and its figures for the reports.
 */
#ifndef DBNG_RESULT_FOREIGN_H
#define DBNG_RESULT_FOREIGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_t;
struct result;
struct result_foreign;

/* result_foreign_json - @f as its JSON object (docs/json-format.md) */
struct json_t *result_foreign_json(const struct result_foreign *f);

/*
 * result_foreign_read - the JSON object @o (absent or null: an older
 * result, method "none") into @f.  0, or -1 with what is wrong in @err
 * ("foreign.x ...").
 */
int result_foreign_read(struct json_t *o, struct result_foreign *f, char *err,
			size_t len);

/* result_foreign_merge - add host @h's figures to the run's @d (waits
 * and throughputs add, holders by name); -1: out of memory */
int result_foreign_merge(struct result_foreign *d,
			 const struct result_foreign *h);

/* result_foreign_add_holder - @ns more of the clients' wait caused by
 * program @comm in @f's holders (the largest FOREIGN_MAX_HOLDERS kept,
 * most first) */
void result_foreign_add_holder(struct result_foreign *f, const char *comm,
			       uint64_t ns);

/*
 * result_foreign_share - the clients' foreign wait as a share of their
 * time in the measured phase (clients x measured seconds), 0..1; 0 when
 * not measured.  With schedstat (no foreign split) the share of all
 * their run-queue wait, and *@runq_only true.
 */
double result_foreign_share(const struct result *r, bool *runq_only);

/* Past this share of the clients' time spent waiting for a CPU another
 * program held, the end of a run says the machine was busy (docs/
 * regressions.md, "Own latency"): 2 %, far above a quiet machine's
 * daemons, far below one CPU burner beside the run. */
#define FOREIGN_BUSY_SHARE 0.02

#endif
