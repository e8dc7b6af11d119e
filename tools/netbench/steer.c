/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * steer.c - gen_netbench's steering (netbench.h): the activities' weights
 * and the op each must not run ahead of, which activity runs next, the
 * background "mail client and explorer" calls for ops behind the plan,
 * and the end of the day that tops up the rare ops and closes everything.
 */
#include <stdio.h>
#include <string.h>

#include "netbench.h"

long filler_lines;

/* ---- steering ---------------------------------------------------------- */

struct activity activity[NR_ACTIVITIES] = {
	{ edit_document, "edit_document", 90, OP_RENAME, 0 },
	{ view_document, "view_document", 445, OP_READX, 0 },
	{ browse_folder, "browse_folder", 65, OP_QPATHINFO, 0 },
	{ temp_file, "temp_file", 355, OP_UNLINK, 0 },
	{ review_folder, "review_folder", 45, OP_CLOSE, 0 },
	{ db_session, "db_session", 0, OP_LOCKX, 0 },	/* paced only */
};

/* The next activity (see the top of the file). */
int next_activity(void)
{
	static const enum op rare[] = { OP_LOCKX, OP_RENAME, OP_UNLINK };
	static const int64_t pace[] = { 2000, 4000, 8000 };	/* 2, 4, 8 */
	static const int act[] = { 5, 0, 3 };
	static bool paced;
	int i, a = 0;
	long r;

	for (i = 0; !paced && i < 3; i++) {
		if (deficit(rare[i]) >= pace[i]) {
			paced = true;
			return act[i];
		}
	}
	paced = false;
	for (i = 0; i < 8; i++) {
		for (r = rnd(1000), a = 0; r >= activity[a].weight; a++)
			r -= activity[a].weight;
		if (deficit(activity[a].key) > -5 *
		    (count[activity[a].key] + 1))	/* 0.5 % ahead */
			break;
	}
	return a;
}

/*
 * One background call for the op furthest behind, if it is more than one
 * line plus @slack per mille of its planned count behind; else false.
 */
bool fill_one(int64_t slack)
{
	static const enum op fillable[] = {
		OP_READX, OP_QPATHINFO, OP_CLOSE, OP_NTCREATEX, OP_WRITEX,
		OP_FINDFIRST, OP_QFSINFO, OP_QFILEINFO, OP_SFILEINFO, OP_FLUSH
	};
	long pages = FILE_OF(h_mail)->size / 4096, len, r;
	enum op best = NR_OPS;
	int64_t worst = 0, d;
	char path[2 * PATH_LEN];
	unsigned int i;
	int f;

	for (i = 0; i < sizeof(fillable) / sizeof(fillable[0]); i++) {
		d = deficit(fillable[i]);
		if (d > 1000 + slack * (d + count[fillable[i]] * 1000) / 1000 &&
		    d > worst) {
			worst = d;
			best = fillable[i];
		}
	}
	f = pick(-1, M_FILE, false);
	switch (best) {
	case OP_READX:				/* mail client */
		len = chance(80) ? 4096 : 16384;
		op_read(h_mail, rnd(pages) * 4096, len);
		break;
	case OP_WRITEX:		/* store a message, update an index */
		r = rnd(100);
		len = r < 30 ? 4096 : r < 85 ? 65536 : r < 94 ? 512L << rnd(3) :
			16384;
		op_write(h_mail, rnd(pages - len / 4096 + 1) * 4096, len);
		break;
	case OP_QFILEINFO:
	case OP_SFILEINFO:
		op_fh(best, h_mail, 1004);
		break;
	case OP_FLUSH:		/* commit the mailbox header page */
		op_write(h_mail, 0, 4096);
		op_fh(OP_FLUSH, h_mail, 0);
		break;
	case OP_QFSINFO:			/* explorer */
		op_qfs();
		break;
	case OP_QPATHINFO:
		snprintf(path, sizeof(path), "%s.lnk", nodes[f].path);
		op_qpi(fails_below(qpi_fail, QPI_FAIL, OP_QPATHINFO) ? path :
		       nodes[f].path, 1004);
		break;
	case OP_FINDFIRST:
		op_find(d_dept[rnd_range(1, NR_DEPTS)],
			fails_below(find_fail, FIND_FAIL, OP_FINDFIRST) ?
			"*.lnk" : "*");
		break;
	case OP_NTCREATEX:
	case OP_CLOSE:
		if (fails_below(ntc_fail, NTC_FAIL, OP_NTCREATEX)) {
			snprintf(path, sizeof(path), "%s\\recent.lnk",
				 nodes[nodes[f].parent].path);
			op_open_missing(path);
		} else {
			op_close(op_open(f, 0x0, 1));
		}
		break;
	default:
		return false;
	}
	filler_lines++;
	return true;
}

/* Evening: archive, delete and close until the rare ops are on target. */
void end_of_day(void)
{
	char name[PATH_LEN];
	int f, h;

	for (;;) {
		while (fill_one(5))
			;
		if (deficit(OP_LOCKX) > 500) {
			h = op_open(pick(-1, M(K_MDB), true), 0x40, 1);
			op_lock(OP_LOCKX, h);
			op_read(h, 0, 4096);
			op_lock(OP_UNLOCKX, h);
			op_close(h);
		} else if (deficit(OP_RENAME) > 500) {
			f = pick(-1, M(K_DOC) | M(K_XLS), true);
			snprintf(name, sizeof(name), "%.*s_old%s",
				 (int)strlen(base_name(f)) - 4, base_name(f),
				 kinds[nodes[f].kind].ext);
			op_rename(f, node(nodes[f].parent, name,
					  nodes[f].kind));
		} else if (deficit(OP_UNLINK) > 500) {
			op_unlink(pick(-1, M_FILE & ~M(K_PST), true));
		} else {
			break;
		}
	}
	op_fh(OP_FLUSH, h_mail, 0);
	op_close(h_mail);
	if (nopen)
		die("handles left open");
	emit(OP_DELTREE, "\"%s\" %s", ROOT, OK);
}
