/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * result_json_read_env.c - a JSON result's config and environment
 * objects read back (its settings and the machine it ran on).
 */
#include "result_json_read_impl.h"

#include <stdlib.h>

/* The config object: every field of the list of config.h; an optional
 * one (CF_OPTIONAL) that is absent reads as its jmin, or NULL. */
void read_config(struct reader *rd, json_t *c, struct result *r)
{
	struct config *cfg = &r->cfg;
	const char *w = "config.";

	if (!c)
		return;
	for (int i = 0; i < CFG_NR; i++) {
		const struct config_field_info *fi = &config_fields[i];
		void *v = config_field(cfg, i);

		if ((fi->flags & CF_OPTIONAL) && !json_object_get(c, fi->jkey)) {
			if (fi->type == CF_INT)
				*(int *)v = (int)fi->jmin;
			continue;
		}
		switch (fi->type) {
		case CF_INT:
			*(int *)v = get_int(rd, c, w, fi->jkey, (int)fi->jmin,
					    (int)fi->jmax);
			break;
		case CF_DBL:
			*(double *)v = get_figure(rd, c, w, fi->jkey);
			break;
		case CF_BOOL:
			*(bool *)v = get_bool(rd, c, w, fi->jkey);
			break;
		case CF_STR:
			r->owned[fi->str_index] = get_str(rd, c, w, fi->jkey);
			*(const char **)v = r->owned[fi->str_index];
			break;
		}
	}
}

/* A result written before the config object had the stall threshold:
 * the one the watchdog recorded, if it ran. */
void old_stall_threshold(json_t *c, struct result *r)
{
	const struct config_field_info *fi = &config_fields[CFG_stall_ms];
	double t = r->stalls.threshold_ms;

	if (!c || json_object_get(c, fi->jkey) || !r->stalls.enabled)
		return;
	if (t > 0 && t <= (double)fi->jmax)
		r->cfg.stall_ms = (int)(t + 0.5);
}

void read_env(struct reader *rd, json_t *e, struct result_env *env)
{
	json_t *d, *l, *v;
	size_t i;

	if (!e)
		return;
	env->hostname = get_str(rd, e, "environment.", "hostname");
	env->kernel = get_str(rd, e, "environment.", "kernel");
	env->kernel_version = get_str(rd, e, "environment.", "kernel_version");
	env->machine = get_str(rd, e, "environment.", "machine");
	env->cpu_model = get_str(rd, e, "environment.", "cpu_model");
	env->cpus = get_int(rd, e, "environment.", "cpus", 0, 1 << 24);
	env->mem_bytes = get_u64(rd, e, "environment.", "memory_bytes");
	d = get(rd, e, "environment.", "directory", JSON_OBJECT);
	if (d) {
		const char *w = "environment.directory.";

		env->dir = get_str(rd, d, w, "path");
		env->dir_real = get_str(rd, d, w, "realpath");
		env->fs_type = get_str(rd, d, w, "fs_type");
		env->fs_device = get_str(rd, d, w, "device");
		env->fs_mount_point = get_str(rd, d, w, "mount_point");
		env->fs_options = get_str(rd, d, w, "mount_options");
		env->fs_size_bytes = get_u64(rd, d, w, "size_bytes");
		env->fs_free_bytes = get_u64(rd, d, w, "free_bytes");
	}
	l = get(rd, e, "environment.", "loadfiles", JSON_ARRAY);
	if (!l || !json_array_size(l))
		return;
	env->loadfile_name = calloc(json_array_size(l), sizeof(char *));
	env->loadfile_sha256 = calloc(json_array_size(l), sizeof(char *));
	if (!env->loadfile_name || !env->loadfile_sha256) {
		rerr(rd, "out of memory");
		return;
	}
	json_array_foreach(l, i, v) {
		env->loadfile_name[i] = get_str(rd, v, "loadfiles[].", "name");
		env->loadfile_sha256[i] =
			get_str(rd, v, "loadfiles[].", "sha256");
		env->nloadfiles = (int)i + 1;
	}
}
