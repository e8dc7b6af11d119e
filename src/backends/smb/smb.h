/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * smb.h - what the files of the smb backend share (private to
 * src/backends/smb/): the options, the run-wide state the parent sets
 * before the fork (the share's URL, the credentials), a client's
 * connection (one libsmbclient context) and its table of open files.
 * How each op maps to SMB: docs/smb.md.
 */
#ifndef DBNG_SMB_H
#define DBNG_SMB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <libsmbclient.h>

#include "backend.h"
#include "iobuf.h"

/* the environment variable a password may come from (not seen in ps) */
#define SMB_PASSWORD_ENV "DBENCH_NG_SMB_PASSWORD"

/* the backend's options (-o, and dbench 5's --smb-share, --smb-user) */
struct smb_opts {
	const char *share;	 /* //SERVER[:PORT]/SHARE[/PATH] */
	const char *user;	 /* [DOMAIN/]USER[%PASSWORD] */
	const char *credentials; /* a file as smbclient -A reads */
	int timeout;		 /* s a call may wait for the server; 0:
				  * libsmbclient's */
};

/* set by the parent (init) before the fork, then read-only; the
 * buffers are per process */
struct smb_global {
	char *shown;   /* //SERVER[:PORT]/SHARE[/PATH], for messages */
	char *root;    /* smb://SERVER[:PORT]/SHARE */
	char *base;    /* root + /PATH (percent-encoded) */
	char *clients; /* base + /clients */
	char *server;  /* SERVER[:PORT], for messages */
	char *share;   /* SHARE */
	bool has_path; /* a /PATH was given */
	char domain[256], user[256], password[256];
	struct iobuf io; /* zeroed write data; read target */
};
extern struct smb_global smb_g;

/* an open file or directory of a client (be_handle.fd is its index in
 * the table, be_handle.aux its path index) */
struct smb_file {
	SMBCFILE *f;
	bool dir;
	uint32_t next; /* next free entry */
};

#define SMB_NO_FILE UINT32_MAX

struct smb_client {
	SMBCCTX *ctx;
	char **url;	 /* of each path of the program, client substituted */
	char **durl;	 /* of each directory of the program */
	char *home;	 /* clients/clientN */
	SMBCFILE *fsdir; /* clients/, held open for Qfsinfo */
	struct smb_file *files;
	uint32_t nfiles, free;
	/* the context's calls */
	smbc_open_fn open;
	smbc_close_fn close;
	smbc_read_fn read;
	smbc_write_fn write;
	smbc_lseek_fn lseek;
	smbc_stat_fn stat;
	smbc_fstat_fn fstat;
	smbc_fstatvfs_fn fstatvfs;
	smbc_unlink_fn unlink;
	smbc_rename_fn rename;
	smbc_mkdir_fn mkdir;
	smbc_rmdir_fn rmdir;
	smbc_opendir_fn opendir;
	smbc_readdir_fn readdir;
	smbc_closedir_fn closedir;
	smbc_utimes_fn utimes;
	smbc_getxattr_fn getxattr;
	smbc_setxattr_fn setxattr;
};

/* lib.c: the calls of libsmbclient used, loaded with dlopen by
 * smb_lib_load (init), called as smbl.smbc_new_context() */
#define SMB_LIB_CALLS(X)                         \
	X(smbc_new_context)                      \
	X(smbc_free_context)                     \
	X(smbc_init_context)                     \
	X(smbc_setDebug)                         \
	X(smbc_setLogCallback)                   \
	X(smbc_setFunctionAuthDataWithContext)   \
	X(smbc_setOptionUrlEncodeReaddirEntries) \
	X(smbc_setOptionNoAutoAnonymousLogin)    \
	X(smbc_setTimeout)                       \
	X(smbc_getFunctionOpen)                  \
	X(smbc_getFunctionClose)                 \
	X(smbc_getFunctionRead)                  \
	X(smbc_getFunctionWrite)                 \
	X(smbc_getFunctionLseek)                 \
	X(smbc_getFunctionStat)                  \
	X(smbc_getFunctionFstat)                 \
	X(smbc_getFunctionFstatVFS)              \
	X(smbc_getFunctionUnlink)                \
	X(smbc_getFunctionRename)                \
	X(smbc_getFunctionMkdir)                 \
	X(smbc_getFunctionRmdir)                 \
	X(smbc_getFunctionOpendir)               \
	X(smbc_getFunctionReaddir)               \
	X(smbc_getFunctionClosedir)              \
	X(smbc_getFunctionUtimes)                \
	X(smbc_getFunctionGetxattr)              \
	X(smbc_getFunctionSetxattr)

struct smb_lib {
	void *h; /* NULL: not loaded yet */
#define X(f) __typeof__(f) *f;
	SMB_LIB_CALLS(X)
#undef X
};
extern struct smb_lib smbl;
int smb_lib_load(char *err, size_t errlen);

/* lib.c: a context (one connection: NULL with errno), freed (NULL
 * taken); whether the errno of a call means the connection is lost */
SMBCCTX *smb_context(int timeout_s);
void smb_context_free(SMBCCTX *ctx);
bool smb_conn_lost(int e);

/* url.c: "//SERVER[:PORT]/SHARE[/PATH]" (or "smb://...") into smb_g (0,
 * or -1 with a message); the URL of @rel below @dir_url, each component
 * percent-encoded (malloc'd; NULL out of memory) */
int smb_parse_share(const char *share, char *err, size_t errlen);
char *smb_url(const char *dir_url, const char *rel);

/* auth.c: who logs on, into smb_g (0, or -1 with a message); the
 * callback that gives it to libsmbclient */
int smb_credentials(const struct smb_opts *o, char *err, size_t errlen);
void smb_auth(SMBCCTX *c, const char *srv, const char *shr, char *wg, int wglen,
	      char *un, int unlen, char *pw, int pwlen);

/* tree.c: empty directory @url (and remove its subdirectories with
 * @rmdirs; errors ignored); the parent's clean-up at the end (fini), an
 * orphaned client's (orphaned) */
void smb_tree_remove(SMBCCTX *ctx, const char *url, int depth, bool rmdirs);
void smb_fini(struct be_run *run, const bool *dirty);
void smb_orphaned(struct be_run *run);

/* client.c: a client's connection, paths and files */
int smb_setup(struct be_client *c);
void smb_cleanup(struct be_client *c);
void smb_release(struct be_client *c, be_handle h);

/* ops.c */
#define SMB_OP(name)                                                \
	int smb_##name(struct be_client *c, const struct lf_op *op, \
		       be_handle *h)
SMB_OP(ntcreatex);
SMB_OP(close);
SMB_OP(rename);
SMB_OP(unlink);
SMB_OP(deltree);
SMB_OP(rmdir);
SMB_OP(mkdir);
SMB_OP(qpathinfo);
SMB_OP(qfileinfo);
SMB_OP(qfsinfo);
SMB_OP(sfileinfo);
SMB_OP(find);
SMB_OP(writex);
SMB_OP(readx);

#endif
