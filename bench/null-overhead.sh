#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# null-overhead.sh: the harness cost of dbench-ng, measured with the null
# backend (-B null), which does no I/O at all.  What remains is the cost of
# dbench-ng itself per loadfile line: dispatch of the compiled op, the two
# clock reads, the latency histogram, the byte and line counters.
#
# How to read the result: "ns/op" is wall-clock nanoseconds per loadfile
# line for ONE client, taken from the execute phase only:
#
#     ns/op = 1e9 * (execute seconds between the first and the last
#                    execute progress line)
#                 / (lines column at the last - lines column at the first)
#
# (the lines column is already per client).  Two of those nanoseconds are
# clock reads (clock_gettime(CLOCK_MONOTONIC), vDSO): clock-cost.c, built
# here with $CC (default cc), measures one read on this machine, and the
# goal at 1 client is ns/op <= 2 clock reads + 20 ns (issue 11).
# "CPU ns/op" is (user + sys CPU seconds of the whole process
# tree) / (lines column of the last progress line * clients), warmup and
# loadfile parsing included, so it is a little higher.  "table ns/op" is a
# cross-check from the per-op table: SECS * clients / (sum of the Count
# column), which is off by up to a second's worth of ops if the execute
# phase does not last exactly SECS.  Each round is printed so noise is
# visible; the median is the figure to quote.
#
# No root needed: the null backend touches no files.  Environment:
#   NULL_CLIENTS="1"  client counts to measure
#   NULL_SECS=8       -t for each run (keep it under ~100: the lines column
#                     is a 32-bit int in dbench 4.0's output format and the
#                     null backend runs ~15 M lines/s)
#   NULL_ROUNDS=3     runs per client count
#   RESULTS_DIR=...   where raw outputs go (default bench/results/<date>-null)
#   DBENCH_NG=...     binary (default ./dbench-ng at the top of the tree)
#   LOADFILE=...      (default /usr/share/dbench/client.txt, else the
#                     built-in workload)
#
# Run: bench/null-overhead.sh   (about NULL_ROUNDS * (NULL_SECS + 4) s)

set -eu
. "$(dirname "$0")/lib.sh"

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)

NULL_CLIENTS=${NULL_CLIENTS:-1}
NULL_SECS=${NULL_SECS:-8}
NULL_ROUNDS=${NULL_ROUNDS:-3}
DBENCH_NG=${DBENCH_NG:-$top/dbench-ng}
RESULTS_DIR=${RESULTS_DIR:-$here/results/$(date +%Y%m%d-%H%M%S)-null}
if [ -z "${LOADFILE:-}" ]; then
	if [ -r /usr/share/dbench/client.txt ]; then
		LOADFILE=/usr/share/dbench/client.txt
	else
		LOADFILE=builtin:netbench
	fi
fi
WARMUP=2

if [ ! -x "$DBENCH_NG" ]; then
	echo "null-overhead.sh: $DBENCH_NG not found; build it with 'make'" >&2
	exit 2
fi

# Each run is a background job in its own process group (set -m), so that
# an interrupt can stop the whole tree and 'wait' returns at once.
set -m
job=
work=

cleanup() {
	set +e
	stop_job
	[ -n "$work" ] && rm -rf "$work"
	work=
}
trap cleanup EXIT
trap 'echo "null-overhead.sh: interrupted" >&2; exit 130' INT
trap 'exit 143' TERM


mkdir -p "$RESULTS_DIR"
work=$(mktemp -d /tmp/dbng-null.XXXXXX)
csv=$RESULTS_DIR/null.csv
echo "clients,round,exec_s,exec_lines_per_client,ns_per_op,table_ops,table_ns_per_op,total_lines,user_s,sys_s,cpu_ns_per_op" >"$csv"

if ! ${CC:-cc} -O2 -I"$top/src/base" -o "$work/clock-cost" "$here/clock-cost.c"; then
	echo "null-overhead.sh: cannot build clock-cost.c with ${CC:-cc}" >&2
	exit 2
fi
clock=$("$work/clock-cost")
goal_ns=$(awk -v c="$clock" 'BEGIN { printf "%.1f", 2 * c + 20 }')
{
echo "== dbench-ng harness cost, -B null (no I/O), loadfile $LOADFILE"
echo "   one clock read (clock_ns, CLOCK_MONOTONIC): $clock ns"
echo "   $NULL_ROUNDS rounds x -t $NULL_SECS --warmup $WARMUP; goal at 1 client: <= 2 reads + 20 = $goal_ns ns/op"
} | tee "$RESULTS_DIR/null-summary.txt"

for n in $NULL_CLIENTS; do
	nsop=() tnsop=() cnsop=()
	for r in $(seq "$NULL_ROUNDS"); do
		out=$RESULTS_DIR/null-c$n-r$r.out
		tf=$RESULTS_DIR/null-c$n-r$r.time
		if ! run_timed "$out" "$tf" "$DBENCH_NG" -B null -c "$LOADFILE" \
		    -t "$NULL_SECS" --warmup "$WARMUP" -D "$work" "$n"; then
			echo "null-overhead.sh: dbench-ng failed, see $out" >&2
			exit 1
		fi
		if ! p=$(parse "$out"); then
			echo "null-overhead.sh: no execute lines in $out" >&2
			exit 1
		fi
		read -r fs fl ls ll tsum _ _ <<<"$p"
		read -r _ us ss <"$tf"
		# lines column of the last progress line of any kind
		last=$(awk '$4 == "MB/sec" { l = $2 } END { print l + 0 }' "$out")
		row=$(awk -v fs="$fs" -v fl="$fl" -v ls="$ls" -v ll="$ll" \
			-v ts="$tsum" -v n="$n" -v secs="$NULL_SECS" \
			-v last="$last" -v us="$us" -v ss="$ss" 'BEGIN {
			ns = 1e9 * (ls - fs) / (ll - fl)
			tns = ts > 0 ? 1e9 * secs * n / ts : 0
			tot = last * n
			cns = tot > 0 ? 1e9 * (us + ss) / tot : 0
			printf "%d,%.0f,%.1f,%d,%.1f,%d,%.3f,%.3f,%.1f",
			       ls - fs, ll - fl, ns, ts, tns, tot, us, ss, cns
		}')
		echo "$n,$r,$row" >>"$csv"
		IFS=, read -r _ _ x _ y _ _ _ z <<<"$row"
		nsop+=("$x") tnsop+=("$y") cnsop+=("$z")
	done
	m=$(median "${nsop[@]}")
	goal=
	beyond=$(awk -v m="$m" -v c="$clock" 'BEGIN { printf "%.1f", m - 2 * c }')
	if [ "$n" = 1 ]; then
		if awk -v m="$m" -v g="$goal_ns" 'BEGIN { exit !(m <= g) }'; then
			goal="   goal <= $goal_ns: MET"
		else
			goal="   goal <= $goal_ns: NOT MET"
		fi
	fi
	{
	printf '   %2d client(s): %6.1f ns/op (median), %s ns beyond the two clock reads%s\n' "$n" "$m" "$beyond" "$goal"
	printf '      rounds ns/op:       %s\n' "${nsop[*]}"
	printf '      rounds table ns/op: %s\n' "${tnsop[*]}"
	printf '      rounds CPU ns/op:   %s  (user+sys, warmup and parsing included)\n' "${cnsop[*]}"
	} | tee -a "$RESULTS_DIR/null-summary.txt"
done
echo "   raw outputs: $RESULTS_DIR" | tee -a "$RESULTS_DIR/null-summary.txt"
