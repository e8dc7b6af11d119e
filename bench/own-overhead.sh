#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# own-overhead.sh: what the accounting of foreign CPU wait (own latencies,
# src/engine/foreign*.c, docs/regressions.md "Own latency") costs.
#
# Runs, alternately, ROUNDS times each, on a private tmpfs with Debian's
# client.txt (the built-in workload without it), at 1 and 4 clients:
#   dbench  dbench 4.0 (/usr/bin/dbench), the reference;
#   off     dbench-ng --no-bpf: no BPF program (own latencies off; the
#           clients' run-queue wait comes from /proc/PID/schedstat);
#   on      dbench-ng with the foreign-wait program (every context switch
#           of the machine runs it; each op does two more loads).
# All dbench-ng runs have --stall-threshold 0, so the stall watchdog's
# own BPF program (bench/watchdog.sh measures it) is off in both modes.
# Prints, per client count, the median execute-phase lines/s of each
# mode, every round (so the noise is visible), and the ratios on/off
# (the goal of issue 24: at least 0.97), off/dbench and on/dbench.
# The order of the three modes turns each round.
#
# Run: sudo bench/own-overhead.sh   (root: tmpfs and BPF)
# Environment: SECS [10] ROUNDS [5] CLIENTS ["1 4"] DBENCH_NG [./dbench-ng]
#              DBENCH [/usr/bin/dbench]
#              LOADFILE [/usr/share/dbench/client.txt]
# Figures from a shared machine are not figures: run it on a quiet one.
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
SECS=${SECS:-10}
ROUNDS=${ROUNDS:-5}
CLIENTS=${CLIENTS:-1 4}
DBENCH_NG=${DBENCH_NG:-./dbench-ng}
DBENCH=${DBENCH:-/usr/bin/dbench}
LOADFILE=${LOADFILE:-/usr/share/dbench/client.txt}
[ "$(id -u)" = 0 ] || { echo "own-overhead.sh: needs root (tmpfs, BPF)" >&2; exit 2; }
[ -x "$DBENCH_NG" ] || { echo "own-overhead.sh: build first (make)" >&2; exit 2; }
[ -x "$DBENCH" ] || { echo "own-overhead.sh: no $DBENCH (apt-get install dbench)" >&2; exit 2; }
[ -r "$LOADFILE" ] || { echo "own-overhead.sh: no $LOADFILE (apt-get install dbench)" >&2; exit 2; }

bench_tmpfs own 2G

# rate OUT: execute-phase lines/s from the progress lines
rate() {
	local p fs fl ls ll n
	p=$(parse "$1") || { echo 0; return; }
	read -r fs fl ls ll _ _ _ <<<"$p"
	n=$(tail -1 "$1" | awk '{for (i = 1; i <= NF; i++) if ($i == "clients") print $(i - 1)}')
	awk -v a="$fs" -v b="$fl" -v c="$ls" -v d="$ll" -v n="$n" \
		'BEGIN { printf "%.0f", (d - b) * n / (c - a) }'
}

# method JSON: the result's foreign.method (bpf for "on", else a failure)
method() {
	python3 -c 'import json, sys
f = json.load(open(sys.argv[1])).get("foreign") or {}
print(f.get("method"), f.get("note") or "")' "$1"
}

row() {
	local n=$1 r k mode out m
	local ref=() off=() on=() modes=(dbench off on)
	for r in $(seq "$ROUNDS"); do
		for k in 0 1 2; do
			mode=${modes[(r - 1 + k) % 3]}
			out=$work/$n-$mode-$r.out
			case $mode in
			dbench) set -- "$DBENCH" -c "$LOADFILE" -t "$SECS" -D "$mnt" "$n" ;;
			off) set -- "$DBENCH_NG" -c "$LOADFILE" -t "$SECS" --stall-threshold 0 \
				--no-bpf -D "$mnt" "$n" ;;
			on) set -- "$DBENCH_NG" -c "$LOADFILE" -t "$SECS" --stall-threshold 0 \
				--json "$out.json" -D "$mnt" "$n" ;;
			esac
			run_timed "$out" "$out.time" "$@" ||
				{ echo "run failed: $out: $(tail -3 "$out")" >&2; exit 1; }
			case $mode in
			dbench) ref+=("$(rate "$out")") ;;
			off) off+=("$(rate "$out")") ;;
			on)
				m=$(method "$out.json")
				[ "${m%% *}" = bpf ] ||
					{ echo "no BPF accounting in $out: $m" >&2; exit 1; }
				on+=("$(rate "$out")")
				;;
			esac
		done
	done
	m_ref=$(median "${ref[@]}")
	m_off=$(median "${off[@]}")
	m_on=$(median "${on[@]}")
	printf '%-12s %10.0f %10.0f %10.0f %8s %8s %8s\n' "$n client(s)" \
		"$m_ref" "$m_off" "$m_on" "$(ratio "$m_on" "$m_off")" \
		"$(ratio "$m_off" "$m_ref")" "$(ratio "$m_on" "$m_ref")"
	printf '%-12s dbench: %s   off: %s   on: %s\n' "" "${ref[*]}" \
		"${off[*]}" "${on[*]}"
}

echo "own latencies: lines/s, execute phase, tmpfs, $(basename "$LOADFILE")"
echo "$(uname -r), $(nproc) CPUs, -t $SECS, $ROUNDS rounds alternating," \
	"load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-12s %10s %10s %10s %8s %8s %8s\n' "" dbench off on on/off \
	off/dbench on/dbench
for n in $CLIENTS; do
	row "$n"
done
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
