/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * runner_procs.c - the client processes of a run (design.md §4): fork,
 * the child's life (its signals, the barrier, its clients' loop and
 * clean-up, PR_SET_PDEATHSIG), and the parent's side: reaping, the
 * signals that stop a run, the wait until every process is ready.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "client.h"
#include "reapwalk.h"
#include "stopsig.h"

#include "runner_impl.h"

#define SETUP_TIMEOUT_S 30

/* ---------------------------- the children ----------------------------- */

static struct shm_hdr *child_hdr;
static volatile sig_atomic_t parent_died;

/* The first reason stays: a SIGTERM after a failure or the time limit
 * changes nothing (stop_signal counts only with STOP_SIGNAL) */
static void child_stop(int sig)
{
	uint32_t none = 0;

	__atomic_compare_exchange_n(&child_hdr->stop_signal, &none,
				    (uint32_t)sig, false, __ATOMIC_SEQ_CST,
				    __ATOMIC_SEQ_CST);
	shm_hdr_set_stop(child_hdr, STOP_SIGNAL);
}

/* PR_SET_PDEATHSIG's own signal, so that a client can tell its parent's
 * death from a SIGTERM sent to it: it stops as for SIGTERM */
static void child_parent_died(int sig)
{
	(void)sig;
	parent_died = 1;
	child_stop(SIGTERM);
}

/*
 * Whether the parent is gone, so that the last client out removes what its
 * fini would have (orphaned).  The kernel sends PR_SET_PDEATHSIG when the
 * parent's main thread exits, before the parent's other threads (the
 * watchdog) have: until the last is gone getppid() still names the parent.
 * A client that cleaned up in that gap took its parent for alive, and
 * nobody removed DIR/clients (seen beside other work).  So a client whose
 * parent died waits for its re-parenting, up to 2 s.
 */
static bool parent_gone(const struct runner *r)
{
	for (int i = 0; parent_died && i < 400; i++) {
		if (getppid() != r->parent)
			return true;
		usleep(5000);
	}
	return getppid() != r->parent;
}

static void __attribute__((noreturn)) child_main(struct runner *r, int proc)
{
	const struct config *cfg = r->cfg;
	/* SA_RESTART: a call the signal interrupts goes on (the stop is
	 * seen after the op; the barrier's read ends with the release or
	 * the parent's death), rather than failing the op with EINTR */
	struct sigaction sa = {.sa_handler = child_stop,
			       .sa_flags = SA_RESTART};
	struct sigaction died = {.sa_handler = child_parent_died,
				 .sa_flags = SA_RESTART};
	struct client *cls;
	sigset_t all;
	char c;
	int n = cfg->cpp, rc = 0;
	ssize_t got;

	/* first: nothing of the shared memory is mapped here until then */
	if (r->shm_fd >= 0) {
		if (shm_attach(r->shm, cfg->nclients, r->shm_fd, proc * n, n))
			_exit(3);
		close(r->shm_fd);
	}
	child_hdr = &r->shm->hdr;
	sigaction(SIGTERM, &sa, NULL);
	if (!stopsig_inherited_ign(SIGHUP)) /* nohup: keep ignoring it */
		sigaction(SIGHUP, &sa, NULL);
	signal(SIGINT, SIG_IGN); /* Ctrl-C: the parent stops us */
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	/* a rank's clients leave its process group: when a rank dies,
	 * mpirun signals every other rank's group, SIGTERM then SIGKILL a
	 * second later, which would kill clients in the midst of removing
	 * their trees.  Their rank stops them, or the kernel does when it
	 * dies (PR_SET_PDEATHSIG), and they clean up as on one host */
	if (r->co)
		setpgid(0, 0);
	sigaction(SIGRTMIN + 1, &died, NULL);
	prctl(PR_SET_PDEATHSIG, SIGRTMIN + 1);
	if (getppid() != r->parent)
		_exit(3);
	close(r->sigfd);
	close(r->barrier[1]);

	cls = calloc((size_t)n, sizeof(*cls));
	if (!cls)
		_exit(3);
	for (int i = 0; i < n; i++) {
		int id = r->first + proc * n + i;
		struct client *cl = &cls[i];

		if (client_init(cl, id, cfg, prog_of(r, id), r->b, r->run,
				r->shm) ||
		    (r->b->setup && r->b->setup(&cl->be)))
			_exit(3);
		client_set_foreign(cl, foreign_counter(r->fg, proc));
		cl->slot->state = SLOT_READY;
	}
	do {
		got = read(r->barrier[0], &c, 1);
	} while (got < 0 && errno == EINTR && !child_hdr->stop);
	if (!child_hdr->go || child_hdr->stop == STOP_SIGNAL)
		goto out; /* the parent went away before the start */

	rc = client_loop(cls, n);
out:
	for (int i = 0; i < n; i++) {
		if (cls[i].slot->state != SLOT_FAILED)
			cls[i].slot->state = SLOT_CLEANUP;
		if (!cfg->skip_cleanup) {
			client_release_all(&cls[i]);
			if (r->b->cleanup)
				r->b->cleanup(&cls[i].be);
		}
		cls[i].slot->cleaned = 1;
		if (cls[i].slot->state != SLOT_FAILED)
			cls[i].slot->state = SLOT_DONE;
	}
	/* a killed parent never runs fini: the last client out undoes
	 * what init made (DIR/clients), as fini would have */
	if (!cfg->skip_cleanup && r->b->orphaned && parent_gone(r))
		r->b->orphaned(r->run);
	_exit(rc);
}

