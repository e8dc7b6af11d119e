/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * srv_impl.h - what the files of the tbench server share (server.h is the
 * interface): a connection, a worker (one epoll loop and its thread), the
 * server, and the functions each file offers the others.  server.c runs
 * the main thread, listen.c listens and accepts, worker.c serves.
 */
#ifndef DBNG_SRV_IMPL_H
#define DBNG_SRV_IMPL_H

#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "frame.h"
#include "server.h"

#define RBUF	65536 /* a worker's receive buffer */
#define NEVENTS 64
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

/* ------------------------ server.c: the run ---------------------------- */

/* srv_note - a note on cfg->err, the first SRV_MAX_NOTES of the run only
 * (the last of them says so); any thread */
void __attribute__((format(printf, 2, 3)))
srv_note(struct srv *s, const char *fmt, ...);

/* ------------------ listen.c: listening and accepting ------------------ */

/* srv_addr_text - "127.0.0.1:4711" or "[::1]:4711" of @sa into @buf */
void srv_addr_text(const struct sockaddr *sa, socklen_t len, char *buf,
		   size_t blen);
/* srv_listen_open - the listening sockets of cfg->bind (or the default)
 * into s->lfd.  0, or -1 after a message. */
int srv_listen_open(struct srv *s);
/* srv_listeners_ctl - put the listeners into (EPOLL_CTL_ADD: 0 or -1) or
 * out of (EPOLL_CTL_DEL) the main epoll */
int srv_listeners_ctl(struct srv *s, int op);
/* srv_accept_all - accept what is pending on listener @i, handing each
 * connection to a worker in turn (@conns counts them, @max_open the most
 * open at once).  false when out of descriptors (accepting pauses). */
bool srv_accept_all(struct srv *s, int i, uint64_t *conns, uint64_t *max_open);
/* srv_say_listening - the addresses listened on, the threads, the limit */
void srv_say_listening(struct srv *s);

/* -------------------- worker.c: serving connections -------------------- */

/* srv_worker_start - start worker @i (its epoll loop and thread).  0, or
 * -1 with errno. */
int srv_worker_start(struct srv *s, int i);
/* srv_workers_stop - end every worker's loop, join it, close what it
 * still holds, add its counters to @st, free them all */
void srv_workers_stop(struct srv *s, struct srv_stats *st);
/* srv_conn_close - close @c and take it out of @w's list */
void srv_conn_close(struct worker *w, struct conn *c);

#endif
