/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * watchdog_test.h - the watchdog's bookkeeping without the thread, with
 * time as an argument: what the thread runs on the monotonic clock
 * (watchdog.c), and tests/unit/test_watchdog.c on a fake one.
 */
#ifndef DBNG_WATCHDOG_TEST_H
#define DBNG_WATCHDOG_TEST_H

#include <stdint.h>

#include "watchdog.h"

/*
 * watchdog_new() sets up, watchdog_poll() looks at every client once at
 * @now, watchdog_end() closes the events at @now (ops still stuck are
 * recorded as not ended), sorts the folded stacks and frees @wd; @out is
 * complete afterwards.
 */
struct watchdog *watchdog_new(const struct watchdog_cfg *cfg);
void watchdog_poll(struct watchdog *wd, uint64_t now);
void watchdog_end(struct watchdog *wd, uint64_t now);

/* watchdog_tid - the thread of a started watchdog (0 until it runs),
 * which takes the nice value of the thread that started it */
int watchdog_tid(const struct watchdog *wd);

#endif
