#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# vs-dbench.sh: dbench-ng against Debian's dbench 4.0, same loadfile
# (/usr/share/dbench/client.txt), same private tmpfs, so that the file
# system costs almost nothing and what is compared is the benchmark
# programs themselves.
#
# What it measures, for each client count in $CLIENTS:
#   - lines/s: loadfile lines (= operations: client.txt has one op a line)
#     per second over all clients, during the EXECUTE phase only.  dbench
#     4.0 has no --warmup (its warmup is timelimit/5) while dbench-ng runs
#     with --warmup 2, so rates are taken from the progress lines, not from
#     the whole run:
#
#         lines/s = (lines column at the last execute line
#                    - lines column at the first execute line) * clients
#                   / (seconds between those two lines)
#
#     The lines column is cumulative per client since the start in both
#     programs, and the progress lines come once a second, so this is
#     immune to how long each program's warmup, start-up and cleanup take.
#     (The alternative, sum of the per-op table Counts / SECS, is printed
#     as a cross-check; it is wrong by up to a second's worth of ops when
#     an execute phase does not last exactly SECS.)
#   - user and sys CPU seconds per million lines: CPU of the whole process
#     tree (bash's time keyword, i.e. RUSAGE_CHILDREN; both programs reap
#     all their children) divided by the total lines of the run, warmup
#     included since CPU is spent there too: lines column of the last
#     progress line * clients.  Ops done after that last line (about one
#     second's worth) are not counted, which inflates both programs' figures
#     by roughly 1/(warmup+SECS) alike; the ratio is unaffected.
#   - dbench-ng is run from a copy in the results directory, so that a
#     rebuild during the run cannot mix two binaries.
#   - the two programs run alternately (dbench, dbench-ng, dbench, ...),
#     ROUNDS times each, so slow drifts of the machine hit both.  Medians
#     are reported, and every round's value so noise is visible.
#
# dbench-ng runs with --paths $PATHS (default full: the system calls of
# dbench 4.0, line for line, so the ratio is the harness alone: dbench's
# per-line kill() and allocations against dbench-ng's two clock reads).
# How to read it: "ng/dbench" > 1 for lines/s means dbench-ng replays the
# loadfile faster (goal in --paths full, at every client count: >= 1.4;
# PATHS=dirfd shows the lighter load, with no goal); < 1 for the CPU rows means
# dbench-ng needs less CPU per line.  With more clients than cores (4 on a
# 2-core machine) both programs saturate the CPUs and the comparison is one
# of CPU efficiency.  Results on a busy machine are noisy: look at the
# spread of the rounds before believing a ratio to better than ~5%.
#
# Afterwards the harness cost of dbench-ng alone is measured with the null
# backend (bench/null-overhead.sh; ns per loadfile line, goal: the two
# clock reads + 20 ns).
#
# Run:   sudo bench/vs-dbench.sh          (or: make bench)
# Environment (defaults in brackets):
#   CLIENTS ["1 4"]  SECS [20]  ROUNDS [3]      the comparison
#   PATHS [full]                                dbench-ng's --paths
#   NULL_CLIENTS ["1"]  NULL_SECS [8]  NULL_ROUNDS [3]  SKIP_NULL [0]
#   RESULTS_DIR [bench/results/<date>-<time>]   raw outputs, CSV, summary
#   DBENCH [/usr/bin/dbench]  LOADFILE [/usr/share/dbench/client.txt]
#   DBENCH_NG [./dbench-ng]  TMPFS_SIZE [4G]
# Default run: about 2 * ROUNDS * (2*SECS + 9) + NULL_ROUNDS * (NULL_SECS
# + 4) seconds, i.e. ~5.5 minutes.
#
# As root it mounts a private tmpfs on a mktemp -d directory
# (/tmp/dbng-bench.XXXXXX, device name "dbng-bench"); otherwise it falls
# back to a directory in /dev/shm.  Either is removed on every exit path.

set -eu
. "$(dirname "$0")/lib.sh"

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)

CLIENTS=${CLIENTS:-1 4}
PATHS=${PATHS:-full}
SECS=${SECS:-20}
ROUNDS=${ROUNDS:-3}
SKIP_NULL=${SKIP_NULL:-0}
DBENCH=${DBENCH:-/usr/bin/dbench}
LOADFILE=${LOADFILE:-/usr/share/dbench/client.txt}
DBENCH_NG=${DBENCH_NG:-$top/dbench-ng}
TMPFS_SIZE=${TMPFS_SIZE:-4G}
RESULTS_DIR=${RESULTS_DIR:-$here/results/$(date +%Y%m%d-%H%M%S)}
NG_WARMUP=2

# ---------------------------------------------------------------- checks

if [ ! -x "$DBENCH" ] || [ ! -r "$LOADFILE" ]; then
	cat >&2 <<EOF
