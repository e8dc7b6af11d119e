/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * imap.c - the loadfile compiler's interning: an open-addressing map from
 * a string or an integer to a dense index, and growable arrays.
 */
#include <stdlib.h>
#include <string.h>

#include "lf_impl.h"

uint64_t lf_hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h | 1;
}

uint64_t lf_hash_int(int64_t v)
{
	uint64_t h = (uint64_t)v * 0x9e3779b97f4a7c15ULL;

	return (h ^ (h >> 29)) | 1;
}

int lf_imap_grow(struct imap *m)
{
	uint32_t cap = m->cap ? m->cap * 2 : 256;
	uint64_t *hash = calloc(cap, sizeof(*hash));
	uint32_t *idx = calloc(cap, sizeof(*idx));

	if (!hash || !idx) {
		free(hash);
		free(idx);
		return -1;
	}
	for (uint32_t i = 0; i < m->cap; i++) {
		uint32_t j;

		if (!m->hash[i])
			continue;
		j = (uint32_t)m->hash[i] & (cap - 1);
		while (hash[j])
			j = (j + 1) & (cap - 1);
		hash[j] = m->hash[i];
		idx[j] = m->idx[i];
	}
	free(m->hash);
	free(m->idx);
	m->hash = hash;
	m->idx = idx;
	m->cap = cap;
	return 0;
}

void lf_imap_free(struct imap *m)
{
	free(m->hash);
	free(m->idx);
}

/* A growable array of pointers or integers. */
int lf_vec_grow(void **arr, uint32_t n, uint32_t *cap, size_t elem)
{
	void *p;
	uint32_t ncap;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 64;
	p = realloc(*arr, (size_t)ncap * elem);
	if (!p)
		return -1;
	*arr = p;
	*cap = ncap;
	return 0;
}

/*
 * Find @s among the strings *@tab (through map @m), adding a copy if new.
 * Returns the index or -1 (out of memory).
 */
int64_t lf_intern_str(struct imap *m, char ***tab, uint32_t *n, uint32_t *cap,
		      const char *s)
{
	uint64_t h = lf_hash_str(s);
	uint32_t j;

	if ((m->n + 1) * 2 > m->cap && lf_imap_grow(m))
		return -1;
	j = (uint32_t)h & (m->cap - 1);
	while (m->hash[j]) {
		if (m->hash[j] == h && !strcmp((*tab)[m->idx[j]], s))
			return m->idx[j];
		j = (j + 1) & (m->cap - 1);
	}
	if (lf_vec_grow((void **)tab, *n, cap, sizeof(char *)))
		return -1;
	(*tab)[*n] = strdup(s);
	if (!(*tab)[*n])
		return -1;
	m->hash[j] = h;
	m->idx[j] = *n;
	m->n++;
	return (*n)++;
}
