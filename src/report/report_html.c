/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * report_html.c - a result as one self-contained HTML5 page: the tables of
 * the text report (config, environment, per-op latencies and slowest calls)
 * and inline SVG plots: percentile spectrum per op, throughput, max and p99
 * latency over time.  No script, nothing fetched, every string from the
 * result escaped, and the same result always gives the same bytes.
 */
#include "report_html.h"

#include "atomic.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "result.h"

/* Log latency axes never go below this (ms): zero and sub-100 ns values
 * are drawn on the floor. */
#define FLOOR_MS 1e-4

/* Time plots with more intervals than this are drawn one column per group
 * of intervals (the group's max), which keeps every spike. */
#define MAX_COLUMNS 1000

/* Per-client table: at most this many rows. */
#define MAX_CLIENT_ROWS 1024

static const double table_pcts[] = {50, 90, 99, 99.9, 99.99};

/* One colour per op, the same in every table and plot. */
static const char *const op_colour[OP_NR] = {
	[OP_NTCREATEX] = "#1f77b4", [OP_CLOSE] = "#ff7f0e",
	[OP_RENAME] = "#d62728",    [OP_UNLINK] = "#2ca02c",
	[OP_DELTREE] = "#9467bd",   [OP_RMDIR] = "#8c564b",
	[OP_MKDIR] = "#e377c2",	    [OP_QPATHINFO] = "#17becf",
	[OP_QFILEINFO] = "#bcbd22", [OP_QFSINFO] = "#7f7f7f",
	[OP_SFILEINFO] = "#393b79", [OP_FIND] = "#a55194",
	[OP_WRITEX] = "#e6ab02",    [OP_READX] = "#1b9e77",
	[OP_LOCKX] = "#843c39",	    [OP_UNLOCKX] = "#6b6ecf",
	[OP_FLUSH] = "#8ca252",	    [OP_SLEEP] = "#bd9e39",
};

/* ------------------------------------------------------------------ text */

/* Length of the valid UTF-8 sequence at @p that is printable (no C1
 * control), or 0. */
static unsigned int utf8_len(const unsigned char *p)
{
	unsigned int n;
	uint32_t c;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		n = 2;
		c = p[0] & 0x1f;
	} else if ((p[0] & 0xf0) == 0xe0) {
		n = 3;
		c = p[0] & 0x0f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4;
		c = p[0] & 0x07;
	} else {
		return 0;
	}
	for (unsigned int i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0; /* the terminating NUL stops here too */
		c = c << 6 | (p[i] & 0x3f);
	}
	if (c < 0xa0 || (n == 3 && c < 0x800) ||
	    (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return n;
}

/*
 * esc - @s as HTML text or attribute value: the markup characters as
 * entities, control characters and bytes that are not UTF-8 as a visible
 * \xNN (a path may hold anything; the page stays well-formed).
 */
static void esc(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		unsigned int n = utf8_len(p);

		if (n > 1) {
			fwrite(p, 1, n, f);
			p += n;
			continue;
		}
		if (!n || *p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\x%02X", *p++);
			continue;
		}
		switch (*p) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			fputc(*p, f);
		}
		p++;
	}
}

/* @s escaped, or a grey "unknown". */
static void str(FILE *f, const char *s)
{
	if (s)
		esc(f, s);
	else
		fputs("<span class=\"na\">unknown</span>", f);
}

/* @s as one shell word: quoted when it needs to be, then escaped. */
static void shell_word(FILE *f, const char *s)
{
	bool plain = *s;
	char *q, *o;

	for (const char *p = s; *p; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("_-./:=,@%+", *p)))
			plain = false;
	}
	q = plain ? NULL : malloc(4 * strlen(s) + 3);
	if (!q) {
		esc(f, s);
		return;
	}
	o = q;
	*o++ = '\'';
	for (const char *p = s; *p; p++) {
		if (*p == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *p;
		}
	}
	*o++ = '\'';
	*o = 0;
	esc(f, q);
	free(q);
}

/* Bytes with a decimal (I/O, as MB/s) or binary (memory, disks) unit. */
static void fmt_size(char *b, size_t n, uint64_t v, bool binary)
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
static void fmt_lat(char *b, size_t n, double ms)
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
static void fmt_pct(char *b, size_t n, int k)
{
	if (!k)
		snprintf(b, n, "0%%");
	else
		snprintf(b, n, "%.*f%%", k > 2 ? k - 2 : 0,
			 100.0 - 100.0 / pow(10, k));
}

static double ns_ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static bool op_shown(const struct result *r, int i)
{
	return op_is_timed(i) && (r->op[i].h.count || r->op[i].errors);
}

/* ------------------------------------------------------------ page parts */

static const char css[] =
	"body{margin:0;background:#f6f7f9;color:#1e2125;"
	"font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,"
	"'DejaVu Sans',sans-serif}\n"
	"main{max-width:1320px;margin:0 auto;padding:12px 24px 48px}\n"
	"h1{font-size:22px;margin:10px 0 2px}\n"
	"h2{font-size:17px;margin:30px 0 10px;padding-bottom:4px;"
	"border-bottom:1px solid #d9dde3}\n"
	"h3{font-size:14px;margin:4px 0 6px}\n"
	".sub{color:#5b6470}\n"
	".badge{display:inline-block;padding:1px 9px;border-radius:10px;"
	"font-size:12px;font-weight:600;vertical-align:middle}\n"
	".st-ok{background:#dff3e4;color:#17652b}\n"
	".st-interrupted{background:#fff0d1;color:#8a5a00}\n"
	".st-failed{background:#fde1df;color:#a3190f}\n"
	".banner{border:2px solid;border-radius:6px;padding:10px 14px;"
	"margin:14px 0;font-weight:600}\n"
	".banner ul{margin:6px 0 0;font-weight:normal}\n"
	".banner.st-interrupted{border-color:#e3a93a}\n"
	".banner.st-failed{border-color:#dc5b52}\n"
	".cards{display:flex;flex-wrap:wrap;gap:10px;margin:14px 0}\n"
	".card{background:#fff;border:1px solid #dfe3e8;border-radius:6px;"
	"padding:8px 16px;min-width:120px}\n"
	".card .v{font-size:22px;font-weight:600;"
	"font-variant-numeric:tabular-nums}\n"
	".card .k{color:#5b6470;font-size:12px}\n"
	"table{border-collapse:collapse;background:#fff;font-size:13px;"
	"border:1px solid #dfe3e8}\n"
	"th,td{padding:3px 8px;border-bottom:1px solid #edf0f3;"
	"text-align:left;vertical-align:top}\n"
	"thead th{background:#eef1f4;font-weight:600;white-space:nowrap}\n"
	"tfoot td{font-weight:600;background:#f8f9fa}\n"
	".n{text-align:right;font-variant-numeric:tabular-nums;"
	"white-space:nowrap}\n"
	".kv th{font-weight:normal;color:#5b6470;white-space:nowrap}\n"
	".kv th.sec{color:#1e2125;font-weight:600;background:#eef1f4}\n"
	".cols{display:grid;grid-template-columns:repeat(auto-fit,"
	"minmax(440px,1fr));gap:16px;align-items:start}\n"
	".cols table{width:100%}\n"
	".scroll{overflow-x:auto}\n"
	"code,.mono{font-family:ui-monospace,'DejaVu Sans Mono',monospace;"
	"font-size:12px}\n"
	".cmd{background:#fff;border:1px solid #dfe3e8;border-radius:6px;"
	"padding:6px 10px;word-break:break-all}\n"
	".path{word-break:break-all;min-width:180px}\n"
	".na{color:#9aa1aa}\n"
	".sw{display:inline-block;width:10px;height:10px;border-radius:2px;"
	"margin-right:6px}\n"
	".op{white-space:nowrap}\n"
	".stk{overflow-wrap:anywhere;min-width:260px}\n"
	".note{background:#eef3fa;border-left:3px solid #7d9cc8;"
	"padding:8px 12px;margin:8px 0}\n"
	"figure{margin:14px 0 26px;background:#fff;border:1px solid #dfe3e8;"
	"border-radius:6px;padding:8px 8px 4px}\n"
	"figcaption{color:#4a525c;font-size:13px;padding:2px 8px 6px}\n"
	"svg.plot{display:block;width:100%;height:auto;margin:0 auto}\n"
	"svg.plot text{font-size:11px;fill:#3b424b}\n"
	"svg.plot .title{font-size:15px;font-weight:600;fill:#1e2125}\n"
	"svg.plot .pt{font-size:12px;font-weight:700}\n"
	"svg.plot .ps{font-size:10px;fill:#6b7480;text-anchor:end}\n"
	"svg.plot .yl{text-anchor:end}\n"
	"svg.plot .xl{text-anchor:middle}\n"
	"svg.plot .xs{text-anchor:middle;font-size:10px}\n"
	"svg.plot .at{text-anchor:middle;font-size:12px}\n"
	"svg.plot .grid{stroke:#e3e6ea;stroke-width:1}\n"
	"svg.plot .minor{stroke:#f1f3f5;stroke-width:1}\n"
	"svg.plot .frame{fill:none;stroke:#9aa1aa;stroke-width:1}\n"
	"svg.plot .bg{fill:#fff}\n"
	"svg.plot .warm{fill:#eceef1}\n"
	"svg.plot .wl{fill:#6b7480;font-size:10px}\n"
	"svg.plot polyline{fill:none;stroke-linejoin:round;"
	"stroke-linecap:round}\n"
	"svg.plot .ctx{stroke:#c9ced4;stroke-width:1}\n"
	"svg.plot .area{fill:#1f77b4;fill-opacity:0.16;stroke:none}\n"
	"svg.plot .tput{stroke:#1f77b4;stroke-width:1.5}\n"
	"svg.plot .ref{stroke:#1e2125;stroke-width:1.2;"
	"stroke-dasharray:6 4}\n"
	"svg.plot .dbl polyline{stroke-dasharray:7 4}\n"
	"svg.plot .ann{font-size:12px;font-weight:600}\n"
	"svg.plot .stm{fill:#fff;stroke-width:1.6}\n";

