/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * report_pcts.c - the percentile columns of the text report: the default
 * ones and --percentiles read.
 */
#include "report_text.h"

#include <stdio.h>
#include <string.h>

#include "num.h"
#include "percentiles.h"
#include "report_impl.h"

static const double default_p[] = { PCT_TEXT_DEFAULT };

#define NDEFAULT ((int)(sizeof(default_p) / sizeof(default_p[0])))

const struct report_pcts report_default_pcts = {
	.n = NDEFAULT,
	.p = { PCT_TEXT_DEFAULT },
};

void report_pcts_default(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (int k = 0; k < NDEFAULT && n < len; k++) {
		int w = snprintf(buf + n, len - n, "%s%g", k ? "," : "",
				 default_p[k]);

		if (w < 0)
			break;
		n += (size_t)w;
	}
}

int report_pcts_parse(const char *s, struct report_pcts *out, char *err,
		      size_t errlen)
{
	const char *p = s, *end;

	out->n = 0;
	while (*p) {
		double v = 0;

		if (num_f64(p, NUM_NORMAL, &v, &end) != NUM_OK ||
		    (*end && *end != ',') || !(v > 0 && v <= 100)) {
			snprintf(err, errlen, "--percentiles: '%.*s' is not a "
				 "percentile (0 < p <= 100)",
				 (int)strcspn(p, ","), p);
			return -1;
		}
		if (out->n == REPORT_MAX_PCTS) {
			snprintf(err, errlen, "--percentiles: at most %d",
				 REPORT_MAX_PCTS);
			return -1;
		}
		out->p[out->n++] = v;
		p = *end ? end + 1 : end;
	}
	if (!out->n) {
		snprintf(err, errlen, "--percentiles: no percentile given");
		return -1;
	}
	return 0;
}
