/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * result.h - what a run produced: the input of every report, and what the
 * JSON result file holds.  Built from the client slots at the end of a
 * live run (runner.c), read back from a JSON file (result.c) or from a
 * dbench 4.0 text log (dblog/).  Reports read it; they never measure.
 * Every string is owned by the result and freed by result_free().
 */
#ifndef DBNG_RESULT_H
#define DBNG_RESULT_H

#include <stdbool.h>
#include <stdint.h>

#include "histogram.h"
#include "ops.h"
#include "config.h"
#include "result_offcpu.h"

#define RESULT_FORMAT_VERSION 1
#define RESULT_MAX_MSGS 8
#define RESULT_MAX_BYTES      (256u << 20) /* largest result file read */

/* How a run ended, and its name in the JSON result and the HTML page:
 * ok, interrupted (stopped by a signal: partial results), failed (a
 * client failed: see errors[]), running (a checkpoint written during the
 * run: what it measured up to covers_s, partial results; the run was
 * still running, or was killed before its end). */
#define RESULT_STATUS_LIST(X)                                                 \
	X(RESULT_OK, "ok")                                                    \
	X(RESULT_INTERRUPTED, "interrupted")                                  \
	X(RESULT_FAILED, "failed")                                            \
	X(RESULT_RUNNING, "running")

enum result_status {
#define X(id, name) id,
	RESULT_STATUS_LIST(X)
#undef X
};

/* result_status_name - "ok", "interrupted", "failed" */
const char *result_status_name(enum result_status s);

/* result_status_parse - the status named @s into @out; false: no such */
bool result_status_parse(const char *s, enum result_status *out);

/* One operation over the measured phase, all clients merged. */
struct result_op {
	struct hist h;		/* count, sum, min, max exact; bins */
	uint64_t errors;	/* unexpected (non-fatal) results */
	uint64_t bytes;		/* ReadX/WriteX payload */
	/* the slowest call: when, who, where (all unknown when max_client
	 * is -1; line 0 and NULL strings are unknown too) */
	double max_at_s;	/* start, seconds after the release */
	int max_client;
	uint32_t max_line;	/* loadfile line */
	char *max_file;		/* loadfile name */
	char *max_path;		/* real path(s) it worked on */
	/* lines of the op the backend cannot execute (backend.h: not_run):
	 * counted, never timed, so not in h; and why, or NULL */
	uint64_t not_run;
	char *not_run_why;
	/* each call's latency minus the foreign CPU wait inside it (BPF,
	 * struct result_foreign), ns, binned as h; own.count == 0: not
	 * measured.  foreign_ns: that wait summed over the op's calls. */
	struct hist own;
	uint64_t foreign_ns;
};

/* One client, for --per-client-results. */
struct result_client {
	uint64_t lines;		/* loadfile lines done, whole run */
	uint64_t bytes;		/* measured part */
	uint64_t count[OP_NR];
	uint64_t sum_ns[OP_NR];
	uint64_t max_ns[OP_NR];
};

/* One interval of the time series. */
struct result_point {
	double t;		/* end of the interval, s after the release */
	double dur;		/* its length, s */
	bool warmup;		/* inside the warmup */
	uint64_t lines;		/* loadfile lines done in it, all clients */
	uint64_t bytes;		/* bytes read and written in it */
	double latency_ms;	/* dbench's per-second latency figure */
	uint64_t count[OP_NR];
	uint64_t max_ns[OP_NR];
	uint64_t p99_ns[OP_NR];
	/* a paced run (result.resp.valid): per op, the response times of
	 * the ops that ended in it (count, exact max, p99) and its late
	 * starts */
	uint64_t resp_count[OP_NR];
	uint64_t resp_max_ns[OP_NR];
	uint64_t resp_p99_ns[OP_NR];
	uint64_t late[OP_NR];
};

/* The figures of one PSI resource, once: the struct and the JSON keys
 * of a "psi" object.  X(field, type): DBL double, U64 uint64_t. */
