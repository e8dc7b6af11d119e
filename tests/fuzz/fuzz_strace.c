/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz_strace.c - libFuzzer target: any bytes as a strace log for
 * "dbench-ng record --from-strace", strict and with skip_bad.  The reader
 * must accept or refuse them with a message, and what it accepts the
 * writer must turn into a loadfile the loadfile parser accepts; never a
 * crash, a leak or a hang.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "loadfile.h"
#include "rec_writer.h"
#include "strace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void to_writer(void *ctx, const struct rec_ev *ev)
{
	rec_writer_event(ctx, ev);
}

static void one(const char *path, bool skip_bad)
{
	struct rec_writer_cfg cfg = {.root = "/r", .initial_cwd = "/r/w"};
	struct rec_strace_stats st;
	struct rec_writer *w = rec_writer_new(&cfg);
	struct program *p = NULL;
	char err[4200], *text = NULL;
	size_t len = 0;
	FILE *f;

	if (!w)
		abort();
	if (!rec_strace_read(path, skip_bad, to_writer, w, &st, err,
			     sizeof(err))) {
		rec_writer_finish(w);
		f = open_memstream(&text, &len);
		if (!f || rec_writer_emit(w, f, false) || fclose(f))
			abort();
		if (lf_parse_buffer("fuzz", text, len, &p, err, sizeof(err))) {
			fprintf(stderr, "a recording does not parse: %s\n", err);
			abort();
		}
		lf_free(p);
		free(text);
	}
	rec_writer_free(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("log", 0);
	char path[64];

	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	one(path, false);
	one(path, true);
	close(fd);
	return 0;
}
