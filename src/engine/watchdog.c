/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * watchdog.c - catch an op while it is stuck and show where the kernel is.
 *
 * Every poll_ns the thread reads each client's op_start_ns.  An op in
 * flight for longer than the threshold opens a stall event: who, which
 * op and loadfile line, when, PSI now, and a sample of /proc/PID/stack,
 * wchan and state.  While it stays stuck it is sampled again every
 * sample_ns; identical samples fold into a repeat count, so a stack that
 * moves shows as a sequence.  When the op ends the event takes its exact
 * duration from the client's ring of slow ops (shm.h: every op of the
 * threshold or longer, as the client measured it) and PSI again.
 *
 * Memory is bounded whatever happens: the STALL_MAX_EVENTS longest events
 * are kept in full, every event is counted per op, and sampled stacks are
 * folded into at most STALL_MAX_FOLDED distinct ones with counts.
 *
 * So is the cost: a poll reads at most max_samples samples (three /proc
 * files each) and PSI once, however many ops are stuck.  Ten thousand
 * clients on two CPUs keep thousands stuck at once, and sampling each of
 * them every sample_ns took a quarter of the machine from the run it
 * measures.  A sample the budget defers stays due: the next poll begins
 * with the client it stopped at, so every stuck op has its turn.  An
 * event that ends before its first sample is counted (unsampled).
 */
#include "watchdog.h"
#include "watchdog_test.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "deadline.h"
#include "offcpu.h"
#include "result.h"
#include "shm.h"

struct active {
	struct result_stall ev;
	uint64_t start_ns; /* identifies the op instance */
	uint64_t head0;	   /* the slot's slow_head when it opened */
	uint32_t pc;	   /* the op index it was described with */
	uint64_t next_sample_ns;
};

struct watchdog {
	struct watchdog_cfg cfg;
	pthread_t thread;
	/* held by the thread across each poll, which alone changes cfg.out
	 * and active[]; watchdog_copy() only tries it */
	pthread_mutex_t lock;
	volatile int quit;
	struct active **active;	/* per client: the stall in progress */
	uint64_t *head0, *seen;	/* per client, this poll: slow_head and the
				   op in flight (0: none) */
	bool warned_stack;
	/* the thread that started the watchdog (the parent's main thread),
	 * whose nice value the watchdog's follows, and its own thread */
	pid_t leader, tid;
	int nice; /* the nice value last followed */
	/* this poll: samples it may still take, the client the next poll
	 * begins with, and PSI once read */
	uint32_t budget;
	int cursor;
	bool psi_read;
	struct result_psi psi[PSI_NR];
};

/* ------------------------------ /proc ---------------------------------- */

/* Read a small /proc file into @buf; -errno on failure.  No stdio: a
 * FILE costs an allocation and an fstat, per file, per sample. */
int watchdog_read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t n = 0;
	ssize_t got;

	if (fd < 0)
		return -errno;
	while (n < len - 1 && ((got = read(fd, buf + n, len - 1 - n)) > 0 ||
			       (got < 0 && errno == EINTR)))
		n += got > 0 ? (size_t)got : 0;
	buf[n] = 0;
	close(fd);
	return 0;
}

void watchdog_read_psi(const char *proc, struct result_psi *psi)
{
	char path[256], buf[512];

	for (int i = 0; i < PSI_NR; i++) {
		struct result_psi *p = &psi[i];
		char *some, *full;

		memset(p, 0, sizeof(*p));
		snprintf(path, sizeof(path), "%s/pressure/%s", proc,
			 psi_name[i]);
		if (watchdog_read_file(path, buf, sizeof(buf)))
			continue;
		some = strstr(buf, "some ");
		full = strstr(buf, "full ");
		if (!some ||
		    sscanf(some, "some avg10=%lf avg60=%*f avg300=%*f total=%lu",
			   &p->some_avg10, &p->some_total_us) != 2)
			continue;
		if (full)
			sscanf(full,
			       "full avg10=%lf avg60=%*f avg300=%*f total=%lu",
			       &p->full_avg10, &p->full_total_us);
		p->valid = true;
	}
}

