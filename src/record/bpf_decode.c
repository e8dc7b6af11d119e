/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bpf_decode.c - one record of the recorder's BPF program (rec_bpf.h)
 * as an event (rec_ev.h): the call's number named by rec_sys.c's table,
 * its strings checked (a path cut at REC_BPF_PATH bytes, or not readable,
 * is marked so), the structures it read back decoded (struct stat and
 * statx for the stat family, struct flock for fcntl locks, open_how for
 * openat2).  No libbpf here: the unit tests feed it made-up records.
 */
#include "bpf_rec.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>

#include "rec_bpf.h"

static void blob(const struct rec_bpf_ev *r, struct rec_raw *raw)
{
	size_t n = r->blen > 0 ? (size_t)r->blen : 0;

	switch (raw->sys->form) {
	case SF_STAT:
	case SF_FSTAT:
	case SF_FSTATAT: {
		struct stat st;

		if (n < offsetof(struct stat, st_size) + sizeof(st.st_size))
			return;
		memset(&st, 0, sizeof(st));
		memcpy(&st, r->blob, n < sizeof(st) ? n : sizeof(st));
		raw->has_st = true;
		raw->st_mode = st.st_mode;
		raw->st_size = st.st_size;
		return;
	}
	case SF_STATX: {
		struct statx sx;

		if (n < offsetof(struct statx, stx_size) + sizeof(sx.stx_size))
			return;
		memset(&sx, 0, sizeof(sx));
		memcpy(&sx, r->blob, n < sizeof(sx) ? n : sizeof(sx));
		raw->has_st = true;
		raw->st_mode = sx.stx_mode;
		raw->st_size = (int64_t)sx.stx_size;
		return;
	}
	case SF_FCNTL: {
		struct flock fl;

		if (n < sizeof(fl))
			return;
		memcpy(&fl, r->blob, sizeof(fl));
		raw->has_lock = true;
		raw->l_type = fl.l_type;
		raw->l_whence = fl.l_whence;
		raw->l_start = fl.l_start;
		raw->l_len = fl.l_len;
		return;
	}
	case SF_OPENAT2: {
		struct open_how how;

		if (n < sizeof(how))
			return;
		memcpy(&how, r->blob, sizeof(how));
		raw->has_how = true;
		raw->how_flags = how.flags;
		return;
	}
	default:
		return;
	}
}

/* the form's path @i: its text, NULL for a NULL pointer, or bad */
static void string(const struct rec_bpf_ev *r, size_t len, struct rec_raw *raw,
		   int i)
{
	int arg = rec_form_info[raw->sys->form].str[i];
	size_t off = i ? REC_BPF_STR0 + REC_BPF_PATH : REC_BPF_STR0;
	int n = r->slen[i];

	if (arg < 0)
		return;
	raw->arg[arg] = (int64_t)r->arg[arg];
	if (!r->arg[arg])
		return; /* NULL: utimensat's descriptor form */
	if (n <= 0 || n >= REC_BPF_PATH || off + (size_t)n > len ||
	    r->str[i][n - 1]) {
		raw->badstr = true;
		return;
	}
	raw->str[i] = r->str[i];
}

int rec_bpf_event(const void *data, size_t len, struct rec_raw *raw,
		  struct rec_ev *ev)
{
	const struct rec_bpf_ev *r = data;

	if (len < REC_BPF_HDR)
		return -1;
	memset(ev, 0, sizeof(*ev));
	ev->ts_ns = r->ts_ns;
	ev->pid = (int32_t)r->pid;
	ev->tgid = (int32_t)r->tgid;
	ev->fd = ev->fd2 = -1;
	switch (r->type) {
	case REC_BPF_FORK:
		ev->kind = RK_FORK;
		ev->name = "fork";
		ev->a[0] = r->nr;
		ev->a[1] = r->other;
		ev->a[2] = (r->other == r->tgid ? REC_FORK_THREAD : 0) |
			   (r->flags & REC_BPF_F_FILES ? REC_FORK_FILES : 0) |
			   (r->flags & REC_BPF_F_FS ? REC_FORK_FS : 0);
		return 1;
	case REC_BPF_EXEC:
		ev->kind = RK_EXEC;
		ev->name = "execve";
		return 1;
	case REC_BPF_EXIT:
		ev->kind = RK_EXIT;
		ev->name = "exit";
		ev->a[0] = (r->flags & REC_BPF_F_DEAD) != 0;
		return 1;
	case REC_BPF_SYSCALL:
		break;
	default:
		return -1;
	}
	rec_raw_init(raw, rec_sys_by_nr(r->nr));
	if (!raw->sys)
		return -1;
	raw->ts_ns = r->ts_ns;
	raw->pid = (int32_t)r->pid;
	raw->tgid = (int32_t)r->tgid;
	raw->ret = r->ret;
	for (int i = 0; i < 6; i++)
		raw->arg[i] = (int64_t)r->arg[i];
	string(r, len, raw, 0);
	string(r, len, raw, 1);
	if (len >= REC_BPF_STR0)
		blob(r, raw);
	return rec_decode(raw, ev) ? 1 : 0;
}
