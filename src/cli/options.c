/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * options.c - parse and validate the command line.  Every problem is one
 * line on stderr naming the option and the value; the caller exits 2.
 */
#include "options.h"

#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"
#include "registry.h"
#include "sockopt.h"
#include "suggest.h"
#include "version.h"

/* -o NAME[=VALUE] and the backends' --LOPT[=VALUE]: collected here in
 * their order, parsed by the backend's registry once -B is known; the
 * latter as "--LOPT=VALUE" strings made here (be_made) */
static const char *be_opts[OPT_MAX_BACKEND_OPTS];
static char *be_made[OPT_MAX_BACKEND_OPTS];
static int nbe_opts;

/* tbench mode (opt_tbench): the default backend and the usage line */
static const char *mode_backend;
static const char *mode_usage;

/* where the values of secret options begin in argv (opt_secrets) */
static const char *secrets[OPT_MAX_BACKEND_OPTS];
static int nsecrets;

/* the backends' long options (backend_long_options), getopt values
 * O_BACKEND + index */
static const struct be_option *be_lopts[OPT_MAX_BACKEND_LOPTS];
static int nbe_lopts;

/*
 * What the command line adds to the list of config.h (config_fields[]),
 * by field: the default, the range of an INT (messages name the field's
 * opt: "-t", "--warmup", "NPROCS"), the message of a bad DBL.  The
 * options are the fields with an lopt; a field whose opt is "-X" also
 * has the short option X.
 */
struct cli_field {
	long def;	     /* INT */
	const char *def_str; /* STR */
	long min, max;	     /* INT */
	const char *why;     /* DBL: after "'VALUE' " */
	double dmin, dmax;   /* DBL: 0 or dmin..dmax */
	const char *choices; /* STR: the values allowed, "a|b", or NULL */
};

static const struct cli_field cli[CFG_NR] = {
	[CFG_nprocs] = {.min = 1, .max = OPT_MAX_PROCS},
	[CFG_cpp] = {.def = 1, .min = 1, .max = 10000},
	[CFG_timelimit] = {.def = 600, .min = 1, .max = 100000000},
	[CFG_warmup] = {.def = -1, .min = 0, .max = 100000000},
	[CFG_loadfile] = {.def_str = NULL}, /* run_setup(): stock_default() */
	[CFG_dir] = {.def_str = "."},
	[CFG_backend] = {0}, /* the registry's first (opt_parse) */
	[CFG_paths] = {.def_str = "full", .choices = "full|dirfd"},
	/* a rate in MB/s times 1e6 must stay a finite, normal double */
	[CFG_target_rate] = {.why = "is not a rate in MB/s (0 for none, or "
				    "a number from 1e-300 to 1e300)",
			     .dmin = 1e-300,
			     .dmax = 1e300},
	[CFG_stall_ms] = {.def = 100, .min = 0, .max = 3600000},
	[CFG_runs] = {.def = 1, .min = 1, .max = 1000},
};

/* getopt values of the long options without a short one: 256 + field */
#define O_FIELD	  256
#define O_VERSION (O_FIELD + CFG_NR)
#define O_BACKEND (O_VERSION + 1)

/* The options that are not settings. */
static const struct option other_opts[] = {
	{"tcp-options", required_argument, NULL, 'T'},
	{"backend-option", required_argument, NULL, 'o'},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, O_VERSION},
};
#define OTHER_SHORT "T:o:h"

#define NOTHER (sizeof(other_opts) / sizeof(other_opts[0]))

/* The short option of field @i, or 0. */
static int short_of(int i)
{
	const char *o = config_fields[i].opt;

	if (!config_fields[i].lopt)
		return 0; /* not an option (NPROCS, derived fields) */
	return o[0] == '-' && o[1] && o[1] != '-' ? o[1] : 0;
}

/* Fill @lo (CFG_NR + NOTHER + OPT_MAX_BACKEND_LOPTS + 1 entries) and @so
 * (2 * CFG_NR + 8 bytes) for getopt_long. */