char *watchdog_fold_stack(const char *text)
{
	const char *lines[128];
	char *out = malloc(strlen(text) + 1), *w;
	int n = 0;

	if (!out)
		return NULL;
	for (const char *t = text; *t && n < 128;) {
		const char *e = strchr(t, '\n');

		lines[n++] = t;
		if (!e)
			break;
		t = e + 1;
	}
	w = out;
	for (int i = n - 1; i >= 0; i--) {	/* outermost frame first */
		const char *t = lines[i], *e = strchr(t, '\n'), *f, *end;
		const char *mod;

		if (!e)
			e = t + strlen(t);
		/* "[<0>] func+0x12/0x80 [module]" */
		f = strstr(t, "] ");
		f = f && f < e ? f + 2 : t;
		for (end = f; end < e && *end != '+' && *end != ' '; end++)
			;
		if (end == f)
			continue;
		if (w != out)
			*w++ = ';';
		memcpy(w, f, (size_t)(end - f));
		w += end - f;
		mod = memchr(end, '[', (size_t)(e - end));
		if (mod) {	/* keep " [module]" */
			*w++ = ' ';
			memcpy(w, mod, (size_t)(e - mod));
			w += e - mod;
		}
	}
	*w = 0;
	return out;
}

/* Take one sample of process @pid into @ev (folding a repeat). */
static void sample(struct watchdog *wd, struct result_stall *ev, int pid,
		   double t_ms)
{
	char path[256], buf[16384], wchan[128], state = '?';
	struct result_stall_sample *last, *s;
	char *stack = NULL, *p;
	int rc;

	snprintf(path, sizeof(path), "%s/%d/stat", wd->cfg.proc, pid);
	if (!watchdog_read_file(path, buf, sizeof(buf))) {
		p = strrchr(buf, ')');
		if (p && p[1] == ' ')
			state = p[2];
	}
	snprintf(path, sizeof(path), "%s/%d/wchan", wd->cfg.proc, pid);
	if (watchdog_read_file(path, wchan, sizeof(wchan)))
		wchan[0] = 0;
	snprintf(path, sizeof(path), "%s/%d/stack", wd->cfg.proc, pid);
	rc = watchdog_read_file(path, buf, sizeof(buf));
	if (!rc) {
		stack = watchdog_fold_stack(buf);
	} else if (!wd->warned_stack && wd->cfg.out) {
		char note[300];

		snprintf(note, sizeof(note), "kernel stacks unavailable: %s: "
			 "%s%s", path, strerror(-rc),
			 rc == -EACCES || rc == -EPERM ? " (needs root)" : "");
		wd->cfg.out->note = strdup(note);
		wd->warned_stack = true;
	}
	last = ev->nsamples ? &ev->samples[ev->nsamples - 1] : NULL;
	if (last && last->state == state &&
	    !strcmp(last->wchan ? last->wchan : "", wchan) &&
	    !strcmp(last->stack ? last->stack : "", stack ? stack : "")) {
		last->repeat++;
		free(stack);
		return;
	}
	if (ev->nsamples == STALL_MAX_SAMPLES) {
		last->repeat++;	/* full: count it with the last one */
		free(stack);
		return;
	}
	s = &ev->samples[ev->nsamples++];
	s->t_ms = t_ms;
	s->state = state;
	s->repeat = 0;
	s->wchan = strdup(wchan);
	s->stack = stack;
}

/* PSI as of this poll into @dst: read once, however many events open or
 * end in it */
static void psi_now(struct watchdog *wd, struct result_psi *dst)
{
	if (!wd->psi_read) {
		watchdog_read_psi(wd->cfg.proc, wd->psi);
		wd->psi_read = true;
	}
	memcpy(dst, wd->psi, sizeof(wd->psi));
}

