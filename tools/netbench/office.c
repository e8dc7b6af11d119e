/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * office.c - gen_netbench's office (netbench.h): the working set of the
 * departments, files as office applications write and read them, the
 * morning's set-up and the activities of the day, each a short and
 * consistent sequence of the calls an application makes.
 */
#include <stdio.h>
#include <string.h>

#include "netbench.h"

const struct kind_def kinds[K_TMP + 1] = {
	[K_DOC] = { ".doc", 24 * KB, 192 * KB },
	[K_XLS] = { ".xls", 48 * KB, 640 * KB },
	[K_PPT] = { ".ppt", 480 * KB, 2048 * KB },
	[K_MDB] = { ".mdb", 1024 * KB, 2560 * KB },
	[K_TXT] = { ".txt", 1 * KB, 24 * KB },		/* also .csv */
	[K_DOT] = { ".dot", 32 * KB, 80 * KB },
	[K_PST] = { ".pst", 2048 * KB, 2048 * KB },
	[K_TMP] = { ".tmp", 0, 0 },
};

/* The working set: "folder: files..." */
static const char *const office[] = {
	"templates: normal.dot letter.dot report.dot",
	"finance: budget_2024.xls forecast_q3.xls expenses.xls invoices.mdb "
	"audit_notes.doc tax_memo.doc board_pack.ppt ledger.csv",
	"sales: pipeline.xls customers.mdb pitch_deck.ppt quarterly_review.ppt "
	"proposal_acme.doc price_list.xls visit_report.doc leads.csv",
	"hr: handbook.doc staff.mdb onboarding.ppt policies.doc salaries.xls "
	"vacancies.txt appraisal_form.doc",
	"legal: contract_alpha.doc contract_beta.doc nda_standard.doc "
	"compliance.xls case_notes.doc licences.txt",
	"engineering: spec_v2.doc design_review.ppt test_plan.doc "
	"parts_list.xls release_notes.txt requirements.doc",
	"marketing: campaign_spring.ppt brand_guide.doc press_release.doc "
	"market_data.xls launch_plan.ppt events.csv",
	"mail: mailbox.pst",
	"scratch:",
};

/* Patterns nothing ever matches: backups, autorecover files etc. */
static const char *const nomatch[] = {
	"*.bak", "*.wbk", "~*.asd", "*.old", "*.$$$"
};
#define NOMATCH		nomatch[rnd(5)]

int temp_seq, d_dept[NR_DEPTS + 1], d_tmpl, d_scratch, h_mail;

/* ---- files as office applications write and read them -------------- */

static enum kind kind_of(const char *name)
{
	int k;

	for (k = K_DOC; k <= K_TMP; k++)
		if (!strcmp(strrchr(name, '.'), kinds[k].ext))
			return k;
	return K_TXT;
}

/* @size clamped to the range of @k (random if 0); office formats 2 KiB */
static long file_size(enum kind k, long size)
{
	if (!size)
		size = rnd_range(kinds[k].min, kinds[k].max);
	if (size < kinds[k].min)
		size = kinds[k].min;
	if (size > kinds[k].max)
		size = kinds[k].max;
	return k == K_TXT ? size : size & ~2047L;
}

/* New contents: 64 KiB blocks, then the tail in one to three pieces. */
static void write_body(int h, long size)
{
	long off, tail;

	for (off = 0; size - off >= 65536; off += 65536)
		op_write(h, off, 65536);
	tail = (size - off) & ~4095L;
	if (tail > 8192 && chance(15)) {
		op_write(h, off, 8192);
		off += 8192;
		tail -= 8192;
	}
	if (tail) {
		op_write(h, off, tail);
		off += tail;
	}
	if (size > off)
		op_write(h, off, size - off);
}

/*
 * Create a file like Office does: pre-extend by a 1-byte write to the end
 * of the first buffer (at most 64 KiB), fill it, append the rest.
 */
static int create_file(int n, long size, bool keep_open)
{
	int h = op_open(n, 0x40, 2);

	if (size >= 4096) {
		op_write(h, (size < 65536 ? size : 65536) - 1, 1);
		op_fh(OP_QFILEINFO, h, 258);
	}
	write_body(h, size);
	if (keep_open)
		return h;
	op_close(h);
	return -1;
}

