/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * multiprobe.c - helper of tests/cli/html_multi.sh: writes synthetic
 * dbench-ng JSON results of every timed op (17), for the pages of
 * several runs (compare --html, report with several files) to be made
 * from by the real command line.  Run k of a set has 5 s of warmup and
 * SECONDS measured, 1 s intervals, a watchdog with a few stalls, and a
 * machine record (every fourth run busy).  With SLOW > 1 the set is the
 * slower side: WriteX takes SLOW times as long and stalls 784 ms at
 * 28.8 s of the measured phase, Flush 420 ms just before; every stall is traced as BPF would,
 * woken by client 2 or a kworker (the labels of the slowest-call plot).
 *
 *   multiprobe DIR PREFIX N SECONDS SLOW   writes DIR/PREFIXk.json, k=1..N
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "probe_synth.h"
#include "result_offcpu.h"
#include "result.h"
#include "result_json.h"

/* typical latency of each op, ns, and calls per second of the 4 clients */
static const uint64_t base_ns[OP_NR] = {
	[OP_NTCREATEX] = 40000, [OP_CLOSE] = 3000,	[OP_RENAME] = 60000,
	[OP_UNLINK] = 50000,	[OP_DELTREE] = 900000,	[OP_RMDIR] = 70000,
	[OP_MKDIR] = 20000,	[OP_QPATHINFO] = 8000,	[OP_QFILEINFO] = 2000,
	[OP_QFSINFO] = 4000,	[OP_SFILEINFO] = 15000, [OP_FIND] = 30000,
	[OP_WRITEX] = 25000,	[OP_READX] = 12000,	[OP_LOCKX] = 2500,
	[OP_UNLOCKX] = 2200,	[OP_FLUSH] = 900000,
};
static const unsigned int rate[OP_NR] = {
	[OP_NTCREATEX] = 400, [OP_CLOSE] = 350,	    [OP_RENAME] = 40,
	[OP_UNLINK] = 50,     [OP_DELTREE] = 2,	    [OP_RMDIR] = 3,
	[OP_MKDIR] = 3,	      [OP_QPATHINFO] = 600, [OP_QFILEINFO] = 90,
	[OP_QFSINFO] = 80,    [OP_SFILEINFO] = 100, [OP_FIND] = 200,
	[OP_WRITEX] = 300,    [OP_READX] = 900,	    [OP_LOCKX] = 20,
	[OP_UNLOCKX] = 20,    [OP_FLUSH] = 50,
};

static void set_run(struct result *r, int k, int seconds)
{
	struct result_env *e = &r->env;
	char b[64];

	r->tool = dup("dbench-ng");
	r->version = dup("0.0-probe");
	snprintf(b, sizeof(b), "2024-05-01T12:%02d:00Z", k % 60);
	r->start_time = dup(b);
	r->owned[CFS_loadfile] = dup(BUILTIN_NETBENCH);
	r->owned[CFS_dir] = dup("/mnt/probe");
	r->owned[CFS_backend] = dup("fileio");
	r->owned[CFS_paths] = dup("dirfd");
	r->cfg.nprocs = 4;
	r->cfg.cpp = 1;
	r->cfg.nclients = 4;
	r->cfg.timelimit = seconds;
	r->cfg.warmup = 5;
	r->cfg.loadfile = r->owned[CFS_loadfile];
	r->cfg.dir = r->owned[CFS_dir];
	r->cfg.backend = r->owned[CFS_backend];
	r->cfg.paths = r->owned[CFS_paths];
	r->cfg.stall_ms = 100;
	e->hostname = dup("probe");
	e->kernel = dup("6.1.0-probe");
	e->machine = dup("x86_64");
	e->cpus = 8;
	e->fs_type = dup("btrfs");
	r->disturb = (struct result_disturb){
		.valid = true,
		.seconds = seconds,
		.other_cpus = k % 4 == 3 ? 0.9 : 0.02 * uniform(),
		.steal_pct = 0,
		.load1_start = 1,
		.load1_end = 1.5,
		.psi_some_ms = {-1, -1, -1},
	};
}