static void make_opts(struct option *lo, char *so)
{
	int n = 0;

	*so++ = ':';
	for (int i = 0; i < CFG_NR; i++) {
		const struct config_field_info *fi = &config_fields[i];
		int s = short_of(i);
		bool arg = fi->type != CF_BOOL;

		if (!fi->lopt)
			continue;
		lo[n++] = (struct option){fi->lopt,
					  arg ? required_argument : no_argument,
					  NULL, s ? s : O_FIELD + i};
		if (s) {
			*so++ = (char)s;
			if (arg)
				*so++ = ':';
		}
	}
	for (size_t i = 0; i < NOTHER; i++)
		lo[n++] = other_opts[i];
	for (int i = 0; i < nbe_lopts; i++)
		lo[n++] = (struct option){be_lopts[i]->lopt,
					  be_lopts[i]->type == BE_OPT_FLAG
						  ? no_argument
						  : required_argument,
					  NULL, O_BACKEND + i};
	lo[n] = (struct option){NULL, 0, NULL, 0};
	strcpy(so, OTHER_SHORT);
}

/* The field getopt's @c sets, or -1. */
static int field_of(int c)
{
	if (c >= O_FIELD && c < O_FIELD + CFG_NR)
		return c - O_FIELD;
	for (int i = 0; c > 0 && i < CFG_NR; i++) {
		if (short_of(i) == c)
			return i;
	}
	return -1;
}

/* where opt_parse() keeps why it refused the command line (its caller's
 * buffer, for the duration of the call) */
static char *why_buf;
static size_t why_len;

/* A refusal: on stderr as "dbench-ng: MESSAGE", and MESSAGE kept for the
 * caller of opt_parse() */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void say(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "dbench-ng: %s\n", msg);
	if (why_buf && why_len)
		snprintf(why_buf, why_len, "%s", msg);
}

static void unknown_why(const char *arg, const struct option *lo)
{
	char why[256];

	unknown_option_why(why, sizeof(why), arg, lo, "dbench-ng --help");
	say("%s", why);
}

static int bad_value(const char *opt, const char *val, const char *why)
{
	say("%s: '%s' %s", opt, val, why);
	return -1;
}

static int parse_long(const char *opt, const char *s, long min, long max,
		      int *out)
{
	int64_t v;

	switch (num_i64(s, 0, min, max, &v)) {
	case NUM_OK:
		*out = (int)v;
		return 0;
	case NUM_SYNTAX:
		return bad_value(opt, s, "is not a whole number");
	case NUM_RANGE:
		break;
	}
	say("%s: '%s' is out of range "
	    "(%ld..%ld)",
	    opt, s, min, max);
	return -1;
}

static const char *opt_name(int c, char *buf, size_t len)
{
	snprintf(buf, len, "-%c", c);
	return buf;
}

static bool is_long(const char *arg)
{
	return !strncmp(arg, "--", 2);
}

/* Keep the backend option @kv (-o's), or "--LOPT=@val" of the backend
 * long option @lo.  0, or -1 with a message printed. */
static int add_backend_opt(const char *kv, const struct be_option *lo,
			   const char *val)
{
	if (nbe_opts == OPT_MAX_BACKEND_OPTS) {
		say("more than %d backend options", OPT_MAX_BACKEND_OPTS);
		return -1;
	}
	if (lo) {
		if (lo->secret && val)
			secrets[nsecrets++] = val;
	} else if (strchr(kv, '=') && backend_option_secret(kv)) {
		secrets[nsecrets++] = strchr(kv, '=') + 1;
	}
	if (lo) {
		size_t n = strlen(lo->lopt) + (val ? strlen(val) : 0) + 4;
		char *s = malloc(n);

		if (!s) {
			say("out of memory");
			return -1;
		}
		snprintf(s, n, "--%s%s%s", lo->lopt, val ? "=" : "",
			 val ? val : "");
		be_made[nbe_opts] = s;
		kv = s;
	}
	be_opts[nbe_opts++] = kv;
	return 0;
}

/* Keep "NAME=VALUE" for the backend, as if given with -o.  0, or -1
 * with a message printed. */
static int add_made_opt(const char *name, const char *val)
{
	size_t n = strlen(name) + strlen(val) + 2;
	char *s = malloc(n);

	if (!s) {
		say("out of memory");
		return -1;
	}
	snprintf(s, n, "%s=%s", name, val);
	if (add_backend_opt(s, NULL, NULL)) {
		free(s);
		return -1;
	}
	be_made[nbe_opts - 1] = s;
	return 0;
}

/* Does backend @b have an option called @name ("tcp-options"), or with
 * the long option @lopt ("server")? */
static bool has_option(const struct backend *b, const char *name,
		       const char *lopt)
{
	for (const struct be_option *o = b ? b->options : NULL; o && o->name;
	     o++) {
		if ((name && !strcmp(o->name, name)) ||
		    (lopt && o->lopt && !strcmp(o->lopt, lopt)))
			return true;
	}
	return false;
}

