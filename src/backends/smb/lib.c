/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lib.c - libsmbclient, loaded with dlopen when -B smb runs (by init, in
 * the parent, before the fork: the clients inherit it), not linked: it
 * brings in about a hundred shared libraries of Samba's, whose loading
 * made every start of dbench-ng, whatever its backend, take 0.15 s more.
 * The calls keep the header's prototypes (__typeof__), so a change of
 * libsmbclient.h is still checked by the compiler.
 */
#include <dlfcn.h>
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
