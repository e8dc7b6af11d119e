/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * hmap.h - the two small hash maps of a recording: text to a number (the
 * names of the tree, interned loadfile paths) and a number to a pointer
 * (tasks and processes by pid).  Open addressing, linear probing,
 * tombstones on delete; the maps own copies of their text keys.
 */
#ifndef DBNG_REC_HMAP_H
#define DBNG_REC_HMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strmap {
	char **key; /* NULL: empty; STRMAP_GONE: deleted */
	uint32_t *val;
	size_t cap, used, live;
};

/* strmap_get - the value of @key into *@val; false if absent */
bool strmap_get(const struct strmap *m, const char *key, uint32_t *val);
/* strmap_put - set @key to @val (added or replaced); -1 out of memory */
int strmap_put(struct strmap *m, const char *key, uint32_t val);
/* strmap_del - remove @key if present */
void strmap_del(struct strmap *m, const char *key);
/* strmap_free - release the map and its keys */
void strmap_free(struct strmap *m);

struct intmap {
	int64_t *key;
	void **val; /* NULL: empty slot (values are never NULL) */
	uint8_t *gone;
	size_t cap, used, live;
};

void *intmap_get(const struct intmap *m, int64_t key);
/* intmap_put - set @key to @val (not NULL); -1 out of memory */
int intmap_put(struct intmap *m, int64_t key, void *val);
void intmap_del(struct intmap *m, int64_t key);
void intmap_free(struct intmap *m);

#endif
