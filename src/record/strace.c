/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * strace.c - the lines of a log of "strace -f -tt -T -y": the prefix (a
 * pid, "PID " with -o or "[pid PID] " on stderr; the time, -tt, -ttt or
 * -r), and the body: a call, its start ("<unfinished ...>") and its end
 * ("<... read resumed>") joined, a process's end ("+++ exited with 0
 * +++"), a signal (ignored).  A child's first lines can come before its
 * parent's clone() returns: the lines of a process not seen yet wait
 * while a clone is in flight, and follow its fork once the clone names
 * it.  Each call becomes an event (rec_sys.c decodes it).
 */
#include "strace.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hmap.h"
#include "input.h"
#include "rec_sys.h"
#include "str_clean.h"
#include "strace_impl.h"

#define LINE_MAX_LEN (1 << 20) /* longer lines are skipped */
#define DAY_NS	     (86400ull * 1000000000ull)
#define RW_MAX	     0x7ffff000 /* the most a read or write returns */
#define TS_MAX_NS    (10000000ull * 1000000000ull) /* a loadfile's 10^7 s */

struct pend {
	char *text;
	uint64_t ts;
	bool clone;
};

struct qent {
	int pid;
	uint64_t ts;
	uint64_t line;
	char *body;
};

struct state {
	rec_event_fn fn;
	void *ctx;
	struct rec_strace_stats *st;
	struct intmap known, pend;
	int clones; /* clone calls in flight */
	struct qent *q;
	size_t nq, capq;
	bool draining;
	bool nopfx;	 /* lines without a pid were seen (pid 0) */
	int alias;	 /* the pid those lines turned out to be, 0 none */
	uint64_t day;	 /* -tt: days passed */
	uint64_t prev;	 /* the previous time */
	uint64_t first;	 /* the first time */
	bool have_first;
	uint64_t lineno; /* of the line being read */
	uint64_t cur;	 /* of the call being decoded (a waiting one's) */
	bool skip_bad;	 /* skip bad lines (else the first one stops) */
	bool failed;	 /* a bad line stopped the reading */
	char buf[1 << 16]; /* the strings of the call being decoded */
	char badbyte[96];
};

static void skip(struct state *s, const char *why)
{
	s->st->skipped++;
	if (!s->st->first_skip) {
		s->st->first_skip = s->cur;
		snprintf(s->st->why, sizeof(s->st->why), "%s", why);
	}
	if (!s->skip_bad)
		s->failed = true;
}

static bool is_clone(const char *name)
{
	return !strcmp(name, "clone") || !strcmp(name, "clone3") ||
	       !strcmp(name, "fork") || !strcmp(name, "vfork");
}

static void mark_known(struct state *s, int pid)
{
	if (intmap_put(&s->known, pid, (void *)1))
		skip(s, "out of memory");
}

static void dispatch(struct state *s, int pid, uint64_t ts, const char *body);

/* the lines that waited for their process's fork */
static void drain(struct state *s)
{
	bool more = true;

	if (s->draining)
		return;
	s->draining = true;
	while (more) {
		more = false;
		for (size_t i = 0; i < s->nq; i++) {
			struct qent e = s->q[i];

			if (!intmap_get(&s->known, e.pid) && s->clones > 0)
				continue;
			memmove(s->q + i, s->q + i + 1,
				(s->nq - i - 1) * sizeof(*s->q));
			s->nq--;
			mark_known(s, e.pid);
			s->cur = e.line;
			dispatch(s, e.pid, e.ts, e.body);
			s->cur = s->lineno;
			free(e.body);
			more = true;
			break;
		}
	}
	s->draining = false;
}

static void enqueue(struct state *s, int pid, uint64_t ts, const char *body)
{
	if (s->nq == s->capq) {
		size_t cap = s->capq ? s->capq * 2 : 16;
		struct qent *v = realloc(s->q, cap * sizeof(*v));

		if (!v)
			return skip(s, "out of memory");
		s->q = v;
		s->capq = cap;
	}
	s->q[s->nq].pid = pid;
	s->q[s->nq].ts = ts;
	s->q[s->nq].line = s->cur;
	s->q[s->nq].body = strdup(body);
	if (!s->q[s->nq].body)
		return skip(s, "out of memory");
	s->nq++;
}

static void emit(struct state *s, struct rec_ev *ev)
{
	ev->line = s->cur;
	s->st->calls++;
	s->fn(s->ctx, ev);
}