/* The long option --@lopt of the backends, or NULL. */
static const struct be_option *long_option(const char *lopt)
{
	for (int i = 0; i < nbe_lopts; i++) {
		if (!strcmp(be_lopts[i]->lopt, lopt))
			return be_lopts[i];
	}
	return NULL;
}

/*
 * What dbench 4.0 takes for tbench and the other backends ignore: -T,
 * tbench's socket options, goes to a backend that has an option
 * "tcp-options" (sockio); the operand after NPROCS, tbench's server, to
 * one that has --server.  0, or -1 with a message printed.
 */
static int tbench_args(const struct config *cfg, const char *tcp,
		       const char *server, bool seen_server)
{
	const struct backend *b = backend_find(cfg->backend);

	if (tcp && has_option(b, "tcp-options", NULL) &&
	    add_made_opt("tcp-options", tcp))
		return -1;
	if (!server || !has_option(b, NULL, "server"))
		return 0;
	if (seen_server) {
		say("the server is given twice, by "
		    "--server and by the operand '%s' after NPROCS",
		    server);
		return -1;
	}
	return add_backend_opt(NULL, long_option("server"), server);
}

void opt_tbench(const char *backend, const char *usage)
{
	mode_backend = backend;
	mode_usage = usage;
}

int opt_secrets(const char *const **v)
{
	*v = secrets;
	return nsecrets;
}

int opt_backend_options(const char *const **kv)
{
	*kv = be_opts;
	return nbe_opts;
}

FILE *opt_out(const struct config *cfg)
{
	if (cfg->out)
		return cfg->out;
	return cfg->json && !strcmp(cfg->json, "-") ? stderr : stdout;
}

/* Is @val one of the '|'-separated @choices? */
static bool is_choice(const char *choices, const char *val)
{
	size_t n = strlen(val);

	for (const char *c = choices; *c;) {
		size_t len = strcspn(c, "|");

		if (len == n && !strncmp(c, val, n))
			return true;
		c += len + (c[len] == '|');
	}
	return false;
}

/* Set field @i of @cfg from @val.  0, or -1 with a message printed. */
static int set_field(struct config *cfg, int i, char *val)
{
	const struct config_field_info *fi = &config_fields[i];
	void *v = config_field(cfg, i);

	switch (fi->type) {
	case CF_INT:
		return parse_long(fi->opt, val, cli[i].min, cli[i].max, v);
	case CF_DBL: {
		/* no nan, inf, overflow, denormal or -0 (NUM_NORMAL) */
		unsigned int fl = NUM_NORMAL | NUM_NO_MINUS;
		enum num_err e = num_f64(val, fl, v, NULL);
		double d = *(double *)v;

		if (e != NUM_OK || (d && (d < cli[i].dmin || d > cli[i].dmax)))
			return bad_value(fi->opt, val, cli[i].why);
		return 0;
	}
	case CF_BOOL:
		*(bool *)v = true;
		return 0;
	case CF_STR:
		*(const char **)v = val;
		if ((fi->flags & CF_NONEMPTY) && !*val)
			return bad_value(fi->opt, val, "is empty");
		if (cli[i].choices && !is_choice(cli[i].choices, val)) {
			char why[80];

			snprintf(why, sizeof(why), "is not one of %s",
				 cli[i].choices);
			return bad_value(fi->opt, val, why);
		}
		return 0;
	}
	return 0;
}

bool opt_is_long(const char *arg)
{
	struct option lo[CFG_NR + NOTHER + OPT_MAX_BACKEND_LOPTS + 1];
	char so[2 * CFG_NR + 8];
	size_t len;

	if (strncmp(arg, "--", 2))
		return false;
	arg += 2;
	len = strcspn(arg, "=");
	nbe_lopts = backend_long_options(be_lopts, OPT_MAX_BACKEND_LOPTS);
	if (nbe_lopts < 0)
		nbe_lopts = 0;
	make_opts(lo, so);
	for (const struct option *o = lo; o->name; o++)
		if (strlen(o->name) == len && !strncmp(o->name, arg, len))
			return true;
	return false;
}