/* Load a file: a few 4 KiB header pages, the rest in 60 KiB reads. */
static void read_doc(int h)
{
	long size = FILE_OF(h)->size, off;
	int n = rnd_range(2, 5);

	if (FILE_OF(h)->kind == K_TXT) {
		op_read(h, 0, size);
		return;
	}
	for (off = 0; n-- > 0 && off < size; off += 4096)
		op_read(h, off, 4096);
	for (; off < size; off += 61440)
		op_read(h, off, 61440);
}

/* A temporary file: "<prefix>NNNN.tmp" (NNNN: a hex sequence number), or
 * with @spool "spoolN.prn" (N decimal). */
static int new_temp(int dir, const char *prefix, bool spool)
{
	char name[32];

	++temp_seq;
	if (spool)
		snprintf(name, sizeof(name), "spool%d.prn", temp_seq);
	else
		snprintf(name, sizeof(name), "%s%04x.tmp", prefix, temp_seq);
	return node(dir, name, K_TMP);
}

/* Morning: create the folders and copy the working set onto the share. */
void set_up_office(void)
{
	char name[64];
	const char *p;
	int i, len, d, h, top = op_mkdir_open(op_mkdir_open(-1, ROOT),
					      "office");

	op_qpi(nodes[top].path, 1004);
	op_qpi(ROOT "\\office\\desktop.ini", 1004);
	for (i = 0; i < (int)(sizeof(office) / sizeof(office[0])); i++) {
		len = (int)strcspn(office[i], ":");
		snprintf(name, sizeof(name), "%.*s", len, office[i]);
		d = op_mkdir_open(top, name);
		if (i <= NR_DEPTS)
			d_dept[i] = d;		/* d_dept[0]: templates */
		d_scratch = d;			/* the last one */
		op_find(d, "*");
		for (p = office[i] + len + 1; *p == ' '; p += len) {
			len = (int)strcspn(++p, " ");
			snprintf(name, sizeof(name), "%.*s", len, p);
			h = node(d, name, kind_of(name));
			create_file(h, file_size(kind_of(name), 0), false);
			if (kind_of(name) == K_PST)	/* the mail client */
				h_mail = op_open(h, 0x40, 1);	/* stays open */
		}
	}
	d_tmpl = d_dept[0];
	op_qfs();
}

/* ---- activities ------------------------------------------------------ */

/* Rewrite [0, @size) of the open file in place, in 64 KiB blocks. */
static void rewrite_body(int h, long size)
{
	long off;

	for (off = 0; off < size; off += 65536)
		op_write(h, off, size - off < 65536 ? size - off : 65536);
}

/*
 * Save @doc (open as *@h).  Word writes a temp file and swaps it in with
 * two renames (original -> ~wrl backup, temp -> original, then deletes the
 * backup).  Excel and PowerPoint save in place over the open handle:
 * Excel rewrites the whole workbook in 64 KiB blocks, PowerPoint the
 * slides that changed and then its header page, flushing each time.
 */
static void save_document(int doc, int *h)
{
	int t, ht, bak, i;
	long size = file_size(nodes[doc].kind,
			      nodes[doc].size + rnd_range(-3, 4) * 2048);

	op_qfs();
	if (nodes[doc].kind == K_XLS) {
		op_fh(OP_QFILEINFO, *h, 1004);
		rewrite_body(*h, size);
		op_fh(OP_SFILEINFO, *h, 1004);
		return;
	}
	if (nodes[doc].kind == K_PPT) {
		for (i = rnd_range(1, 2); i > 0; i--)
			op_write(*h, rnd(nodes[doc].size / 65536) * 65536,
				 65536);
		for (i = rnd_range(1, 4); i > 0; i--) {	/* header page */
			op_write(*h, 0, 4096);
			op_fh(OP_FLUSH, *h, 0);
		}
		return;
	}
	t = new_temp(nodes[doc].parent, "~wr", false);
	op_qpi(nodes[t].path, 1004);
	op_open_missing(nodes[t].path);
	ht = create_file(t, size, true);
	op_fh(OP_FLUSH, ht, 0);
	op_fh(OP_SFILEINFO, ht, 1004);
	op_close(ht);
	op_close(*h);
	op_qpi(nodes[doc].path, 1004);
	bak = new_temp(nodes[doc].parent, "~wrl", false);
	op_rename(doc, bak);
	op_rename(t, doc);
	op_unlink(bak);
	op_qpi(nodes[doc].path, 1035);
	*h = op_open(doc, 0x40, 1);
	op_read(*h, 0, 4096);
}

