/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * listen.c - the tbench server's listeners (srv_impl.h): every address of
 * cfg->bind, or all of IPv6 and IPv4 (IPv4 alone where there is no IPv6),
 * as non-blocking sockets in the main thread's epoll; the connections
 * accepted and handed to the workers in turn, a worker started when it
 * gets its first: up to cfg->threads clients have a loop each (as they
 * have a process each with tbench_srv: the scheduler shares the CPUs by
 * task), more share them.
 */
#include "srv_impl.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

/* "127.0.0.1:4711" or "[::1]:4711" of @sa */
void srv_addr_text(const struct sockaddr *sa, socklen_t len, char *buf,
		   size_t blen)
{
	char host[INET6_ADDRSTRLEN], serv[8];
	const char *h = host;

	if (getnameinfo(sa, len, host, sizeof(host), serv, sizeof(serv),
			NI_NUMERICHOST | NI_NUMERICSERV)) {
		snprintf(buf, blen, "(unknown address)");
		return;
	}
	if (!strncmp(h, "::ffff:", 7) && strchr(h, '.'))
		h += 7; /* an IPv4 client of a dual-stack socket */
	snprintf(buf, blen, strchr(h, ':') ? "[%s]:%s" : "%s:%s", h, serv);
}

/* ----------------------------- listening ------------------------------- */

