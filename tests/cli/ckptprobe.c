/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ckptprobe.c - the cost of one checkpoint of a run (engine/checkpoint.c)
 * for bench/checkpoint.sh: "ckptprobe SECONDS REPEAT FILE" makes the
 * result a checkpoint of a run of SECONDS seconds holds (every op in
 * every point of the series, their histograms with 400 bins each, 32
 * stall events of 16 samples: more than a real run has) and writes it
 * REPEAT times as the checkpoint thread does (the document, then FILE's
 * temporary file, not flushed, renamed over FILE).  Prints the points,
 * the bytes and the CPU time of one checkpoint.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "file_replace.h"
#include "result.h"
#include "result_json.h"

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static struct result *make(long secs)
{
	struct result *r = result_new();
	static char *argv[] = {"dbench-ng", "-t", "3600", "2"};

	if (!r)
		return NULL;
	r->tool = strdup("dbench-ng");
	r->version = strdup("probe");
	r->start_time = strdup("2026-12-01T00:00:00Z");
	r->argc = 4;
	r->argv = calloc(4, sizeof(char *));
	for (int i = 0; r->argv && i < 4; i++)
		r->argv[i] = strdup(argv[i]);
	r->cfg.nclients = r->cfg.nprocs = r->cfg.cpp = 2;
	r->cfg.timelimit = (int)secs;
	r->status = RESULT_RUNNING;
	r->covers_s = (double)secs;
	r->has_bins = true;
	for (int o = 0; o < OP_NR; o++) {
		for (int i = 0; i < 400; i++)
			hist_record(&r->op[o].h, 1000 + (uint64_t)i * 997);
	}
	for (long s = 1; s <= secs; s++) {
		struct result_point p = {.t = (double)s,
					 .dur = 1,
					 .lines = 9999,
					 .bytes = 123456789,
					 .latency_ms = 3.5};

		for (int o = 0; o < OP_NR; o++) {
			p.count[o] = 12345;
			p.max_ns[o] = 4567890;
			p.p99_ns[o] = 345678;
		}
		if (result_add_point(r, &p))
			return NULL;
	}
	r->stalls.enabled = true;
	r->stalls.threshold_ms = 100;
	for (int e = 0; e < STALL_MAX_EVENTS; e++) {
		struct result_stall *ev = &r->stalls.events[e];

		ev->duration_ms = 500 - e;
		ev->ended = true;
		ev->file = strdup("builtin:netbench");
		ev->path = strdup("/mnt/test/clients/client0/~dmtmp/x/y.doc");
		ev->start_time = strdup("2026-12-01T00:00:01.000Z");
		ev->nsamples = STALL_MAX_SAMPLES;
		for (int i = 0; i < STALL_MAX_SAMPLES; i++) {
			ev->samples[i].wchan = strdup("jbd2_log_wait_commit");
			ev->samples[i].stack = strdup(
				"entry_SYSCALL_64_after_hwframe;"
				"do_syscall_64;__x64_sys_fsync;do_fsync;"
				"ext4_sync_file;jbd2_complete_transaction;"
				"jbd2_log_wait_commit");
			ev->samples[i].state = 'D';
		}
		r->stalls.nevents++;
	}
	return r;
}

int main(int argc, char **argv)
{
	struct result *r;
	long secs, n;
	double t0, ms = 0;
	char err[1024];
	long bytes = 0;

	if (argc != 4 || (secs = atol(argv[1])) < 1 ||
	    (n = atol(argv[2])) < 1) {
		fprintf(stderr, "usage: ckptprobe SECONDS REPEAT FILE\n");
		return 2;
	}
	r = make(secs);
	if (!r) {
		fprintf(stderr, "ckptprobe: out of memory\n");
		return 1;
	}
	for (long i = 0; i < n; i++) {
		struct file_pending p;
		json_t *doc;
		FILE *f;

		t0 = cpu_ms();
		doc = result_json_doc(r, argv[3]);
		if (!doc ||
		    file_replace_begin(&p, argv[3], "--json", err,
				       sizeof(err)) ||
		    file_replace_write(&p, result_json_emit, doc, false, err,
				       sizeof(err)) ||
		    file_replace_commit(&p, err, sizeof(err))) {
			fprintf(stderr, "ckptprobe: %s\n",
				doc ? err : "no doc");
			return 1;
		}
		json_decref(doc);
		ms += cpu_ms() - t0;
		if (i == 0 && (f = fopen(argv[3], "r"))) {
			fseek(f, 0, SEEK_END);
			bytes = ftell(f);
			fclose(f);
		}
	}
	printf("seconds %ld points %u interval_s %g bytes %ld cpu_ms %.3f\n",
	       secs, r->npoints, r->interval_s, bytes, ms / (double)n);
	result_free(r);
	return 0;
}
