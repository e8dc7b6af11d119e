# SPDX-License-Identifier: GPL-3.0-or-later
# Signals at the phases faults.sh's random ones seldom hit, each waited
# for, not timed:
#  1. in the warmup, after two of its lines: the tables and the last line
#     are the warmup's (its MB/sec, the largest latency of its lines);
#     before, the last line said 0 MB/sec and max_latency=0.000 ms;
#  2. the parent stopped (SIGSTOP) in the execute phase and continued:
#     the run ends, a result;
#  3. a signal that is not one of a run's (SIGUSR1) kills the parent: its
#     clients go, DIR/clients goes, the JSON is its last checkpoint
#     (status running), no temporary file;
#  4. while the report is printed to a pipe that is not read: said, the
#     report finished once the pipe is read, exit 143; a second signal
#     ends it at once; before, both were held until the exit, exit 0;
#  5. while the JSON result is written (its fsync held 5 s by faultfs):
#     said, the result finished whole, exit 143; a second signal
#     abandons it: no JSON result (at most the last checkpoint, status
#     running), exit 143 at once.  Before: exit 0.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "python3 not installed"

# bg CMD...: CMD in the background, stdout $TMP/o, stderr $TMP/e; pid BG
bg() {
	"$@" >"$TMP/o" 2>"$TMP/e" &
	BG=$!
	at_exit "kill -KILL $BG"
}
# bg_rc WANT: wait for $BG, its exit must be WANT
bg_rc() {
	local rc=0
	wait "$BG" || rc=$?
	[ "$rc" = "$1" ] || fail "exit $rc, expected $1: $(cat "$TMP/e")"
}

note "1. in the warmup"
bg "$DBNG" -B null -t 60 --warmup 30 --json "$TMP/w.json" 2
wait_for "$TMP/o" "warmup   2 sec"
kill -TERM "$BG"
bg_rc 143
python3 - "$TMP/o" <<'PY' || fail "the last line is not the warmup's: $(tail -3 "$TMP/o")"
import re, sys
t = open(sys.argv[1]).read().splitlines()
w = [l.split() for l in t if " warmup " in l and "MB/sec" in l]
assert any("during the warmup: the figures below are of the warmup" in l for l in t)
m = re.match(r"Partial figures of an interrupted run: (\S+) MB/sec  2 clients  2 procs  "
             r"max_latency=(\S+) ms$", t[-1])
assert m, t[-1]
tput, lat = float(m.group(1)), float(m.group(2))
# %g has 6 digits, the progress line 2 decimals
assert abs(tput - float(w[-1][2])) <= max(0.006, 1e-5 * tput), (tput, w[-1])
assert abs(lat - max(float(x[8]) for x in w)) < 0.0006, (lat, w)
assert tput > 0
print("ok: %s (the last warmup line: %s MB/sec)" % (t[-1], w[-1][2]))
PY
"$DBNG" report "$TMP/w.json" >"$TMP/r"
[ "$(tail -1 "$TMP/r")" = "$(tail -1 "$TMP/o")" ] ||
	fail "report of the JSON: $(tail -1 "$TMP/r")"
echo "ok: report of the JSON says the same"

note "2. the parent stopped and continued"
mkdir -p "$TMP/d"
bg "$DBNG" -t 3 --warmup 0 -D "$TMP/d" --no-bpf 2
wait_for "$TMP/o" "execute   1 sec"
kill -STOP "$BG"
sleep 1
kill -CONT "$BG"
bg_rc 0
tail -1 "$TMP/o" | grep -q "^Throughput " || fail "$(tail -3 "$TMP/o")"
[ ! -e "$TMP/d/clients" ] || fail "DIR/clients left"
echo "ok: $(tail -1 "$TMP/o")"