static const char *status_word(enum result_status s)
{
	switch (s) {
	case RESULT_OK:
		return "ok";
	case RESULT_INTERRUPTED:
		return "interrupted";
	case RESULT_FAILED:
		return "failed";
	}
	return "failed";
}

static void head(FILE *f, const struct result *r)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\"/>\n"
	      "<meta name=\"viewport\" "
	      "content=\"width=device-width, initial-scale=1\"/>\n"
	      "<title>",
	      f);
	esc(f, r->tool ? r->tool : "dbench-ng");
	fputs(" run ", f);
	if (r->start_time)
		esc(f, r->start_time);
	fprintf(f, ": %.2f MB/s, %s</title>\n<style>\n", r->throughput,
		status_word(r->status));
	fputs(css, f);
	fputs("</style>\n</head>\n<body>\n<main>\n", f);
}

static void title(FILE *f, const struct result *r)
{
	const char *st = status_word(r->status);

	fputs("<header>\n<h1>", f);
	esc(f, r->tool ? r->tool : "dbench-ng");
	fputs(" ", f);
	str(f, r->version);
	fprintf(f, " <span class=\"badge st-%s\">%s</span></h1>\n", st, st);
	fputs("<div class=\"sub\">started ", f);
	str(f, r->start_time);
	if (r->env.hostname) {
		fputs(" on ", f);
		esc(f, r->env.hostname);
	}
	fputs("</div>\n", f);

	if (r->status != RESULT_OK || r->nerrors) {
		fprintf(f, "<div class=\"banner st-%s\">",
			r->status == RESULT_OK ? "failed" : st);
		if (r->status == RESULT_INTERRUPTED && r->measured_s > 0)
			fprintf(f,
				"Interrupted by signal %d after %.1f s of "
				"measurement: partial results.",
				r->signal, r->measured_s);
		else if (r->status == RESULT_INTERRUPTED)
			fprintf(f,
				"Interrupted by signal %d during the warmup: "
				"the figures below are of the warmup.",
				r->signal);
		else if (r->status == RESULT_FAILED)
			fputs("The run failed: a client hit a fatal error and "
			      "the run was stopped; the figures cover what ran "
			      "until then.",
			      f);
		else
			fputs("Errors were recorded.", f);
		if (r->nerrors) {
			fputs("\n<ul>\n", f);
			for (int i = 0; i < r->nerrors; i++) {
				fputs("<li class=\"mono\">", f);
				str(f, r->errors[i]);
				fputs("</li>\n", f);
			}
			fputs("</ul>", f);
		}
		fputs("</div>\n", f);
	}
	if (r->argc > 0) {
		fputs("<div class=\"cmd mono\">$", f);
		for (int i = 0; i < r->argc; i++) {
			fputs(" ", f);
			if (r->argv[i])
				shell_word(f, r->argv[i]);
		}
		fputs("</div>\n", f);
	}
	fputs("</header>\n", f);
}

static void card_open(FILE *f, const char *key)
{
	fprintf(f,
		"<div class=\"card\"><div class=\"k\">%s</div>"
		"<div class=\"v\">",
		key);
}

static void summary(FILE *f, const struct result *r)
{
	const struct config *c = &r->cfg;
	uint64_t total = 0;

	for (int i = 0; i < OP_NR; i++) {
		if (op_is_timed(i))
			total += r->op[i].h.count;
	}
	fputs("<h2>Summary</h2>\n<div class=\"cards\">\n", f);
	card_open(f, "Throughput");
	fprintf(f, "%.2f MB/s</div></div>\n", r->throughput);
	card_open(f, "max_latency (dbench)");
	fprintf(f, "%.3f ms</div></div>\n", r->max_latency_ms);
	card_open(f, "Clients");
	fprintf(f, "%d</div><div class=\"k\">%d procs &#215; %d</div></div>\n",
		c->nclients, c->nprocs, c->cpp);
	card_open(f, "Measured");
	fprintf(f,
		"%.1f s</div><div class=\"k\">after %.1f s of warmup"
		"</div></div>\n",
		r->measured_s, r->warmup_s);
	card_open(f, "Operations");
	fprintf(f, "%" PRIu64 "</div></div>\n", total);
	card_open(f, "Unexpected results");
	fprintf(f, "%" PRIu64 "</div></div>\n", r->nwarn);
	fputs("</div>\n", f);
	fprintf(f,
		"<p class=\"sub\">Throughput %g MB/sec%s%s  %d clients  "
		"%d procs  max_latency=%.03f ms</p>\n",
		r->throughput, c->sync_open ? " (sync open)" : "",
		c->sync_dirs ? " (sync dirs)" : "", c->nclients, c->nprocs,
		r->max_latency_ms);
}

/* ----------------------------------------------------- key/value tables */

static void kv_sec(FILE *f, const char *name)
{
	fprintf(f, "<tr><th class=\"sec\" colspan=\"3\">%s</th></tr>\n", name);
}

static void kv_key(FILE *f, const char *key, const char *opt)
{
	fprintf(f, "<tr><th>%s</th><td><code>%s</code></td><td>", key, opt);
}

static void kv_int(FILE *f, const char *key, const char *opt, long v,
		   const char *unit)
{
	kv_key(f, key, opt);
	fprintf(f, "%ld%s</td></tr>\n", v, unit);
}

static void kv_bool(FILE *f, const char *key, const char *opt, bool v)
{
	kv_key(f, key, opt);
	fputs(v ? "<b>yes</b></td></tr>\n"
		: "<span class=\"na\">no</span>"
		  "</td></tr>\n",
	      f);
}

static void kv_str(FILE *f, const char *key, const char *opt, const char *v)
{
	kv_key(f, key, opt);
	fputs("<span class=\"path\">", f);
	str(f, v);
	fputs("</span></td></tr>\n", f);
}

