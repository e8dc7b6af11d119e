/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * faultfs_rules.c - the rules of faultfs: parsing a rule (grammar in
 * README.md) and a rules file, the rule sets, and the decision, at the
 * start of every operation, whether to delay it (sleeping here, in the
 * FUSE worker thread) or to fail it.
 */
#include "faultfs.h"

#include <fuse_lowlevel.h>

#include <errno.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_FIRED 32  /* rules injecting into one call */
#define SLICE_MS  100 /* delays check for exit this often */

const char *const op_names[NR_OPS] = {
	[OP_GETATTR] = "getattr",
	[OP_READLINK] = "readlink",
	[OP_MKNOD] = "mknod",
	[OP_MKDIR] = "mkdir",
	[OP_UNLINK] = "unlink",
	[OP_RMDIR] = "rmdir",
	[OP_SYMLINK] = "symlink",
	[OP_RENAME] = "rename",
	[OP_LINK] = "link",
	[OP_CHMOD] = "chmod",
	[OP_CHOWN] = "chown",
	[OP_TRUNCATE] = "truncate",
	[OP_OPEN] = "open",
	[OP_READ] = "read",
	[OP_WRITE] = "write",
	[OP_STATFS] = "statfs",
	[OP_FLUSH] = "flush",
	[OP_RELEASE] = "release",
	[OP_FSYNC] = "fsync",
	[OP_SETXATTR] = "setxattr",
	[OP_GETXATTR] = "getxattr",
	[OP_LISTXATTR] = "listxattr",
	[OP_REMOVEXATTR] = "removexattr",
	[OP_OPENDIR] = "opendir",
	[OP_READDIR] = "readdir",
	[OP_RELEASEDIR] = "releasedir",
	[OP_FSYNCDIR] = "fsyncdir",
	[OP_ACCESS] = "access",
	[OP_CREATE] = "create",
	[OP_UTIMENS] = "utimens",
	[OP_FALLOCATE] = "fallocate",
	[OP_LSEEK] = "lseek",
	[OP_ANY] = "any",
};

/* a rule that fired for one call, copied out of the lock */
struct fired {
	long long delay;
	int err;
	bool intr;
	char buf_d[32], buf_e[48];
};

pthread_mutex_t rules_lock = PTHREAD_MUTEX_INITIALIZER;
struct ruleset cli_rules;  /* --rule, kept for the whole mount */
struct ruleset file_rules; /* --rules FILE, replaced on SIGHUP */
static _Atomic unsigned long long op_mask; /* ops some rule may match */

/* ---------------------------- rule parsing ----------------------------- */

static int parse_num(const char *s, long long min, long long *out)
{
	char *end;
	long long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end || v < min)
		return -1;
	*out = v;
	return 0;
}

/* "EIO", "eio" or "5" -> 5; 0 if unknown */
static int parse_errno(const char *s)
{
	long long v;

	if (!parse_num(s, 1, &v))
		return v < 4096 ? (int)v : 0;
	for (int e = 1; e < 4096; e++) {
		const char *name = strerrorname_np(e);

		if (name && !strcasecmp(name, s))
			return e;
	}
	return 0;
}

void rule_free(struct rule *r)
{
	free(r->pattern);
	r->pattern = NULL;
}

void ruleset_free(struct ruleset *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		rule_free(&rs->v[i]);
	free(rs->v);
	rs->v = NULL;
	rs->n = 0;
}

/*
 * Parse SPEC = OP[:PATTERN] KEY=VALUE... into @r.  On error, -1 with the
 * reason in @msg.
 */
