/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare_workload.h - did two runs replay the same workload?  Runs of
 * other loadfiles measure other work, so compare and check refuse to mix
 * them unless told to (--mixed-workloads, docs/regressions.md), as they
 * do --paths modes; the notes of a comparison say so too.
 */
#ifndef DBNG_COMPARE_WORKLOAD_H
#define DBNG_COMPARE_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>

struct result;

/* The loadfiles of a run, as far as it recorded them. */
struct cmp_workload {
	int n;			   /* loadfiles; 0: not known */
	const char *const *name;   /* n names, or NULL: split @given */
	const char *const *sha256; /* n SHA-256s (hex), or NULL: unknown */
	const char *given;	   /* the -c list, or a log's Running line */
};

/*
 * cmp_workload_of - the workload of result @x (borrowing its strings):
 * by content where a dbench-ng result has its loadfiles' SHA-256, else
 * by the names its config (a dbench log's Running line) gives; not
 * known for a log without that line.
 */
void cmp_workload_of(const struct result *x, struct cmp_workload *w);

/*
 * cmp_workload_same - whether @a and @b replay the same loadfiles in the
 * same order: the same SHA-256 each where both have it; else the same
 * kind (stock.h) and, for files of the user's, the same file name (the
 * directories may differ), for built-in ones the same name.  What is not
 * known is no difference.
 */
bool cmp_workload_same(const struct cmp_workload *a,
		       const struct cmp_workload *b);

/*
 * cmp_workload_say - "A ran dbench's client.txt (/usr/share/dbench/
 * client.txt) and B the built-in workload builtin:netbench: other
 * workloads, so their numbers are not comparable" into @err, for runs
 * named @a and @b
 */
void cmp_workload_say(char *err, size_t len, const char *a,
		      const struct cmp_workload *wa, const char *b,
		      const struct cmp_workload *wb);

/*
 * cmp_workloads_differ - do the runs @res[0..n-1] (named @names, which may
 * be NULL), and the run @also (named @also_name; NULL: none), replay
 * other workloads than the first of @res whose workload is known?  Then a
 * message naming two of them in @err, and true.
 */
bool cmp_workloads_differ(struct result *const *res, const char *const *names,
			  int n, const struct cmp_workload *also,
			  const char *also_name, char *err, size_t len);

#endif
