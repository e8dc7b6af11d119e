/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * options_help.c - the text of dbench-ng --help (and tbench's): the
 * commands and the options of a run.
 */
#include "options.h"

#include "registry.h"
#include "sockopt.h"

void opt_help(FILE *f, const char *mode_usage)
{
	/* clang-format off */
	if (mode_usage)
		fprintf(f, "%s", mode_usage);
	else
		fprintf(f,
"Usage: dbench-ng [OPTIONS] NPROCS\n"
"       dbench-ng COMMAND [ARGS]\n"
"Replay a NetBench file-server loadfile with NPROCS client processes\n"
"against a directory and report per-operation latency and throughput.\n"
"\n"
"Commands (dbench-ng help COMMAND, or COMMAND --help, for their options):\n"
"  report FILE                re-render a stored result (--json, or a\n"
"                             dbench text log), as text or HTML\n"
"  compare BASE... -- CAND... compare runs: significance and a verdict\n"
"  check --baseline FILE... NPROCS\n"
"                             run against a baseline, for git bisect run\n"
"  tbench NPROCS [SERVER]     tbench's client: the network benchmark\n"
"  tbench_srv                 tbench's server\n"
"  record [OPTIONS] -- COMMAND\n"
"                             a loadfile of what COMMAND does (BPF or\n"
"                             strace)\n"
"  help [COMMAND]             this text, or a command's\n"
"\n"
"Options of a run:\n");
	fprintf(f,
"  -t, --timelimit=SECS       length of the measured phase (default 600)\n"
"      --warmup=SECS          warm-up before it (default timelimit/5)\n"
"  -c, --loadfile=FILE[,...]  loadfile, plain or gzip; a comma list gives\n"
"                             client i the file i modulo the list length\n"
"                             (default: dbench 4.0's client.txt where it\n"
"                             is installed, else the built-in workload,\n"
"                             " OPT_BUILTIN ")\n"
"  -D, --directory=DIR        base directory (default .); clients work in\n"
"                             DIR/clients and touch nothing else\n"
"      --paths=MODE           full (default): every call names its whole\n"
"                             path from DIR, as dbench 4.0; dirfd: calls\n"
"                             relative to cached directory fds, a lighter\n"
"                             load not comparable with dbench's\n"
"      --allow-symlink-races  run full mode where no mount namespace with\n"
"                             DIR nosymfollow can be had (else refused)\n");
	backend_help(f);
	fprintf(f,
"  -R, --target-rate=MBPS     per-client target rate in MB/s\n"
"  -s, --sync                 open files with O_SYNC\n"
"  -S, --sync-dir             fdatasync the directory after unlink, rmdir\n"
"                             and rename\n"
"  -F, --fsync                fsync after every write\n"
"  -x, --xattr                emulate Samba's DOS attributes in xattrs\n"
"      --no-resolve           no case-insensitive lookup of missing names\n"
"      --stat-check           skip pointless calls after a stat()\n"
"      --one-byte-write-fix   skip or truncate for 1-byte zero writes\n"
"      --fake-io              do not read or write file data\n"
"      --clients-per-process=N  clients sharing each process (default 1)\n"
"      --run-once             stop after one pass of the loadfile\n"
"      --skip-cleanup         leave DIR/clients/clientN behind\n"
"      --per-client-results   add a table per client\n"
"      --show-exec[ute-time]  print the time of every completed pass\n"
"                             (mmtests' option; its full name is not\n"
"                             spelt here: a log parser takes a line with\n"
"                             that word for a progress line)\n"
"      --machine-readable     dbench's colon-separated output\n"
"      --no-percentiles       omit the percentile table\n"
"      --json=FILE            write the whole result as JSON to FILE\n"
"                             (- for stdout; the text then goes to stderr)\n"
"      --runs=N               run the whole benchmark N times, each on a\n"
"                             fresh tree, and summarise the spread\n"
"      --stall-threshold=MS   record the kernel stack of any op running\n"
"                             longer (default 100; 0 turns it off)\n"
"      --no-bpf               explain stalls by /proc sampling only, without\n"
"                             BPF tracing of who woke the stuck client\n"
"  -T, --tcp-options=OPTS     socket options of -B sockio, tbench's names\n"
"                             (default \"" SOCKOPT_DEFAULT "\"); ignored\n"
"                             by the other backends, as by dbench\n"
"  -h, --help                 this text\n"
"      --version              print the version\n"
"\n"
"Exit status: 0 success, 1 a client failed, 2 bad usage or input,\n"
"3 environment error, 130/143 interrupted.  See dbench-ng(1).\n");
	/* clang-format on */
}
