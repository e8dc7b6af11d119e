# SPDX-License-Identifier: GPL-3.0-or-later
# Stall forensics without special filesystems: two clients take turns
# holding a POSIX lock for 300 ms, so every LockX of the other one waits
# about 300 ms.  The watchdog must record those LockX calls (and nothing
# else), with the client's kernel stack showing the lock wait while it
# was stuck, in the text report and in the JSON result.
. "$(dirname "$0")/../lib.sh"

D=$TMP/d
mkdir -p "$D"
shared_lock_load

expect_rc 0 "$DBNG" -t 4 --warmup 0 -c "$TMP/lock.load" --json "$TMP/r.json" \
	-D "$D" 2 >"$TMP/out"
sed -n '/^ Stalls/,/^$/p' "$TMP/out" >"$TMP/stalls"
cat "$TMP/stalls"
head -1 "$TMP/stalls" | grep -Eq '^ Stalls: [0-9]+ ops ran longer than 100 ms \(LockX [0-9]+, max [0-9.]+ ms\)$' ||
	fail "the stall summary names other ops or is missing"
# How many turns fit in 4 s depends on the machine, so the count is
# checked against the run's own histograms: an event for every LockX of
# 200 ms or more, none beyond the LockX calls of 100 ms or more.
stall_check "$TMP/r.json"
# The two clients' lock waits never overlap (one waits only while the other
# holds the lock), so together they fit in the measured time plus the one
# wait that may end after the stop.  A wait measured twice as long as it
# was (e.g. from the start of the previous op) would not: with ~290 ms
# waits back to back that is about twice the run.
python3 - "$TMP/r.json" <<'PY' || fail "the LockX waits add up to more than the run"
import json, sys
d = json.load(open(sys.argv[1]))
lk = [o for o in d["ops"] if o["name"] == "LockX"][0]["lat_ns"]
total, room = lk["sum"] / 1e9, d["summary"]["measured_s"] + lk["max"] / 1e9 + 0.05
print("ok: LockX waits %.3f s in all, within %.3f s" % (total, room))
sys.exit(0 if total <= room else "waits %.3f s, room %.3f s" % (total, room))
PY
# the longest stall is the longest LockX, to the microsecond: its
# duration is the one the client measured (its slow ring, shm.h)
max=$(awk '/^ Operation/ {t=1; next} t && $1 == "LockX" {print $4; exit}' "$TMP/out")
grep -Eq "^  #1 LockX $max ms" "$TMP/stalls" ||
	fail "the longest stall is not the longest LockX ($max ms)"
grep -q "lock.load:2$" "$TMP/stalls" || fail "the loadfile line is not named"
if [ "$(id -u)" = 0 ]; then
	grep -q 'wchan fcntl_setlk\|wchan .*lock' "$TMP/stalls" ||
		fail "no lock wait channel in the samples"
	grep -q 'fcntl' "$TMP/stalls" || fail "no fcntl frame in the kernel stack"
else
	grep -q 'kernel stacks unavailable' "$TMP/stalls" ||
		fail "no note that stacks could not be read"
fi
# the classic table stays dbench's and last
tail -1 "$TMP/out" | grep -q '^Throughput ' || fail "Throughput not last"
! sed -n '/^ Stalls/,/^$/p' "$TMP/out" | grep -q 'execute\|Operation' ||
	fail "the stall section contains a word dbench parsers look for"

note "the JSON result holds the events and re-renders them"
grep -q '"threshold_ms": 100' "$TMP/r.json" || fail "threshold not in the JSON"
grep -q '"op": "LockX"' "$TMP/r.json" || fail "no LockX event in the JSON"
expect_rc 0 "$DBNG" report "$TMP/r.json" >"$TMP/rep"
sed -n '/^ Stalls/,/^$/p' "$TMP/rep" | diff - "$TMP/stalls" >/dev/null ||
	fail "the re-rendered stall section differs"

