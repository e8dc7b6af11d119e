/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * shm.c - allocate the shared client slots.  An anonymous MAP_SHARED
 * mapping: no SysV IPC (missing or broken in containers), gone when the
 * last process using it exits.  The histogram pool (slotstats.h) follows
 * the slots in it: 2 MB of address space per client, of which only the
 * pages a client writes become memory.
 */
#include "shm.h"

#include <stddef.h>
#include <sys/mman.h>

/* the slots, then the pool from a page boundary */
static size_t pool_off(int nclients)
{
	size_t n = sizeof(struct shm) +
		   (size_t)nclients * sizeof(struct client_slot);

	return (n + 4095) & ~(size_t)4095;
}

static size_t shm_size(int nclients)
{
	return pool_off(nclients) + (size_t)nclients * SS_POOL_BYTES;
}

struct shm *shm_alloc(int nclients)
{
	struct shm *s = mmap(NULL, shm_size(nclients), PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (s == MAP_FAILED)
		return NULL;
	s->hdr.pool_off = pool_off(nclients);
	return s;
}

void shm_free(struct shm *s, int nclients)
{
	if (s)
		munmap(s, shm_size(nclients));
}
