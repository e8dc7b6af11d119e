/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz_loadfile.c - libFuzzer target: any bytes as a loadfile.  The
 * parser must accept or refuse them with a message, never crash, leak or
 * hang.
 */
#include <stddef.h>
#include <stdint.h>

#include "loadfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct program *p = NULL;
	char err[1024];

	if (!lf_parse_buffer("fuzz.load", (const char *)data, size, &p, err,
			     sizeof(err)))
		lf_free(p);
	return 0;
}
