/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ksyms.h - kernel addresses to names, from /proc/kallsyms, for the
 * stacks BPF takes (offcpu_stack.c).  Without CAP_SYSLOG the kernel shows every
 * address as 0: the table is then empty and stacks stay raw addresses.
 */
#ifndef DBNG_KSYMS_H
#define DBNG_KSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ksyms;

/* ksyms_load - read the text symbols of @path ("/proc/kallsyms"); NULL
 * with errno set if it cannot be read. */
struct ksyms *ksyms_load(const char *path);

void ksyms_free(struct ksyms *ks);

/* ksyms_usable - the addresses are real (not all 0: CAP_SYSLOG) */
bool ksyms_usable(const struct ksyms *ks);

/* ksyms_name - the function @addr is in, "name" or "name [module]", into
 * @buf; false (and "0x..." in @buf) if none is known. */
bool ksyms_name(const struct ksyms *ks, uint64_t addr, char *buf, size_t len);

#endif
