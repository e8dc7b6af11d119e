/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * dblogprobe.c - test driver for src/results/dblog/, built by make check:
 * "dblogprobe FILE" parses a dbench text log and prints what it read as
 * key=value lines, in the order and the precision dbench printed them, so
 * that the script can compare them with what awk reads from the log.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dblog.h"
#include "result.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, k;

	if (!f)
		return NULL;
	do {
		if (n == cap) {
			char *nb = realloc(buf, cap = cap ? 2 * cap : 65536);

			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		k = fread(buf + n, 1, cap - n, f);
		n += k;
	} while (k);
	fclose(f);
	*len = n;
	return buf;
}

static const char *const status_name[] = {
	[RESULT_OK] = "ok",
	[RESULT_INTERRUPTED] = "interrupted",
	[RESULT_FAILED] = "failed",
};

static void print_op(const char *prefix, const char *label, uint64_t count,
		     uint64_t sum, uint64_t max)
{
	printf("%s%s.count=%" PRIu64 "\n", prefix, label, count);
	printf("%s%s.avg=%.3f\n", prefix, label,
	       count ? (double)sum / (double)count / 1e6 : 0.0);
	printf("%s%s.max=%.3f\n", prefix, label, (double)max / 1e6);
}

static void print_result(const struct result *r)
{
	uint64_t lines = 0, xbytes = 0;
	uint32_t nexec = 0, nwarm = 0;

	printf("tool=%s\n", r->tool);
	printf("version=%s\n", r->version ? r->version : "");
	printf("status=%s\n", status_name[r->status]);
	printf("timelimit=%d\n", r->cfg.timelimit);
	printf("warmup=%d\n", r->cfg.warmup);
	printf("loadfile=%s\n", r->cfg.loadfile ? r->cfg.loadfile : "");
	printf("throughput=%g\n", r->throughput);
	printf("clients=%d\n", r->cfg.nclients);
	printf("procs=%d\n", r->cfg.nprocs);
	printf("max_latency=%.3f\n", r->max_latency_ms);
	printf("sync_open=%d\n", r->cfg.sync_open);
	printf("sync_dirs=%d\n", r->cfg.sync_dirs);
	printf("per_client=%d\n", r->cfg.per_client);
	for (uint32_t i = 0; i < r->npoints; i++) {
		lines += r->points[i].lines;
		if (r->points[i].warmup) {
			nwarm++;
		} else {
			nexec++;
			xbytes += r->points[i].bytes;
		}
	}
	printf("warmup_points=%" PRIu32 "\n", nwarm);
	printf("exec_points=%" PRIu32 "\n", nexec);
	printf("measured_s=%g\n", r->measured_s);
	printf("lines_total=%" PRIu64 "\n", lines);
	printf("exec_bytes=%" PRIu64 "\n", xbytes);
	for (int i = 0; i < OP_NR; i++) {
		const struct hist *h = &r->op[i].h;

		if (h->count)
			print_op("op.", op_info[i].label, h->count, h->sum,
				 h->max);
	}
	printf("nclients=%d\n", r->nclients);
	for (int c = 0; c < r->nclients; c++) {
		const struct result_client *cl = &r->clients[c];
		char prefix[32];

		printf("client.%d.lines=%" PRIu64 "\n", c, cl->lines);
		printf("client.%d.bytes=%" PRIu64 "\n", c, cl->bytes);
		snprintf(prefix, sizeof(prefix), "client.%d.", c);
		for (int i = 0; i < OP_NR; i++) {
			if (r->op[i].h.count)
				print_op(prefix, op_info[i].label, cl->count[i],
					 cl->sum_ns[i], cl->max_ns[i]);
		}
	}
}

int main(int argc, char **argv)
{
	struct result *r;
	char err[512];
	size_t len = 0;
	char *text;
	int rc = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: dblogprobe FILE\n");
		return 2;
	}
	text = slurp(argv[1], &len);
	r = result_new();
	if (!text || !r) {
		fprintf(stderr, "dblogprobe: cannot read %s\n", argv[1]);
		return 2;
	}
	printf("detect=%d\n", dblog_detect(text, len));
	if (dblog_parse(argv[1], text, len, r, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		rc = 1;
	} else {
		print_result(r);
	}
	result_free(r);
	free(text);
	return rc;
}