int parse_rule(const char *spec, struct rule *r, char *msg, size_t msglen)
{
	char *buf, *tok, *save = NULL, *val, *colon;
	bool have_every = false, seen[7] = {false};
	static const char *const keys[7] = {"delay", "error", "every", "period",
					    "after", "count", "intr"};
	int rc = -1;

	memset(r, 0, sizeof(*r));
	r->delay = -1;
	r->every = 1;
	buf = strdup(spec);
	if (!buf) {
		snprintf(msg, msglen, "out of memory");
		return -1;
	}
	tok = strtok_r(buf, " \t\r\n", &save);
	if (!tok) {
		snprintf(msg, msglen, "empty rule");
		goto out;
	}
	colon = strchr(tok, ':');
	if (colon) {
		const char *pat = colon + 1;

		*colon = 0;
		while (*pat == '/')
			pat++;
		if (!*pat) {
			snprintf(msg, msglen, "empty pattern after '%s:'", tok);
			goto out;
		}
		r->pattern = strdup(pat);
		if (!r->pattern) {
			snprintf(msg, msglen, "out of memory");
			goto out;
		}
	}
	for (r->op = 0; r->op < NR_OPS; r->op++)
		if (!strcmp(tok, op_names[r->op]))
			break;
	if (r->op == NR_OPS) {
		snprintf(msg, msglen, "unknown op '%s'", tok);
		goto out;
	}
	while ((tok = strtok_r(NULL, " \t\r\n", &save))) {
		size_t k;

		val = strchr(tok, '=');
		if (!val) {
			snprintf(msg, msglen, "expected KEY=VALUE, got '%s'",
				 tok);
			goto out;
		}
		*val++ = 0;
		for (k = 0; k < 7; k++)
			if (!strcmp(tok, keys[k]))
				break;
		if (k == 7) {
			snprintf(msg, msglen, "unknown key '%s'", tok);
			goto out;
		}
		if (seen[k]) {
			snprintf(msg, msglen, "'%s=' given twice", tok);
			goto out;
		}
		seen[k] = true;
		switch (k) {
		case 0:
			if (parse_num(val, 0, &r->delay))
				goto bad;
			break;
		case 1:
			r->err = parse_errno(val);
			if (!r->err) {
				snprintf(msg, msglen, "unknown errno '%s'",
					 val);
				goto out;
			}
			break;
		case 2:
			if (parse_num(val, 1, &r->every))
				goto bad;
			have_every = true;
			break;
		case 3:
			if (parse_num(val, 1, &r->period))
				goto bad;
			break;
		case 4:
			if (parse_num(val, 0, &r->after))
				goto bad;
			break;
		case 5:
			if (parse_num(val, 1, &r->count))
				goto bad;
			break;
		case 6: {
			long long v;

			if (parse_num(val, 0, &v) || v > 1)
				goto bad;
			r->intr = v;
			break;
		}
		}
		continue;
	bad:
		snprintf(msg, msglen, "bad value '%s=%s'", tok, val);
		goto out;
	}
	if (r->delay < 0 && !r->err) {
		snprintf(msg, msglen, "no action (delay=MS or error=ERRNO)");
		goto out;
	}
	if (have_every && r->period) {
		snprintf(msg, msglen, "every= and period= exclude each other");
		goto out;
	}
	snprintf(r->dtext, sizeof(r->dtext), "delay=%lld", r->delay);
	if (strerrorname_np(r->err))
		snprintf(r->etext, sizeof(r->etext), "error=%s",
			 strerrorname_np(r->err));
	else
		snprintf(r->etext, sizeof(r->etext), "error=%d", r->err);
	rc = 0;
out:
	if (rc)
		rule_free(r);
	free(buf);
	return rc;
}

int ruleset_add(struct ruleset *rs, const struct rule *r)
{
	struct rule *v = realloc(rs->v, (rs->n + 1) * sizeof(*v));

	if (!v)
		return -1;
	v[rs->n++] = *r;
	rs->v = v;
	return 0;
}

/* Read rules from @path into @rs; -1 after printing the first error. */
int load_rules_file(const char *path, struct ruleset *rs)
{
	char *line = NULL, msg[256];
	size_t cap = 0;
	struct rule r;
	int lineno = 0, rc = 0;
	FILE *f;

	memset(rs, 0, sizeof(*rs));
	f = fopen(path, "re");
	if (!f) {
		fprintf(stderr, PROG ": --rules %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, f) > 0) {
		const char *s = line;

		lineno++;
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s || *s == '#' || *s == '\n' || *s == '\r')
			continue;
		if (parse_rule(s, &r, msg, sizeof(msg))) {
			fprintf(stderr, PROG ": %s:%d: %s\n", path, lineno,
				msg);
			rc = -1;
			break;
		}
		if (ruleset_add(rs, &r)) {
			rule_free(&r);
			fprintf(stderr, PROG ": out of memory\n");
			rc = -1;
			break;
		}
	}
	if (!rc && ferror(f)) {
		fprintf(stderr, PROG ": --rules %s: %s\n", path,
			strerror(errno));
		rc = -1;
	}
	free(line);
	fclose(f);
	if (rc)
		ruleset_free(rs);
	return rc;
}

static unsigned long long ruleset_mask(const struct ruleset *rs)
{
	unsigned long long m = 0;

	for (size_t i = 0; i < rs->n; i++)
		m |= rs->v[i].op == OP_ANY ? ~0ULL : 1ULL << rs->v[i].op;
	return m;
}

/* Under rules_lock. */
void update_mask(void)
{
	atomic_store(&op_mask,
		     ruleset_mask(&cli_rules) | ruleset_mask(&file_rules));
}

/* ------------------------------ injection ------------------------------ */

