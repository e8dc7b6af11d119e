/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * smb.c - the SMB backend: the loadfile against an SMB2/3 share through
 * libsmbclient, one connection (context) per client as real clients
 * have.  Here: the options (dbench 5's --smb-share and --smb-user, a
 * credentials file, a password from the environment), the share's URL,
 * the check of the share before the fork (init: one clear message for a
 * wrong password, a missing share, a server that does not answer), the
 * clean-up of what killed clients left (fini) and the descriptor, with
 * the ops libsmbclient has no call for (not_run) and the server-side
 * settings that do what -s and -F would (refusals).
 *
 * Every path is SHARE[/PATH]/clients/clientN/...: the share's clients/
 * folder, exactly as DIR/clients for fileio; nothing else of the share
 * is touched.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "smb.h"

struct smb_global smb_g;

/* Append @s to @buf (at @n of @len bytes) percent-encoding every byte
 * but the unreserved ones of a URL; false if it does not fit. */
static bool put_encoded(char *buf, size_t len, size_t *n, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (*n + 4 > len)
			return false;
		if (isalnum(ch) || strchr("-._~", ch)) {
			buf[(*n)++] = (char)ch;
		} else {
			buf[(*n)++] = '%';
			buf[(*n)++] = hex[ch >> 4];
			buf[(*n)++] = hex[ch & 15];
		}
	}
	buf[*n] = 0;
	return true;
}

char *smb_url(const char *dir_url, const char *rel)
{
	size_t len = strlen(dir_url) + 3 * strlen(rel) + 2, n;
	char *u = malloc(len), *comp, *save = NULL, *copy;
	bool ok = true;

	if (!u)
		return NULL;
	n = (size_t)snprintf(u, len, "%s", dir_url);
	copy = strdup(rel);
	if (!copy) {
		free(u);
		return NULL;
	}
	for (comp = strtok_r(copy, "/", &save); comp && ok;
	     comp = strtok_r(NULL, "/", &save)) {
		if (!strcmp(comp, "."))
			continue;
		u[n++] = '/';
		ok = put_encoded(u, len, &n, comp);
	}
	free(copy);
	if (!ok) {
		free(u);
		return NULL;
	}
	return u;
}

static void smb_free_share(void)
{
	free(smb_g.shown);
	free(smb_g.root);
	free(smb_g.base);
	free(smb_g.clients);
	free(smb_g.server);
	free(smb_g.share);
	smb_g.shown = smb_g.root = smb_g.base = smb_g.clients = NULL;
	smb_g.server = smb_g.share = NULL;
	smb_g.has_path = false;
}

/* "//SERVER[:PORT]/SHARE[/PATH]" (or "smb://...") into smb_g: 0, or -1
 * with a message */
