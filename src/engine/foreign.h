/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * foreign.h - the clients' wait for CPUs that other programs held, for
 * own latencies (docs/regressions.md, "Own latency"; struct
 * result_foreign).  With BPF (foreign_bpf.c): per client process, a
 * counter of that wait, which its clients read at each op's start and
 * end, and per run the holders.  Without: each client process's
 * run-queue wait from /proc/PID/schedstat at every tick, per run only.
 *
 * The parent's calls, in order: foreign_new before the fork,
 * foreign_attach after it and before the release, foreign_tick at the
 * release and at every tick, foreign_fill after the figures of the
 * result, foreign_free.  No clock is read here: the ticks say when.
 */
#ifndef DBNG_FOREIGN_H
#define DBNG_FOREIGN_H

#include <stdbool.h>
#include <stdint.h>

struct result;
struct foreign;

/*
 * foreign_new - for @nprocs client processes of the parent @parent; BPF
 * unless @no_bpf or it cannot (the reason is kept for the result's
 * note), else schedstat from @proc ("/proc").  NULL: out of memory.
 */
struct foreign *foreign_new(int nprocs, int parent, bool no_bpf,
			    const char *proc);

/* foreign_counter - the foreign wait counter client process @p reads
 * (ns, since the attach), or NULL without BPF */
const volatile uint64_t *foreign_counter(const struct foreign *f, int p);

/* foreign_attach - the client processes are @pids: with BPF, trace them
 * (a failure falls back to schedstat, noted) */
void foreign_attach(struct foreign *f, const int *pids, int n);

/* foreign_tick - a sample of the run-queue waits; @measuring: inside the
 * measured phase (the first such sample is its start, the first one
 * after it its end) */
void foreign_tick(struct foreign *f, bool measuring);

/* foreign_fill - res->foreign from what was measured, and res's own
 * latencies dropped unless BPF measured them.  After ticks_fill (it
 * needs measured_s).  -1: out of memory. */
int foreign_fill(struct foreign *f, struct result *res);

/* foreign_method_of - the method @f measures with (enum foreign_method)
 * and why not BPF (NULL: it is BPF) */
int foreign_method_of(const struct foreign *f, const char **note);

void foreign_free(struct foreign *f);

/* foreign_schedstat - the run-queue wait (second field) of
 * @proc/@pid/schedstat into *@ns; -1 when it cannot be read */
int foreign_schedstat(const char *proc, int pid, uint64_t *ns);

/* The figures a run's end gives (foreign_own_mbps): bytes @bytes over
 * @measured_s less the mean time @nclients clients lost to other
 * programs: the larger of their foreign wait @wait_ns and their run-queue
 * wait @runq_ns up to the CPU seconds other programs had (@other_cpus
 * over @measured_s); 0 when unknown */
double foreign_own_mbps(uint64_t bytes, double measured_s, uint64_t wait_ns,
			uint64_t runq_ns, double other_cpus, int nclients);

#endif
