/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * auth.c - who the smb backend logs on as (smb.h): a credentials file as
 * smbclient -A reads it, --smb-user's [DOMAIN/]USER[%PASSWORD] over it,
 * the password from DBENCH_NG_SMB_PASSWORD if neither gave one (it does
 * not show in ps), into smb_g; and libsmbclient's callback that asks
 * for them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smb.h"

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
int smb_credentials(const struct smb_opts *o, char *err, size_t errlen)
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

void smb_auth(SMBCCTX *c, const char *srv, const char *shr, char *wg, int wglen,
	      char *un, int unlen, char *pw, int pwlen)
{
	(void)c;
	(void)srv;
	(void)shr;
	if (smb_g.domain[0])
		snprintf(wg, (size_t)wglen, "%s", smb_g.domain);
	snprintf(un, (size_t)unlen, "%s", smb_g.user);
	snprintf(pw, (size_t)pwlen, "%s", smb_g.password);
}