note "--stall-threshold 0 turns the watchdog off; 500 ms catches only what lasted that long"
expect_rc 0 "$DBNG" -t 2 --warmup 0 --stall-threshold 0 -c "$TMP/lock.load" -D "$D" 2 >"$TMP/out"
! grep -q '^ Stalls' "$TMP/out" || fail "stalls reported with the watchdog off"
# the waits last about 300 ms: an event is allowed only for a LockX the
# histogram shows at 500 ms or more (none, unless a Sleep overslept by
# 200 ms), and a threshold ignored (7 or so events at 300 ms) fails
expect_rc 0 "$DBNG" -t 2 --warmup 0 --stall-threshold 500 -c "$TMP/lock.load" \
	--json "$TMP/r500.json" -D "$D" 2 >"$TMP/out"
grep -q '"threshold_ms": 500' "$TMP/r500.json" || fail "threshold 500 not in the JSON"
stall_check "$TMP/r500.json"

note "a client stuck at the end of the run is reported as still stuck"
hold_lock "$D"
set -m
"$DBNG" -t 60 --warmup 0 -c "$TMP/lock.load" -D "$D" 1 >"$TMP/out" 2>"$TMP/err" &
pid=$!
set +m
# until a progress line shows the LockX stuck for a second (the run's own
# clock): the watchdog, which looks every 5 ms, has seen it pass 100 ms
wait_for "$TMP/out" ' latency [0-9]{4,}\.[0-9]+ ms$'
kill -INT $pid
# the second SIGINT only once the first was taken (two pending signals
# would merge into one, and the stuck client would never be killed)
wait_for "$TMP/err" '^dbench-ng: interrupted by signal 2 '
kill -INT $pid
wait $pid
kill "$HOLDER"
grep -Eq '^  #1 LockX [0-9]{4,}\.[0-9]+ ms and still stuck' "$TMP/out" ||
	fail "the stuck LockX is not reported (at least 1 s): $(sed -n '/Stalls/,/^$/p' "$TMP/out")"
note "stalls of the warmup are counted apart, as the tables leave it out"
# the lock turns start at the release: the first waits end within the 2 s
# warmup, later ones in the measured phase; an op counts in the phase it
# ends in (deadline.h), and so does its stall
expect_rc 0 "$DBNG" -t 3 --warmup 2 -c "$TMP/lock.load" --json "$TMP/w.json" \
	-D "$D" 2 >"$TMP/out"
grep -Eq '^  and [0-9]+ in the warmup, not in the tables \(LockX [0-9]+, max [0-9.]+ ms\), marked \[warmup\] below$' "$TMP/out" ||
	fail "no warmup stall line: $(sed -n '/Stalls/,/^$/p' "$TMP/out")"
grep -Eq '^  #[0-9]+ \[warmup\] LockX ' "$TMP/out" || fail "no event marked [warmup]"
stall_check "$TMP/w.json"
python3 - "$TMP/w.json" <<'PY' || fail "the warmup's stalls are not apart"
import json, sys
d = json.load(open(sys.argv[1]))
st, w = d["stalls"], d["summary"]["warmup_s"]
evs = st["events"]
warm = [e for e in evs if e["warmup"]]
meas = [e for e in evs if not e["warmup"]]
assert warm and meas, "events: %d warmup, %d measured" % (len(warm), len(meas))
assert st["warmup_total"] == len(warm), st
assert st["total"] == len(meas) == st["per_op"]["LockX"]["count"], st
end = lambda e: e["start_s"] + e["duration_ms"] / 1e3
# ended in the warmup (to the ms: start_s and duration are rounded)
assert all(end(e) <= w + 0.001 for e in warm), [end(e) for e in warm]
assert all(end(e) > w - 0.001 for e in meas), [end(e) for e in meas]
lock = [o for o in d["ops"] if o["name"] == "LockX"][0]
# the measured phase's longest stall is the table's LockX max, exactly
assert abs(st["per_op"]["LockX"]["max_ms"] * 1e6 - lock["lat_ns"]["max"]) < 1, \
    (st["per_op"]["LockX"], lock["lat_ns"]["max"])
print("ok: %d warmup stalls apart, %d measured, max = MaxLat" % (len(warm), len(meas)))
PY

echo "all stall checks passed"