/* ----------------------------- the parent ------------------------------ */

static void kill_all(struct runner *r, int sig)
{
	for (int p = 0; p < r->cfg->nprocs; p++) {
		if (!r->reaped[p])
			kill(r->pids[p], sig);
	}
}

/* The message for process @p killed by @sig: which clients, and the op
 * each was running (loadfile line) when it died. */
static void describe_death(struct runner *r, int p, pid_t pid, int sig,
			   char *buf)
{
	int cpp = r->cfg->cpp, n;

	n = snprintf(buf, SLOT_MSG,
		     "client process %d (pid %d) was killed "
		     "by signal %d (%s)",
		     r->first / cpp + p, (int)pid, sig, strsignal(sig));
	for (int i = p * cpp; i < (p + 1) * cpp && n > 0 && n < SLOT_MSG; i++) {
		const struct client_slot *s = slot(r, i);
		const struct program *prog = prog_of(r, r->first + i);
		const struct lf_op *op = &prog->ops[s->cur_op];

		if (s->state != SLOT_RUNNING)
			continue;
		n += snprintf(buf + n, SLOT_MSG - (size_t)n,
			      "; client %d was running %s at %s:%u",
			      r->first + i, op_info[op->type].keyword,
			      prog->name, op->line);
	}
}

/*
 * Reap the children that have exited, @want or any (-1); note failures.
 * A wait for one pid costs the kernel a look at that child, one for any a
 * walk over every child, and 10000 clients that exit at the end made that
 * 10000 walks of 10000 (seconds): the signalfd names the child of each
 * SIGCHLD, and the walk is left to runner_wait_events, once a SIGCHLD
 * was read: at most every REAP_WALK_NS while children exit, and when a
 * wait ends (reapwalk.h: a SIGCHLD that came while another was pending
 * names no child).
 */
