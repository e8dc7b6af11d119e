/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sockopt.c - tbench's socket options (sockopt.h): the table of names
 * dbench 4.0 knows, the parser of an option list and its application to
 * a socket.
 */
#include "sockopt.h"

#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>

#include "num.h"

static const struct sockopt table[] = {
	{"SO_KEEPALIVE", SOL_SOCKET, SO_KEEPALIVE, 1, SOCKOPT_BOOL},
	{"SO_REUSEADDR", SOL_SOCKET, SO_REUSEADDR, 1, SOCKOPT_BOOL},
	{"SO_BROADCAST", SOL_SOCKET, SO_BROADCAST, 1, SOCKOPT_BOOL},
	{"TCP_NODELAY", IPPROTO_TCP, TCP_NODELAY, 1, SOCKOPT_BOOL},
	{"IPTOS_LOWDELAY", IPPROTO_IP, IP_TOS, IPTOS_LOWDELAY, SOCKOPT_ON},
	{"IPTOS_THROUGHPUT", IPPROTO_IP, IP_TOS, IPTOS_THROUGHPUT, SOCKOPT_ON},
	{"SO_SNDBUF", SOL_SOCKET, SO_SNDBUF, 0, SOCKOPT_INT},
	{"SO_RCVBUF", SOL_SOCKET, SO_RCVBUF, 0, SOCKOPT_INT},
	{"SO_SNDLOWAT", SOL_SOCKET, SO_SNDLOWAT, 0, SOCKOPT_INT},
	{"SO_RCVLOWAT", SOL_SOCKET, SO_RCVLOWAT, 0, SOCKOPT_INT},
	{"SO_SNDTIMEO", SOL_SOCKET, SO_SNDTIMEO, 0, SOCKOPT_MS},
	{"SO_RCVTIMEO", SOL_SOCKET, SO_RCVTIMEO, 0, SOCKOPT_MS},
};
#define NTABLE (sizeof(table) / sizeof(table[0]))

#define SEPS " \t,"

const char *sockopt_names(void)
{
	static char buf[256];
	size_t n = 0;

	if (buf[0])
		return buf;
	for (size_t i = 0; i < NTABLE && n < sizeof(buf); i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s",
				      i ? ", " : "", table[i].name);
	return buf;
}

/* One token @tok (@len bytes) into @o.  0, or -1 with a message. */
static int parse_one(const char *tok, size_t len, struct sockopt *o, char *err,
		     size_t errlen)
{
	const char *eq = memchr(tok, '=', len);
	size_t nlen = eq ? (size_t)(eq - tok) : len;
	char val[32];
	int64_t v;
	size_t i;

	for (i = 0; i < NTABLE; i++) {
		if (strlen(table[i].name) == nlen &&
		    !strncasecmp(table[i].name, tok, nlen))
			break;
	}
	if (i == NTABLE) {
		snprintf(err, errlen,
			 "unknown socket option '%.*s' (known: "
			 "%s)",
			 (int)nlen, tok, sockopt_names());
		return -1;
	}
	*o = table[i];
	if (!eq) {
		if (o->kind == SOCKOPT_INT || o->kind == SOCKOPT_MS) {
			snprintf(err, errlen,
				 "socket option %s needs a value "
				 "(%s=%s)",
				 o->name, o->name,
				 o->kind == SOCKOPT_MS ? "MILLISECONDS" : "N");
			return -1;
		}
		return 0;
	}
	if (o->kind == SOCKOPT_ON) {
		snprintf(err, errlen,
			 "socket option %s takes no value "
			 "('%.*s')",
			 o->name, (int)len, tok);
		return -1;
	}
	len -= nlen + 1; /* the value's */
	if (len < sizeof(val)) {
		memcpy(val, eq + 1, len);
		val[len] = '\0';
		if (num_i64(val, NUM_DIGIT_FIRST | NUM_NO_MINUS, 0, INT_MAX,
			    &v) == NUM_OK) {
			o->value = (int)v;
			return 0;
		}
	}
	snprintf(err, errlen,
		 "socket option %s: '%.*s' is not a whole number "
		 "in 0..%d",
		 o->name, (int)len, eq + 1, INT_MAX);
	return -1;
}

int sockopt_parse(const char *spec, struct sockopt_set *out, char *err,
		  size_t errlen)
{
	const char *p = spec;

	out->n = 0;
	for (;;) {
		size_t len;

		p += strspn(p, SEPS);
		if (!*p)
			return 0;
		len = strcspn(p, SEPS);
		if (out->n == SOCKOPT_MAX) {
			snprintf(err, errlen, "more than %d socket options",
				 SOCKOPT_MAX);
			return -1;
		}
		if (parse_one(p, len, &out->o[out->n], err, errlen))
			return -1;
		out->n++;
		p += len;
	}
}

int sockopt_apply(int fd, int family, const struct sockopt_set *s, char *err,
		  size_t errlen)
{
	for (int i = 0; i < s->n; i++) {
		const struct sockopt *o = &s->o[i];
		int level = o->level, opt = o->opt, rc;

		if (o->kind == SOCKOPT_MS) {
			struct timeval tv = {
				.tv_sec = o->value / 1000,
				.tv_usec = (o->value % 1000) * 1000,
			};

			rc = setsockopt(fd, level, opt, &tv, sizeof(tv));
		} else {
			if (level == IPPROTO_IP && family == AF_INET6) {
				level = IPPROTO_IPV6;
				opt = IPV6_TCLASS;
			}
			rc = setsockopt(fd, level, opt, &o->value,
					sizeof(o->value));
		}
		if (rc) {
			snprintf(err, errlen,
				 "cannot set socket option "
				 "%s=%d: %s",
				 o->name, o->value, strerror(errno));
			return -1;
		}
	}
	return 0;
}
