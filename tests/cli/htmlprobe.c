/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * htmlprobe.c - helper of tests/cli/html.sh: builds a synthetic result and
 * writes its HTML report with report_html_file().  The "stall" case is a
 * 130 s series (10 s warmup) where Rename stalls 500 ms every 30 s, with
 * hostile strings (markup, quotes, control bytes, invalid UTF-8) in the
 * environment; the others are the edge cases of the report.
 *
 *   htmlprobe CASE OUT.html    CASE: stall failed nobins single empty huge
 *   htmlprobe ppm-stats < PPM  "W H NONWHITE COLOURED" pixel counts of a
 *                              binary PPM (P6, maxval 255), e.g. from
 *                              "convert shot.png ppm:-"
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "probe_synth.h"
#include "report_html.h"
#include "result.h"

static void set_env(struct result *r)
{
	struct result_env *e = &r->env;

	r->tool = dup("dbench-ng");
	r->version = dup("0.0-probe");
	r->start_time = dup("2024-05-01T12:00:00Z");
	r->argc = 7;
	r->argv = calloc(7, sizeof(char *));
	r->argv[0] = dup("dbench-ng");
	r->argv[1] = dup("-t");
	r->argv[2] = dup("120");
	r->argv[3] = dup("--warmup");
	r->argv[4] = dup("10");
	r->argv[5] = dup("-D/mnt/it's a <dir>");
	r->argv[6] = dup("4");
	r->owned[CFS_loadfile] = dup(BUILTIN_NETBENCH);
	r->owned[CFS_dir] = dup("/mnt/it's a <dir>");
	r->owned[CFS_backend] = dup("fileio");
	r->cfg.nprocs = 4;
	r->cfg.cpp = 1;
	r->cfg.nclients = 4;
	r->cfg.timelimit = 120;
	r->cfg.warmup = 10;
	r->cfg.loadfile = r->owned[CFS_loadfile];
	r->cfg.dir = r->owned[CFS_dir];
	r->cfg.backend = r->owned[CFS_backend];
	r->cfg.sync_open = true;
	e->hostname = dup("host<script>alert('x')</script>&\"q\"");
	e->kernel = dup("6.1.0-probe");
	e->kernel_version = dup("#1 SMP PREEMPT_DYNAMIC Debian 6.1.90-1");
	e->machine = dup("x86_64");
	e->cpu_model = dup("Probe CPU @ 3.00GHz");
	e->cpus = 8;
	e->mem_bytes = 16ULL << 30;
	e->dir = dup("/mnt/it's a <dir>");
	e->dir_real =
		dup("/mnt/it's a <dir>/ctl\x01\x7f-latin1-\xe9-ok-\xc3\xa9");
	e->fs_type = dup("ext4");
	e->fs_device = dup("/dev/loop0");
	e->fs_mount_point = dup("/mnt");
	e->fs_options = dup("rw,relatime | rw,data=ordered");
	e->fs_size_bytes = 1ULL << 30;
	e->fs_free_bytes = 700ULL << 20;
	e->nloadfiles = 1;
	e->loadfile_name = calloc(1, sizeof(char *));
	e->loadfile_sha256 = calloc(1, sizeof(char *));
	e->loadfile_name[0] = dup(BUILTIN_NETBENCH);
	e->loadfile_sha256[0] = dup("9f86d081884c7d659a2feaa0c55ad015"
				    "a3bf4f1b2b0b822cd15d6c15b0f00a08");
}

/* typical latency of each op, ns */
static const uint64_t base_ns[OP_NR] = {
	[OP_NTCREATEX] = 40000, [OP_CLOSE] = 3000,	[OP_RENAME] = 60000,
	[OP_UNLINK] = 50000,	[OP_DELTREE] = 9000000, [OP_RMDIR] = 0,
	[OP_MKDIR] = 20000,	[OP_QPATHINFO] = 8000,	[OP_QFILEINFO] = 2000,
	[OP_QFSINFO] = 4000,	[OP_SFILEINFO] = 15000, [OP_FIND] = 30000,
	[OP_WRITEX] = 25000,	[OP_READX] = 12000,	[OP_LOCKX] = 2500,
	[OP_UNLOCKX] = 2200,	[OP_FLUSH] = 900000,
};