/* A sample of @a if this poll's budget allows; false: it stays due */
static bool sample_due(struct watchdog *wd, struct active *a, uint64_t now)
{
	if (!wd->budget)
		return false;
	wd->budget--;
	sample(wd, &a->ev, a->ev.pid, (double)(now - a->start_ns) / 1e6);
	a->next_sample_ns = now + wd->cfg.sample_ns;
	return true;
}

/* ------------------------------ events --------------------------------- */

static void fold(struct result_stalls *st, const char *stack, uint64_t n)
{
	int i;

	if (!stack || !*stack)
		return;
	for (i = 0; i < st->nfolded; i++) {
		if (!strcmp(st->folded[i].stack, stack)) {
			st->folded[i].count += n;
			return;
		}
	}
	if (st->nfolded == STALL_MAX_FOLDED) {
		st->folded_other += n;
		return;
	}
	st->folded[st->nfolded].stack = strdup(stack);
	st->folded[st->nfolded++].count = n;
}

enum measured { M_FOUND, M_SHORT, M_LOST };

/*
 * The op of @a ended: find what the client measured in its slow ring,
 * newest first (its start identifies it: a client's starts only grow).
 * M_FOUND: @rec is it.  M_SHORT: no record, so the client measured less
 * than the threshold (the watchdog read its clock after the client's end
 * of the op but before the op was cleared).  M_LOST: the ring may have
 * turned over before the watchdog looked (SLOW_RING slow ops in between).
 */
static enum measured measured(const struct client_slot *s,
			      const struct active *a, struct slow_rec *rec)
{
	uint64_t head = __atomic_load_n(&s->slow_head, __ATOMIC_ACQUIRE);
	uint64_t now_head;

	for (uint64_t i = head; i > 0 && head - i < SLOW_RING; i--) {
		const struct slow_rec *r = &s->slow[(i - 1) % SLOW_RING];

		rec->start_ns = r->start_ns;
		rec->dur_ns = r->dur_ns;
		rec->pc = r->pc;
		/* the copy is whole if the client has not come round to
		 * rewriting that record since */
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		now_head = __atomic_load_n(&s->slow_head, __ATOMIC_RELAXED);
		if (now_head - (i - 1) >= SLOW_RING)
			return M_LOST;
		if (rec->start_ns == a->start_ns)
			return M_FOUND;
	}
	/* head0 was read before the op was seen in flight: its record, if
	 * any, is at head0 - 1 or later (written just before the clear) */
	return head - a->head0 + 1 > SLOW_RING ? M_LOST : M_SHORT;
}

/* The op of @a ended (or the run did): complete it and keep it if it is
 * among the longest. */