#define PSI_FIELDS(X)                                                         \
	X(some_avg10, DBL)                                                    \
	X(full_avg10, DBL)                                                    \
	X(some_total_us, U64)                                                 \
	X(full_total_us, U64)

#define PSI_CTYPE_DBL double
#define PSI_CTYPE_U64 uint64_t

/* Pressure stall information of one resource (/proc/pressure/X). */
struct result_psi {
	bool valid;
#define X(f, T) PSI_CTYPE_##T f;
	PSI_FIELDS(X)
#undef X
};

/* The resources of /proc/pressure, once: their order is that of the JSON
 * "psi" objects and of the reports. */
#define PSI_LIST(X) X(IO, "io") X(MEMORY, "memory") X(CPU, "cpu")

enum {
#define X(id, name) PSI_##id,
	PSI_LIST(X)
#undef X
	PSI_NR
};

/* psi_name[i] - the name of resource i: "io", "memory", "cpu" */
extern const char *const psi_name[PSI_NR];

#define STALL_MAX_SAMPLES 16

/* One look at a stuck client while its op was still in flight. */
struct result_stall_sample {
	double t_ms;		/* since the op started */
	char state;		/* /proc/PID/stat: R, S, D, ... */
	uint32_t repeat;	/* later samples that looked the same */
	char *wchan;
	char *stack;		/* /proc/PID/stack frames, ';'-separated */
};

/* An op that ran longer than the stall threshold. */
struct result_stall {
	int client;
	int pid;
	int op;			/* enum op_type */
	uint32_t line;
	char *file;
	char *path;
	double start_s;		/* after the release of the clients */
	char *start_time;	/* absolute, ISO 8601 UTC with ms */
	double duration_ms;	/* final (or so far, if !ended) */
	bool ended;		/* false: still stuck when the run ended */
	bool warmup;		/* ended in the warmup: counted there, as the
				   tables count ops (in the phase they end) */
	char *host;		/* a run across hosts: where (NULL: here) */
	int rank;		/* and its MPI rank */
	struct result_psi psi_start[PSI_NR], psi_end[PSI_NR];
	int nsamples;
	struct result_stall_sample samples[STALL_MAX_SAMPLES];
	struct result_offcpu offcpu;	/* why it waited (BPF tracing) */
};

/* How resource @i's pressure changed over stall @ev (avg10 in %, the
 * stalled time in ms from the "some" total); false unless PSI was read at
 * both ends.  For the reports. */
struct psi_change {
	double some0, some1, full0, full1, stalled_ms;
};

static inline bool psi_change(const struct result_stall *ev, int i,
			      struct psi_change *c)
{
	const struct result_psi *a = &ev->psi_start[i], *b = &ev->psi_end[i];

	if (!a->valid || !b->valid)
		return false;
	*c = (struct psi_change){a->some_avg10, b->some_avg10, a->full_avg10,
				 b->full_avg10,
				 (double)(b->some_total_us - a->some_total_us) /
					 1e3};
	return true;
}

/* A distinct kernel stack seen in stall samples, with how often. */
struct result_folded {
	char *stack;
	uint64_t count;
};

#define STALL_MAX_EVENTS 32	/* longest events kept in full */
#define STALL_MAX_FOLDED 64	/* distinct stacks kept */

struct result_stalls {
	bool enabled;
	double threshold_ms;
	uint64_t total;			/* events of the measured phase,
					   kept or not */
	uint64_t count[OP_NR];		/* its events per op */
	double max_ms[OP_NR];		/* its longest per op */
	uint64_t warmup_total;		/* events that ended in the warmup */
	uint64_t warmup_count[OP_NR];
	double warmup_max_ms[OP_NR];
	int nevents;			/* kept, longest first */
	struct result_stall events[STALL_MAX_EVENTS];
	int nfolded;			/* most frequent first */
	struct result_folded folded[STALL_MAX_FOLDED];
	uint64_t folded_other;		/* samples beyond STALL_MAX_FOLDED */
	uint64_t unsampled;		/* events of the measured phase that
					   ended before their first sample
					   (the watchdog's budget) */
	char *note;			/* e.g. why stacks could not be read */
	struct result_offcpu_run offcpu; /* how they were explained (BPF or
					   /proc), and where the stalled ops
					   spent their time */
};

