/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * faultfs.c - a FUSE pass-through filesystem that injects faults, to test
 * dbench-ng (stall detection, error reporting) against a filesystem that
 * is slow or fails on purpose.
 *
 *   faultfs BACKING_DIR MOUNTPOINT [--rule SPEC]... [--rules FILE]
 *           [--log FILE] [--pidfile FILE] [FUSE options]
 *
 * Every operation is passed through to BACKING_DIR, relative to an fd of
 * it opened before mounting (so MOUNTPOINT may even be BACKING_DIR
 * itself); open files and directories keep their backing fd in fi->fh and
 * are served with fd-based calls.  A rule (grammar in README.md) delays a
 * matching operation inside its FUSE worker thread, before doing it, or
 * fails it with an errno.  Every injection is logged with a CLOCK_MONOTONIC
 * timestamp, so that a test can line it up with what the benchmark saw.
 *
 * POSIX (fcntl) and BSD (flock) locks are left to the kernel's local
 * locking: no lock or flock operation is implemented, so they work between
 * the processes using the mount but are not taken on BACKING_DIR.
 */
#ifndef FUSE_USE_VERSION
#if defined(__has_include)
#if __has_include(<libfuse_config.h>)
/* libfuse >= 3.12: the loop configuration with max_threads */
#define FUSE_USE_VERSION 312
#endif
#endif
#endif
#ifndef FUSE_USE_VERSION
#define FUSE_USE_VERSION 32
#endif

#include <fuse.h>
#include <fuse_lowlevel.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#define PROG	    "faultfs"
#define MAX_FIRED   32	 /* rules injecting into one call */
#define SHOWN_MAX   8192 /* the path field of a log line */
#define MAX_THREADS 128	 /* default -o max_threads (libfuse says 10) */
#define SLICE_MS    100	 /* delays check for exit this often */
#define NS_PER_MS   1000000LL
#define NS_PER_SEC  1000000000LL

/* ------------------------------ operations ----------------------------- */

enum op {
	OP_GETATTR,
	OP_READLINK,
	OP_MKNOD,
	OP_MKDIR,
	OP_UNLINK,
	OP_RMDIR,
	OP_SYMLINK,
	OP_RENAME,
	OP_LINK,
	OP_CHMOD,
	OP_CHOWN,
	OP_TRUNCATE,
	OP_OPEN,
	OP_READ,
	OP_WRITE,
	OP_STATFS,
	OP_FLUSH,
	OP_RELEASE,
	OP_FSYNC,
	OP_SETXATTR,
	OP_GETXATTR,
	OP_LISTXATTR,
	OP_REMOVEXATTR,
	OP_OPENDIR,
	OP_READDIR,
	OP_RELEASEDIR,
	OP_FSYNCDIR,
	OP_ACCESS,
	OP_CREATE,
	OP_UTIMENS,
	OP_FALLOCATE,
	OP_LSEEK,
	OP_ANY,
	NR_OPS
};

static const char *const op_names[NR_OPS] = {
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

/* -------------------------------- rules -------------------------------- */

struct rule {
	enum op op;
	char *pattern;	  /* glob on the relative path; NULL: any */
	long long delay;  /* ms; -1: no delay */
	int err;	  /* errno; 0: no error */
	long long every;  /* inject on every Nth matching call */
	long long period; /* ms; 0: not periodic */
	long long after;  /* ms after mounting */
	long long count;  /* at most this many injections; 0: no limit */
	bool intr;	  /* a signal to the caller cuts the delay: EINTR */
	char dtext[32];	  /* "delay=300", the action field of the log */
	char etext[48];	  /* "error=ENOSPC" */
	/* state, under rules_lock */
	long long calls;  /* matching calls counted */
	long long fired;  /* injections */
	long long origin; /* period grid origin, ns; valid if started */
	long long slot;	  /* last period slot injected into */
	bool started;
};

struct ruleset {
	struct rule *v;
	size_t n;
};

/* a rule that fired for one call, copied out of the lock */
struct fired {
	long long delay;
	int err;
	bool intr;
	char buf_d[32], buf_e[48];
};

static pthread_mutex_t rules_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ruleset cli_rules;  /* --rule, kept for the whole mount */
static struct ruleset file_rules; /* --rules FILE, replaced on SIGHUP */
static _Atomic unsigned long long op_mask; /* ops some rule may match */

/* ------------------------------- globals ------------------------------- */

static int bfd = -1;		   /* BACKING_DIR */
static long long mount_ns;	   /* CLOCK_MONOTONIC at mount */
static int log_fd = STDERR_FILENO; /* --log, or stderr */
static const char *log_path;
static const char *rules_path;
static const char *pid_path;
static struct fuse_session *session; /* set before the loop starts */
static uid_t self_uid;
static gid_t self_gid;

/* ------------------------------- helpers ------------------------------- */

static long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * NS_PER_SEC + ts.tv_nsec;
}

