/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * shm.c - allocate the shared client slots.  A memfd mapped MAP_SHARED:
 * no SysV IPC (missing or broken in containers), gone when the last
 * process using it exits.  The histograms of each generation
 * (slotstats.h) follow the slots in it: 2 MB of address space per client
 * and generation, of which only the pages a client writes become memory.
 *
 * The parent maps it whole; a client's process maps only the header, its
 * slots and their histograms (shm_fork_parts, shm_attach).  Freeing the
 * warmup's histograms (ss_release_gen) unmaps each of their pages from
 * every process that maps it: with 10000 processes mapping all of it,
 * that one call took 69 s of CPU, with each mapping only its own, a
 * page is in two.
 */
#include "shm.h"

#include <stddef.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

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
	struct shm *s = MAP_FAILED;
	struct rlimit fl;
	int fd = -1;

	/* a memfd is a file: one larger than RLIMIT_FSIZE is refused (and
	 * its ftruncate sends SIGXFSZ), so not tried */
	if (!getrlimit(RLIMIT_FSIZE, &fl) &&
	    (fl.rlim_cur == RLIM_INFINITY ||
	     fl.rlim_cur >= (rlim_t)shm_size(nclients)))
		fd = memfd_create("dbench-ng", MFD_CLOEXEC);
	if (fd >= 0 && !ftruncate(fd, (off_t)shm_size(nclients)))
		s = mmap(NULL, shm_size(nclients), PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_NORESERVE, fd, 0);
	if (s == MAP_FAILED && fd >= 0) {
		/* no memfd of that size: shared anonymous memory, which
		 * every client maps whole */
		close(fd);
		fd = -1;
	}
	if (fd < 0)
		s = mmap(NULL, shm_size(nclients), PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (s == MAP_FAILED)
		return NULL;
	s->hdr.fd = fd;
	for (int g = 0; g < SS_GENS; g++)
		s->hdr.gen_off[g] = gen_off(nclients, g);
	return s;
}

void shm_free(struct shm *s, int nclients)
{
	if (!s)
		return;
	if (s->hdr.fd >= 0)
		close(s->hdr.fd);
	munmap(s, shm_size(nclients));
}

int shm_fork_parts(struct shm *s, int nclients)
{
	if (s->hdr.fd < 0 || madvise(s, shm_size(nclients), MADV_DONTFORK))
		return -1;
	return s->hdr.fd;
}

/* Map [@off, @off + @len) of the memfd @fd where the parent has it, in
 * whole pages */
static int map_part(struct shm *s, int fd, size_t off, size_t len)
{
	size_t a = off & ~(size_t)4095, b = (off + len + 4095) & ~(size_t)4095;
	void *at = (char *)s + a, *p;

	p = mmap(at, b - a, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_NORESERVE | MAP_FIXED_NOREPLACE, fd,
		 (off_t)a);
	if (p == at)
		/* cppcheck-suppress memleak ; the client's for its life */
		return 0;
	/* a kernel before 4.17 takes the address as a hint only */
	if (p != MAP_FAILED)
		munmap(p, b - a);
	return -1;
}

int shm_attach(struct shm *s, int nclients, int fd, int first, int n)
{
	size_t slot0 = offsetof(struct shm, slot);

	if (map_part(s, fd, 0, sizeof(struct shm_hdr)) ||
	    map_part(s, fd, slot0 + (size_t)first * sizeof(struct client_slot),
		     (size_t)n * sizeof(struct client_slot)))
		return -1;
	for (int g = 0; g < SS_GENS; g++)
		if (map_part(s, fd,
			     gen_off(nclients, g) +
				     (size_t)first * SS_GEN_STRIDE,
			     (size_t)n * SS_GEN_STRIDE))
			return -1;
	return 0;
}
