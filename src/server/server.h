/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * server.h - a tbench server (docs/compat.md, "tbench"), compatible with
 * dbench 4.0's tbench_srv on the wire, but a server: event-driven (a few
 * threads, each an epoll loop over its share of the connections, no
 * process per connection), bounded memory per connection (no buffer but
 * 8 bytes of a request's head, a half-read remainder only while a reply
 * waits for room), any address to bind (IPv4, IPv6, both), a client that
 * breaks the protocol dropped with a note while the others go on, a
 * clean stop on SIGINT, SIGTERM or SIGHUP with what was served.
 */
#ifndef DBNG_SERVER_H
#define DBNG_SERVER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sockopt.h"

#define SRV_PORT	7003 /* tbench's */
#define SRV_MAX_BIND	8
#define SRV_MAX_THREADS 64
#define SRV_MAX_LEN	(17u << 20) /* a length word's default limit */
#define SRV_MAX_NOTES	20	    /* per-connection notes printed */
/* bytes kept of clients that send on while their replies wait (a
 * receive buffer, 64 KiB, each at most): the server's memory bound */
#define SRV_PEND_MAX	(64u << 20)

struct srv_cfg {
	const char *bind[SRV_MAX_BIND]; /* addresses; none: all (IPv6 and
					 * IPv4, or IPv4 alone) */
	int nbind;
	int port;		 /* 0: any, said on stderr */
	int threads;		 /* epoll loops, 1..SRV_MAX_THREADS */
	uint32_t max_len;	 /* largest length word taken */
	struct sockopt_set opts; /* -t: on the listening and the accepted
				  * sockets */
	bool trace;		 /* a line per exchange on @err */
	const char *name;	 /* "tbench_srv", for messages */
	FILE *out;		 /* "waiting for connections", the summary */
	FILE *err;		 /* notes */
};

struct srv_stats {
	uint64_t conns;	    /* accepted */
	uint64_t max_open;  /* open at once, at most */
	uint64_t exchanges; /* requests answered */
	uint64_t bytes_in;  /* received */
	uint64_t bytes_out; /* sent */
	uint64_t dropped;   /* connections closed for breaking the protocol
			     * or for an error */
	uint64_t cut;	    /* closed by the client inside a request */
	int signal;	    /* that stopped the server */
	double seconds;	    /* from the first listen to the stop */
};

/*
 * srv_run - listen as @cfg says, print "waiting for connections" on
 * cfg->out, serve until SIGINT, SIGTERM or SIGHUP (blocked here and read
 * from a signalfd), then close everything and fill @st.  0, or 3 after a
 * message (a socket that cannot be made or bound, no thread).
 */
int srv_run(const struct srv_cfg *cfg, struct srv_stats *st);

#endif
