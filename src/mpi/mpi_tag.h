/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * mpi_tag.h - the standard error of a rank other than 0, tagged with its
 * host and rank (mpi_tag.c).
 */
#ifndef DBNG_MPI_TAG_H
#define DBNG_MPI_TAG_H

#include <stdbool.h>
#include <stdio.h>

/* mpi_tag_begin - from now on every line this process writes to stderr
 * begins with "[@host rank @rank] "; what is written is held back until
 * mpi_tag_release().  0, or -1 (stderr unchanged). */
int mpi_tag_begin(const char *host, int rank);

/* mpi_tag_release - print what was held back if @print, else drop it;
 * later lines are written at once. */
void mpi_tag_release(bool print);

#endif
