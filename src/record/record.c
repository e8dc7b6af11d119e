/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * record.c - "dbench-ng record" from its options to the loadfile: check
 * --root and the output paths before anything is traced, feed the events
 * of the front end (launch.c with BPF, strace.c for a log) to the writer,
 * render the loadfile in memory, read it back with the loadfile parser
 * (what is written is what dbench-ng replays, or nothing is written),
 * then write it whole (file_replace: a reader never sees half of it) and
 * say on stderr what it holds and which paths outside --root were left
 * out, and where the trace showed them.
 */
#include "record.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "file_replace.h"
#include "launch.h"
#include "loadfile.h"
#include "ops.h"
#include "rec_writer.h"
#include "str_clean.h"
#include "strace.h"

#define ERR_LEN 4200

struct text {
	char *data;
	size_t len;
};

static int put_text(FILE *f, const void *ctx)
{
	const struct text *t = ctx;

	return fwrite(t->data, 1, t->len, f) == t->len ? 0 : -1;
}

/* say @fmt's message on stderr, cleaned of what a terminal would obey */
static void __attribute__((format(printf, 1, 2))) say(const char *fmt, ...)
{
	char buf[ERR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	str_clean_buf(buf, sizeof(buf));
	fprintf(stderr, "dbench-ng record: %s\n", buf);
}

/* --root: an existing directory, absolute and without links; for a
 * strace log (perhaps of another machine) also an absolute path that does
 * not exist here, taken as it is */
static int check_root(const char *root, bool text_ok, char *out)
{
	struct stat st;

	if (text_ok && root && root[0] == '/' && access(root, F_OK) &&
	    errno == ENOENT && strlen(root) < PATH_MAX) {
		strcpy(out, root);
		return 0;
	}
	if (!realpath(root ? root : ".", out)) {
		say("--root %s: %s", root ? root : ".", strerror(errno));
		return -1;
	}
	if (stat(out, &st) || !S_ISDIR(st.st_mode)) {
		say("--root %s: not a directory", root ? root : ".");
		return -1;
	}
	return 0;
}

static void src_of(void *ctx, const struct rec_ev *ev)
{
	rec_writer_event(ctx, ev);
}

/* the strace front end: 0, or 2 with the message said */
static int from_strace(const struct record_opts *o, struct rec_writer *w)
{
	struct rec_strace_stats *st = calloc(1, sizeof(*st));
	char err[ERR_LEN];

	if (!st) {
		say("out of memory");
		return 3;
	}
	if (rec_strace_read(o->strace, o->skip_bad, src_of, w, st, err,
			    sizeof(err))) {
		say("%s", err);
		free(st);
		return 2;
	}
	if (st->skipped) {
		say("%s:%" PRIu64 ": %s: skipped, as %" PRIu64
		    " lines in all (--skip-bad)",
		    o->strace, st->first_skip, st->why, st->skipped);
		rec_writer_count(w, "lines of the strace log skipped "
				    "(--skip-bad)", st->skipped);
	}
	rec_writer_count(w, "calls unfinished in the strace log (begun before "
			    "it, or their process ended first)",
			 st->unpaired);
	if (!st->timestamps && !o->no_timestamps) {
		say("%s: the log has no times (strace -tt): the loadfile has "
		    "none either", o->strace);
		rec_writer_no_timestamps(w);
	}
	free(st);
	return 0;
}

/* the working directory of the log's first process */
static char *strace_cwd(const struct record_opts *o, char *buf, size_t len)
{
	if (o->cwd) {
		if (o->cwd[0] != '/') {
			say("--cwd %s: an absolute path is needed", o->cwd);
			return NULL;
		}
		snprintf(buf, len, "%s", o->cwd);
		return buf;
	}
	if (rec_strace_first_cwd(o->strace, buf, len))
		return buf;
	if (!getcwd(buf, len)) {
		say("the working directory: %s", strerror(errno));
		return NULL;
	}
	return buf;
}

static void report_outside(const struct record_opts *o,
			   const struct rec_writer *w, const char *root)
{
	const struct rec_outside *v;
	uint64_t total;
	unsigned int n = rec_writer_outside(w, &v, &total);

	for (unsigned int i = 0; i < n; i++) {
		char where[128];

		if (v[i].line)
			snprintf(where, sizeof(where), "%s:%" PRIu64, o->strace,
				 v[i].line);
		else
			snprintf(where, sizeof(where),
				 "pid %d at %" PRIu64 ".%06" PRIu64 " s",
				 (int)v[i].pid, v[i].ts_ns / 1000000000,
				 v[i].ts_ns % 1000000000 / 1000);
		say("%s: %s of %s: outside --root %s, not recorded", where,
		    v[i].call, v[i].path, root);
	}
	if (total > n)
		say("%" PRIu64 " calls outside --root in all, not recorded "
		    "(counted at the end of the loadfile)",
		    total);
}

/* render @w (the set-up apart when @setup) and check that it parses */
static int render(struct rec_writer *w, bool setup, bool apart,
		  struct text *t, struct program **prog)
{
	FILE *f = open_memstream(&t->data, &t->len);
	char err[ERR_LEN];
	int rc;

	if (!f) {
		say("out of memory");
		return 3;
	}
	rc = setup ? rec_writer_emit_setup(w, f) : rec_writer_emit(w, f, apart);
	if (fclose(f) || rc) {
		say("out of memory while writing the loadfile");
		return 3;
	}
	if (t->len > LF_MAX_BYTES) {
		say("the loadfile would be %zu MiB, more than the %u MiB "
		    "dbench-ng reads: record less (a shorter run, a smaller "
		    "--root)",
		    t->len >> 20, LF_MAX_BYTES >> 20);
		return 2;
	}
	if (lf_parse_buffer(setup ? "the recorded set-up" : "the recording",
			    t->data, t->len, prog, err, sizeof(err))) {
		say("%s (a defect of dbench-ng record: please report it)",
		    err);
		return 3;
	}
	return 0;
}

static void report_ops(const char *out, const struct program *p)
{
	char buf[1024];
	size_t n = 0;
	uint64_t total = 0;

	for (int op = 0; op < OP_NR; op++) {
		if (!p->op_count[op])
			continue;
		total += p->op_count[op];
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s %u",
				      n ? ", " : "", op_info[op].keyword,
				      p->op_count[op]);
		if (n >= sizeof(buf))
			break;
	}
	say("%s: %" PRIu64 " operations (%s)",
	    strcmp(out, "-") ? out : "standard output", total, n ? buf : "none");
}

