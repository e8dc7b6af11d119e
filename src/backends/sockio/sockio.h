/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sockio.h - what the files of the sockio backend share (private to
 * src/backends/sockio/): its options, the run-wide state the parent sets
 * before the fork, a client's connection, and the size of the exchange of
 * each op (docs/compat.md, "tbench"), a pure function the unit tests call.
 */
#ifndef DBNG_SOCKIO_H
#define DBNG_SOCKIO_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "backend.h"
#include "loadfile.h"
#include "sockopt.h"

#define SOCKIO_PORT	 7003 /* tbench's */
#define SOCKIO_SERVER	 "localhost"
#define SOCKIO_MAX_ADDRS 8 /* addresses of the server tried in turn */
/* the largest message either way, its 4-byte length word aside: a
 * WriteX or ReadX of 16 MiB (the largest a loadfile may ask, LF_MAX_IO)
 * with its 59 bytes, with room; dbench-ng's server takes the same */
#define SOCKIO_MAX_MSG (17u << 20)
#define SOCKIO_RBUF    4096 /* replies up to this size: one recv() */

/* the options (-o, and --server, --port, -T through options.c) */
struct sockio_opts {
	const char *server;	 /* -o server=HOST, --server, the 2nd operand */
	int port;		 /* -o port=N, --port; 0: 7003 */
	const char *tcp_options; /* -o tcp-options=..., -T; NULL: tbench's */
};

/* set by init in the parent, read-only in the clients */
struct sockio_global {
	struct sockaddr_storage addr[SOCKIO_MAX_ADDRS];
	socklen_t alen[SOCKIO_MAX_ADDRS];
	int naddr;
	struct sockopt_set so;
	char where[300]; /* "localhost port 7003", for messages */
};
extern struct sockio_global sockio_g;

/* one client's connection */
struct sockio_client {
	int fd;
	uint32_t bufsize; /* of buf: the largest request */
	uint8_t *buf;	  /* requests: two length words, then zeros */
	uint32_t *plen;	  /* L(x) of each path of the program */
	uint8_t rbuf[SOCKIO_RBUF];
};

/*
 * sockio_sizes - the exchange of @op as tbench 4.0 makes it: send *@s
 * bytes, receive *@r (each with its 4-byte length word), from the
 * lengths @plen of the client's paths (L(x): DIR/clients/clientN/...,
 * the -D prefix included).  False for an op without one (Deltree).  A
 * size out of range (a huge FIND_FIRST count) is returned as it is, or
 * as UINT64_MAX: the caller checks both against SOCKIO_MAX_MSG.
 */
static inline bool sockio_sizes(const struct lf_op *op, const uint32_t *plen,
				uint64_t *s, uint64_t *r)
{
	uint64_t l0 = op->path[0] != LF_NONE ? plen[op->path[0]] : 0;
	uint64_t l1 = op->path[1] != LF_NONE ? plen[op->path[1]] : 0;
	int64_t count;

	switch (op->type) {
	case OP_UNLINK:
	case OP_MKDIR:
	case OP_RMDIR:
		*s = 39 + 2 + 2 * l0 + 2;
		*r = 39;
		return true;
	case OP_NTCREATEX:
		*s = 70 + 2 + 2 * l0 + 2;
		*r = 39 + 12 * 4;
		return true;
	case OP_WRITEX: /* size */
		*s = 39 + 20 + (uint64_t)op->arg[1];
		*r = 39 + 16;
		return true;
	case OP_READX: /* ret_size */
		*s = 39 + 20;
		*r = 39 + 20 + (uint64_t)op->arg[2];
		return true;
	case OP_CLOSE:
		*s = 39 + 8;
		*r = 39;
		return true;
	case OP_RENAME:
		*s = 39 + 8 + 2 * l0 + 2 * l1;
		*r = 39;
		return true;
	case OP_FLUSH:
		*s = 39 + 2;
		*r = 39;
		return true;
	case OP_QPATHINFO:
		*s = 39 + 16 + 2 * l0;
		*r = 39 + 32;
		return true;
	case OP_QFILEINFO:
	case OP_QFSINFO:
		*s = 39 + 20;
		*r = 39 + 32;
		return true;
	case OP_FIND: /* path, level, maxcnt, count */
		count = op->arg[2];
		*s = 39 + 20 + 2 * l0;
		*r = count < 0 || count > (1 << 30) ? UINT64_MAX
						    : 39 + 90 * (uint64_t)count;
		return true;
	case OP_SFILEINFO:
		*s = 39 + 32;
		*r = 39 + 8;
		return true;
	case OP_LOCKX:
	case OP_UNLOCKX:
		*s = 39 + 12;
		*r = 39;
		return true;
	default: /* Deltree, and Sleep (the engine's) */
		return false;
	}
}

/*
 * sockio_path_len - L(x) of the path whose template (struct lf_path.full)
 * is @full, for client @id under -D @dir: the length of
 * "DIR/clients/clientN/..." ("DIR/clients" for \clients itself), the name
 * tbench 4.0 sends; -1 if it does not fit 8 KiB (sockio.c)
 */
int64_t sockio_path_len(const char *dir, const char *full, int id);

/* exchange.c */
int sockio_exchange(struct be_client *c, const struct lf_op *op, uint32_t s,
		    uint32_t r);
int sockio_op(struct be_client *c, const struct lf_op *op, be_handle *h);

#endif