/* The path relative to the backing dir: "/a/b" -> "a/b", "/" -> "." */
static const char *rel(const char *path)
{
	if (!path)
		return NULL;
	while (*path == '/')
		path++;
	return *path ? path : ".";
}

static int ret0(int r)
{
	return r < 0 ? -errno : 0;
}

/* Copy @s to @d, escaping blanks, controls and '\' as \ooo. */
static size_t esc(char *d, size_t n, const char *s)
{
	size_t i = 0;

	for (; *s && i + 5 < n; s++) {
		unsigned char c = (unsigned char)*s;

		if (c <= ' ' || c == '\\' || c == 0x7f)
			i += (size_t)snprintf(d + i, n - i, "\\%03o", c);
		else
			d[i++] = (char)c;
	}
	d[i] = 0;
	return i;
}

/*
 * One log line, written with one write() to an O_APPEND fd, so lines of
 * concurrent events never mix and each is on disk as soon as it happens:
 *   <monotonic ns> <UTC ISO 8601 with ms> <op> <path> <action> <event>
 * The time is @at (monotonic ns) if not 0, else now: a start is stamped
 * with the moment the rules decided, which is what a period counts.
 */
static void log_event(enum op op, const char *shown, const char *action,
		      const char *event, long long at)
{
	char line[SHOWN_MAX + 256], iso[32];
	struct timespec rt;
	long long ns, real;
	struct tm tm;
	int n;

	ns = mono_ns();
	clock_gettime(CLOCK_REALTIME, &rt);
	if (at) { /* the wall-clock time of @at */
		real = (long long)rt.tv_sec * NS_PER_SEC + rt.tv_nsec -
		       (ns - at);
		rt.tv_sec = (time_t)(real / NS_PER_SEC);
		rt.tv_nsec = (long)(real % NS_PER_SEC);
		ns = at;
	}
	gmtime_r(&rt.tv_sec, &tm);
	strftime(iso, sizeof(iso), "%Y-%m-%dT%H:%M:%S", &tm);
	n = snprintf(line, sizeof(line), "%lld %s.%03ldZ %s %s %s %s\n", ns,
		     iso, rt.tv_nsec / 1000000, op_names[op], shown, action,
		     event);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = (int)sizeof(line) - 1;
	if (write(log_fd, line, (size_t)n) < 0) {
		/* nowhere to report it */
	}
}

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

static void rule_free(struct rule *r)
{
	free(r->pattern);
	r->pattern = NULL;
}