/* a process event: fork, exec, exit */
static void proc_event(struct state *s, int pid, uint64_t ts, int kind,
		       int64_t a0, int64_t a2)
{
	struct rec_ev ev = {.ts_ns = ts, .pid = pid, .kind = (uint16_t)kind,
			    .fd = -1, .fd2 = -1};

	ev.name = kind == RK_FORK ? "fork" : kind == RK_EXEC ? "execve"
							     : "exit";
	ev.a[0] = a0;
	ev.a[2] = a2;
	emit(s, &ev);
}

static void call(struct state *s, int pid, uint64_t ts, const char *text)
{
	struct st_call c;
	struct rec_raw raw;
	struct rec_ev ev;
	const char *why;
	const struct rec_sys *sys;
	size_t used = 0;
	int64_t ret;

	if (st_split(text, &c, &why))
		return skip(s, why);
	if (!strcmp(c.name, "restart_syscall") || !strcmp(c.name, "exit") ||
	    !strcmp(c.name, "exit_group"))
		return;
	if (!strcmp(c.name, "execve") || !strcmp(c.name, "execveat")) {
		if (st_ret(&c, &ret) && ret == 0)
			proc_event(s, pid, ts, RK_EXEC, 0, 0);
		return;
	}
	if (is_clone(c.name)) {
		if (st_ret(&c, &ret) && ret > 0) {
			int64_t fl = 0;

			if (st_has(&c, "CLONE_THREAD"))
				fl |= REC_FORK_THREAD;
			if (st_has(&c, "CLONE_FILES"))
				fl |= REC_FORK_FILES;
			if (st_has(&c, "CLONE_FS"))
				fl |= REC_FORK_FS;
			proc_event(s, pid, ts, RK_FORK, ret, fl);
			mark_known(s, (int)ret);
		}
		return drain(s);
	}
	sys = rec_sys_by_name(c.name);
	if (!sys)
		return; /* not a call on files */
	if (c.ret && c.ret[0] == '?') {
		s->st->unpaired++; /* its process ended during it */
		return;
	}
	rec_raw_init(&raw, sys);
	raw.ts_ns = ts;
	raw.pid = pid;
	if (st_fill(&c, &raw, s->buf, sizeof(s->buf), &used, &why))
		return skip(s, why);
	if (raw.cwd && !s->st->first_cwd[0])
		snprintf(s->st->first_cwd, sizeof(s->st->first_cwd), "%s",
			 raw.cwd);
	if (!rec_decode(&raw, &ev))
		return;
	if ((ev.kind == RK_READ || ev.kind == RK_WRITE) && ev.ret > RW_MAX)
		return skip(s, "a read or write of more than one call can "
			       "move (0x7ffff000 bytes)");
	emit(s, &ev);
}

static void resumed(struct state *s, int pid, const char *body)
{
	const char *r = strstr(body, " resumed>");
	struct pend *p = intmap_get(&s->pend, pid);
	char *text;

	if (!r)
		return skip(s, "a resumed call without its name");
	if (!p) { /* begun before the trace (strace -p) */
		s->st->unpaired++;
		return;
	}
	intmap_del(&s->pend, pid);
	if (p->clone)
		s->clones--;
	r += strlen(" resumed>");
	text = malloc(strlen(p->text) + strlen(r) + 1);
	if (text) {
		sprintf(text, "%s%s", p->text, r);
		dispatch(s, pid, p->ts, text);
		free(text);
	} else {
		skip(s, "out of memory");
	}
	free(p->text);
	free(p);
	if (!s->clones)
		drain(s);
}

static void unfinished(struct state *s, int pid, uint64_t ts, const char *body,
		       size_t n)
{
	struct pend *p = calloc(1, sizeof(*p)), *old;
	size_t k = strcspn(body, "(");

	if (!p || !(p->text = strndup(body, n))) {
		free(p);
		return skip(s, "out of memory");
	}
	p->ts = ts;
	p->text[k < n ? k : n] = 0;
	p->clone = is_clone(p->text);
	p->text[k < n ? k : n] = k < n ? '(' : 0;
	if ((old = intmap_get(&s->pend, pid))) { /* never resumed */
		s->st->unpaired++;
		if (old->clone)
			s->clones--;
		free(old->text);
		free(old);
	}
	if (p->clone)
		s->clones++;
	if (intmap_put(&s->pend, pid, p)) {
		free(p->text);
		free(p);
		skip(s, "out of memory");
	}
}

