/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * vmlinux_min.h - the few kernel types record.bpf.c uses, written by hand
 * for CO-RE (preserve_access_index: libbpf relocates each field access to
 * the running kernel's layout when it loads the object), so the build
 * needs neither the kernel's BTF nor a generated vmlinux.h.  The
 * registers of a system call's arguments are those of x86_64.
 */
#ifndef DBNG_REC_VMLINUX_MIN_H
#define DBNG_REC_VMLINUX_MIN_H

typedef unsigned char __u8;
typedef signed char __s8;
typedef unsigned short __u16;
typedef short __s16;
typedef unsigned int __u32;
typedef int __s32;
typedef unsigned long long __u64;
typedef long long __s64;
typedef __u16 __be16;
typedef __u32 __be32;
typedef __u32 __wsum;
typedef _Bool bool;
#define true  1
#define false 0

enum bpf_map_type {
	BPF_MAP_TYPE_HASH = 1,
	BPF_MAP_TYPE_ARRAY = 2,
	BPF_MAP_TYPE_PERCPU_ARRAY = 6,
	BPF_MAP_TYPE_RINGBUF = 27,
};

enum {
	BPF_ANY = 0,
	BPF_NOEXIST = 1,
};

#pragma clang attribute push(__attribute__((preserve_access_index)), \
			     apply_to = record)

struct pt_regs {
	unsigned long r15, r14, r13, r12, bp, bx, r11, r10, r9, r8, ax, cx,
		dx, si, di, orig_ax, ip, cs, flags, sp, ss;
};

typedef struct {
	int counter;
} atomic_t;

struct signal_struct {
	atomic_t live;
};

struct files_struct;
struct fs_struct;

struct task_struct {
	int pid;
	int tgid;
	struct files_struct *files;
	struct fs_struct *fs;
	struct signal_struct *signal;
};

struct linux_binprm;

#pragma clang attribute pop

#endif
