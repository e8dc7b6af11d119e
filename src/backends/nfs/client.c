/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * client.c - a client of the nfs backend: its set-up before the start
 * barrier (the whole path of every path of its program, its handle pool,
 * its own mount), the release of a handle the engine drops, and the
 * removal of its tree at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nfs.h"

/* "/clients/" + template @tmpl with the client's name, or "/clients" for
 * "." (the clients root itself); NULL if out of memory or too long */
static char *whole(const char *tmpl, int id)
{
	char sub[2048], buf[2048 + 16];

	if (!strcmp(tmpl, "."))
		return strdup("/clients");
	if (lf_subst_client(sub, sizeof(sub), tmpl, id) < 0)
		return NULL;
	snprintf(buf, sizeof(buf), "/clients/%s", sub);
	return strdup(buf);
}

static int paths(struct be_client *c, struct nfsb_client *nc)
{
	const struct program *p = c->prog;

	nc->fpath = calloc(p->npaths, sizeof(char *));
	nc->fparent = calloc(p->npaths, sizeof(char *));
	nc->fdir = calloc(p->ndirs, sizeof(char *));
	if (!nc->fpath || !nc->fparent || !nc->fdir)
		return -1;
	for (uint32_t d = 0; d < p->ndirs; d++) {
		nc->fdir[d] = whole(p->dirs[d], c->id);
		if (!nc->fdir[d])
			return -1;
	}
	for (uint32_t i = 0; i < p->npaths; i++) {
		const struct lf_path *pa = &p->paths[i];

		nc->fpath[i] = whole(pa->full, c->id);
		if (!nc->fpath[i])
			return -1;
		/* the clients root's parent is the export's root */
		nc->fparent[i] =
			strcmp(pa->full, ".") ? nc->fdir[pa->dir] : "/";
	}
	return 0;
}

/* At most one handle per slot is open, and one more while NTCreateX
 * replaces it: the pool never runs out. */
static int pool(const struct program *p, struct nfsb_client *nc)
{
	nc->npool = p->nhandles + 2;
	nc->pool = calloc(nc->npool, sizeof(*nc->pool));
	if (!nc->pool)
		return -1;
	for (uint32_t i = 0; i < nc->npool; i++) {
		nc->pool[i].next = nc->free;
		nc->free = &nc->pool[i];
	}
	return 0;
}

int nfsb_setup(struct be_client *c)
{
	struct nfsb_client *nc = calloc(1, sizeof(*nc));
	char err[1200];
	int code;

	c->priv = nc;
	if (nc) {
		for (int t = OP_SLEEP + 1; t < OP_NR; t++)
			nc->nfs3 |= c->prog->op_count[t] > 0;
		nc->ofh = calloc(2 * (size_t)c->prog->npaths + 1,
				 sizeof(*nc->ofh));
	}
	if (!nc || !nc->ofh || paths(c, nc) || pool(c->prog, nc) ||
	    iobuf_grow(&nfsb_g.io, c->prog->max_io)) {
		be_fail(c, NULL,
			"out of memory, or a path too long after "
			"naming the client");
		return -1;
	}
	nc->nfs = nfsb_connect(err, sizeof(err), &code);
	if (!nc->nfs) {
		be_fail(c, NULL, "%s", err);
		return -1;
	}
	return 0;
}

void nfsb_release(struct be_client *c, be_handle h)
{
	struct nfsb_client *nc = nfsb_cl(c);
	struct nfsb_handle *hh = h.ptr;
	int rc;

	/* after a lost server or a cut wait no call: the requests in
	 * flight point into stacks that are gone */
	if (hh->fh && !nc->lost && !nc->cut) {
		rc = nfs_close(nc->nfs, hh->fh);
		if (rc && nfsb_rpc_failed(nc->nfs, rc))
			nc->cut = true; /* the clean-up reconnects */
	}
	hh->fh = NULL;
	hh->next = nc->free;
	nc->free = hh;
}

void nfsb_cleanup(struct be_client *c)
{
	struct nfsb_client *nc = nfsb_cl(c);
	char err[1200];
	int rc, code;

	if (!nc || !nc->nfs || nc->lost)
		return; /* fini says what is left */
	if (nc->cut) {	/* a new context; the old one is never touched */
		nc->nfs = nfsb_connect(err, sizeof(err), &code);
		if (!nc->nfs)
			return;
		nc->cut = false;
		memset(nc->ofh, 0,
		       (2 * (size_t)c->prog->npaths + 1) * sizeof(*nc->ofh));
	}
	if (nfsb_fh_drop_all(c, NULL))
		return; /* lost, or cut by a second signal: as below */
	rc = nfsb_remove_tree(nc->nfs, c->id);
	if (rc && nfsb_rpc_cut(nc->nfs)) {
		nc->cut = true; /* a second signal: the parent says what is left
				 */
		return;
	}
	if (rc && nfsb_rpc_failed(nc->nfs, rc)) {
		nc->lost = true;
		be_fail(c, NULL,
			"clean-up: lost the connection to the NFS "
			"server %s",
			nfsb_g.server);
		return;
	}
	nfsb_disconnect(nc->nfs);
	nc->nfs = NULL;
}
