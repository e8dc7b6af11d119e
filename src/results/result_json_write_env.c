/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * result_json_write_env.c - a result's config and environment as
 * objects of its JSON file: every field of the config, the host, the
 * directory's file system and the loadfiles replayed.
 */
#include "result_json_write_impl.h"

#include "stock.h"

/* The config object: every field of the list of config.h, in its order;
 * "json" is @path, the file the result is written to (with --runs N, the
 * file of this run). */
json_t *config_json(const struct config *cfg, const char *path)
{
	json_t *o = json_object();
	struct config c = *cfg;

	c.json = path;
	for (int i = 0; i < CFG_NR; i++) {
		const struct config_field_info *fi = &config_fields[i];
		const void *v = config_field_c(&c, i);

		switch (fi->type) {
		case CF_INT:
			set(o, fi->jkey, json_integer(*(const int *)v));
			break;
		case CF_DBL:
			set(o, fi->jkey, json_real(*(const double *)v));
			break;
		case CF_BOOL:
			set(o, fi->jkey, json_boolean(*(const bool *)v));
			break;
		case CF_STR:
			set(o, fi->jkey, str_or_null(*(const char *const *)v));
			break;
		}
	}
	return o;
}

json_t *env_json(const struct result_env *e)
{
	json_t *o = json_object(), *d = json_object(), *l = json_array();

	set(o, "hostname", str_or_null(e->hostname));
	set(o, "kernel", str_or_null(e->kernel));
	set(o, "kernel_version", str_or_null(e->kernel_version));
	set(o, "machine", str_or_null(e->machine));
	set(o, "cpu_model", str_or_null(e->cpu_model));
	set(o, "cpus", json_integer(e->cpus));
	set(o, "memory_bytes", u64(e->mem_bytes));
	set(d, "path", str_or_null(e->dir));
	set(d, "realpath", str_or_null(e->dir_real));
	set(d, "fs_type", str_or_null(e->fs_type));
	set(d, "device", str_or_null(e->fs_device));
	set(d, "mount_point", str_or_null(e->fs_mount_point));
	set(d, "mount_options", str_or_null(e->fs_options));
	set(d, "size_bytes", u64(e->fs_size_bytes));
	set(d, "free_bytes", u64(e->fs_free_bytes));
	set(o, "directory", d);
	for (int i = 0; i < e->nloadfiles; i++) {
		json_t *f = json_object();

		set(f, "name", str_or_null(e->loadfile_name[i]));
		set(f, "sha256", str_or_null(e->loadfile_sha256[i]));
		set(f, "kind",
		    json_string(stock_kind_name(stock_kind(
			    e->loadfile_name[i], e->loadfile_sha256[i]))));
		json_array_append_new(l, f);
	}
	set(o, "loadfiles", l);
	return o;
}