/* Where the run happened (all strings may be NULL when unknown). */
struct result_env {
	char *hostname;
	char *kernel;		/* uname -r */
	char *kernel_version;	/* uname -v */
	char *machine;		/* uname -m */
	char *cpu_model;
	int cpus;		/* online */
	uint64_t mem_bytes;
	/* the -D directory */
	char *dir;		/* as given */
	char *dir_real;		/* realpath */
	char *fs_type;
	char *fs_device;
	char *fs_mount_point;
	char *fs_options;	/* mount options, per-mount and superblock */
	uint64_t fs_size_bytes;
	uint64_t fs_free_bytes;
	/* the loadfiles, in -c order */
	int nloadfiles;
	char **loadfile_name;
	char **loadfile_sha256;	/* hex */
};

/*
 * What else the machine did while a run measured (engine/disturb.c), from
 * the release of the clients until the last one exited: the CPU time of
 * processes that are not this run's nor kernel threads (which do the
 * filesystem's work for it), steal time, the load average, PSI stalled
 * time and the CPU frequencies.  A result without it (older files, a
 * dbench log) has valid false.
 */
struct result_disturb {
	bool valid;
	double seconds;	    /* the window */
	double other_cpus;  /* other processes' CPU time / seconds */
	double steal_pct;   /* steal, % of all CPU time; -1 unknown */
	double load1_start; /* /proc/loadavg, 1 minute; -1 unknown */
	double load1_end;
	double psi_some_ms[PSI_NR]; /* "some" stalled time; -1 unknown */
	double mhz_min, mhz_max;    /* scaling_cur_freq at the end; 0 unknown */
};

/*
 * The bound past which a run's machine counts as disturbed (docs/
 * regressions.md, "A busy machine"): other processes used a fifth of a
 * CPU or more on average, or the hypervisor stole 2 % of the CPU time.
 * A quiet machine stays far below (0.01-0.03 CPUs of daemons); one
 * CPU-burning process beside the run is 1.0.
 */
#define DISTURB_OTHER_CPUS 0.2
#define DISTURB_STEAL_PCT  2.0

static inline bool result_disturbed(const struct result_disturb *d)
{
	return d->valid && (d->other_cpus >= DISTURB_OTHER_CPUS ||
			    d->steal_pct >= DISTURB_STEAL_PCT);
}

/* How the clients' wait for a CPU held by other programs was measured
 * (engine/foreign.c, docs/regressions.md "Own latency"), and the names of
 * the JSON result's "foreign.method". */
#define FOREIGN_METHOD_LIST(X)                                                \
	X(FOREIGN_NONE, "none")           /* not measured */                  \
	X(FOREIGN_BPF, "bpf")             /* per op: own latencies */         \
	X(FOREIGN_SCHEDSTAT, "schedstat") /* per run: run-queue wait only */

enum foreign_method {
#define X(id, name) id,
	FOREIGN_METHOD_LIST(X)
#undef X
};

/* foreign_method_name - "none", "bpf", "schedstat" */
const char *foreign_method_name(int m);

/* foreign_method_parse - the method named @s into @out; false: no such */
bool foreign_method_parse(const char *s, int *out);

#define FOREIGN_MAX_HOLDERS 4

/* A program outside the run that held a CPU a client waited for. */
struct result_foreign_holder {
	char comm[16];
	uint64_t ns;		/* the clients' wait it caused */
};