static void dispatch(struct state *s, int pid, uint64_t ts, const char *body)
{
	static const char unf[] = " <unfinished ...>";
	size_t n = strlen(body);

	if (!intmap_get(&s->known, pid)) {
		if (s->clones > 0)
			return enqueue(s, pid, ts, body);
		mark_known(s, pid);
	}
	if (!strncmp(body, "+++ ", 4)) {
		if (strstr(body, "exited with") || strstr(body, "killed by") ||
		    strstr(body, "superseded by"))
			proc_event(s, pid, ts, RK_EXIT, 0, 0);
		return;
	}
	if (!strncmp(body, "--- ", 4))
		return; /* a signal */
	if (!strncmp(body, "<... ", 5))
		return resumed(s, pid, body);
	if (n > sizeof(unf) - 1 && !strcmp(body + n - (sizeof(unf) - 1), unf))
		return unfinished(s, pid, ts, body, n - (sizeof(unf) - 1));
	call(s, pid, ts, body);
}

/* the time at @p into *@ts (ns on the log's clock); the text after it */
static const char *timestamp(struct state *s, const char *p, uint64_t *ts)
{
	unsigned int h, m;
	double sec;
	int k = 0;
	char *end;

	if (sscanf(p, "%2u:%2u:%lf%n", &h, &m, &sec, &k) == 3 && k > 0 &&
	    p[2] == ':' && p[k] == ' ' && h < 24 && m < 60 && sec >= 0 &&
	    sec < 61) {
		uint64_t t = (uint64_t)((h * 3600 + m * 60) * 1e9 + sec * 1e9);

		if (t + s->day < s->prev && s->prev - (t + s->day) > DAY_NS / 2)
			s->day += DAY_NS; /* past midnight */
		*ts = t + s->day;
		s->st->timestamps = true;
		return p + k + 1;
	}
	sec = strtod(p, &end);
	/* a time in ns must fit in 64 bits (1.8e10 s: the year 2554) */
	if (end != p && *end == ' ' && memchr(p, '.', (size_t)(end - p)) &&
	    sec >= 0 && sec < 1.8e10) {
		/* -ttt (seconds since 1970) or -r (since the line before) */
		*ts = sec >= 1e8 ? (uint64_t)(sec * 1e9)
				 : s->prev + (uint64_t)(sec * 1e9);
		s->st->timestamps = true;
		return end + 1;
	}
	*ts = s->prev;
	return p;
}

static void line(struct state *s, char *l)
{
	const char *p = l;
	uint64_t ts = 0;
	bool has_pid = false;
	int pid = 0;
	char *end;

	l[strcspn(l, "\n")] = 0;
	if (!strncmp(p, "[pid ", 5)) {
		pid = (int)strtol(p + 5, &end, 10);
		if (*end != ']' || pid <= 0)
			return skip(s, "not a line of strace output");
		p = end + 1;
		has_pid = true;
	} else if (isdigit((unsigned char)*p)) {
		long v = strtol(p, &end, 10);

		if (*end == ' ' && v > 0) {
			pid = (int)v;
			p = end;
			has_pid = true;
		}
	}
	while (*p == ' ')
		p++;
	if (!strncmp(p, "strace: ", 8))
		return; /* strace's own messages */
	p = timestamp(s, p, &ts);
	if (s->st->timestamps && !s->have_first) {
		s->first = ts;
		s->have_first = true;
	}
	if (s->have_first && (ts < s->first || ts - s->first > TS_MAX_NS))
		return skip(s, "a time more than 10^7 s from the log's first "
			       "(the most a loadfile's timestamps hold)");
	if (ts > s->prev)
		s->prev = ts;
	if (!isalpha((unsigned char)*p) && strncmp(p, "+++ ", 4) &&
	    strncmp(p, "--- ", 4) && strncmp(p, "<... ", 5)) {
		if (!*p || !strncmp(p, "strace: ", 8) || *p == '[')
			return; /* strace's own messages */
		return skip(s, "not a line of strace output");
	}
	if (!has_pid) {
		s->nopfx = true;
	} else if (s->alias && pid == s->alias) {
		pid = 0;
	} else if (s->nopfx && !s->alias && !s->clones &&
		   !intmap_get(&s->known, pid)) {
		/* strace -f on stderr prefixes the first process only once
		 * it has others */
		s->alias = pid;
		pid = 0;
	}
	dispatch(s, pid, ts, p);
}

/* strace writes text only: it escapes control characters and bytes
 * that are not ASCII in strings and paths.  A line with one (or with
 * bytes that are not UTF-8) is no strace output. */
