/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gen_netbench.c - generator of dbench-ng's built-in NetBench-style loadfile
 *
 *	gcc -std=gnu11 -O2 -o gen_netbench tools/gen_netbench.c
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
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROOT		"\\clients\\client1"
#define TARGET_LINES	75000		/* plan reaches the mix */
#define PATH_LEN	96		/* paths are kept to 80 chars */
#define MAX_NODES	8192
#define MAX_HANDLES	30		/* open at once */
#define FNUM_BASE	10001
#define LOCK_OFFSET	2147483538L	/* database "user lock" byte */
#define MAX_IO		65536L
#define MAX_END		(16L << 20)
#define KB		1024L

#define OK		"NT_STATUS_OK"
#define NOT_FOUND	"NT_STATUS_OBJECT_NAME_NOT_FOUND"
#define PATH_NOT_FOUND	"NT_STATUS_OBJECT_PATH_NOT_FOUND"
#define NO_SUCH_FILE	"NT_STATUS_NO_SUCH_FILE"

enum op {
	OP_READX, OP_NTCREATEX, OP_QPATHINFO, OP_CLOSE, OP_WRITEX,
	OP_FINDFIRST, OP_UNLINK, OP_QFSINFO, OP_QFILEINFO, OP_SFILEINFO,
	OP_FLUSH, OP_RENAME, OP_LOCKX, OP_UNLOCKX, OP_DELTREE, OP_MKDIR,
	OP_RMDIR, OP_SLEEP, NR_OPS
};

/* Op counts of dbench 4.0's client.txt (458344 lines); 0 = structural. */
#define REF_TOTAL	458344
static const struct {
	const char *name;
	int64_t ref;
} opdef[NR_OPS] = {
	{ "ReadX", 124199 }, { "NTCreateX", 79230 },
	{ "QUERY_PATH_INFORMATION", 71814 }, { "Close", 58200 },
	{ "WriteX", 39502 }, { "FIND_FIRST", 27765 }, { "Unlink", 16000 },
	{ "QUERY_FS_INFORMATION", 13168 },
	{ "QUERY_FILE_INFORMATION", 12585 },
	{ "SET_FILE_INFORMATION", 6454 }, { "Flush", 5553 },
	{ "Rename", 3355 }, { "LockX", 258 }, { "UnlockX", 258 },
	{ "Deltree", 0 }, { "Mkdir", 0 }, { "Rmdir", 0 }, { "Sleep", 0 },
};
/* client.txt's expected failures in NTCreateX, QPI and FIND_FIRST */
#define NTC_FAIL	21030
#define QPI_FAIL	24385
#define FIND_FAIL	14328

enum kind { K_DIR, K_DOC, K_XLS, K_PPT, K_MDB, K_TXT, K_DOT, K_PST, K_TMP };
#define M(k)		(1u << (k))
#define M_FILE		(~M(K_DIR))

static const struct {
	const char *ext;
	long min, max;		/* size range of the working-set files */
} kinds[] = {
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
#define NR_DEPTS	6	/* office[1..6] */

/* Patterns nothing ever matches: backups, autorecover files etc. */
static const char *const nomatch[] = {
	"*.bak", "*.wbk", "~*.asd", "*.old", "*.$$$"
};
#define NOMATCH		nomatch[rnd(5)]

/* A directory or file of the simulated share. */
static struct node {
	char path[PATH_LEN];
	int parent;
	enum kind kind;
	long size;
	bool exists;
	int nopen;
} nodes[MAX_NODES];

static int nnodes, handle_fnum[MAX_HANDLES], handle_node[MAX_HANDLES];
static int next_fnum = FNUM_BASE, nopen, peak_open, temp_seq;
static int d_dept[NR_DEPTS + 1], d_tmpl, d_scratch, h_mail;
static long count[NR_OPS], base_count[NR_OPS], base_lines, nlines;
static long ntc_fail, qpi_fail, find_fail, filler_lines;
static long footprint, peak_footprint, max_end;
static double bytes_read, bytes_written;
static uint64_t rng_state = 0x6e657462656e6368ULL;	/* "netbench" */

#define FNUM(h)		handle_fnum[h]
#define FILE_OF(h)	(&nodes[handle_node[h]])

static void die(const char *msg) __attribute__((noreturn));

static void die(const char *msg)
{
	fprintf(stderr, "gen_netbench: internal error: %s\n", msg);
	exit(2);
}

/* splitmix64: tiny and the same on every platform */
static long rnd(long n)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (long)((z ^ (z >> 31)) % (uint64_t)n);
}

static long rnd_range(long lo, long hi)
{
	return lo + rnd(hi - lo + 1);
}

static bool chance(int pct)
{
	return rnd(100) < pct;
}

