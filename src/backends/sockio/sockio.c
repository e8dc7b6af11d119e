/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sockio.c - the network backend, tbench's half of dbench 4.0
 * (docs/compat.md, "tbench"): each client opens one TCP connection to a
 * tbench server (tbench_srv, or dbench-ng's own: src/server/) before the
 * start barrier, and every op of the loadfile becomes one request/reply
 * exchange on it, of the sizes tbench sends (exchange.c).  Nothing is
 * read or written on a filesystem: -D only enters the length of the paths
 * (L(x) of the sizes, as in tbench).  Bytes are counted as tbench counts
 * them: WriteX its size, ReadX its ret_size (BE_COUNT_READ_RET).
 *
 * Here: the options (--server, --port, -T), the address of the server
 * resolved once by the parent (init), and per client the connection, the
 * handshake (an exchange of 8 and 8 bytes) and the path lengths (setup).
 */
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sockio.h"

struct sockio_global sockio_g;

/* -T's text: check() and init() */
static const char *tcp_options(const struct sockio_opts *o)
{
	return o->tcp_options ? o->tcp_options : SOCKOPT_DEFAULT;
}

/* Parent, after the options: -T names options that exist and that this
 * kernel lets a TCP socket have (tried on one, before any fork). */
static int sockio_check(const void *opts, char *err, size_t errlen)
{
	struct sockopt_set so;
	char why[400];
	int fd, rc;

	if (sockopt_parse(tcp_options(opts), &so, why, sizeof(why))) {
		snprintf(err, errlen, "-T: %s", why);
		return -1;
	}
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0; /* no IPv4 here: init or setup will say */
	rc = sockopt_apply(fd, AF_INET, &so, why, sizeof(why));
	close(fd);
	if (rc) {
		snprintf(err, errlen, "-T: %s", why);
		return -1;
	}
	return 0;
}

/* Parent, before the fork: the server's addresses, once. */
static int sockio_init(struct be_run *run, char *err, size_t errlen)
{
	const struct sockio_opts *o = run->opts;
	const char *server = o->server ? o->server : SOCKIO_SERVER;
	int port = o->port ? o->port : SOCKIO_PORT;
	struct addrinfo hints = {
		.ai_family = AF_UNSPEC,
		.ai_socktype = SOCK_STREAM,
		.ai_protocol = IPPROTO_TCP,
	};
	struct addrinfo *res, *ai;
	char serv[16], why[400];
	int rc;

	memset(&sockio_g, 0, sizeof(sockio_g));
	if (sockopt_parse(tcp_options(o), &sockio_g.so, why, sizeof(why))) {
		snprintf(err, errlen, "-T: %s", why);
		return BE_EINPUT;
	}
	snprintf(sockio_g.where, sizeof(sockio_g.where), "%s port %d", server,
		 port);
	snprintf(serv, sizeof(serv), "%d", port);
	rc = getaddrinfo(server, serv, &hints, &res);
	if (rc) {
		snprintf(err, errlen,
			 "--server %s: cannot find its address: "
			 "%s",
			 server,
			 rc == EAI_SYSTEM ? strerror(errno) : gai_strerror(rc));
		/* a name that does not exist is bad input; a resolver
		 * that does not answer is the environment */
		return rc == EAI_NONAME || rc == EAI_SERVICE ||
				       rc == EAI_FAIL || rc == EAI_FAMILY
			       ? BE_EINPUT
			       : BE_EENV;
	}
	for (ai = res; ai && sockio_g.naddr < SOCKIO_MAX_ADDRS;
	     ai = ai->ai_next) {
		if (ai->ai_addrlen > sizeof(sockio_g.addr[0]))
			continue;
		memcpy(&sockio_g.addr[sockio_g.naddr], ai->ai_addr,
		       ai->ai_addrlen);
		sockio_g.alen[sockio_g.naddr++] = ai->ai_addrlen;
	}
	freeaddrinfo(res);
	if (!sockio_g.naddr) {
		snprintf(err, errlen, "--server %s: no TCP address", server);
		return BE_EINPUT;
	}
	return 0;
}

int64_t sockio_path_len(const char *dir, const char *full, int id)
{
	char buf[8192];
	int n = 0;

	/* "." is \clients itself: DIR/clients */
	if (strcmp(full, ".")) {
		n = lf_subst_client(buf, sizeof(buf), full, id);
		if (n < 0)
			return -1;
		n++; /* its '/' */
	}
	return (int64_t)(strlen(dir) + strlen("/clients") + (size_t)n);
}

/* L(x) of every path of @c's program */
static int path_lengths(struct be_client *c, struct sockio_client *sc,
			uint32_t *maxlen)
{
	const struct program *p = c->prog;

	*maxlen = 0;
	sc->plen = calloc(p->npaths ? p->npaths : 1, sizeof(*sc->plen));
	if (!sc->plen)
		return -1;
	for (uint32_t i = 0; i < p->npaths; i++) {
		int64_t l =
			sockio_path_len(c->run->dir, p->paths[i].full, c->id);

		if (l < 0 || l > UINT16_MAX)
			return -1;
		sc->plen[i] = (uint32_t)l;
		if (sc->plen[i] > *maxlen)
			*maxlen = sc->plen[i];
	}
	return 0;
}

/* connect(), finished if a signal interrupts it: 0 or an errno */
static int connect_fd(int fd, const struct sockaddr *a, socklen_t len)
{
	struct pollfd p = {.fd = fd, .events = POLLOUT};
	socklen_t elen = sizeof(int);
	int e;

	if (!connect(fd, a, len))
		return 0;
	if (errno != EINTR)
		return errno;
	/* interrupted: the connection goes on; wait for how it ends */
	while (poll(&p, 1, -1) < 0) {
		if (errno != EINTR)
			return errno;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &elen))
		return errno;
	return e;
}

