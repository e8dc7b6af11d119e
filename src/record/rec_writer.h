/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * rec_writer.h - the one mapping from the events of a recording
 * (rec_ev.h) to loadfile lines: it keeps a copy of each traced process's
 * descriptor table and working directory, gives every open file
 * description under --root a handle number, learns from the calls what
 * the tree held before the trace (the set-up that recreates it), and
 * counts everything it cannot replay.  docs/record.md describes the
 * mapping; tests/unit/test_record.c feeds it events and checks the lines.
 */
#ifndef DBNG_REC_WRITER_H
#define DBNG_REC_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "rec_ev.h"

struct rec_writer_cfg {
	const char *root;	 /* absolute and normalised: its tree is
				  * \clients\client1 */
	bool anonymize;		 /* names as stable hashes */
	bool no_timestamps;	 /* leave the timestamps out */
	const char *initial_cwd; /* of a process first seen without one */
	const char *source;	 /* the header's "recorded from" */
	const char *method;	 /* the header's "by" */
};

struct rec_writer;

/* rec_writer_new - a writer for @cfg (copied); NULL: out of memory */
struct rec_writer *rec_writer_new(const struct rec_writer_cfg *cfg);

/* rec_writer_event - map the next event (in the order the calls
 * returned) */
void rec_writer_event(struct rec_writer *w, const struct rec_ev *ev);

/* rec_writer_lost - @n events of the trace were lost (@why) */
void rec_writer_lost(struct rec_writer *w, uint64_t n, const char *why);

/* rec_writer_count - count @n of something the front end skipped, said
 * in the trailer as "@what: N" */
void rec_writer_count(struct rec_writer *w, const char *what, uint64_t n);

/* rec_writer_no_timestamps - leave the timestamps out after all (a log
 * without times) */
void rec_writer_no_timestamps(struct rec_writer *w);

/* rec_writer_finish - the end of the trace: close what is still open */
void rec_writer_finish(struct rec_writer *w);

struct rec_summary {
	uint64_t events;     /* events given */
	uint64_t lines;	     /* loadfile lines of the recorded calls */
	uint64_t setup;	     /* lines of the set-up */
	uint64_t lost;	     /* events lost */
	uint64_t skipped;    /* calls not replayed (all reasons) */
	uint64_t setup_bytes; /* bytes the set-up writes */
	bool io_uring;	      /* the tree used io_uring or aio */
};

/* a path outside --root the trace used: the first REC_OUTSIDE_MAX
 * distinct ones are kept, with where the trace showed them first */
#define REC_OUTSIDE_MAX 8
struct rec_outside {
	char *path;	  /* absolute */
	const char *call; /* the system call */
	uint64_t line;	  /* of the strace log, 0: none */
	int32_t pid;
	uint64_t ts_ns;	  /* from the start of the trace */
};

/* rec_writer_outside - those paths into *@v, their number the result;
 * *@total: the calls outside --root, all of them */
unsigned int rec_writer_outside(const struct rec_writer *w,
				const struct rec_outside **v, uint64_t *total);

void rec_writer_summary(const struct rec_writer *w, struct rec_summary *s);

/* rec_writer_live - the traced processes still running, as far as the
 * trace tells */
unsigned int rec_writer_live(const struct rec_writer *w);

/*
 * rec_writer_emit - write the loadfile to @f: header, set-up (unless
 * @setup_apart: rec_writer_emit_setup() writes it as a loadfile of its
 * own), the recorded calls, the trailer.  0, or -1 on a write error.
 */
int rec_writer_emit(struct rec_writer *w, FILE *f, bool setup_apart);
int rec_writer_emit_setup(struct rec_writer *w, FILE *f);

void rec_writer_free(struct rec_writer *w);

#endif
