/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz_options.c - libFuzzer target: the bytes, split at NUL bytes, as a
 * command line for opt_parse().  Run it with -close_fd_mask=3: its
 * messages would drown libFuzzer's.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *av[66];
	struct config cfg;
	int ac = 1;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = 0;
	av[0] = "dbench-ng";
	for (char *s = buf; s <= buf + size && ac < 65; ac++) {
		av[ac] = s;
		s += strlen(s) + 1;
	}
	av[ac] = NULL;
	opt_parse(ac, av, &cfg, NULL, 0);
	free(buf);
	return 0;
}