static bool text_only(struct state *s, const char *l)
{
	const unsigned char *u = (const unsigned char *)l;
	size_t n = strcspn(l, "\n"), i = 0;

	if (n && u[n - 1] == '\r')
		n--;
	while (i < n) {
		size_t k = u[i] == '\t' ? 1 : str_printable(u + i, n - i);

		if (!k) {
			snprintf(s->badbyte, sizeof(s->badbyte),
				 "a byte strace does not write (0x%02x at "
				 "column %zu)",
				 u[i], i + 1);
			skip(s, s->badbyte);
			return false;
		}
		i += k;
	}
	return true;
}

/* the next line of @f into @buf (@len bytes, NUL-terminated, without
 * its newline), NUL bytes in it kept: its length, @len if it was longer
 * (the rest is read and dropped), -1 at the end of the file */
static ssize_t read_line(FILE *f, char *buf, size_t len)
{
	size_t n = 0;
	bool any = false;
	int ch;

	while ((ch = getc_unlocked(f)) != EOF) {
		any = true;
		if (ch == '\n')
			break;
		if (n < len - 1)
			buf[n] = (char)ch;
		n++;
	}
	if (!any)
		return -1;
	buf[n < len - 1 ? n : len - 1] = 0;
	return n < len - 1 ? (ssize_t)n : (ssize_t)len;
}

static void free_state(struct state *s)
{
	for (size_t i = 0; i < s->pend.cap; i++) {
		struct pend *p = s->pend.val[i];

		if (p) {
			s->st->unpaired++;
			free(p->text);
			free(p);
		}
	}
	intmap_free(&s->pend);
	intmap_free(&s->known);
	for (size_t i = 0; i < s->nq; i++)
		free(s->q[i].body);
	free(s->q);
}

int rec_strace_read(const char *path, bool skip_bad, rec_event_fn fn,
		    void *ctx, struct rec_strace_stats *st, char *err,
		    size_t errlen)
{
	struct state *s = calloc(1, sizeof(*s));
	char *buf = malloc(LINE_MAX_LEN);
	FILE *f = NULL;
	int fd, rc = -1;

	memset(st, 0, sizeof(*st));
	if (!s || !buf) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	fd = input_open(path, "cannot open strace log", UINT64_MAX, err,
			errlen);
	if (fd < 0)
		goto out;
	f = fdopen(fd, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		goto out;
	}
	s->fn = fn;
	s->ctx = ctx;
	s->st = st;
	s->skip_bad = skip_bad;
	while (!s->failed) {
		ssize_t n = read_line(f, buf, LINE_MAX_LEN);

		if (n < 0)
			break;
		s->cur = ++s->lineno;
		st->lines++;
		if (n >= LINE_MAX_LEN) {
			skip(s, "a line longer than 1 MiB");
			continue;
		}
		if (memchr(buf, 0, (size_t)n)) {
			skip(s, "a NUL byte in the line");
			continue;
		}
		if (n && buf[n - 1] == '\r')
			buf[n - 1] = 0; /* a CRLF line end */
		if (!text_only(s, buf))
			continue;
		line(s, buf);
	}
	if (s->failed) {
		snprintf(err, errlen,
			 "%s:%" PRIu64 ": %s (--skip-bad skips such lines)",
			 path, st->first_skip, st->why);
		goto out;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: cannot read strace log: %s", path,
			 strerror(errno));
		goto out;
	}
	s->clones = 0; /* clones that never returned: their children go */
	drain(s);
	if (!st->calls && !intmap_get(&s->known, 0) && !s->known.live) {
		snprintf(err, errlen,
			 "%s: no line of strace output in it (write it with "
			 "strace -f -tt -T -y -o LOG COMMAND)",
			 path);
		goto out;
	}
	rc = 0;
out:
	if (s && s->st)
		free_state(s);
	if (f)
		fclose(f);
	free(buf);
	free(s);
	return rc;
}

bool rec_strace_first_cwd(const char *path, char *out, size_t len)
{
	FILE *f = fopen(path, "r");
	char *buf = malloc(LINE_MAX_LEN), *p;
	bool found = false;

	while (f && buf && !found && fgets(buf, LINE_MAX_LEN, f)) {
		const char *e;
		size_t used = 0;

		if (!(p = strstr(buf, "AT_FDCWD<")) || !(e = st_annot_end(p + 8)))
			continue;
		if (st_unescape(p + 9, (size_t)(e - p - 9), out, len, &used))
			found = out[0] == '/';
	}
	if (f)
		fclose(f);
	free(buf);
	return found;
}
