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

/* One row per field of the list of config.h (but CF_NO_HTML), in its
 * order. */
void html_config_table(FILE *f, const struct config *c)
{
	fputs("<div>\n<h3>Configuration</h3>\n<table class=\"kv\">\n"
	      "<thead><tr><th>Setting</th><th>Option</th><th>Value</th>"
	      "</tr></thead>\n<tbody>\n",
	      f);
	for (int i = 0; i < CFG_NR; i++) {
		const struct config_field_info *fi = &config_fields[i];
		const void *v = config_field_c(c, i);
		bool off = false;

		if (fi->flags & CF_NO_HTML)
			continue;
		switch (fi->type) {
		case CF_INT:
			off = (fi->flags & CF_ZERO_OFF) && *(const int *)v <= 0;
			if ((fi->flags & CF_ZERO_NA) && !*(const int *)v) {
				kv_key(f, fi->label, fi->opt);
				fputs("<span class=\"na\">not recorded</span>"
				      "</td></tr>\n",
				      f);
			} else if (!off)
				kv_int(f, fi->label, fi->opt, *(const int *)v,
				       fi->unit);
			break;
		case CF_DBL:
			off = (fi->flags & CF_ZERO_OFF) &&
			      !(*(const double *)v > 0);
			if (!off) {
				kv_key(f, fi->label, fi->opt);
				fprintf(f, "%g%s</td></tr>\n",
					*(const double *)v, fi->unit);
			}
			break;
		case CF_BOOL:
			kv_bool(f, fi->label, fi->opt, *(const bool *)v);
			break;
		case CF_STR:
			if ((fi->flags & CF_NULL_NA) &&
			    !*(const char *const *)v) {
				kv_key(f, fi->label, fi->opt);
				fputs("<span class=\"na\">not recorded</span>"
				      "</td></tr>\n",
				      f);
				break;
			}
			if (!(fi->flags & CF_NULL_NO)) {
				kv_str(f, fi->label, fi->opt,
				       *(const char *const *)v);
				break;
			}
			kv_key(f, fi->label, fi->opt);
			if (*(const char *const *)v)
				html_esc(f, *(const char *const *)v);
			else
				fputs("<span class=\"na\">no</span>", f);
			fputs("</td></tr>\n", f);
			break;
		}
		if (off) {
			kv_key(f, fi->label, fi->opt);
			fputs("<span class=\"na\">off</span></td></tr>\n", f);
		}
	}
	fputs("</tbody>\n</table>\n</div>\n", f);
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
