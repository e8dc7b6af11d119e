# SPDX-License-Identifier: GPL-3.0-or-later
# Run behaviours: phases and progress lines, --run-once,
# --show-execute-time (mmtests' invocation), --machine-readable, -c lists,
# gzip loadfiles, --clients-per-process, --skip-cleanup, -R and timestamp
# pacing, --fake-io, the null backend and the built-in workload.
. "$(dirname "$0")/../lib.sh"

D=$TMP/d
mkdir -p "$D"
LF=$DATA/loadfiles/smoke.load

note "phases: -t 3 --warmup 2 -> warmup line, execute 1..2, cleanup 3"
expect_rc 0 "$DBNG" -t 3 --warmup 2 -c "$LF" -D "$D" --json "$TMP/phases.json" 1 >"$TMP/out"
grep -Eq '^ +1 +[0-9]+ +[0-9.]+ MB/sec  warmup   1 sec  latency' "$TMP/out" ||
	fail "no warmup line: $(cat "$TMP/out")"
[ "$(grep -c ' execute ' "$TMP/out")" = 2 ] || fail "expected 2 execute lines"
# cleanup lines, on any machine: a tick that passes the time limit (at
# 3 s or later) while the client still cleans up counts it, later ticks
# count down one line a second, and one final line says 0; the client
# stops at the deadline by itself, so it may be gone before the first
# such tick, and the final line is then the only one (the exact lines on
# a fake clock are in tests/unit/test_ticks.c)
awk '/ cleanup +[0-9]+ sec$/ {n++; c[n] = $1; s[n] = $3}
     END {ok = n >= 1 && (c[1] == 1 || n == 1) && s[1] >= 3 && c[n] == 0
          for (i = 2; i < n; i++)	# the ticks: one a second, > 0
              ok = ok && c[i] > 0 && c[i] <= c[i-1] && s[i] > s[i-1]
          ok = ok && s[n] >= s[n-1]	# the final line
          exit !ok}' "$TMP/out" ||
	fail "cleanup lines: $(grep cleanup "$TMP/out")"
tail -1 "$TMP/out" | grep -q '^Throughput .* 1 clients  1 procs  max_latency=' ||
	fail "last line: $(tail -1 "$TMP/out")"
# the warmup is not counted.  A pass of the smoke loadfile runs Deltree
# twice (first and last) and Rename once between, so the measured stretch
# of passes holds two Deltrees between two Renames, and at most two more
# at either end: 2R - 2 <= D <= 2R + 2 (counting the warmup's too would
# still keep that; the next check is the one that tells)
d=$(op_count "$TMP/out" Deltree) r=$(op_count "$TMP/out" Rename)
[ -n "$d" ] && [ -n "$r" ] && [ "$r" -gt 0 ] &&
	[ "$d" -ge $((2 * r - 2)) ] && [ "$d" -le $((2 * r + 2)) ] ||
	fail "Deltree $d and Rename $r: not two Deltrees a pass"
# the ops of the table are those of the measured phase: no more than the
# loadfile lines of its points in the series (every line of the run is in
# a point; the op of each client in flight at the stop may end after it),
# and fewer than the lines of the whole run, which the warmup's add to
python3 - "$TMP/phases.json" "$TMP/out" <<'PY' || fail "ops against lines"
import json, re, sys
r = json.load(open(sys.argv[1]))
table = 0
for line in open(sys.argv[2]):
    m = re.match(r" (\w+) +(\d+) +[0-9.]+ +[0-9.]+$", line)
    if m:
        table += int(m.group(2))
pts = r["time_series"]["points"]
warm = sum(p["lines"] for p in pts if p["warmup"])
measured = sum(p["lines"] for p in pts if not p["warmup"])
total = sum(c["lines"] for c in r["clients"])
clients = r["summary"]["clients"]
print("table %d ops, measured %d lines, warmup %d, whole run %d"
      % (table, measured, warm, total))
if table != r["summary"]["ops"]:
    sys.exit("the table's %d ops are not the summary's %d" % (table, r["summary"]["ops"]))
if not (warm > 0 and 0 < table <= measured + clients and table < total):
    sys.exit("the warmup's lines are counted as ops")
PY
grep -q '^ Latency ms        Count      Mean       p50       p90       p99     p99.9       Max$' \
	"$TMP/out" || fail "no percentile table"
! grep -q "Operation\|execute" <(sed -n '/^ Latency ms/,/^$/p' "$TMP/out") ||
	fail "the percentile table contains a word parsers look for"

note "--run-once with mmtests' invocation and --show-execute-time"
start=$(date +%s)
expect_rc 0 "$DBNG" --run-once --skip-cleanup --warmup 0 --show-execute-time \
	--loadfile "$LF" -D "$D" -t 60 3 >"$TMP/out"
# a --run-once that did not stop would run to its 60 s limit; a slow
# machine gets half of that for three passes of the smoke loadfile
[ $(($(date +%s) - start)) -lt 30 ] || fail "--run-once did not stop after one pass"
[ "$(grep -c ' completed in [0-9]* ms at time [0-9]* ms$' "$TMP/out")" = 3 ] ||
	fail "expected 3 'completed in' lines: $(cat "$TMP/out")"
