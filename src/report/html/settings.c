/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * settings.c - the configuration and environment tables of the page.
 */
#include "html.h"

#include <inttypes.h>

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
	html_str(f, v);
	fputs("</span></td></tr>\n", f);
}

void html_config_table(FILE *f, const struct config *c)
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
		html_esc(f, c->json);
	else
		fputs("<span class=\"na\">no</span>", f);
	fputs("</td></tr>\n</tbody>\n</table>\n</div>\n", f);
}

static void kv_size(FILE *f, const char *key, uint64_t v)
{
	char b[32];

	kv_key(f, key, "");
	if (v) {
		html_fmt_size(b, sizeof(b), v, true);
		fprintf(f, "%s <span class=\"na\">(%" PRIu64 " bytes)</span>",
			b, v);
	} else {
		fputs("<span class=\"na\">unknown</span>", f);
	}
	fputs("</td></tr>\n", f);
}

void html_env_table(FILE *f, const struct result_env *e)
{
	fputs("<div>\n<h3>Environment</h3>\n<table class=\"kv\">\n<tbody>\n",
	      f);
	kv_sec(f, "Host");
	kv_str(f, "Hostname", "", e->hostname);
	kv_key(f, "Kernel", "");
	html_str(f, e->kernel);
	if (e->kernel_version) {
		fputs(" <span class=\"na\">", f);
		html_esc(f, e->kernel_version);
		fputs("</span>", f);
	}
	fputs("</td></tr>\n", f);
	kv_str(f, "Machine", "", e->machine);
	kv_key(f, "CPU", "");
	html_str(f, e->cpu_model);
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
		html_str(f, e->loadfile_name ? e->loadfile_name[i] : NULL);
		fputs("</th><td colspan=\"2\" class=\"mono path\">", f);
		html_str(f, e->loadfile_sha256 ? e->loadfile_sha256[i] : NULL);
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody>\n</table>\n</div>\n", f);
}
