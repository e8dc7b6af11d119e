/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * report_offcpu.c - why a stalled op waited, in words: each event's
 * sleeps and wakers, the per-op table of where the stalled ops spent
 * their time (the top rows of each op, compact stacks: their innermost
 * frames), and how the stalls were explained.  No line starts with an
 * op's label or holds a word dbench log parsers look for (report_text.c).
 */
#include "report_offcpu.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"
#include "str_clean.h"

#define TEXT_FRAMES 4 /* innermost frames of a stack in the text report */
#define TEXT_ROWS   5 /* rows of the per-op table shown per op */

/* The generic frames of a wakeup: '*' ends a prefix, the others are
 * whole names */
static const char *const wake_frames[] = {
	"try_to_wake_up",    "ttwu_*",	       "wake_up_*",
	"__wake_up*",	     "*wake_function", "wake_page_function",
	"wake_bit_function", "pollwake",       "wake_q_*",
	"swake_up*",	     "complete",       "complete_all",
	"bpf_trace_run*",    "__bpf_trace_*",  "__traceiter_*",
};

static bool generic(const char *frame, size_t n)
{
	for (size_t i = 0; i < sizeof(wake_frames) / sizeof(*wake_frames);
	     i++) {
		const char *w = wake_frames[i];
		size_t k = strlen(w);

		if (w[0] == '*') { /* a suffix */
			if (n >= k - 1 &&
			    !strncmp(frame + n - (k - 1), w + 1, k - 1))
				return true;
		} else if (w[k - 1] == '*') {
			if (n >= k - 1 && !strncmp(frame, w, k - 1))
				return true;
		} else if (n == k && !strncmp(frame, w, k)) {
			return true;
		}
	}
	return false;
}

char *report_stack_tail(const char *stack, int n, bool waker, char *buf,
			size_t len)
{
	const char *end, *p;
	int k = 0;

	buf[0] = 0;
	if (!stack || !*stack || !len)
		return buf;
	end = stack + strlen(stack);
	if (waker) { /* drop the generic frames at the innermost end */
		while (end > stack) {
			const char *f = end;
			size_t fl;

			while (f > stack && f[-1] != ';')
				f--;
			fl = strcspn(f, " ;"); /* without " [module]" */
			if (!generic(f, fl) || f == stack)
				break;
			end = f - 1;
		}
	}
	for (p = end; p > stack; p--) {
		if (p[-1] == ';' && ++k == n)
			break;
	}
	snprintf(buf, len, "%.*s", (int)(end - p), p);
	return buf;
}

const char *report_waker(const struct result_wait *w, int cpp, char *buf,
			 size_t len)
{
	if (!w->woken)
		snprintf(buf, len, "nobody yet");
	else if (w->waker_ctx == WAKER_HARDIRQ ||
		 w->waker_ctx == WAKER_SOFTIRQ || w->waker_ctx == WAKER_NMI)
		snprintf(buf, len, "a %s", waker_ctx_name(w->waker_ctx));
	else if (w->waker_client >= 0 && cpp > 1)
		snprintf(buf, len, "clients %d-%d (pid %d)", w->waker_client,
			 w->waker_client + cpp - 1, w->waker_pid);
	else if (w->waker_client >= 0)
		snprintf(buf, len, "client %d (pid %d)", w->waker_client,
			 w->waker_pid);
	else
		snprintf(buf, len, "%s (pid %d)",
			 w->waker_comm ? w->waker_comm : "?", w->waker_pid);
	return buf;
}

const char *report_pair_waker(const struct result_wait_pair *p, char *buf,
			      size_t len)
{
	if (p->waker_ctx == WAKER_HARDIRQ || p->waker_ctx == WAKER_SOFTIRQ ||
	    p->waker_ctx == WAKER_NMI)
		snprintf(buf, len, "a %s", waker_ctx_name(p->waker_ctx));
	else if (p->waker_client)
		snprintf(buf, len, "a client");
	else
		snprintf(buf, len, "%s", p->waker_comm ? p->waker_comm : "?");
	return buf;
}

static void safe(FILE *f, const char *s)
{
	str_text(f, s);
}