/*
 * Sleep @ms, in slices: libfuse joins its workers on exit without
 * cancelling them, so a long delay would hold up an unmount or SIGTERM.
 * With @intr, in slices of 5 ms, and false as soon as the kernel says
 * the caller was interrupted by a signal (FUSE_INTERRUPT).
 */
static bool sleep_ms(long long ms, bool intr)
{
	long long end = mono_ns() + ms * NS_PER_MS, t;
	struct timespec ts;

	while (!(session && fuse_session_exited(session))) {
		if (intr && fuse_interrupted())
			return false;
		t = mono_ns() + (intr ? 5 : SLICE_MS) * NS_PER_MS;
		if (t > end)
			t = end;
		ts.tv_sec = (time_t)(t / NS_PER_SEC);
		ts.tv_nsec = t % NS_PER_SEC;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
				       NULL) == EINTR)
			;
		if (t == end)
			break;
	}
	return true;
}

static bool rule_matches(const struct rule *r, enum op op, const char *p1,
			 const char *p2)
{
	if (r->op != OP_ANY && r->op != op)
		return false;
	if (!r->pattern)
		return true;
	return (p1 && !fnmatch(r->pattern, p1, 0)) ||
	       (p2 && !fnmatch(r->pattern, p2, 0));
}

/*
 * Under rules_lock: count this call against the rules of @rs, append the
 * ones that inject to @f.  Returns the new count; sets *@stop when one
 * injected an error (the rules after it do not see the call).
 */
static int fire_set(struct ruleset *rs, enum op op, const char *p1,
		    const char *p2, long long now, struct fired *f, int nf,
		    bool *stop)
{
	for (size_t i = 0; i < rs->n && !*stop && nf < MAX_FIRED; i++) {
		struct rule *r = &rs->v[i];
		bool fire;

		if (!rule_matches(r, op, p1, p2))
			continue;
		if (now - mount_ns < r->after * NS_PER_MS)
			continue;
		if (r->count && r->fired >= r->count)
			continue;
		r->calls++;
		if (r->period) {
			long long slot;

			if (!r->started) {
				r->started = true;
				r->origin = now;
				r->slot = -1;
			}
			slot = (now - r->origin) / (r->period * NS_PER_MS);
			fire = slot != r->slot;
			if (fire)
				r->slot = slot;
		} else {
			fire = r->calls % r->every == 0;
		}
		if (!fire)
			continue;
		r->fired++;
		f[nf].delay = r->delay;
		f[nf].err = r->err;
		f[nf].intr = r->intr;
		memcpy(f[nf].buf_d, r->dtext, sizeof(f[nf].buf_d));
		memcpy(f[nf].buf_e, r->etext, sizeof(f[nf].buf_e));
		nf++;
		if (r->err)
			*stop = true;
	}
	return nf;
}

/*
 * Called first by every operation: 0 to go on, or -errno to fail it.
 * Delays are slept here, in the FUSE worker thread, before the operation.
 */
int inject(enum op op, const char *path, const char *path2)
{
	struct fired f[MAX_FIRED];
	char shown[SHOWN_MAX];
	const char *p1, *p2;
	bool stop = false;
	int nf, err = 0;
	long long now;
	size_t n;

	if (!(atomic_load_explicit(&op_mask, memory_order_relaxed) &
	      (1ULL << op)))
		return 0;
	p1 = rel(path);
	p2 = rel(path2);
	now = mono_ns();
	pthread_mutex_lock(&rules_lock);
	nf = fire_set(&cli_rules, op, p1, p2, now, f, 0, &stop);
	nf = fire_set(&file_rules, op, p1, p2, now, f, nf, &stop);
	pthread_mutex_unlock(&rules_lock);
	if (!nf)
		return 0;

	n = esc(shown, sizeof(shown), p1 ? p1 : "-");
	if (p2 && n + 3 < sizeof(shown)) {
		memcpy(shown + n, "->", 3);
		esc(shown + n + 2, sizeof(shown) - n - 2, p2);
	}
	for (int i = 0; i < nf; i++) {
		if (f[i].delay >= 0) {
			log_event(op, shown, f[i].buf_d, "start", now);
			if (!sleep_ms(f[i].delay, f[i].intr)) {
				/* as a filesystem that honours interrupts */
				log_event(op, shown, f[i].buf_d, "interrupted",
					  0);
				return -EINTR;
			}
			log_event(op, shown, f[i].buf_d, "end", 0);
		}
		if (f[i].err && !err) {
			err = f[i].err;
			log_event(op, shown, f[i].buf_e, "start", now);
		}
	}
	return -err;
}
