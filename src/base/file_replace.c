/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * file_replace.c - whole-or-nothing file writes, for the JSON result, the
 * compare report and the HTML page.
 */
#include "file_replace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"

/* @path's directory ("." for a bare name), for O_TMPFILE */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *d;

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	d = strndup(path, (size_t)(slash - path));
	return d;
}

/* The last component of @path */
static const char *base_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

int file_replace_begin(struct file_pending *p, const char *path,
		       const char *opt, char *err, size_t errlen)
{
	static const char suffix[] = ".tmp.XXXXXX";
	size_t len = strlen(path);
	struct stat st;
	mode_t mask;
	char *dir;
	int e;

	p->path = path;
	p->opt = opt;
	p->tmp = NULL;
	p->fd = -1;
	p->dirfd = -1;
	p->unnamed = false;
	if (!strcmp(path, "-"))
		return 0;
	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s %s: %s", opt, path, strerror(EISDIR));
		return -1;
	}
	p->tmp = malloc(len + sizeof(suffix));
	dir = dir_of(path);
	if (!p->tmp || !dir) {
		free(dir);
		free(p->tmp);
		p->tmp = NULL;
		snprintf(err, errlen, "%s %s: out of memory", opt, path);
		return -1;
	}
	memcpy(p->tmp, path, len);
	memcpy(p->tmp + len, suffix, sizeof(suffix));
	mask = umask(0);
	umask(mask);
	p->dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (p->dirfd < 0) {
		e = errno;
		goto fail;
	}
	/* an unnamed file, given its name only when it is complete: a
	 * process killed meanwhile leaves nothing behind */
	p->fd = openat(p->dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC,
		       0666 & ~mask);
	if (p->fd >= 0) {
		p->unnamed = true;
		return 0;
	}
	if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
		e = errno;
		goto fail;
	}
	p->fd = mkstemp(p->tmp); /* a filesystem without O_TMPFILE */
	if (p->fd < 0) {
		e = errno;
		goto fail;
	}
	if (fchmod(p->fd, 0666 & ~mask)) { /* mkstemp made it 0600 */
		e = errno;
		file_replace_abort(p);
		snprintf(err, errlen, "%s %s: %s", opt, path, strerror(e));
		return -1;
	}
	return 0;
fail:
	free(p->tmp);
	p->tmp = NULL;
	p->fd = -1;
	if (p->dirfd >= 0)
		close(p->dirfd);
	p->dirfd = -1;
	snprintf(err, errlen, "%s %s: %s", opt, path, strerror(e));
	return -1;
}

void file_replace_abort(struct file_pending *p)
{
	if (!p->tmp)
		return;
	if (p->fd >= 0)
		close(p->fd);
	if (!p->unnamed)
		unlinkat(p->dirfd, base_of(p->tmp), 0);
	close(p->dirfd);
	free(p->tmp);
	p->tmp = NULL;
	p->fd = -1;
	p->dirfd = -1;
}

/* Give the complete unnamed file of @p the name p->tmp (made unique).
 * 0, or -1 with errno set. */
static int name_unnamed(struct file_pending *p)
{
	static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
	char proc[64];
	size_t n = strlen(p->tmp);

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", p->fd);
	for (int attempt = 0; attempt < 100; attempt++) {
		uint64_t x = clock_ns() ^ ((uint64_t)getpid() << 32) ^
			     (uint64_t)attempt;

		for (size_t i = n - 6; i < n; i++, x /= 36)
			p->tmp[i] = digits[x % 36];
		if (!linkat(AT_FDCWD, proc, p->dirfd, base_of(p->tmp),
			    AT_SYMLINK_FOLLOW))
			return 0;
		if (errno == ENOENT) /* no /proc: root may link the fd */
			if (!linkat(p->fd, "", p->dirfd, base_of(p->tmp),
				    AT_EMPTY_PATH))
				return 0;
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

int file_replace_write(struct file_pending *p, file_emit_fn emit,
		       const void *ctx, bool sync, char *err, size_t errlen)
{
	FILE *f;
	int e;

	if (!p->tmp) {
		snprintf(err, errlen, "%s %s: no temporary file", p->opt,
			 p->path);
		return -1;
	}
	f = fdopen(dup(p->fd), "w");
	if (!f) {
		e = errno;
		goto fail;
	}
	errno = 0;
	if (emit(f, ctx) || fflush(f) || (sync && fsync(fileno(f)))) {
		e = errno ? errno : EIO;
		fclose(f);
		goto fail;
	}
	if (fclose(f)) {
		e = errno;
		goto fail;
	}
	return 0;
fail:
	file_replace_abort(p);
	snprintf(err, errlen, "%s %s: %s", p->opt, p->path, strerror(e));
	return -1;
}

int file_replace_commit(struct file_pending *p, char *err, size_t errlen)
{
	int e;

	if (!p->tmp) {
		snprintf(err, errlen, "%s %s: no temporary file", p->opt,
			 p->path);
		return -1;
	}
	if (p->unnamed && name_unnamed(p)) {
		e = errno;
		goto fail;
	}
	p->unnamed = false; /* it has a name now: a failure unlinks it */
	if (renameat(p->dirfd, base_of(p->tmp), p->dirfd, base_of(p->path))) {
		e = errno;
		goto fail;
	}
	close(p->fd);
	close(p->dirfd);
	free(p->tmp);
	p->tmp = NULL;
	p->fd = -1;
	p->dirfd = -1;
	return 0;
fail:
	file_replace_abort(p);
	snprintf(err, errlen, "%s %s: %s", p->opt, p->path, strerror(e));
	return -1;
}

int file_replace_end(struct file_pending *p, file_emit_fn emit, const void *ctx,
		     char *err, size_t errlen)
{
	if (!strcmp(p->path, "-")) {
		errno = 0;
		if (emit(stdout, ctx) || fflush(stdout)) {
			snprintf(err, errlen,
				 "%s -: cannot write to stdout: %s", p->opt,
				 strerror(errno ? errno : EIO));
			return -1;
		}
		return 0;
	}
	if (file_replace_write(p, emit, ctx, true, err, errlen))
		return -1;
	return file_replace_commit(p, err, errlen);
}

int file_replace(const char *path, const char *opt, file_emit_fn emit,
		 const void *ctx, char *err, size_t errlen)
{
	struct file_pending p;

	if (file_replace_begin(&p, path, opt, err, errlen))
		return -1;
	return file_replace_end(&p, emit, ctx, err, errlen);
}