/* Connect to the first address of the server that answers. */
static int connect_server(struct be_client *c, struct sockio_client *sc)
{
	char why[400];
	int err = EADDRNOTAVAIL;

	for (int i = 0; i < sockio_g.naddr; i++) {
		int family = sockio_g.addr[i].ss_family;
		int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);

		if (fd < 0) {
			err = errno;
			continue;
		}
		if (sockopt_apply(fd, family, &sockio_g.so, why, sizeof(why))) {
			close(fd);
			be_fail(c, NULL, "-T: %s", why);
			return -1;
		}
		err = connect_fd(fd, (struct sockaddr *)&sockio_g.addr[i],
				 sockio_g.alen[i]);
		if (!err) {
			sc->fd = fd;
			return 0;
		}
		close(fd);
	}
	be_fail(c, NULL, "cannot connect to the server at %s: %s",
		sockio_g.where, strerror(err));
	return -1;
}

/* Child, per client, before the start barrier. */
static int sockio_setup(struct be_client *c)
{
	struct sockio_client *sc = calloc(1, sizeof(*sc));
	uint32_t maxlen;
	uint64_t size;

	if (!sc) {
		be_fail(c, NULL, "out of memory");
		return -1;
	}
	sc->fd = -1;
	c->priv = sc;
	if (path_lengths(c, sc, &maxlen)) {
		be_fail(c, NULL, "out of memory, or a path too long");
		return -1;
	}
	/* the largest request: a WriteX, or a Rename of two long names */
	size = 39 + 20 + (uint64_t)c->prog->max_io;
	if (size < 39 + 8 + 4 * (uint64_t)maxlen + 8)
		size = 39 + 8 + 4 * (uint64_t)maxlen + 8;
	sc->bufsize = (uint32_t)size;
	sc->buf = calloc(1, sc->bufsize);
	if (!sc->buf) {
		be_fail(c, NULL, "out of memory for a buffer of %u bytes",
			sc->bufsize);
		return -1;
	}
	if (connect_server(c, sc))
		return -1;
	/* tbench's handshake: 8 bytes there, 8 back */
	return sockio_exchange(c, NULL, 8, 8) ? -1 : 0;
}

/* Child, per client, after the last op: the connection is closed (the
 * server sees the end of its stream between two requests). */
static void sockio_cleanup(struct be_client *c)
{
	struct sockio_client *sc = c->priv;

	if (!sc)
		return;
	if (sc->fd >= 0)
		close(sc->fd);
	free(sc->buf);
	free(sc->plen);
	free(sc);
	c->priv = NULL;
}

static const struct be_option sockio_options[] = {
	{
		.name = "server",
		.type = BE_OPT_STR,
		.offset = offsetof(struct sockio_opts, server),
		.metavar = "HOST",
		.help = "the tbench server (default localhost; also the "
			"operand after NPROCS)",
		.lopt = "server",
	},
	{
		.name = "port",
		.type = BE_OPT_INT,
		.offset = offsetof(struct sockio_opts, port),
		.min = 1,
		.max = 65535,
		.metavar = "N",
		.help = "its TCP port (default 7003)",
		.lopt = "port",
	},
	{
		.name = "tcp-options",
		.type = BE_OPT_STR,
		.offset = offsetof(struct sockio_opts, tcp_options),
		.metavar = "OPTS",
		.help = "socket options, as -T (default \"" SOCKOPT_DEFAULT
			"\")",
	},
	{.name = NULL},
};

const struct backend backend_sockio = {
	.api = BACKEND_API_VERSION,
	.name = "sockio",
	.summary = "tbench: an exchange per op with a server",
	.version = 1,
	.caps = BE_COUNT_READ_RET,
	.options = sockio_options,
	.opts_size = sizeof(struct sockio_opts),
	.check = sockio_check,
	.init = sockio_init,
	.setup = sockio_setup,
	.cleanup = sockio_cleanup,
	.op = {[0 ... OP_SLEEP] = sockio_op}, /* Sleep is never called;
					       * no NFSv3 op: tbench has none */
};