static void ruleset_free(struct ruleset *rs)
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
static int parse_rule(const char *spec, struct rule *r, char *msg,
		      size_t msglen)
{
	char *buf, *tok, *save = NULL, *val, *colon;
	bool have_every = false, seen[7] = {false};
	static const char *const keys[7] = {"delay", "error", "every",
					    "period", "after", "count",
					    "intr"};
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

static int ruleset_add(struct ruleset *rs, const struct rule *r)
{
	struct rule *v = realloc(rs->v, (rs->n + 1) * sizeof(*v));

	if (!v)
		return -1;
	v[rs->n++] = *r;
	rs->v = v;
	return 0;
}

/* Read rules from @path into @rs; -1 after printing the first error. */
static int load_rules_file(const char *path, struct ruleset *rs)
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
static void update_mask(void)
{
	atomic_store(&op_mask,
		     ruleset_mask(&cli_rules) | ruleset_mask(&file_rules));
}

/* ------------------------------ injection ------------------------------ */

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
static int inject(enum op op, const char *path, const char *path2)
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

#define INJECT(op, p1, p2)                       \
	do {                                     \
		int inj_rc = inject(op, p1, p2); \
		if (inj_rc)                      \
			return inj_rc;           \
	} while (0)

/* ---------------------------- pass-through ----------------------------- */

/* Give a new file to the caller, as a local filesystem would (as root). */
static void own_at(const char *relpath)
{
	struct fuse_context *c = fuse_get_context();

	if (self_uid || (c->uid == self_uid && c->gid == self_gid))
		return;
	if (fchownat(bfd, relpath, c->uid, c->gid, AT_SYMLINK_NOFOLLOW)) {
		/* best effort */
	}
}

static void own_fd(int fd)
{
	struct fuse_context *c = fuse_get_context();

	if (self_uid || (c->uid == self_uid && c->gid == self_gid))
		return;
	if (fchown(fd, c->uid, c->gid)) {
		/* best effort */
	}
}

/* "/proc/self/fd/BFD/REL", for the calls that have no *at() form */
static int proc_path(char *buf, size_t len, const char *path)
{
	int n = snprintf(buf, len, "/proc/self/fd/%d/%s", bfd, rel(path));

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static void *ffs_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	cfg->use_ino = 1;
	/* unlink/rename really remove: no .fuse_hidden files left behind */
	cfg->hard_remove = 1;
	/* write-through: a write error reaches the writer, not a flusher */
	conn->want &= ~(unsigned)FUSE_CAP_WRITEBACK_CACHE;
	/* the kernel's local locking (see the top of the file) */
	conn->want &= ~(unsigned)(FUSE_CAP_POSIX_LOCKS | FUSE_CAP_FLOCK_LOCKS);
	return NULL;
}

static int ffs_getattr(const char *path, struct stat *st,
		       struct fuse_file_info *fi)
{
	INJECT(OP_GETATTR, path, NULL);
	if (fi)
		return ret0(fstat((int)fi->fh, st));
	return ret0(fstatat(bfd, rel(path), st, AT_SYMLINK_NOFOLLOW));
}

static int ffs_readlink(const char *path, char *buf, size_t size)
{
	ssize_t n;

	INJECT(OP_READLINK, path, NULL);
	if (!size)
		return -EINVAL;
	n = readlinkat(bfd, rel(path), buf, size - 1);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	return 0;
}

static int ffs_mknod(const char *path, mode_t mode, dev_t rdev)
{
	INJECT(OP_MKNOD, path, NULL);
	if (mknodat(bfd, rel(path), mode, rdev))
		return -errno;
	own_at(rel(path));
	return 0;
}

static int ffs_mkdir(const char *path, mode_t mode)
{
	INJECT(OP_MKDIR, path, NULL);
	if (mkdirat(bfd, rel(path), mode))
		return -errno;
	own_at(rel(path));
	return 0;
}

static int ffs_unlink(const char *path)
{
	INJECT(OP_UNLINK, path, NULL);
	return ret0(unlinkat(bfd, rel(path), 0));
}

static int ffs_rmdir(const char *path)
{
	INJECT(OP_RMDIR, path, NULL);
	return ret0(unlinkat(bfd, rel(path), AT_REMOVEDIR));
}

static int ffs_symlink(const char *target, const char *path)
{
	INJECT(OP_SYMLINK, path, NULL);
	if (symlinkat(target, bfd, rel(path)))
		return -errno;
	own_at(rel(path));
	return 0;
}

static int ffs_rename(const char *from, const char *to, unsigned int flags)
{
	INJECT(OP_RENAME, from, to);
	return ret0(renameat2(bfd, rel(from), bfd, rel(to), flags));
}

static int ffs_link(const char *from, const char *to)
{
	INJECT(OP_LINK, from, to);
	return ret0(linkat(bfd, rel(from), bfd, rel(to), 0));
}

static int ffs_chmod(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	INJECT(OP_CHMOD, path, NULL);
	if (fi)
		return ret0(fchmod((int)fi->fh, mode));
	return ret0(fchmodat(bfd, rel(path), mode, 0));
}

static int ffs_chown(const char *path, uid_t uid, gid_t gid,
		     struct fuse_file_info *fi)
{
	INJECT(OP_CHOWN, path, NULL);
	if (fi)
		return ret0(fchown((int)fi->fh, uid, gid));
	return ret0(fchownat(bfd, rel(path), uid, gid, AT_SYMLINK_NOFOLLOW));
}

static int ffs_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	int fd, r;

	INJECT(OP_TRUNCATE, path, NULL);
	if (fi)
		return ret0(ftruncate((int)fi->fh, size));
	fd = openat(bfd, rel(path), O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = ret0(ftruncate(fd, size));
	close(fd);
	return r;
}

static int ffs_open(const char *path, struct fuse_file_info *fi)
{
	int fd;

	INJECT(OP_OPEN, path, NULL);
	fd = openat(bfd, rel(path),
		    (fi->flags & ~(O_CREAT | O_EXCL | O_NOCTTY)) | O_NOFOLLOW |
			    O_CLOEXEC);
	if (fd < 0)
		return -errno;
	fi->fh = (uint64_t)fd;
	return 0;
}

static int ffs_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	int fd;

	INJECT(OP_CREATE, path, NULL);
	/* O_EXCL, O_TRUNC, O_SYNC, O_APPEND... as the caller asked */
	fd = openat(bfd, rel(path),
		    (fi->flags & ~O_NOCTTY) | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
		    mode);
	if (fd < 0)
		return -errno;
	own_fd(fd);
	fi->fh = (uint64_t)fd;
	return 0;
}

