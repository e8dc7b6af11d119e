/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * checkpoint.h - the --json result written while the run runs, so that a
 * result survives the death of the process that would write it (SIGKILL,
 * mpirun's SIGKILL a second after its SIGTERM, the OOM killer): after
 * any kill the file holds the run up to its last checkpoint, with status
 * "running" and the time it covers (docs/json-format.md); the final write
 * replaces it.
 *
 * The parent's main thread, which ticks at nice -20, only hands a
 * snapshot over after a tick (ckpt_offer: the points of the series added
 * since the last one, the merged statistics, a copy of the stalls; a few
 * hundred KB copied, never a wait for a lock); a thread of its own, at
 * the user's priority, renders it and replaces the file (O_TMPFILE,
 * linkat, rename, not flushed to disk).  One a CKPT_INTERVAL_NS, and one
 * when the measured phase ends; less often when they cost more than
 * 1/CKPT_COST_RATIO of one CPU (ckpt_interval_ns).
 */
#ifndef DBNG_CHECKPOINT_H
#define DBNG_CHECKPOINT_H

#include <stdint.h>

struct result;
struct ticks;
struct watchdog;
struct checkpoint;

#define CKPT_INTERVAL_NS (5 * 1000000000ULL)
#define CKPT_COST_RATIO	 100

/*
 * ckpt_start - checkpoints of the run described by @desc (what cmd_run
 * fills before the run: tool, command line, config, environment; its
 * strings must live until ckpt_free) into @path.  NULL, after a message,
 * when the thread cannot be started: the run goes on without them.
 */
struct checkpoint *ckpt_start(const char *path, const struct result *desc);

/*
 * ckpt_offer - after a tick at @now: if a checkpoint is due, hand the run
 * as @t has it over to the thread (@wd: the stall watchdog, or NULL).
 * Never waits: a thread still busy with the last one gets this one at a
 * later tick.  @ck NULL: nothing.
 */
void ckpt_offer(struct checkpoint *ck, const struct ticks *t,
		struct watchdog *wd, uint64_t now);

/* ckpt_stop - no checkpoint replaces the file once this returns: before
 * the final write.  @ck NULL: nothing. */
void ckpt_stop(struct checkpoint *ck);

/* ckpt_free - end the thread (what it has not written is dropped) and
 * release @ck.  NULL: nothing. */
void ckpt_free(struct checkpoint *ck);

/* ckpt_written - how many checkpoints replaced the file so far;
 * ckpt_due_ns - when an offer is due next (0: at the first tick) */
uint64_t ckpt_written(const struct checkpoint *ck);
uint64_t ckpt_due_ns(const struct checkpoint *ck);

/* ckpt_interval_ns - the time to the next checkpoint after one that took
 * @cost_ns of CPU: CKPT_INTERVAL_NS, or CKPT_COST_RATIO times its cost */
uint64_t ckpt_interval_ns(uint64_t cost_ns);

#endif
