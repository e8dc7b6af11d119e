/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * format.c - the small formatters of the page: sizes, latencies,
 * percentile ticks, the colour and name of an op, a note paragraph.
 */
#include "html.h"

#include <inttypes.h>
#include <math.h>

/* One colour per op, the same in every table and plot. */
const char *const html_op_colour[OP_NR] = {
	[OP_NTCREATEX] = "#1f77b4", [OP_CLOSE] = "#ff7f0e",
	[OP_RENAME] = "#d62728",    [OP_UNLINK] = "#2ca02c",
	[OP_DELTREE] = "#9467bd",   [OP_RMDIR] = "#8c564b",
	[OP_MKDIR] = "#e377c2",	    [OP_QPATHINFO] = "#17becf",
	[OP_QFILEINFO] = "#bcbd22", [OP_QFSINFO] = "#7f7f7f",
	[OP_SFILEINFO] = "#393b79", [OP_FIND] = "#a55194",
	[OP_WRITEX] = "#e6ab02",    [OP_READX] = "#1b9e77",
	[OP_LOCKX] = "#843c39",	    [OP_UNLOCKX] = "#6b6ecf",
	[OP_FLUSH] = "#8ca252",	    [OP_SLEEP] = "#bd9e39",
	/* dbench 5's NFSv3 ops */
	[OP_GETATTR3] = "#3182bd",  [OP_LOOKUP3] = "#6baed6",
	[OP_CREATE3] = "#e6550d",   [OP_WRITE3] = "#fd8d3c",
	[OP_COMMIT3] = "#a63603",   [OP_READ3] = "#31a354",
	[OP_REMOVE3] = "#74c476",   [OP_MKDIR3] = "#756bb1",
	[OP_RMDIR3] = "#9e9ac8",    [OP_RENAME3] = "#de2d26",
	[OP_LINK3] = "#636363",	    [OP_SYMLINK3] = "#969696",
	[OP_READLINK3] = "#637939", [OP_READDIRPLUS3] = "#b5cf6b",
	[OP_ACCESS3] = "#8c6d31",   [OP_FSSTAT3] = "#e7ba52",
	[OP_FSINFO3] = "#7b4173",   [OP_PATHCONF3] = "#ce6dbd",
	[OP_SETATTR3] = "#d6616b",
};

/* Bytes with a decimal (I/O, as MB/s) or binary (memory, disks) unit. */
void html_fmt_size(char *b, size_t n, uint64_t v, bool binary)
{
	static const char *const dec[] = {"kB", "MB", "GB", "TB", "PB", "EB"};
	static const char *const bin[] = {"KiB", "MiB", "GiB",
					  "TiB", "PiB", "EiB"};
	double d = (double)v, k = binary ? 1024 : 1000;
	int u = -1;

	while (d >= k && u < 5) {
		d /= k;
		u++;
	}
	if (u < 0)
		snprintf(b, n, "%" PRIu64 " B", v);
	else
		snprintf(b, n, "%.1f %s", d, binary ? bin[u] : dec[u]);
}

/* A latency in ms with a unit that fits: "250 ns", "12.5 µs", "3 s". */
void html_fmt_lat(char *b, size_t n, double ms)
{
	if (ms < 0.000999)
		snprintf(b, n, "%.3g ns", ms * 1e6);
	else if (ms < 0.999)
		snprintf(b, n, "%.3g \xc2\xb5s", ms * 1e3);
	else if (ms < 999.5)
		snprintf(b, n, "%.3g ms", ms);
	else
		snprintf(b, n, "%.4g s", ms / 1e3);
}

/* Percentile tick k of the spectrum: 0%, 90%, 99%, 99.9%, ... */
void html_fmt_pct(char *b, size_t n, int k)
{
	if (!k)
		snprintf(b, n, "0%%");
	else
		snprintf(b, n, "%.*f%%", k > 2 ? k - 2 : 0,
			 100.0 - 100.0 / pow(10, k));
}

double html_ns_ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

bool html_op_shown(const struct result *r, int i)
{
	return op_is_timed(i) && (r->op[i].h.count || r->op[i].errors);
}

/* ---------------------------------------------------------- op tables */

void html_op_name(FILE *f, int i)
{
	fprintf(f,
		"<span class=\"op\"><span class=\"sw\" "
		"style=\"background:%s\"></span>%s</span>",
		html_op_colour[i], op_info[i].label);
}

void html_note(FILE *f, const char *kind, const char *text)
{
	fprintf(f, "<p class=\"note\" data-note=\"%s\">%s</p>\n", kind, text);
}
