/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * input.h - open a file that is read whole (a loadfile, a stored result):
 * a regular file or a pipe, never a device, a directory or a socket, and
 * never a blocking open (a FIFO with no writer would hang it).
 */
#ifndef DBNG_INPUT_H
#define DBNG_INPUT_H

#include <stddef.h>
#include <stdint.h>

/*
 * input_open - open @path for reading; refuse what is not a regular file
 * or a pipe (FIFO) and a regular file larger than @max bytes.  The open
 * itself never waits: a FIFO that no process has open for writing reads
 * as empty at once.  Returns the fd (blocking reads, O_CLOEXEC), or -1
 * with "PATH: WHAT: reason" in @err (@what: "cannot open loadfile";
 * NULL: "PATH: reason").
 */
int input_open(const char *path, const char *what, uint64_t max, char *err,
	       size_t errlen);

/* The text of the size limit @max for messages: "256 MiB". */
const char *input_limit_text(uint64_t max, char *buf, size_t len);

#endif
