# SPDX-License-Identifier: GPL-3.0-or-later
# Process model (design.md §4): a client that dies ends the run within a
# second, naming it (partial results marked failed, also in --json);
# SIGINT/SIGTERM stop the run, print what was measured
# (marked interrupted), clean up and exit 130/143; when the parent dies the
# clients exit and clean up, and no JSON is written; no orphan is ever
# left, and nothing beside DIR/clients is touched.
. "$(dirname "$0")/../lib.sh"

D=$TMP/d
mkdir -p "$D/sibling"
echo keep >"$D/keep.txt"
echo data >"$D/sibling/file"
LF=$DATA/loadfiles/smoke.load
# what lies beside DIR/clients: never touched
beside() {
	(cd "$D" && find . -mindepth 1 -path ./clients -prune -o \
		-printf '%p %y %s %T@\n' | sort && cat keep.txt sibling/file)
}
BESIDE=$(beside)

# json_is FILE STATUS: FILE parses and has "status": STATUS
json_is() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d["status"] == sys.argv[2] else "status " + d["status"])' "$@" ||
		fail "JSON $1 is not $2"
}

# start ARGS...: run dbench-ng in the background in its own process group
# (its pgid is its pid); sets PID and KIDS and waits for its first progress
# line (the clients are released and at work)
start() {
	# the previous run's output would satisfy the wait below before the
	# new run has even truncated it (seen under load)
	rm -f "$TMP/out" "$TMP/err"
	set -m		# job control: the run gets its own process group
	"$DBNG" "$@" >"$TMP/out" 2>"$TMP/err" &
	PID=$!
	set +m
	wait_for "$TMP/out" " sec  latency "
	KIDS=$(pgrep -P "$PID" | tr '\n' ' ')
	[ -n "$KIDS" ] || fail "no client processes found: $(cat "$TMP/out" "$TMP/err")"
}

# gone PIDS...: wait (up to 30 s) for every pid to disappear
all_gone() {
	local p
	for p in "$@"; do kill -0 "$p" 2>/dev/null && return 1; done
	return 0
}
gone() {
	wait_until 30 all_gone "$@" || fail "processes still alive after 30 s: $*"
}

# finish: wait for PID, return its exit status in RC and the time taken
finish() {
	local t0=$(date +%s%N)
	wait "$PID"
	RC=$?
	ELAPSED_MS=$((($(date +%s%N) - t0) / 1000000))
}

note "a client killed with SIGKILL"
start -t 60 --json "$TMP/kill.json" -c "$LF" -D "$D" 3
victim=${KIDS%% *}
kill -KILL "$victim"
finish
[ $RC = 1 ] || fail "exit $RC after a client died, expected 1"
# the parent reaps at once (SIGCHLD on its signalfd); a parent that did
# not notice would run on to the 60 s time limit or hang: 20 s is a third
# of that and leaves a slow machine its clean-up.  (That the death ends
# the run within the second is the runner's logic: a unit test's job.)
[ $ELAPSED_MS -lt 20000 ] || fail "took $ELAPSED_MS ms to notice a dead client"
grep -Eq "pid $victim\) was killed by signal 9 \(Killed\); client [0-2] was running [A-Za-z_]+ at $LF:[0-9]+" "$TMP/err" ||
	fail "message does not name the dead client: $(cat "$TMP/err")"
gone $KIDS
[ ! -e "$D/clients" ] || fail "client trees left: $(ls -R "$D")"
grep -q "^Run failed " "$TMP/out" && tail -1 "$TMP/out" | grep -q "^Partial figures of a failed run: " ||
	fail "no partial results after a client died: $(cat "$TMP/out")"
json_is "$TMP/kill.json" failed
grep -q "killed by signal 9" "$TMP/kill.json" || fail "JSON errors lack the death"
[ "$(beside)" = "$BESIDE" ] || fail "DIR outside clients changed"
echo "ok: $(cat "$TMP/err") (${ELAPSED_MS} ms)"

for sig in INT TERM; do
	note "SIG$sig to the parent"
	start -t 60 --warmup 1 -c "$LF" -D "$D" 2
	# in the measured phase, so the results are "after X s of measurement"
	wait_for "$TMP/out" " execute "
	kill -$sig "$PID"
	finish
	want=$((128 + $(kill -l $sig)))
	[ $RC = $want ] || fail "exit $RC after SIG$sig, expected $want"
	# ignored, it would run on to the 60 s limit (see above)
	[ $ELAPSED_MS -lt 20000 ] || fail "SIG$sig took $ELAPSED_MS ms"
	grep -q "^Interrupted by signal $(kill -l $sig) after" "$TMP/out" ||
		fail "no interrupted marker: $(cat "$TMP/out")"
	grep -q "^ Per op         Count    AvgLat    MaxLat" "$TMP/out" ||
		fail "no table after SIG$sig"
	tail -1 "$TMP/out" | grep -q "^Partial figures of an interrupted run: .* 2 clients  2 procs" ||
		fail "partial figures not last after SIG$sig"
	gone $KIDS
	[ ! -e "$D/clients" ] || fail "client trees left after SIG$sig"
	echo "ok: SIG$sig -> exit $RC in ${ELAPSED_MS} ms"
