/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ksyms.c - /proc/kallsyms, read once: its text symbols (types t, T, w,
 * W) sorted by address; a frame is in the last symbol at or before it.
 * The names point into the file's text, kept whole.
 */
#include "ksyms.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ksym {
	uint64_t addr;
	const char *name;
	const char *mod; /* NULL: the kernel itself */
};

struct ksyms {
	char *text;
	struct ksym *sym;
	size_t n;
	bool usable;
};

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The whole of @path (a /proc file: its size is not known ahead). */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t cap = 1 << 20, n = 0;
	char *buf = NULL;

	if (!f)
		return NULL;
	for (;;) {
		char *nb = realloc(buf, cap + 1);
		size_t got;

		if (!nb) {
			free(buf);
			fclose(f);
			errno = ENOMEM;
			return NULL;
		}
		buf = nb;
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (n < cap)
			break;
		cap *= 2;
	}
	fclose(f);
	buf[n] = 0;
	return buf;
}

static bool is_text(char t)
{
	return t == 't' || t == 'T' || t == 'w' || t == 'W';
}

struct ksyms *ksyms_load(const char *path)
{
	struct ksyms *ks = calloc(1, sizeof(*ks));
	size_t cap = 0;
	char *p;

	if (!ks)
		return NULL;
	ks->text = slurp(path);
	if (!ks->text) {
		free(ks);
		return NULL;
	}
	/* "ffffffff81000000 T _stext" or "... t fuse_foo\t[fuse]" */
	for (p = ks->text; *p;) {
		char *nl = strchr(p, '\n'), *name, *end, *mod = NULL;
		uint64_t addr;
		char type;

		if (nl)
			*nl = 0;
		addr = strtoull(p, &end, 16);
		if (end == p || end[0] != ' ' || !end[1] || end[2] != ' ')
			goto next;
		type = end[1];
		name = end + 3;
		end = name + strcspn(name, " \t");
		if (*end) {
			*end++ = 0;
			mod = strchr(end, '[');
			if (mod) {
				char *close = strchr(mod, ']');

				if (close)
					close[1] = 0;
			}
		}
		if (!is_text(type))
			goto next;
		if (addr)
			ks->usable = true;
		if (ks->n == cap) {
			struct ksym *ns;

			cap = cap ? cap * 2 : 65536;
			ns = realloc(ks->sym, cap * sizeof(*ns));
			if (!ns) {
				ksyms_free(ks);
				errno = ENOMEM;
				return NULL;
			}
			ks->sym = ns;
		}
		ks->sym[ks->n++] = (struct ksym){addr, name, mod};
	next:
		if (!nl)
			break;
		p = nl + 1;
	}
	if (ks->usable)
		qsort(ks->sym, ks->n, sizeof(*ks->sym), by_addr);
	else
		ks->n = 0;
	return ks;
}

void ksyms_free(struct ksyms *ks)
{
	if (!ks)
		return;
	free(ks->sym);
	free(ks->text);
	free(ks);
}

bool ksyms_usable(const struct ksyms *ks)
{
	return ks && ks->usable;
}

bool ksyms_name(const struct ksyms *ks, uint64_t addr, char *buf, size_t len)
{
	size_t lo = 0, hi = ks ? ks->n : 0;

	/* the last symbol at or before @addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->sym[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo) {
		snprintf(buf, len, "0x%" PRIx64, addr);
		return false;
	}
	if (ks->sym[lo - 1].mod)
		snprintf(buf, len, "%s %s", ks->sym[lo - 1].name,
			 ks->sym[lo - 1].mod);
	else
		snprintf(buf, len, "%s", ks->sym[lo - 1].name);
	return true;
}
