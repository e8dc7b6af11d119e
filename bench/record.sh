#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# record.sh: what recording costs the recorded program (docs/record.md).
#
# Runs tests/cli/recwork (N files created, written, fsync'ed, read, listed,
# renamed, removed: about 20 file-system calls per file) on a private
# tmpfs in three modes, alternately, ROUNDS times each:
#   plain   the program alone;
#   bpf     under "dbench-ng record -- recwork" (BPF on the system-call
#           tracepoints: every call of the tree sends a record);
#   strace  under "strace -f -tt -T -y -o LOG" (ptrace: two stops per
#           call), the log then converted by "dbench-ng record
#           --from-strace" (timed apart);
# and prints the median wall time of the program in each mode, the
# ratios bpf/plain and strace/plain, every round (the noise), the
# operations of each loadfile (the same in both), and the time of the
# conversion.  The recorded time of bpf includes loading the program
# (tens of ms, docs/record.md): N large enough makes it small.
#
# Run: sudo bench/record.sh   (root: tmpfs, BPF).  Figures from a busy
# machine are not figures: run it on a quiet one.
#
# Environment: N [20000] ROUNDS [5] DBENCH_NG [./dbench-ng]
set -eu
cd "$(dirname "$0")/.."
N=${N:-20000}
ROUNDS=${ROUNDS:-5}
DBNG=${DBENCH_NG:-./dbench-ng}
PROBE=build/tests/cli/recwork
[ "$(id -u)" = 0 ] || { echo "record.sh: needs root (tmpfs, BPF)" >&2; exit 1; }
[ -x "$PROBE" ] || make -s "$PROBE"
command -v strace >/dev/null || { echo "record.sh: apt-get install strace" >&2; exit 1; }
T=$(mktemp -d /tmp/dbng-bench-record.XXXXXX)
mount -t tmpfs -o size=1g tmpfs "$T"
trap 'umount -l "$T"; rmdir "$T"' EXIT
mkdir "$T/w"

now() { date +%s.%N; }
# one round of MODE: its wall seconds on stdout
round() {
	local t0 t1
	rm -rf "$T/w/sub"
	t0=$(now)
	case $1 in
	plain) "$PROBE" "$T/w" "$N" ;;
	bpf) "$DBNG" record --root "$T/w" -o "$T/bpf.load" -- \
		"$PROBE" "$T/w" "$N" 2>/dev/null ;;
	strace) strace -f -tt -T -y -o "$T/log" "$PROBE" "$T/w" "$N" ;;
	esac
	t1=$(now)
	echo "$t1 - $t0" | bc
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

modes=(plain bpf strace)
for m in "${modes[@]}"; do : >"$T/$m.times"; done
for r in $(seq "$ROUNDS"); do
	# turn the order each round
	for i in 0 1 2; do
		m=${modes[$(( (i + r) % 3 ))]}
		s=$(round "$m") || { echo "record.sh: $m failed" >&2; exit 1; }
		echo "$s" >>"$T/$m.times"
		printf 'round %d %-6s %8.3f s\n' "$r" "$m" "$s"
	done
done
t0=$(now)
"$DBNG" record --from-strace "$T/log" --root "$T/w" -o "$T/strace.load" 2>/dev/null
conv=$(echo "$(now) - $t0" | bc)
p=$(median <"$T/plain.times")
b=$(median <"$T/bpf.times")
s=$(median <"$T/strace.times")
echo
printf 'recwork %d files (medians of %d): plain %.3f s, bpf %.3f s, strace %.3f s\n' \
	"$N" "$ROUNDS" "$p" "$b" "$s"
printf 'ratios: bpf/plain %.2f  strace/plain %.2f\n' \
	"$(echo "$b / $p" | bc -l)" "$(echo "$s / $p" | bc -l)"
printf 'conversion of the strace log (%s lines): %.3f s\n' \
	"$(wc -l <"$T/log")" "$conv"
ops() { grep -v '^#' "$1" | awk '{ n[$1 ~ /^[0-9]/ ? $2 : $1]++ } END { for (k in n) print k, n[k] }' | sort; }
if [ "$(ops "$T/bpf.load")" = "$(ops "$T/strace.load")" ]; then
	echo "the two loadfiles have the same operations: $(grep -vc '^#' "$T/bpf.load") lines"
else
	echo "the two loadfiles differ:"; diff <(ops "$T/bpf.load") <(ops "$T/strace.load") || true
fi
