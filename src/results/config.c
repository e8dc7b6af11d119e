/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * config.c - config_fields[], the list of config.h as a table: each
 * setting's type, names, JSON key and range, HTML label and place in
 * struct config.
 */
#include "config.h"

#define CF_STR_IDX_INT(f)  -1
#define CF_STR_IDX_DBL(f)  -1
#define CF_STR_IDX_BOOL(f) -1
#define CF_STR_IDX_STR(f)  CFS_##f

const struct config_field_info config_fields[CFG_NR] = {
#define X(f, T, o, l, k, mn, mx, lb, u, fl)                                   \
	[CFG_##f] = {                                                          \
		.field = #f,                                                   \
		.type = CF_##T,                                                \
		.opt = o,                                                      \
		.lopt = l,                                                     \
		.jkey = k,                                                     \
		.jmin = mn,                                                    \
		.jmax = mx,                                                    \
		.label = lb,                                                   \
		.unit = u,                                                     \
		.flags = fl,                                                   \
		.offset = offsetof(struct config, f),                          \
		.str_index = CF_STR_IDX_##T(f),                                \
	},
	CONFIG_FIELDS(X)
#undef X
};
