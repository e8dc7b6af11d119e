/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * env.c - capture the host and the filesystem of the -D directory for the
 * result: uname, /proc/cpuinfo, /proc/meminfo, sysconf, statvfs, and the
 * directory's mount found in /proc/self/mountinfo (parsed per proc(5)).
 */
#include "env.h"
#include "env_test.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#define MOUNTINFO "/proc/self/mountinfo"
#define CPUINFO	  "/proc/cpuinfo"
#define MEMINFO	  "/proc/meminfo"

/* ------------------------------ mountinfo ------------------------------ */

/* One parsed line: pointers into the line's buffer. */
struct mi_line {
	unsigned int major, minor;
	char *root, *mount_point, *options;
	char *fs_type, *source, *super_options;
};

/* Decode the kernel's octal escapes (\040 space, \011 tab, \012 newline,
 * \134 backslash, any \ooo) in place. */
static void mi_unescape(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7' &&
		    (s[1] != '0' || s[2] != '0' || s[3] != '0')) {
			*d++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
				      (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
}

static bool mi_number(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* Parse one line in place:
 *   ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE
 *   SUPEROPTIONS
 * Fields are separated by one space (an empty SOURCE shows as two).
 * 0, or -1 for a malformed line. */
static int mi_parse(char *line, struct mi_line *ml)
{
	char *f[6], *tail[3] = {NULL, NULL, NULL}, *tok, *p = line;
	unsigned long maj, min;
	char *end;
	int n = 0, nt = 0;
	bool sep = false;

	line[strcspn(line, "\n")] = '\0';
	while ((tok = strsep(&p, " "))) {
		if (n < 6)
			f[n++] = tok;
		else if (!sep)
			sep = !strcmp(tok, "-"); /* else an optional field */
		else if (nt < 3)
			tail[nt++] = tok;
		/* anything after SUPEROPTIONS is ignored */
	}
	if (n < 6 || !sep || nt < 2)
		return -1;
	if (!mi_number(f[0]) || !mi_number(f[1]))
		return -1;
	errno = 0;
	maj = strtoul(f[2], &end, 10);
	if (end == f[2] || *end != ':' || errno)
		return -1;
	tok = end + 1;
	min = strtoul(tok, &end, 10);
	if (end == tok || *end || errno || maj > UINT_MAX || min > UINT_MAX)
		return -1;
	if (f[4][0] != '/' || !tail[0][0])
		return -1;
	ml->major = (unsigned int)maj;
	ml->minor = (unsigned int)min;
	ml->root = f[3];
	ml->mount_point = f[4];
	ml->options = f[5];
	ml->fs_type = tail[0];
	ml->source = tail[1];
	ml->super_options = tail[2];
	mi_unescape(ml->root);
	mi_unescape(ml->mount_point);
	mi_unescape(ml->fs_type);
	mi_unescape(ml->source);
	return 0;
}

/* How well mount point @mp holds @path: 0 not at all, else 1 + the length
 * of the matched prefix (so "/" scores 1 and deeper mounts score more). */
static size_t mi_score(const char *mp, const char *path)
{
	size_t len = strlen(mp);

	while (len > 1 && mp[len - 1] == '/')
		len--;
	if (len == 1)
		return path[0] == '/' ? 1 : 0;
	if (strncmp(mp, path, len) || (path[len] && path[len] != '/'))
		return 0;
	return len + 1;
}

/* A candidate: the parsed line and the buffer it points into. */
struct mi_pick {
	char *buf;
	struct mi_line ml;
	size_t score;
};

static int mi_copy(const struct mi_line *ml, struct env_mount *out)
{
	struct env_mount m = {
		.major = ml->major,
		.minor = ml->minor,
		.root = strdup(ml->root),
		.mount_point = strdup(ml->mount_point),
		.fs_type = strdup(ml->fs_type),
		.source = strdup(ml->source),
		.options = strdup(ml->options),
		.super_options =
			ml->super_options ? strdup(ml->super_options) : NULL,
	};

	if (!m.root || !m.mount_point || !m.fs_type || !m.source ||
	    !m.options || (ml->super_options && !m.super_options)) {
		env_mount_free(&m);
		return -ENOMEM;
	}
	*out = m;
	return 0;
}

/* The mountinfo of the namespace the run was started in (see
 * env_keep_mountinfo()), or NULL: the current one is read */
static char *kept_mi;
static size_t kept_mi_len;

void env_keep_mountinfo(void)
{
	char buf[8192];
	FILE *f, *m;
	size_t n;

	if (kept_mi)
		return;
	f = fopen(MOUNTINFO, "re");
	if (!f)
		return;
	m = open_memstream(&kept_mi, &kept_mi_len);
	if (m) {
		while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
			fwrite(buf, 1, n, m);
		if (ferror(f) | fclose(m)) {
			free(kept_mi);
			kept_mi = NULL;
		}
	}
	fclose(f);
}

static int lookup_in(FILE *f, const char *real_path, const dev_t *dev,
		     struct env_mount *out);

int env_mount_lookup_dev(const char *mountinfo_path, const char *real_path,
			 const dev_t *dev, struct env_mount *out)
{
	FILE *f;

	memset(out, 0, sizeof(*out));
	f = fopen(mountinfo_path, "re");
	if (!f)
		return -errno;
	return lookup_in(f, real_path, dev, out);
}

/* env_mount_lookup_dev() on the open mountinfo @f, which it closes */
static int lookup_in(FILE *f, const char *real_path, const dev_t *dev,
		     struct env_mount *out)
{
	struct mi_pick by_path = {0}, by_dev = {0}, *pick;
	struct mi_line ml;
	char *line = NULL;
	size_t cap = 0, score;
	bool dev_ok, keep;
	int ret;

	while (getline(&line, &cap, f) >= 0) {
		if (mi_parse(line, &ml))
			continue;
		score = mi_score(ml.mount_point, real_path);
		if (!score)
			continue;
		dev_ok = dev && ml.major == major(*dev) &&
			 ml.minor == minor(*dev);
		keep = false;
		/* >=: of equal mount points the later line wins */
		if (score >= by_path.score) {
			if (by_path.buf != by_dev.buf)
				free(by_path.buf);
			by_path = (struct mi_pick){line, ml, score};
			keep = true;
		}
		if (dev_ok && score >= by_dev.score) {
			if (by_dev.buf != by_path.buf)
				free(by_dev.buf);
			by_dev = (struct mi_pick){line, ml, score};
			keep = true;
		}
		if (keep) { /* the line now belongs to a pick */
			line = NULL;
			cap = 0;
		}
	}
	/* getline() stops at the end, on a read error or without memory
	 * (errno set) */
	ret = ferror(f) || !feof(f) ? -(errno ? errno : EIO) : 0;
	fclose(f);
	free(line);

	pick = &by_path;
	if (dev && by_dev.score &&
	    (by_path.ml.major != major(*dev) ||
	     by_path.ml.minor != minor(*dev)))
		pick = &by_dev;
	if (!ret)
		ret = pick->score ? mi_copy(&pick->ml, out) : -ENOENT;
	if (by_dev.buf != by_path.buf)
		free(by_dev.buf);
	free(by_path.buf);
	return ret;
}

int env_mount_lookup(const char *mountinfo_path, const char *real_path,
		     struct env_mount *out)
{
	return env_mount_lookup_dev(mountinfo_path, real_path, NULL, out);
}

void env_mount_free(struct env_mount *m)
{
	free(m->root);
	free(m->mount_point);
	free(m->fs_type);
	free(m->source);
	free(m->options);
	free(m->super_options);
	memset(m, 0, sizeof(*m));
}

/* ------------------------------ /proc files ---------------------------- */

/* Trim blanks at both ends of @s, in place. */
static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' ||
			 e[-1] == '\r'))
		e--;
	*e = '\0';
	return s;
}

