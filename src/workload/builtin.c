/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * builtin.c - embeds loadfiles/netbench.load (made by tools/gen_netbench.c,
 * see loadfiles/README.md) with the assembler's .incbin, so no generated
 * source file or extra tool is needed.  The Makefile rebuilds this object
 * when the loadfile changes.
 */
#include "builtin.h"

#include <stdint.h>
#include <string.h>


__asm__(".section .rodata\n"
	".balign 16\n"
	"builtin_netbench_start:\n"
	".incbin \"loadfiles/netbench.load\"\n"
	"builtin_netbench_end:\n"
	".byte 0\n"
	".previous\n");

extern const char builtin_netbench_start[] __asm__("builtin_netbench_start");
extern const char builtin_netbench_end[] __asm__("builtin_netbench_end");

const char *builtin_find(const char *name, size_t *len)
{
	if (strcmp(name, BUILTIN_NETBENCH))
		return NULL;
	/* two symbols, so subtract addresses, not pointers to two objects */
	*len = (size_t)((uintptr_t)builtin_netbench_end -
			(uintptr_t)builtin_netbench_start);
	return builtin_netbench_start;
}
