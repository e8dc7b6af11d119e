/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * shm.c - allocate the shared client slots.  An anonymous MAP_SHARED
 * mapping: no SysV IPC (missing or broken in containers), gone when the
 * last process using it exits.
 */
#include "shm.h"

#include <stddef.h>
#include <sys/mman.h>

static size_t shm_size(int nclients)
{
	return sizeof(struct shm) +
	       (size_t)nclients * sizeof(struct client_slot);
}

struct shm *shm_alloc(int nclients)
{
	void *p = mmap(NULL, shm_size(nclients), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	return p;
}

void shm_free(struct shm *s, int nclients)
{
	if (s)
		munmap(s, shm_size(nclients));
}