void edit_document(void)
{
	int doc = pick(-1, chance(8) ? M(K_PPT) : chance(65) ? M(K_DOC) :
		       M(K_XLS), true);
	int dir = nodes[doc].parent, h, owner, n, r;
	char name[PATH_LEN];

	snprintf(name, sizeof(name), "~$%s", base_name(doc));
	owner = node(dir, name, K_TMP);		/* "in use by" marker */
	op_find(dir, "*");
	op_find(dir, NOMATCH);			/* autorecover files? */
	op_qpi(nodes[doc].path, 1004);
	op_qpi(nodes[doc].path, 1035);
	op_qpi(nodes[owner].path, 1004);
	op_close(op_open(doc, 0x40, 1));	/* access check */
	op_qfs();
	h = op_open(doc, 0x40, 1);
	op_fh(OP_QFILEINFO, h, 1004);
	/* the owner file: Word writes the user's name into it */
	create_file(owner, nodes[doc].kind == K_DOC ? 162 : 0, false);
	if (chance(5))			/* never-created add-ins dir */
		op_qpi(ROOT "\\office\\templates\\startup\\addins.dot", 1004);
	if (nodes[doc].kind == K_DOC) {
		n = op_open(pick(d_tmpl, M(K_DOT), false), 0x0, 1);
		op_read(n, 0, 4096);
		op_read(n, 4096, 8192);
		op_close(n);
	}
	read_doc(h);
	r = rnd(100);
	for (n = r < 30 ? 0 : r < 60 ? 1 : r < 85 ? 2 : 3; n > 0; n--)
		save_document(doc, &h);
	if (r < 30)
		op_fh(OP_SFILEINFO, h, 1004);
	op_close(h);
	op_unlink(owner);
}

void view_document(void)
{
	int r = rnd(100), h, n, f = pick(-1, r < 55 ? M(K_DOC) : r < 70 ?
				      M(K_TXT) : r < 95 ? M(K_XLS) : M(K_PPT),
				      false);
	char owner[2 * PATH_LEN];
	long off;

	op_find(nodes[f].parent, chance(55) ? "*" : NOMATCH);
	if (chance(25))
		op_qfs();
	op_qpi(nodes[f].path, 1004);
	op_qpi(nodes[f].path, 1035);
	snprintf(owner, sizeof(owner), "%s\\~$%s",
		 nodes[nodes[f].parent].path, base_name(f));
	if (chance(50))			/* is somebody editing it? */
		op_qpi(owner, 1004);
	if (chance(45))
		op_open_missing(owner);
	if (chance(50))				/* access check */
		op_close(op_open(f, 0x40, 1));
	h = op_open(f, 0x40, 1);
	if (chance(5))
		op_fh(OP_QFILEINFO, h, 1005);
	if (chance(19) || nodes[f].kind == K_TXT)
		read_doc(h);
	else				/* preview: the first pages */
		for (off = 0, n = rnd_range(3, 8);
		     n > 0 && off < nodes[f].size; n--, off += 4096)
			op_read(h, off, 4096);
	if (chance(10))
		op_fh(OP_SFILEINFO, h, 1004);
	op_close(h);
}

void browse_folder(void)
{
	int dir = d_dept[rnd_range(1, NR_DEPTS)], i, f;
	char path[2 * PATH_LEN];

	op_qfs();
	op_qpi(nodes[dir].path, 1004);
	op_find(dir, chance(50) ? "*" : "*.*");
	for (i = rnd_range(2, 6); i > 0; i--) {
		f = pick(dir, M_FILE, false);
		op_qpi(nodes[f].path, chance(40) ? 1035 : 1004);
		if (chance(60))			/* read properties */
			op_close(op_open(f, 0x0, 1));
	}
	snprintf(path, sizeof(path), "%s\\desktop.ini", nodes[dir].path);
	op_qpi(path, 1004);
	if (chance(50))
		op_open_missing(path);
	op_find(dir, NOMATCH);
}

void temp_file(void)
{
	int r = rnd(20), kind = r < 11 ? 0 : r < 15 ? 1 : 2, t, h, i;
	long size = rnd_range(1, 2) * 4096;

	t = new_temp(chance(40) ? d_scratch : d_dept[rnd_range(1, NR_DEPTS)],
		     "~df", kind == 1);
	if (kind == 1 && chance(40))
		op_qfs();
	if (chance(30))
		op_find(nodes[t].parent, NOMATCH);
	op_qpi(nodes[t].path, 1004);
	op_open_missing(nodes[t].path);
	h = op_open(t, 0x40, 2);
	if (kind == 1) {		/* print job: size known, pre-extended */
		op_write(h, size - 1, 1);
		for (i = 0; i < size; i += 4096)
			op_write(h, i, 4096);
		if (chance(50))
			op_fh(OP_FLUSH, h, 0);
	} else if (kind == 2) {			/* scratch data */
		op_write(h, size - 1, 1);
		op_fh(OP_QFILEINFO, h, 258);
		op_write(h, 0, size);
		for (i = 0; i < size; i += 4096)
			op_read(h, i, 4096);
	}
	op_close(h);
	if (chance(50))
		op_qpi(nodes[t].path, 1035);
	op_unlink(t);
}

