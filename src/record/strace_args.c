/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * strace_args.c - the text of one call in a log of "strace -f -tt -T -y":
 * its arguments split at the commas of the top level (strings with C
 * escapes, structures, arrays, comments and the -y annotations of
 * descriptors, "3</path>", may hold commas and parentheses), each decoded
 * as the form of the call wants (a path, a number or flags written with
 * their names, a structure's fields: st_mode, st_size, l_type, ...), and
 * its result (a number, or -1 and the errno's name).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strace_impl.h"

/* the end of the -y annotation that starts at @s ('<'), or NULL */
const char *st_annot_end(const char *s)
{
	for (s++; *s; s++) {
		if (*s == '\\' && s[1])
			s++;
		else if (*s == '>')
			return s;
	}
	return NULL;
}

/* the end of the string that starts at @s ('"'), or NULL */
static const char *str_end(const char *s)
{
	for (s++; *s; s++) {
		if (*s == '\\' && s[1])
			s++;
		else if (*s == '"')
			return s;
	}
	return NULL;
}

int st_split(const char *text, struct st_call *c, const char **why)
{
	const char *s = text, *start;
	int depth = 0;
	size_t n = 0;

	memset(c, 0, sizeof(*c));
	while ((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= '0' && s[n] <= '9') ||
	       s[n] == '_' || (s[n] >= 'A' && s[n] <= 'Z'))
		n++;
	if (!n || n >= sizeof(c->name) || s[n] != '(') {
		*why = "no system call name";
		return -1;
	}
	memcpy(c->name, s, n);
	c->name[n] = 0;
	s += n + 1;
	start = s;
	for (;; s++) {
		switch (*s) {
		case 0:
			*why = "the arguments do not end";
			return -1;
		case '"':
			if (!(s = str_end(s))) {
				*why = "an unterminated string";
				return -1;
			}
			continue;
		case '<':
			if (s > text && (s[-1] == 'D' || (s[-1] >= '0' &&
							  s[-1] <= '9'))) {
				if (!(s = st_annot_end(s))) {
					*why = "an unterminated annotation";
					return -1;
				}
			}
			continue;
		case '/':
			if (s[1] == '*') {
				const char *e = strstr(s + 2, "*/");

				if (!e) {
					*why = "an unterminated comment";
					return -1;
				}
				s = e + 1;
			}
			continue;
		case '(':
		case '[':
		case '{':
			depth++;
			continue;
		case ']':
		case '}':
			depth--;
			continue;
		case ')':
			if (depth--)
				continue;
			break;
		case ',':
			if (depth)
				continue;
			if (c->nargs < ST_MAX_ARGS) {
				c->arg[c->nargs] = start;
				c->alen[c->nargs++] = (size_t)(s - start);
			}
			start = s + 1;
			continue;
		default:
			continue;
		}
		break; /* the closing parenthesis */
	}
	while (*start == ' ')
		start++;
	if (s > start && c->nargs < ST_MAX_ARGS) {
		c->arg[c->nargs] = start;
		c->alen[c->nargs++] = (size_t)(s - start);
	}
	for (int i = 0; i < c->nargs; i++) {
		while (c->alen[i] && *c->arg[i] == ' ') {
			c->arg[i]++;
			c->alen[i]--;
		}
		while (c->alen[i] && c->arg[i][c->alen[i] - 1] == ' ')
			c->alen[i]--;
	}
	s++;
	while (*s == ' ')
		s++;
	if (*s == '=') {
		s++;
		while (*s == ' ')
			s++;
		c->ret = s;
	}
	return 0;
}

/* the C-escaped text of @s (@n bytes) into @buf; NULL if it does not fit */
char *st_unescape(const char *s, size_t n, char *buf, size_t len,
		      size_t *used)
{
	char *out = buf + *used, *o = out;
	const char *e = s + n;

	while (s < e) {
		unsigned int v = 0;
		int k;

		if ((size_t)(o - buf) + 2 > len)
			return NULL;
		if (*s != '\\' || s + 1 >= e) {
			*o++ = *s++;
			continue;
		}
		s++;
		switch (*s) {
		case 'n':
			*o++ = '\n';
			s++;
			break;
		case 't':
			*o++ = '\t';
			s++;
			break;
		case 'r':
			*o++ = '\r';
			s++;
			break;
		case 'v':
			*o++ = '\v';
			s++;
			break;
		case 'f':
			*o++ = '\f';
			s++;
			break;
		case 'x':
			for (s++, k = 0; k < 2 && s < e && strchr(
						"0123456789abcdefABCDEF", *s) &&
					 *s;
			     k++, s++)
				v = v * 16 + (unsigned int)(*s <= '9' ? *s - '0'
						  : (*s | 0x20) - 'a' + 10);
			*o++ = (char)v;
			break;
		default:
			if (*s >= '0' && *s <= '7') {
				for (k = 0; k < 3 && s < e && *s >= '0' &&
					    *s <= '7';
				     k++, s++)
					v = v * 8 + (unsigned int)(*s - '0');
				*o++ = (char)v;
			} else {
				*o++ = *s++;
			}
			break;
		}
	}
	*o++ = 0;
	*used = (size_t)(o - buf);
	return out;
}

static const struct {
	const char *name;
	int64_t v;
} syms[] = {
	{"O_RDONLY", O_RDONLY},
	{"O_WRONLY", O_WRONLY},
	{"O_RDWR", O_RDWR},
	{"O_CREAT", O_CREAT},
	{"O_EXCL", O_EXCL},
	{"O_NOCTTY", O_NOCTTY},
	{"O_TRUNC", O_TRUNC},
	{"O_APPEND", O_APPEND},
	{"O_NONBLOCK", O_NONBLOCK},
	{"O_NDELAY", O_NDELAY},
	{"O_DSYNC", O_DSYNC},
	{"O_SYNC", O_SYNC},
	{"O_DIRECTORY", O_DIRECTORY},
	{"O_NOFOLLOW", O_NOFOLLOW},
	{"O_CLOEXEC", O_CLOEXEC},
	{"O_DIRECT", O_DIRECT},
	{"O_NOATIME", O_NOATIME},
	{"O_PATH", O_PATH},
	{"O_TMPFILE", O_TMPFILE},
	{"O_ASYNC", O_ASYNC},
	{"AT_SYMLINK_NOFOLLOW", AT_SYMLINK_NOFOLLOW},
	{"AT_REMOVEDIR", AT_REMOVEDIR},
	{"AT_SYMLINK_FOLLOW", AT_SYMLINK_FOLLOW},
	{"AT_EMPTY_PATH", AT_EMPTY_PATH},
	{"AT_EACCESS", AT_EACCESS},
	{"F_DUPFD", F_DUPFD},
	{"F_GETFD", F_GETFD},
	{"F_SETFD", F_SETFD},
	{"F_GETFL", F_GETFL},
	{"F_SETFL", F_SETFL},
	{"F_GETLK", F_GETLK},
	{"F_SETLK", F_SETLK},
	{"F_SETLKW", F_SETLKW},
	{"F_GETLK64", F_GETLK},
	{"F_SETLK64", F_SETLK},
	{"F_SETLKW64", F_SETLKW},
	{"F_DUPFD_CLOEXEC", F_DUPFD_CLOEXEC},
	{"F_OFD_GETLK", F_OFD_GETLK},
	{"F_OFD_SETLK", F_OFD_SETLK},
	{"F_OFD_SETLKW", F_OFD_SETLKW},
	{"FD_CLOEXEC", FD_CLOEXEC},
	{"F_RDLCK", F_RDLCK},
	{"F_WRLCK", F_WRLCK},
	{"F_UNLCK", F_UNLCK},
	{"LOCK_SH", LOCK_SH},
	{"LOCK_EX", LOCK_EX},
	{"LOCK_NB", LOCK_NB},
	{"LOCK_UN", LOCK_UN},
	{"SEEK_SET", SEEK_SET},
	{"SEEK_CUR", SEEK_CUR},
	{"SEEK_END", SEEK_END},
	{"RENAME_NOREPLACE", RENAME_NOREPLACE},
	{"RENAME_EXCHANGE", RENAME_EXCHANGE},
	{"RENAME_WHITEOUT", RENAME_WHITEOUT},
	{"MAP_ANONYMOUS", MAP_ANONYMOUS},
	{"S_IFREG", S_IFREG},
	{"S_IFDIR", S_IFDIR},
	{"S_IFLNK", S_IFLNK},
	{"S_IFCHR", S_IFCHR},
	{"S_IFBLK", S_IFBLK},
	{"S_IFIFO", S_IFIFO},
	{"S_IFSOCK", S_IFSOCK},
	{"AT_FDCWD", AT_FDCWD},
};

/* one term of a flags expression: a number or a name (0 if unknown);
 * a number out of range, or a term too long, sets *@bad */
static int64_t term(const char *s, size_t n, bool *bad)
{
	char buf[64], *end;
	long long v;

	if (!n)
		return 0;
	if (n >= sizeof(buf)) {
		*bad = true;
		return 0;
	}
	memcpy(buf, s, n);
	buf[n] = 0;
	if ((buf[0] >= '0' && buf[0] <= '9') || buf[0] == '-') {
		errno = 0;
		if (buf[0] == '0' && (buf[1] | 0x20) == 'x')
			v = (long long)strtoull(buf, &end, 16);
		else
			v = strtoll(buf, &end, buf[0] == '0' ? 8 : 10);
		if (errno == ERANGE)
			*bad = true;
		return v;
	}
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++)
		if (!strcmp(syms[i].name, buf))
			return syms[i].v;
	return 0;
}

/* a number or flags ("O_RDONLY|O_CLOEXEC", "0644", "3</x>") of @n
 * bytes at @s; the -y annotation, if any, in @an / @anl */
static int64_t value(const char *s, size_t n, const char **an, size_t *anl,
		     bool *bad)
{
	const char *e = s + n, *t = s;
	int64_t v = 0;

	*an = NULL;
	*anl = 0;
	for (const char *p = s; p <= e; p++) {
		if (p < e && *p == '<') {
			const char *ae = st_annot_end(p);

			if (ae && ae < e + 1) {
				*an = p + 1;
				*anl = (size_t)(ae - p - 1);
			}
			v |= term(t, (size_t)(p - t), bad);
			return v;
		}
		if (p == e || *p == '|' || *p == ' ') {
			v |= term(t, (size_t)(p - t), bad);
			t = p + 1;
			if (p < e && *p == ' ')
				break; /* a comment or the rest: done */
		}
	}
	return v;
}

/* the value of field @key in structure @s (@n bytes) into @v / @vn */
static bool field(const char *s, size_t n, const char *key, const char **v,
		  size_t *vn)
{
	size_t kl = strlen(key);
	int depth = 0;

	for (size_t i = 0; i < n; i++) {
		char ch = s[i];

		if (ch == '"') {
			const char *e = str_end(s + i);

			if (!e)
				return false;
			i = (size_t)(e - s);
			continue;
		}
		if (ch == '{' || ch == '[' || ch == '(') {
			depth++;
			continue;
		}
		if (ch == '}' || ch == ']' || ch == ')') {
			depth--;
			continue;
		}
		if (depth != 1 || (s[i - 1] != '{' && s[i - 1] != ' ') ||
		    i + kl + 1 > n || strncmp(s + i, key, kl) ||
		    s[i + kl] != '=')
			continue;
		i += kl + 1;
		*v = s + i;
		while (i < n && s[i] != ',' && s[i] != '}')
			i++;
		*vn = (size_t)(s + i - *v);
		return true;
	}
	return false;
}

static int64_t field_value(const char *s, size_t n, const char *key,
			   bool *found, bool *bad)
{
	const char *v, *an;
	size_t vn, anl;

	*found = field(s, n, key, &v, &vn);
	return *found ? value(v, vn, &an, &anl, bad) : 0;
}

/* the structure argument of the call, as its form reads it */
static void structure(struct rec_raw *r, const char *s, size_t n, bool *bad)
{
	bool f1, f2;

	switch (r->sys->form) {
	case SF_STAT:
	case SF_FSTAT:
	case SF_FSTATAT:
		r->st_mode = (uint32_t)field_value(s, n, "st_mode", &f1, bad);
		r->st_size = field_value(s, n, "st_size", &f2, bad);
		r->has_st = f1;
		break;
	case SF_STATX:
		r->st_mode = (uint32_t)field_value(s, n, "stx_mode", &f1, bad);
		r->st_size = field_value(s, n, "stx_size", &f2, bad);
		r->has_st = f1;
		break;
	case SF_FCNTL:
		r->l_type = (int)field_value(s, n, "l_type", &f1, bad);
		r->l_whence = (int)field_value(s, n, "l_whence", &f2, bad);
		r->l_start = field_value(s, n, "l_start", &f2, bad);
		r->l_len = field_value(s, n, "l_len", &f2, bad);
		r->has_lock = f1;
		break;
	case SF_OPENAT2:
		r->how_flags = (uint64_t)field_value(s, n, "flags", &f1, bad);
		r->has_how = f1;
		break;
	default:
		break;
	}
}

int st_fill(const struct st_call *c, struct rec_raw *raw, char *buf,
	    size_t len, size_t *used, const char **why)
{
	const struct rec_form_info *fi = &rec_form_info[raw->sys->form];
	bool bad = false;

	for (int i = 0; i < c->nargs && i < 6; i++) {
		const char *s = c->arg[i], *an, *e;
		size_t n = c->alen[i], anl;
		int j = fi->str[0] == i ? 0 : fi->str[1] == i ? 1 : -1;

		if (n && s[0] == '"') {
			raw->arg[i] = 1;
			if (j < 0)
				continue;
			e = str_end(s);
			if (!e || (size_t)(e - s) >= n + 1) {
				*why = "a path that does not end";
				return -1;
			}
			if ((size_t)(e + 1 - s) < n && !strncmp(e + 1, "...", 3))
				raw->badstr = true; /* cut by strace -s */
			raw->str[j] = st_unescape(s + 1, (size_t)(e - s - 1), buf,
					       len, used);
			if (!raw->str[j]) {
				*why = "a path too long";
				return -1;
			}
		} else if (n == 4 && !strncmp(s, "NULL", 4)) {
			raw->arg[i] = 0;
		} else if (n && (s[0] == '{' || s[0] == '[')) {
			raw->arg[i] = 1;
			if (fi->blob == i && s[0] == '{')
				structure(raw, s, n, &bad);
		} else {
			raw->arg[i] = value(s, n, &an, &anl, &bad);
			if (an) {
				char *a = st_unescape(an, anl, buf, len, used);

				if (!strncmp(s, "AT_FDCWD", 8))
					raw->cwd = a;
				else
					raw->annot[i] = a;
			}
			e = memmem(s, n, "/* ", 3);
			if (e && raw->sys->form == SF_GETDENTS) {
				long k = strtol(e + 3, NULL, 10);

				/* the entries of one call: a buffer's worth */
				raw->nent = k < 0 ? -1 : k > 1000000 ? 1000000
								    : (int)k;
			}
		}
	}
	if (bad) {
		*why = "a number out of range";
		return -1;
	}
	if (!st_ret(c, &raw->ret)) {
		*why = "a call without a result, or one out of range";
		return -1;
	}
	return 0;
}

/* the errno called @name ("ENOENT"), 0 if none */
static int errno_named(const char *name, size_t n)
{
	for (int e = 1; e < 4096; e++) {
		const char *s = strerrorname_np(e);

		if (s && strlen(s) == n && !strncmp(s, name, n))
			return e;
	}
	/* the kernel's own restart codes, which strace shows */
	if (n > 8 && !strncmp(name, "ERESTART", 8))
		return EINTR;
	return 0;
}

bool st_ret(const struct st_call *c, int64_t *ret)
{
	const char *s = c->ret, *e;
	char *end;

	if (!s || *s == '?')
		return false;
	if (s[0] == '-' && s[1] == '1' && s[2] == ' ') {
		int err;

		s += 3;
		for (e = s; *e >= 'A' && *e <= 'Z'; e++)
			;
		for (; (*e >= 'A' && *e <= 'Z') || (*e >= '0' && *e <= '9');
		     e++)
			;
		err = errno_named(s, (size_t)(e - s));
		*ret = -(err ? err : EIO);
		return true;
	}
	errno = 0;
	if (s[0] == '0' && (s[1] | 0x20) == 'x')
		*ret = (int64_t)strtoull(s, &end, 16);
	else
		*ret = strtoll(s, &end, 10);
	/* a result is at most what one call can move (0x7ffff000 bytes),
	 * a descriptor or an offset: 2^62 is out of range */
	if (errno == ERANGE || *ret < 0 || *ret > (INT64_MAX >> 1))
		return false;
	return end != s && (!*end || *end == ' ' || *end == '<');
}

bool st_has(const struct st_call *c, const char *word)
{
	for (int i = 0; i < c->nargs; i++)
		if (memmem(c->arg[i], c->alen[i], word, strlen(word)))
			return true;
	return false;
}
