/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * server.c - the tbench server's run (server.h): the main thread sets up
 * (the descriptor limit, the signals SIGINT, SIGTERM and SIGHUP blocked
 * and read from a signalfd in its own epoll), listens and accepts
 * (listen.c) until a signal, then stops the workers (worker.c), closes
 * what is left and says what was served.  Also the notes every thread
 * prints: the first SRV_MAX_NOTES, the stop's summary counts them all.
 */
#include "srv_impl.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "clock.h"

/* ------------------------------ notes ---------------------------------- */

void __attribute__((format(printf, 2, 3)))
srv_note(struct srv *s, const char *fmt, ...)
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

/* ------------------------------ the run -------------------------------- */

/* As many descriptors as the hard limit allows: a connection is one. */
static void raise_nofile(void)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
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
	if (srv_listen_open(&s))
		goto out;
	{
		struct epoll_event ev = {.events = EPOLLIN, .data.u32 = 0};

		if (epoll_ctl(s.ep, EPOLL_CTL_ADD, s.sigfd, &ev) ||
		    srv_listeners_ctl(&s, EPOLL_CTL_ADD)) {
			fprintf(cfg->err, "%s: epoll: %s\n", cfg->name,
				strerror(errno));
			goto out;
		}
	}
	s.w = calloc((size_t)cfg->threads, sizeof(*s.w));
	if (!s.w || srv_worker_start(&s, 0)) {
		fprintf(cfg->err, "%s: cannot start a thread: %s\n", cfg->name,
			strerror(errno));
		goto out;
	}
	s.nw = cfg->threads;
	t0 = clock_ns();
	fprintf(cfg->out, "waiting for connections\n");
	fflush(cfg->out);
	srv_say_listening(&s);

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
			srv_listeners_ctl(&s, EPOLL_CTL_ADD);
		}
		for (int i = 0; i < n; i++) {
			struct signalfd_siginfo si;

			if (ev[i].data.u32) {
				if (!paused &&
				    !srv_accept_all(&s, (int)ev[i].data.u32 - 1,
						    &st->conns, &max_open)) {
					paused = true;
					srv_listeners_ctl(&s, EPOLL_CTL_DEL);
				}
				continue;
			}
			if (read(s.sigfd, &si, sizeof(si)) == sizeof(si))
				st->signal = (int)si.ssi_signo;
		}
	}
	rc = 0;
out:
	srv_workers_stop(&s, st);
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