enum opt_result opt_parse(int argc, char **argv, struct config *cfg, char *why,
			  size_t whylen)
{
	struct option long_opts[CFG_NR + NOTHER + OPT_MAX_BACKEND_LOPTS + 1];
	char short_opts[2 * CFG_NR + 8];
	const char *tcp = NULL;
	bool seen_server = false;
	char name[64];
	int c, i;

	why_buf = why;
	why_len = whylen;
	if (why && whylen)
		why[0] = '\0';
	for (i = 0; i < OPT_MAX_BACKEND_OPTS; i++) {
		free(be_made[i]);
		be_made[i] = NULL;
	}
	nbe_lopts = backend_long_options(be_lopts, OPT_MAX_BACKEND_LOPTS);
	if (nbe_lopts < 0) {
		say("the backends have more than %d "
		    "long options",
		    OPT_MAX_BACKEND_LOPTS);
		return OPT_ERROR;
	}

	memset(cfg, 0, sizeof(*cfg));
	for (i = 0; i < CFG_NR; i++) {
		if (config_fields[i].type == CF_INT)
			*(int *)config_field(cfg, i) = (int)cli[i].def;
		else if (config_fields[i].type == CF_STR)
			*(const char **)config_field(cfg, i) = cli[i].def_str;
	}
	cfg->backend = mode_backend ? mode_backend : backend_default()->name;
	nbe_opts = 0;
	nsecrets = 0;
	make_opts(long_opts, short_opts);

	opterr = 0;
	optind = 0; /* glibc: a full reset, also inside "-abc" clusters */
	while ((c = getopt_long(argc, argv, short_opts, long_opts, NULL)) !=
	       -1) {
		i = field_of(c);
		if (i >= 0) {
			if (set_field(cfg, i, optarg))
				return OPT_ERROR;
			continue;
		}
		switch (c) {
		case 'T': /* tbench's socket options: see tbench_args() */
			tcp = optarg;
			break;
		case 'o':
			if (add_backend_opt(optarg, NULL, NULL))
				return OPT_ERROR;
			break;
		case 'h':
			opt_help(stdout, mode_usage);
			cfg->helped = true;
			return OPT_EXIT_OK;
		case O_VERSION:
			printf("dbench-ng %s\n", dbng_version_long());
			return OPT_EXIT_OK;
		case O_BACKEND ... O_BACKEND + OPT_MAX_BACKEND_LOPTS - 1:
			seen_server = seen_server ||
				      !strcmp(be_lopts[c - O_BACKEND]->lopt,
					      "server");
			if (add_backend_opt(NULL, be_lopts[c - O_BACKEND],
					    optarg))
				return OPT_ERROR;
			break;
		case ':':
			say("option '%s' needs a value",
			    is_long(argv[optind - 1])
				    ? argv[optind - 1]
				    : opt_name(optopt, name, sizeof(name)));
			return OPT_ERROR;
		default:
			if (optopt && is_long(argv[optind - 1]))
				say("option '%.*s' takes "
				    "no value",
				    (int)strcspn(argv[optind - 1], "="),
				    argv[optind - 1]);
			else if (optopt)
				say("unknown option "
				    "'-%c' (see dbench-ng --help)",
				    optopt);
			else
				unknown_why(argv[optind - 1], long_opts);
			return OPT_ERROR;
		}
	}

	if (optind >= argc) {
		say("missing NPROCS, the number of "
		    "client processes (see dbench-ng --help)");
		return OPT_ERROR;
	}
	/* a second operand is tbench's server; dbench 4.0 ignores it */
	if (argc - optind > 2) {
		say("unexpected argument '%s' after "
		    "NPROCS",
		    argv[optind + 2]);
		return OPT_ERROR;
	}
	if (parse_long(config_fields[CFG_nprocs].opt, argv[optind],
		       cli[CFG_nprocs].min, cli[CFG_nprocs].max, &cfg->nprocs))
		return OPT_ERROR;
	if ((long)cfg->nprocs * cfg->cpp > OPT_MAX_PROCS) {
		say("NPROCS x --clients-per-process = "
		    "%ld clients, more than %d",
		    (long)cfg->nprocs * cfg->cpp, OPT_MAX_PROCS);
		return OPT_ERROR;
	}
	cfg->nclients = cfg->nprocs * cfg->cpp;
	if (tbench_args(cfg, tcp, argc - optind > 1 ? argv[optind + 1] : NULL,
			seen_server))
		return OPT_ERROR;
	if (cfg->warmup < 0)
		cfg->warmup = cfg->timelimit / 5;
	return OPT_RUN;
}
