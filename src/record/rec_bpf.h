/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * rec_bpf.h - what the recorder's BPF program (bpf/record.bpf.c) and its
 * loader (bpf_rec.c) share: the per-system-call settings the loader puts
 * in the program's table, and the records of its ring buffer (one per
 * call of the traced tree, at its exit, with the arguments from its
 * entry; one per fork, exec and exit).  Fixed-width types only.
 */
#ifndef DBNG_REC_BPF_H
#define DBNG_REC_BPF_H

#ifndef __bpf__
#include <linux/types.h>
#endif

#define REC_BPF_NSYS 1024 /* system call numbers the table covers */
#define REC_BPF_PATH 1024 /* bytes kept of a path, its NUL included */
#define REC_BPF_BLOB 64	  /* bytes read of a structure at the exit */

/* what to read of one system call (by number) */
struct rec_bpf_spec {
	__u8 on;     /* traced */
	__s8 str[2]; /* the arguments that are paths, -1: none */
	__s8 blob;   /* the argument whose structure is read back, -1 */
};

enum rec_bpf_type {
	REC_BPF_SYSCALL = 1,
	REC_BPF_FORK,
	REC_BPF_EXEC,
	REC_BPF_EXIT,
};

#define REC_BPF_F_FILES 1 /* fork: the child shares the descriptor table */
#define REC_BPF_F_FS	2 /* fork: the child shares the working directory */
#define REC_BPF_F_DEAD	4 /* exit: the last task of its process */

struct rec_bpf_ev {
	__u64 ts_ns;  /* the call's entry (the event's time otherwise) */
	__u64 end_ns; /* its exit */
	__s64 ret;
	__u64 arg[6];
	__u32 pid, tgid;
	__s32 nr;     /* the system call; fork: the child's pid */
	__u32 other;  /* fork: the child's tgid */
	__u16 type;   /* enum rec_bpf_type */
	__u16 flags;  /* REC_BPF_F_* */
	__s16 slen[2]; /* bytes of str[i] with its NUL; 0 none; < 0 error */
	__s16 blen;    /* bytes of blob; 0 none; < 0 error */
	__u16 pad;
	__u8 blob[REC_BPF_BLOB];
	char str[2][REC_BPF_PATH];
};

/* the sizes of the record's forms: up to blob, up to str[0], all */
#define REC_BPF_HDR  __builtin_offsetof(struct rec_bpf_ev, blob)
#define REC_BPF_STR0 __builtin_offsetof(struct rec_bpf_ev, str)

/* the program's counters (its .bss) */
struct rec_bpf_counts {
	__u64 lost;	 /* records the ring buffer had no room for */
	__u64 inflight;	 /* calls whose entry found no room to wait */
	__u64 records;	 /* records sent */
};

#endif
