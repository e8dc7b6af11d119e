/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * vmlinux_min.h - the few kernel types offcpu.bpf.c and foreign.bpf.c
 * use, written by hand for CO-RE (preserve_access_index: libbpf relocates each field access to
 * the running kernel's layout when it loads the object), so the build
 * needs neither the build host's kernel BTF nor a 3 MB generated
 * vmlinux.h.
 */
#ifndef DBNG_VMLINUX_MIN_H
#define DBNG_VMLINUX_MIN_H

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
#define true 1
#define false 0

enum bpf_map_type {
	BPF_MAP_TYPE_HASH = 1,
	BPF_MAP_TYPE_ARRAY = 2,
	BPF_MAP_TYPE_PERCPU_ARRAY = 6,
	BPF_MAP_TYPE_RINGBUF = 27,
	BPF_MAP_TYPE_TASK_STORAGE = 29,
};

enum {
	BPF_ANY = 0,
	BPF_NOEXIST = 1,
};

enum {
	BPF_RB_NO_WAKEUP = 1,
};

enum {
	BPF_F_NO_PREALLOC = 1,
	BPF_F_MMAPABLE = 1024,
};

#pragma clang attribute push(__attribute__((preserve_access_index)), \
			     apply_to = record)

/* arm64, riscv, s390 and others keep the preempt count here, x86 not */
struct thread_info {
	int preempt_count;
	unsigned int cpu; /* 5.16+ with THREAD_INFO_IN_TASK */
};

struct bpf_local_storage;

struct task_struct {
	struct thread_info thread_info;
	unsigned int flags; /* PF_KTHREAD */
	int pid;
	int tgid;
	char comm[16];
	struct bpf_local_storage *bpf_storage;
};

#pragma clang attribute pop

#endif