static void reap(struct runner *r, pid_t want)
{
	int st;
	pid_t pid;

	while ((pid = waitpid(want, &st, WNOHANG)) > 0) {
		int p;

		for (p = 0; p < r->cfg->nprocs && r->pids[p] != pid; p++)
			;
		if (p == r->cfg->nprocs)
			continue;
		r->reaped[p] = true;
		r->nalive--;
		if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
			continue;
		if (r->killed && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
			continue; /* we killed it: an interrupted run */
		r->failed = true;
		shm_set_stop(r->shm, STOP_FAILED);
		if (WIFSIGNALED(st) && r->ndeaths < 4)
			describe_death(r, p, pid, WTERMSIG(st),
				       r->deaths[r->ndeaths++]);
		if (want > 0)
			break;
	}
}

/* Handle pending signals; returns false if the signalfd failed. */
void runner_drain_signals(struct runner *r)
{
	struct signalfd_siginfo si;

	while (read(r->sigfd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGCHLD) {
			reap(r, (pid_t)si.ssi_pid);
			reapwalk_sigchld(&r->rw); /* others may have merged */
			continue;
		}
		if (!r->interrupted) {
			r->interrupted = (int)si.ssi_signo;
			r->after_end =
				shm_set_stop(r->shm, STOP_SIGNAL) == STOP_TIME;
			/* across hosts: this one ends alone (mpirun ends the
			 * others when it ends, or sent the signal itself) */
			if (r->co)
				coord_lose(r->co);
			r->lost_ns = clock_ns();
			if (r->after_end)
				fprintf(stderr,
					"dbench-ng: signal %d (%s) after the "
					"time limit: the run is complete, "
					"its clean-up goes on\n",
					r->interrupted,
					strsignal(r->interrupted));
			else if (si.ssi_signo == SIGPIPE)
				fprintf(stderr,
					"dbench-ng: the output is a "
					"closed pipe (signal %d, %s): "
					"stopping the clients\n",
					SIGPIPE, strsignal(SIGPIPE));
			else
				fprintf(stderr,
					"dbench-ng: interrupted by "
					"signal %d (%s): stopping the "
					"clients\n",
					r->interrupted,
					strsignal(r->interrupted));
		} else if (si.ssi_signo == SIGPIPE) {
			continue; /* every later line to the pipe raises it */
		} else if (!r->killed) {
			/* a second signal: do not wait for stuck clients */
			r->killed = true;
			kill_all(r, SIGKILL);
			fprintf(stderr,
				"dbench-ng: signal %d (%s) again: "
				"killing the clients\n",
				(int)si.ssi_signo,
				strsignal((int)si.ssi_signo));
		} else {
			kill_all(r, SIGKILL);
		}
	}
}

void runner_wait_events(struct runner *r, uint64_t until)
{
	struct pollfd pfd = {.fd = r->sigfd, .events = POLLIN};
	uint64_t now = clock_ns(), end = reapwalk_until(&r->rw, until);
	int ms =
		end > now
			? (int)((end - now + NSEC_PER_MSEC - 1) / NSEC_PER_MSEC)
			: 0;
	int rc = poll(&pfd, 1, ms);

	if (rc > 0)
		runner_drain_signals(r);
	if (reapwalk_due(&r->rw, clock_ns(), until, rc <= 0))
		reap(r, -1); /* the children no SIGCHLD named */
}

static int ready_procs(struct runner *r)
{
	int n = 0;

	for (int p = 0; p < r->cfg->nprocs; p++) {
		bool ok = true;

		for (int i = 0; i < r->cfg->cpp; i++)
			ok = ok &&
			     slot(r, p * r->cfg->cpp + i)->state == SLOT_READY;
		n += ok;
	}
	return n;
}

/* Wait until every process is at the barrier.  0, or an exit status. */
int runner_wait_ready(struct runner *r)
{
	uint64_t t0 = clock_ns(), next_print = t0;
	int last = -1, ready;

	r->ready_t0 = t0;
	for (;;) {
		uint64_t now = clock_ns();

		ready = ready_procs(r);
		if (ready != last || now >= next_print) {
			fprintf(r->out,
				"%d of %d processes prepared for launch %3.0f "
				"sec\n",
				ready, r->co ? r->co->nprocs : r->cfg->nprocs,
				(double)(now - t0) / 1e9);
			fflush(r->out);
			last = ready;
			next_print = now + NSEC_PER_SEC;
		}
		if (ready == r->cfg->nprocs)
			return 0;
		if (r->failed || r->interrupted)
			return -1;
		if (now - t0 > SETUP_TIMEOUT_S * NSEC_PER_SEC) {
			fprintf(stderr,
				"dbench-ng: only %d of %d processes "
				"were ready after %d s\n",
				ready, r->cfg->nprocs, SETUP_TIMEOUT_S);
			r->failed = true;
			return -1;
		}
		runner_wait_events(r, now + 100 * NSEC_PER_MSEC);
	}
}

int runner_start_children(struct runner *r)
{
	const struct config *cfg = r->cfg;
	sigset_t mask;

	stopsig_set(&mask);
	sigaddset(&mask, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &mask, NULL) ||
	    (r->sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK)) < 0 ||
	    pipe2(r->barrier, O_CLOEXEC)) {
		fprintf(stderr, "dbench-ng: cannot set up signals: %s\n",
			strerror(errno));
		return -1;
	}
	if (r->co) { /* watched while waiting for the other hosts */
		r->co->fd = r->sigfd;
		r->co->events = runner_coord_events;
		r->co->arg = r;
	}
	fflush(r->out);
	fflush(stderr);
	/* each client's process maps its own part of the slots (shm.c) */
	r->shm_fd = shm_fork_parts(r->shm, cfg->nclients);
	for (int p = 0; p < cfg->nprocs; p++) {
		pid_t pid = fork();

		if (pid < 0) {
			fprintf(stderr,
				"dbench-ng: fork of process %d of %d "
				"failed: %s\n",
				p + 1, cfg->nprocs, strerror(errno));
			r->failed = true;
			return -1;
		}
		if (pid == 0)
			child_main(r, p);
		r->pids[p] = pid;
		r->nalive++;
	}
	close(r->barrier[0]);
	return 0;
}
