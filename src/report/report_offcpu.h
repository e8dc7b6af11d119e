/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * report_offcpu.h - the words for why a stalled op waited (BPF tracing,
 * results/result_offcpu.h), shared by the text report and the HTML page:
 * short stacks, who woke it, and the text report's lines.
 */
#ifndef DBNG_REPORT_OFFCPU_H
#define DBNG_REPORT_OFFCPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct result;
struct result_stall;
struct result_wait;
struct result_wait_pair;

/*
 * report_stack_tail - the innermost @n frames of the folded @stack
 * (outermost first, ';'-separated), outermost of them first, into @buf;
 * for a @waker the generic wakeup frames (try_to_wake_up, __wake_up, the
 * wake functions) are left out first, so what shows is who called them.
 * "" for NULL.  Returns @buf.
 */
char *report_stack_tail(const char *stack, int n, bool waker, char *buf,
			size_t len);

/* report_waker - who woke @w: "client 2" ("clients 2-3" with @cpp 2),
 * "kworker/1:1H (pid 88)", "a softirq", "nobody yet" ...; returns @buf */
const char *report_waker(const struct result_wait *w, int cpp, char *buf,
			 size_t len);

/* report_pair_waker - the kind of waker of a row: "a client",
 * "jbd2/loop0-8", "a hardirq" ... ; returns @buf */
const char *report_pair_waker(const struct result_wait_pair *p, char *buf,
			      size_t len);

/* report_offcpu_event - the text lines of @ev's off-CPU time, its
 * @maxwaits longest sleeps and their wakers (nothing without tracing) */
void report_offcpu_event(FILE *f, const struct result_stall *ev, int cpp,
			 int maxwaits);

/* report_offcpu_table - the text lines of where the stalled ops spent
 * their time, per op, and how the stalls were explained */
void report_offcpu_table(FILE *f, const struct result *r);

/*
 * report_offcpu_headline - for a stall that BPF shows mostly runnable
 * (more than half of its time waiting for a CPU), the line under its
 * heading that says so, and who held the CPU: "waiting for a CPU (X of Y
 * ms), held by COMM (a program outside the run) for Z ms".  True when it
 * printed it.  The /proc samples that follow show where the op stood,
 * not why it waited.
 */
bool report_offcpu_headline(FILE *f, const struct result_stall *ev);

#endif