static void finish(struct watchdog *wd, struct active *a, int client,
		   uint64_t now, bool ended)
{
	struct result_stalls *st = wd->cfg.out;
	struct client_slot *s = &wd->cfg.shm->slot[client];
	struct result_stall *ev = &a->ev;
	uint64_t d = now - a->start_ns; /* so far: still stuck */
	struct slow_rec rec;
	uint64_t warm;
	int i;

	if (ended) {
		switch (measured(s, a, &rec)) {
		case M_FOUND:
			d = rec.dur_ns;
			if (rec.pc != a->pc) { /* it moved on before open */
				free(ev->file);
				free(ev->path);
				ev->file = ev->path = NULL;
				wd->cfg.describe(wd->cfg.ctx, client, rec.pc,
						 ev);
			}
			break;
		case M_SHORT: /* not a stall by the client's clock */
			if (wd->cfg.offcpu)
				offcpu_drop(wd->cfg.offcpu, client);
			result_stall_free(ev);
			return;
		case M_LOST: /* an upper bound: the time to this poll */
			break;
		}
	}
	ev->ended = ended;
	ev->duration_ms = (double)d / 1e6;
	/* counted in the phase the op ended in, as the tables count it
	 * (deadline.h: an op ending after the warmup's end is measured);
	 * one still stuck at the end of the run ends after it */
	warm = wd->cfg.shm->hdr.warmup_end_ns;
	ev->warmup = ended && warm != DEADLINE_NEVER &&
		     !deadline_past(a->start_ns + d, warm);
	if (wd->cfg.offcpu) /* its sleeps, their wakers (BPF) */
		offcpu_close(wd->cfg.offcpu, client, a->start_ns + d, ended,
			     now, ev);
	psi_now(wd, ev->psi_end);
	if (ev->warmup) {
		st->warmup_total++;
		st->warmup_count[ev->op]++;
		if (ev->duration_ms > st->warmup_max_ms[ev->op])
			st->warmup_max_ms[ev->op] = ev->duration_ms;
	} else {
		st->total++;
		st->unsampled += !ev->nsamples;
		st->count[ev->op]++;
		if (ev->duration_ms > st->max_ms[ev->op])
			st->max_ms[ev->op] = ev->duration_ms;
	}
	for (i = 0; i < ev->nsamples; i++)
		fold(st, ev->samples[i].stack, 1 + ev->samples[i].repeat);

	/* keep the longest STALL_MAX_EVENTS, longest first */
	if (st->nevents == STALL_MAX_EVENTS) {
		if (st->events[st->nevents - 1].duration_ms >= ev->duration_ms) {
			result_stall_free(ev);
			return;
		}
		result_stall_free(&st->events[--st->nevents]);
	}
	for (i = st->nevents; i > 0 && st->events[i - 1].duration_ms <
					       ev->duration_ms; i--)
		st->events[i] = st->events[i - 1];
	st->events[i] = *ev;
	st->nevents++;
}

