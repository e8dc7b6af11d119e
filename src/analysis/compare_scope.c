/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare_scope.c - which rows of a comparison decide (docs/
 * regressions.md, "What decides"):
 *  - an op's ops/s is its share of the loadfile lines done per second
 *    (every client replays the same loadfile), so all of them move with
 *    the throughput by construction: when the throughput is compared it
 *    decides for them, and they are shown as context ("see MB/s");
 *  - when one side did not reach ops of the loadfile the other reached
 *    (its clients never got that far), the ops both ran come from other
 *    parts of the loadfile on each side: only the throughput decides,
 *    and a note says how far each side got;
 *  - runs decided on own latencies have no own response times: those
 *    rows are shown as context too.
 */
#include "compare_impl.h"

#include <inttypes.h>
#include <stdio.h>

#include "result.h"

/* whether some run of @side reached @op: timed it, or counted its lines
 * as not run (a backend without it: backend.h, not_run) */
static bool reached(struct result **side, int n, int op)
{
	for (int i = 0; i < n; i++) {
		if (side[i]->op[op].h.count || side[i]->op[op].not_run)
			return true;
	}
	return false;
}

/* the most loadfile lines any client of run @x did; 0: not recorded */
static uint64_t furthest(const struct result *x)
{
	uint64_t m = 0;

	for (int c = 0; c < x->nclients; c++) {
		if (x->clients[c].lines > m)
			m = x->clients[c].lines;
	}
	return m;
}

/* "48210 to 52113" (the most loadfile lines of any client, per run) of
 * side @s into @buf, or "not recorded"; false if not recorded */
static bool lines_of(struct result **side, int n, char *buf, size_t len)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	for (int i = 0; i < n; i++) {
		uint64_t f = furthest(side[i]);

		if (!f)
			continue;
		lo = f < lo ? f : lo;
		hi = f > hi ? f : hi;
	}
	if (!hi)
		snprintf(buf, len, "not recorded");
	else if (lo == hi)
		snprintf(buf, len, "%" PRIu64, hi);
	else
		snprintf(buf, len, "%" PRIu64 " to %" PRIu64, lo, hi);
	return hi > 0;
}

/* the ops of @in that @out did not reach, as "ReadX Rename", and how
 * many ops @in reached; 0 when @out reached them all */
static int missing(struct result **in, int nin, struct result **out, int nout,
		   char *buf, size_t len, int *nreached)
{
	size_t k = 0;
	int n = 0;

	buf[0] = 0;
	*nreached = 0;
	for (int op = 0; op < OP_NR; op++) {
		if (!op_is_timed(op) || !reached(in, nin, op))
			continue;
		++*nreached;
		if (reached(out, nout, op))
			continue;
		n++;
		if (k < len)
			k += (size_t)snprintf(buf + k, len - k, "%s%s",
					      k ? " " : "", op_info[op].label);
	}
	return n;
}

/* Did the sides reach other ops?  The note that says how far each got. */
static bool coverage(struct cmp_report *r, struct result **base,
		     struct result **cand)
{
	char ma[200], mb[200], la[64], lb[64], what[600], lines[240] = "";
	int na, nb, ra, rb, k = 0;
	bool has_a, has_b;

	na = missing(base, r->na, cand, r->nb, ma, sizeof(ma), &ra);
	nb = missing(cand, r->nb, base, r->na, mb, sizeof(mb), &rb);
	if (!na && !nb)
		return false;
	what[0] = 0;
	if (na)
		k = snprintf(what, sizeof(what),
			     "the candidate runs did not reach %d of the %d "
			     "ops the baseline ran (%s)",
			     na, ra, ma);
	if (nb && k >= 0 && (size_t)k < sizeof(what))
		snprintf(what + k, sizeof(what) - (size_t)k,
			 "%sthe baseline runs did not reach %d of the %d ops "
			 "the candidate ran (%s)",
			 k ? "; " : "", nb, rb, mb);
	/* both sides filled in, whichever has lines */
	has_a = lines_of(base, r->na, la, sizeof(la));
	has_b = lines_of(cand, r->nb, lb, sizeof(lb));
	if (has_a || has_b)
		snprintf(lines, sizeof(lines),
			 "; loadfile lines done, the most of any client per "
			 "run: baseline %s, candidate %s",
			 la, lb);
	cmp_note(r,
		 "coverage: %s%s; the ops both ran come from other parts of "
		 "the loadfile, so only the throughput decides (rows shown "
		 "as 'coverage')",
		 what, lines);
	return true;
}

/* the baseline's throughput, if it is compared and moved bytes */
static bool mbs_decides(const struct cmp_report *r)
{
	for (int i = 0; i < r->nrows; i++) {
		const struct cmp_row *w = &r->rows[i];

		if (w->op < 0 && w->metric == CMP_M_MBS)
			return w->med_a > 0;
	}
	return false;
}

static void count(struct cmp_report *r)
{
	r->nfew = r->nvarying = r->nctx = r->ndeciding = 0;
	for (int i = 0; i < r->nrows; i++) {
		const struct cmp_row *w = &r->rows[i];
		int n = r->na + r->nb;

		if (w->ctx != CMP_CTX_NONE) {
			r->nctx++;
			continue;
		}
		if (!w->eligible) {
			r->nfew++;
			continue;
		}
		r->ndeciding++;
		for (int k = 1; k < n; k++) {
			if ((k < r->na ? w->a[k] : w->b[k - r->na]) !=
			    w->a[0]) {
				r->nvarying++;
				break;
			}
		}
	}
}

void cmp_scope(struct cmp_report *r, struct result **base, struct result **cand)
{
	bool rates = r->own || mbs_decides(r);

	r->cover = coverage(r, base, cand);
	for (int i = 0; i < r->nrows; i++) {
		struct cmp_row *w = &r->rows[i];

		if (w->op < 0)
			continue; /* the throughput always decides */
		if (r->cover)
			w->ctx = CMP_CTX_COVER;
		else if (w->metric == CMP_M_OPS && rates)
			w->ctx = CMP_CTX_RATE;
		else if (r->own && cmp_is_resp(w->metric))
			w->ctx = CMP_CTX_RAW;
	}
	count(r);
}