int smb_parse_share(const char *share, char *err, size_t errlen)
{
	const char *p = share, *srv, *end;
	size_t len, n = 0;
	char *buf = NULL, *copy = NULL, *comp, *save = NULL;
	bool ok = true;

	smb_free_share();
	if (!share) {
		snprintf(err, errlen,
			 "-B smb needs the share: "
			 "--smb-share=//SERVER/SHARE[/PATH]");
		return -1;
	}
	for (const char *q = share; *q; q++) {
		if (iscntrl((unsigned char)*q)) {
			snprintf(err, errlen,
				 "--smb-share: a control "
				 "character in '%s'",
				 share);
			return -1;
		}
	}
	if (!strncmp(p, "smb:", 4))
		p += 4;
	if (strncmp(p, "//", 2))
		goto syntax;
	srv = p + 2;
	end = strchr(srv, '/');
	if (!end || end == srv || end[1] == '/' || !end[1])
		goto syntax;
	smb_g.server = strndup(srv, (size_t)(end - srv));
	len = strlen(share) * 3 + 32;
	buf = malloc(len);
	copy = strdup(end + 1);
	if (!smb_g.server || !buf || !copy)
		goto oom;
	/* a port, if any: digits after the last ':' (not in "[v6]") */
	{
		const char *c = strrchr(smb_g.server, ':');
		const char *b = strrchr(smb_g.server, ']');

		if (c && (!b || c > b)) {
			char *e;
			long port = strtol(c + 1, &e, 10);

			if (c == smb_g.server || *e || port < 1 ||
			    port > 65535 || !c[1]) {
				snprintf(err, errlen,
					 "--smb-share %s: '%s' "
					 "is not SERVER or SERVER:PORT",
					 share, smb_g.server);
				goto fail;
			}
		}
	}
	n = (size_t)snprintf(buf, len, "smb://%s", smb_g.server);
	for (comp = strtok_r(copy, "/", &save); comp && ok;
	     comp = strtok_r(NULL, "/", &save)) {
		if (!strcmp(comp, ".") || !strcmp(comp, "..")) {
			snprintf(err, errlen,
				 "--smb-share %s: no '.' or '..' "
				 "in the path",
				 share);
			goto fail;
		}
		if (!smb_g.share) {
			smb_g.share = strdup(comp);
			if (!smb_g.share)
				goto oom;
		} else {
			smb_g.has_path = true;
		}
		buf[n++] = '/';
		ok = put_encoded(buf, len, &n, comp);
		if (ok && !smb_g.root && !(smb_g.root = strdup(buf)))
			goto oom;
	}
	if (!ok || !smb_g.share)
		goto syntax;
	smb_g.base = strdup(buf);
	smb_g.clients = smb_url(buf, "clients");
	/* shown: "//SERVER/SHARE/PATH" without a trailing '/' */
	snprintf(buf, len, "//%s/%s", smb_g.server, end + 1);
	n = strlen(buf);
	while (n && buf[n - 1] == '/')
		buf[--n] = 0;
	smb_g.shown = strdup(buf);
	if (!smb_g.base || !smb_g.clients || !smb_g.shown)
		goto oom;
	free(buf);
	free(copy);
	return 0;
syntax:
	snprintf(err, errlen,
		 "--smb-share %s: not //SERVER[:PORT]/SHARE[/PATH]", share);
	goto fail;
oom:
	snprintf(err, errlen, "out of memory");
fail:
	free(buf);
	free(copy);
	smb_free_share();
	return -1;
}

/* Copy @src into @dst (@len bytes); false if it does not fit. */
static bool set_str(char *dst, size_t len, const char *src, size_t n)
{
	if (n >= len)
		return false;
	memcpy(dst, src, n);
	dst[n] = 0;
	return true;
}

/* "[DOMAIN/]USER[%PASSWORD]" (or DOMAIN\USER) into smb_g */
static int parse_user(const char *u, char *err, size_t errlen)
{
	const char *pct = strchr(u, '%');
	size_t ulen = pct ? (size_t)(pct - u) : strlen(u);
	const char *sep = memchr(u, '/', ulen);

	if (!sep)
		sep = memchr(u, '\\', ulen);
	if (sep && (!set_str(smb_g.domain, sizeof(smb_g.domain), u,
			     (size_t)(sep - u)) ||
		    !set_str(smb_g.user, sizeof(smb_g.user), sep + 1,
			     ulen - (size_t)(sep - u) - 1)))
		goto toolong;
	if (!sep && !set_str(smb_g.user, sizeof(smb_g.user), u, ulen))
		goto toolong;
	if (pct && !set_str(smb_g.password, sizeof(smb_g.password), pct + 1,
			    strlen(pct + 1)))
		goto toolong;
	return 0;
toolong:
	snprintf(err, errlen,
		 "--smb-user: a user, domain or password longer "
		 "than 255 bytes");
	return -1;
}

/* A credentials file as smbclient -A reads it: "username = U",
 * "password = P", "domain = D" lines; blank lines and '#' comments. */