/*
 * The clients' wait for a CPU over the measured phase.  "Foreign" is the
 * part of their run-queue wait during which a process outside the run
 * held that CPU: not a client, not this run's parent, not a kernel
 * thread (their work for the filesystem is the kernel's cost and stays
 * in every figure).  A result without it (older files, a dbench log)
 * has method FOREIGN_NONE and zeros.
 */
struct result_foreign {
	int method;		/* enum foreign_method */
	char *note;		/* why not BPF, or NULL */
	uint64_t wait_ns;	/* foreign wait, all clients (BPF) */
	uint64_t runq_ns;	/* all run-queue wait, all clients */
	double own_mbps;	/* bytes over (measured time - the clients'
				   mean foreign wait), MB/s; 0 unknown */
	int nholders;		/* who held the CPU, most first */
	struct result_foreign_holder holders[FOREIGN_MAX_HOLDERS];
};

/* How a paced run was paced: its ops' intended starts (docs/design.md
 * §5), and the names of the JSON result. */
#define RESP_PACING_LIST(X)                                                   \
	X(RESP_RATE, "rate")             /* -R: the byte schedule */          \
	X(RESP_TIMESTAMPS, "timestamps") /* the loadfile's timestamps */

enum resp_pacing {
#define X(id, name) id,
	RESP_PACING_LIST(X)
#undef X
};

/* resp_pacing_name - "rate", "timestamps" */
const char *resp_pacing_name(enum resp_pacing p);

/* resp_pacing_parse - the pacing named @s into @out; false: no such */
bool resp_pacing_parse(const char *s, enum resp_pacing *out);

/*
 * Response time of a paced run (-R, loadfile timestamps): per op, from
 * each op's intended start to its end, over the measured phase, all
 * paced clients merged; and its late starts.  An unpaced run has no
 * intended start and valid false: no figures at all (not zeros).
 */
struct result_resp {
	bool valid;
	enum resp_pacing pacing;
	double late_ms;		  /* a start later than this is late */
	struct hist h[OP_NR];	  /* response times, ns */
	uint64_t late[OP_NR];	  /* late starts */
	uint64_t late_max_ns[OP_NR]; /* the largest lateness */
};

/* One host (an MPI rank) of a run across hosts (dbench-ng-mpi): its own
 * figures, for the imbalance between hosts. */
struct result_host {
	char *name;		/* host name */
	int rank;
	int first_client;	/* its clients' ids */
	int clients;
	enum result_status status;
	double throughput;	/* its bytes over the measured time, MB/s */
	/* its release after rank 0's, as estimated from the round trip of
	 * a message (docs/mpi.md, "Clocks"), and the bound of the estimate */
	double release_ms, release_err_ms;
	uint64_t count[OP_NR];	/* per op, its measured phase */
	double mean_ms[OP_NR], p99_ms[OP_NR], max_ms[OP_NR];
};

struct result {
	/* what ran */
	char *tool;		/* "dbench-ng", or "dbench" for a 4.0 log */
	char *version;		/* "0.5.0", "0.5.0+3" (docs/install.md) */
	char *commit;		/* "abc1234[-dirty]", NULL if not known */
	char *start_time;	/* ISO 8601 UTC */
	int argc;
	char **argv;
	struct config cfg;	/* its strings, when the result owns them
				   (read back), are in owned[] */
	char *owned[CFS_NR];	/* by CFS_x (config.h): CFS_loadfile, ... */
	struct result_env env;

	/* how it ended */
	enum result_status status;
	int signal;		/* RESULT_INTERRUPTED: which */
	double covers_s;	/* RESULT_RUNNING: its series ends here, s
				   after the release */
	int nerrors;
	char *errors[RESULT_MAX_MSGS];	/* fatal messages */

