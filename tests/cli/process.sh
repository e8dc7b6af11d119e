# SPDX-License-Identifier: GPL-3.0-or-later
# Process model (design.md §4): a client that dies ends the run within a
# second, naming it (partial results marked failed, also in --json);
# SIGINT/SIGTERM stop the run, print what was measured
# (marked interrupted), clean up and exit 130/143; when the parent dies the
# clients exit and clean up, and the JSON file holds its last checkpoint
# (status running); no orphan is ever left, and nothing beside DIR/clients
# is touched.
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
	: >"$TMP/out" # now: the job truncates it later, and wait_for must not see the last run's lines
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
# exited: a zombie counts, since the reaper of orphans is PID 1 and not
# dbench-ng (here PID 1 reaps only every 1-2 s, which "gone" waits out)
all_exited() {
	local p
	for p in "$@"; do
		[ -e /proc/$p ] || continue
		[ "$(cut -d' ' -f3 /proc/$p/stat 2>/dev/null)" = Z ] || return 1
	done
}
start -t 60 --warmup 0 --json "$TMP/pk.json" -c "$LF" -D "$D" 3
# the first checkpoint of the result comes with the first tick: the file
# holds the run so far once it exists (issue 25)
wait_until 30 test -e "$TMP/pk.json" || fail "no checkpoint of the JSON after 30 s"
t0=$(date +%s%N)
kill -KILL "$PID"
wait "$PID" 2>/dev/null
wait_until 30 all_exited $KIDS || fail "clients of a killed parent still run after 30 s"
ms=$((($(date +%s%N) - t0) / 1000000))
# PR_SET_PDEATHSIG is sent as the parent dies, and the client finishes a
# short op, removes its small tree and exits: 50 ms seen here, 250 ms
# beside two CPU burners, 1059 ms in a sanitized build beside two burners
# and another test.  Without it the clients would run on to the end of
# -t 60; the bound only has to tell the two apart, on any machine
[ $ms -le 15000 ] || fail "clients of a killed parent took $ms ms to exit"
gone $KIDS
# the last client out removed DIR/clients, as the parent would have
[ ! -e "$D/clients" ] ||
	fail "orphaned clients left DIR/clients: $(ls -A "$D/clients")"
# nobody was left to write the result: the last checkpoint is, whole,
# marked as what it is (status running, the time it covers), and report
# says it is partial; no temporary file beside it
python3 - "$TMP/pk.json" <<'PY' || fail "the checkpoint of a killed parent is not a partial result"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "running", d["status"]
assert d["covers_s"] >= 1, d["covers_s"]
assert d["summary"]["measured_s"] > 0, d["summary"]
assert sum(o["count"] for o in d["ops"]) > 0, "no op counted"
assert d["time_series"]["points"], "no series"
# how far it got on the wall clock: ISO 8601 UTC, as the start time
assert len(d["checkpoint_time"]) == len(d["start_time"]), d["checkpoint_time"]
assert d["checkpoint_time"] >= d["start_time"], d["checkpoint_time"]
print("ok: a checkpoint of %.1f s (%s), %d ops" % (d["covers_s"],
      d["checkpoint_time"], sum(o["count"] for o in d["ops"])))
PY
expect_rc 0 "$DBNG" report "$TMP/pk.json" >"$TMP/rep"
grep -q "^Checkpoint of a run still running or killed, after " "$TMP/rep" &&
	tail -1 "$TMP/rep" | grep -q "^Partial figures of an unfinished run: .* 3 clients  3 procs" ||
	fail "report does not say the checkpoint is partial: $(cat "$TMP/rep")"
"$DBNG" compare "$TMP/pk.json" -- "$TMP/pk.json" >"$TMP/rep" 2>&1
grep -q "pk.json) is a checkpoint of a run that had not ended (still running, or killed): partial figures" "$TMP/rep" ||
	fail "compare does not note the checkpoint: $(cat "$TMP/rep")"
[ -z "$(find "$TMP" -maxdepth 1 -name 'pk.json.tmp.*')" ] || fail "a temporary JSON left"
[ "$(beside)" = "$BESIDE" ] || fail "DIR outside clients changed"
echo "ok: clients of a killed parent exited in $ms ms and cleaned up, its checkpoint left"

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

