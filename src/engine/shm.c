/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * shm.c - allocate the shared client slots.  An anonymous MAP_SHARED
 * mapping: no SysV IPC (missing or broken in containers), gone when the
 * last process using it exits.  The histograms of each generation
 * (slotstats.h) follow the slots in it: 1 MB of address space per client
 * and generation, of which only the pages a client writes become memory.
 */
#include "shm.h"

#include <stddef.h>
#include <sys/mman.h>

/* the slots, then each generation's histograms from a page boundary */
static size_t gen_off(int nclients, int g)
{
	size_t n = sizeof(struct shm) +
		   (size_t)nclients * sizeof(struct client_slot);

	n = (n + 4095) & ~(size_t)4095;
	return n + (size_t)g * nclients * SS_GEN_STRIDE;
}

static size_t shm_size(int nclients)
{
	return gen_off(nclients, SS_GENS);
}

struct shm *shm_alloc(int nclients)
{
	struct shm *s = mmap(NULL, shm_size(nclients), PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (s == MAP_FAILED)
		return NULL;
	for (int g = 0; g < SS_GENS; g++)
		s->hdr.gen_off[g] = gen_off(nclients, g);
	return s;
}

void shm_free(struct shm *s, int nclients)
{
	if (s)
		munmap(s, shm_size(nclients));
}
