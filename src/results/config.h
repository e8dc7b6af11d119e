/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * config.h - the settings of a run, once: CONFIG_FIELDS is the one list
 * that makes struct config and the table config_fields[] (config.c), which
 * the command line (cli/options.c), the JSON config object (written and
 * read, results/result_json_*.c) and the HTML configuration table
 * (report/html/settings.c) walk.  Its order is the order of the JSON keys
 * and of the HTML rows.
 */
#ifndef DBNG_CONFIG_H
#define DBNG_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * X(field, type, opt, lopt, jkey, jmin, jmax, label, unit, flags)
 *   type   INT (int), DBL (double), BOOL (bool), STR (const char *)
 *   opt    the name of the setting in messages and in the HTML "Option"
 *          column: "-t" (also the short option), "--warmup", "NPROCS",
 *          or "" (derived)
 *   lopt   the long option, or NULL
 *   jkey   the key in the JSON "config" object
 *   jmin, jmax  the range a JSON reader accepts (INT); the command line
 *          has its own, narrower ranges (options.c)
 *   label  the row of the HTML table; unit  after the value there
 */
#define CF_OPERAND  (1u << 0) /* the NPROCS operand, not an option */
#define CF_DERIVED  (1u << 1) /* computed, not parsed (nclients, backend_*) */
#define CF_ZERO_OFF (1u << 2) /* HTML: 0 shows as "off" */
#define CF_NULL_NO  (1u << 3) /* HTML: NULL shows as "no", a value plain */
#define CF_NONEMPTY (1u << 4) /* command line: "" is refused */
#define CF_OPTIONAL (1u << 5) /* may be absent from older JSON results: an
				 INT then reads as jmin, a STR as NULL */
#define CF_NO_HTML  (1u << 6) /* not in the HTML table */
#define CF_ZERO_NA  (1u << 7) /* HTML: 0 shows as "not recorded" (an INT
				 absent from an older JSON result) */
#define CF_NULL_NA  (1u << 8) /* HTML: NULL shows as "not recorded" (a STR
				 absent from an older JSON result) */