/* calls per client second */
static const unsigned int rate[OP_NR] = {
	[OP_NTCREATEX] = 400, [OP_CLOSE] = 350,	   [OP_RENAME] = 40,
	[OP_UNLINK] = 50,     [OP_DELTREE] = 0,	   [OP_MKDIR] = 1,
	[OP_QPATHINFO] = 600, [OP_QFILEINFO] = 90, [OP_QFSINFO] = 80,
	[OP_SFILEINFO] = 100, [OP_FIND] = 200,	   [OP_WRITEX] = 300,
	[OP_READX] = 900,     [OP_LOCKX] = 20,	   [OP_UNLOCKX] = 20,
	[OP_FLUSH] = 50,
};

/* the max of @h in ms */
static double ns_max(const struct hist *h)
{
	return (double)h->max / 1e6;
}

/* The 130 s run: 10 s warmup, then 120 s; Rename stalls 500 ms at t =
 * 25, 55, 85, 115 (every 30 s); Deltree runs every 10 s only. */
static void fill_stall(struct result *r, int npoints, int nwarm)
{
	struct hist iv;

	r->has_bins = true;
	r->status = RESULT_OK;
	r->warmup_s = nwarm;
	r->measured_s = npoints - nwarm;
	r->nclients = 4;
	r->clients = calloc(4, sizeof(*r->clients));
	for (int s = 1; s <= npoints; s++) {
		struct result_point p = {
			.t = s, .dur = 1, .warmup = s <= nwarm};
		bool stall = s % 30 == 25;

		for (int i = 0; i < OP_NR; i++) {
			unsigned int n = 4 * rate[i];

			if (i == OP_DELTREE)
				n = s % 10 == 0;
			if (!op_is_timed(i) || !n)
				continue;
			hist_init(&iv);
			for (unsigned int k = 0; k < n; k++) {
				uint64_t v = sample(base_ns[i]);

				if (stall && i == OP_RENAME && k == 0)
					v = 500000000 + k;
				hist_record(&iv, v);
				if (!p.warmup) {
					struct result_client *c =
						&r->clients[k % 4];

					hist_record(&r->op[i].h, v);
					c->count[i]++;
					c->sum_ns[i] += v;
					if (v > c->max_ns[i])
						c->max_ns[i] = v;
				}
			}
			p.count[i] = iv.count;
			p.max_ns[i] = iv.max;
			p.p99_ns[i] = hist_value_at(&iv, 99);
			if (ns_max(&iv) > p.latency_ms)
				p.latency_ms = ns_max(&iv);
		}
		p.bytes = (uint64_t)((stall ? 60 : 250 + 30 * uniform()) * 1e6);
		p.lines = p.bytes / 20000;
		if (result_add_point(r, &p)) {
			perror("result_add_point");
			exit(2);
		}
		if (!p.warmup)
			r->throughput += (double)p.bytes / 1e6;
	}
	r->throughput /= r->measured_s;
	r->max_latency_ms = 500.0;
	r->op[OP_RENAME].max_at_s = 25.5;
	r->op[OP_RENAME].max_client = 2;
	r->op[OP_RENAME].max_line = 4711;
	r->op[OP_RENAME].max_file = dup(BUILTIN_NETBENCH);
	r->op[OP_RENAME].max_path = dup("/mnt/clients/client2/~dmtmp/PWRPNT/"
					"NEWPCB.PPT -> /mnt/clients/client2/"
					"~dmtmp/PWRPNT/PPTB1E4.TMP");
	r->op[OP_WRITEX].bytes = 20000000000ULL;
	r->op[OP_READX].bytes = 10000000000ULL;
	r->op[OP_READX].errors = 3;
	r->nwarn = 3;
	r->nwarn_msgs = 1;
	r->warn_msgs[0] = dup("client 1 line 812: ReadX: expected 65536 bytes,"
			      " got 0 <EOF>");
	for (int c = 0; c < 4; c++) {
		r->clients[c].lines = 1000000 + (uint64_t)c;
		r->clients[c].bytes = 7000000000ULL;
	}
}

