/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * offcpu_bpf.h - load and attach the BPF program that traces the clients'
 * off-CPU time (bpf/offcpu.bpf.c, a skeleton made by bpftool at build
 * time) and feed its records to the watchdog's bookkeeping (offcpu.h).
 * A build without libbpf has the same functions, which say so.
 */
#ifndef DBNG_OFFCPU_BPF_H
#define DBNG_OFFCPU_BPF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct offcpu;
struct offcpu_trace;

/*
 * offcpu_trace_start - trace the client processes @pids (@nprocs of them,
 * @cpp clients each, the first client's id @first: a waker is named by
 * every host's numbering) for a watchdog of threshold @threshold_ns.  Call it
 * after the fork and before the release: a sleep that began before is
 * not seen.  NULL, with the reason in @why (one line, "--no-bpf", "this
 * build has no libbpf (...)", "no privilege (...)", ...), when it cannot;
 * nothing is left loaded then.  @off: --no-bpf.
 */
struct offcpu_trace *offcpu_trace_start(const int *pids, int nprocs, int cpp,
					int first, uint64_t threshold_ns,
					bool off, char *why, size_t len);

/* offcpu_trace_book - the bookkeeping the watchdog uses (watchdog_cfg) */
struct offcpu *offcpu_trace_book(struct offcpu_trace *t);

/* offcpu_trace_stop - detach and free everything (after the watchdog
 * stopped); NULL is fine */
void offcpu_trace_stop(struct offcpu_trace *t);

/* offcpu_stack_min_ns - the shortest sleep whose stacks are taken, for a
 * threshold of @threshold_ns */
uint64_t offcpu_stack_min_ns(uint64_t threshold_ns);

/* Shared with the other BPF loaders (foreign_bpf.c), HAVE_BPF builds
 * only.  offcpu_bpf_usable - whether this kernel can run the programs
 * (5.18+, BTF); false with the reason in @why. */
bool offcpu_bpf_usable(char *why, size_t len);

/* offcpu_bpf_quiet - keep libbpf's messages quiet (DBNG_BPF_VERBOSE: all
 * of them), remembering the first warning for offcpu_bpf_reason() */
void offcpu_bpf_quiet(void);

/* offcpu_bpf_reason - one line for the failure -@err of "@what" ("load",
 * "attach"...) into @why */
void offcpu_bpf_reason(int err, const char *what, char *why, size_t len);

#endif
