/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare_html.h - compare --html (compare_html.c).
 */
#ifndef DBNG_COMPARE_HTML_H
#define DBNG_COMPARE_HTML_H

#include <stddef.h>

struct cmp_report;
struct result;

/*
 * compare_html_file - the page of report @rep of the @nb baseline runs
 * and @nc candidate runs @res (baseline first; named @bnames and
 * @cnames) to @path,
 * atomically: 0, or -1 with a message in @err.
 */
int compare_html_file(const struct cmp_report *rep, struct result **res,
		      char *const *bnames, int nb, char *const *cnames, int nc,
		      const char *path, char *err, size_t len);

#endif