# ---- a closed stdout, inherited ignored signals, a FIFO loadfile --------
rm -rf "$D/clients"	# the lock file of the stuck-clients case

note "stdout closed during the run (| head -1): stopped as an interrupt"
# head exits after the first line; every later line raises SIGPIPE, which
# the run takes as an interrupt: JSON written, trees removed, exit 141
t0=$(date +%s%N)
{ "$DBNG" -t 60 --warmup 0 --json "$TMP/pipe.json" -c "$LF" -D "$D" 2 \
	2>"$TMP/err"; echo $? >"$TMP/rc"; } | head -1 >"$TMP/out"
ms=$((($(date +%s%N) - t0) / 1000000))
[ "$(cat "$TMP/rc")" = 141 ] || fail "exit $(cat "$TMP/rc") with stdout closed, expected 141"
# killed by SIGPIPE or run on, it would take the 60 s; 20 s leaves room
[ $ms -lt 20000 ] || fail "took $ms ms to stop after stdout was closed"
grep -q "^dbench-ng: the output is a closed pipe (signal 13" "$TMP/err" ||
	fail "no message on stderr: $(cat "$TMP/err")"
json_is "$TMP/pipe.json" interrupted
grep -q '"signal": 13' "$TMP/pipe.json" || fail "the JSON lacks signal 13"
[ ! -e "$D/clients" ] || fail "client trees left after SIGPIPE: $(find "$D/clients")"
[ "$(beside)" = "$BESIDE" ] || fail "DIR outside clients changed"
echo "ok: stdout closed -> exit 141 in $ms ms, JSON interrupted, trees removed"

note "stdout a pipe nobody reads from the start: stopped in the set-up"
# no reader at all: the first line written (before any fork) fails; the
# run must not leave an empty DIR/clients, must write the JSON
ERR=$TMP/err python3 -c 'import os, subprocess, sys
r, w = os.pipe()
os.close(r)
p = subprocess.run(sys.argv[1:], stdout=w, stderr=open(os.environ["ERR"], "w"))
sys.exit(p.returncode)' "$DBNG" -t 60 --json "$TMP/pipe0.json" -c "$LF" -D "$D" 2
rc=$?
[ $rc = 141 ] || fail "exit $rc with no reader, expected 141: $(cat "$TMP/err")"
grep -q "closed pipe" "$TMP/err" || fail "no message: $(cat "$TMP/err")"
json_is "$TMP/pipe0.json" interrupted
[ ! -e "$D/clients" ] || fail "DIR/clients left after SIGPIPE in the set-up"
echo "ok: no reader -> exit 141, JSON interrupted, no DIR/clients"

note "SIGINT and SIGQUIT ignored at the start (a script's background job): kept"
# a non-interactive shell starts "cmd &" with SIGINT and SIGQUIT ignored,
# so that Ctrl-C on the script spares it; dbench 4.0 keeps them ignored
rm -f "$TMP/out" "$TMP/err" "$TMP/bgpid" "$TMP/rc"
T=$TMP bash -c '"$@" >"$T/out" 2>"$T/err" & echo $! >"$T/bgpid"
	wait $!; echo $? >"$T/rc"' _ "$DBNG" -t 6 --warmup 0 -c "$LF" -D "$D" 2 &
bgsh=$!
wait_for "$TMP/out" " sec  latency "
bg=$(cat "$TMP/bgpid")
KIDS=$(pgrep -P "$bg" | tr '\n' ' ')
kill -INT "$bg"
kill -QUIT "$bg"
kill -INT $KIDS
wait "$bgsh"
[ "$(cat "$TMP/rc")" = 0 ] || fail "exit $(cat "$TMP/rc") after SIGINT/SIGQUIT that were ignored at the start: $(cat "$TMP/err")"
grep -q "interrupted" "$TMP/err" && fail "an ignored SIGINT interrupted the run: $(cat "$TMP/err")"
tail -1 "$TMP/out" | grep -q "^Throughput .* 2 clients  2 procs" ||
	fail "no complete result: $(tail -3 "$TMP/out")"
gone $KIDS
[ ! -e "$D/clients" ] || fail "client trees left"
echo "ok: inherited SIG_IGN for SIGINT and SIGQUIT kept: exit 0, full result"

