/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sockopt.h - tbench's socket options: the text of -T/--tcp-options (the
 * sockio client) and of tbench_srv's -t, read once into a list, then set
 * on each socket.  The names are dbench 4.0's (its set_socket_options):
 * tokens separated by blanks, tabs or commas, NAME or NAME=N, the name in
 * any case.  Unlike dbench 4.0, an unknown name, a value where none is
 * taken, a missing or bad number is refused with a message instead of
 * being skipped, and SO_SNDTIMEO / SO_RCVTIMEO take milliseconds (dbench
 * passes an int, which Linux refuses for these two).
 */
#ifndef DBNG_SOCKOPT_H
#define DBNG_SOCKOPT_H

#include <stddef.h>

#define SOCKOPT_DEFAULT "TCP_NODELAY SO_REUSEADDR" /* tbench's default */
#define SOCKOPT_MAX	16			   /* options in one list */

enum sockopt_kind {
	SOCKOPT_BOOL, /* NAME (on) or NAME=N */
	SOCKOPT_INT,  /* NAME=N: N is needed */
	SOCKOPT_ON,   /* NAME: takes no value (the IP_TOS ones) */
	SOCKOPT_MS,   /* NAME=MS: a time in milliseconds (a timeval) */
};

struct sockopt {
	const char *name; /* as the table spells it: "TCP_NODELAY" */
	int level, opt;	  /* for setsockopt on IPv4 (see sockopt_apply) */
	int value;
	enum sockopt_kind kind;
};

struct sockopt_set {
	int n;
	struct sockopt o[SOCKOPT_MAX];
};

/*
 * sockopt_parse - read @spec ("TCP_NODELAY SO_SNDBUF=65536") into @out.
 * 0, or -1 with "unknown socket option 'X' (known: ...)", "SO_SNDBUF
 * needs a value (SO_SNDBUF=N)", ... in @err.  An empty @spec is an empty
 * list (no option set).
 */
int sockopt_parse(const char *spec, struct sockopt_set *out, char *err,
		  size_t errlen);

/*
 * sockopt_apply - set every option of @s on the socket @fd of address
 * family @family (AF_INET or AF_INET6: the IP_TOS options become
 * IPV6_TCLASS on IPv6).  0, or -1 with "cannot set NAME=V: strerror" in
 * @err.
 */
int sockopt_apply(int fd, int family, const struct sockopt_set *s, char *err,
		  size_t errlen);

/* sockopt_names - "SO_KEEPALIVE, SO_REUSEADDR, ..." for messages and help */
const char *sockopt_names(void);

#endif
