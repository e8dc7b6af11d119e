/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * server.c - the tbench server (server.h).
 *
 * The main thread listens (every address of cfg->bind, non-blocking
 * sockets in its own epoll, with a signalfd for SIGINT, SIGTERM and
 * SIGHUP), accepts and hands each connection to one of cfg->threads
 * workers in turn (epoll_ctl on the worker's epoll), starting a worker
 * when it gets its first: up to cfg->threads clients have a loop each
 * (as they have a process each with tbench_srv: the scheduler shares
 * the CPUs by task), more share them.  A worker is one
 * epoll loop, level-triggered: a readable connection gets one recv() into
 * the worker's buffer, every request in it is framed (frame.c) and
 * answered at once with one sendmsg() of its head and zeros; a reply the
 * socket has no room for waits for EPOLLOUT, reading stops meanwhile, and
 * what was read after its request (at most one buffer) waits with it.  So
 * a connection holds no buffer but in that case, and a client that never
 * reads its replies stops being read, not served more.  A connection that
 * breaks the protocol is dropped with a note (the first SRV_MAX_NOTES;
 * the stop's summary counts them all), the others go on.  At the stop an
 * eventfd in every worker's epoll ends the loops; the main thread joins
 * them and closes what is left.
 */
#include "server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "clock.h"
#include "frame.h"

#define RBUF	 65536 /* a worker's receive buffer */
#define NEVENTS	 64
#define SEND_IOV 17 /* a reply's head and up to 16 x 64 KiB of zeros */

static const uint8_t zeros[65536];

struct conn {
	int fd;
	struct conn *prev, *next; /* the worker's list */
	struct frame fr;
	uint8_t head[4];    /* the reply's length word */
	uint32_t head_sent; /* of head[]; 4: no reply under way */
	uint64_t out_left;  /* zeros of the reply still to send */
	uint64_t out_len;   /* the whole reply, its length word with it */
	bool waiting;	    /* a reply waits for room (EPOLLOUT) */
	uint8_t *pend;	    /* read after that request, not framed */
	uint32_t npend;	    /* its bytes */
	uint32_t pcap;	    /* its size */
	char peer[INET6_ADDRSTRLEN + 8];
};

struct srv;

struct worker {
	struct srv *srv;
	pthread_t tid;
	int ep;
	pthread_mutex_t lock; /* the list: the main thread adds, the
			       * worker takes out */
	struct conn *list;
	/* the worker's own counters, read after the join */
	uint64_t exchanges, bytes_in, bytes_out, dropped, cut;
	uint8_t buf[RBUF];
};

struct srv {
	const struct srv_cfg *cfg;
	struct worker **w;
	int nw, started;
	int stopfd; /* eventfd: readable once the server stops */
	int ep;	    /* the main thread's: listeners and signals */
	int sigfd;
	int lfd[SRV_MAX_BIND], nl;
	uint64_t open;	    /* connections open now (atomic) */
	uint64_t pending;   /* bytes of every pend[] (atomic), up to
			     * SRV_PEND_MAX */
	unsigned int notes; /* notes printed (atomic) */
};

/* ------------------------------ notes ---------------------------------- */

static void __attribute__((format(printf, 2, 3)))
note(struct srv *s, const char *fmt, ...)
{
	unsigned int n = __atomic_fetch_add(&s->notes, 1, __ATOMIC_RELAXED);
	va_list ap;

	if (n >= SRV_MAX_NOTES)
		return;
	flockfile(s->cfg->err);
	fprintf(s->cfg->err, "%s: ", s->cfg->name);
	va_start(ap, fmt);
	vfprintf(s->cfg->err, fmt, ap);
	va_end(ap);
	if (n + 1 == SRV_MAX_NOTES)
		fprintf(s->cfg->err, " (further notes left out: the summary "
				     "at the stop counts them)");
	fputc('\n', s->cfg->err);
	funlockfile(s->cfg->err);
}

/* "127.0.0.1:4711" or "[::1]:4711" of @sa */
static void addr_text(const struct sockaddr *sa, socklen_t len, char *buf,
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

/* --------------------------- connections ------------------------------- */

static void conn_close(struct worker *w, struct conn *c)
{
	close(c->fd); /* also takes it out of the worker's epoll */
	pthread_mutex_lock(&w->lock);
	if (c->prev)
		c->prev->next = c->next;
	else
		w->list = c->next;
	if (c->next)
		c->next->prev = c->prev;
	pthread_mutex_unlock(&w->lock);
	__atomic_fetch_sub(&w->srv->open, 1, __ATOMIC_RELAXED);
	__atomic_fetch_sub(&w->srv->pending, c->pcap, __ATOMIC_RELAXED);
	free(c->pend);
	free(c);
}

/* Close @c for breaking the protocol or an error, with a note. */
static void __attribute__((format(printf, 3, 4)))
drop(struct worker *w, struct conn *c, const char *fmt, ...)
{
	char why[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	note(w->srv, "%s: %s: connection dropped", c->peer, why);
	w->dropped++;
	conn_close(w, c);
}

/* The client closed @c (@err: 0 at the end of its stream, or the errno
 * of the recv): silently between requests, with a note inside one. */
static void closed(struct worker *w, struct conn *c, int err)
{
	if (frame_partial(&c->fr)) {
		char size[32] = "";

		if (frame_size(&c->fr))
			snprintf(size, sizeof(size), " of %llu",
				 (unsigned long long)frame_size(&c->fr));
		note(w->srv,
		     "%s: the client %s inside a request (%llu%s "
		     "bytes of it received): connection closed",
		     c->peer, err ? strerror(err) : "closed the connection",
		     (unsigned long long)frame_received(&c->fr), size);
		w->cut++;
	}
	conn_close(w, c);
}

/* Sending @c's reply failed with errno @err: the client went away with
 * an exchange under way (as a close inside a request), or an error. */
static void send_failed(struct worker *w, struct conn *c, int err)
{
	uint64_t sent = c->out_len - (4 - c->head_sent) - c->out_left;

	if (err != ECONNRESET && err != EPIPE) {
		drop(w, c, "sending a reply: %s", strerror(err));
		return;
	}
	note(w->srv,
	     "%s: the client %s before it had its reply (%llu of "
	     "%llu bytes of it sent): connection closed",
	     c->peer, err == EPIPE ? "closed the connection" : strerror(err),
	     (unsigned long long)sent, (unsigned long long)c->out_len);
	w->cut++;
	conn_close(w, c);
}

/* Register @c for EPOLLOUT (a reply waits) or EPOLLIN.  0 or -1. */
static int want_out(struct worker *w, struct conn *c, bool out)
{
	struct epoll_event ev = {.events = out ? EPOLLOUT : EPOLLIN,
				 .data.ptr = c};

	c->waiting = out;
	return epoll_ctl(w->ep, EPOLL_CTL_MOD, c->fd, &ev);
}

/* Send what is left of @c's reply: 0 sent, 1 no room (EAGAIN), -1 an
 * error (errno). */
static int send_reply(struct worker *w, struct conn *c)
{
	while (c->head_sent < 4 || c->out_left) {
		struct iovec iov[SEND_IOV];
		struct msghdr mh = {.msg_iov = iov};
		uint64_t left = c->out_left;
		size_t k = 0, h;
		ssize_t n;

		if (c->head_sent < 4)
			iov[k++] = (struct iovec){c->head + c->head_sent,
						  4 - c->head_sent};
		while (left && k < SEND_IOV) {
			size_t z = left < sizeof(zeros) ? (size_t)left
							: sizeof(zeros);

			iov[k++] = (struct iovec){(void *)zeros, z};
			left -= z;
		}
		mh.msg_iovlen = k;
		n = sendmsg(c->fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno == EAGAIN || errno == EWOULDBLOCK ? 1 : -1;
		}
		w->bytes_out += (uint64_t)n;
		h = c->head_sent < 4 ? 4 - c->head_sent : 0;
		if ((size_t)n < h) {
			c->head_sent += (uint32_t)n;
			continue;
		}
		c->head_sent = 4;
		c->out_left -= (uint64_t)n - h;
	}
	return 0;
}

static const char *frame_error(enum frame_ev e)
{
	switch (e) {
	case FRAME_SHORT:
		return "a request too short to hold its reply's length";
	case FRAME_TOO_LONG:
		return "a request over the limit";
	case FRAME_REPLY_LONG:
		return "a reply asked for over the limit";
	default:
		return "?";
	}
}

/*
 * Make room for @n bytes in @c->pend, more than it holds: what a client
 * that does not read its replies sent after the request whose reply
 * waits.  Only such a client (tbench's wait for each reply) has any, at
 * most a receive buffer each; all of them together at most SRV_PEND_MAX,
 * past which the connection is dropped, so that thousands of them cannot
 * make the server's memory grow without bound.  0, or -1 with @c gone.
 */
static int keep(struct worker *w, struct conn *c, size_t n)
{
	uint64_t more = n - c->pcap;
	uint64_t total =
		__atomic_add_fetch(&w->srv->pending, more, __ATOMIC_RELAXED);
	uint8_t *np;

	if (total > SRV_PEND_MAX) {
		__atomic_fetch_sub(&w->srv->pending, more, __ATOMIC_RELAXED);
		drop(w, c,
		     "sent %zu bytes more while its replies wait, past the "
		     "%u MiB the server keeps for all such clients",
		     n, SRV_PEND_MAX >> 20);
		return -1;
	}
	np = realloc(c->pend, n);
	if (!np) {
		__atomic_fetch_sub(&w->srv->pending, more, __ATOMIC_RELAXED);
		drop(w, c, "out of memory");
		return -1;
	}
	c->pend = np;
	c->pcap = (uint32_t)n;
	return 0;
}

/* Frame and answer the @n bytes at @p read from @c.  @c may be gone
 * when this returns. */
static void consume(struct worker *w, struct conn *c, const uint8_t *p,
		    size_t n)
{
	const struct srv_cfg *cfg = w->srv->cfg;

	while (n) {
		enum frame_ev e;
		size_t used;
		uint32_t m = 0;
		int rc;

		e = frame_feed(&c->fr, p, n, cfg->max_len, &used, &m);
		p += used;
		n -= used;
		if (e == FRAME_MORE)
			return;
		if (e < 0) {
			drop(w, c, "%s (length word %u, limit %u)",
			     frame_error(e),
			     e == FRAME_REPLY_LONG ? c->fr.m : c->fr.n,
			     cfg->max_len);
			return;
		}
		w->exchanges++;
		if (cfg->trace)
			fprintf(cfg->err, "%s: trace %s %llu %llu\n", cfg->name,
				c->peer, 4 + (unsigned long long)c->fr.n,
				4 + (unsigned long long)m);
		c->head[0] = (uint8_t)(m >> 24);
		c->head[1] = (uint8_t)(m >> 16);
		c->head[2] = (uint8_t)(m >> 8);
		c->head[3] = (uint8_t)m;
		c->head_sent = 0;
		c->out_left = m;
		c->out_len = 4 + (uint64_t)m;
		rc = send_reply(w, c);
		if (rc < 0) {
			send_failed(w, c, errno);
			return;
		}
		if (rc > 0) {
			/* no room: the rest waits with the reply (it came
			 * from one recv, or is a tail of the last wait's,
			 * which fits where it is) */
			if (n > c->pcap && keep(w, c, n))
				return;
			if (n)
				memmove(c->pend, p, n);
			c->npend = (uint32_t)n;
			if (want_out(w, c, true))
				drop(w, c, "epoll: %s", strerror(errno));
			return;
		}
	}
}

static void readable(struct worker *w, struct conn *c)
{
	ssize_t n = recv(c->fd, w->buf, sizeof(w->buf), MSG_DONTWAIT);

	if (n < 0) {
		if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
			return;
		closed(w, c, errno);
		return;
	}
	if (!n) {
		closed(w, c, 0);
		return;
	}
	w->bytes_in += (uint64_t)n;
	consume(w, c, w->buf, (size_t)n);
}

static void writable(struct worker *w, struct conn *c)
{
	int rc = send_reply(w, c);
	uint32_t n;

	if (rc < 0) {
		send_failed(w, c, errno);
		return;
	}
	if (rc > 0)
		return;
	if (want_out(w, c, false)) {
		drop(w, c, "epoll: %s", strerror(errno));
		return;
	}
	n = c->npend;
	c->npend = 0;
	if (n)
		consume(w, c, c->pend, n);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct epoll_event ev[NEVENTS];

	for (;;) {
		int n = epoll_wait(w->ep, ev, NEVENTS, -1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			note(w->srv, "epoll_wait: %s", strerror(errno));
			return NULL;
		}
		for (int i = 0; i < n; i++) {
			struct conn *c = ev[i].data.ptr;

			if (!c)
				return NULL; /* the stop */
			if (c->waiting)
				writable(w, c);
			else
				readable(w, c);
		}
	}
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
static int open_listeners(struct srv *s)
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
			addr_text(res->ai_addr, res->ai_addrlen, where,
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
static int listeners_ctl(struct srv *s, int op)
{
	for (int i = 0; i < s->nl; i++) {
		struct epoll_event ev = {.events = EPOLLIN, .data.u32 = 1u + i};

		if (epoll_ctl(s->ep, op, s->lfd[i], &ev) && op == EPOLL_CTL_ADD)
			return -1;
	}
	return 0;
}

static int start_worker(struct srv *s, int i);

/* Accept what is pending on listener @i.  false when out of descriptors
 * (accepting pauses). */
static bool accept_all(struct srv *s, int i, uint64_t *conns,
		       uint64_t *max_open)
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
			note(s, "accept: %s: accepting paused for 100 ms",
			     strerror(errno));
			return false;
		}
		c = calloc(1, sizeof(*c));
		if (!c) {
			note(s, "out of memory: a connection refused");
			close(fd);
			continue;
		}
		c->fd = fd;
		c->head_sent = 4;
		frame_reset(&c->fr);
		addr_text((struct sockaddr *)&ss, len, c->peer,
			  sizeof(c->peer));
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		if (sockopt_apply(fd, ss.ss_family, &cfg->opts, why,
				  sizeof(why))) {
			note(s, "%s: -t: %s: connection refused", c->peer, why);
			close(fd);
			free(c);
			continue;
		}
		/* in turn; a loop is started when first given one, so the
		 * first cfg->threads connections have one each */
		k = (int)(*conns % (uint64_t)s->nw);
		if (!s->w[k] && start_worker(s, k)) {
			note(s, "%s: cannot start a thread: %s: connection "
			     "refused", c->peer, strerror(errno));
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
			note(s, "%s: epoll: %s: connection refused", c->peer,
			     strerror(errno));
			conn_close(w, c);
		}
	}
}

/* ------------------------------ the run -------------------------------- */

/* Start worker @i (its epoll loop and thread).  0, or -1 with errno. */
static int start_worker(struct srv *s, int i)
{
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = NULL};
	struct worker *w = calloc(1, sizeof(*w));
	int e;

	if (!w)
		return -1;
	w->srv = s;
	pthread_mutex_init(&w->lock, NULL);
	w->ep = epoll_create1(EPOLL_CLOEXEC);
	if (w->ep < 0 || epoll_ctl(w->ep, EPOLL_CTL_ADD, s->stopfd, &ev))
		goto fail;
	e = pthread_create(&w->tid, NULL, worker_main, w);
	if (e) {
		errno = e;
		goto fail;
	}
	s->w[i] = w;
	s->started++;
	return 0;
fail:
	e = errno;
	if (w->ep >= 0)
		close(w->ep);
	pthread_mutex_destroy(&w->lock);
	free(w);
	errno = e;
	return -1;
}

static void stop_workers(struct srv *s, struct srv_stats *st)
{
	uint64_t one = 1;

	if (s->stopfd >= 0 && write(s->stopfd, &one, sizeof(one)) < 0)
		fprintf(s->cfg->err, "%s: cannot stop the threads: %s\n",
			s->cfg->name, strerror(errno));
	for (int i = 0; i < s->nw; i++) {
		struct worker *w = s->w[i];

		if (!w)
			continue;
		pthread_join(w->tid, NULL);
		while (w->list)
			conn_close(w, w->list);
		st->exchanges += w->exchanges;
		st->bytes_in += w->bytes_in;
		st->bytes_out += w->bytes_out;
		st->dropped += w->dropped;
		st->cut += w->cut;
		if (w->ep >= 0)
			close(w->ep);
		pthread_mutex_destroy(&w->lock);
		free(w);
	}
	free(s->w);
}

/* As many descriptors as the hard limit allows: a connection is one. */
static void raise_nofile(void)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static void say_listening(struct srv *s)
{
	const struct srv_cfg *cfg = s->cfg;

	fprintf(cfg->err, "%s: listening on", cfg->name);
	for (int i = 0; i < s->nl; i++) {
		struct sockaddr_storage ss;
		socklen_t len = sizeof(ss);
		char where[80] = "?";

		if (!getsockname(s->lfd[i], (struct sockaddr *)&ss, &len))
			addr_text((struct sockaddr *)&ss, len, where,
				  sizeof(where));
		fprintf(cfg->err, "%s %s", i ? "," : "", where);
	}
	fprintf(cfg->err, ", up to %d thread%s, limit %u bytes\n",
		cfg->threads, cfg->threads == 1 ? "" : "s", cfg->max_len);
	fflush(cfg->err);
}

int srv_run(const struct srv_cfg *cfg, struct srv_stats *st)
{
	struct srv s = {.cfg = cfg, .stopfd = -1, .ep = -1, .sigfd = -1};
	uint64_t t0 = 0, max_open = 0;
	bool paused = false;
	sigset_t set;
	int rc = 3;

	memset(st, 0, sizeof(*st));
	raise_nofile();
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	/* blocked before the threads start: they inherit it */
	if (pthread_sigmask(SIG_BLOCK, &set, NULL) ||
	    (s.sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK)) < 0 ||
	    (s.ep = epoll_create1(EPOLL_CLOEXEC)) < 0 ||
	    (s.stopfd = eventfd(0, EFD_CLOEXEC)) < 0) {
		fprintf(cfg->err, "%s: cannot set up: %s\n", cfg->name,
			strerror(errno));
		goto out;
	}
	if (open_listeners(&s))
		goto out;
	{
		struct epoll_event ev = {.events = EPOLLIN, .data.u32 = 0};

		if (epoll_ctl(s.ep, EPOLL_CTL_ADD, s.sigfd, &ev) ||
		    listeners_ctl(&s, EPOLL_CTL_ADD)) {
			fprintf(cfg->err, "%s: epoll: %s\n", cfg->name,
				strerror(errno));
			goto out;
		}
	}
	s.w = calloc((size_t)cfg->threads, sizeof(*s.w));
	if (!s.w || start_worker(&s, 0)) {
		fprintf(cfg->err, "%s: cannot start a thread: %s\n", cfg->name,
			strerror(errno));
		goto out;
	}
	s.nw = cfg->threads;
	t0 = clock_ns();
	fprintf(cfg->out, "waiting for connections\n");
	fflush(cfg->out);
	say_listening(&s);

	while (!st->signal) {
		struct epoll_event ev[SRV_MAX_BIND + 1];
		int n = epoll_wait(s.ep, ev, SRV_MAX_BIND + 1,
				   paused ? 100 : -1);

		if (n < 0 && errno != EINTR) {
			fprintf(cfg->err, "%s: epoll_wait: %s\n", cfg->name,
				strerror(errno));
			break;
		}
		if (paused && n == 0) {
			paused = false;
			listeners_ctl(&s, EPOLL_CTL_ADD);
		}
		for (int i = 0; i < n; i++) {
			struct signalfd_siginfo si;

			if (ev[i].data.u32) {
				if (!paused &&
				    !accept_all(&s, (int)ev[i].data.u32 - 1,
						&st->conns, &max_open)) {
					paused = true;
					listeners_ctl(&s, EPOLL_CTL_DEL);
				}
				continue;
			}
			if (read(s.sigfd, &si, sizeof(si)) == sizeof(si))
				st->signal = (int)si.ssi_signo;
		}
	}
	rc = 0;
out:
	stop_workers(&s, st);
	st->max_open = max_open;
	if (t0)
		st->seconds = (double)(clock_ns() - t0) / 1e9;
	for (int i = 0; i < s.nl; i++)
		close(s.lfd[i]);
	if (s.ep >= 0)
		close(s.ep);
	if (s.sigfd >= 0)
		close(s.sigfd);
	if (s.stopfd >= 0)
		close(s.stopfd);
	/* the signals stay blocked: a second one must not kill the
	 * process before its summary */
	return rc;
}