/* A listening socket for @sa; -1 with errno. */
static int listen_on(const struct srv_cfg *cfg, const struct sockaddr *sa,
		     socklen_t len, bool dual, char *err, size_t errlen)
{
	int fd = socket(sa->sa_family,
			SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	int one = 1, zero = 0, e;
	char why[300];

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (dual)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (sockopt_apply(fd, sa->sa_family, &cfg->opts, why, sizeof(why))) {
		snprintf(err, errlen, "-t: %s", why);
		close(fd);
		errno = EINVAL;
		return -1;
	}
	if (bind(fd, sa, len) || listen(fd, SOMAXCONN)) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* The listening sockets of cfg->bind (or the default).  0, or -1 after a
 * message. */
int srv_listen_open(struct srv *s)
{
	const struct srv_cfg *cfg = s->cfg;
	char serv[8], err[400] = "", where[80];
	struct addrinfo hints =
				{
					.ai_socktype = SOCK_STREAM,
					.ai_flags = AI_PASSIVE | AI_NUMERICSERV,
				},
			*res;
	int rc;

	snprintf(serv, sizeof(serv), "%d", cfg->port);
	if (!cfg->nbind) {
		struct sockaddr_in6 a6 = {.sin6_family = AF_INET6,
					  .sin6_port = htons(cfg->port),
					  .sin6_addr = IN6ADDR_ANY_INIT};
		struct sockaddr_in a4 = {.sin_family = AF_INET,
					 .sin_port = htons(cfg->port)};
		int fd = listen_on(cfg, (struct sockaddr *)&a6, sizeof(a6),
				   true, err, sizeof(err));

		/* no IPv6 here (a kernel or a namespace without it): IPv4
		 * alone, as tbench_srv */
		if (fd < 0 && !err[0] &&
		    (errno == EAFNOSUPPORT || errno == EADDRNOTAVAIL))
			fd = listen_on(cfg, (struct sockaddr *)&a4, sizeof(a4),
				       false, err, sizeof(err));
		if (fd < 0) {
			fprintf(cfg->err, "%s: cannot listen on port %d: %s\n",
				cfg->name, cfg->port,
				err[0] ? err : strerror(errno));
			return -1;
		}
		s->lfd[s->nl++] = fd;
		return 0;
	}
	for (int i = 0; i < cfg->nbind; i++) {
		int fd;

		rc = getaddrinfo(cfg->bind[i], serv, &hints, &res);
		if (rc) {
			fprintf(cfg->err, "%s: --bind %s: %s\n", cfg->name,
				cfg->bind[i],
				rc == EAI_SYSTEM ? strerror(errno)
						 : gai_strerror(rc));
			return -1;
		}
		fd = listen_on(cfg, res->ai_addr, res->ai_addrlen, false, err,
			       sizeof(err));
		if (fd < 0) {
			srv_addr_text(res->ai_addr, res->ai_addrlen, where,
				      sizeof(where));
			fprintf(cfg->err, "%s: cannot listen on %s: %s\n",
				cfg->name, where,
				err[0] ? err : strerror(errno));
			freeaddrinfo(res);
			return -1;
		}
		freeaddrinfo(res);
		s->lfd[s->nl++] = fd;
	}
	return 0;
}

/* Put the listeners into (or out of) the main epoll. */
int srv_listeners_ctl(struct srv *s, int op)
{
	for (int i = 0; i < s->nl; i++) {
		struct epoll_event ev = {.events = EPOLLIN, .data.u32 = 1u + i};

		if (epoll_ctl(s->ep, op, s->lfd[i], &ev) && op == EPOLL_CTL_ADD)
			return -1;
	}
	return 0;
}

/* Accept what is pending on listener @i.  false when out of descriptors
 * (accepting pauses). */
bool srv_accept_all(struct srv *s, int i, uint64_t *conns, uint64_t *max_open)
{
	const struct srv_cfg *cfg = s->cfg;

	for (;;) {
		struct sockaddr_storage ss;
		socklen_t len = sizeof(ss);
		struct epoll_event ev = {.events = EPOLLIN};
		struct worker *w;
		struct conn *c;
		char why[300];
		int one = 1, fd, k;
		uint64_t open;

		fd = accept4(s->lfd[i], (struct sockaddr *)&ss, &len,
			     SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return true;
			if (errno == EINTR || errno == ECONNABORTED ||
			    errno == EPROTO)
				continue;
			srv_note(s, "accept: %s: accepting paused for 100 ms",
				 strerror(errno));
			return false;
		}
		c = calloc(1, sizeof(*c));
		if (!c) {
			srv_note(s, "out of memory: a connection refused");
			close(fd);
			continue;
		}
		c->fd = fd;
		c->head_sent = 4;
		frame_reset(&c->fr);
		srv_addr_text((struct sockaddr *)&ss, len, c->peer,
			      sizeof(c->peer));
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		if (sockopt_apply(fd, ss.ss_family, &cfg->opts, why,
				  sizeof(why))) {
			srv_note(s, "%s: -t: %s: connection refused", c->peer,
				 why);
			close(fd);
			free(c);
			continue;
		}
		/* in turn; a loop is started when first given one, so the
		 * first cfg->threads connections have one each */
		k = (int)(*conns % (uint64_t)s->nw);
		if (!s->w[k] && srv_worker_start(s, k)) {
			srv_note(s,
				 "%s: cannot start a thread: %s: connection "
				 "refused",
				 c->peer, strerror(errno));
			close(fd);
			free(c);
			continue;
		}
		w = s->w[k];
		pthread_mutex_lock(&w->lock);
		c->next = w->list;
		if (w->list)
			w->list->prev = c;
		w->list = c;
		pthread_mutex_unlock(&w->lock);
		open = __atomic_add_fetch(&s->open, 1, __ATOMIC_RELAXED);
		if (open > *max_open)
			*max_open = open;
		(*conns)++;
		ev.data.ptr = c;
		if (epoll_ctl(w->ep, EPOLL_CTL_ADD, fd, &ev)) {
			srv_note(s, "%s: epoll: %s: connection refused",
				 c->peer, strerror(errno));
			srv_conn_close(w, c);
		}
	}
}

void srv_say_listening(struct srv *s)
{
	const struct srv_cfg *cfg = s->cfg;

	fprintf(cfg->err, "%s: listening on", cfg->name);
	for (int i = 0; i < s->nl; i++) {
		struct sockaddr_storage ss;
		socklen_t len = sizeof(ss);
		char where[80] = "?";

		if (!getsockname(s->lfd[i], (struct sockaddr *)&ss, &len))
			srv_addr_text((struct sockaddr *)&ss, len, where,
				      sizeof(where));
		fprintf(cfg->err, "%s %s", i ? "," : "", where);
	}
	fprintf(cfg->err, ", up to %d thread%s, limit %u bytes\n", cfg->threads,
		cfg->threads == 1 ? "" : "s", cfg->max_len);
	fflush(cfg->err);
}
