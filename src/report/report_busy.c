/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * report_busy.c - the line that says a run's machine was busy: how much
 * of the clients' time other programs held the CPU they waited for, by
 * BPF's count (then compare and check decide on own latencies), or,
 * without BPF, that comparisons of this run are unreliable and how to
 * get own latencies.  It starts with "Busy machine:" and has none of the
 * words dbench parsers look for (report_text.c).
 */
#include "report_busy.h"

#include <stdio.h>
#include <string.h>

#include "result.h"
#include "result_foreign.h"

bool report_busy_machine(const struct result *r)
{
	bool runq;
	double share = result_foreign_share(r, &runq);

	return result_disturbed(&r->disturb) ||
	       (!runq && share >= FOREIGN_BUSY_SHARE);
}

/* How to get own latencies, for a run without them */
static const char *how(const struct result *r)
{
	const char *note = r->foreign.note;

	if (r->foreign.method == FOREIGN_NONE)
		return "it has no own latencies";
	if (note && !strcmp(note, "--no-bpf"))
		return "own latencies need BPF (without --no-bpf, as root or "
		       "with CAP_BPF and CAP_PERFMON)";
	if (note && strstr(note, "no libbpf"))
		return "own latencies need a build with BPF (apt-get install "
		       "libbpf-dev bpftool clang, then make)";
	return "own latencies need BPF (root, or CAP_BPF and CAP_PERFMON)";
}

bool report_busy_text(const struct result *r, char *buf, size_t len)
{
	const struct result_disturb *d = &r->disturb;
	const struct result_foreign *fg = &r->foreign;
	bool runq;
	double share = result_foreign_share(r, &runq);
	char who[64] = "";

	if (!report_busy_machine(r))
		return false;
	if (result_has_own(r)) {
		if (fg->nholders)
			snprintf(who, sizeof(who), " (most: %s)",
				 fg->holders[0].comm);
		snprintf(buf, len,
			 "Busy machine: other programs held the CPU for "
			 "%.1f %% of the clients' time%s; compare and check "
			 "will decide on own latencies",
			 100 * share, who);
		return true;
	}
	if (d->valid && d->steal_pct >= DISTURB_STEAL_PCT &&
	    d->other_cpus < DISTURB_OTHER_CPUS)
		snprintf(who, sizeof(who),
			 "the hypervisor stole %.1f %% of "
			 "the CPU time",
			 d->steal_pct);
	else
		snprintf(who, sizeof(who),
			 "other programs used %.2f CPUs "
			 "beside the run",
			 d->other_cpus);
	snprintf(buf, len,
		 "Busy machine: %s; comparisons of this run are unreliable: "
		 "%s",
		 who, how(r));
	return true;
}

void report_busy(FILE *f, const struct result *r)
{
	char line[400];

	if (report_busy_text(r, line, sizeof(line)))
		fprintf(f, " %s\n\n", line);
}