/* The watchdog caught the four Rename stalls in the journal. */
static void add_watchdog(struct result *r)
{
	struct result_stalls *st = &r->stalls;
	char b[64];

	r->cfg.stall_ms = 100;
	st->enabled = true;
	st->threshold_ms = 100;
	st->total = 4;
	st->count[OP_RENAME] = 4;
	st->max_ms[OP_RENAME] = 500;
	st->nevents = 4;
	for (int k = 0; k < 4; k++) {
		struct result_stall *e = &st->events[k];

		e->client = k;
		e->pid = 4242 + k;
		e->op = OP_RENAME;
		e->line = 4711;
		e->file = dup(BUILTIN_NETBENCH);
		e->path = dup("/mnt/clients/client0/~dmtmp/PWRPNT/NEWPCB.PPT");
		e->start_s = 24.2 + 30 * k;
		snprintf(b, sizeof(b), "2024-05-01T12:00:%02d.200Z", 24 + k);
		e->start_time = dup(b);
		e->duration_ms = 500 - k;
		e->ended = true;
		for (int i = 0; i < PSI_NR; i++) {
			e->psi_start[i].valid = e->psi_end[i].valid = true;
			e->psi_end[i].some_avg10 = 12.5;
			e->psi_end[i].some_total_us = 480000;
		}
		e->nsamples = 2;
		e->samples[0].t_ms = 100;
		e->samples[0].state = 'D';
		e->samples[0].wchan = dup("jbd2_log_wait_commit");
		e->samples[0].stack = dup("jbd2_log_wait_commit;"
					  "ext4_rename2;vfs_rename;"
					  "do_renameat2;<evil>&frame");
		e->samples[1].t_ms = 200;
		e->samples[1].state = 'D';
		e->samples[1].repeat = 3;
		e->samples[1].wchan = dup("jbd2_log_wait_commit");
	}
	st->nfolded = 1;
	st->folded[0].stack = dup("do_renameat2;vfs_rename;ext4_rename2;"
				  "jbd2_log_wait_commit");
	st->folded[0].count = 16;
	st->folded_other = 2;
}

/* Read one header number of a PPM, skipping blanks and comments. */
static long ppm_num(FILE *f)
{
	long v = 0;
	int c;

	do {
		c = getc(f);
		if (c == '#')
			while (c != '\n' && c != EOF)
				c = getc(f);
	} while (c == ' ' || c == '\t' || c == '\n' || c == '\r');
	if (c < '0' || c > '9')
		return -1;
	while (c >= '0' && c <= '9') {
		v = v * 10 + (c - '0');
		c = getc(f);
	}
	return v; /* the one blank after it is consumed */
}

/* Count the pixels that are not white, and the saturated ones (the
 * plots' colours: text, grid and frames are grey). */
static int ppm_stats(FILE *f)
{
	unsigned long long nonwhite = 0, coloured = 0;
	unsigned char px[3];
	long w, h, max;

	if (getc(f) != 'P' || getc(f) != '6') {
		fprintf(stderr, "htmlprobe: not a binary PPM\n");
		return 2;
	}
	w = ppm_num(f);
	h = ppm_num(f);
	max = ppm_num(f);
	if (w <= 0 || h <= 0 || max != 255) {
		fprintf(stderr, "htmlprobe: unsupported PPM header\n");
		return 2;
	}
	for (long i = 0; i < w * h; i++) {
		int lo, hi;

		if (fread(px, 1, 3, f) != 3) {
			fprintf(stderr, "htmlprobe: PPM truncated\n");
			return 2;
		}
		lo = px[0] < px[1] ? px[0] : px[1];
		lo = px[2] < lo ? px[2] : lo;
		hi = px[0] > px[1] ? px[0] : px[1];
		hi = px[2] > hi ? px[2] : hi;
		if (lo < 235)
			nonwhite++;
		if (hi - lo > 60)
			coloured++;
	}
	printf("%ld %ld %llu %llu\n", w, h, nonwhite, coloured);
	return 0;
}

