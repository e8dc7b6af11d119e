/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * worker.c - the tbench server's workers (srv_impl.h): each is one epoll
 * loop in a thread of its own, level-triggered, over its share of the
 * connections.  A readable connection gets one recv() into the worker's
 * buffer, every request in it is framed (frame.c) and answered at once
 * with one sendmsg() of its head and zeros; a reply the socket has no
 * room for waits for EPOLLOUT, reading stops meanwhile, and what was read
 * after its request (at most one buffer) waits with it.  So a connection
 * holds no buffer but in that case, and a client that never reads its
 * replies stops being read, not served more.  A connection that breaks
 * the protocol is dropped with a note, the others go on.  At the stop an
 * eventfd in every worker's epoll ends the loops.
 */
#include "srv_impl.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/uio.h>
#include <unistd.h>

#define SEND_IOV 17 /* a reply's head and up to 16 x 64 KiB of zeros */

static const uint8_t zeros[65536];

/* --------------------------- connections ------------------------------- */

void srv_conn_close(struct worker *w, struct conn *c)
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
	srv_note(w->srv, "%s: %s: connection dropped", c->peer, why);
	w->dropped++;
	srv_conn_close(w, c);
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
		srv_note(w->srv,
			 "%s: the client %s inside a request (%llu%s "
			 "bytes of it received): connection closed",
			 c->peer, err ? strerror(err) : "closed the connection",
			 (unsigned long long)frame_received(&c->fr), size);
		w->cut++;
	}
	srv_conn_close(w, c);
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
	srv_note(w->srv,
		 "%s: the client %s before it had its reply (%llu of "
		 "%llu bytes of it sent): connection closed",
		 c->peer,
		 err == EPIPE ? "closed the connection" : strerror(err),
		 (unsigned long long)sent, (unsigned long long)c->out_len);
	w->cut++;
	srv_conn_close(w, c);
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
			srv_note(w->srv, "epoll_wait: %s", strerror(errno));
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

/* ------------------------- start and stop ------------------------------ */

/* Start worker @i (its epoll loop and thread).  0, or -1 with errno. */
int srv_worker_start(struct srv *s, int i)
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

void srv_workers_stop(struct srv *s, struct srv_stats *st)
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
			srv_conn_close(w, w->list);
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