note "3. SIGUSR1"
bg "$DBNG" -t 60 --warmup 0 -D "$TMP/d" --no-bpf --json "$TMP/u.json" 2
wait_for "$TMP/o" "execute   1 sec"
# the first checkpoint, written after the tick of that line
wait_until 30 test -e "$TMP/u.json" || fail "no checkpoint after 30 s"
kids=$(ps -o pid= --ppid "$BG")
kill -USR1 "$BG"
bg_rc 138
wait_until 20 eval '[ -z "$(ps -o pid= -p "$(echo $kids | tr " " ,)")" ]' ||
	fail "clients left: $kids"
wait_until 20 test ! -e "$TMP/d/clients" || fail "DIR/clients left: $(ls -R "$TMP/d")"
python3 -c 'import json, sys
sys.exit(json.load(open(sys.argv[1]))["status"] != "running")' "$TMP/u.json" ||
	fail "the JSON is not the last checkpoint: $(head -c 300 "$TMP/u.json")"
[ "$(ls "$TMP" | grep 'u\.json')" = u.json ] || fail "a temporary file: $(ls "$TMP")"
echo "ok: the parent died of it, its clients and their trees went, its checkpoint left"

note "4. while the report is printed to a pipe nobody reads"
mkfifo "$TMP/fifo"
# stuck_report: a run whose report (400 clients' tables: more than a pipe
# holds) goes to $TMP/fifo, read on $rd until the clean-up is over (the
# run has ended), then not at all; then a SIGTERM, said
stuck_report() {
	"$DBNG" -B null -t 1 --warmup 0 --per-client-results 400 >"$TMP/fifo" 2>"$TMP/e" &
	BG=$!
	at_exit "kill -KILL $BG"
	exec {rd}<"$TMP/fifo"
	while IFS= read -r -u "$rd" l; do
		case $l in "   0  cleanup "*) break ;; esac
	done
	kill -TERM "$BG"
	wait_for "$TMP/e" "interrupted \(signal 15, Terminated\) after the run: finishing its report"
}
stuck_report
kill -0 "$BG" || fail "it ended while the report waited"
cat <&"$rd" >"$TMP/rest"
exec {rd}<&-
bg_rc 143
tail -1 "$TMP/rest" | grep -q "^Throughput " || fail "the report was cut: $(tail -2 "$TMP/rest")"
echo "ok: said, the report finished, exit 143"
stuck_report
kill -TERM "$BG"
bg_rc 143
grep -q "signal 15 (Terminated) again: the report and the JSON result abandoned" "$TMP/e" ||
	fail "$(cat "$TMP/e")"
exec {rd}<&-
echo "ok: a second signal ends it at once"

note "5. while the JSON result is written"
. "$ROOT/tests/faultfs/lib.sh"
ffs_mount --rule 'fsync:r.json.tmp.* delay=5000'
for n in 1 2; do
	bg "$DBNG" -B null -t 1 --warmup 0 --json "$MNT/r.json" 1
	wait_for "$LOG" "fsync r.json.tmp.* delay=5000 start"
	kill -TERM "$BG"
	wait_for "$TMP/e" "after the run: finishing its report and result first"
	if [ $n = 2 ]; then
		kill -TERM "$BG"
		bg_rc 143
		grep -q "again: the report and the JSON result abandoned" "$TMP/e" ||
			fail "$(cat "$TMP/e")"
		# what is left is the last checkpoint, if one came in time
		# (status running), never a result
		[ ! -e "$MNT/r.json" ] || python3 -c 'import json, sys
sys.exit(json.load(open(sys.argv[1]))["status"] != "running")' "$MNT/r.json" ||
			fail "a JSON result after the second signal"
		echo "ok: a second signal abandons it: exit 143, no JSON result"
		break
	fi
	bg_rc 143
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$MNT/r.json" ||
		fail "the JSON is not whole"
	[ -z "$(ls "$MNT" | grep tmp)" ] || fail "a temporary file: $(ls "$MNT")"
	echo "ok: said, the JSON whole, exit 143"
	rm -f "$MNT/r.json"
	: >"$LOG" # (faultfs appends to it)
done
ffs_umount
echo "all signal checks passed"