static void add_stall(struct result *r, int op, double at_s, double ms)
{
	struct result_stalls *st = &r->stalls;
	struct result_stall *e;

	st->total++;
	st->count[op]++;
	if (ms > st->max_ms[op])
		st->max_ms[op] = ms;
	if (st->nevents >= STALL_MAX_EVENTS)
		return;
	e = &st->events[st->nevents++];
	e->client = st->nevents % 4;
	e->pid = 4000 + st->nevents;
	e->op = op;
	e->line = 100;
	e->file = dup(BUILTIN_NETBENCH);
	e->start_s = at_s;
	e->start_time = dup("2024-05-01T12:00:00.000Z");
	e->duration_ms = ms;
	e->ended = true;
	/* traced with BPF: its longest sleep, and who woke it (the labels
	 * beside the markers of the slowest-call plot) */
	e->offcpu.valid = true;
	e->offcpu.blocked_ms = ms * 0.9;
	e->offcpu.sleeps = 1;
	e->offcpu.nwaits = 1;
	e->offcpu.waits[0] = (struct result_wait){
		.at_ms = 1,
		.blocked_ms = ms * 0.9,
		.state = 'D',
		.woken = true,
		.stack = dup("do_syscall_64;btrfs_sync_file;btrfs_sync_log;"
			     "wait_log_commit"),
		.waker_pid = op == OP_WRITEX ? 4002 : 91,
		.waker_comm =
			dup(op == OP_WRITEX ? "dbench-ng"
					    : "kworker/u16:3-btrfs-endio"),
		.waker_client = op == OP_WRITEX ? 2 : -1,
		.waker_stack = dup("ret_from_fork;kthread;worker_thread;"
				   "btrfs_work_helper;end_bio_extent_"
				   "writepage;btrfs_sync_log"),
	};
}

static void fill(struct result *r, int seconds, double slow)
{
	const int nwarm = 5;
	struct hist iv;

	r->has_bins = true;
	r->status = RESULT_OK;
	r->warmup_s = nwarm;
	r->measured_s = seconds;
	r->interval_s = 1;
	r->stalls.enabled = true;
	r->stalls.threshold_ms = 100;
	for (int s = 1; s <= nwarm + seconds; s++) {
		struct result_point p = {
			.t = s, .dur = 1, .warmup = s <= nwarm};

		for (int i = 0; i < OP_NR; i++) {
			unsigned int n;

			if (op_is_nfs3(i))
				continue; /* a NetBench run (no draw: the
					   * runs stay as they were) */
			n = rate[i] / 4 + (uniform() < 0.5);

			if (!op_is_timed(i))
				continue;
			hist_init(&iv);
			for (unsigned int k = 0; k < n; k++) {
				uint64_t v = sample(base_ns[i]);

				if (i == OP_WRITEX)
					v = (uint64_t)((double)v * slow);
				if (slow > 1 && i == OP_WRITEX && k == 0 &&
				    s == nwarm + 29) {
					v = 784000000;
					add_stall(r, i, nwarm + 28.8 - 0.784,
						  784);
				}
				/* and beside it a Flush stall, whose waker's
				 * label would sit on the WriteX label */
				if (slow > 1 && i == OP_FLUSH && k == 1 &&
				    s == nwarm + 28) {
					v = 420000000;
					add_stall(r, i, nwarm + 27.9 - 0.42,
						  420);
				}
				if (i == OP_FLUSH && k == 0 && s % 20 == 7) {
					v = 150000000 + (uint64_t)s * 1000;
					add_stall(r, i, s - 0.5, 150);
				}
				hist_record(&iv, v);
				if (!p.warmup)
					hist_record(&r->op[i].h, v);
			}
			p.count[i] = iv.count;
			p.max_ns[i] = iv.max;
			p.p99_ns[i] = hist_value_at(&iv, 99);
			if ((double)iv.max / 1e6 > p.latency_ms)
				p.latency_ms = (double)iv.max / 1e6;
		}
		p.bytes = (uint64_t)((250 + 30 * uniform()) / slow * 1e6);
		p.lines = p.bytes / 20000;
		if (result_add_point(r, &p)) {
			perror("result_add_point");
			exit(2);
		}
		if (!p.warmup)
			r->throughput += (double)p.bytes / 1e6;
		if (!p.warmup)
			r->op[OP_WRITEX].bytes += p.bytes / 2;
	}
	r->op[OP_READX].bytes = r->op[OP_WRITEX].bytes;
	r->throughput /= seconds;
	r->max_latency_ms = slow > 1 ? 784 : 150;
}

int main(int argc, char **argv)
{
	char path[4096], err[512];
	int n, seconds;
	double slow;

	if (argc != 6) {
		fprintf(stderr,
			"usage: multiprobe DIR PREFIX N SECONDS SLOW\n");
		return 2;
	}
	n = atoi(argv[3]);
	seconds = atoi(argv[4]);
	slow = atof(argv[5]);
	rng += (uint64_t)(slow * 1000); /* each side its own numbers */
	for (int k = 1; k <= n; k++) {
		struct result *r = result_new();

		if (!r) {
			perror("result_new");
			return 2;
		}
		set_run(r, k, seconds);
		fill(r, seconds, slow);
		snprintf(path, sizeof(path), "%s/%s%d.json", argv[1], argv[2],
			 k);
		if (result_write_json(r, path, err, sizeof(err))) {
			fprintf(stderr, "multiprobe: %s\n", err);
			return 2;
		}
		result_free(r);
	}
	return 0;
}