static int read_credentials(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	char line[1024];
	int lineno = 0, rc = 0;

	if (!f) {
		snprintf(err, errlen, "-o credentials=%s: %s", path,
			 strerror(errno));
		return -1;
	}
	while (!rc && fgets(line, sizeof(line), f)) {
		char *k = line, *v, *e;
		char *dst;
		size_t dlen;

		lineno++;
		k += strspn(k, " \t");
		e = k + strcspn(k, "\r\n");
		*e = 0;
		if (!*k || *k == '#')
			continue;
		v = strchr(k, '=');
		if (!v)
			goto bad;
		e = v;
		while (e > k && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		*e = 0;
		v++;
		v += strspn(v, " \t");
		e = v + strlen(v);
		while (e > v && (e[-1] == ' ' || e[-1] == '\t'))
			*--e = 0;
		if (!strcmp(k, "username")) {
			dst = smb_g.user;
			dlen = sizeof(smb_g.user);
		} else if (!strcmp(k, "password")) {
			dst = smb_g.password;
			dlen = sizeof(smb_g.password);
		} else if (!strcmp(k, "domain")) {
			dst = smb_g.domain;
			dlen = sizeof(smb_g.domain);
		} else {
			goto bad;
		}
		if (!set_str(dst, dlen, v, strlen(v))) {
			snprintf(err, errlen,
				 "-o credentials=%s:%d: longer "
				 "than 255 bytes",
				 path, lineno);
			rc = -1;
		}
		continue;
	bad:
		snprintf(err, errlen,
			 "-o credentials=%s:%d: not 'username = "
			 "U', 'password = P' or 'domain = D'",
			 path, lineno);
		rc = -1;
	}
	if (!rc && ferror(f)) {
		snprintf(err, errlen, "-o credentials=%s: %s", path,
			 strerror(errno));
		rc = -1;
	}
	fclose(f);
	return rc;
}

/* Who logs on: the credentials file, then --smb-user over it, and the
 * password from the environment if neither gave one. */
static int credentials(const struct smb_opts *o, char *err, size_t errlen)
{
	const char *env = getenv(SMB_PASSWORD_ENV);

	smb_g.domain[0] = smb_g.user[0] = smb_g.password[0] = 0;
	if (o->credentials && read_credentials(o->credentials, err, errlen))
		return -1;
	if (o->user && parse_user(o->user, err, errlen))
		return -1;
	if (!smb_g.password[0] && env &&
	    !set_str(smb_g.password, sizeof(smb_g.password), env,
		     strlen(env))) {
		snprintf(err, errlen, "%s: longer than 255 bytes",
			 SMB_PASSWORD_ENV);
		return -1;
	}
	return 0;
}

static void smb_auth(SMBCCTX *c, const char *srv, const char *shr, char *wg,
		     int wglen, char *un, int unlen, char *pw, int pwlen)
{
	(void)c;
	(void)srv;
	(void)shr;
	if (smb_g.domain[0])
		snprintf(wg, (size_t)wglen, "%s", smb_g.domain);
	snprintf(un, (size_t)unlen, "%s", smb_g.user);
	snprintf(pw, (size_t)pwlen, "%s", smb_g.password);
}

/* libsmbclient's own messages: the backend says what went wrong */
static void smb_log(void *priv, int level, const char *msg)
{
	(void)priv;
	(void)level;
	(void)msg;
}

SMBCCTX *smb_context(int timeout_s)
{
	SMBCCTX *ctx = smbl.smbc_new_context();

	if (!ctx)
		return NULL;
	smbl.smbc_setDebug(ctx, 0);
	smbl.smbc_setLogCallback(ctx, NULL, smb_log);
	smbl.smbc_setFunctionAuthDataWithContext(ctx, smb_auth);
	smbl.smbc_setOptionUrlEncodeReaddirEntries(ctx, 1);
	smbl.smbc_setOptionNoAutoAnonymousLogin(ctx, smb_g.user[0] != 0);
	if (timeout_s > 0)
		smbl.smbc_setTimeout(ctx, timeout_s * 1000);
	if (!smbl.smbc_init_context(ctx)) {
		int e = errno;

		smbl.smbc_free_context(ctx, 0);
		errno = e;
		return NULL;
	}
	return ctx;
}

void smb_context_free(SMBCCTX *ctx)
{
	if (ctx)
		smbl.smbc_free_context(ctx, 1);
}

bool smb_conn_lost(int e)
{
	return e == ECONNABORTED || e == ECONNRESET || e == ENETRESET ||
	       e == ECONNREFUSED || e == EPIPE || e == ENOTCONN ||
	       e == ETIMEDOUT ||
	       e == EHOSTUNREACH || e == ENETUNREACH || e == ENETDOWN ||
	       e == EHOSTDOWN;
}

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

/* What the failure @e of reaching the share means, and its exit status */
static int share_error(int e, const char *what, char *err, size_t errlen)
{
	if (e == EACCES || e == EPERM) {
		snprintf(err, errlen,
			 "--smb-share %s: the server refused the "
			 "logon%s%s%s or access to the share (a wrong user "
			 "name or password?): %s",
			 smb_g.shown,
			 smb_g.user[0] ? " of user '" : " as a guest",
			 smb_g.user, smb_g.user[0] ? "'" : "", strerror(e));
		return BE_EINPUT;
	}
	if (smb_conn_lost(e)) {
		snprintf(err, errlen,
			 "--smb-share %s: cannot reach the SMB "
			 "server %s: %s",
			 smb_g.shown, smb_g.server, strerror(e));
		return BE_EENV;
	}
	if (e == ENOENT || e == ENODEV || e == ENOTDIR) {
		snprintf(err, errlen, "--smb-share %s: %s", smb_g.shown, what);
		return BE_EINPUT;
	}
	snprintf(err, errlen, "--smb-share %s: %s", smb_g.shown, strerror(e));
	return BE_EENV;
}

static int smb_check(const void *opts, char *err, size_t errlen)
{
	const struct smb_opts *o = opts;

	return smb_parse_share(o->share, err, errlen);
}

/* The parent, before the fork of every run: the credentials, then the
 * share (one logon: a wrong password, a missing share or a server that
 * does not answer is one message, before any client starts), and
 * SHARE[/PATH]/clients made. */
static int smb_init(struct be_run *run, char *err, size_t errlen)
{
	const struct smb_opts *o = run->opts;
	struct stat st;
	char what[300];
	SMBCCTX *ctx;
	int rc = 0;

	if (smb_parse_share(o->share, err, errlen))
		return BE_EINPUT;
	if (credentials(o, err, errlen))
		return BE_EINPUT;
	if (smb_lib_load(err, errlen))
		return BE_EENV;
	run->where = smb_g.shown;
	ctx = smb_context(o->timeout);
	if (!ctx) {
		snprintf(err, errlen, "cannot make an SMB client context: %s",
			 strerror(errno));
		return BE_EENV;
	}
	snprintf(what, sizeof(what), "the server %s has no share '%s'",
		 smb_g.server, smb_g.share);
	if (smbl.smbc_getFunctionStat(ctx)(ctx, smb_g.root, &st)) {
		rc = share_error(errno, what, err, errlen);
		goto out;
	}
	if (smb_g.has_path &&
	    smbl.smbc_getFunctionStat(ctx)(ctx, smb_g.base, &st)) {
		rc = share_error(errno, "no such directory on the share", err,
				 errlen);
		goto out;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "--smb-share %s: not a directory",
			 smb_g.shown);
		rc = BE_EINPUT;
		goto out;
	}
	if (smbl.smbc_getFunctionMkdir(ctx)(ctx, smb_g.clients, 0755) &&
	    errno != EEXIST) {
		int e = errno;

		rc = smb_conn_lost(e) ? share_error(e, "", err, errlen)
				      : BE_EENV;
		if (!smb_conn_lost(e))
			snprintf(err, errlen, "cannot create %s/clients: %s",
				 smb_g.shown, strerror(e));
		goto out;
	}
	if (smbl.smbc_getFunctionStat(ctx)(ctx, smb_g.clients, &st) ||
	    !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s/clients: not a directory",
			 smb_g.shown);
		rc = BE_EINPUT;
	}
