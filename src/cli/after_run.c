/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * after_run.c - a signal after the run, while its report is printed and
 * its JSON result written (after_run.h).  Before, the run's signals were
 * held until the program exited: Ctrl-C then did nothing, and a JSON
 * write stuck on a filesystem that did not answer could only be killed.
 */
#include "after_run.h"

#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "stopsig.h"

static void *unlink_tmp(void *arg)
{
	unlink(arg);
	return NULL;
}

/* Remove the named temporary file, if there is one, waiting a second at
 * most: the unlink waits for the file's inode, which a stuck write or
 * fsync holds, and the exit must not wait for that. */
static void remove_tmp(struct after_run *a)
{
	struct timespec t;
	pthread_t tid;

	if (!a->tmp[0] || pthread_create(&tid, NULL, unlink_tmp, a->tmp))
		return;
	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_sec += 1;
	if (pthread_timedjoin_np(tid, NULL, &t))
		fprintf(stderr,
			"dbench-ng: %s is left: its filesystem does "
			"not answer\n",
			a->tmp);
}

static void *watch(void *arg)
{
	struct after_run *a = arg;
	struct pollfd pfd[2] = {{.fd = a->sfd, .events = POLLIN},
				{.fd = a->efd, .events = POLLIN}};
	struct signalfd_siginfo si;

	for (;;) {
		if (poll(pfd, 2, -1) < 0)
			continue;
		if (pfd[1].revents)
			return NULL;
		if (read(a->sfd, &si, sizeof(si)) != sizeof(si))
			continue;
		/* every later line to a closed pipe raises it again */
		if (si.ssi_signo == SIGPIPE && (a->quiet_pipe || a->sig))
			continue;
		if (!a->sig) {
			a->sig = (int)si.ssi_signo;
			fprintf(stderr,
				"dbench-ng: %s (signal %d, %s) after the run: "
				"finishing its report and result first (a "
				"second signal abandons them)\n",
				a->sig == SIGPIPE
					? "the output is a closed pipe"
					: "interrupted",
				a->sig, strsignal(a->sig));
			continue;
		}
		fprintf(stderr,
			"dbench-ng: signal %d (%s) again: the report and the "
			"JSON result abandoned\n",
			(int)si.ssi_signo, strsignal((int)si.ssi_signo));
		remove_tmp(a);
		_exit(128 + (int)si.ssi_signo);
	}
}

void after_run_begin(struct after_run *a, int st,
		     const struct file_pending *json)
{
	sigset_t set;

	memset(a, 0, sizeof(*a));
	a->quiet_pipe = st != 0;
	/* an unnamed (O_TMPFILE) file leaves nothing when the program
	 * exits; a named one is removed */
	if (json && json->tmp && !json->unnamed)
		snprintf(a->tmp, sizeof(a->tmp), "%s", json->tmp);
	stopsig_set(&set);
	a->sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	a->efd = eventfd(0, EFD_CLOEXEC);
	if (a->sfd < 0 || a->efd < 0 ||
	    pthread_create(&a->tid, NULL, watch, a)) {
		if (a->sfd >= 0)
			close(a->sfd);
		if (a->efd >= 0)
			close(a->efd);
		return;
	}
	a->started = true;
}

int after_run_end(struct after_run *a)
{
	uint64_t one = 1;

	if (!a->started)
		return 0;
	if (write(a->efd, &one, sizeof(one)) == sizeof(one))
		pthread_join(a->tid, NULL);
	else
		pthread_cancel(a->tid), pthread_join(a->tid, NULL);
	close(a->sfd);
	close(a->efd);
	a->started = false;
	return a->sig;
}
