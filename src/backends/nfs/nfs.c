/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * nfs.c - the NFS backend: the loadfile's ops as NFSv3 calls through
 * libnfs (docs/nfs.md has the table), against a server's export, with no
 * kernel NFS client.  Each client has its own libnfs context: its own
 * mount and TCP connection, made in setup, before the start barrier.
 * Every path is EXPORT/clients/...; nothing else on the export is
 * touched.
 *
 * This file: the options (a URL, or dbench 5's --server and --export),
 * their checks, a mount, what a failed mount or call means, and the
 * parent's side: EXPORT/clients and its check before the fork (init), the
 * trees the clients could not remove (fini).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "nfs.h"

struct nfsb_global nfsb_g;

static const struct be_option nfsb_options[] = {
	{
		.name = "url",
		.type = BE_OPT_STR,
		.offset = offsetof(struct nfsb_opts, url),
		.metavar = "URL",
		.help = "the export, nfs://SERVER/EXPORT[?nfsport=N&mountport="
			"N&...] (libnfs's query; NFSv3)",
		.lopt = "nfs",
	},
	{
		.name = "server",
		.type = BE_OPT_STR,
		.offset = offsetof(struct nfsb_opts, server),
		.metavar = "HOST",
		.help = "the NFS server (with --export; ports from its "
			"rpcbind)",
		.lopt = "server",
	},
	{
		.name = "export",
		.type = BE_OPT_STR,
		.offset = offsetof(struct nfsb_opts, export),
		.metavar = "PATH",
		.help = "the export's path on the server (with --server)",
		.lopt = "export",
	},
	{
		.name = "timeout",
		.type = BE_OPT_INT,
		.offset = offsetof(struct nfsb_opts, timeout),
		.min = 0,
		.max = 3600,
		.metavar = "S",
		.help = "fail a client whose call gets no answer in S seconds "
			"(0: wait, the default)",
	},
	{.name = NULL},
};

/* The URL query keys libnfs 4.0 knows (nfs_parse_url_dir), and whether
 * their value is a number */
static const struct {
	const char *key;
	bool number;
} url_keys[] = {
	{"nfsport", true},
	{"mountport", true},
	{"version", true},
	{"uid", true},
	{"gid", true},
	{"tcp-syncnt", true},
	{"readahead", true},
	{"pagecache", true},
	{"dircache", true},
	{"autoreconnect", true},
	{"auto-traverse-mounts", true},
	{"debug", true},
	{"if", false},
};

static bool number(const char *s, size_t len)
{
	size_t i = s[0] == '-' ? 1 : 0;

	if (i >= len)
		return false;
	for (; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return false;
	}
	return true;
}

/* Check the query of a URL ("k=v&k=v"): keys libnfs knows, numbers where
 * it wants them, NFS version 3 only. */
static int check_query(const char *q, char *err, size_t errlen)
{
	while (*q) {
		size_t len = strcspn(q, "&");
		const char *eq = memchr(q, '=', len);
		size_t klen = eq ? (size_t)(eq - q) : len;
		size_t k = 0, n = sizeof(url_keys) / sizeof(url_keys[0]);

		for (; k < n; k++) {
			if (strlen(url_keys[k].key) == klen &&
			    !strncmp(url_keys[k].key, q, klen))
				break;
		}
		if (k == n || !eq) {
			snprintf(err, errlen,
				 "--nfs: '%.*s' in the URL's query is not "
				 "KEY=VALUE of libnfs (nfsport, mountport, "
				 "version, uid, gid, tcp-syncnt, readahead, "
				 "pagecache, dircache, autoreconnect, "
				 "auto-traverse-mounts, debug, if)",
				 (int)len, q);
			return -1;
		}
		if (url_keys[k].number && !number(eq + 1, len - klen - 1)) {
			snprintf(err, errlen,
				 "--nfs: '%.*s' in the URL's query: not a "
				 "whole number",
				 (int)len, q);
			return -1;
		}
		if (!strncmp(q, "version", klen) &&
		    (len - klen - 1 != 1 || eq[1] != '3')) {
			snprintf(err, errlen,
				 "--nfs: '%.*s': the nfs backend speaks "
				 "NFSv3 only (libnfs 4.0's NFSv4 cannot "
				 "write 4 KiB at once)",
				 (int)len, q);
			return -1;
		}
		q += len + (q[len] == '&');
	}
	return 0;
}

/* SERVER: a host, not HOST:PORT (libnfs 4.0 takes ports in the query) */
static int check_server(const char *what, const char *s, size_t len, char *err,
			size_t errlen)
{
	const char *colon = memchr(s, ':', len);
	size_t plen = colon ? len - (size_t)(colon - s) - 1 : 0;

	if (!len) {
		snprintf(err, errlen, "%s: no server", what);
		return -1;
	}
	if (colon && !memchr(colon + 1, ':', plen) && number(colon + 1, plen)) {
		snprintf(err, errlen,
			 "%s: '%.*s': give the ports in the URL's query "
			 "(--nfs=nfs://%.*s/EXPORT?nfsport=%.*s&mountport=N), "
			 "or none to ask the server's rpcbind",
			 what, (int)len, s, (int)(colon - s), s, (int)plen,
			 colon + 1);
		return -1;
	}
	return 0;
}

/* nfsb_g.url and .shown from the options; 0, or -1 with a message */
static int make_url(const struct nfsb_opts *o, char *err, size_t errlen)
{
	const char *srv, *path, *q;
	size_t slen, plen;

	if (o->url && (o->server || o->export)) {
		snprintf(err, errlen,
			 "--nfs names the server and the export: "
			 "give it alone, or --server and --export");
		return -1;
	}
	if (!o->url && !o->server && !o->export) {
		snprintf(err, errlen,
			 "-B nfs needs the export: "
			 "--nfs=nfs://SERVER/EXPORT, or --server=HOST "
			 "--export=PATH");
		return -1;
	}
	if (!o->url && (!o->server || !o->export)) {
		snprintf(err, errlen, "%s needs %s too",
			 o->server ? "--server" : "--export",
			 o->server ? "--export" : "--server");
		return -1;
	}
	if (o->url) {
		if (strncmp(o->url, "nfs://", 6)) {
			snprintf(err, errlen,
				 "--nfs %s: not an nfs:// URL "
				 "(nfs://SERVER/EXPORT[?QUERY])",
				 o->url);
			return -1;
		}
		if (strchr(o->url, ',')) {
			snprintf(err, errlen,
				 "--nfs %s: one URL (dbench 5's "
				 "list of exports is not supported)",
				 o->url);
			return -1;
		}
		srv = o->url + 6;
		slen = strcspn(srv, "/?");
		path = srv + slen;
		plen = strcspn(path, "?");
		q = path[plen] == '?' ? path + plen + 1 : NULL;
		if (check_server("--nfs", srv, slen, err, errlen))
			return -1;
		if (!plen) {
			snprintf(err, errlen,
				 "--nfs %s: no export "
				 "(nfs://SERVER/EXPORT)",
				 o->url);
			return -1;
		}
		if (q && check_query(q, err, errlen))
			return -1;
		snprintf(nfsb_g.url, sizeof(nfsb_g.url), "%s", o->url);
	} else {
		srv = o->server;
		slen = strlen(srv);
		path = o->export;
		plen = strlen(path);
		if (strpbrk(srv, "/?&") ||
		    check_server("--server", srv, slen, err, errlen)) {
			if (strpbrk(srv, "/?&"))
				snprintf(err, errlen,
					 "--server %s: a host "
					 "name or address",
					 srv);
			return -1;
		}
		if (path[0] != '/' || strpbrk(path, "?&,")) {
			snprintf(err, errlen,
				 "--export %s: the export's "
				 "path on the server, from /",
				 path);
			return -1;
		}
		snprintf(nfsb_g.url, sizeof(nfsb_g.url), "nfs://%s%s", srv,
			 path);
	}
	if (strlen(o->url ? o->url : nfsb_g.url) >= sizeof(nfsb_g.url) - 1 ||
	    slen >= sizeof(nfsb_g.server) || plen > 1024) {
		snprintf(err, errlen, "--nfs: the URL is too long");
		return -1;
	}
	snprintf(nfsb_g.server, sizeof(nfsb_g.server), "%.*s", (int)slen, srv);
	/* the export without a trailing slash: messages add /clients */
	while (plen > 1 && path[plen - 1] == '/')
		plen--;
	snprintf(nfsb_g.shown, sizeof(nfsb_g.shown), "nfs://%s%.*s",
		 nfsb_g.server, plen > 1 ? (int)plen : 0, path);
	nfsb_g.timeout_ms = o->timeout * 1000;
	return 0;
}

int nfsb_check(const void *opts, char *err, size_t errlen)
{
	return make_url(opts, err, errlen);
}

/* Did libnfs fail at the RPC level (the connection is gone, a call timed
 * out), not with the server's answer (an NFS3ERR_ status, which the
 * loadfile may expect)?  An NFS status comes back as its errno with the
 * status in the error text; a reset connection as -EFAULT, or -EIO from
 * the sync call's loop; a timeout or a cancel as -EINTR. */
bool nfsb_rpc_failed(struct nfs_context *nfs, int rc)
{
	const char *e;

	if (rc == -EFAULT || rc == -EINTR)
		return true;
	if (rc != -EIO && rc != -1)
		return false;
	e = nfs_get_error(nfs);
	return !e || (!strstr(e, "NFS3ERR") && !strstr(e, "MNT3ERR"));
}

/* Did a signal cut libnfs's wait for an answer short (its poll() failed
 * with EINTR)?  The request is still in flight, with its answer bound for
 * a stack frame that is gone: the context cannot be used again. */
bool nfsb_rpc_cut(struct nfs_context *nfs)
{
	const char *e = nfs_get_error(nfs);

	return e && strstr(e, "Poll failed");
}

/* Why a mount failed, in @err; the exit status it means */
static int mount_error(struct nfs_context *nfs, int rc, char *err,
		       size_t errlen)
{
	const char *e = nfs_get_error(nfs);

	if (!e)
		e = strerror(-rc);
	if (strstr(e, "MNT3ERR_ACCES") || strstr(e, "MNT3ERR_NOENT") ||
	    strstr(e, "MNT3ERR_PERM") || strstr(e, "MNT3ERR_NOTDIR")) {
		snprintf(err, errlen,
			 "%s: the server %s refused to mount the export "
			 "(no such export, or not exported to this client): "
			 "%s",
			 nfsb_g.shown, nfsb_g.server, e);
		return BE_EINPUT;
	}
	snprintf(err, errlen,
		 "%s: cannot reach the NFS server %s (is it "
		 "running, with NFSv3, and are the URL's nfsport and mountport "
		 "right?): %s",
		 nfsb_g.shown, nfsb_g.server, e);
	return BE_EENV;
}

/* A context mounted on the export, or NULL with why in @err and the exit
 * status in *@code.  No reconnection (a server that went away fails the
 * call at once), no directory cache (every Find reaches the server). */
struct nfs_context *nfsb_connect(char *err, size_t errlen, int *code)
{
	struct nfs_context *nfs = nfs_init_context();
	struct nfs_url *u;
	int rc;

	*code = BE_EENV;
	if (!nfs) {
		snprintf(err, errlen,
			 "cannot make an NFS client context "
			 "(out of memory)");
		return NULL;
	}
	nfs_set_autoreconnect(nfs, 0);
	nfs_set_dircache(nfs, 0);
	if (nfsb_g.timeout_ms)
		nfs_set_timeout(nfs, nfsb_g.timeout_ms);
	u = nfs_parse_url_dir(nfs, nfsb_g.url); /* applies the query */
	if (!u || !u->server || !u->path) {
		snprintf(err, errlen, "%s: %s", nfsb_g.url,
			 u ? "not nfs://SERVER/EXPORT" : nfs_get_error(nfs));
		if (u)
			nfs_destroy_url(u);
		nfs_destroy_context(nfs);
		*code = BE_EINPUT;
		return NULL;
	}
	rc = nfs_mount(nfs, u->server, u->path);
	nfs_destroy_url(u);
	if (rc) {
		*code = mount_error(nfs, rc, err, errlen);
		/* a cut wait left a request whose answer would be written
		 * into a stack frame that is gone: never touched again */
		if (!nfsb_rpc_cut(nfs))
			nfs_destroy_context(nfs);
		return NULL;
	}
	return nfs;
}

void nfsb_disconnect(struct nfs_context *nfs)
{
	if (nfs)
		nfs_destroy_context(nfs);
}

/* EXPORT/clients: made if missing, a directory (not a link), and nothing
 * in it another name could lead out of it by (nfsb_tree_check) */
static int clients_dir(struct nfs_context *nfs, char *err, size_t errlen)
{
	struct nfs_stat_64 st;
	char path[NFSB_PATH_BUF] = "/clients";
	int rc;

	rc = nfs_lstat64(nfs, path, &st);
	if (rc == -ENOENT) {
		rc = nfs_mkdir2(nfs, path, 0755);
		if (rc && rc != -EEXIST) {
			snprintf(err, errlen, "cannot create %s/clients: %s",
				 nfsb_g.shown, nfs_get_error(nfs));
			return rc == -EACCES || rc == -EROFS || rc == -EPERM
				       ? BE_EINPUT
				       : BE_EENV;
		}
		rc = nfs_lstat64(nfs, path, &st);
	}
	if (rc) {
		snprintf(err, errlen, "%s/clients: %s", nfsb_g.shown,
			 nfs_get_error(nfs));
		return BE_EENV;
	}
	if (!S_ISDIR(st.nfs_mode)) {
		snprintf(err, errlen,
			 "%s/clients: not a directory (refusing "
			 "to work through a symlink or file)",
			 nfsb_g.shown);
		return BE_EINPUT;
	}
	return nfsb_tree_check(nfs, path, strlen(path), 0, err, errlen);
}

int nfsb_init(struct be_run *run, char *err, size_t errlen)
{
	struct nfs_context *nfs;
	int code;

	if (make_url(run->opts, err, errlen))
		return BE_EINPUT;
	run->where = nfsb_g.shown; /* messages name nfs://SERVER/EXPORT/... */
	nfs = nfsb_connect(err, errlen, &code);
	if (!nfs)
		return code;
	code = clients_dir(nfs, err, errlen);
	nfsb_disconnect(nfs);
	return code;
}

/* What is left of client @id's tree: 0 none, 1 a tree, -1 cannot tell */
static int tree_left(struct nfs_context *nfs, int id)
{
	struct nfs_stat_64 st;
	char path[64];
	int rc;

	snprintf(path, sizeof(path), "/clients/client%d", id);
	rc = nfs_lstat64(nfs, path, &st);
	return !rc ? 1 : rc == -ENOENT ? 0 : -1;
}

/* Remove client @id's tree: what is below it, then itself */
int nfsb_remove_tree(struct nfs_context *nfs, int id)
{
	char path[NFSB_PATH_BUF];
	int rc;

	snprintf(path, sizeof(path), "/clients/client%d", id);
	rc = nfsb_tree_clear(nfs, path, strlen(path), 0, true);
	if (!rc)
		rc = nfs_rmdir(nfs, path);
	return rc;
}

void nfsb_fini(struct be_run *run, const bool *dirty)
{
	struct nfs_context *nfs;
	char err[1200];
	int code, left = 0, first = -1;
	bool any = false;

	if (!dirty) /* --skip-cleanup: keep every tree */
		return;
	for (int i = 0; i < run->nclients; i++)
		any |= dirty[i];
	nfs = nfsb_connect(err, sizeof(err), &code);
	if (!nfs) {
		/* a client that lost the server said so already */
		if (any)
			fprintf(stderr,
				"dbench-ng: clean-up: %s (client "
				"trees are left in %s/clients)\n",
				err, nfsb_g.shown);
		return;
	}
	for (int i = 0; i < run->nclients; i++) {
		if (dirty[i])
			nfsb_remove_tree(nfs, i);
	}
	/* say so if a tree could not be removed */
	for (int i = 0; i < run->nclients; i++) {
		if (tree_left(nfs, i) && !left++)
			first = i;
	}
	if (left)
		fprintf(stderr,
			"dbench-ng: clean-up: %d client tree%s left "
			"in %s/clients (client%d)\n",
			left, left > 1 ? "s" : "", nfsb_g.shown, first);
	nfs_rmdir(nfs, "/clients"); /* fails harmlessly if anything is left */
	nfsb_disconnect(nfs);
}

void nfsb_orphaned(struct be_run *run)
{
	struct nfs_context *nfs;
	char err[1200];
	int code;

	(void)run;
	nfs = nfsb_connect(err, sizeof(err), &code);
	if (nfs) /* fails harmlessly while another client's tree is left */
		nfs_rmdir(nfs, "/clients");
	nfsb_disconnect(nfs);
}

/* why the requests it cannot honour are refused (docs/nfs.md) */
static const struct be_refusal nfsb_refusals[] = {
	{BE_CAN_SYNC_DIRS,
	 "NFSv3 has no call that syncs a directory (the server decides when "
	 "a directory change is stable)"},
	{BE_CAN_XATTR, "NFSv3 has no extended attributes"},
	{BE_CAN_DIRFD, "it looks every path up from the export's root"},
	{0, NULL},
};

const struct backend backend_nfs = {
	.api = BACKEND_API_VERSION,
	.name = "nfs",
	.summary = "an NFSv3 server, through libnfs",
	.version = 1,
	/* -s: FILE_SYNC writes; -F: a COMMIT after each write; it never
	 * does dbench's case-insensitive lookup, so --no-resolve holds */
	.caps = BE_CAN_SYNC_OPEN | BE_CAN_FSYNC | BE_CAN_NO_RESOLVE,
	.options = nfsb_options,
	.refusals = nfsb_refusals,
	.opts_size = sizeof(struct nfsb_opts),
	.check = nfsb_check,
	.init = nfsb_init,
	.setup = nfsb_setup,
	.release = nfsb_release,
	.cleanup = nfsb_cleanup,
	.fini = nfsb_fini,
	.orphaned = nfsb_orphaned,
	.op =
		{
			[OP_NTCREATEX] = nfsb_ntcreatex,
			[OP_CLOSE] = nfsb_close,
			[OP_RENAME] = nfsb_rename,
			[OP_UNLINK] = nfsb_unlink,
			[OP_DELTREE] = nfsb_deltree,
			[OP_RMDIR] = nfsb_rmdir,
			[OP_MKDIR] = nfsb_mkdir,
			[OP_QPATHINFO] = nfsb_qpathinfo,
			[OP_QFILEINFO] = nfsb_qfileinfo,
			[OP_QFSINFO] = nfsb_qfsinfo,
			[OP_SFILEINFO] = nfsb_sfileinfo,
			[OP_FIND] = nfsb_find,
			[OP_WRITEX] = nfsb_writex,
			[OP_READX] = nfsb_readx,
			[OP_FLUSH] = nfsb_flush,
			/* dbench 5's NFSv3 lines (ops3.c) */
			[OP_GETATTR3] = nfsb_getattr3,
			[OP_LOOKUP3] = nfsb_getattr3,
			[OP_CREATE3] = nfsb_create3,
			[OP_WRITE3] = nfsb_write3,
			[OP_COMMIT3] = nfsb_commit3,
			[OP_READ3] = nfsb_read3,
			[OP_REMOVE3] = nfsb_remove3,
			[OP_MKDIR3] = nfsb_mkdir,
			[OP_RMDIR3] = nfsb_rmdir,
			[OP_RENAME3] = nfsb_rename3,
			[OP_LINK3] = nfsb_link3,
			[OP_SYMLINK3] = nfsb_symlink3,
			[OP_READLINK3] = nfsb_readlink3,
			[OP_READDIRPLUS3] = nfsb_readdirplus3,
			[OP_ACCESS3] = nfsb_access3,
			[OP_FSSTAT3] = nfsb_fsstat3,
			[OP_FSINFO3] = nfsb_fsstat3,
			[OP_PATHCONF3] = nfsb_fsstat3,
			[OP_SETATTR3] = nfsb_setattr3,
		},
	.not_run =
		{
			[OP_LOCKX] =
				"libnfs 4.0 has no NFSv3 lock call (NLM): "
				"its nfs_lockf and nfs_fcntl are NFSv4-only",
			[OP_UNLOCKX] =
				"libnfs 4.0 has no NFSv3 lock call (NLM): "
				"its nfs_lockf and nfs_fcntl are "
				"NFSv4-only",
		},
};