grep -Eq '^   [012] completed in' "$TMP/out" || fail "completed line format"
[ "$(op_count "$TMP/out" Rename)" = 3 ] || fail "Rename count after one pass each of 3 clients"
[ -d "$D/clients/client0" ] && [ -d "$D/clients/client2" ] ||
	fail "--skip-cleanup removed the client trees"
rm -rf "$D/clients"

note "--machine-readable"
expect_rc 0 "$DBNG" -t 2 --warmup 0 --machine-readable -c "$LF" -D "$D" 2 >"$TMP/out"
grep -Eq '^@R@2@[0-9]+@[0-9]+\.[0-9][0-9]@1@[0-9]+\.[0-9][0-9][0-9]@$' "$TMP/out" ||
	fail "no @R@ line: $(cat "$TMP/out")"
grep -Eq '^:WriteX:[0-9]+:[0-9]+\.[0-9][0-9][0-9]:[0-9]+\.[0-9][0-9][0-9]:$' "$TMP/out" ||
	fail "no :WriteX: row"
tail -1 "$TMP/out" | grep -Eq '^;[0-9.e+]+;2;2;[0-9]+\.[0-9][0-9][0-9];$' ||
	fail "last machine line: $(tail -1 "$TMP/out")"
tail -1 "$TMP/out" | grep -q '^;0;' && fail "machine-readable throughput is 0 (dbench's bug)"
! grep -q "Latency ms" "$TMP/out" || fail "percentiles in machine-readable mode"

note "-c list: client i runs file i mod n; gzip works"
printf 'QUERY_FS_INFORMATION 259 NT_STATUS_OK\n' >"$TMP/fs.load"
printf 'NTCreateX "\\clients\\client1" 0x1 0x2 1 NT_STATUS_OK\nClose 1 NT_STATUS_OK\n' >"$TMP/dir.load"
gzip -c "$TMP/dir.load" >"$TMP/dir.load.gz"
expect_rc 0 "$DBNG" -t 1 --warmup 0 --per-client-results \
	-c "$TMP/fs.load,$TMP/dir.load.gz" -D "$D" 4 >"$TMP/out"
awk '/^Client [0-9]+ did/ {c=$2} c != "" && $1 == "Qfsinfo" {q[c]=$2}
     c != "" && $1 == "NTCreateX" {n[c]=$2}
     END {exit !(q[0] > 0 && q[2] > 0 && n[1] > 0 && n[3] > 0 &&
                 n[0] == 0 && n[2] == 0 && q[1] == 0 && q[3] == 0)}' "$TMP/out" ||
	fail "-c list not distributed by client id: $(sed -n '/Per client/,$p' "$TMP/out")"

note "-c list with --clients-per-process: the file follows the process"
expect_rc 0 "$DBNG" -t 1 --warmup 0 --per-client-results --clients-per-process 2 \
	-c "$TMP/fs.load,$TMP/dir.load" -D "$D" 2 >"$TMP/out"
awk '/^Client [0-9]+ did/ {c=$2} c != "" && $1 == "Qfsinfo" {q[c]=$2}
     c != "" && $1 == "NTCreateX" {n[c]=$2}
     END {exit !(q[0] > 0 && q[1] > 0 && n[2] > 0 && n[3] > 0 &&
                 n[0] == 0 && n[1] == 0 && q[2] == 0 && q[3] == 0)}' "$TMP/out" ||
	fail "-c list not distributed by process: $(sed -n '/Per client/,$p' "$TMP/out")"

note "--run-once with --clients-per-process: a finished client adds no latency"
printf 'QUERY_FS_INFORMATION 259 NT_STATUS_OK\n' >"$TMP/short.load"
awk 'BEGIN {for (i = 0; i < 200000; i++) print "QUERY_FS_INFORMATION 259 NT_STATUS_OK"}' >"$TMP/long.load"
printf 'Sleep 1500000 NT_STATUS_OK\n' >>"$TMP/long.load"
expect_rc 0 "$DBNG" --run-once --warmup 0 -t 60 --clients-per-process 2 \
	-c "$TMP/short.load,$TMP/long.load" -D "$D" 2 >"$TMP/out"
ml=$(tail -1 "$TMP/out" | sed 's/.*max_latency=\([0-9.]*\) ms/\1/')
# Process 1's clients 2 and 3 end with a 1.5 s Sleep each, one after the
# other: 3 s in which one of them has finished.  Counted as still running,
# the finished client's age would be at least 2 s at the last tick before
# the end (ticks come every second, the 3 s leave one at 2 s or later);
# the honest figure is the Sleep's 1.5 s, plus the wake-up of a sleeper
# (1.9 s leaves 0.4 s of it)
awk -v m="$ml" 'BEGIN {exit !(m < 1900)}' || fail "max_latency $ml ms"
echo "ok: max_latency $ml ms"

note "--clients-per-process: 2 procs x 3 clients"
expect_rc 0 "$DBNG" -t 2 --warmup 0 --clients-per-process 3 -c "$LF" -D "$D" 2 >"$TMP/out"
tail -1 "$TMP/out" | grep -q '  6 clients  2 procs  ' || fail "$(tail -1 "$TMP/out")"
grep -q '^2 of 2 processes prepared' "$TMP/out" || fail "launch lines count processes"