done

note "Ctrl-C: SIGINT to the whole process group"
start -t 60 -c "$LF" -D "$D" 2
kill -INT -- "-$PID"
finish
[ $RC = 130 ] || fail "exit $RC after a group SIGINT, expected 130"
gone $KIDS
[ ! -e "$D/clients" ] || fail "client trees left after a group SIGINT"
echo "ok: group SIGINT -> exit 130"

note "the parent killed with SIGKILL"
start -t 60 --json "$TMP/pk.json" -c "$LF" -D "$D" 3
kill -KILL "$PID"
wait "$PID" 2>/dev/null
gone $KIDS
[ -z "$(ls -A "$D/clients" 2>/dev/null)" ] ||
	fail "orphaned clients left trees: $(ls "$D/clients")"
# nobody is left to write the result: no file, not a half-written one
[ ! -e "$TMP/pk.json" ] || fail "a JSON file from a killed parent"
[ -z "$(find "$TMP" -maxdepth 1 -name 'pk.json.tmp.*')" ] || fail "a temporary JSON left"
[ "$(beside)" = "$BESIDE" ] || fail "DIR outside clients changed"
rmdir "$D/clients" 2>/dev/null
echo "ok: clients of a killed parent exited and cleaned up"

note "a second SIGINT kills clients stuck in an op: still exit 130, results"
# every client blocks in LockX on a lock another dbench-ng holds
cat >"$TMP/stuck.load" <<'X'
NTCreateX "\clients\lockfile" 0x40 0x1 1 NT_STATUS_OK
LockX 1 0 1 NT_STATUS_OK
UnlockX 1 0 1 NT_STATUS_OK
Close 1 NT_STATUS_OK
X
hold_lock "$D"
start -t 60 --warmup 0 -c "$TMP/stuck.load" -D "$D" 2
# both clients wait for the lock (a client not yet in LockX would stop
# at the first SIGINT, and the run could end)
wait_until 30 eval '[ "$(lock_waiters "$D/clients/lockfile")" = 2 ]' ||
	fail "the clients do not wait for the lock: $(cat /proc/locks)"
kill -INT "$PID"
# the first SIGINT taken (a second one sent before would merge with it)
wait_for "$TMP/err" "^dbench-ng: interrupted by signal 2 "
# stuck clients cannot stop: a run that ended anyway would be gone by
# now or within the second (this wait can only make a bug show)
sleep 1
kill -0 "$PID" 2>/dev/null || fail "the run ended although its clients are stuck in LockX"
kill -INT "$PID"
finish
kill "$HOLDER"
[ $RC = 130 ] || fail "exit $RC after two SIGINTs, expected 130: $(cat "$TMP/err")"
tail -1 "$TMP/out" | grep -q "^Partial figures of an interrupted run: " || fail "no results after two SIGINTs"
gone $KIDS
[ -z "$(ls "$D/clients" | grep client)" ] || fail "trees left after two SIGINTs: $(find "$D")"
wait "$HOLDER"
echo "ok: two SIGINTs -> exit 130, results printed"

note "a long Sleep does not delay the end of the run"
printf 'Sleep 30000000 NT_STATUS_OK\n' >"$TMP/sleep.load"
t0=$(date +%s%N)
expect_rc 0 "$DBNG" -t 2 --warmup 0 -c "$TMP/sleep.load" -D "$D" 1 >"$TMP/out"
ms=$((($(date +%s%N) - t0) / 1000000))
# a Sleep that the stop does not cut short ends the run after 30 s; the
# client looks at the stop every 50 ms, so 15 s leaves a slow machine room
[ $ms -lt 15000 ] || fail "a 30 s Sleep delayed a 2 s run to $ms ms"
echo "ok: -t 2 with a 30 s Sleep took $ms ms"

note "SIGINT during the warmup says so"
start -t 60 --warmup 30 -c "$LF" -D "$D" 1
kill -INT "$PID"
finish
[ $RC = 130 ] || fail "exit $RC"
grep -q "^Interrupted by signal 2 during the warmup" "$TMP/out" ||
	fail "warmup interruption not marked: $(head -20 "$TMP/out")"
note "SIGTERM to one client process: the run stops, marked interrupted"
start -t 60 --warmup 0 -c "$LF" -D "$D" 2
kill -TERM "${KIDS%% *}"
finish
[ $RC = 143 ] || fail "exit $RC after SIGTERM to a client, expected 143"
grep -q "a client process received signal 15" "$TMP/err" ||
	fail "no message: $(cat "$TMP/err")"
grep -q "^Interrupted by signal 15" "$TMP/out" || fail "not marked interrupted"
gone $KIDS
echo "ok: SIGTERM to a client -> exit 143, marked interrupted"

echo "all process checks passed"
