/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * report_html.h - a result as one self-contained HTML page with inline
 * SVG plots (no script, nothing fetched).
 */
#ifndef DBNG_REPORT_HTML_H
#define DBNG_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

struct result;

/* report_html - write the page for @r to @f.  0, or -1 on a write error */
int report_html(FILE *f, const struct result *r);

/* report_html_file - write the page to @path atomically (temporary file,
 * then rename).  0, or -1 with a message in @err. */
int report_html_file(const struct result *r, const char *path, char *err,
		     size_t errlen);

#endif
