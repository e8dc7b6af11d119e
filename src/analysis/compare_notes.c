/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare_notes.c - what differs between the runs of a comparison, said
 * as notes before the rows are built: runs interrupted or failed, a busy
 * machine, other options, kernel, filesystem, clients, backend, ops not
 * run, loadfile or pacing, dbench text logs; and whether runs named
 * their paths otherwise (--paths), which makes them not comparable.
 */
#include "compare_impl.h"
#include "compare_workload.h"

#include <stdio.h>
#include <string.h>

#include "result.h"
#include "str_clean.h"

static bool str_eq(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

/* Did @x run another backend, version or backend options than @ref?  What
 * a result does not record (a dbench log, an older JSON file) is no
 * difference. */
static bool other_backend(const struct result *x, const struct result *ref)
{
	const struct config *a = &x->cfg, *b = &ref->cfg;

	if (!a->backend || !b->backend)
		return false;
	return strcmp(a->backend, b->backend) ||
	       (a->backend_version && b->backend_version &&
		a->backend_version != b->backend_version) ||
	       !str_eq(a->backend_opts, b->backend_opts);
}

const char *cmp_paths_of(const struct result *x)
{
	if (x->cfg.paths)
		return x->cfg.paths;
	if (!x->tool || strcmp(x->tool, "dbench-ng"))
		return "full"; /* dbench 4.0 itself */
	return x->has_bins ? "dirfd" : NULL;
}

void cmp_paths_say(char *err, size_t len, const char *a, const char *pa,
		   const char *b, const char *pb)
{
	snprintf(err, len,
		 "%s ran --paths %s and %s --paths %s: --paths dirfd asks less "
		 "of the kernel, so their numbers are not comparable",
		 a, pa, b, pb);
	str_clean_buf(err, len); /* a result's mode: any string */
}

bool cmp_paths_differ(struct result *const *res, const char *const *names,
		      int n, char *err, size_t len)
{
	const char *ref = NULL, *p;
	int r = -1;

	for (int i = 0; i < n; i++) {
		p = cmp_paths_of(res[i]);
		if (!p)
			continue;
		if (!ref) {
			ref = p;
			r = i;
		} else if (strcmp(p, ref)) {
			cmp_paths_say(
				err, len,
				names && names[r] ? names[r] : "one run", ref,
				names && names[i] ? names[i] : "another", p);
			return true;
		}
	}
	return false;
}

/* Count what the machine did during run @x of side @s; a note for a run
 * whose machine was disturbed beyond the bound. */
static void machine_of(struct cmp_report *r, int s, const struct result *x,
		       const char *who)
{
	const struct result_disturb *d = &x->disturb;

	if (!d->valid)
		return;
	r->machine_runs[s]++;
	if (d->other_cpus > r->other_max[s])
		r->other_max[s] = d->other_cpus;
	if (d->steal_pct > r->steal_max[s])
		r->steal_max[s] = d->steal_pct;
	if (!result_disturbed(d))
		return;
	r->disturbed[s]++;
	cmp_note(r,
		 "%s ran on a busy machine: other processes used %.2f CPUs, "
		 "%.1f %% of the CPU time was stolen (bound %.1f CPUs, %.0f "
		 "%%): its figures may be the machine's, not the system's "
		 "under test",
		 who, d->other_cpus, d->steal_pct > 0 ? d->steal_pct : 0.0,
		 DISTURB_OTHER_CPUS, DISTURB_STEAL_PCT);
}

/* The options of @x that change what is asked of the kernel, as on a
 * command line; a dbench text log tells only -s and -S (its Throughput
 * line), so with @log only those. */
static void mode_text(const struct result *x, bool log, char *buf, size_t len)
{
	const struct config *c = &x->cfg;

	snprintf(buf, len, "%s%s%s%s%s%s%s%s", c->sync_open ? " -s" : "",
		 c->sync_dirs ? " -S" : "",
		 !log && c->fsync_writes ? " -F" : "",
		 !log && c->xattr ? " -x" : "",
		 !log && c->no_resolve ? " --no-resolve" : "",
		 !log && c->stat_check ? " --stat-check" : "",
		 !log && c->one_byte_fix ? " --one-byte-write-fix" : "",
		 !log && c->fake_io ? " --fake-io" : "");
}

/* Did @x run another loadfile than @ref?  (compare_workload.c) */
static bool other_loadfile(const struct result *x, const struct result *ref)
{
	struct cmp_workload a, b;

	cmp_workload_of(x, &a);
	cmp_workload_of(ref, &b);
	return !cmp_workload_same(&a, &b);
}

/* The ops @x did not run (backend.h: not_run), a bit each */
_Static_assert(OP_NR <= 64, "not_run_mask has a bit per op");
static uint64_t not_run_mask(const struct result *x)
{
	uint64_t m = 0;

	for (int i = 0; i < OP_NR; i++)
		m |= x->op[i].not_run ? 1ull << i : 0;
	return m;
}

/* Differ, where both are known? */
static bool differ(const char *a, const char *b)
{
	return a && b && strcmp(a, b);
}

/* Response times are compared only where every run has them (a paced
 * run's); say so when some runs have them and others not, and when the
 * runs that have them were paced otherwise than the first of them. */
static void resp_notes(struct cmp_report *r, struct result **base,
		       struct result **cand)
{
	struct result **side[2] = {base, cand};
	int n[2] = {r->na, r->nb}, paced[2] = {0, 0}, other = 0;
	const struct result *ref = NULL;

	for (int s = 0; s < 2; s++) {
		for (int i = 0; i < n[s]; i++) {
			const struct result *x = side[s][i];

			if (!x->resp.valid)
				continue;
			paced[s]++;
			if (!ref)
				ref = x;
			else if (x->resp.pacing != ref->resp.pacing ||
				 x->cfg.target_rate != ref->cfg.target_rate)
				other++;
		}
	}
	if ((paced[0] || paced[1]) && (paced[0] < r->na || paced[1] < r->nb))
		cmp_note(r,
			 "response times (of paced runs: -R or loadfile "
			 "timestamps) in %d of %d baseline and %d of %d "
			 "candidate runs: compared only where every run has "
			 "them, so not here",
			 paced[0], r->na, paced[1], r->nb);
	if (other && ref->resp.pacing == RESP_RATE)
		cmp_note(r,
			 "%d of the %d paced runs were paced otherwise than "
			 "the first of them (-R %g): their intended starts "
			 "differ",
			 other, paced[0] + paced[1], ref->cfg.target_rate);
	else if (other)
		cmp_note(r,
			 "%d of the %d paced runs were paced otherwise than "
			 "the first of them (by the loadfile's timestamps): "
			 "their intended starts differ",
			 other, paced[0] + paced[1]);
}

void cmp_config_notes(struct cmp_report *r, struct result **base,
		      struct result **cand)
{
	struct result **side[2] = {base, cand};
	int n[2] = {r->na, r->nb}, logs = 0, clients = 0, lf = 0, be = 0;
	int modes = 0, kernels = 0, fss = 0, notrun = 0;
	const struct result *ref = base[0];
	char who[512], ma[160], mb[160];

	for (int s = 0; s < 2; s++) {
		for (int i = 0; i < n[s]; i++) {
			const struct result *x = side[s][i];

			cmp_run_name(r, s, i, who, sizeof(who));
			if (x->status == RESULT_INTERRUPTED)
				cmp_note(r,
					 "%s was interrupted: partial figures",
					 who);
			else if (x->status == RESULT_FAILED)
				cmp_note(r, "%s failed: partial figures", who);
			else if (x->status == RESULT_RUNNING)
				cmp_note(r,
					 "%s is a checkpoint of a run that "
					 "had not ended (still running, or "
					 "killed): partial figures",
					 who);
			machine_of(r, s, x, who);
			logs += !x->has_bins;
			clients += x->cfg.nclients != ref->cfg.nclients;
			be += other_backend(x, ref);
			lf += other_loadfile(x, ref);
			mode_text(x, !x->has_bins || !ref->has_bins, ma,
				  sizeof(ma));
			mode_text(ref, !x->has_bins || !ref->has_bins, mb,
				  sizeof(mb));
			modes += strcmp(ma, mb) != 0;
			kernels += differ(x->env.kernel, ref->env.kernel);
			fss += differ(x->env.fs_type, ref->env.fs_type);
			notrun += not_run_mask(x) != not_run_mask(ref);
			if (!x->has_bins && x->cfg.timelimit <= 0) {
				cmp_note(r,
					 "%s is a dbench log without its "
					 "'Running for' line: its measured "
					 "time is unknown, so its ops/s are "
					 "not compared",
					 who);
			}
		}
	}
	if (modes) {
		mode_text(ref, false, mb, sizeof(mb));
		cmp_note(r,
			 "%d of the %d runs ran other options than baseline "
			 "run 1 (%s): another load on the kernel",
			 modes, r->na + r->nb,
			 *mb ? mb + 1
			     : "none of -s -S -F "
			       "-x --no-resolve --stat-check "
			       "--one-byte-write-fix "
			       "--fake-io");
	}
	if (kernels)
		cmp_note(r,
			 "%d of the %d runs ran on another kernel than "
			 "baseline run 1 (%s)",
			 kernels, r->na + r->nb, ref->env.kernel);
	if (fss)
		cmp_note(r,
			 "%d of the %d runs ran on another filesystem type "
			 "than baseline run 1 (%s)",
			 fss, r->na + r->nb, ref->env.fs_type);
	if (clients)
		cmp_note(r,
			 "%d of the %d runs ran another number of clients than "
			 "baseline run 1 (%d)",
			 clients, r->na + r->nb, ref->cfg.nclients);
	if (be) {
		char ver[32] = "not recorded";

		if (ref->cfg.backend_version)
			snprintf(ver, sizeof(ver), "%d",
				 ref->cfg.backend_version);
		cmp_note(r,
			 "%d of the %d runs ran another backend, backend "
			 "version or backend options than baseline run 1 (%s "
			 "version %s%s%s)",
			 be, r->na + r->nb, ref->cfg.backend, ver,
			 ref->cfg.backend_opts ? ", options " : "",
			 ref->cfg.backend_opts ? ref->cfg.backend_opts : "");
	}
	if (notrun) {
		uint64_t m = not_run_mask(ref);
		char ops[160] = "";
		size_t k = 0;

		for (int i = 0; i < OP_NR && k < sizeof(ops); i++) {
			if (m >> i & 1)
				k += (size_t)snprintf(ops + k, sizeof(ops) - k,
						      "%s%s", k ? " " : "",
						      op_info[i].label);
		}
		cmp_note(r,
			 "%d of the %d runs did not run other ops than "
			 "baseline run 1 (%s%s): they measured another mix "
			 "of ops",
			 notrun, r->na + r->nb, k ? "not run there: " : "",
			 k ? ops : "it ran every op");
	}
	if (lf)
		cmp_note(r,
			 "%d of the %d runs ran another loadfile than baseline "
			 "run 1 (%s%s)",
			 lf, r->na + r->nb,
			 ref->cfg.loadfile ? ref->cfg.loadfile : "?",
			 ref->env.nloadfiles ? "; the sha256 or name differs"
					     : "; the name differs");
	if (logs)
		cmp_note(r,
			 "%d of the %d runs are dbench text logs: only ops/s, "
			 "mean, max and MB/s can be compared",
			 logs, r->na + r->nb);
	resp_notes(r, base, cand);
}
