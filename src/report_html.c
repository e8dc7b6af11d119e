/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * report_html.c - placeholder until the HTML report lands.
 */
#include "report_html.h"

#include <stdio.h>

int report_html(FILE *f, const struct result *r)
{
	(void)r;
	return fputs("<!DOCTYPE html>\n", f) < 0 ? -1 : 0;
}

int report_html_file(const struct result *r, const char *path, char *err,
		     size_t errlen)
{
	(void)r;
	snprintf(err, errlen, "--html %s: HTML reports are not built yet",
		 path);
	return -1;
}
