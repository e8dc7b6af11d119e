#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# checkpoint.sh: what the checkpoints of --json cost (docs/design.md §9,
# "A result survives its writer").
#
# 1. One checkpoint of a run of S seconds, for S in SERIES: the CPU time
#    of the checkpoint thread's work (the document, then the file written
#    and renamed, not flushed) by build/tests/cli/ckptprobe, the median of
#    REPEAT, on a series with every op in every point (the built-in
#    workload's), its bytes and points, and what the interval rule makes
#    of it: one every max(5 s, 100 x its CPU time), so at most 1 % of one
#    CPU.  The series stops growing at 4096 points: so does the cost.
# 2. Whether they disturb the run: dbench-ng -t SECS, CLIENTS clients, the
#    built-in workload on a private tmpfs, with --json (a checkpoint every
#    5 s) and without, alternately, ROUNDS times each; the median
#    Throughput of each and their ratio (goal: 1.00 within the noise).
#
# Run: sudo bench/checkpoint.sh   (root for the tmpfs; else /dev/shm)
# Environment: SERIES [60 600 3600 4096 86400] REPEAT [5] SECS [30]
#              ROUNDS [3] CLIENTS [2] DBENCH_NG [./dbench-ng]
#              SKIP_RUNS [0]: 1 does part 1 only
# Timings on a shared machine are noise: run it on a quiet one.
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh

SERIES=${SERIES:-60 600 3600 4096 86400}
REPEAT=${REPEAT:-5}
SECS=${SECS:-30}
ROUNDS=${ROUNDS:-3}
CLIENTS=${CLIENTS:-2}
DBENCH_NG=${DBENCH_NG:-./dbench-ng}
job=
work=$(mktemp -d "${TMPDIR:-/tmp}/dbng-ckpt.XXXXXX")
mnt=
cleanup() {
	stop_job
	[ -n "$mnt" ] && umount "$mnt" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

make -s build/tests/cli/ckptprobe >/dev/null
echo "1. one checkpoint (CPU ms, the median of $REPEAT), and the interval rule"
printf '%10s %7s %12s %10s %11s %9s\n' "series s" points bytes "cpu ms" \
	"interval s" "CPU %"
# median: the middle of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for s in $SERIES; do
	for i in $(seq "$REPEAT"); do
		build/tests/cli/ckptprobe "$s" 1 "$work/p.json"
	done >"$work/probe"
	med=$(awk '{ print $10 }' "$work/probe" | median)
	awk -v s="$s" -v med="$med" 'END {
		iv = med * 100 / 1000; if (iv < 5) iv = 5
		printf "%10d %7d %12d %10.1f %11.1f %9.2f\n", s, $4, $8, med, iv,
			100 * med / 1000 / iv
	}' "$work/probe"
done
[ "${SKIP_RUNS:-0}" = 1 ] && exit 0

echo
echo "2. $CLIENTS clients, -t $SECS, built-in workload: with --json and without"
d=$work/d
mkdir -p "$d"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=2G dbng-ckpt "$d" 2>/dev/null; then
	mnt=$d
else
	d=$(mktemp -d /dev/shm/dbng-ckpt.XXXXXX)
	echo "(no tmpfs of its own: in $d)"
fi
set -m
tput_of() { sed -n 's/^Throughput \([0-9.]*\) MB\/sec.*/\1/p' "$1"; }
for r in $(seq "$ROUNDS"); do
	for mode in json plain; do
		args=()
		[ $mode = json ] && args=(--json "$work/r.json")
		start_timed "$work/$mode.$r" "$work/time" "$DBENCH_NG" -c builtin:netbench -t "$SECS" \
			--warmup 2 -D "$d" "${args[@]}" "$CLIENTS"
		wait "$job" || { cat "$work/$mode.$r"; exit 1; }
		job=
		echo "$mode $(tput_of "$work/$mode.$r")" >>"$work/tputs"
	done
done
set +m
[ -n "$mnt" ] || rm -rf "$d"
j=$(awk '$1 == "json" { print $2 }' "$work/tputs" | median)
p=$(awk '$1 == "plain" { print $2 }' "$work/tputs" | median)
awk -v j="$j" -v p="$p" -v n="$ROUNDS" 'BEGIN {
	printf "  --json  %10.2f MB/s (median of %d)\n", j, n
	printf "  without %10.2f MB/s\n", p
	printf "  ratio   %10.3f (goal 1.00 within the noise)\n", j / p
}'