note "-R 2: about 2 MB/s per client"
# one pass of 20 writes of 512 KiB (10 MB: longer than the run) on the null
# backend: the pacing is the client loop's whatever the backend, and with
# no I/O the client loses only its wake-ups, 4 a second, never caught up.
# The Throughput is the 2 s line's: the first write is free, each next one
# waits 0.262 s, so 8 writes by then (2.10 MB/s) and never more: 2.4 is
# past any honest value; unthrottled it gives thousands of MB/s.  Below
# 1.5 (a rate halved gives about 1.25 MB/s) the run must say why: the
# machine woke the client late, so its result records late starts (more
# than 10 ms after a call's intended start); pacing that is slow by
# itself plans its starts late and records none.
{
	echo 'NTCreateX "\clients\client1\f" 0x40 0x5 1 NT_STATUS_OK'
	for i in $(seq 0 19); do
		echo "WriteX 1 $((i * 524288)) 524288 524288 NT_STATUS_OK"
	done
	echo 'Close 1 NT_STATUS_OK'
} >"$TMP/rate.load"
expect_rc 0 "$DBNG" -B null -t 3 --warmup 0 -R 2 -c "$TMP/rate.load" -D "$D" \
	--json "$TMP/rate.json" 1 >"$TMP/out"
mb=$(tail -1 "$TMP/out" | awk '{print $2}')
awk -v m="$mb" 'BEGIN {exit !(m < 2.4)}' || fail "-R 2 gave $mb MB/sec: faster than paced"
if awk -v m="$mb" 'BEGIN {exit !(m > 1.5)}'; then
	echo "ok: -R 2 gave $mb MB/sec"
else
	late=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["response"]["late_starts"])' "$TMP/rate.json") ||
		fail "-R 2: no response.late_starts in its JSON"
	[ "$late" -gt 0 ] || fail "-R 2 gave $mb MB/sec, with no late start to explain it"
	echo "ok: -R 2 gave $mb MB/sec on a busy machine: $late late starts recorded"
fi

note "timestamps: a pass of 0.0 .. 0.5 s takes 0.5 s"
cat >"$TMP/ts.load" <<'X'
0.000 QUERY_FS_INFORMATION 259 NT_STATUS_OK
0.250 QUERY_FS_INFORMATION 259 NT_STATUS_OK
0.500 QUERY_FS_INFORMATION 259 NT_STATUS_OK
X
expect_rc 0 "$DBNG" -t 3 --warmup 0 -c "$TMP/ts.load" --json "$TMP/ts.json" -D "$D" 1 >"$TMP/out"
n=$(op_count "$TMP/out" Qfsinfo)
# A pass cannot be shorter than 0.5 s: in the run's own measured time T at
# most 3 ops per half second, one more begun at T and one that ends after
# the stop, 3 * (floor(T / 0.5) + 1) + 1 (22 for 3 s); a run without pacing
# does thousands.  At least 12: fewer would need every pass to end 0.25 s
# late (a sleeper's wake-up that late), and pacing twice too slow gives 9
# or 10.  (That a pass lasts exactly 0.5 s is the client's pacing logic:
# a unit test's job.)
hi=$(python3 -c 'import json, sys
print(3 * (int(json.load(open(sys.argv[1]))["summary"]["measured_s"] / 0.5) + 1) + 1)' "$TMP/ts.json")
[ "$n" -ge 12 ] && [ "$n" -le "$hi" ] || fail "timestamp pacing: $n ops, expected 12 to $hi"
echo "ok: timestamp pacing: $n ops (12 to $hi)"

note "--fake-io counts ret_size, does no data I/O"
expect_rc 0 "$DBNG" -t 2 --warmup 0 --fake-io -c "$LF" -D "$D" 1 >"$TMP/out"
[ "$(op_count "$TMP/out" WriteX)" -gt 0 ] || fail "--fake-io table"

note "null backend and the built-in workload"
expect_rc 0 "$DBNG" -B null -c builtin:netbench -t 2 --warmup 1 -D "$D" 2 >"$TMP/out"
grep -q "with load 'builtin:netbench'" "$TMP/out" || fail "built-in workload not used"
for op in NTCreateX ReadX WriteX Find Qpathinfo Flush; do
	[ "$(op_count "$TMP/out" $op)" -gt 0 ] || fail "null run has no $op"
done
[ -z "$(ls -A "$D")" ] || fail "null backend touched DIR: $(ls -A "$D")"

note "the built-in workload on the real filesystem, no unexpected results"
expect_rc 0 "$DBNG" -c builtin:netbench -t 3 --warmup 1 -D "$D" 2 >"$TMP/out"
! grep -q "Unexpected results" "$TMP/out" || fail "$(sed -n '/Unexpected/,/^$/p' "$TMP/out")"
[ -z "$(ls -A "$D")" ] || fail "DIR not clean after the run: $(ls -A "$D")"
echo "all behaviour checks passed"
