/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * watchdog.h - stall forensics: a thread in the parent that watches every
 * client's op in flight and, for one running longer than a threshold,
 * records while it is still stuck the kernel stack, wait channel and
 * state of the client process and the system's pressure (PSI).
 *
 * It only reads the clients' slots (op_start_ns, cur_op, and the ring of
 * slow ops with their measured durations, shm.h): nothing is sent to the
 * clients, whose hot loop publishes the start of each op and writes a
 * record only for an op of the threshold or longer.  With BPF tracing
 * (offcpu.h) each event also says why it waited: its sleeps, who woke
 * them and where, and its time runnable without a CPU.
 */
#ifndef DBNG_WATCHDOG_H
#define DBNG_WATCHDOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct result_stall;
struct offcpu;
struct result_stalls;
struct shm;

/* Fill op, line, file and path of @ev for op index @pc of client @client */
typedef void (*watchdog_describe_fn)(void *ctx, int client, uint32_t pc,
				     struct result_stall *ev);

/* what the run's watchdog samples a poll at most: with its poll of 5 ms,
 * 800 samples (2400 small /proc reads) a second */
#define WATCHDOG_SAMPLES_PER_POLL 4

struct watchdog_cfg {
	struct shm *shm;
	int nclients;
	uint64_t threshold_ns;	/* an op running longer is a stall */
	uint64_t poll_ns;	/* how often the slots are read */
	uint64_t sample_ns;	/* how often a stuck op is sampled again */
	uint32_t max_samples;	/* samples a poll may take at most (the
				   rest wait for the next); 0: no bound */
	const char *proc;	/* "/proc" (tests may point elsewhere) */
	watchdog_describe_fn describe;
	void *ctx;
	struct result_stalls *out;	/* written by the thread until stop */
	struct offcpu *offcpu;	/* BPF tracing of the clients' off-CPU
				   time (offcpu.h), or NULL: /proc only */
};

struct watchdog;

/* watchdog_start - start the thread, which calls watchdog_poll() every
 * poll_ns; NULL (errno set) on failure */
struct watchdog *watchdog_start(const struct watchdog_cfg *cfg);

/* watchdog_stop - stop and join the thread, then watchdog_end() at the
 * time of the stop.  Frees @wd. */
void watchdog_stop(struct watchdog *wd);

/*
 * watchdog_copy - a copy of the stalls recorded so far into @dst (what it
 * held is released first), as watchdog_stop() would leave them at @now:
 * the events that ended, and those still stuck, not ended, with their
 * duration so far, counted in the measured phase (for a checkpoint of the
 * run, checkpoint.h).  It never waits: false, and @dst untouched, while
 * the thread is in a poll (or when out of memory: @dst empty).
 */
bool watchdog_copy(struct watchdog *wd, uint64_t now,
		   struct result_stalls *dst);

/* The bookkeeping without the thread, for the unit tests: watchdog_test.h */

/* watchdog_read_file - @path's first @len - 1 bytes into @buf, NUL
 * terminated (a /proc or /sys file); 0, or -errno. */
int watchdog_read_file(const char *path, char *buf, size_t len);

/* watchdog_read_psi - read /proc/pressure/{io,memory,cpu} under @proc into
 * @psi[PSI_NR]; entries that cannot be read stay invalid. */
struct result_psi;
void watchdog_read_psi(const char *proc, struct result_psi *psi);

/* watchdog_fold_stack - turn /proc/PID/stack text into folded form:
 * outermost frame first, ';'-separated, offsets dropped, module kept
 * ("do_syscall_64;vfs_rename;fuse_rename2;request_wait_answer [fuse]").
 * Returns a malloc'd string, "" for an empty stack, NULL on ENOMEM. */
char *watchdog_fold_stack(const char *text);

#endif