static int ffs_read(const char *path, char *buf, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	size_t done = 0;
	ssize_t n;

	INJECT(OP_READ, path, NULL);
	while (done < size) {
		n = pread((int)fi->fh, buf + done, size - done,
			  off + (off_t)done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return done ? (int)done : -errno;
		if (!n)
			break;
		done += (size_t)n;
	}
	return (int)done;
}

static int ffs_write(const char *path, const char *buf, size_t size, off_t off,
		     struct fuse_file_info *fi)
{
	size_t done = 0;
	ssize_t n;

	INJECT(OP_WRITE, path, NULL);
	while (done < size) {
		n = pwrite((int)fi->fh, buf + done, size - done,
			   off + (off_t)done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return done ? (int)done : -errno;
		if (!n)
			break;
		done += (size_t)n;
	}
	return (int)done;
}

static int ffs_statfs(const char *path, struct statvfs *sv)
{
	INJECT(OP_STATFS, path, NULL);
	return ret0(fstatvfs(bfd, sv));
}

static int ffs_flush(const char *path, struct fuse_file_info *fi)
{
	int fd;

	INJECT(OP_FLUSH, path, NULL);
	/* close a duplicate: what close() would do on the backing fs */
	fd = dup((int)fi->fh);
	if (fd < 0)
		return -errno;
	return ret0(close(fd));
}

static int ffs_release(const char *path, struct fuse_file_info *fi)
{
	/* an error here reaches nobody: only a delay makes sense */
	int r = inject(OP_RELEASE, path, NULL);

	close((int)fi->fh);
	return r;
}

static int ffs_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	INJECT(OP_FSYNC, path, NULL);
	return ret0(datasync ? fdatasync((int)fi->fh) : fsync((int)fi->fh));
}

static int ffs_setxattr(const char *path, const char *name, const char *val,
			size_t size, int flags)
{
	char p[PATH_MAX + 64];
	int r;

	INJECT(OP_SETXATTR, path, NULL);
	r = proc_path(p, sizeof(p), path);
	return r ? r : ret0(lsetxattr(p, name, val, size, flags));
}

static int ffs_getxattr(const char *path, const char *name, char *val,
			size_t size)
{
	char p[PATH_MAX + 64];
	ssize_t n;
	int r;

	INJECT(OP_GETXATTR, path, NULL);
	r = proc_path(p, sizeof(p), path);
	if (r)
		return r;
	n = lgetxattr(p, name, val, size);
	return n < 0 ? -errno : (int)n;
}

static int ffs_listxattr(const char *path, char *list, size_t size)
{
	char p[PATH_MAX + 64];
	ssize_t n;
	int r;

	INJECT(OP_LISTXATTR, path, NULL);
	r = proc_path(p, sizeof(p), path);
	if (r)
		return r;
	n = llistxattr(p, list, size);
	return n < 0 ? -errno : (int)n;
}

static int ffs_removexattr(const char *path, const char *name)
{
	char p[PATH_MAX + 64];
	int r;

	INJECT(OP_REMOVEXATTR, path, NULL);
	r = proc_path(p, sizeof(p), path);
	return r ? r : ret0(lremovexattr(p, name));
}

static int ffs_opendir(const char *path, struct fuse_file_info *fi)
{
	int fd;

	INJECT(OP_OPENDIR, path, NULL);
	fd = openat(bfd, rel(path),
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	fi->fh = (uint64_t)fd;
	return 0;
}

/*
 * The offset of an entry is the backing directory's own cookie (d_off),
 * so a listing can be resumed anywhere with lseek(); the kernel serialises
 * readdir calls on one open directory.
 */
static int ffs_readdir(const char *path, void *buf, fuse_fill_dir_t filler,
		       off_t off, struct fuse_file_info *fi,
		       enum fuse_readdir_flags flags)
{
	char dents[32768];
	int fd = (int)fi->fh;
	ssize_t n;

	(void)flags;
	INJECT(OP_READDIR, path, NULL);
	if (lseek(fd, off, SEEK_SET) < 0)
		return -errno;
	while ((n = getdents64(fd, dents, sizeof(dents))) > 0) {
		for (ssize_t pos = 0; pos < n;) {
			struct dirent64 *d = (struct dirent64 *)(dents + pos);
			struct stat st;

			memset(&st, 0, sizeof(st));
			st.st_ino = d->d_ino;
			st.st_mode = DTTOIF(d->d_type);
			if (filler(buf, d->d_name, &st, d->d_off, 0))
				return 0;
			pos += d->d_reclen;
		}
	}
	return n < 0 ? -errno : 0;
}

static int ffs_releasedir(const char *path, struct fuse_file_info *fi)
{
	int r = inject(OP_RELEASEDIR, path, NULL);

	close((int)fi->fh);
	return r;
}

static int ffs_fsyncdir(const char *path, int datasync,
			struct fuse_file_info *fi)
{
	INJECT(OP_FSYNCDIR, path, NULL);
	return ret0(datasync ? fdatasync((int)fi->fh) : fsync((int)fi->fh));
}

static int ffs_access(const char *path, int mask)
{
	INJECT(OP_ACCESS, path, NULL);
	return ret0(faccessat(bfd, rel(path), mask, 0));
}

static int ffs_utimens(const char *path, const struct timespec ts[2],
		       struct fuse_file_info *fi)
{
	INJECT(OP_UTIMENS, path, NULL);
	if (fi)
		return ret0(futimens((int)fi->fh, ts));
	return ret0(utimensat(bfd, rel(path), ts, AT_SYMLINK_NOFOLLOW));
}

static int ffs_fallocate(const char *path, int mode, off_t off, off_t len,
			 struct fuse_file_info *fi)
{
	INJECT(OP_FALLOCATE, path, NULL);
	return ret0(fallocate((int)fi->fh, mode, off, len));
}

static off_t ffs_lseek(const char *path, off_t off, int whence,
		       struct fuse_file_info *fi)
{
	off_t r;

	INJECT(OP_LSEEK, path, NULL);
	r = lseek((int)fi->fh, off, whence);
	return r < 0 ? -errno : r;
}

static const struct fuse_operations ffs_ops = {
	.init = ffs_init,
	.getattr = ffs_getattr,
	.readlink = ffs_readlink,
	.mknod = ffs_mknod,
	.mkdir = ffs_mkdir,
	.unlink = ffs_unlink,
	.rmdir = ffs_rmdir,
	.symlink = ffs_symlink,
	.rename = ffs_rename,
	.link = ffs_link,
	.chmod = ffs_chmod,
	.chown = ffs_chown,
	.truncate = ffs_truncate,
	.open = ffs_open,
	.create = ffs_create,
	.read = ffs_read,
	.write = ffs_write,
	.statfs = ffs_statfs,
	.flush = ffs_flush,
	.release = ffs_release,
	.fsync = ffs_fsync,
	.setxattr = ffs_setxattr,
	.getxattr = ffs_getxattr,
	.listxattr = ffs_listxattr,
	.removexattr = ffs_removexattr,
	.opendir = ffs_opendir,
	.readdir = ffs_readdir,
	.releasedir = ffs_releasedir,
	.fsyncdir = ffs_fsyncdir,
	.access = ffs_access,
	.utimens = ffs_utimens,
	.fallocate = ffs_fallocate,
	.lseek = ffs_lseek,
};

/* ------------------------------- SIGHUP -------------------------------- */

static int open_log(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

	if (fd < 0)
		fprintf(stderr, PROG ": --log %s: %s\n", path, strerror(errno));
	return fd;
}

static void reload(void)
{
	struct ruleset rs, old;
	int fd;

	if (log_path) {
		fd = open_log(log_path);
		if (fd >= 0) {
			/* swapped in place: writers never see a closed fd */
			dup2(fd, log_fd);
			close(fd);
		}
	}
	if (!rules_path)
		return;
	if (load_rules_file(rules_path, &rs)) {
		fprintf(stderr, PROG ": keeping the previous rules\n");
		return;
	}
	pthread_mutex_lock(&rules_lock);
	old = file_rules;
	file_rules = rs;
	update_mask();
	pthread_mutex_unlock(&rules_lock);
	ruleset_free(&old);
	fprintf(stderr, PROG ": %zu rules from %s\n", rs.n, rules_path);
}

static void *hup_thread(void *arg)
{
	const sigset_t *set = arg;
	int sig;

	for (;;)
		if (!sigwait(set, &sig))
			reload();
	return NULL;
}

/* -------------------------------- main --------------------------------- */

static const char usage_text[] =
	"Usage: " PROG " BACKING_DIR MOUNTPOINT [OPTIONS] [FUSE OPTIONS]\n"
	"Mount BACKING_DIR again at MOUNTPOINT, pass every operation through,\n"
	"and delay or fail the operations that match a rule.\n"
	"\n"
	"  --rule 'SPEC'    add a rule (repeatable)\n"
	"  --rules FILE     rules from FILE, one per line, # comments;\n"
	"                   SIGHUP re-reads it (and reopens the log)\n"
	"  --log FILE       append a line per injection event (default:\n"
	"                   stderr)\n"
	"  --pidfile FILE   write the pid there once mounted\n"
	"  -f               stay in the foreground\n"
	"  -o OPT[,OPT...]  FUSE options (default_permissions, allow_other,\n"
	"                   max_threads=N, default here 128...)\n"
	"\n"
	"SPEC: OP[:PATTERN] [delay=MS] [error=ERRNO] [every=N | period=MS]\n"
	"      [after=MS] [count=N]\n"
	"  OP         getattr readlink mknod mkdir unlink rmdir symlink\n"
	"             rename link chmod chown truncate open create read\n"
	"             write statfs flush release fsync setxattr getxattr\n"
	"             listxattr removexattr opendir readdir releasedir\n"
	"             fsyncdir access utimens fallocate lseek, or any\n"
	"  PATTERN    fnmatch glob on the path relative to the mount root\n"
	"             ('*' also matches '/'), e.g. '*/~wr*.tmp'\n"
	"  delay=MS   sleep that long, then do the operation\n"
	"  intr=1     a signal to the caller ends the delay: EINTR\n"
	"  error=E    fail it with errno E: a name (EIO, ENOSPC...) or a\n"
	"             number\n"
	"  every=N    inject on every Nth matching call (default: every)\n"
	"  period=MS  inject on the first matching call of each period\n"
	"  after=MS   only from MS after mounting\n"
	"  count=N    at most N injections\n"
	"See tests/faultfs/README.md.\n";

/*
 * --opt VALUE or --opt=VALUE at argv[*i]: sets *@val and returns 1; 0 if
 * argv[*i] is not --opt; -1 if the value is missing.
 */
static int opt_value(int argc, char *argv[], int *i, const char *opt,
		     const char **val)
{
	size_t len = strlen(opt);
	const char *a = argv[*i];

	if (strncmp(a, opt, len) || (a[len] && a[len] != '='))
		return 0;
	if (a[len] == '=') {
		*val = a + len + 1;
		return 1;
	}
	if (*i + 1 >= argc) {
		fprintf(stderr, PROG ": %s needs a value\n", opt);
		return -1;
	}
	*val = argv[++*i];
	return 1;
}

struct cmdline {
	const char *backing;
	bool user_max_threads; /* -o max_threads=N given */
	int fargc;
	char **fargv; /* what is left for libfuse */
};

/* Take our options and BACKING_DIR out of argv; 0, or the exit status. */
static int parse_args(int argc, char *argv[], struct cmdline *c)
{
	static const char *const opts[] = {"--rules", "--rule", "--log",
					   "--pidfile"};
	bool dashdash = false;
	const char *v = NULL;
	char msg[256];
	struct rule r;

	c->fargv = calloc((size_t)argc + 1, sizeof(*c->fargv));
	if (!c->fargv)
		return 1;
	c->fargv[c->fargc++] = argv[0];
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *fopt = NULL;
		int got = 0, k;

		if (dashdash || a[0] != '-') {
			if (!c->backing)
				c->backing = a;
			else
				c->fargv[c->fargc++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			dashdash = true;
			c->fargv[c->fargc++] = argv[i];
			continue;
		}
		for (k = 0; k < 4; k++) {
			got = opt_value(argc, argv, &i, opts[k], &v);
			if (got)
				break;
		}
		if (got < 0)
			return 2;
		if (!got) {
			/* a FUSE option; -o takes the next argument */
			if (!strcmp(a, "-o") && i + 1 < argc) {
				c->fargv[c->fargc++] = argv[i++];
				fopt = argv[i];
			} else if (!strncmp(a, "-o", 2)) {
				fopt = a + 2;
			}
			if (fopt && strstr(fopt, "max_threads="))
				c->user_max_threads = true;
			c->fargv[c->fargc++] = argv[i];
			continue;
		}
		switch (k) {
		case 0:
			rules_path = v;
			break;
		case 1:
			if (parse_rule(v, &r, msg, sizeof(msg))) {
				fprintf(stderr, PROG ": --rule '%s': %s\n", v,
					msg);
				return 2;
			}
			if (ruleset_add(&cli_rules, &r)) {
				rule_free(&r);
				return 1;
			}
			break;
		case 2:
			log_path = v;
			break;
		case 3:
			pid_path = v;
			break;
		}
	}
	return 0;
}

static int run_loop(struct fuse *fuse, struct fuse_cmdline_opts *o,
		    bool user_max_threads)
{
	int rc;

	if (o->singlethread)
		return fuse_loop(fuse);
#if FUSE_USE_VERSION >= 312
	struct fuse_loop_config *cfg = fuse_loop_cfg_create();

	if (!cfg)
		return -1;
	fuse_loop_cfg_set_clone_fd(cfg, (unsigned int)o->clone_fd);
	if (o->max_idle_threads != UINT_MAX) /* -1: not given */
		fuse_loop_cfg_set_idle_threads(cfg, o->max_idle_threads);
	fuse_loop_cfg_set_max_threads(cfg, user_max_threads ? o->max_threads
							    : MAX_THREADS);
	rc = fuse_loop_mt(fuse, cfg);
	fuse_loop_cfg_destroy(cfg);
#else
	struct fuse_loop_config cfg = {
		.clone_fd = o->clone_fd,
		.max_idle_threads = o->max_idle_threads,
	};

	(void)user_max_threads;
	rc = fuse_loop_mt(fuse, &cfg);
#endif
	return rc;
}

int main(int argc, char *argv[])
{
	struct cmdline c = {0};
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
	struct fuse_cmdline_opts o = {0};
	struct fuse_session *se;
	struct fuse *fuse;
	sigset_t hup, all, mask;
	pthread_t tid;
	int rc, err;
	FILE *pf;

	rc = parse_args(argc, argv, &c);
	if (rc)
		goto out;
	args.argc = c.fargc;
	args.argv = c.fargv;
	rc = 2;
	if (fuse_parse_cmdline(&args, &o))
		goto out;
	rc = 0;
	if (o.show_help) {
		fputs(usage_text, stdout);
		printf("\n");
		fuse_cmdline_help();
		fuse_lib_help(&args);
		goto out;
	}
	if (o.show_version) {
		printf(PROG " (libfuse %s)\n", fuse_pkgversion());
		goto out;
	}
	rc = 2;
	if (!c.backing || !o.mountpoint) {
		fprintf(stderr, PROG ": no %s\nTry '" PROG " --help'.\n",
			c.backing ? "MOUNTPOINT" : "BACKING_DIR");
		goto out;
	}
	if (rules_path && load_rules_file(rules_path, &file_rules))
		goto out;
	update_mask();
	rc = 1;
	bfd = open(c.backing, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (bfd < 0) {
		fprintf(stderr, PROG ": %s: %s\n", c.backing, strerror(errno));
		goto out;
	}
	if (log_path) {
		log_fd = open_log(log_path);
		if (log_fd < 0)
			goto out;
	}
	/* modes come from the kernel with the caller's umask applied */
	umask(0);
	self_uid = geteuid();
	self_gid = getegid();

	fuse = fuse_new(&args, &ffs_ops, sizeof(ffs_ops), NULL);
	if (!fuse)
		goto out;
	if (fuse_mount(fuse, o.mountpoint))
		goto out_destroy;
	mount_ns = mono_ns();
	se = fuse_get_session(fuse);
	session = se;
	if (fuse_daemonize(o.foreground))
		goto out_unmount;
	if (fuse_set_signal_handlers(se))
		goto out_unmount;
	/*
	 * SIGHUP is taken by one thread that blocks every signal, so SIGTERM
	 * and SIGINT go to the main thread (libfuse's workers block them)
	 * and end the loop even while a worker sleeps in a delay.
	 */
	sigemptyset(&hup);
	sigaddset(&hup, SIGHUP);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &mask);
	err = pthread_create(&tid, NULL, hup_thread, &hup);
	sigaddset(&mask, SIGHUP);
	pthread_sigmask(SIG_SETMASK, &mask, NULL);
	if (err) {
		fprintf(stderr, PROG ": cannot start the SIGHUP thread\n");
		goto out_signals;
	}
	pthread_detach(tid);
	if (pid_path) {
		pf = fopen(pid_path, "we");
		if (!pf || fprintf(pf, "%d\n", (int)getpid()) < 0 ||
		    fclose(pf)) {
			fprintf(stderr, PROG ": --pidfile %s: %s\n", pid_path,
				strerror(errno));
			goto out_signals;
		}
	}
	/* 0, a signal number (SIGTERM...) or -errno */
	rc = run_loop(fuse, &o, c.user_max_threads) < 0;
	if (pid_path)
		unlink(pid_path);
out_signals:
	fuse_remove_signal_handlers(se);
out_unmount:
	fuse_unmount(fuse);
out_destroy:
	fuse_destroy(fuse);
out:
	fuse_opt_free_args(&args);
	free(o.mountpoint);
	free(c.fargv);
	return rc;
}