static int write_out(const struct record_opts *o, struct rec_writer *w,
		     struct file_pending *po, struct file_pending *ps)
{
	struct text t = {0}, ts = {0};
	struct program *p = NULL, *psetup = NULL;
	char err[ERR_LEN];
	int rc;

	rc = render(w, false, o->setup != NULL, &t, &p);
	if (!rc && o->setup)
		rc = render(w, true, true, &ts, &psetup);
	if (!rc && o->setup &&
	    file_replace_end(ps, put_text, &ts, err, sizeof(err))) {
		say("%s", err);
		rc = 3;
	}
	if (!rc && file_replace_end(po, put_text, &t, err, sizeof(err))) {
		say("%s", err);
		rc = 3;
	}
	if (!rc)
		report_ops(o->out, p);
	if (p)
		lf_free(p);
	if (psetup)
		lf_free(psetup);
	free(t.data);
	free(ts.data);
	return rc;
}

int record_run(const struct record_opts *o)
{
	struct file_pending out = {0}, setup = {0};
	struct rec_writer_cfg cfg = {0};
	struct rec_writer *w = NULL;
	struct rec_summary sum;
	struct launch l = {0};
	char root[PATH_MAX], cwd[PATH_MAX], err[ERR_LEN], src[256];
	int rc;

	if (check_root(o->root, o->strace != NULL, root))
		return 2;
	if (o->strace && !strace_cwd(o, cwd, sizeof(cwd)))
		return 2;
	if (!o->strace && !getcwd(cwd, sizeof(cwd))) {
		say("the working directory: %s", strerror(errno));
		return 3;
	}
	if (file_replace_begin(&out, o->out, "-o", err, sizeof(err)) ||
	    (o->setup && file_replace_begin(&setup, o->setup, "--setup", err,
					    sizeof(err)))) {
		say("%s", err);
		file_replace_abort(&out);
		return 2;
	}
	if (o->strace)
		snprintf(src, sizeof(src), "the strace log %s", o->strace);
	else if (o->cmd)
		snprintf(src, sizeof(src), "the command %s", o->cmd[0]);
	else
		snprintf(src, sizeof(src), "process %d%s", o->pids[0],
			 o->npids > 1 ? " and others" : "");
	cfg.root = root;
	cfg.anonymize = o->anonymize;
	cfg.no_timestamps = o->no_timestamps;
	cfg.initial_cwd = cwd;
	cfg.source = o->anonymize ? "a process tree" : src;
	cfg.method = o->strace ? "strace" : "BPF (dbench-ng record)";
	w = rec_writer_new(&cfg);
	if (!w) {
		say("out of memory");
		rc = 3;
		goto fail;
	}
	if (o->strace) {
		rc = from_strace(o, w);
	} else {
		l.cmd = o->cmd;
		l.pids = o->pids;
		l.npids = o->npids;
		l.ring_mib = o->ring_mib;
		l.w = w;
		rc = launch_record(&l, err, sizeof(err));
		if (rc)
			say("%s", err);
	}
	if (rc)
		goto fail;
	rec_writer_finish(w);
	rc = write_out(o, w, &out, &setup);
	if (rc)
		goto fail;
	report_outside(o, w, root);
	rec_writer_summary(w, &sum);
	if (sum.lost)
		say("WARNING: %" PRIu64 " events were lost (a larger --buffer "
		    "may help): the loadfile is incomplete",
		    sum.lost);
	rc = sum.lost || !sum.lines || l.status ? 1 : 0;
	if (!sum.lines)
		say("no call under --root %s was recorded", root);
	if (l.cmd && l.status)
		say("the command %s ended with status %d", o->cmd[0],
		    WIFEXITED(l.status) ? WEXITSTATUS(l.status)
					: 128 + WTERMSIG(l.status));
	rec_writer_free(w);
	return rc;
fail:
	file_replace_abort(&out);
	file_replace_abort(&setup);
	rec_writer_free(w);
	return rc;
}
