/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * result_foreign.c - the clients' wait for CPUs that other programs
 * held (struct result_foreign): its JSON object, written and read back
 * (docs/json-format.md, "foreign"), its merge across hosts, its holders
 * and its share of the clients' time.
 */
#include "result_foreign.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"

json_t *result_foreign_json(const struct result_foreign *f)
{
	json_t *o = json_object(), *h = json_array();

	json_object_set_new(o, "method",
			    json_string(foreign_method_name(f->method)));
	json_object_set_new(o, "note",
			    f->note ? json_string(f->note) : json_null());
	json_object_set_new(o, "wait_ns", json_integer((json_int_t)f->wait_ns));
	json_object_set_new(o, "runq_ns", json_integer((json_int_t)f->runq_ns));
	json_object_set_new(o, "own_mbps", json_real(f->own_mbps));
	for (int i = 0; i < f->nholders; i++)
		json_array_append_new(
			h, json_pack("{s:s, s:I}", "comm", f->holders[i].comm,
				     "ns", (json_int_t)f->holders[i].ns));
	json_object_set_new(o, "holders", h);
	return o;
}

/* A non-negative integer @k of @o into *@v; false if it is not one */
static bool get_ns(json_t *o, const char *k, uint64_t *v)
{
	json_t *x = json_object_get(o, k);

	if (!json_is_integer(x) || json_integer_value(x) < 0)
		return false;
	*v = (uint64_t)json_integer_value(x);
	return true;
}

int result_foreign_read(json_t *o, struct result_foreign *f, char *err,
			size_t len)
{
	json_t *note, *mb, *h, *x;
	size_t i;

	memset(f, 0, sizeof(*f));
	if (!o || json_is_null(o))
		return 0; /* an older result: not measured */
	if (!json_is_object(o) ||
	    !foreign_method_parse(
		    json_string_value(json_object_get(o, "method")),
		    &f->method)) {
		snprintf(err, len,
			 "field 'foreign.method' is not bpf, "
			 "schedstat or none");
		return -1;
	}
	if (!get_ns(o, "wait_ns", &f->wait_ns) ||
	    !get_ns(o, "runq_ns", &f->runq_ns)) {
		snprintf(err, len,
			 "field 'foreign.wait_ns' or "
			 "'foreign.runq_ns' is not a non-negative integer");
		return -1;
	}
	mb = json_object_get(o, "own_mbps");
	if (!json_is_number(mb) || json_number_value(mb) < 0) {
		snprintf(err, len,
			 "field 'foreign.own_mbps' is not a "
			 "non-negative number");
		return -1;
	}
	f->own_mbps = json_number_value(mb);
	note = json_object_get(o, "note");
	if (note && !json_is_null(note) && !json_is_string(note)) {
		snprintf(err, len, "field 'foreign.note' is not a string");
		return -1;
	}
	h = json_object_get(o, "holders");
	if (h && !json_is_array(h)) {
		snprintf(err, len, "field 'foreign.holders' is not an array");
		return -1;
	}
	json_array_foreach(h, i, x)
	{
		const char *c = json_string_value(json_object_get(x, "comm"));
		uint64_t ns;

		if (!c || !get_ns(x, "ns", &ns)) {
			snprintf(err, len,
				 "foreign.holders[%zu] is not "
				 "{comm, ns}",
				 i);
			return -1;
		}
		if (f->nholders < FOREIGN_MAX_HOLDERS) {
			struct result_foreign_holder *d =
				&f->holders[f->nholders++];

			snprintf(d->comm, sizeof(d->comm), "%s", c);
			d->ns = ns;
		}
	}
	if (json_is_string(note) &&
	    !(f->note = strdup(json_string_value(note)))) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	return 0;
}

void result_foreign_add_holder(struct result_foreign *f, const char *comm,
			       uint64_t ns)
{
	struct result_foreign_holder *h = f->holders, t;
	int k;

	for (k = 0; k < f->nholders; k++) {
		if (!strncmp(h[k].comm, comm, sizeof(h[k].comm)))
			break;
	}
	if (k == f->nholders) {
		if (k == FOREIGN_MAX_HOLDERS) {
			if (ns <= h[k - 1].ns)
				return;
			k--; /* the smallest makes room */
		} else {
			f->nholders++;
		}
		snprintf(h[k].comm, sizeof(h[k].comm), "%s", comm);
		h[k].ns = 0;
	}
	h[k].ns += ns;
	for (; k > 0 && h[k].ns > h[k - 1].ns; k--) { /* most first */
		t = h[k];
		h[k] = h[k - 1];
		h[k - 1] = t;
	}
}

int result_foreign_merge(struct result_foreign *d,
			 const struct result_foreign *h)
{
	if (h->method == FOREIGN_NONE)
		return 0;
	/* the run has own latencies only where every host measured them:
	 * the weakest method wins */
	if (d->method == FOREIGN_NONE || h->method == FOREIGN_SCHEDSTAT)
		d->method = h->method;
	if (h->note && !d->note && !(d->note = strdup(h->note)))
		return -1;
	d->wait_ns += h->wait_ns;
	d->runq_ns += h->runq_ns;
	d->own_mbps += h->own_mbps; /* as the hosts' throughputs add */
	for (int i = 0; i < h->nholders; i++)
		result_foreign_add_holder(d, h->holders[i].comm,
					  h->holders[i].ns);
	return 0;
}

double result_foreign_share(const struct result *r, bool *runq_only)
{
	double t = (double)r->cfg.nclients * r->measured_s * 1e9;

	*runq_only = r->foreign.method == FOREIGN_SCHEDSTAT;
	if (r->foreign.method == FOREIGN_NONE || !(t > 0))
		return 0;
	return (double)(*runq_only ? r->foreign.runq_ns : r->foreign.wait_ns) /
	       t;
}