note "nohup: SIGHUP to the whole group is ignored, by the clients too"
rm -f "$TMP/out" "$TMP/err"
set -m
: >"$TMP/out" # now: the job truncates it later, and wait_for must not see the last run's lines
nohup "$DBNG" -t 6 --warmup 0 -c "$LF" -D "$D" 2 >"$TMP/out" 2>"$TMP/err" &
PID=$!
set +m
wait_for "$TMP/out" " sec  latency "
KIDS=$(pgrep -P "$PID" | tr '\n' ' ')
kill -HUP -- "-$PID"
finish
[ $RC = 0 ] || fail "exit $RC after SIGHUP under nohup, expected 0: $(cat "$TMP/err")"
tail -1 "$TMP/out" | grep -q "^Throughput" || fail "no complete result under nohup"
gone $KIDS
echo "ok: nohup run ignores SIGHUP: exit 0"

# ---- loadfiles that are not files --------------------------------------

note "-c FIFO with no writer: refused at once, nothing created"
mkfifo "$TMP/lf.fifo"
expect_rc 2 timeout -k 5 20 "$DBNG" -t 2 -c "$TMP/lf.fifo" -D "$D" 1 >"$TMP/out" 2>"$TMP/err"
grep -q "lf.fifo: a pipe with nothing written to it" "$TMP/err" ||
	fail "unclear message: $(cat "$TMP/err")"
[ ! -e "$D/clients" ] || fail "DIR/clients created for a refused loadfile"

note "-c FIFO whose writer never writes: SIGTERM ends the wait"
exec 7<>"$TMP/lf.fifo"	# a writer that stays silent
"$DBNG" -t 2 -c "$TMP/lf.fifo" -D "$D" 1 >"$TMP/out" 2>"$TMP/err" &
PID=$!
# asleep in the read of the pipe: the only place it can wait
wait_until 30 eval '[ "$(cut -d" " -f3 /proc/$PID/stat 2>/dev/null)" = S ]' ||
	fail "not waiting in the read"
kill -TERM "$PID"
wait_until 10 eval '! kill -0 $PID 2>/dev/null' || {
	kill -KILL "$PID"
	fail "SIGTERM did not end a run waiting for its loadfile (signals held)"
}
wait "$PID"
RC=$?
exec 7>&-
[ $RC = 143 ] || fail "exit $RC, expected 143"
[ ! -e "$D/clients" ] || fail "DIR/clients created while reading the loadfile"
echo "ok: a FIFO loadfile is refused or interruptible"

note "-c /dev/zero, a directory: refused before any read"
for f in /dev/zero "$TMP"; do
	expect_rc 2 timeout -k 5 20 "$DBNG" -t 2 -c "$f" -D "$D" 1 >/dev/null 2>"$TMP/err"
	grep -Eq "^dbench-ng: $f: cannot open loadfile: a (character device|directory), not a regular file or a pipe$" "$TMP/err" ||
		fail "-c $f: $(cat "$TMP/err")"
done
for cmd in report "compare /dev/zero --"; do
	expect_rc 2 timeout -k 5 20 "$DBNG" $cmd /dev/zero >/dev/null 2>"$TMP/err"
	grep -q "/dev/zero: a character device, not a regular file or a pipe" "$TMP/err" ||
		fail "$cmd /dev/zero: $(cat "$TMP/err")"
done
echo "ok: devices and directories refused at once"

note "a gzip bomb: refused once 256 MiB are read, no more memory than that"
python3 -c 'import sys, zlib
c = zlib.compressobj(1, zlib.DEFLATED, 31)
chunk = (b"a" * 99 + b"\n") * 10486
out = sys.stdout.buffer
for i in range(300):
    out.write(c.compress(chunk))