static void emit(enum op op, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void emit(enum op op, const char *fmt, ...)
{
	va_list ap;

	printf("%s ", opdef[op].name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	count[op]++;
	nlines++;
}

/*
 * Lines of @op missing right now, in 1/1000 lines.  The plan goes linearly
 * from the counts after the set-up (base) to the reference share at
 * TARGET_LINES, so the set-up phase (no reads, no unlinks) causes no
 * transient.  Integer arithmetic: the same output on every platform.
 */
static int64_t deficit(enum op op)
{
	int64_t d = TARGET_LINES - base_lines, want;

	if (nlines < TARGET_LINES)
		want = (int64_t)base_count[op] * REF_TOTAL * d +
			(opdef[op].ref * TARGET_LINES -
			 (int64_t)base_count[op] * REF_TOTAL) *
			(nlines - base_lines);
	else
		want = opdef[op].ref * nlines * d;
	return want * 1000 / (REF_TOTAL * d) - count[op] * 1000;
}

/* Is @fails below the share @ref_fails/@ref of @total? */
static bool fails_below(long fails, int64_t ref_fails, enum op op)
{
	return fails * opdef[op].ref < ref_fails * count[op];
}

/* ---- simulated file system ------------------------------------------- */

static int lookup(const char *path)
{
	int i;

	for (i = 0; i < nnodes; i++)
		if (!strcmp(nodes[i].path, path))
			return i;
	return -1;
}

/* The node of parent\name (root if @parent < 0), created on first use. */
static int node(int parent, const char *name, enum kind kind)
{
	char path[2 * PATH_LEN];
	int n;

	snprintf(path, sizeof(path), "%s%s%s", parent < 0 ? "" :
		 nodes[parent].path, parent < 0 ? "" : "\\", name);
	n = lookup(path);
	if (n >= 0)
		return n;
	if (nnodes == MAX_NODES || strlen(path) > 80)
		die("node table full or path too long");
	strcpy(nodes[nnodes].path, path);
	nodes[nnodes].parent = parent;
	nodes[nnodes].kind = kind;
	return nnodes++;
}

static const char *base_name(int n)
{
	return strrchr(nodes[n].path, '\\') + 1;
}

static void set_size(int n, long size)
{
	footprint += size - nodes[n].size;
	nodes[n].size = size;
	if (footprint > peak_footprint)
		peak_footprint = footprint;
}

/* NT status of a name lookup in the simulated state. */
static const char *path_status(const char *path)
{
	char parent[2 * PATH_LEN];
	int n = lookup(path);

	if (strlen(path) > 80)
		die("path too long");
	if (n >= 0 && nodes[n].exists)
		return OK;
	snprintf(parent, sizeof(parent), "%s", path);
	*strrchr(parent, '\\') = '\0';
	n = lookup(parent);
	return n >= 0 && nodes[n].exists ? NOT_FOUND : PATH_NOT_FOUND;
}

/* SMB-style wildcard match ('*', '?'; "*.*" matches everything). */
static bool wild_match(const char *pat, const char *name)
{
	if (!strcmp(pat, "*.*"))
		return true;
	for (; *pat; pat++, name++) {
		if (*pat == '*') {
			for (;; name++) {
				if (wild_match(pat + 1, name))
					return true;
				if (!*name)
					return false;
			}
		}
		if (!*name || (*pat != '?' && *pat != *name))
			return false;
	}
	return !*name;
}

/* A random existing file of one of @kinds (in @dir if >= 0). */
static int pick(int dir, unsigned int kindmask, bool closed)
{
	static int cand[MAX_NODES];
	int i, n = 0;

	for (i = 0; i < nnodes; i++)
		if (nodes[i].exists && (dir < 0 || nodes[i].parent == dir) &&
		    (kindmask & M(nodes[i].kind)) &&
		    !(closed && nodes[i].nopen))
			cand[n++] = i;
	if (!n)
		die("nothing to pick");
	return cand[rnd(n)];
}

/* ---- operations: emit a line and update the simulation -------------- */

/* disposition 0x1 FILE_OPEN needs the file, 0x2 FILE_CREATE must not. */
static int op_open(int n, int options, int disp)
{
	int h;

	if (nodes[n].exists != (disp == 1))
		die("open disposition does not match file state");
	nodes[n].exists = true;
	for (h = 0; handle_fnum[h]; h++)
		if (h == MAX_HANDLES - 1)
			die("too many open handles");
	handle_fnum[h] = next_fnum++;
	handle_node[h] = n;
	nodes[n].nopen++;
	if (++nopen > peak_open)
		peak_open = nopen;
	emit(OP_NTCREATEX, "\"%s\" 0x%x 0x%x %d %s", nodes[n].path, options,
	     disp, FNUM(h), OK);
	return h;
}

static void op_close(int h)
{
	emit(OP_CLOSE, "%d %s", FNUM(h), OK);
	FILE_OF(h)->nopen--;
	handle_fnum[h] = 0;
	nopen--;
}

static void op_open_missing(const char *path)
{
	if (strcmp(path_status(path), NOT_FOUND))
		die("expected-failure open of an existing name");
	emit(OP_NTCREATEX, "\"%s\" 0x40 0x1 0 %s", path, NOT_FOUND);
	ntc_fail++;
}

/* Directory create the SMB way: NTCreateX with FILE_DIRECTORY_FILE. */
static int op_mkdir_open(int parent, const char *name)
{
	int d = node(parent, name, K_DIR);

	op_close(op_open(d, 0x1, 2));
	return d;
}

static void op_read(int h, long off, long len)
{
	long left = FILE_OF(h)->size - off;

	if (left <= 0 || len > MAX_IO)
		die("read beyond end of file or too large");
	emit(OP_READX, "%d %ld %ld %ld %s", FNUM(h), off, len,
	     left < len ? left : len, OK);
	bytes_read += len;
}

static void op_write(int h, long off, long len)
{
	if (off + len > MAX_END || len > MAX_IO)
		die("write beyond 16 MiB or too large");
	emit(OP_WRITEX, "%d %ld %ld %ld %s", FNUM(h), off, len, len, OK);
	if (off + len > FILE_OF(h)->size)
		set_size(handle_node[h], off + len);
	if (off + len > max_end)
		max_end = off + len;
	bytes_written += len;
}

/* QUERY_FILE_INFORMATION, SET_FILE_INFORMATION; Flush with level 0 */
static void op_fh(enum op op, int h, int level)
{
	if (level)
		emit(op, "%d %d %s", FNUM(h), level, OK);
	else
		emit(op, "%d %s", FNUM(h), OK);
}

static void op_lock(enum op op, int h)
{
	emit(op, "%d %ld 1 %s", FNUM(h), LOCK_OFFSET, OK);
}

static void op_qpi(const char *path, int level)
{
	const char *st = path_status(path);

	emit(OP_QPATHINFO, "\"%s\" %d %s", path, level, st);
	qpi_fail += strcmp(st, OK) != 0;
}

static void op_qfs(void)
{
	emit(OP_QFSINFO, "259 %s", OK);
}

static void op_find(int dir, const char *pat)
{
	int i, n = strcmp(pat, "*") && strcmp(pat, "*.*") ? 0 : 2; /* . .. */

	for (i = 0; i < nnodes; i++)
		if (nodes[i].exists && nodes[i].parent == dir &&
		    wild_match(pat, base_name(i)))
			n++;
	emit(OP_FINDFIRST, "\"%s\\%s\" 260 1366 %d %s", nodes[dir].path, pat,
	     n, n ? OK : NO_SUCH_FILE);
	find_fail += !n;
}

static void op_unlink(int n)
{
	if (!nodes[n].exists || nodes[n].nopen || nodes[n].kind == K_DIR)
		die("unlink of a missing, open or directory node");
	emit(OP_UNLINK, "\"%s\" 0x6 %s", nodes[n].path, OK);
	set_size(n, 0);
	nodes[n].exists = false;
}

static void op_rename(int from, int to)
{
	long size = nodes[from].size;

	if (!nodes[from].exists || nodes[from].nopen || nodes[to].exists)
		die("invalid rename");
	emit(OP_RENAME, "\"%s\" \"%s\" %s", nodes[from].path, nodes[to].path,
	     OK);
	set_size(from, 0);
	nodes[from].exists = false;
	nodes[to].exists = true;
	set_size(to, size);
}

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
static void set_up_office(void)
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

static void edit_document(void)
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

static void view_document(void)
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

static void browse_folder(void)
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

static void temp_file(void)
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

static void review_folder(void)
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

static void db_session(void)
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

static void unpack_archive(void)
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

/* ---- steering ---------------------------------------------------------- */

static struct {
	void (*fn)(void);
	const char *name;
	int weight;		/* per mille */
	enum op key;		/* skip while this op is ahead */
	long runs;
} activity[] = {
	{ edit_document, "edit_document", 90, OP_RENAME, 0 },
	{ view_document, "view_document", 445, OP_READX, 0 },
	{ browse_folder, "browse_folder", 65, OP_QPATHINFO, 0 },
	{ temp_file, "temp_file", 355, OP_UNLINK, 0 },
	{ review_folder, "review_folder", 45, OP_CLOSE, 0 },
	{ db_session, "db_session", 0, OP_LOCKX, 0 },	/* paced only */
};

/* The next activity (see the top of the file). */
static int next_activity(void)
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
static bool fill_one(int64_t slack)
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
static void end_of_day(void)
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
	for (a = 0; a < sizeof(activity) / sizeof(activity[0]); a++)
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
