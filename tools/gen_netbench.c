/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gen_netbench.c - generator of dbench-ng's built-in NetBench-style
 * loadfile: the model, the main loop of the day and the check of its mix
 * (the parts are in tools/netbench/, netbench.h says which file does what)
 *
 *	gcc -std=gnu11 -O2 -o gen_netbench tools/gen_netbench.c \
 *		tools/netbench/{plan,share,office,steer}.c
 *	./gen_netbench > loadfiles/netbench.load	(-s: stats on stderr)
 *
 * Model.  One pass is one working day of one office client on a file
 * share.  The client creates its folder skeleton (six departments,
 * templates, mail, scratch) and copies its working set onto the share:
 * documents, spreadsheets, presentations, three databases and a mailbox
 * (45 files, ~22 MB).  Then it runs activities, each a short, consistent
 * sequence of the calls an office application makes:
 *
 *	edit_document	open, read, save 0-3 times: Word via a temp file and
 *			two renames, Excel and PowerPoint in place
 *	view_document	preview a few pages or load a whole document
 *	browse_folder	listings, attribute queries, property opens
 *	temp_file	marker, print spool or scratch file, then deleted
 *	review_folder	open all files of one or two folders at once
 *	db_session	database page reads and an update under a lock
 *	unpack_archive	Mkdir, fill, empty and Rmdir a folder (3 a day)
 *
 * Activities are drawn by weight.  The op mix is steered towards the op
 * proportions of dbench 4.0's client.txt along a plan that runs from the
 * counts after the set-up to the reference shares at TARGET_LINES:
 *  - a drawn activity is redrawn while its key op is ahead of the plan;
 *  - every other turn, the activity behind a rare op (LockX, Rename,
 *    Unlink) runs instead if that op is behind;
 *  - a background "mail client and explorer" (the mailbox stays open all
 *    day) adds single calls for ops more than 1 % behind (~5 % of lines);
 *  - at the end of the day, archive renames, deletes and a last database
 *    lock top up the rare ops, every handle is closed, the tree deleted.
 *
 * The file system (directories, files, sizes, handles) is simulated, so
 * every status is what dbench's fileio backend gets on a POSIX file
 * system: FILE_OPEN (0x1) only of existing files, FILE_CREATE (0x2) only
 * of missing ones, expected failures only for missing names, reads within
 * the file (short only at EOF, with the true ret_size), valid Unlink,
 * Rename and Rmdir, fnums unique per pass.  What reaches the file system
 * follows client.txt's distributions (bench/loadfile-shape.awk): about
 * half the WriteX rewrite blocks already written (in-place saves, page
 * and header-page updates), most Flushes follow such a rewrite, and new
 * files are pre-extended by one byte at the end of their first buffer.
 * The output is deterministic: a fixed-seed splitmix64 and integer-only decisions give the same bytes
 * with any compiler and optimisation level.  Exit status 1 if the mix
 * misses the tolerance (2 % relative, or +-1 line for ops expected fewer
 * than 50 times; Deltree, Mkdir, Rmdir and Sleep are structural).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "netbench/netbench.h"

/* ---- main ------------------------------------------------------------ */

/* Compare the mix with client.txt; print the table to @out if not NULL. */
static bool mix_ok(FILE *out)
{
	double want, dev;
	bool ok = true;
	int i;

	if (out)
		fprintf(out, "%-23s %6s %8s %8s %8s %8s\n", "op", "lines",
			"share", "ref", "expected", "dev");
	for (i = 0; i < NR_OPS; i++) {
		want = (double)opdef[i].ref / REF_TOTAL * nlines;
		dev = want > 0 ? (count[i] - want) / want * 100 : 0;
		if (out)
			fprintf(out, "%-23s %6ld %7.3f%% %7.3f%% %8.1f "
				"%+7.2f%%%s\n", opdef[i].name, count[i],
				100.0 * count[i] / nlines,
				100.0 * opdef[i].ref / REF_TOTAL, want, dev,
				want > 0 ? "" : "  (structural)");
		if (!count[i] || (want >= 50 && (dev < -2 || dev > 2)) ||
		    (want > 0 && want < 50 && (count[i] < want - 1 ||
					       count[i] > want + 1)))
			ok = false;
	}
	return ok;
}

static void print_stats(void)
{
	unsigned int a;

	mix_ok(stderr);
	fprintf(stderr, "lines %ld (+1 comment), background fill %ld\n"
		"expected failures: NTCreateX %.1f%%, QPI %.1f%%, "
		"FIND_FIRST %.1f%%\nactivities:", nlines, filler_lines,
		100.0 * ntc_fail / count[OP_NTCREATEX],
		100.0 * qpi_fail / count[OP_QPATHINFO],
		100.0 * find_fail / count[OP_FINDFIRST]);
	for (a = 0; a < NR_ACTIVITIES; a++)
		fprintf(stderr, " %s %ld", activity[a].name, activity[a].runs);
	fprintf(stderr, "\nbytes per pass: ReadX %.0f, WriteX %.0f "
		"(ratio %.2f), total %.0f\npeak footprint %ld bytes, "
		"largest file end %ld, peak open handles %d, fnums %d..%d\n",
		bytes_read, bytes_written, bytes_read / bytes_written,
		bytes_read + bytes_written, peak_footprint, max_end,
		peak_open, FNUM_BASE, next_fnum - 1);
}

int main(int argc, char **argv)
{
	bool stats = argc == 2 && !strcmp(argv[1], "-s");
	int unpacked = 0, a;

	if (argc > 2 || (argc == 2 && !stats)) {
		fprintf(stderr, "usage: %s [-s] > netbench.load\n", argv[0]);
		return 2;
	}
	printf("# dbench-ng built-in workload 'netbench' v1, generated by "
	       "tools/gen_netbench.c - do not edit\n");
	emit(OP_DELTREE, "\"%s\" %s", ROOT, OK);
	emit(OP_MKDIR, "\"\\clients\" %s", OK);
	set_up_office();
	base_lines = nlines;
	memcpy(base_count, count, sizeof(count));
	while (nlines < TARGET_LINES) {
		if (nlines > (unpacked + 1) * (TARGET_LINES / 4)) {
			unpack_archive();
			unpacked++;
		}
		if (unpacked == 2 && !count[OP_SLEEP])
			emit(OP_SLEEP, "500 %s", OK);	/* coffee break */
		a = next_activity();
		activity[a].fn();
		activity[a].runs++;
		while (fill_one(10))
			;
	}
	end_of_day();
	if (stats || !mix_ok(NULL))
		print_stats();
	return mix_ok(NULL) ? 0 : 1;
}
