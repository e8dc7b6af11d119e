/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_shm.c - the shared slots (shm.h): a process forked after
 * shm_fork_parts() maps the header, its own slots and their histograms,
 * where the parent has them, and nothing of the other clients' (so that
 * freeing a generation unmaps each page from two processes, not from
 * every client); what it writes there the parent reads, and the parent's
 * flags it sees; below RLIMIT_FSIZE, anonymous memory inherited whole.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "shm.h"

#define NCL 5

/* is the page at @p mapped in this process? */
static bool mapped(const volatile void *p)
{
	void *page = (void *)((uintptr_t)p & ~(uintptr_t)4095);

	return !msync(page, 4096, MS_ASYNC) || errno != ENOMEM;
}

/* the child of clients [first, first + n): what it may and may not see */
static int child(struct shm *s, int fd, int first, int n)
{
	if (mapped(&s->hdr))
		return 1; /* inherited: shm_fork_parts did nothing */
	if (shm_attach(s, NCL, fd, first, n))
		return 2;
	if (!mapped(&s->hdr) || s->hdr.go != 7)
		return 3;
	for (int i = 0; i < NCL; i++) {
		bool own = i >= first && i < first + n;

		for (unsigned int g = 0; g < SS_GENS; g++) {
			char *pool = shm_pool(s, i, g);

			if (mapped(shm_gen(s, i, g)) != own ||
			    mapped(pool + SS_GEN_POOL - 1) != own)
				return 4;
		}
		/* a slot's pages are its own (aligned): none of another's */
		if (mapped(&s->slot[i].lines) != own ||
		    mapped(&s->slot[i].pass[PASS_RING - 1]) != own)
			return 5;
	}
	for (int i = first; i < first + n; i++) {
		s->slot[i].lines = 100 + (uint64_t)i;
		shm_record(s, i, SS_HIST(SS_OP, 0), 1000);
		shm_gen(s, i, 1)->h[0].count = 5;
	}
	return 0;
}

static void test_parts(void **state)
{
	struct shm *s = shm_alloc(NCL);
	int fd, st;
	pid_t pid;

	(void)state;
	assert_non_null(s);
	s->hdr.go = 7;
	fd = shm_fork_parts(s, NCL);
	assert_true(fd >= 0);
	pid = fork();
	if (pid == 0)
		_exit(child(s, fd, 1, 2));
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	for (int i = 0; i < NCL; i++) {
		bool own = i == 1 || i == 2;

		assert_int_equal(s->slot[i].lines, own ? 100 + (uint64_t)i : 0);
		assert_int_equal(shm_head(s, i, 0, SS_HIST(SS_OP, 0))->count,
				 own ? 1 : 0);
		assert_int_equal(shm_gen(s, i, 1)->h[0].count, own ? 5 : 0);
	}
	shm_free(s, NCL);
}

/* without shm_fork_parts a child inherits all of it, as before */
static void test_whole(void **state)
{
	struct shm *s = shm_alloc(NCL);
	int st;
	pid_t pid;

	(void)state;
	assert_non_null(s);
	pid = fork();
	if (pid == 0) {
		s->slot[NCL - 1].lines = 9;
		_exit(mapped(shm_gen(s, 0, 1)) ? 0 : 1);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_int_equal(s->slot[NCL - 1].lines, 9);
	shm_free(s, NCL);
}

/* below RLIMIT_FSIZE no memfd: shared anonymous memory, inherited whole
 * (shm_fork_parts says so); in a child, whose limit dies with it */
static int small_fsize(void)
{
	struct rlimit rl;
	struct shm *s;

	if (getrlimit(RLIMIT_FSIZE, &rl))
		return 3;
	rl.rlim_cur = 4096;
	if (setrlimit(RLIMIT_FSIZE, &rl))
		return 1;
	s = shm_alloc(NCL);
	if (!s || s->hdr.fd != -1 || shm_fork_parts(s, NCL) != -1)
		return 2;
	shm_gen(s, NCL - 1, 1)->h[0].count = 1; /* all of it is there */
	shm_free(s, NCL);
	return 0;
}

static void test_small_fsize(void **state)
{
	int st;
	pid_t pid = fork();

	(void)state;
	if (pid == 0)
		_exit(small_fsize());
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parts),
		cmocka_unit_test(test_whole),
		cmocka_unit_test(test_small_fsize),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
