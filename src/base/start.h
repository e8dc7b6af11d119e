/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * start.h - what every program of dbench-ng does first, before it opens
 * anything.
 */
#ifndef DBNG_START_H
#define DBNG_START_H

/*
 * start_process - make the process's inheritance safe:
 *  - open /dev/null as each of the descriptors 0, 1 and 2 that is closed
 *    (0 for reading, 1 and 2 for writing), as careful Unix programs do,
 *    so that no file the program opens later gets one of them and its
 *    output (`cmd --json r.json >&-` wrote the text report into r.json);
 *  - ignore SIGXFSZ, so that a write past RLIMIT_FSIZE (ulimit -f) fails
 *    with EFBIG and is reported (a client's WriteX, the --json file)
 *    instead of killing the process silently; the clients inherit it.
 * 0, or -1 after a message if /dev/null cannot be opened (the caller
 * exits 3: what it would print might land in a result file).
 */
int start_process(void);

#endif