	/* what it measured */
	bool has_bins;		/* false: from a dbench log (count/avg/max) */
	struct result_op op[OP_NR];
	int nclients;
	struct result_client *clients;
	double throughput;	/* MB/s, dbench's definition */
	double max_latency_ms;	/* dbench's max_latency */
	double warmup_s;	/* seconds of warmup that ran */
	double measured_s;	/* seconds of the measured phase */
	uint64_t nwarn;
	int nwarn_msgs;
	char *warn_msgs[RESULT_MAX_MSGS];

	/* operations that stalled (watchdog.c) */
	struct result_stalls stalls;

	/* what else the machine did meanwhile (disturb.c) */
	struct result_disturb disturb;

	/* the clients' wait for CPUs other programs held (foreign.c) */
	struct result_foreign foreign;

	/* response times of a paced run */
	struct result_resp resp;

	/* a run across hosts: one row per host, by rank (none: one host) */
	int nhosts;
	struct result_host *hosts;

	/* the time series: at most RESULT_MAX_POINTS intervals; when full,
	 * neighbours are merged and the interval doubles */
	double interval_s;
	uint32_t npoints;
	uint32_t points_cap;	/* allocated: grows by doubling, up to
				   RESULT_MAX_POINTS */
	struct result_point *points;
};

#define RESULT_MAX_POINTS 4096

/* result_has_own - @r carries own latencies (BPF measured the foreign
 * wait of its ops): compare and check may decide on them */
static inline bool result_has_own(const struct result *r)
{
	if (r->foreign.method != FOREIGN_BPF)
		return false;
	for (int i = 0; i < OP_NR; i++) {
		if (r->op[i].own.count > 0)
			return true;
	}
	return false;
}

/* result_new - an empty result (zeroed, max_client -1); NULL on ENOMEM */
struct result *result_new(void);

/* result_stall_free - release what @ev owns (not @ev itself) */
void result_stall_free(struct result_stall *ev);

/* result_stall_copy - @dst as @src with strings of its own; 0, or -1
 * (out of memory: @dst owns nothing) */
int result_stall_copy(struct result_stall *dst, const struct result_stall *src);

/* result_stalls_copy - @dst (empty) as @src, deep; 0, or -1 (out of
 * memory: what @dst holds is still released by result_stalls_free) */
int result_stalls_copy(struct result_stalls *dst,
		       const struct result_stalls *src);

/* result_stalls_free - release what @st owns and empty it */
void result_stalls_free(struct result_stalls *st);

/* result_free - release @r and everything it owns */
void result_free(struct result *r);

/* result_add_point - append interval @p to the series of @r, halving the
 * resolution when it is full.  0 or -1 (out of memory). */
int result_add_point(struct result *r, const struct result_point *p);

/* Merging the hosts of a run across hosts into the run's result
 * (result_merge.c).  result_set_stats - the run's per-op tables from the
 * run's statistics @st, every host's added by stats_add: exact. */
struct stats;
void result_set_stats(struct result *r, const struct stats *st);

/* result_merge_begin - prepare @run for @nhosts hosts and @nclients
 * clients (every host's): empty tables of clients and hosts.  -1: out of
 * memory. */
int result_merge_begin(struct result *run, int nhosts, int nclients);

/* result_merge_host - add the result @h of the host @name (MPI rank
 * @rank, clients first_client ..) to @run, after result_set_stats():
 * its status, messages (named by host and rank), clients, stalls (named
 * too), disturbance, the slowest call of an op if it was this host's,
 * and its row of run->hosts, with its release (release_ms after rank
 * 0's, within release_err_ms).  -1: out of memory. */
int result_merge_host(struct result *run, const struct result *h,
		      const char *name, int rank, int first_client,
		      double release_ms, double release_err_ms);

/* result_merge_end - after the last host: the longest stall events and
 * the most frequent stacks first, as a run of one host has them. */
void result_merge_end(struct result *run);

/* result_imbalance - the slowest and the fastest host of @r by
 * throughput (indexes into r->hosts); false without hosts */
bool result_imbalance(const struct result *r, int *slow, int *fast);

#endif
