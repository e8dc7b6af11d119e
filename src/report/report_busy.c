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
#include "str_clean.h"

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

void report_busy(FILE *f, const struct result *r)
{
	const struct result_disturb *d = &r->disturb;
	const struct result_foreign *fg = &r->foreign;
	bool runq;
	double share = result_foreign_share(r, &runq);

	if (!report_busy_machine(r))
		return;
	if (result_has_own(r)) {
		fprintf(f, " Busy machine: other programs held the CPU for "
			"%.1f %% of the clients' time", 100 * share);
		if (fg->nholders) {
			/* a name any process may choose: printed as the
			 * report prints a result's strings */
			fputs(" (most: ", f);
			str_text(f, fg->holders[0].comm);
			fputc(')', f);
		}
		fputs("; compare and check will decide on own latencies\n\n",
		      f);
		return;
	}
	fputs(" Busy machine: ", f);
	if (d->valid && d->steal_pct >= DISTURB_STEAL_PCT &&
	    d->other_cpus < DISTURB_OTHER_CPUS)
		fprintf(f, "the hypervisor stole %.1f %% of the CPU time",
			d->steal_pct);
	else
		fprintf(f, "other programs used %.2f CPUs beside the run",
			d->other_cpus);
	fprintf(f, "; comparisons of this run are unreliable: %s\n\n",
		how(r));
}
