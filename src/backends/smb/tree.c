/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tree.c - the smb backend's clean-up of the share (smb.h): a directory
 * emptied (and its subdirectories removed), the trees that killed
 * clients left removed by the parent at the end (fini), and clients/
 * removed when empty, also by the clients of a killed parent
 * (orphaned).  Nothing outside SHARE[/PATH]/clients is touched.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "smb.h"

#define TREE_DEPTH 64

/* Remove what is in directory @url: files unlinked, directories emptied
 * the same way and, with @rmdirs, removed.  The listing is read whole by
 * opendir, so removing while reading is safe.  Errors are ignored. */
void smb_tree_remove(SMBCCTX *ctx, const char *url, int depth, bool rmdirs)
{
	smbc_opendir_fn opendir = smbl.smbc_getFunctionOpendir(ctx);
	smbc_readdir_fn readdir = smbl.smbc_getFunctionReaddir(ctx);
	smbc_closedir_fn closedir = smbl.smbc_getFunctionClosedir(ctx);
	SMBCFILE *d;
	struct smbc_dirent *e;
	char child[4096];

	if (depth > TREE_DEPTH || !(d = opendir(ctx, url)))
		return;
	while ((e = readdir(ctx, d))) {
		if (!strcmp(e->name, ".") || !strcmp(e->name, ".."))
			continue;
		/* names come URL-encoded (UrlEncodeReaddirEntries) */
		if ((size_t)snprintf(child, sizeof(child), "%s/%s", url,
				     e->name) >= sizeof(child))
			continue;
		if (e->smbc_type == SMBC_DIR) {
			smb_tree_remove(ctx, child, depth + 1, rmdirs);
			if (rmdirs)
				smbl.smbc_getFunctionRmdir(ctx)(ctx, child);
		} else if (e->smbc_type == SMBC_FILE ||
			   e->smbc_type == SMBC_LINK) {
			smbl.smbc_getFunctionUnlink(ctx)(ctx, child);
		}
	}
	closedir(ctx, d);
}

/* The parent, once every client exited: remove what the clients could
 * not (killed, or the server went away), then clients/ if empty; say what
 * is left. */
void smb_fini(struct be_run *run, const bool *dirty)
{
	const struct smb_opts *o = run->opts;
	smbc_stat_fn stat_fn;
	struct stat st;
	char *url;
	int left = 0, first = -1, why = 0;
	SMBCCTX *ctx;

	if (!dirty) /* --skip-cleanup: keep every tree */
		return;
	ctx = smb_context(o->timeout);
	if (!ctx)
		return;
	stat_fn = smbl.smbc_getFunctionStat(ctx);
	for (int i = 0; i < run->nclients; i++) {
		char name[32];

		snprintf(name, sizeof(name), "client%d", i);
		url = smb_url(smb_g.clients, name);
		if (!url)
			break;
		if (dirty[i]) {
			smb_tree_remove(ctx, url, 0, true);
			smbl.smbc_getFunctionRmdir(ctx)(ctx, url);
		}
		errno = 0;
		if (!stat_fn(ctx, url, &st) || errno != ENOENT) {
			if (!left++) {
				first = i;
				why = errno ? errno : ENOTEMPTY;
			}
		}
		free(url);
		if (left && smb_conn_lost(why))
			break; /* the server is gone: no use asking again */
	}
	if (left && smb_conn_lost(why))
		fprintf(stderr,
			"dbench-ng: clean-up: cannot reach the SMB "
			"server to remove what the clients left in %s/clients "
			"(%s)\n",
			smb_g.shown, strerror(why));
	else if (left)
		fprintf(stderr,
			"dbench-ng: clean-up: %d client tree%s left "
			"in %s/clients (client%d: %s)\n",
			left, left > 1 ? "s" : "", smb_g.shown, first,
			strerror(why));
	/* fails harmlessly if anything is left */
	smbl.smbc_getFunctionRmdir(ctx)(ctx, smb_g.clients);
	smb_context_free(ctx);
}

/* A client of a killed parent, after its clean-up: clients/ if empty */
void smb_orphaned(struct be_run *run)
{
	const struct smb_opts *o = run->opts;
	SMBCCTX *ctx = smb_context(o->timeout);

	if (ctx)
		smbl.smbc_getFunctionRmdir(ctx)(ctx, smb_g.clients);
	smb_context_free(ctx);
}
