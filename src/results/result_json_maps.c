/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * result_json_maps.c - the per-op maps of a result's JSON file, once for
 * result_json_write.c and result_json_read.c (result_json_maps.h).  The
 * order of the fields is the order of the keys in the file.
 */
#include "result_json_maps.h"

#include "result.h"

#define U64(s, name, m, k)                                    \
	{                                                     \
		name, JM_U64, offsetof(struct s, m), k, false \
	}
#define NUM(s, name, m, k)                                    \
	{                                                     \
		name, JM_NUM, offsetof(struct s, m), k, false \
	}
#define END                                   \
	{                                     \
		NULL, JM_U64, 0, false, false \
	}

static const struct jm_field client_ops[] = {
	U64(result_client, "count", count, true),
	U64(result_client, "sum_ns", sum_ns, false),
	U64(result_client, "max_ns", max_ns, false),
	END,
};
const struct jm_map jm_client_ops = {"clients[].ops.", client_ops, NULL};

static const struct jm_field stall_ops[] = {
	U64(result_stalls, "count", count, true),
	NUM(result_stalls, "max_ms", max_ms, false),
	/* the warmup's own: absent in older results, whose count held them */
	{"warmup_count", JM_U64, offsetof(struct result_stalls, warmup_count),
	 true, true},
	{"warmup_max_ms", JM_NUM, offsetof(struct result_stalls, warmup_max_ms),
	 false, true},
	END,
};
const struct jm_map jm_stall_ops = {"stalls.per_op.", stall_ops, NULL};

static const struct jm_field host_ops[] = {
	U64(result_host, "count", count, true),
	NUM(result_host, "mean_ms", mean_ms, false),
	NUM(result_host, "p99_ms", p99_ms, false),
	NUM(result_host, "max_ms", max_ms, false),
	END,
};
const struct jm_map jm_host_ops = {"hosts[].ops.", host_ops, NULL};

static const struct jm_field point_ops[] = {
	U64(result_point, "count", count, true),
	U64(result_point, "max_ns", max_ns, true),
	U64(result_point, "p99_ns", p99_ns, false),
	END,
};
const struct jm_map jm_point_ops = {"time_series.points[].ops.", point_ops,
				    "[count, max_ns, p99_ns]"};

static const struct jm_field point_resp[] = {
	U64(result_point, "count", resp_count, true),
	U64(result_point, "max_ns", resp_max_ns, true),
	U64(result_point, "p99_ns", resp_p99_ns, false),
	U64(result_point, "late", late, true),
	END,
};
const struct jm_map jm_point_resp = {"time_series.points[].resp_ops.",
				     point_resp,
				     "[count, max_ns, p99_ns, late]"};