/* false: no sample yet, the budget of this poll is spent */
static bool open_event(struct watchdog *wd, int client, uint64_t start,
		       uint64_t head0, uint64_t now)
{
	struct client_slot *s = &wd->cfg.shm->slot[client];
	struct active *a = calloc(1, sizeof(*a));
	struct result_stall *ev;
	struct timespec rt;
	time_t sec;
	struct tm tm;
	char when[40];
	uint64_t wall;

	if (!a)
		return true;
	ev = &a->ev;
	a->start_ns = start;
	a->head0 = head0;
	a->pc = s->cur_op;
	ev->client = client;
	ev->pid = (int)s->pid;
	wd->cfg.describe(wd->cfg.ctx, client, a->pc, ev);
	ev->start_s = (double)(start - wd->cfg.shm->hdr.start_ns) / 1e9;
	clock_gettime(CLOCK_REALTIME, &rt);
	wall = (uint64_t)rt.tv_sec * NSEC_PER_SEC + (uint64_t)rt.tv_nsec -
	       (now - start);
	sec = (time_t)(wall / NSEC_PER_SEC);
	gmtime_r(&sec, &tm);
	strftime(when, 24, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(when + strlen(when), sizeof(when) - strlen(when), ".%03uZ",
		 (unsigned int)(wall % NSEC_PER_SEC / NSEC_PER_MSEC));
	ev->start_time = strdup(when);
	psi_now(wd, ev->psi_start);
	a->next_sample_ns = now; /* due: now, or at a later poll */
	wd->active[client] = a;
	if (wd->cfg.offcpu)
		offcpu_open(wd->cfg.offcpu, client, start, now);
	return sample_due(wd, a, now);
}

/*
 * With BPF tracing, the slots are read first and the ring buffer drained
 * after: an op seen ended then has all its intervals in (the client was
 * back on a CPU, its record sent, before it ended the op), and an op seen
 * in flight has all those that came back by @now.
 */
void watchdog_poll(struct watchdog *wd, uint64_t now)
{
	int n = wd->cfg.nclients, first = wd->cursor, deferred = -1;

	for (int i = 0; i < n; i++) {
		struct client_slot *s = &wd->cfg.shm->slot[i];

		/* first: the record of the op seen in flight next, if it
		 * gets one, is at head0 - 1 or later */
		wd->head0[i] = __atomic_load_n(&s->slow_head,
					       __ATOMIC_ACQUIRE);
		wd->seen[i] = __atomic_load_n(&s->op_start_ns,
					      __ATOMIC_ACQUIRE);
	}
	wd->budget = wd->cfg.max_samples ? wd->cfg.max_samples : UINT32_MAX;
	wd->psi_read = false;
	if (wd->cfg.offcpu)
		offcpu_drain(wd->cfg.offcpu);
	/* from the client the last poll's budget stopped at */
	for (int k = 0; k < n; k++) {
		int i = first + k < n ? first + k : first + k - n;
		uint64_t head0 = wd->head0[i], start = wd->seen[i];
		struct active *a = wd->active[i];
		bool done = true;

		if (a && start != a->start_ns) {
			finish(wd, a, i, now, true);
			free(a);
			wd->active[i] = a = NULL;
		}
		if (!a && start && now > start &&
		    now - start >= wd->cfg.threshold_ns)
			done = open_event(wd, i, start, head0, now);
		else if (a && now >= a->next_sample_ns)
			done = sample_due(wd, a, now);
		if (!done && deferred < 0)
			deferred = i;
	}
	if (deferred >= 0)
		wd->cursor = deferred;
	if (wd->cfg.offcpu)
		offcpu_settle(wd->cfg.offcpu, now, wd->seen);
}

/*
 * Take the nice value of the thread that started the watchdog: the parent
 * raises its main thread to nice -20 once the clients run (runner.c,
 * raise_priority), and a watchdog left at nice 0 among a thousand busy
 * clients would poll seconds late and miss stalls.  One getpriority() a
 * poll; a value it may not take (no privilege) is tried once.
 */
static void follow_nice(struct watchdog *wd)
{
	int n;

	errno = 0;
	n = getpriority(PRIO_PROCESS, (id_t)wd->leader);
	if (errno || n == wd->nice)
		return;
	wd->nice = n;
	setpriority(PRIO_PROCESS, 0, n); /* this thread (Linux) */
}

int watchdog_tid(const struct watchdog *wd)
{
	return (int)__atomic_load_n(&wd->tid, __ATOMIC_ACQUIRE);
}

static void *watchdog_main(void *arg)
{
	struct watchdog *wd = arg;
	uint64_t next = clock_ns();

	errno = 0;
	wd->nice = getpriority(PRIO_PROCESS, 0);
	__atomic_store_n(&wd->tid, gettid(), __ATOMIC_RELEASE);
	while (!wd->quit) {
		follow_nice(wd);
		pthread_mutex_lock(&wd->lock);
		watchdog_poll(wd, clock_ns());
		pthread_mutex_unlock(&wd->lock);
		next += wd->cfg.poll_ns;
		if (next < clock_ns())
			next = clock_ns() + wd->cfg.poll_ns;
		clock_sleep_until(next);
	}
	return NULL;
}

struct watchdog *watchdog_new(const struct watchdog_cfg *cfg)
{
	struct watchdog *wd = calloc(1, sizeof(*wd));

	if (!wd)
		return NULL;
	wd->cfg = *cfg;
	wd->active = calloc((size_t)cfg->nclients, sizeof(*wd->active));
	wd->head0 = calloc((size_t)cfg->nclients, sizeof(*wd->head0));
	wd->seen = calloc((size_t)cfg->nclients, sizeof(*wd->seen));
	if (!wd->active || !wd->head0 || !wd->seen) {
		free(wd->active);
		free(wd->head0);
		free(wd->seen);
		free(wd);
		return NULL;
	}
	pthread_mutex_init(&wd->lock, NULL);
	cfg->out->enabled = true;
	cfg->out->threshold_ms = (double)cfg->threshold_ns / 1e6;
	return wd;
}

struct watchdog *watchdog_start(const struct watchdog_cfg *cfg)
{
	struct watchdog *wd = watchdog_new(cfg);
	int rc;

	if (!wd)
		return NULL;
	wd->leader = gettid();
	rc = pthread_create(&wd->thread, NULL, watchdog_main, wd);
	if (rc) {
		pthread_mutex_destroy(&wd->lock);
		free(wd->active);
		free(wd->head0);
		free(wd->seen);
		free(wd);
		errno = rc;
		return NULL;
	}
	return wd;
}

static int by_count(const void *a, const void *b)
{
	const struct result_folded *x = a, *y = b;

	return x->count < y->count ? 1 : x->count > y->count ? -1 : 0;
}

void watchdog_stop(struct watchdog *wd)
{
	if (!wd)
		return;
	wd->quit = 1;
	pthread_join(wd->thread, NULL);
	watchdog_end(wd, clock_ns());
}

void watchdog_end(struct watchdog *wd, uint64_t now)
{
	watchdog_poll(wd, now);	/* ops that ended since the last poll */
	for (int i = 0; i < wd->cfg.nclients; i++) {
		if (wd->active[i]) {
			finish(wd, wd->active[i], i, now, false);
			free(wd->active[i]);
		}
	}
	qsort(wd->cfg.out->folded, (size_t)wd->cfg.out->nfolded,
	      sizeof(*wd->cfg.out->folded), by_count);
	if (wd->cfg.offcpu)
		offcpu_fill(wd->cfg.offcpu, wd->cfg.out);
	pthread_mutex_destroy(&wd->lock);
	free(wd->active);
	free(wd->head0);
	free(wd->seen);
	free(wd);
}

/* One stall still in progress at @now into the copy @st, as watchdog_end()
 * would record it: not ended, its duration so far, counted; kept if it
 * is among the longest.  -1: out of memory. */
static int copy_active(struct result_stalls *st, const struct active *a,
		       uint64_t now)
{
	struct result_stall *ev;
	double ms = (double)(now - a->start_ns) / 1e6;
	int k = st->nevents;

	st->total++;
	st->unsampled += !a->ev.nsamples;
	st->count[a->ev.op]++;
	if (ms > st->max_ms[a->ev.op])
		st->max_ms[a->ev.op] = ms;
	for (int i = 0; i < a->ev.nsamples; i++)
		fold(st, a->ev.samples[i].stack, 1 + a->ev.samples[i].repeat);
	if (k == STALL_MAX_EVENTS) { /* the shortest goes, if shorter */
		k = 0;
		for (int i = 1; i < st->nevents; i++) {
			if (st->events[i].duration_ms <
			    st->events[k].duration_ms)
				k = i;
		}
		if (st->events[k].duration_ms >= ms)
			return 0;
		result_stall_free(&st->events[k]);
	} else {
		st->nevents++;
	}
	ev = &st->events[k];
	if (result_stall_copy(ev, &a->ev)) {
		st->events[k] = st->events[--st->nevents];
		return -1;
	}
	ev->ended = false;
	ev->warmup = false;
	ev->duration_ms = ms;
	return 0;
}

static int longer(const void *a, const void *b)
{
	const struct result_stall *x = a, *y = b;

	return (x->duration_ms < y->duration_ms) -
	       (x->duration_ms > y->duration_ms);
}

bool watchdog_copy(struct watchdog *wd, uint64_t now, struct result_stalls *dst)
{
	bool ok;

	if (!wd || pthread_mutex_trylock(&wd->lock))
		return false;
	result_stalls_free(dst);
	ok = !result_stalls_copy(dst, wd->cfg.out);
	for (int i = 0; ok && i < wd->cfg.nclients; i++) {
		if (wd->active[i])
			ok = !copy_active(dst, wd->active[i], now);
	}
	pthread_mutex_unlock(&wd->lock);
	if (!ok) {
		result_stalls_free(dst);
		return false;
	}
	qsort(dst->events, (size_t)dst->nevents, sizeof(*dst->events), longer);
	qsort(dst->folded, (size_t)dst->nfolded, sizeof(*dst->folded),
	      by_count);
	return true;
}