out.write(c.flush())' >"$TMP/bomb.gz"
python3 -c 'import resource, subprocess, sys
p = subprocess.run(sys.argv[1:], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
sys.stderr.buffer.write(p.stderr)
print(p.returncode, kb)' "$DBNG" -t 2 -c "$TMP/bomb.gz" -D "$D" 1 >"$TMP/rss" 2>"$TMP/err"
read -r rc kb <"$TMP/rss"
[ "$rc" = 2 ] || fail "exit $rc for a gzip bomb"
grep -q "bomb.gz: loadfile larger than 256 MiB (uncompressed)" "$TMP/err" ||
	fail "message: $(cat "$TMP/err")"
# the 256 MiB buffer and the program itself; reading all 314 MB would
# take more than 320 MiB.  Not with AddressSanitizer: its shadow memory
# and the quarantine of freed blocks (each realloc's old buffer) add
# several times the buffer (860 MiB seen), so a SAN=1 build checks the
# message and the exit only
if grep -qa __asan_init "$DBNG"; then
	echo "(sanitized build: max RSS $kb KiB not checked)"
else
	[ "$kb" -lt 327680 ] || fail "a gzip bomb took $kb KiB of memory"
fi
[ ! -e "$D/clients" ] || fail "DIR/clients created for a refused loadfile"
echo "ok: gzip bomb refused, max RSS $kb KiB"

# ---- begin: the time limit with far more busy clients than CPUs --------
# (issue 12, item 12; self-contained.)  The clients stop by themselves at
# the deadline the parent set at the release (src/engine/deadline.h), so
# the run ends on time however long the parent waits for a CPU; the
# parent raises its own priority (if it may) so its ticks still come once
# a second.  Before: -t 3 with 500 such clients on 2 CPUs ran 13-68 s and
# printed one progress line.
note "500 busy clients stop at the time limit by themselves"
printf 'QUERY_FS_INFORMATION 3 NT_STATUS_OK\n' >"$TMP/busy.load"
rm -rf "$TMP/busy.out" "$TMP/busy.err" "$TMP/busy.json" "$TMP/busyd"
mkdir "$TMP/busyd"
"$DBNG" -t 3 --warmup 0 --json "$TMP/busy.json" -c "$TMP/busy.load" \
	-D "$TMP/busyd" 500 >"$TMP/busy.out" 2>"$TMP/busy.err"
brc=$?
[ $brc = 0 ] || fail "exit $brc: $(tail -3 "$TMP/busy.err")"
# timed by the run's own clock, from the release (the set-up of 500
# processes is not the run's time; and this shell, waiting for a CPU
# behind the 500 clients, cannot time it: it saw "releasing clients"
# seconds late): the last cleanup line says when the last client was
# gone, in seconds rounded to the nearest.  3 is what a plain build
# shows, also beside two CPU burners; a sanitized one, whose 500
# processes each take ms to tear down their shadow memory, showed 4
# there and 6 beside another test too.  Clients that did not stop by
# themselves at the deadline ran 13-68 s on a quiet machine: the bound
# tells the two apart, it does not time the tear-down
lim=10
end_s=$(sed -n 's/^   0  cleanup *\([0-9]*\) sec$/\1/p' "$TMP/busy.out")
[ -n "$end_s" ] && [ "$end_s" -le $lim ] ||
	fail "the last client left ${end_s:-?} s after the release: $(tail -3 "$TMP/busy.out")"
# the measured phase is the deadline's, exactly 3 s, whenever the parent
# got to see it (a late tick ended it at the tick's time)
python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))["summary"]
sys.exit(0 if s["measured_s"] == 3.0 else "measured_s %r" % s["measured_s"])' \
	"$TMP/busy.json" || fail "the measured phase is not 3 s"
[ -z "$(ls -A "$TMP/busyd")" ] || fail "left after the busy run: $(ls -A "$TMP/busyd")"
# the parent's ticks: one line a second (execute 1 and 2 sec, then the
# cleanup line at 3 s), if it could raise its priority; with nice 0 it
# waits behind the 500 clients, which is documented (design.md §4)
if [ "$(nice -n -1 nice 2>/dev/null)" -lt "$(nice)" ] 2>/dev/null; then
	n=$(grep -c ' execute  *[0-9]* sec ' "$TMP/busy.out")
	[ "$n" -ge 2 ] || fail "$n progress lines in 3 s: $(grep ' sec ' "$TMP/busy.out")"
	echo "ok: -t 3, 500 busy clients: the last gone at ${end_s} s, $n progress lines"
else
	echo "ok: -t 3, 500 busy clients: the last gone at ${end_s} s (progress lines not checked: may not raise its priority)"
fi
# ---- end: the time limit with far more busy clients than CPUs ----------

echo "all process checks passed"
