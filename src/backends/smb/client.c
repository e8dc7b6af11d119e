/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * client.c - a client of the smb backend: its connection (a libsmbclient
 * context of its own, logged on and connected to the share in setup,
 * before the start barrier, so the first op does not pay for it), the
 * URL of every path of its program, its table of open files, and the
 * removal of its tree at the end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "smb.h"

/* the context's calls, looked up once */
static void smb_calls(struct smb_client *sc)
{
	SMBCCTX *x = sc->ctx;

	sc->open = smbl.smbc_getFunctionOpen(x);
	sc->close = smbl.smbc_getFunctionClose(x);
	sc->read = smbl.smbc_getFunctionRead(x);
	sc->write = smbl.smbc_getFunctionWrite(x);
	sc->lseek = smbl.smbc_getFunctionLseek(x);
	sc->stat = smbl.smbc_getFunctionStat(x);
	sc->fstat = smbl.smbc_getFunctionFstat(x);
	sc->fstatvfs = smbl.smbc_getFunctionFstatVFS(x);
	sc->unlink = smbl.smbc_getFunctionUnlink(x);
	sc->rename = smbl.smbc_getFunctionRename(x);
	sc->mkdir = smbl.smbc_getFunctionMkdir(x);
	sc->rmdir = smbl.smbc_getFunctionRmdir(x);
	sc->opendir = smbl.smbc_getFunctionOpendir(x);
	sc->readdir = smbl.smbc_getFunctionReaddir(x);
	sc->closedir = smbl.smbc_getFunctionClosedir(x);
	sc->utimes = smbl.smbc_getFunctionUtimes(x);
	sc->getxattr = smbl.smbc_getFunctionGetxattr(x);
	sc->setxattr = smbl.smbc_getFunctionSetxattr(x);
}

/* The URL of template @tmpl (relative to clients/) for client @id */
static char *client_url(const char *tmpl, int id)
{
	char buf[2048];

	if (lf_subst_client(buf, sizeof(buf), tmpl, id) < 0)
		return NULL;
	return smb_url(smb_g.clients, buf);
}

int smb_setup(struct be_client *c)
{
	const struct smb_opts *o = c->run->opts;
	const struct program *p = c->prog;
	struct smb_client *sc = calloc(1, sizeof(*sc));
	char name[32];
	struct stat st;

	if (!sc)
		goto oom;
	c->priv = sc;
	sc->url = calloc(p->npaths, sizeof(char *));
	sc->durl = calloc(p->ndirs, sizeof(char *));
	/* at most one open per handle slot, and the one NTCreateX opens
	 * before the engine releases the slot's old one */
	sc->nfiles = p->nhandles + 2;
	sc->files = calloc(sc->nfiles, sizeof(*sc->files));
	snprintf(name, sizeof(name), "client%d", c->id);
	sc->home = smb_url(smb_g.clients, name);
	if (!sc->url || !sc->durl || !sc->files || !sc->home)
		goto oom;
	for (uint32_t i = 0; i < sc->nfiles; i++)
		sc->files[i].next = i + 1 < sc->nfiles ? i + 1 : SMB_NO_FILE;
	sc->free = 0;
	for (uint32_t i = 0; i < p->npaths; i++) {
		if (!(sc->url[i] = client_url(p->paths[i].full, c->id)))
			goto toolong;
	}
	for (uint32_t i = 0; i < p->ndirs; i++) {
		if (!(sc->durl[i] = client_url(p->dirs[i], c->id)))
			goto toolong;
	}
	if (iobuf_grow(&smb_g.io, p->max_io))
		goto oom;
	sc->ctx = smb_context(o->timeout);
	if (!sc->ctx) {
		be_fail(c, NULL, "cannot make an SMB client context: %s",
			strerror(errno));
		return -1;
	}
	smb_calls(sc);
	/* log on and connect now; clients/ stays open for Qfsinfo */
	if (sc->stat(sc->ctx, smb_g.clients, &st) ||
	    !(sc->fsdir = sc->opendir(sc->ctx, smb_g.clients))) {
		be_fail(c, NULL, "cannot reach %s/clients: %s", smb_g.shown,
			strerror(errno));
		return -1;
	}
	return 0;
oom:
	be_fail(c, NULL, "out of memory");
	return -1;
toolong:
	be_fail(c, NULL, "a path is too long after naming the client");
	return -1;
}

void smb_release(struct be_client *c, be_handle h)
{
	struct smb_client *sc = c->priv;
	struct smb_file *f = &sc->files[h.fd];

	if (f->dir)
		sc->closedir(sc->ctx, f->f);
	else
		sc->close(sc->ctx, f->f);
	f->f = NULL;
	f->next = sc->free;
	sc->free = (uint32_t)h.fd;
}

/* After the last op (the engine released the open files): the client's
 * tree, clients/clientN, and nothing else; then the connection. */
void smb_cleanup(struct be_client *c)
{
	struct smb_client *sc = c->priv;

	if (!sc || !sc->ctx)
		return;
	if (sc->fsdir)
		sc->closedir(sc->ctx, sc->fsdir);
	sc->fsdir = NULL;
	smb_tree_remove(sc->ctx, sc->home, 0, true);
	sc->rmdir(sc->ctx, sc->home);
	smb_context_free(sc->ctx);
	sc->ctx = NULL;
}