out:
	smb_context_free(ctx);
	return rc;
}

/* The parent, once every client exited: remove what the clients could
 * not (killed, or the server went away), then clients/ if empty; say what
 * is left. */
static void smb_fini(struct be_run *run, const bool *dirty)
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
static void smb_orphaned(struct be_run *run)
{
	const struct smb_opts *o = run->opts;
	SMBCCTX *ctx = smb_context(o->timeout);

	if (ctx)
		smbl.smbc_getFunctionRmdir(ctx)(ctx, smb_g.clients);
	smb_context_free(ctx);
}

static const struct be_option smb_options[] = {
	{
		.name = "share",
		.type = BE_OPT_STR,
		.offset = offsetof(struct smb_opts, share),
		.metavar = "//SERVER[:PORT]/SHARE[/PATH]",
		.help = "the share; the clients work in its folder clients/",
		.lopt = "smb-share",
	},
	{
		.name = "user",
		.type = BE_OPT_STR,
		.offset = offsetof(struct smb_opts, user),
		.metavar = "[DOMAIN/]USER[%PASSWORD]",
		.help = "who logs on (a password here shows in ps: "
			"prefer " SMB_PASSWORD_ENV " or -o credentials)",
		.secret = true,
		.lopt = "smb-user",
	},
	{
		.name = "credentials",
		.type = BE_OPT_STR,
		.offset = offsetof(struct smb_opts, credentials),
		.metavar = "FILE",
		.help = "username, password, domain lines (smbclient -A's)",
	},
	{
		.name = "timeout",
		.type = BE_OPT_INT,
		.offset = offsetof(struct smb_opts, timeout),
		.min = 1,
		.max = 3600,
		.metavar = "S",
		.help = "how long a call waits for the server (default 20)",
	},
	{.name = NULL},
};