void review_folder(void)
{
	int d = rnd_range(1, NR_DEPTS), d2 = chance(50) ? d % NR_DEPTS + 1 : d;
	int h[MAX_HANDLES], n = 0, i, r;
	long size, len;

	op_find(d_dept[d], "*");
	if (d2 != d)
		op_find(d_dept[d2], "*");
	for (i = 0; i < nnodes && nopen < MAX_HANDLES - 4; i++) {
		if (!nodes[i].exists || (nodes[i].parent != d_dept[d] &&
					 nodes[i].parent != d_dept[d2]))
			continue;
		h[n] = op_open(i, 0x40, 1);
		if (chance(10))
			op_fh(OP_QFILEINFO, h[n], 1004);
		op_read(h[n++], 0, nodes[i].kind == K_TXT ? nodes[i].size :
			chance(70) ? 4096 : 512);
	}
	for (i = rnd_range(n, 3 * n); i > 0; i--) {	/* properties, TOC */
		size = FILE_OF(h[i % n])->size;
		r = rnd(100);		/* pages, streams, summary records */
		len = r < 50 ? 4096 : r < 76 ? 512 << rnd(6) :
			rnd_range(8, 31) * 16;
		op_read(h[i % n], size > len ? rnd(size / len) * len : 0, len);
	}
	for (i = 0; i < n; i++)
		op_close(h[i]);
}

void db_session(void)
{
	int db = pick(-1, M(K_MDB), true), h, hl, lck, i, n;
	long pages = nodes[db].size / 4096, len;
	char name[PATH_LEN];

	snprintf(name, sizeof(name), "%.*s.ldb", (int)strlen(base_name(db)) - 4,
		 base_name(db));
	lck = node(nodes[db].parent, name, K_TMP);
	op_qpi(nodes[db].path, 1004);
	op_qpi(nodes[lck].path, 1004);
	h = op_open(db, 0x40, 1);
	op_open_missing(nodes[lck].path);
	hl = create_file(lck, 64, true);	/* user list */
	op_lock(OP_LOCKX, h);
	op_read(h, 0, 4096);
	op_lock(OP_UNLOCKX, h);
	op_fh(OP_QFILEINFO, h, 1005);
	for (n = rnd_range(1, 3); n > 0; n--) {		/* queries */
		for (i = rnd_range(3, 12); i > 0; i--) {
			len = chance(85) ? 4096 : 2048;
			op_read(h, rnd(pages) * 4096, len);
		}
	}
	op_lock(OP_LOCKX, h);				/* one update */
	op_read(h, rnd(pages) * 4096, 4096);
	for (i = rnd_range(1, 4); i > 0; i--)
		op_write(h, rnd(pages) * 4096, 4096);
	op_lock(OP_UNLOCKX, h);
	op_write(h, 0, 4096);				/* header page */
	op_fh(OP_FLUSH, h, 0);
	op_close(h);
	op_close(hl);
	op_unlink(lck);
}

void unpack_archive(void)
{
	int d, f[6], h, i, n = rnd_range(3, 6);
	char name[32];

	snprintf(name, sizeof(name), "unpack%d", ++temp_seq);
	d = node(d_scratch, name, K_DIR);
	op_qpi(nodes[d].path, 1004);
	emit(OP_MKDIR, "\"%s\" %s", nodes[d].path, OK);
	nodes[d].exists = true;
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "part%d.txt", i + 1);
		f[i] = node(d, name, K_TXT);
		create_file(f[i], rnd_range(1, 16) * 4096, false);
	}
	op_find(d, "*");
	for (i = 0; i < n; i++) {
		h = op_open(f[i], 0x40, 1);
		op_read(h, 0, 4096);
		op_close(h);
		op_unlink(f[i]);
	}
	op_find(d, "*.txt");
	emit(OP_RMDIR, "\"%s\" %s", nodes[d].path, OK);
	nodes[d].exists = false;
}
