/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * report_busy.h - the one line that says a run's machine was busy and
 * what that means for comparing it (docs/regressions.md, "Own latency").
 */
#ifndef DBNG_REPORT_BUSY_H
#define DBNG_REPORT_BUSY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct result;

/* report_busy_machine - whether @r's machine was busy: disturbed
 * (result_disturbed) or its clients waited FOREIGN_BUSY_SHARE of their
 * time or more for CPUs other programs held */
bool report_busy_machine(const struct result *r);

/* report_busy - the line and an empty one when busy (a section of its
 * own, before the classic table: docs/compat.md), else nothing; the
 * name of the program that held the CPU most is printed as str_text()
 * prints a result's strings */
void report_busy(FILE *f, const struct result *r);

#endif