/* clang-format off */
#define CONFIG_FIELDS(X) \
X(nprocs,         INT,  "NPROCS",                NULL,                  "nprocs",              0, 1000000,    "Processes",           "",   CF_OPERAND) \
X(cpp,            INT,  "--clients-per-process", "clients-per-process", "clients_per_process", 0, 1000000,    "Clients per process", "",   0) \
X(nclients,       INT,  "",                      NULL,                  "clients",             0, 100000000,  "Clients",             "",   CF_DERIVED) /* nprocs * cpp */ \
X(timelimit,      INT,  "-t",                    "timelimit",           "timelimit_s",         0, 1000000000, "Time limit",          " s", 0) /* the execute phase */ \
X(warmup,         INT,  "--warmup",              "warmup",              "warmup_s",           -1, 1000000000, "Warmup",              " s", 0) /* default timelimit / 5 */ \
X(loadfile,       STR,  "-c",                    "loadfile",            "loadfile",            0, 0,          "Loadfile",            "",   CF_NONEMPTY) /* as given: may be a comma list */ \
X(dir,            STR,  "-D",                    "directory",           "directory",           0, 0,          "Directory",           "",   CF_NONEMPTY) \
X(backend,        STR,  "-B",                    "backend",             "backend",             0, 0,          "Backend",             "",   0) \
X(backend_version, INT, "",                      NULL,                  "backend_version",     0, 1000000000, "Backend version",     "",   CF_DERIVED | CF_OPTIONAL | CF_ZERO_NA) /* the backend's own */ \
X(backend_opts,   STR,  "-o",                    NULL,                  "backend_options",     0, 0,          "Backend options",     "",   CF_DERIVED | CF_OPTIONAL | CF_NULL_NO) /* backend_options_text(), NULL if none */ \
X(paths,          STR,  "--paths",               "paths",               "paths",               0, 0,          "Paths",               "",   CF_OPTIONAL | CF_NULL_NA) /* "full" or "dirfd"; NULL (older results): dirfd */ \
X(allow_races,    BOOL, "--allow-symlink-races", "allow-symlink-races", "allow_symlink_races", 0, 0,          "Symlink races allowed", "", CF_OPTIONAL) /* full without a mount namespace */ \
X(target_rate,    DBL,  "-R",                    "target-rate",         "target_rate_mbps",    0, 0,          "Target rate",         " MB/s per client", CF_ZERO_OFF) /* 0 = off */ \
X(sync_open,      BOOL, "-s",                    "sync",                "sync_open",           0, 0,          "Sync open",           "",   0) \
X(sync_dirs,      BOOL, "-S",                    "sync-dir",            "sync_dirs",           0, 0,          "Sync directories",    "",   0) \
X(fsync_writes,   BOOL, "-F",                    "fsync",               "fsync",               0, 0,          "fsync after writes",  "",   0) \
X(xattr,          BOOL, "-x",                    "xattr",               "xattr",               0, 0,          "Extended attributes", "",   0) \
X(no_resolve,     BOOL, "--no-resolve",          "no-resolve",          "no_resolve",          0, 0,          "No path resolution",  "",   0) \
X(one_byte_fix,   BOOL, "--one-byte-write-fix",  "one-byte-write-fix",  "one_byte_write_fix",  0, 0,          "One-byte write fix",  "",   0) \
X(stat_check,     BOOL, "--stat-check",          "stat-check",          "stat_check",          0, 0,          "Stat check",          "",   0) \
X(fake_io,        BOOL, "--fake-io",             "fake-io",             "fake_io",             0, 0,          "Fake I/O",            "",   0) \
X(skip_cleanup,   BOOL, "--skip-cleanup",        "skip-cleanup",        "skip_cleanup",        0, 0,          "Skip cleanup",        "",   0) \
X(per_client,     BOOL, "--per-client-results",  "per-client-results",  "per_client_results",  0, 0,          "Per-client results",  "",   0) \
X(run_once,       BOOL, "--run-once",            "run-once",            "run_once",            0, 0,          "Run once",            "",   0) \
X(machine,        BOOL, "--machine-readable",    "machine-readable",    "machine_readable",    0, 0,          "Machine readable",    "",   0) \
X(show_exec_time, BOOL, "--show-execute-time",   "show-execute-time",   "show_execute_time",   0, 0,          "Show execute time",   "",   0) \
X(no_percentiles, BOOL, "--no-percentiles",      "no-percentiles",      "no_percentiles",      0, 0,          "No percentiles",      "",   0) \
X(stall_ms,       INT,  "--stall-threshold",     "stall-threshold",     "stall_threshold_ms",  0, 3600000,    "Stall threshold",     " ms", CF_ZERO_OFF | CF_OPTIONAL) /* 0 = no watchdog */ \
X(json,           STR,  "--json",                "json",                "json",                0, 0,          "JSON result",         "",   CF_NULL_NO | CF_NONEMPTY | CF_OPTIONAL) /* FILE ("-": stdout) or NULL */ \
X(runs,           INT,  "--runs",                "runs",                "runs",                1, 1000,       "Runs",                "",   CF_OPTIONAL | CF_NO_HTML) /* repeat the whole benchmark */ \
X(no_bpf,         BOOL, "--no-bpf",              "no-bpf",              "no_bpf",              0, 0,          "No BPF tracing",      "",   CF_OPTIONAL) /* stalls: /proc sampling only */
/* clang-format on */

#define CF_CTYPE_INT  int
#define CF_CTYPE_DBL  double
#define CF_CTYPE_BOOL bool
#define CF_CTYPE_STR  const char *

struct config {
#define X(f, T, ...) CF_CTYPE_##T f;
	CONFIG_FIELDS(X)
#undef X
	FILE *out; /* not a setting: overrides opt_out() */
	bool helped; /* not a setting: -h printed the usage */
};

/* CFG_nprocs, CFG_cpp, ...: the index of a field in config_fields[] */
enum config_field {
#define X(f, ...) CFG_##f,
	CONFIG_FIELDS(X)
#undef X
	CFG_NR
};

/* CFS_loadfile, CFS_dir, ...: the index of a string field among the
 * strings a result owns (result.h, owned[]) */
#define CF_STR_INDEX_INT(f)
#define CF_STR_INDEX_DBL(f)
#define CF_STR_INDEX_BOOL(f)
#define CF_STR_INDEX_STR(f) CFS_##f,
enum {
#define X(f, T, ...) CF_STR_INDEX_##T(f)
	CONFIG_FIELDS(X)
#undef X
	CFS_NR
};

enum config_type { CF_INT, CF_DBL, CF_BOOL, CF_STR };

/* One field of the list, with where it lives in struct config. */
struct config_field_info {
	const char *field;
	enum config_type type;
	const char *opt, *lopt, *jkey;
	long jmin, jmax;
	const char *label, *unit;
	unsigned int flags;
	size_t offset; /* in struct config */
	int str_index; /* CFS_x of a STR field, else -1 */
};

extern const struct config_field_info config_fields[CFG_NR];

/* Where field @i of @c is: cast to the pointer of its type. */
static inline void *config_field(struct config *c, int i)
{
	return (char *)c + config_fields[i].offset;
}

static inline const void *config_field_c(const struct config *c, int i)
{
	return (const char *)c + config_fields[i].offset;
}

#endif
