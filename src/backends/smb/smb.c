/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * smb.c - the SMB backend: the loadfile against an SMB2/3 share through
 * libsmbclient, one connection (context) per client as real clients
 * have.  Here: the options (dbench 5's --smb-share and --smb-user, a
 * credentials file, a password from the environment), the check of the
 * share before the fork (init: one clear message for a wrong password, a
 * missing share, a server that does not answer) and the descriptor, with
 * the ops libsmbclient has no call for (not_run) and the server-side
 * settings that do what -s and -F would (refusals).  The share's URL is
 * url.c's, who logs on auth.c's, the clean-up tree.c's.
 *
 * Every path is SHARE[/PATH]/clients/clientN/...: the share's clients/
 * folder, exactly as DIR/clients for fileio; nothing else of the share
 * is touched.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "smb.h"

struct smb_global smb_g;

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
	if (smb_credentials(o, err, errlen))
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