bool report_offcpu_headline(FILE *f, const struct result_stall *ev)
{
	static const char *const what[HOLDER_KIND_NR] = {
		[HOLDER_OTHER] = "a program outside the run",
		[HOLDER_KTHREAD] = "a kernel thread",
		[HOLDER_CLIENT] = "a client of this run",
		[HOLDER_PARENT] = "this run's parent",
	};
	const struct result_offcpu *o = &ev->offcpu;

	if (!o->valid || !(2 * o->runq_ms > ev->duration_ms))
		return false;
	fprintf(f, "     waiting for a CPU (%.1f of %.1f ms)", o->runq_ms,
		ev->duration_ms);
	if (o->holder[0] && o->holder_kind >= 0 &&
	    o->holder_kind < HOLDER_KIND_NR) {
		/* the BPF side sees the last OFFCPU_STRETCHES tasks of the
		 * CPU: a long wait among many may name only the longest */
		fputs(2 * o->holder_ms >= o->runq_ms ? ", held by "
						     : ", held longest by ",
		      f);
		safe(f, o->holder);
		fprintf(f, " (%s) for %.1f ms", what[o->holder_kind],
			o->holder_ms);
	}
	fputc('\n', f);
	return true;
}

void report_offcpu_event(FILE *f, const struct result_stall *ev, int cpp,
			 int maxwaits)
{
	const struct result_offcpu *o = &ev->offcpu;
	double cpu = ev->duration_ms - o->blocked_ms - o->runq_ms;
	char b[600], w[80];

	if (!o->valid)
		return;
	fprintf(f,
		"     off CPU (BPF): asleep %.3f ms in %" PRIu32 " sleep%s, "
		"runnable %.3f ms (%" PRIu32 " preemption%s), on CPU %.3f "
		"ms%s\n",
		o->blocked_ms, o->sleeps, o->sleeps == 1 ? "" : "s", o->runq_ms,
		o->preempted, o->preempted == 1 ? "" : "s", cpu > 0 ? cpu : 0,
		o->partial ? " (lower bounds: intervals were lost)" : "");
	for (int i = 0; i < o->nwaits && i < maxwaits; i++) {
		const struct result_wait *x = &o->waits[i];

		fprintf(f, "       %.3f ms %c at %.0f ms in ", x->blocked_ms,
			x->state == 'D' ? 'D' : 'S', x->at_ms);
		safe(f, x->stack ? report_stack_tail(x->stack, TEXT_FRAMES,
						     false, b, sizeof(b))
				 : "(a short sleep: no stack)");
		fputs(x->woken ? ", woken by "
			       : ", woken by nobody: still "
				 "asleep at the end",
		      f);
		if (x->woken) {
			safe(f, report_waker(x, cpp, w, sizeof(w)));
			if (x->waker_stack) {
				fputs(" in ", f);
				safe(f, report_stack_tail(x->waker_stack,
							  TEXT_FRAMES, true, b,
							  sizeof(b)));
			}
		}
		fputc('\n', f);
	}
	if (o->nwaits > maxwaits)
		fprintf(f, "       (%d more sleeps in the JSON result)\n",
			o->nwaits - maxwaits);
}

/* The text of a row of the per-op table, compact: rows that read alike
 * are shown as one */
static void row_text(const struct result_wait_pair *p, char *out, size_t len)
{
	char b[600], c[600], w[80];

	if (p->kind == WAIT_RUNQ) {
		snprintf(out, len, "(runnable, waiting for a CPU)");
		return;
	}
	if (p->kind == WAIT_CPU) {
		snprintf(out, len, "(on a CPU)");
		return;
	}
	snprintf(out, len, "%s <- %s%s%s",
		 p->stack ? report_stack_tail(p->stack, TEXT_FRAMES, false, b,
					      sizeof(b))
			  : "(short sleeps: no stacks)",
		 report_pair_waker(p, w, sizeof(w)),
		 p->waker_stack ? " in " : "",
		 p->waker_stack ? report_stack_tail(p->waker_stack, TEXT_FRAMES,
						    true, c, sizeof(c))
				: "");
}