static const struct be_refusal smb_refusals[] = {
	{BE_CAN_SYNC_OPEN,
	 "libsmbclient does not pass O_SYNC to the server; set 'strict sync "
	 "= yes' and 'sync always = yes' on the share (smb.conf) to have "
	 "smbd write every write through"},
	{BE_CAN_FSYNC,
	 "libsmbclient has no flush call; 'strict sync = yes' and 'sync "
	 "always = yes' on the share (smb.conf) make smbd fsync after every "
	 "write"},
	{BE_CAN_SYNC_DIRS, "SMB has no call that syncs a directory"},
	{0, NULL},
};

#define NO_LOCKS "libsmbclient has no byte-range lock call"

const struct backend backend_smb = {
	.api = BACKEND_API_VERSION,
	.name = "smb",
	.summary = "an SMB2/3 share, libsmbclient",
	.version = 1,
	.caps = BE_CAN_XATTR,
	.options = smb_options,
	.refusals = smb_refusals,
	.opts_size = sizeof(struct smb_opts),
	.check = smb_check,
	.init = smb_init,
	.setup = smb_setup,
	.release = smb_release,
	.cleanup = smb_cleanup,
	.fini = smb_fini,
	.orphaned = smb_orphaned,
	.op =
		{
			[OP_NTCREATEX] = smb_ntcreatex,
			[OP_CLOSE] = smb_close,
			[OP_RENAME] = smb_rename,
			[OP_UNLINK] = smb_unlink,
			[OP_DELTREE] = smb_deltree,
			[OP_RMDIR] = smb_rmdir,
			[OP_MKDIR] = smb_mkdir,
			[OP_QPATHINFO] = smb_qpathinfo,
			[OP_QFILEINFO] = smb_qfileinfo,
			[OP_QFSINFO] = smb_qfsinfo,
			[OP_SFILEINFO] = smb_sfileinfo,
			[OP_FIND] = smb_find,
			[OP_WRITEX] = smb_writex,
			[OP_READX] = smb_readx,
		},
	.not_run =
		{
			[OP_LOCKX] = NO_LOCKS,
			[OP_UNLOCKX] = NO_LOCKS,
			[OP_FLUSH] = "libsmbclient has no flush call",
		},
};
