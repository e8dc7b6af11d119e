# SPDX-License-Identifier: GPL-3.0-or-later
# --runs keeps the parent's memory flat (issue 25): 30 runs, each with
# its --json file (and its checkpoints), the stall watchdog and, as root,
# BPF tracing; the resident memory of the parent after each run (DBNG_TEST_RSS: VmRSS from
# /proc/self/status, on stderr) must not grow from run 3 to run 30.  Before the fix every run's whole result was kept
# for the spread summary (its histograms: 330 KB a run) and the heap
# fragmented around them: 1.5 MB a run with BPF tracing, 8.6 MB after
# run 3 and 48.4 MB after run 30 here.
. "$(dirname "$0")/../lib.sh"

D=$TMP/d
mkdir -p "$D"
LF=$DATA/loadfiles/smoke.load
N=30

# AddressSanitizer's allocator keeps freed blocks in its quarantine: what
# it grows is not the program's heap
grep -qa __asan_init "$DBNG" &&
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0"
DBNG_TEST_RSS=1 "$DBNG" --runs $N -t 1 --warmup 0 -c "$LF" -D "$D" \
	--json "$TMP/m.json" 2 >"$TMP/out" 2>"$TMP/err" ||
	fail "exit $?: $(tail -3 "$TMP/err")"
grep -q "^Run-to-run spread over $N runs" "$TMP/out" ||
	fail "no spread summary: $(tail -3 "$TMP/out")"
tail -1 "$TMP/out" | grep -q '^Throughput ' || fail "no Throughput line last"
[ -e "$TMP/m-$N.json" ] || fail "no JSON file of run $N"
rss() { sed -n "s/^dbench-ng: after run $1: VmRSS:[[:space:]]*\([0-9]*\) kB$/\1/p" "$TMP/err"; }
r3=$(rss 3)
r30=$(rss $N)
[ -n "$r3" ] && [ -n "$r30" ] || fail "no VmRSS lines: $(head -3 "$TMP/err")"
grow=$((r30 - r3))
echo "VmRSS after run 3: $r3 kB, after run $N: $r30 kB ($grow kB more)"
# a run's result kept (its histograms alone are 330 KB) adds 9 MB over
# these 27 runs (40 MB with BPF tracing, which fragmented the heap around
# them); flat, the heap settles within a few hundred KB (20 to 800 KB
# seen, 808 KB in a sanitized build).  3 MB tells the two apart.  (Its
# jumps used to be 4 MB: the arrays of the series, allocated whole,
# were zeroed by calloc when they came from the heap, not when they came
# fresh from mmap; they grow as the series does now.)
[ $grow -le 3072 ] || fail "the parent grew by $grow kB from run 3 to run $N"
echo "ok: the memory of --runs $N is flat"
