/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * stdfds.h - give a closed standard descriptor /dev/null at start-up.
 */
#ifndef DBNG_STDFDS_H
#define DBNG_STDFDS_H

/*
 * stdfds_open - open /dev/null as each of the descriptors 0, 1 and 2
 * that is closed (0 for reading, 1 and 2 for writing), as careful Unix
 * programs do, so that no file the program opens later gets one of them
 * and its output.  Call it first, before any open.  0, or -1 after a
 * message if /dev/null cannot be opened (the caller exits 3: what it
 * would print might land in a result file).
 */
int stdfds_open(void);

#endif