struct shown {
	char text[1400];
	uint64_t count;
	double ms;
};

static int by_ms(const void *a, const void *b)
{
	const struct shown *x = a, *y = b;

	return (x->ms < y->ms) - (x->ms > y->ms);
}

/* The rows of @op, merged by their text, the most time first, the top
 * TEXT_ROWS printed */
static void op_rows(FILE *f, const struct result_offcpu_run *o, int op)
{
	struct shown *v = calloc(STALL_MAX_PAIRS, sizeof(*v));
	int n = 0;
	double rest = 0;

	if (!v)
		return;
	for (int i = 0; i < o->npairs; i++) {
		char t[sizeof(v->text)];
		int k;

		if (o->pairs[i].op != op)
			continue;
		row_text(&o->pairs[i], t, sizeof(t));
		for (k = 0; k < n && strcmp(v[k].text, t); k++)
			;
		if (k == n)
			memcpy(v[n++].text, t, sizeof(t));
		v[k].count += o->pairs[i].count;
		v[k].ms += o->pairs[i].ms;
	}
	qsort(v, (size_t)n, sizeof(*v), by_ms);
	for (int k = 0; k < n; k++) {
		if (k >= TEXT_ROWS) {
			rest += v[k].ms;
			continue;
		}
		fprintf(f, "   %11.3f ms %6" PRIu64 "  ", v[k].ms, v[k].count);
		safe(f, v[k].text);
		fputc('\n', f);
	}
	if (n > TEXT_ROWS)
		fprintf(f,
			"   %11.3f ms in %d more rows (HTML page, JSON "
			"result)\n",
			rest, n - TEXT_ROWS);
	free(v);
}

static void method(FILE *f, const struct result_offcpu_run *o)
{
	if (!o->method)
		return;
	if (strcmp(o->method, "bpf")) {
		fputs("  no BPF tracing", f);
		if (o->method_note) {
			fputs(" (", f);
			safe(f, o->method_note);
			fputc(')', f);
		}
		fputs(": the stacks above are /proc samples only\n", f);
		return;
	}
	fprintf(f,
		"  traced with BPF: %" PRIu64 " off-CPU intervals of the "
		"clients, ",
		o->intervals);
	if (o->lost + o->overflow)
		fprintf(f,
			"%" PRIu64 " lost (ring buffer full, or switches "
			"not seen), %" PRIu64
			" over the bounds: figures of stalls then are lower "
			"bounds",
			o->lost, o->overflow);
	else
		fputs("none lost", f);
	fprintf(f, "; stacks of sleeps of %.3g ms or more", o->stack_min_ms);
	if (o->stack_errors)
		fprintf(f, " (%" PRIu64 " could not be taken)",
			o->stack_errors);
	fputs("; interrupt wakers told by ", f);
	safe(f, o->irq_method ? o->irq_method : "?");
	fputc('\n', f);
	if (o->method_note) {
		fputs("  ", f);
		safe(f, o->method_note);
		fputc('\n', f);
	}
}

void report_offcpu_table(FILE *f, const struct result *r)
{
	const struct result_offcpu_run *o = &r->stalls.offcpu;
	bool head = false;

	for (int op = 0; op < OP_NR; op++) {
		double total = 0;
		int n = 0;

		for (int i = 0; i < o->npairs; i++) {
			if (o->pairs[i].op == op) {
				total += o->pairs[i].ms;
				n++;
			}
		}
		if (!n)
			continue;
		if (!head)
			fputs("  where the stalled ops spent their time (BPF; "
			      "asleep in <- woken by, in; innermost frames "
			      "last):\n",
			      f);
		head = true;
		fprintf(f, "   %s: %" PRIu64 " stall%s, %.3f ms\n",
			op_info[op].label, r->stalls.count[op],
			r->stalls.count[op] == 1 ? "" : "s", total);
		op_rows(f, o, op);
	}
	if (o->other_count)
		fprintf(f,
			"   %11.3f ms %6" PRIu64 "  (beyond the rows kept)\n",
			o->other_ms, o->other_count);
	method(f, o);
}
