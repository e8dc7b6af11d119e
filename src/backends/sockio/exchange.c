/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * exchange.c - the hot path of the sockio backend: every op of the
 * loadfile is one request and one reply on the client's connection, of
 * the sizes tbench 4.0 uses (sockio.h).  A request is the client's
 * buffer as it is (two length words, then zeros): one send().  A reply
 * of up to SOCKIO_RBUF bytes comes in with one recv() as a rule (tbench
 * makes two: the length word, then the rest); of a longer one only the
 * length word is read, the rest is discarded by the kernel (MSG_TRUNC),
 * never copied.  The length word is checked as soon as it is in.  No string
 * work; failures are put into words on the cold path only.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sockio.h"

#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* What the loadfile's status expects, as the null backend does: tbench
 * checks no status, so nothing may look like a mismatch. */
static inline int expected(const struct lf_op *op)
{
	enum op_policy pol;

	if (likely(op->expect != LF_EXPECT_FAIL))
		return 0;
	pol = op_info[op->type].policy;
	return pol == OP_POL_WARN || pol == OP_POL_FATAL ? -ENOENT : 0;
}

static const char *what(const struct lf_op *op)
{
	return op ? op_info[op->type].keyword : "handshake";
}

/* A send() or recv() failed with @err (0: the connection was closed). */
static int __attribute__((noinline))
io_fail(struct be_client *c, const struct lf_op *op, bool sending, size_t done,
	uint32_t len, int err)
{
	if (!err || err == ECONNRESET || err == EPIPE)
		be_fail(c, op,
			"%s: the server at %s closed the connection "
			"(%s, %zu of the %u bytes of the %s %s)",
			what(op), sockio_g.where,
			err ? strerror(err) : "end of file", done, len,
			sending ? "request" : "reply",
			sending ? "sent" : "received");
	else if (err == EAGAIN || err == EWOULDBLOCK)
		be_fail(c, op,
			"%s: no %s within the %s of -T (%zu of %u "
			"bytes %s)",
			what(op),
			sending ? "progress sending the request" : "reply",
			sending ? "SO_SNDTIMEO" : "SO_RCVTIMEO", done, len,
			sending ? "sent" : "received");
	else
		be_fail(c, op, "%s: %s the server at %s: %s (%zu of %u bytes)",
			what(op), sending ? "sending to" : "receiving from",
			sockio_g.where, strerror(err), done, len);
	return BE_REPORTED;
}

static int __attribute__((noinline))
lost_sync(struct be_client *c, const struct lf_op *op, uint32_t got,
	  uint32_t want)
{
	be_fail(c, op,
		"%s: lost sync with the server at %s: its reply's "
		"length word is %u, expected %u",
		what(op), sockio_g.where, got, want);
	return BE_REPORTED;
}

static int __attribute__((noinline))
too_big(struct be_client *c, const struct lf_op *op, uint64_t s, uint64_t r)
{
	be_fail(c, op,
		"%s: an exchange of %llu bytes sent and %llu received "
		"is over the limit of %u bytes",
		what(op), (unsigned long long)s, (unsigned long long)r,
		SOCKIO_MAX_MSG);
	return BE_REPORTED;
}

/*
 * Receive @len bytes of TCP data and throw them away: with MSG_TRUNC
 * the kernel discards them and writes nothing to @buf (tcp_recvmsg), so
 * @buf needs no room for them.  The system call itself, not libc's
 * recv(): a sanitizer's recv() takes @buf as written for what it
 * returns.
 */
static inline ssize_t discard(int fd, void *buf, size_t len)
{
	return syscall(SYS_recvfrom, fd, buf, len, MSG_TRUNC | MSG_WAITALL,
		       NULL, NULL);
}

int sockio_exchange(struct be_client *c, const struct lf_op *op, uint32_t s,
		    uint32_t r)
{
	struct sockio_client *sc = c->priv;
	/* a small reply whole, a larger one's length word alone: the rest
	 * of it is discarded by the kernel, not copied */
	uint32_t w, want = r <= SOCKIO_RBUF ? r : 4;
	size_t done = 0;
	ssize_t n;

	w = htonl(s - 4);
	memcpy(sc->buf, &w, 4);
	w = htonl(r - 4);
	memcpy(sc->buf + 4, &w, 4);
	while (done < s) {
		n = send(sc->fd, sc->buf + done, s - done, MSG_NOSIGNAL);
		if (unlikely(n <= 0)) {
			if (n < 0 && errno == EINTR)
				continue;
			return io_fail(c, op, true, done, s, n ? errno : 0);
		}
		done += (size_t)n;
	}
	/* the reply: its length word checked as soon as it is in, the rest
	 * of a small one read with it, the rest of a larger one discarded */
	for (done = 0; done < want;) {
		n = recv(sc->fd, sc->rbuf + done, want - done, 0);
		if (unlikely(n <= 0)) {
			if (n < 0 && errno == EINTR)
				continue;
			return io_fail(c, op, false, done, r, n ? errno : 0);
		}
		if (done < 4 && done + (size_t)n >= 4) {
			memcpy(&w, sc->rbuf, 4);
			if (unlikely(ntohl(w) != r - 4))
				return lost_sync(c, op, ntohl(w), r - 4);
		}
		done += (size_t)n;
	}
	while (done < r) {
		n = discard(sc->fd, sc->rbuf, r - done);
		if (unlikely(n <= 0)) {
			if (n < 0 && errno == EINTR)
				continue;
			return io_fail(c, op, false, done, r, n ? errno : 0);
		}
		done += (size_t)n;
	}
	return 0;
}

int sockio_op(struct be_client *c, const struct lf_op *op, be_handle *h)
{
	struct sockio_client *sc = c->priv;
	uint64_t s, r;

	(void)h;
	if (!sockio_sizes(op, sc->plen, &s, &r))
		return expected(op); /* Deltree: nothing on the wire */
	if (unlikely(s > sc->bufsize || r > SOCKIO_MAX_MSG))
		return too_big(c, op, s, r);
	if (unlikely(sockio_exchange(c, op, (uint32_t)s, (uint32_t)r)))
		return BE_REPORTED;
	return expected(op);
}