char *env_cpu_model(const char *cpuinfo_path)
{
	/* in order of preference; keys are case-sensitive ("processor" is
	 * x86's CPU number, "Processor" an ARM name) */
	static const char *const keys[] = {
		"model name", "Hardware", "cpu model", "Processor", "cpu",
	};
	const size_t nkeys = sizeof(keys) / sizeof(keys[0]);
	char *line = NULL, *colon, *key, *val, *best = NULL;
	size_t cap = 0, rank = nkeys, i;
	FILE *f = fopen(cpuinfo_path, "re");

	if (!f)
		return NULL;
	while (rank > 0 && getline(&line, &cap, f) >= 0) {
		colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		key = trim(line);
		val = trim(colon + 1);
		if (!*val)
			continue;
		for (i = 0; i < rank; i++) {
			if (strcmp(key, keys[i]))
				continue;
			val = strdup(val);
			if (val) {
				free(best);
				best = val;
				rank = i;
			}
			break;
		}
	}
	free(line);
	fclose(f);
	return best;
}

uint64_t env_mem_total(const char *meminfo_path)
{
	unsigned long long kb;
	char *line = NULL;
	size_t cap = 0;
	uint64_t bytes = 0;
	FILE *f = fopen(meminfo_path, "re");

	if (!f)
		return 0;
	while (getline(&line, &cap, f) >= 0) {
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) {
			bytes = (uint64_t)kb * 1024;
			break;
		}
	}
	free(line);
	fclose(f);
	return bytes;
}