static void config_table(FILE *f, const struct config *c)
{
	fputs("<div>\n<h3>Configuration</h3>\n<table class=\"kv\">\n"
	      "<thead><tr><th>Setting</th><th>Option</th><th>Value</th>"
	      "</tr></thead>\n<tbody>\n",
	      f);
	kv_int(f, "Processes", "NPROCS", c->nprocs, "");
	kv_int(f, "Clients per process", "--clients-per-process", c->cpp, "");
	kv_int(f, "Clients", "", c->nclients, "");
	kv_int(f, "Time limit", "-t", c->timelimit, " s");
	kv_int(f, "Warmup", "--warmup", c->warmup, " s");
	kv_str(f, "Loadfile", "-c", c->loadfile);
	kv_str(f, "Directory", "-D", c->dir);
	kv_str(f, "Backend", "-B", c->backend);
	kv_key(f, "Target rate", "-R");
	if (c->target_rate > 0)
		fprintf(f, "%g MB/s per client</td></tr>\n", c->target_rate);
	else
		fputs("<span class=\"na\">off</span></td></tr>\n", f);
	kv_bool(f, "Sync open", "-s", c->sync_open);
	kv_bool(f, "Sync directories", "-S", c->sync_dirs);
	kv_bool(f, "fsync after writes", "-F", c->fsync_writes);
	kv_bool(f, "Extended attributes", "-x", c->xattr);
	kv_bool(f, "No path resolution", "--no-resolve", c->no_resolve);
	kv_bool(f, "One-byte write fix", "--one-byte-write-fix",
		c->one_byte_fix);
	kv_bool(f, "Stat check", "--stat-check", c->stat_check);
	kv_bool(f, "Fake I/O", "--fake-io", c->fake_io);
	kv_bool(f, "Skip cleanup", "--skip-cleanup", c->skip_cleanup);
	kv_bool(f, "Per-client results", "--per-client-results", c->per_client);
	kv_bool(f, "Run once", "--run-once", c->run_once);
	kv_bool(f, "Machine readable", "--machine-readable", c->machine);
	kv_bool(f, "Show execute time", "--show-execute-time",
		c->show_exec_time);
	kv_bool(f, "No percentiles", "--no-percentiles", c->no_percentiles);
	kv_key(f, "Stall threshold", "--stall-threshold");
	if (c->stall_ms > 0)
		fprintf(f, "%d ms</td></tr>\n", c->stall_ms);
	else
		fputs("<span class=\"na\">off</span></td></tr>\n", f);
	kv_key(f, "JSON result", "--json");
	if (c->json)
		esc(f, c->json);
	else
		fputs("<span class=\"na\">no</span>", f);
	fputs("</td></tr>\n</tbody>\n</table>\n</div>\n", f);
}

static void kv_size(FILE *f, const char *key, uint64_t v)
{
	char b[32];

	kv_key(f, key, "");
	if (v) {
		fmt_size(b, sizeof(b), v, true);
		fprintf(f, "%s <span class=\"na\">(%" PRIu64 " bytes)</span>",
			b, v);
	} else {
		fputs("<span class=\"na\">unknown</span>", f);
	}
	fputs("</td></tr>\n", f);
}

