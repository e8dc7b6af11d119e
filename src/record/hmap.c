/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * hmap.c - the hash maps of hmap.h.
 */
#include "hmap.h"

#include <stdlib.h>
#include <string.h>

static char gone_key;
#define STRMAP_GONE (&gone_key)

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static uint64_t hash_int(int64_t k)
{
	uint64_t h = (uint64_t)k * 0x9e3779b97f4a7c15ull;

	return h ^ (h >> 29);
}

/* the slot of @key, or of the first free place on its probe path */
static size_t str_slot(const struct strmap *m, const char *key, bool *found)
{
	size_t mask = m->cap - 1, i = hash_str(key) & mask, free_at = SIZE_MAX;

	for (;; i = (i + 1) & mask) {
		char *k = m->key[i];

		if (!k) {
			*found = false;
			return free_at != SIZE_MAX ? free_at : i;
		}
		if (k == STRMAP_GONE) {
			if (free_at == SIZE_MAX)
				free_at = i;
		} else if (!strcmp(k, key)) {
			*found = true;
			return i;
		}
	}
}

static int str_grow(struct strmap *m)
{
	struct strmap n = {0};

	n.cap = m->cap ? m->cap * 2 : 64;
	if (m->live * 4 < m->cap)
		n.cap = m->cap; /* mostly tombstones: same size, cleaned */
	n.key = calloc(n.cap, sizeof(*n.key));
	n.val = calloc(n.cap, sizeof(*n.val));
	if (!n.key || !n.val) {
		free(n.key);
		free(n.val);
		return -1;
	}
	for (size_t i = 0; i < m->cap; i++) {
		bool f;
		size_t j;

		if (!m->key[i] || m->key[i] == STRMAP_GONE)
			continue;
		j = str_slot(&n, m->key[i], &f);
		n.key[j] = m->key[i];
		n.val[j] = m->val[i];
		n.used++;
		n.live++;
	}
	free(m->key);
	free(m->val);
	*m = n;
	return 0;
}

bool strmap_get(const struct strmap *m, const char *key, uint32_t *val)
{
	bool found;
	size_t i;

	if (!m->cap)
		return false;
	i = str_slot(m, key, &found);
	if (found)
		*val = m->val[i];
	return found;
}

int strmap_put(struct strmap *m, const char *key, uint32_t val)
{
	bool found;
	size_t i;

	if ((m->used + 1) * 4 >= m->cap * 3 && str_grow(m))
		return -1;
	i = str_slot(m, key, &found);
	if (!found) {
		char *k = strdup(key);

		if (!k)
			return -1;
		if (!m->key[i])
			m->used++;
		m->key[i] = k;
		m->live++;
	}
	m->val[i] = val;
	return 0;
}

void strmap_del(struct strmap *m, const char *key)
{
	bool found;
	size_t i;

	if (!m->cap)
		return;
	i = str_slot(m, key, &found);
	if (!found)
		return;
	free(m->key[i]);
	m->key[i] = STRMAP_GONE;
	m->live--;
}

void strmap_free(struct strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		if (m->key[i] != STRMAP_GONE)
			free(m->key[i]);
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof(*m));
}

static size_t int_slot(const struct intmap *m, int64_t key, bool *found)
{
	size_t mask = m->cap - 1, i = hash_int(key) & mask, free_at = SIZE_MAX;

	for (;; i = (i + 1) & mask) {
		if (!m->val[i] && !m->gone[i]) {
			*found = false;
			return free_at != SIZE_MAX ? free_at : i;
		}
		if (m->gone[i]) {
			if (free_at == SIZE_MAX)
				free_at = i;
		} else if (m->key[i] == key) {
			*found = true;
			return i;
		}
	}
}

static int int_grow(struct intmap *m)
{
	struct intmap n = {0};

	n.cap = m->cap ? m->cap * 2 : 64;
	if (m->live * 4 < m->cap)
		n.cap = m->cap; /* mostly tombstones: same size, cleaned */
	n.key = calloc(n.cap, sizeof(*n.key));
	n.val = calloc(n.cap, sizeof(*n.val));
	n.gone = calloc(n.cap, 1);
	if (!n.key || !n.val || !n.gone) {
		free(n.key);
		free(n.val);
		free(n.gone);
		return -1;
	}
	for (size_t i = 0; i < m->cap; i++) {
		bool f;
		size_t j;

		if (!m->val[i])
			continue;
		j = int_slot(&n, m->key[i], &f);
		n.key[j] = m->key[i];
		n.val[j] = m->val[i];
		n.used++;
		n.live++;
	}
	free(m->key);
	free(m->val);
	free(m->gone);
	*m = n;
	return 0;
}

void *intmap_get(const struct intmap *m, int64_t key)
{
	bool found;
	size_t i;

	if (!m->cap)
		return NULL;
	i = int_slot(m, key, &found);
	return found ? m->val[i] : NULL;
}

int intmap_put(struct intmap *m, int64_t key, void *val)
{
	bool found;
	size_t i;

	if ((m->used + 1) * 4 >= m->cap * 3 && int_grow(m))
		return -1;
	i = int_slot(m, key, &found);
	if (!found) {
		if (!m->gone[i])
			m->used++;
		m->gone[i] = 0;
		m->key[i] = key;
		m->live++;
	}
	m->val[i] = val;
	return 0;
}

void intmap_del(struct intmap *m, int64_t key)
{
	bool found;
	size_t i;

	if (!m->cap)
		return;
	i = int_slot(m, key, &found);
	if (found) {
		m->val[i] = NULL;
		m->gone[i] = 1;
		m->live--;
	}
}

void intmap_free(struct intmap *m)
{
	free(m->key);
	free(m->val);
	free(m->gone);
	memset(m, 0, sizeof(*m));
}