vs-dbench.sh: needs dbench 4.0 ($DBENCH) and its loadfile ($LOADFILE).
On Debian or Ubuntu install them with:

    sudo apt-get install dbench

(or point DBENCH= and LOADFILE= at another dbench 4.0 build).
EOF
	exit 2
fi
if [ ! -x "$DBENCH_NG" ]; then
	echo "vs-dbench.sh: $DBENCH_NG not found; build it with 'make'" >&2
	exit 2
fi
case "$SECS" in
'' | *[!0-9]*) echo "vs-dbench.sh: SECS must be a number" >&2; exit 2 ;;
esac
if [ "$SECS" -lt 5 ]; then
	echo "vs-dbench.sh: SECS must be at least 5 (dbench 4.0 warms up" \
	     "for SECS/5 and needs two execute lines)" >&2
	exit 2
fi

# --------------------------------------------------- scratch, cleanup

# Each run is a background job in its own process group (set -m): an
# interrupt makes 'wait' return at once, and the trap can stop the whole
# tree of the running benchmark before unmounting.
set -m
job=
mnt=
mounted=0

cleanup() {
	set +e
	stop_job
	if [ "$mounted" = 1 ]; then
		umount_retry "$mnt"
		mounted=0
	fi
	if [ -n "$mnt" ]; then
		rm -rf "$mnt"
		mnt=
	fi
}
trap cleanup EXIT
trap 'echo "vs-dbench.sh: interrupted, cleaning up" >&2; exit 130' INT
trap 'echo "vs-dbench.sh: terminated, cleaning up" >&2; exit 143' TERM

results_init

if [ "$(id -u)" = 0 ]; then
	mnt=$(mktemp -d /tmp/dbng-bench.XXXXXX)
	if mount -t tmpfs -o "size=$TMPFS_SIZE,mode=0755" dbng-bench "$mnt"; then
		mounted=1
		fs_note="private tmpfs ($TMPFS_SIZE) on $mnt"
	else
		rmdir "$mnt"
		mnt=
	fi
fi
if [ -z "$mnt" ]; then
	mnt=$(mktemp -d /dev/shm/dbng-bench.XXXXXX)
	fs_note="$mnt (NOTE: not root or mount failed, so /dev/shm instead of a private tmpfs; it is shared with other users of /dev/shm)"
fi

# ------------------------------------------------------------ the runs

csv=$RESULTS_DIR/runs.csv
echo "prog,clients,round,exec_s,exec_lines,lines_per_s,table_ops,table_lines_per_s,mb_s,total_lines,real_s,user_s,sys_s,user_s_per_mline,sys_s_per_mline" >"$csv"

bench_env >"$RESULTS_DIR/env.txt"

say "dbench 4.0 vs dbench-ng, loadfile $LOADFILE"
say "scratch: $fs_note"
say "$ROUNDS rounds alternating dbench / dbench-ng, -t $SECS (dbench 4.0 warms up $((SECS / 5)) s, dbench-ng --warmup $NG_WARMUP)"
others() { pgrep -c '^dbench(-ng)?$' || true; }
say "load average at start: $(cut -d' ' -f1-3 /proc/loadavg), other dbench/dbench-ng processes: $(others) (other activity adds noise)"
say "results: $RESULTS_DIR"

# one_run PROG N ROUND: runs it, appends to the CSV, sets the globals
# LPS (lines/s), UPM and SPM (user and sys s per million lines)
one_run() {
	local prog=$1 n=$2 r=$3 out tf p fs fl ls ll ts mbs any real us ss res
	out=$RESULTS_DIR/$prog-c$n-r$r.out
	tf=$RESULTS_DIR/$prog-c$n-r$r.time
	rm -rf "${mnt:?}/clients"
	if [ "$prog" = dbench ]; then
		set -- "$DBENCH" -c "$LOADFILE" -t "$SECS" -D "$mnt" "$n"
	else
		set -- "$DBENCH_NG" -c "$LOADFILE" -t "$SECS" \
			--warmup "$NG_WARMUP" --paths "$PATHS" -D "$mnt" "$n"
	fi
	echo "$*" >"$out.cmd"
	printf '  %-9s %d client(s) round %d ... ' "$prog" "$n" "$r" >&2
	if ! run_timed "$out" "$tf" "$@"; then
		echo "FAILED" >&2
		echo "vs-dbench.sh: '$*' failed, output in $out:" >&2
		tail -20 "$out" >&2
		exit 1
	fi
	if ! p=$(parse "$out"); then
		echo "no execute lines" >&2
		echo "vs-dbench.sh: fewer than two execute lines in $out" >&2
		exit 1
	fi
	read -r fs fl ls ll ts mbs any <<<"$p"
	read -r real us ss <"$tf"
	res=$(awk -v fs="$fs" -v fl="$fl" -v ls="$ls" \
		-v ll="$ll" -v ts="$ts" -v mbs="$mbs" -v any="$any" -v n="$n" \
		-v secs="$SECS" -v real="$real" -v us="$us" -v ss="$ss" \
		-v pre="$prog,$n,$r" -v csv="$csv" 'BEGIN {
		lps = (ll - fl) * n / (ls - fs)
		tot = any * n
		upm = us / (tot / 1e6); spm = ss / (tot / 1e6)
		printf "%s,%d,%d,%.0f,%d,%.0f,%s,%d,%s,%s,%s,%.4f,%.4f\n",
		       pre, ls - fs, (ll - fl) * n, lps, ts, ts / secs, mbs,
		       tot, real, us, ss, upm, spm >> csv
		printf "%.0f,%.4f,%.4f\n", lps, upm, spm
	}')
	IFS=, read -r LPS UPM SPM <<<"$res"
	printf '%8.0f lines/s  user %.3f sys %.3f s/Mline\n' "$LPS" "$UPM" "$SPM" >&2
}

