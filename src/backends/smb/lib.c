/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lib.c - libsmbclient, loaded with dlopen when -B smb runs (by init, in
 * the parent, before the fork: the clients inherit it), not linked: it
 * brings in about a hundred shared libraries of Samba's, whose loading
 * made every start of dbench-ng, whatever its backend, take 0.15 s more.
 * The calls keep the header's prototypes (__typeof__), so a change of
 * libsmbclient.h is still checked by the compiler.  Also a context (one
 * connection to the server) made and freed, and which errors of a call
 * mean the connection is lost.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>

#include "smb.h"

struct smb_lib smbl;

int smb_lib_load(char *err, size_t errlen)
{
	/* the run-time library (package libsmbclient), then the
	 * development link */
	static const char *const names[] = {"libsmbclient.so.0",
					    "libsmbclient.so"};
	void *h = NULL;

	if (smbl.h)
		return 0;
	for (size_t i = 0; !h && i < sizeof(names) / sizeof(names[0]); i++)
		h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(err, errlen,
			 "-B smb: cannot load libsmbclient: %s "
			 "(apt-get install libsmbclient)",
			 dlerror());
		return -1;
	}
#define X(f)                                                                \
	if (!(smbl.f = (__typeof__(f) *)dlsym(h, #f))) {                    \
		snprintf(err, errlen, "-B smb: libsmbclient has no %s: %s", \
			 #f, dlerror());                                    \
		dlclose(h);                                                 \
		return -1;                                                  \
	}
	SMB_LIB_CALLS(X)
#undef X
	smbl.h = h;
	return 0;
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
	       e == ETIMEDOUT || e == EHOSTUNREACH || e == ENETUNREACH ||
	       e == ENETDOWN || e == EHOSTDOWN;
}
