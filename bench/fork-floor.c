/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fork-floor.c - what N processes cost this machine to start and to end
 * with nothing of dbench-ng in them: the floor under scale.sh's release
 * and past columns.  The parent forks N children that wait at a barrier
 * (a pipe, as dbench-ng's clients do), then releases them; each reads the
 * clock in a loop until the deadline (the release + SECS: a -B null
 * client's loop without its ops) and exits; the parent, at nice -20 where
 * it may be (as dbench-ng's), sleeps until the deadline and reaps them
 * all.  It prints the lines scale.sh reads ("minimum warmup 0 secs",
 * "releasing clients"), then when the last child was reaped.
 *
 * Usage: fork-floor N SECS     (built and run by scale.sh)
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"

static void __attribute__((noreturn)) child(int rd, volatile uint64_t *end)
{
	char c;

	while (read(rd, &c, 1) < 0 && errno == EINTR)
		;
	while (clock_ns() <= *end)
		;
	_exit(0);
}

int main(int argc, char **argv)
{
	volatile uint64_t *end;
	uint64_t t_fork, t_rel, half = 0, last = 0;
	struct timespec ts;
	int n, secs, fd[2], bad = 0, left;
	pid_t *pids;

	if (argc != 3 || (n = atoi(argv[1])) < 1 ||
	    (secs = atoi(argv[2])) < 1) {
		fprintf(stderr, "usage: fork-floor N SECS\n");
		return 2;
	}
	end = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pids = calloc((size_t)n, sizeof(*pids));
	if (end == MAP_FAILED || !pids || pipe(fd)) {
		fprintf(stderr, "fork-floor: %s\n", strerror(errno));
		return 2;
	}
	*end = UINT64_MAX;
	printf("fork-floor: %d processes, -t %d, minimum warmup 0 secs\n", n,
	       secs);
	fflush(stdout);
	t_fork = clock_ns();
	for (int i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			close(fd[1]);
			child(fd[0], end);
		}
		if (pids[i] < 0) {
			fprintf(stderr, "fork-floor: fork %d of %d: %s\n",
				i + 1, n, strerror(errno));
			for (int k = 0; k < i; k++)
				kill(pids[k], SIGKILL);
			while (wait(NULL) > 0)
				;
			return 2;
		}
	}
	setpriority(PRIO_PROCESS, 0, -20); /* as dbench-ng's; may fail */
	t_rel = clock_ns();
	*end = t_rel + (uint64_t)secs * (uint64_t)NSEC_PER_SEC;
	printf("%d processes forked in %.3f s\nreleasing clients\n", n,
	       (double)(t_rel - t_fork) / 1e9);
	fflush(stdout);
	close(fd[1]);
	ts.tv_sec = (time_t)(*end / NSEC_PER_SEC);
	ts.tv_nsec = (long)(*end % NSEC_PER_SEC);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
	for (left = n; left > 0;) {
		int st;
		pid_t p = waitpid(-1, &st, 0);

		if (p < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		bad += !WIFEXITED(st) || WEXITSTATUS(st);
		if (--left == n / 2)
			half = clock_ns();
	}
	last = clock_ns();
	if (!half)
		half = last;
	printf("half reaped %.3f s, all %.3f s after the end%s\n",
	       (double)(half - *end) / 1e9, (double)(last - *end) / 1e9,
	       bad ? " (some failed)" : "");
	return bad || left ? 1 : 0;
}
