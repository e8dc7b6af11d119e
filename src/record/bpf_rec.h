/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bpf_rec.h - the BPF front end of a recording: load the program of
 * bpf/record.bpf.c (CO-RE, from a bpftool skeleton, as the off-CPU
 * tracing of the engine), give it the processes to trace, and turn each
 * record of its ring buffer into an event.  A build without libbpf, or a
 * machine that cannot load it, gets a one-line reason instead.
 */
#ifndef DBNG_REC_BPF_REC_H
#define DBNG_REC_BPF_REC_H

#include <stddef.h>
#include <stdint.h>

#include "rec_ev.h"
#include "rec_sys.h"

/* called with each event, in the order of the ring buffer */
typedef void (*rec_bpf_fn)(void *ctx, const struct rec_ev *ev);

struct rec_bpf;

struct rec_bpf_cfg {
	const int *pids; /* processes to trace from now on */
	int npids;
	int armed;	 /* a process to trace from its next exec, or 0 */
	unsigned int ring_mib; /* the ring buffer (a power of two) */
	rec_bpf_fn fn;
	void *ctx;
};

/*
 * rec_bpf_start - load, fill and attach.  NULL with the reason in @why
 * (no libbpf in this build, no privilege, no BTF, ...).
 */
struct rec_bpf *rec_bpf_start(const struct rec_bpf_cfg *cfg, char *why,
			      size_t len);

/* rec_bpf_poll - hand the waiting records to the callback, waiting up to
 * @ms for the first; the number handed, or -errno */
int rec_bpf_poll(struct rec_bpf *b, int ms);

/* rec_bpf_lost - the records the program could not send so far, and the
 * calls it could not follow (its table of calls in flight was full) */
uint64_t rec_bpf_lost(struct rec_bpf *b);

/* rec_bpf_undecoded - records that made no sense (never expected) */
uint64_t rec_bpf_undecoded(const struct rec_bpf *b);

/* rec_bpf_stop - detach and free; NULL is fine */
void rec_bpf_stop(struct rec_bpf *b);

/*
 * rec_bpf_event - the event of the record @data (@len bytes) into @ev,
 * with its strings in @raw (which must live as long as @ev is used): 1,
 * 0 for a call that is no file-system event, -1 for a malformed record.
 */
int rec_bpf_event(const void *data, size_t len, struct rec_raw *raw,
		  struct rec_ev *ev);

#endif