static void env_table(FILE *f, const struct result_env *e)
{
	fputs("<div>\n<h3>Environment</h3>\n<table class=\"kv\">\n<tbody>\n",
	      f);
	kv_sec(f, "Host");
	kv_str(f, "Hostname", "", e->hostname);
	kv_key(f, "Kernel", "");
	str(f, e->kernel);
	if (e->kernel_version) {
		fputs(" <span class=\"na\">", f);
		esc(f, e->kernel_version);
		fputs("</span>", f);
	}
	fputs("</td></tr>\n", f);
	kv_str(f, "Machine", "", e->machine);
	kv_key(f, "CPU", "");
	str(f, e->cpu_model);
	if (e->cpus > 0)
		fprintf(f, " &#215; %d online", e->cpus);
	fputs("</td></tr>\n", f);
	kv_size(f, "Memory", e->mem_bytes);
	kv_sec(f, "Directory (-D)");
	kv_str(f, "As given", "", e->dir);
	kv_str(f, "Real path", "", e->dir_real);
	kv_str(f, "Filesystem", "", e->fs_type);
	kv_str(f, "Device", "", e->fs_device);
	kv_str(f, "Mount point", "", e->fs_mount_point);
	kv_str(f, "Mount options", "", e->fs_options);
	kv_size(f, "Size", e->fs_size_bytes);
	kv_size(f, "Free", e->fs_free_bytes);
	kv_sec(f, "Loadfiles (-c) and their SHA-256");
	if (!e->nloadfiles)
		fputs("<tr><td colspan=\"3\" class=\"na\">none recorded</td>"
		      "</tr>\n",
		      f);
	for (int i = 0; i < e->nloadfiles; i++) {
		fputs("<tr><th class=\"path\">", f);
		str(f, e->loadfile_name ? e->loadfile_name[i] : NULL);
		fputs("</th><td colspan=\"2\" class=\"mono path\">", f);
		str(f, e->loadfile_sha256 ? e->loadfile_sha256[i] : NULL);
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody>\n</table>\n</div>\n", f);
}

/* ---------------------------------------------------------- op tables */

static void op_name(FILE *f, int i)
{
	fprintf(f,
		"<span class=\"op\"><span class=\"sw\" "
		"style=\"background:%s\"></span>%s</span>",
		op_colour[i], op_info[i].label);
}

/* The slowest call's details are known: a zeroed result_op (a dbench
 * log) has a time of 0 and nothing else. */
static bool max_known(const struct result_op *o)
{
	return o->h.count && (o->max_at_s > 0 || o->max_client >= 0 ||
			      o->max_file || o->max_path || o->max_line);
}

static void op_table(FILE *f, const struct result *r)
{
	const int npc = (int)(sizeof(table_pcts) / sizeof(table_pcts[0]));
	uint64_t count = 0, errors = 0, bytes = 0;
	char b[32];

	fputs("<h2>Operations</h2>\n<div class=\"scroll\">\n<table>\n"
	      "<thead>\n<tr><th rowspan=\"2\">Operation</th>"
	      "<th rowspan=\"2\" class=\"n\">Count</th>"
	      "<th rowspan=\"2\" class=\"n\">Errors</th>"
	      "<th rowspan=\"2\" class=\"n\">Bytes</th>",
	      f);
	fprintf(f, "<th colspan=\"%d\">Latency (ms)</th>", npc + 2);
	fputs("<th colspan=\"4\">Slowest call</th></tr>\n<tr>"
	      "<th class=\"n\">mean</th>",
	      f);
	for (int k = 0; k < npc; k++)
		fprintf(f, "<th class=\"n\">p%g</th>", table_pcts[k]);
	fputs("<th class=\"n\">max</th><th class=\"n\">at (s)</th>"
	      "<th class=\"n\">client</th><th>loadfile:line</th>"
	      "<th>path</th></tr>\n</thead>\n<tbody>\n",
	      f);
	for (int i = 0; i < OP_NR; i++) {
		const struct result_op *o = &r->op[i];
		const struct hist *h = &o->h;

		if (!op_shown(r, i))
			continue;
		count += h->count;
		errors += o->errors;
		bytes += o->bytes;
		fputs("<tr><td>", f);
		op_name(f, i);
		fprintf(f, "</td><td class=\"n\">%" PRIu64 "</td>", h->count);
		fprintf(f, "<td class=\"n\">%s%" PRIu64 "%s</td>",
			o->errors ? "<b>" : "", o->errors,
			o->errors ? "</b>" : "");
		fmt_size(b, sizeof(b), o->bytes, false);
		if (o->bytes)
			fprintf(f,
				"<td class=\"n\" title=\"%" PRIu64
				" bytes\">%s</td>",
				o->bytes, b);
		else
			fputs("<td class=\"n na\">0</td>", f);
		fprintf(f, "<td class=\"n\">%.3f</td>", hist_mean(h) / 1e6);
		for (int k = 0; k < npc; k++) {
			if (r->has_bins && h->count)
				fprintf(f, "<td class=\"n\">%.3f</td>",
					ns_ms(hist_value_at(h, table_pcts[k])));
			else
				fputs("<td class=\"n na\">&#8211;</td>", f);
		}
		fprintf(f, "<td class=\"n\"><b>%.3f</b></td>", ns_ms(h->max));
		if (max_known(o) && o->max_at_s >= 0)
			fprintf(f, "<td class=\"n\">%.3f</td>", o->max_at_s);
		else
			fputs("<td class=\"n na\">&#8211;</td>", f);
		if (o->max_client >= 0 && h->count)
			fprintf(f, "<td class=\"n\">%d</td>", o->max_client);
		else
			fputs("<td class=\"n na\">&#8211;</td>", f);
		fputs("<td class=\"mono path\">", f);
		if (o->max_file) {
			esc(f, o->max_file);
			if (o->max_line)
				fprintf(f, ":%" PRIu32, o->max_line);
		} else if (o->max_line) {
			fprintf(f, "line %" PRIu32, o->max_line);
		} else {
			fputs("<span class=\"na\">&#8211;</span>", f);
		}
		fputs("</td><td class=\"mono path\">", f);
		if (o->max_path)
			esc(f, o->max_path);
		else
			fputs("<span class=\"na\">&#8211;</span>", f);
		fputs("</td></tr>\n", f);
	}
	fmt_size(b, sizeof(b), bytes, false);
	fprintf(f,
		"</tbody>\n<tfoot><tr><td>Total</td><td class=\"n\">%" PRIu64
		"</td><td class=\"n\">%" PRIu64 "</td><td class=\"n\">%s</td>"
		"<td colspan=\"%d\"></td></tr></tfoot>\n</table>\n</div>\n",
		count, errors, bytes ? b : "0", npc + 6);
	if (!r->has_bins)
		fputs("<p class=\"note\">No percentiles: this result has no "
		      "latency histograms (it was read from a dbench text "
		      "log, which keeps only count, mean and max per "
		      "operation).</p>\n",
		      f);
	if (r->nwarn || r->nwarn_msgs) {
		fprintf(f,
			"<p class=\"note\">Unexpected results: %" PRIu64
			" (counted in the Errors column; the run went on)",
			r->nwarn);
		for (int i = 0; i < r->nwarn_msgs; i++) {
			fputs("<br/>\n<span class=\"mono\">", f);
			str(f, r->warn_msgs[i]);
			fputs("</span>", f);
		}
		fputs("</p>\n", f);
	}
}

/* A ';'-separated stack, escaped, breakable after each frame. */
static void frames(FILE *f, const char *stack)
{
	char frame[512];

	while (*stack) {
		size_t n = strcspn(stack, ";");

		if (n >= sizeof(frame))
			n = sizeof(frame) - 1;
		memcpy(frame, stack, n);
		frame[n] = 0;
		esc(f, frame);
		stack += n;
		if (*stack == ';') {
			fputs(";<wbr/>", f);
			stack++;
		} else if (*stack) {
			stack++; /* a frame longer than the buffer: cut */
		}
	}
}

/* PSI avg10 before and after, and the stalled time, per resource. */
static void psi_cell(FILE *f, const struct result_stall *ev)
{
	static const char *const names[PSI_NR] = {"io", "memory", "cpu"};
	bool any = false;

	for (int i = 0; i < PSI_NR; i++) {
		const struct result_psi *a = &ev->psi_start[i];
		const struct result_psi *b = &ev->psi_end[i];

		if (!a->valid || !b->valid)
			continue;
		fprintf(f,
			"%s<span class=\"op\">%s some %.2f&#8594;%.2f%%, "
			"full %.2f&#8594;%.2f%%, +%.1f ms</span>",
			any ? "<br/>" : "", names[i], a->some_avg10,
			b->some_avg10, a->full_avg10, b->full_avg10,
			(double)(b->some_total_us - a->some_total_us) / 1e3);
		any = true;
	}
	if (!any)
		fputs("<span class=\"na\">&#8211;</span>", f);
}

/* The watchdog's findings: ops in flight past --stall-threshold, where
 * their client was in the kernel, and the stacks seen most often. */
static void stalls_section(FILE *f, const struct result *r)
{
	const struct result_stalls *st = &r->stalls;
	bool first = true;

	if (!st->enabled && !st->total)
		return;
	fputs("<h2>Stalls</h2>\n", f);
	if (!st->total) {
		fprintf(f,
			"<p>No operation ran longer than the stall threshold "
			"of %.0f ms.</p>\n",
			st->threshold_ms);
		goto out;
	}
	fprintf(f,
		"<p><b>%" PRIu64 " operation%s ran longer than %.0f ms</b>"
		" (",
		st->total, st->total == 1 ? "" : "s", st->threshold_ms);
	for (int i = 0; i < OP_NR; i++) {
		if (!st->count[i])
			continue;
		fprintf(f, "%s%s %" PRIu64 ", max %.3f ms", first ? "" : "; ",
			op_info[i].label, st->count[i], st->max_ms[i]);
		first = false;
	}
	fprintf(f, ").  The %d longest, while they were stuck:</p>\n",
		st->nevents);
	fputs("<div class=\"scroll\">\n<table>\n<thead><tr><th>#</th>"
	      "<th>Operation</th><th class=\"n\">ms</th>"
	      "<th class=\"n\">at (s)</th><th class=\"n\">client (pid)</th>"
	      "<th>loadfile:line / path</th><th>PSI avg10 during</th>"
	      "<th>samples: state, wchan, kernel stack</th></tr></thead>\n"
	      "<tbody>\n",
	      f);
	for (int k = 0; k < st->nevents; k++) {
		const struct result_stall *ev = &st->events[k];

		fprintf(f, "<tr><td class=\"n\">%d</td><td>", k + 1);
		if (ev->op >= 0 && ev->op < OP_NR)
			op_name(f, ev->op);
		fprintf(f,
			"</td><td class=\"n\"><b>%.3f</b>%s</td>"
			"<td class=\"n\">%.3f</td><td class=\"n\">%d (%d)</td>"
			"<td class=\"mono path\">",
			ev->duration_ms, ev->ended ? "" : "<br/>still stuck",
			ev->start_s, ev->client, ev->pid);
		str(f, ev->file);
		fprintf(f, ":%" PRIu32, ev->line);
		if (ev->path) {
			fputs("<br/>", f);
			esc(f, ev->path);
		}
		fputs("</td><td class=\"mono\">", f);
		psi_cell(f, ev);
		fputs("</td><td class=\"mono stk\">", f);
		for (int i = 0; i < ev->nsamples; i++) {
			const struct result_stall_sample *sm = &ev->samples[i];

			fprintf(f, "%s<b>%.0f ms</b> %c ", i ? "<br/>" : "",
				sm->t_ms,
				sm->state >= 'A' && sm->state <= 'Z' ? sm->state
								     : '?');
			str(f, sm->wchan && *sm->wchan ? sm->wchan : NULL);
			if (sm->repeat)
				fprintf(f, " (&#215;%u more)", sm->repeat);
			if (sm->stack && *sm->stack) {
				fputs("<br/><span class=\"na\">", f);
				frames(f, sm->stack);
				fputs("</span>", f);
			}
		}
		if (!ev->nsamples)
			fputs("<span class=\"na\">no sample</span>", f);
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody>\n</table>\n</div>\n", f);
	if (st->nfolded) {
		fputs("<h3>Kernel stacks of the stalled clients</h3>\n"
		      "<div class=\"scroll\">\n<table>\n<thead><tr>"
		      "<th class=\"n\">samples</th><th>stack (outermost frame "
		      "first)</th></tr></thead>\n<tbody>\n",
		      f);
		for (int i = 0; i < st->nfolded; i++) {
			fprintf(f,
				"<tr><td class=\"n\">%" PRIu64 "</td>"
				"<td class=\"mono stk\">",
				st->folded[i].count);
			if (st->folded[i].stack)
				frames(f, st->folded[i].stack);
			fputs("</td></tr>\n", f);
		}
		if (st->folded_other)
			fprintf(f,
				"<tr><td class=\"n\">%" PRIu64 "</td><td "
				"class=\"na\">other stacks</td></tr>\n",
				st->folded_other);
		fputs("</tbody>\n</table>\n</div>\n", f);
	}
out:
	if (st->note) {
		fputs("<p class=\"note\">", f);
		esc(f, st->note);
		fputs("</p>\n", f);
	}
}

static void clients_table(FILE *f, const struct result *r)
{
	int n = r->nclients < MAX_CLIENT_ROWS ? r->nclients : MAX_CLIENT_ROWS;
	char b[32];

	if (!r->clients || r->nclients <= 0)
		return;
	fprintf(f,
		"<details%s>\n<summary><b>Per-client results</b> "
		"(%d clients: count, then mean / max in ms)</summary>\n"
		"<div class=\"scroll\">\n<table>\n<thead><tr><th>Client</th>"
		"<th class=\"n\">Lines</th><th class=\"n\">Bytes</th>",
		r->cfg.per_client ? " open=\"open\"" : "", r->nclients);
	for (int i = 0; i < OP_NR; i++) {
		if (!op_shown(r, i))
			continue;
		fputs("<th class=\"n\">", f);
		op_name(f, i);
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
	for (int c = 0; c < n; c++) {
		const struct result_client *rc = &r->clients[c];

		fmt_size(b, sizeof(b), rc->bytes, false);
		fprintf(f,
			"<tr><td class=\"n\">%d</td><td class=\"n\">%" PRIu64
			"</td><td class=\"n\">%s</td>",
			c, rc->lines, b);
		for (int i = 0; i < OP_NR; i++) {
			double mean = rc->count[i]
					      ? (double)rc->sum_ns[i] /
							(double)rc->count[i] /
							1e6
					      : 0;

			if (!op_shown(r, i))
				continue;
			fprintf(f,
				"<td class=\"n\">%" PRIu64 "<br/><span "
				"class=\"na\">%.3f / %.3f</span></td>",
				rc->count[i], mean, ns_ms(rc->max_ns[i]));
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody>\n</table>\n</div>\n", f);
	if (n < r->nclients)
		fprintf(f,
			"<p class=\"note\">The first %d of %d clients are "
			"shown; the JSON result has them all.</p>\n",
			n, r->nclients);
	fputs("</details>\n", f);
}

/* ------------------------------------------------------------ plotting */

/* A plot area (viewBox units, y downwards) and the data range it shows;
 * a log y range is in ms and spans whole decades. */
struct frame {
	double x0, y0, w, h;
	double xmin, xmax;
	double ymin, ymax;
	bool ylog;
};

static double fx(const struct frame *fr, double v)
{
	double t = (v - fr->xmin) / (fr->xmax - fr->xmin);

	if (!(t > 0))
		t = 0;
	if (t > 1)
		t = 1;
	return fr->x0 + t * fr->w;
}

static double fy(const struct frame *fr, double v)
{
	double lo = fr->ymin, hi = fr->ymax, t;

	if (fr->ylog) {
		if (!(v > lo))
			v = lo;
		v = log10(v);
		lo = log10(lo);
		hi = log10(hi);
	}
	t = (v - lo) / (hi - lo);
	if (!(t > 0))
		t = 0;
	if (t > 1)
		t = 1;
	return fr->y0 + (1 - t) * fr->h;
}

/* Whole decades around [lo, hi] ms, not below FLOOR_MS. */
static void log_range(struct frame *fr, double lo, double hi)
{
	if (!(lo >= FLOOR_MS) || !isfinite(lo))
		lo = FLOOR_MS;
	if (!(hi > lo) || !isfinite(hi))
		hi = lo;
	fr->ylog = true;
	fr->ymin = pow(10, floor(log10(lo)));
	fr->ymax = pow(10, ceil(log10(hi)));
	if (!(fr->ymax > fr->ymin))
		fr->ymax = fr->ymin * 10;
}

/* 1, 2 or 5 times a power of ten, near @range / @target. */
static double nice_step(double range, int target)
{
	double raw, mag, m;

	if (!(range > 0) || !isfinite(range))
		return 1;
	raw = range / target;
	mag = pow(10, floor(log10(raw)));
	m = raw / mag;
	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * mag;
}

/* A "points" attribute being written: vertices closer than a third of a
 * unit to the last one written are dropped (the last one is kept). */
struct line {
	FILE *f;
	unsigned int n;
	double x, y;
	bool pending;
	double px, py;
};

static void line_pt(struct line *l, double x, double y)
{
	if (l->n && fabs(x - l->x) < 0.33 && fabs(y - l->y) < 0.33) {
		l->pending = true;
		l->px = x;
		l->py = y;
		return;
	}
	fprintf(l->f, "%s%.1f,%.1f", l->n ? " " : "", x, y);
	l->n++;
	l->x = x;
	l->y = y;
	l->pending = false;
}

static void line_end(struct line *l)
{
	if (l->pending)
		fprintf(l->f, " %.1f,%.1f", l->px, l->py);
	l->pending = false;
}

static void hline(FILE *f, const char *cls, double xa, double xb, double y)
{
	fprintf(f,
		"<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		"y2=\"%.1f\"/>\n",
		cls, xa, y, xb, y);
}

static void vline(FILE *f, const char *cls, double x, double ya, double yb)
{
	fprintf(f,
		"<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		"y2=\"%.1f\"/>\n",
		cls, x, ya, x, yb);
}

static void svg_open(FILE *f, const char *kind, double w, double h,
		     const char *label)
{
	fprintf(f,
		"<svg class=\"plot\" data-plot=\"%s\" viewBox=\"0 0 %.0f "
		"%.0f\" width=\"100%%\" role=\"img\" aria-label=\"%s\">\n",
		kind, w, h, label);
}

static void note(FILE *f, const char *kind, const char *text)
{
	fprintf(f, "<p class=\"note\" data-note=\"%s\">%s</p>\n", kind, text);
}

/* Decade grid lines (and 2..9 or 2, 5 between them when there is room)
 * of a log y axis, labelled when @labels. */
static void y_log_axis(FILE *f, const struct frame *fr, bool labels)
{
	int k0 = (int)lround(log10(fr->ymin));
	int k1 = (int)lround(log10(fr->ymax));
	double per = fr->h / (k1 - k0);
	int lstep = per >= 13 ? 1 : (int)ceil(13 / per);
	char b[32];

	for (int k = k0; k <= k1; k++) {
		double v = pow(10, k), y = fy(fr, v);

		for (int m = 2; k < k1 && m <= 9; m++) {
			if (per >= 60 || (per >= 25 && (m == 2 || m == 5)))
				hline(f, "minor", fr->x0, fr->x0 + fr->w,
				      fy(fr, v * m));
		}
		hline(f, "grid", fr->x0, fr->x0 + fr->w, y);
		if (!labels || (k - k0) % lstep)
			continue;
		fmt_lat(b, sizeof(b), v);
		fprintf(f,
			"<text class=\"yl\" x=\"%.1f\" y=\"%.1f\">%s</text>\n",
			fr->x0 - 5, y + 3.5, b);
	}
}

static void y_lin_axis(FILE *f, const struct frame *fr, double step)
{
	for (int k = 0;; k++) {
		double v = k * step, y;

		if (v > fr->ymax * (1 + 1e-9))
			break;
		y = fy(fr, v);
		hline(f, "grid", fr->x0, fr->x0 + fr->w, y);
		fprintf(f,
			"<text class=\"yl\" x=\"%.1f\" y=\"%.1f\">%g</text>\n",
			fr->x0 - 5, y + 3.5, v);
	}
}

static void x_time_axis(FILE *f, const struct frame *fr)
{
	double step = nice_step(fr->xmax - fr->xmin, 12);

	for (int k = 0;; k++) {
		double v = k * step, x;

		if (v > fr->xmax * (1 + 1e-9))
			break;
		x = fx(fr, v);
		vline(f, "grid", x, fr->y0, fr->y0 + fr->h);
		fprintf(f,
			"<text class=\"xl\" x=\"%.1f\" y=\"%.1f\">%g</text>\n",
			x, fr->y0 + fr->h + 15, v);
	}
}

static void x_pct_axis(FILE *f, const struct frame *fr)
{
	int kmax = (int)lround(fr->xmax);
	/* the widest label, "99.9...9%" (kmax digits), in 10 px text; when
	 * two do not fit side by side, alternate between two rows, and
	 * when that is not enough either, label every lstep-th tick */
	double need = kmax * 6.4 + 3.2 + 9.5 + 5, per = fr->w / fr->xmax;
	bool stagger = per < need;
	int lstep = per * 2 >= need ? 1 : (int)ceil(need / per / 2);
	char b[32];

	for (int k = 0; k <= kmax; k++) {
		double x = fx(fr, k);

		vline(f, "grid", x, fr->y0, fr->y0 + fr->h);
		if (k % lstep)
			continue;
		fmt_pct(b, sizeof(b), k);
		fprintf(f,
			"<text class=\"xs\" x=\"%.1f\" y=\"%.1f\">%s</text>\n",
			x,
			fr->y0 + fr->h + (stagger && k / lstep % 2 ? 24 : 13),
			b);
	}
}

static void frame_rect(FILE *f, const struct frame *fr, const char *cls)
{
	fprintf(f,
		"<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		"height=\"%.1f\"/>\n",
		cls, fr->x0, fr->y0, fr->w, fr->h);
}

static void y_title(FILE *f, double x, double y, const char *text)
{
	fprintf(f,
		"<text class=\"at\" transform=\"translate(%.1f %.1f) "
		"rotate(-90)\">%s</text>\n",
		x, y, text);
}

static void legend_entry(FILE *f, double x, double y, const char *colour,
			 const char *label, bool dashed)
{
	fprintf(f,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"%s\" stroke-width=\"2.5\"%s/>\n",
		x, y - 4, x + 22, y - 4, colour,
		dashed ? " stroke-dasharray=\"5 3\"" : "");
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", x + 28, y);
	esc(f, label);
	fputs("</text>\n", f);
}

/* ---------------------------------------------------- percentile spectrum */

/* Small multiples: a grid of panels, one per op, sharing both axes. */
#define SP_COLS 3
#define SP_CW	392.0 /* cell */
#define SP_CH	220.0
#define SP_ML	54.0 /* plot area inside the cell */
#define SP_MR	30.0
#define SP_MT	28.0
#define SP_MB	30.0
#define SP_LEFT 24.0 /* left of the first column: the y axis title */
#define SP_TOP	34.0 /* above the first row: the title */
#define SP_FOOT 30.0 /* below the last row: the x axis title */

/* x of the spectrum for the @c-th of @n ranks: log10(1 / (1 - c/n)) */
static double sp_x(uint64_t c, uint64_t n)
{
	return log10((double)n / (double)(n - c));
}

/*
 * The quantile function of @h as a staircase in frame @fr: the values of
 * ranks (a, b] of a bucket are its midpoint (clamped to [min, max] as
 * hist_value_at() does), drawn from x(a) to x(b).  The last rank, the
 * exact max, runs from x(n - 1) to x(n - 1/2) = log10(2n).
 */
static void sp_points(FILE *f, const struct hist *h, const struct frame *fr)
{
	struct line l = {.f = f};
	uint64_t n = h->count, cum = 0;

	for (unsigned int i = 0; i < HIST_BUCKETS && cum < n - 1; i++) {
		uint64_t v, c1;
		double y;

		if (!h->bins[i])
			continue;
		v = hist_bucket_value(h, i);
		c1 = cum + h->bins[i] < n - 1 ? cum + h->bins[i] : n - 1;
		y = fy(fr, ns_ms(v));
		line_pt(&l, fx(fr, sp_x(cum, n)), y);
		line_pt(&l, fx(fr, sp_x(c1, n)), y);
		cum = c1;
	}
	if (cum < n - 1) /* overflow values: drawn at the max */
		line_pt(&l, fx(fr, sp_x(cum, n)), fy(fr, ns_ms(h->max)));
	line_pt(&l, fx(fr, sp_x(n - 1, n)), fy(fr, ns_ms(h->max)));
	line_pt(&l, fx(fr, log10(2.0 * (double)n)), fy(fr, ns_ms(h->max)));
	line_end(&l);
}

static void plot_spectrum(FILE *f, const struct result *r)
{
	int ops[OP_NR], nops = 0, cols, rows;
	double lo = INFINITY, hi = 0, xmax = 5, w, hgt;
	struct frame loc = {0};
	char b[32], b2[32];

	fputs("<h2>Latency percentile spectrum</h2>\n", f);
	if (!r->has_bins) {
		note(f, "spectrum",
		     "No percentile spectrum: this result has "
		     "no latency histograms (it was read from a dbench text "
		     "log, which keeps only count, mean and max per "
		     "operation).");
		return;
	}
	for (int i = 0; i < OP_NR; i++) {
		const struct hist *h = &r->op[i].h;

		if (!op_is_timed(i) || !h->count)
			continue;
		ops[nops++] = i;
		if (h->min > 0 && ns_ms(h->min) < lo)
			lo = ns_ms(h->min);
		if (ns_ms(h->max) > hi)
			hi = ns_ms(h->max);
		if (ceil(log10(2.0 * (double)h->count)) > xmax)
			xmax = ceil(log10(2.0 * (double)h->count));
	}
	if (!nops) {
		note(f, "spectrum",
		     "No percentile spectrum: no operation was "
		     "timed.");
		return;
	}
	cols = nops < SP_COLS ? nops : SP_COLS;
	rows = (nops + cols - 1) / cols;
	w = SP_LEFT + cols * SP_CW;
	hgt = SP_TOP + rows * SP_CH + SP_FOOT;
	loc.w = SP_CW - SP_ML - SP_MR;
	loc.h = SP_CH - SP_MT - SP_MB;
	loc.xmax = xmax;
	log_range(&loc, lo, hi);

	fputs("<figure>\n", f);
	fprintf(f, "<div style=\"max-width:%.0fpx;margin:0 auto\">\n", w * 1.1);
	svg_open(f, "spectrum", w, hgt,
		 "latency percentile spectrum per "
		 "operation");
	fprintf(f, "<text class=\"title\" x=\"8\" y=\"20\">Latency by "
		   "percentile, one panel per operation (others in "
		   "grey)</text>\n");
	/* each op's staircase once, in panel coordinates */
	fputs("<defs>\n", f);
	for (int k = 0; k < nops; k++) {
		fprintf(f, "<polyline id=\"sp-%d\" fill=\"none\" points=\"",
			ops[k]);
		sp_points(f, &r->op[ops[k]].h, &loc);
		fputs("\"/>\n", f);
	}
	fputs("</defs>\n", f);
	for (int k = 0; k < nops; k++) {
		const struct hist *h = &r->op[ops[k]].h;
		struct frame fr = loc;
		double gx = SP_LEFT + (k % cols) * SP_CW + SP_ML;
		double gy = SP_TOP + (k / cols) * SP_CH + SP_MT;

		fr.x0 = gx;
		fr.y0 = gy;
		fprintf(f, "<g data-op=\"%s\">\n", op_info[ops[k]].label);
		frame_rect(f, &fr, "bg");
		y_log_axis(f, &fr, true);
		x_pct_axis(f, &fr);
		for (int j = 0; j < nops; j++) {
			if (j != k)
				fprintf(f,
					"<use href=\"#sp-%d\" x=\"%.1f\" "
					"y=\"%.1f\" class=\"ctx\"/>\n",
					ops[j], gx, gy);
		}
		fprintf(f,
			"<use href=\"#sp-%d\" x=\"%.1f\" y=\"%.1f\" "
			"stroke=\"%s\" stroke-width=\"2\"/>\n",
			ops[k], gx, gy, op_colour[ops[k]]);
		fprintf(f,
			"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
			"fill=\"%s\"/>\n",
			fx(&fr, fmin(log10(2.0 * (double)h->count), xmax)),
			fy(&fr, ns_ms(h->max)), op_colour[ops[k]]);
		frame_rect(f, &fr, "frame");
		fprintf(f,
			"<text class=\"pt\" x=\"%.1f\" y=\"%.1f\" "
			"fill=\"%s\">%s</text>\n",
			gx, gy - 8, op_colour[ops[k]], op_info[ops[k]].label);
		fmt_lat(b, sizeof(b), ns_ms(hist_value_at(h, 99)));
		fmt_lat(b2, sizeof(b2), ns_ms(h->max));
		fprintf(f,
			"<text class=\"ps\" x=\"%.1f\" y=\"%.1f\">n=%" PRIu64
			"  p99 %s  max %s</text>\n",
			gx + fr.w, gy - 8, h->count, b, b2);
		fputs("</g>\n", f);
	}
	fprintf(f,
		"<text class=\"at\" x=\"%.1f\" y=\"%.1f\">percentile "
		"(log scale of 1/(1&#8722;p): each step right is ten times "
		"rarer)</text>\n",
		w / 2, hgt - 8);
	y_title(f, 14, SP_TOP + rows * SP_CH / 2, "latency (log scale)");
	fputs("</svg>\n</div>\n", f);
	fputs("<figcaption>Each panel is the latency distribution of one "
	      "operation: the value below which a given percentage of its "
	      "calls completed, so the line always rises to the right.  The "
	      "left part is the typical call (50% at x = 0.3 of the first "
	      "step), the right part the tail: 99% means 1 call in 100, "
	      "99.9% 1 in 1000.  A flat line that jumps up near the right "
	      "end means a few calls were much slower than the rest (stalls); "
	      "the dot is the slowest call.  Each line ends where the "
	      "operation runs out of calls (at 1/(2n)).  Grey lines: the "
	      "other operations, on the same axes, for comparison.  Values "
	      "are histogram bucket midpoints (within 0.8%).</figcaption>\n"
	      "</figure>\n",
	      f);
}

/* --------------------------------------------------------- time series */

#define TS_W 1200.0
#define TS_H 392.0

static const struct frame ts_base = {
	.x0 = 74,
	.y0 = 36,
	.w = 950,
	.h = 300,
};

static double ts_xmax(const struct result *r)
{
	double m = 0;

	for (uint32_t i = 0; i < r->npoints; i++) {
		if (r->points[i].t > m)
			m = r->points[i].t;
	}
	return m > 0 ? m : 1;
}

/* Shade the warmup intervals (contiguous ones as one band), or with
 * @label write "warmup" on the bands that are wide enough. */
static void ts_warmup(FILE *f, const struct result *r, const struct frame *fr,
		      bool label)
{
	const struct result_point *p = r->points;

	for (uint32_t i = 0; i < r->npoints;) {
		double a, b;

		if (!p[i].warmup) {
			i++;
			continue;
		}
		a = fx(fr, p[i].t - p[i].dur);
		b = a;
		while (i < r->npoints && p[i].warmup)
			b = fx(fr, p[i++].t);
		if (!label)
			fprintf(f,
				"<rect class=\"warm\" x=\"%.1f\" y=\"%.1f\" "
				"width=\"%.1f\" height=\"%.1f\"/>\n",
				a, fr->y0, b - a, fr->h);
		else if (b - a >= 44)
			fprintf(f,
				"<text class=\"wl\" x=\"%.1f\" y=\"%.1f\">"
				"warmup</text>\n",
				a + 4, fr->y0 + 12);
	}
}

static void ts_begin(FILE *f, const struct result *r, const struct frame *fr,
		     const char *kind, const char *text, const char *ytitle)
{
	svg_open(f, kind, TS_W, TS_H, text);
	fprintf(f, "<text class=\"title\" x=\"8\" y=\"20\">%s</text>\n", text);
	frame_rect(f, fr, "bg");
	ts_warmup(f, r, fr, false);
	x_time_axis(f, fr);
	fprintf(f,
		"<text class=\"at\" x=\"%.1f\" y=\"%.1f\">time since the "
		"start of the clients (s)</text>\n",
		fr->x0 + fr->w / 2, TS_H - 12);
	y_title(f, 16, fr->y0 + fr->h / 2, ytitle);
}

static double mbps(const struct result_point *p)
{
	return (double)p->bytes / p->dur / 1e6;
}

/* The throughput staircase; @area closes it down to the x axis. */
static void tput_points(FILE *f, const struct result *r, const struct frame *fr,
			bool area)
{
	struct line l = {.f = f};
	double last = 0;

	for (uint32_t i = 0; i < r->npoints; i++) {
		const struct result_point *p = &r->points[i];
		double y;

		if (!(p->dur > 0))
			continue;
		y = fy(fr, mbps(p));
		if (area && !l.n)
			line_pt(&l, fx(fr, p->t - p->dur), fy(fr, 0));
		line_pt(&l, fx(fr, p->t - p->dur), y);
		last = fx(fr, p->t);
		line_pt(&l, last, y);
	}
	if (area && l.n)
		line_pt(&l, last, fy(fr, 0));
	line_end(&l);
}

static void plot_throughput(FILE *f, const struct result *r)
{
	struct frame fr = ts_base;
	double vmax = r->throughput, step, lx = fr.x0 + fr.w + 16;
	char b[64];

	for (uint32_t i = 0; i < r->npoints; i++) {
		if (r->points[i].dur > 0 && mbps(&r->points[i]) > vmax)
			vmax = mbps(&r->points[i]);
	}
	if (!(vmax > 0) || !isfinite(vmax))
		vmax = 1;
	step = nice_step(vmax, 6);
	fr.ymax = ceil(vmax / step) * step;
	fr.xmax = ts_xmax(r);

	fputs("<figure>\n", f);
	ts_begin(f, r, &fr, "throughput", "Throughput per interval",
		 "MB/s (10\xe2\x81\xb6 bytes/s)");
	y_lin_axis(f, &fr, step);
	ts_warmup(f, r, &fr, true);
	fputs("<polygon class=\"area\" points=\"", f);
	tput_points(f, r, &fr, true);
	fputs("\"/>\n<polyline class=\"tput\" points=\"", f);
	tput_points(f, r, &fr, false);
	fputs("\"/>\n", f);
	if (r->throughput > 0)
		hline(f, "ref", fr.x0, fr.x0 + fr.w, fy(&fr, r->throughput));
	frame_rect(f, &fr, "frame");
	legend_entry(f, lx, fr.y0 + 10, "#1f77b4", "per interval", false);
	snprintf(b, sizeof(b), "reported: %.2f", r->throughput);
	legend_entry(f, lx, fr.y0 + 30, "#1e2125", b, true);
	fprintf(f,
		"<rect class=\"warm\" x=\"%.1f\" y=\"%.1f\" width=\"22\" "
		"height=\"10\"/>\n<text x=\"%.1f\" y=\"%.1f\">warmup</text>\n",
		lx, fr.y0 + 41, lx + 28, fr.y0 + 50);
	fputs("</svg>\n", f);
	fprintf(f,
		"<figcaption>Bytes read and written in each %g s interval, "
		"divided by its length.  Grey band: the warmup, not counted in "
		"the results.  Dashed: the reported throughput of the measured "
		"phase.  A stall of the filesystem shows as a dip.</figcaption>"
		"\n</figure>\n",
		r->interval_s);
}

/* One series of a time plot, already reduced to @n columns. */
struct series {
	double *x, *v; /* x in s, value in ms */
	bool *ok;      /* the column has a value */
	size_t n;
};

/* Polylines for runs of columns with a value, dots for lone ones. */
static void series_draw(FILE *f, const struct frame *fr, const struct series *s)
{
	for (size_t i = 0; i < s->n;) {
		size_t j = i;
		struct line l = {.f = f};

		if (!s->ok[i]) {
			i++;
			continue;
		}
		while (j < s->n && s->ok[j])
			j++;
		if (j - i == 1) {
			fprintf(f,
				"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\"/>\n",
				fx(fr, s->x[i]), fy(fr, s->v[i]));
		} else {
			fputs("<polyline points=\"", f);
			for (; i < j; i++)
				line_pt(&l, fx(fr, s->x[i]), fy(fr, s->v[i]));
			line_end(&l);
			fputs("\"/>\n", f);
		}
		i = j;
	}
}

/* The value of @op (-1: dbench's latency) in point @p, ms; false: none */
static bool ts_value(const struct result_point *p, int op, bool p99, double *v)
{
	if (op < 0) {
		*v = p->latency_ms;
		return p->latency_ms > 0;
	}
	if (!p->count[op])
		return false;
	*v = ns_ms(p99 ? p->p99_ns[op] : p->max_ns[op]);
	return !p99 || p->p99_ns[op];
}

/* Fill @s with op @op (-1: dbench's latency): the max of each column. */
static void series_fill(struct series *s, const struct result *r, int op,
			bool p99)
{
	uint32_t n = r->npoints;

	for (size_t c = 0; c < s->n; c++) {
		uint32_t a = (uint32_t)((uint64_t)c * n / s->n);
		uint32_t b = (uint32_t)((uint64_t)(c + 1) * n / s->n);
		double v;

		s->ok[c] = false;
		s->v[c] = 0;
		s->x[c] = (r->points[a].t - r->points[a].dur +
			   r->points[b - 1].t) /
			  2;
		for (uint32_t i = a; i < b; i++) {
			if (!ts_value(&r->points[i], op, p99, &v))
				continue;
			if (!s->ok[c] || v > s->v[c])
				s->v[c] = v;
			s->ok[c] = true;
		}
	}
}

/* A diamond per stall the watchdog caught, where the call ended and as
 * high as it lasted: it sits on the spike of its op. */
static void stall_marks(FILE *f, const struct result *r, const struct frame *fr)
{
	for (int k = 0; k < r->stalls.nevents; k++) {
		const struct result_stall *ev = &r->stalls.events[k];
		const char *label = ev->op >= 0 && ev->op < OP_NR
					    ? op_info[ev->op].label
					    : "?";

		fprintf(f,
			"<path class=\"stm\" stroke=\"%s\" "
			"d=\"M%.1f %.1fl5 5-5 5-5-5z\"><title>%s %.3f ms%s, "
			"client %d, from %.3f s (watchdog)</title></path>\n",
			ev->op >= 0 && ev->op < OP_NR ? op_colour[ev->op]
						      : "#3b424b",
			fx(fr, ev->start_s + ev->duration_ms / 1e3),
			fy(fr, ev->duration_ms) - 5, label, ev->duration_ms,
			ev->ended ? "" : " (still stuck)", ev->client,
			ev->start_s);
	}
}

static void plot_latency(FILE *f, const struct result *r, bool p99)
{
	struct frame fr = ts_base;
	bool has[OP_NR] = {false}, has_lat = false;
	double lo = INFINITY, hi = 0, ly, top = -1, top_x = 0;
	int nops = 0, top_op = -1;
	struct series s;
	char b[32];

	for (int op = -1; op < OP_NR; op++) {
		if (op >= 0 && !op_is_timed(op))
			continue;
		if (op < 0 && p99)
			continue;
		for (uint32_t i = 0; i < r->npoints; i++) {
			double v;

			if (!ts_value(&r->points[i], op, p99, &v))
				continue;
			if (op < 0) {
				has_lat = true;
			} else if (!has[op]) {
				has[op] = true;
				nops++;
			}
			if (v > 0 && v < lo)
				lo = v;
			if (v > hi)
				hi = v;
		}
	}
	for (int k = 0; !p99 && (nops || has_lat) && k < r->stalls.nevents;
	     k++) {
		double v = r->stalls.events[k].duration_ms;

		if (v > 0 && v < lo)
			lo = v;
		if (v > hi)
			hi = v;
	}
	if (!nops && !has_lat) {
		note(f, p99 ? "p99" : "maxlat",
		     p99 ? "No p99 over time: the time series of this result "
			   "has no per-operation percentiles."
			 : "No latency over time: the time series of this "
			   "result has no per-operation figures and no "
			   "latency.");
		return;
	}
	s.n = r->npoints < MAX_COLUMNS ? r->npoints : MAX_COLUMNS;
	s.x = calloc(s.n, sizeof(*s.x));
	s.v = calloc(s.n, sizeof(*s.v));
	s.ok = calloc(s.n, sizeof(*s.ok));
	if (!s.x || !s.v || !s.ok) {
		note(f, p99 ? "p99" : "maxlat", "Not drawn: out of memory.");
		goto out;
	}
	fr.xmax = ts_xmax(r);
	log_range(&fr, lo, hi);

	fputs("<figure>\n", f);
	ts_begin(f, r, &fr, p99 ? "p99" : "maxlat",
		 p99 ? "p99 latency per interval, per operation"
		     : "Slowest call per interval, per operation",
		 "latency (log scale)");
	y_log_axis(f, &fr, true);
	ts_warmup(f, r, &fr, true);
	ly = fr.y0 + 8;
	if (has_lat) {
		series_fill(&s, r, -1, false);
		fputs("<g class=\"dbl\" data-op=\"dbench\" stroke=\"#3b424b\" "
		      "fill=\"#3b424b\" stroke-width=\"1.4\" opacity=\"0.8\">"
		      "<title>dbench latency</title>\n",
		      f);
		series_draw(f, &fr, &s);
		fputs("</g>\n", f);
	}
	for (int op = 0; op < OP_NR; op++) {
		if (!has[op])
			continue;
		series_fill(&s, r, op, p99);
		fprintf(f,
			"<g data-op=\"%s\" stroke=\"%s\" fill=\"%s\" "
			"stroke-width=\"1.4\"><title>%s</title>\n",
			op_info[op].label, op_colour[op], op_colour[op],
			op_info[op].label);
		series_draw(f, &fr, &s);
		fputs("</g>\n", f);
		for (size_t c = 0; c < s.n; c++) {
			if (s.ok[c] && s.v[c] > top) {
				top = s.v[c];
				top_x = s.x[c];
				top_op = op;
			}
		}
		legend_entry(f, fr.x0 + fr.w + 16, ly, op_colour[op],
			     op_info[op].label, false);
		ly += 17;
	}
	if (has_lat) {
		legend_entry(f, fr.x0 + fr.w + 16, ly, "#3b424b",
			     "dbench latency", true);
		ly += 17;
	}
	if (!p99 && r->stalls.nevents) {
		stall_marks(f, r, &fr);
		fprintf(f,
			"<path class=\"stm\" stroke=\"#3b424b\" "
			"d=\"M%.1f %.1fl5 5-5 5-5-5z\"/>\n",
			fr.x0 + fr.w + 27, ly - 9);
		fprintf(f,
			"<text x=\"%.1f\" y=\"%.1f\">watchdog stall</text>\n",
			fr.x0 + fr.w + 44, ly);
	}
	if (top_op >= 0 && !p99) {
		double x = fx(&fr, top_x), y = fy(&fr, top);
		bool right = x > fr.x0 + fr.w * 0.7;

		fmt_lat(b, sizeof(b), top);
		fprintf(f,
			"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"none\" "
			"stroke=\"#1e2125\"/>\n",
			x, y);
		fprintf(f,
			"<text class=\"ann\" x=\"%.1f\" y=\"%.1f\" "
			"text-anchor=\"%s\">%s %s at %.1f s</text>\n",
			right ? x - 10 : x + 10,
			y < fr.y0 + 20 ? y + 16 : y - 8,
			right ? "end" : "start", op_info[top_op].label, b,
			top_x);
	}
	frame_rect(f, &fr, "frame");
	fputs("</svg>\n", f);
	if (p99)
		fprintf(f,
			"<figcaption>The 99th percentile of the calls of "
			"each operation that ended in each %g s interval (from "
			"the histogram difference).  Where intervals were "
			"merged to keep the series bounded, the larger p99 of "
			"the two is kept: an upper bound.</figcaption>\n",
			r->interval_s);
	else
		fprintf(f,
			"<figcaption>The slowest call of each operation "
			"that ended in each %g s interval (exact), and dashed "
			"dbench's latency figure of the progress line.  A "
			"stall is a spike far above the band of its operation: "
			"stalls that recur at a fixed period form a comb of "
			"evenly spaced spikes.  The largest is circled.  A "
			"missing line segment means the operation did not "
			"complete in that interval.</figcaption>\n",
			r->interval_s);
	fputs("</figure>\n", f);
out:
	free(s.x);
	free(s.v);
	free(s.ok);
}

static void plots(FILE *f, const struct result *r)
{
	plot_spectrum(f, r);
	fputs("<h2>Over time</h2>\n", f);
	if (!r->npoints || !r->points) {
		note(f, "time",
		     "No time plots: this result has no time series "
		     "(the run ended before the first interval, or it was read "
		     "from a log without progress lines).");
		return;
	}
	if (r->npoints == 1)
		note(f, "time", "The time series has a single interval.");
	plot_throughput(f, r);
	plot_latency(f, r, false);
	plot_latency(f, r, true);
}

/* ------------------------------------------------------------------ API */

int report_html(FILE *f, const struct result *r)
{
	head(f, r);
	title(f, r);
	summary(f, r);
	fputs("<h2>Configuration and environment</h2>\n<div class=\"cols\">\n",
	      f);
	config_table(f, &r->cfg);
	env_table(f, &r->env);
	fputs("</div>\n", f);
	op_table(f, r);
	stalls_section(f, r);
	clients_table(f, r);
	plots(f, r);
	fputs("<p class=\"sub\">Written by ", f);
	esc(f, r->tool ? r->tool : "dbench-ng");
	fputs(" report; self-contained: no script, nothing fetched.</p>\n"
	      "</main>\n</body>\n</html>\n",
	      f);
	return ferror(f) ? -1 : 0;
}

static int emit_html(FILE *f, const void *r)
{
	return report_html(f, r);
}

int report_html_file(const struct result *r, const char *path, char *err,
		     size_t errlen)
{
	return atomic_write(path, "--html", emit_html, r, err, errlen);
}