/* ------------------------------- capture ------------------------------- */

static char *dup_or_null(const char *s)
{
	return s && *s ? strdup(s) : NULL;
}

/* "PER-MOUNT | SUPER", or PER-MOUNT alone */
static char *join_options(const char *per_mount, const char *super)
{
	char *s;

	if (!super || !*super)
		return strdup(per_mount);
	if (asprintf(&s, "%s | %s", per_mount, super) < 0)
		return NULL;
	return s;
}

static void capture_fs(struct result_env *env)
{
	struct env_mount m;
	struct statvfs sv;
	struct stat st;
	bool have_dev;

	if (!statvfs(env->dir_real, &sv)) {
		env->fs_size_bytes = (uint64_t)sv.f_blocks * sv.f_frsize;
		env->fs_free_bytes = (uint64_t)sv.f_bavail * sv.f_frsize;
	}
	have_dev = !stat(env->dir_real, &st);
	if (kept_mi) { /* the user's view, not the run's own bind of DIR */
		FILE *f = fmemopen(kept_mi, kept_mi_len, "r");

		memset(&m, 0, sizeof(m));
		if (!f || lookup_in(f, env->dir_real,
				    have_dev ? &st.st_dev : NULL, &m))
			return;
	} else if (env_mount_lookup_dev(MOUNTINFO, env->dir_real,
					have_dev ? &st.st_dev : NULL, &m)) {
		return;
	}
	env->fs_type = m.fs_type;
	env->fs_device = m.source;
	env->fs_mount_point = m.mount_point;
	m.fs_type = m.source = m.mount_point = NULL;
	env->fs_options = join_options(m.options, m.super_options);
	env_mount_free(&m);
}

int env_capture(struct result_env *env, const char *dir, char *err,
		size_t errlen)
{
	struct utsname u;
	char *real, *copy;
	long n;

	if (!dir) /* a backend that does not work beneath -D (sockio) */
		goto host;
	real = realpath(dir, NULL);
	if (!real) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	copy = strdup(dir);
	if (!copy) {
		free(real);
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", dir, strerror(ENOMEM));
		return -1;
	}
	env->dir = copy;
	env->dir_real = real;
	capture_fs(env);
host:
	if (!uname(&u)) {
		env->hostname = dup_or_null(u.nodename);
		env->kernel = dup_or_null(u.release);
		env->kernel_version = dup_or_null(u.version);
		env->machine = dup_or_null(u.machine);
	}
	env->cpu_model = env_cpu_model(CPUINFO);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	env->cpus = n > 0 && n <= INT_MAX ? (int)n : 0;
	env->mem_bytes = env_mem_total(MEMINFO);
	return 0;
}

void env_free(struct result_env *env)
{
	int i;

	free(env->hostname);
	free(env->kernel);
	free(env->kernel_version);
	free(env->machine);
	free(env->cpu_model);
	free(env->dir);
	free(env->dir_real);
	free(env->fs_type);
	free(env->fs_device);
	free(env->fs_mount_point);
	free(env->fs_options);
	for (i = 0; i < env->nloadfiles; i++) {
		if (env->loadfile_name)
			free(env->loadfile_name[i]);
		if (env->loadfile_sha256)
			free(env->loadfile_sha256[i]);
	}
	free(env->loadfile_name);
	free(env->loadfile_sha256);
	memset(env, 0, sizeof(*env));
}