for n in $CLIENTS; do
	say ""
	say "-- $n client(s): running ($ROUNDS rounds, ~$((ROUNDS * (2 * SECS + 9))) s)"
	d_lps=() d_upm=() d_spm=() g_lps=() g_upm=() g_spm=()
	for r in $(seq "$ROUNDS"); do
		one_run dbench "$n" "$r"
		d_lps+=("$LPS") d_upm+=("$UPM") d_spm+=("$SPM")
		one_run ng "$n" "$r"
		g_lps+=("$LPS") g_upm+=("$UPM") g_spm+=("$SPM")
	done
	dl=$(median "${d_lps[@]}") gl=$(median "${g_lps[@]}")
	du=$(median "${d_upm[@]}") gu=$(median "${g_upm[@]}")
	ds=$(median "${d_spm[@]}") gs=$(median "${g_spm[@]}")
	# cross-check: per-op table Count sums / SECS, medians
	mapfile -t d_tab < <(awk -F, -v n="$n" '$1 == "dbench" && $2 == n { print $8 }' "$csv")
	mapfile -t g_tab < <(awk -F, -v n="$n" '$1 == "ng" && $2 == n { print $8 }' "$csv")
	dt=$(median "${d_tab[@]}") gt=$(median "${g_tab[@]}")
	goal=
	if [ "$PATHS" = full ]; then
		if awk -v r="$(ratio "$gl" "$dl")" 'BEGIN { exit !(r >= 1.4) }'; then
			goal="  goal >= 1.40: MET"
		else
			goal="  goal >= 1.40: NOT MET"
		fi
	fi
	say ""
	say "== $n client(s), medians of $ROUNDS rounds, execute phase, -t $SECS, dbench-ng --paths $PATHS"
	say "$(printf '   %-28s %12s %12s %10s' '' 'dbench 4.0' 'dbench-ng' 'ng/dbench')"
	say "$(printf '   %-28s %12.0f %12.0f %10s%s' 'lines/s' "$dl" "$gl" "$(ratio "$gl" "$dl")" "$goal")"
	say "$(printf '   %-28s %12.3f %12.3f %10s' 'user CPU s per M lines' "$du" "$gu" "$(ratio "$gu" "$du")")"
	say "$(printf '   %-28s %12.3f %12.3f %10s' 'sys CPU s per M lines' "$ds" "$gs" "$(ratio "$gs" "$ds")")"
	say "$(printf '   %-28s %12.0f %12.0f %10s' '(check: table Count / SECS)' "$dt" "$gt" "$(ratio "$gt" "$dt")")"
	say "   rounds lines/s     dbench 4.0: ${d_lps[*]}"
	say "                      dbench-ng:  ${g_lps[*]}"
	say "   rounds user s/Ml   dbench 4.0: ${d_upm[*]}"
	say "                      dbench-ng:  ${g_upm[*]}"
	say "   rounds sys s/Ml    dbench 4.0: ${d_spm[*]}"
	say "                      dbench-ng:  ${g_spm[*]}"
done

echo "loadavg at end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$RESULTS_DIR/env.txt"
say ""
say "load average at end: $(cut -d' ' -f1-3 /proc/loadavg), other dbench/dbench-ng processes: $(others)"

# ------------------------------------------------- null-backend overhead

if [ "$SKIP_NULL" != 1 ]; then
	say ""
	run_timed "$RESULTS_DIR/null-overhead.log" "$RESULTS_DIR/null-overhead.time" \
		env RESULTS_DIR="$RESULTS_DIR" DBENCH_NG="$DBENCH_NG" \
		LOADFILE="$LOADFILE" "$here/null-overhead.sh" || {
		echo "vs-dbench.sh: null-overhead.sh failed:" >&2
		cat "$RESULTS_DIR/null-overhead.log" >&2
		exit 1
	}
	tee -a "$summary" <"$RESULTS_DIR/null-overhead.log"
fi
say ""
say "summary: $summary"
