/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * share.c - gen_netbench's simulated share (netbench.h): the directories
 * and files with their sizes, the open handles, and the operations, each
 * of which writes one line and updates the simulation, so that every
 * status is what dbench's fileio backend gets on a POSIX file system.
 */
#include <stdio.h>
#include <string.h>

#include "netbench.h"

struct node nodes[MAX_NODES];
int nnodes, handle_fnum[MAX_HANDLES], handle_node[MAX_HANDLES];
int next_fnum = FNUM_BASE, nopen, peak_open;
long ntc_fail, qpi_fail, find_fail;
long footprint, peak_footprint, max_end;
double bytes_read, bytes_written;

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
int node(int parent, const char *name, enum kind kind)
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

const char *base_name(int n)
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
int pick(int dir, unsigned int kindmask, bool closed)
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
int op_open(int n, int options, int disp)
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

void op_close(int h)
{
	emit(OP_CLOSE, "%d %s", FNUM(h), OK);
	FILE_OF(h)->nopen--;
	handle_fnum[h] = 0;
	nopen--;
}

void op_open_missing(const char *path)
{
	if (strcmp(path_status(path), NOT_FOUND))
		die("expected-failure open of an existing name");
	emit(OP_NTCREATEX, "\"%s\" 0x40 0x1 0 %s", path, NOT_FOUND);
	ntc_fail++;
}

/* Directory create the SMB way: NTCreateX with FILE_DIRECTORY_FILE. */
int op_mkdir_open(int parent, const char *name)
{
	int d = node(parent, name, K_DIR);

	op_close(op_open(d, 0x1, 2));
	return d;
}

void op_read(int h, long off, long len)
{
	long left = FILE_OF(h)->size - off;

	if (left <= 0 || len > MAX_IO)
		die("read beyond end of file or too large");
	emit(OP_READX, "%d %ld %ld %ld %s", FNUM(h), off, len,
	     left < len ? left : len, OK);
	bytes_read += len;
}

void op_write(int h, long off, long len)
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
void op_fh(enum op op, int h, int level)
{
	if (level)
		emit(op, "%d %d %s", FNUM(h), level, OK);
	else
		emit(op, "%d %s", FNUM(h), OK);
}

void op_lock(enum op op, int h)
{
	emit(op, "%d %ld 1 %s", FNUM(h), LOCK_OFFSET, OK);
}

void op_qpi(const char *path, int level)
{
	const char *st = path_status(path);

	emit(OP_QPATHINFO, "\"%s\" %d %s", path, level, st);
	qpi_fail += strcmp(st, OK) != 0;
}

void op_qfs(void)
{
	emit(OP_QFSINFO, "259 %s", OK);
}

void op_find(int dir, const char *pat)
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

void op_unlink(int n)
{
	if (!nodes[n].exists || nodes[n].nopen || nodes[n].kind == K_DIR)
		die("unlink of a missing, open or directory node");
	emit(OP_UNLINK, "\"%s\" 0x6 %s", nodes[n].path, OK);
	set_size(n, 0);
	nodes[n].exists = false;
}

void op_rename(int from, int to)
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
