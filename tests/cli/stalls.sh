# SPDX-License-Identifier: GPL-3.0-or-later
# Stall forensics without special filesystems: two clients take turns
# holding a POSIX lock for 300 ms, so every LockX of the other one waits
# about 300 ms.  The watchdog must record those LockX calls (and nothing
# else), with the client's kernel stack showing the lock wait while it
# was stuck, in the text report and in the JSON result.
. "$(dirname "$0")/../lib.sh"

D=$TMP/d
mkdir -p "$D"
cat >"$TMP/lock.load" <<'X'
NTCreateX "\clients\lockfile" 0x40 0x5 1 NT_STATUS_OK
LockX 1 0 1 NT_STATUS_OK
Sleep 300000 NT_STATUS_OK
UnlockX 1 0 1 NT_STATUS_OK
Close 1 NT_STATUS_OK
Sleep 10000 NT_STATUS_OK
X

expect_rc 0 "$DBNG" -t 4 --warmup 0 -c "$TMP/lock.load" --json "$TMP/r.json" \
	-D "$D" 2 >"$TMP/out"
sed -n '/^ Stalls/,/^$/p' "$TMP/out" >"$TMP/stalls"
cat "$TMP/stalls"
head -1 "$TMP/stalls" | grep -Eq '^ Stalls: [0-9]+ ops ran longer than 100 ms \(LockX [0-9]+, max [0-9.]+ ms\)$' ||
	fail "the stall summary names other ops or is missing"
n=$(sed -n 's/^ Stalls: \([0-9]*\) ops.*/\1/p' "$TMP/stalls")
# 4 s of 310 ms turns: about 12 waits of ~300 ms
[ "$n" -ge 8 ] && [ "$n" -le 16 ] || fail "$n stalls, expected about 12"
# 290..349 ms: a loaded machine adds a few ms; a doubled wait is still caught
grep -Eq '^  #1 LockX (29[0-9]|3[0-4][0-9])\.[0-9]+ ms' "$TMP/stalls" ||
	fail "the longest stall is not a ~300 ms LockX"
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

note "--stall-threshold 0 turns the watchdog off; 500 ms catches nothing here"
expect_rc 0 "$DBNG" -t 2 --warmup 0 --stall-threshold 0 -c "$TMP/lock.load" -D "$D" 2 >"$TMP/out"
! grep -q '^ Stalls' "$TMP/out" || fail "stalls reported with the watchdog off"
expect_rc 0 "$DBNG" -t 2 --warmup 0 --stall-threshold 500 -c "$TMP/lock.load" -D "$D" 2 >"$TMP/out"
! grep -q '^ Stalls' "$TMP/out" || fail "300 ms waits reported as stalls over 500 ms"

note "a client stuck at the end of the run is reported as still stuck"
hold_lock "$D"
set -m
"$DBNG" -t 60 --warmup 0 -c "$TMP/lock.load" -D "$D" 1 >"$TMP/out" 2>&1 &
pid=$!
set +m
sleep 1.5
kill -INT $pid
sleep 0.5
kill -INT $pid
wait $pid
kill $HOLDER
grep -Eq '^  #1 LockX [0-9.]+ ms and still stuck' "$TMP/out" ||
	fail "the stuck LockX is not reported: $(sed -n '/Stalls/,/^$/p' "$TMP/out")"
echo "all stall checks passed"