int main(int argc, char **argv)
{
	struct result *r;
	char err[512];
	const char *c;

	if (argc == 2 && !strcmp(argv[1], "ppm-stats"))
		return ppm_stats(stdin);
	if (argc != 3) {
		fprintf(stderr, "usage: htmlprobe CASE OUT.html\n");
		return 2;
	}
	c = argv[1];
	r = result_new();
	if (!r)
		return 2;
	set_env(r);
	if (!strcmp(c, "stall")) {
		fill_stall(r, 130, 10);
		add_watchdog(r);
	} else if (!strcmp(c, "failed")) {
		fill_stall(r, 40, 10);
		r->status = RESULT_FAILED;
		r->nerrors = 1;
		r->errors[0] = dup("client 3: Rename /mnt/a -> /mnt/<b>: "
				   "No such file or directory");
	} else if (!strcmp(c, "single")) {
		fill_stall(r, 1, 0);
		r->status = RESULT_INTERRUPTED;
		r->signal = 2;
	} else if (!strcmp(c, "nobins")) {
		/* a dbench 4.0 log: count/avg/max, progress latency only */
		fill_stall(r, 20, 5);
		r->has_bins = false;
		for (int i = 0; i < OP_NR; i++) {
			uint64_t n = r->op[i].h.count, s = r->op[i].h.sum,
				 m = r->op[i].h.max;

			hist_init(&r->op[i].h);
			r->op[i].h.count = n;
			r->op[i].h.sum = s;
			r->op[i].h.max = m;
		}
		for (uint32_t k = 0; k < r->npoints; k++) {
			memset(r->points[k].count, 0,
			       sizeof(r->points[k].count));
			memset(r->points[k].max_ns, 0,
			       sizeof(r->points[k].max_ns));
			memset(r->points[k].p99_ns, 0,
			       sizeof(r->points[k].p99_ns));
		}
	} else if (!strcmp(c, "empty")) {
		r->has_bins = true;
	} else if (!strcmp(c, "huge")) {
		/* values beyond the binned range, a zero latency, a huge
		 * count, one point */
		struct result_point p = {.t = 1e6, .dur = 1e6};

		r->has_bins = true;
		hist_record(&r->op[OP_WRITEX].h, 0);
		hist_record(&r->op[OP_WRITEX].h, HIST_LIMIT + 5);
		hist_record(&r->op[OP_WRITEX].h, UINT64_MAX / 2);
		r->op[OP_WRITEX].h.count += 1000000000000ULL;
		r->op[OP_WRITEX].h.bins[0] += 1000000000000ULL;
		r->op[OP_CLOSE].h.count = 1;
		r->op[OP_CLOSE].h.bins[1] = 1;
		r->op[OP_CLOSE].h.min = r->op[OP_CLOSE].h.max = 1;
		p.count[OP_WRITEX] = 3;
		p.max_ns[OP_WRITEX] = UINT64_MAX / 2;
		p.count[OP_CLOSE] = 1;
		p.max_ns[OP_CLOSE] = 0;
		p.bytes = UINT64_MAX / 4;
		result_add_point(r, &p);
		r->throughput = 1e15;
		r->max_latency_ms = 9.2e12;
	} else {
		fprintf(stderr, "htmlprobe: unknown case '%s'\n", c);
		return 2;
	}
	if (report_html_file(r, argv[2], err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		result_free(r);
		return 1;
	}
	result_free(r);
	return 0;
}
