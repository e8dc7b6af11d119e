# SPDX-License-Identifier: GPL-3.0-or-later
# dbench-ng on faultfs (tests/faultfs), a FUSE pass-through that delays or
# fails chosen operations: clean runs when no fault is configured, a
# periodic rename delay that picks exactly the first rename of each period
# and is seen in full in the Rename latencies, and injected ENOSPC / EIO
# reported as fatal client errors.
. "$(dirname "$0")/../lib.sh"

. "$ROOT/tests/faultfs/lib.sh"

# bad rules: a clear message and exit 2, nothing mounted
"$FFS" "$BACK" "$MNT" --rule 'x delay=1' 2>"$TMP/err"
rc=$?
[ $rc = 2 ] || fail "bad rule: exit $rc, expected 2"
grep -qx "faultfs: --rule 'x delay=1': unknown op 'x'" "$TMP/err" ||
	fail "bad rule message: $(cat "$TMP/err")"
"$FFS" "$BACK" "$MNT" --rule 'write error=EFOO' 2>"$TMP/err"
rc=$?
[ $rc = 2 ] || fail "bad errno: exit $rc, expected 2"
grep -q "unknown errno 'EFOO'" "$TMP/err" || fail "bad errno: $(cat "$TMP/err")"
! mountpoint -q "$MNT" || fail "a bad rule mounted"

# op_max FILE OP: the MaxLat column (ms) of OP in the classic table of FILE
op_max() {
	awk -v op="$2" '/^ Operation/ {t=1; next} t && $1 == op {print $4; exit}' "$1"
}

# run_ok ARGS...: a run on the mount exits 0 with no warning section
run_ok() {
	"$DBNG" "$@" -D "$MNT" >"$TMP/out" 2>"$TMP/err" ||
		fail "exit $? on faultfs ($*): $(cat "$TMP/err")"
	! grep -q "Unexpected results" "$TMP/out" ||
		fail "unexpected results on faultfs ($*): $(cat "$TMP/out")"
	grep -q "^Throughput" "$TMP/out" || fail "no Throughput line ($*)"
}

note "(1) no rules: a pass-through"
ffs_mount
[ "$(cat "$TMP/ffs.pid")" = "$FFS_PID" ] || fail "pidfile: $(cat "$TMP/ffs.pid")"
run_ok -t 3 --warmup 0 2
run_ok -c "$CLIENT_TXT" -t 3 --warmup 0 2
run_ok -t 2 --warmup 0 -s -S -F -x 2
[ -z "$(find "$BACK" -mindepth 1)" ] ||
	fail "backing dir not clean: $(find "$BACK" -mindepth 1 | head)"
[ ! -s "$LOG" ] || fail "injections without a rule: $(head "$LOG")"
ffs_umount
echo "ok: builtin, client.txt and -s -S -F -x runs clean"

note "(2) rename delay=300 period=1000"
# the second rule delays nothing: it logs every rename, so the log shows
# which calls the period rule had to pick
ffs_mount --rule 'rename delay=300 period=1000' --rule 'rename delay=0'
run_ok -t 5 --warmup 0 --json "$TMP/r2.json" 1
max=$(op_max "$TMP/out" Rename)
ffs_umount
# <ns> <iso> rename <old->new> delay=N start|end, a start stamped when the
# rules were checked (tests/faultfs/README.md).  What must hold whatever
# the speed of the machine:
#  - the period rule fired on exactly the first rename of each 1 s slot
#    counted from the first rename, as faultfs computes it (a run too slow
#    for a rename every second only has fewer slots), at least twice;
#  - each delay lasted 300 ms or more, and less than 600 (a delay slept
#    twice; a loaded machine may oversleep, by far less than 300 ms);
#  - dbench-ng measured each delayed rename whole: at least as many Rename
#    calls of 290 ms or more as delays (one attributed to another op, or
#    cut short, would be missing), and a Rename MaxLat of at least the
#    longest delay and less than it plus 150 ms (half a delay: the FUSE
#    round trip around the sleep costs microseconds; a delay counted
#    twice, or a latency taken from an earlier op's start, is caught).
python3 - "$LOG" "$TMP/r2.json" "$max" <<'PY' >"$TMP/chk" ||
import json, sys
calls, delays, bad = [], {}, []
for line in open(sys.argv[1]):
    ns, iso, op, path, action, event = line.split()
    ns = int(ns)
    if op != "rename":
        bad.append("an injection into " + op)
    elif action == "delay=0" and event == "start":
        calls.append(ns)
    elif action == "delay=300" and event == "start":
        delays[ns] = None
    elif action == "delay=300" and event == "end":
        s = max(k for k in delays if k <= ns and delays[k] is None)
        delays[s] = ns
calls.sort()
want, slot = [], -1
for t in calls:
    if (t - calls[0]) // 10**9 != slot:
        slot = (t - calls[0]) // 10**9
        want.append(t)
if sorted(delays) != want:
    bad.append("delays at %s, first renames of the slots at %s" % (sorted(delays), want))
if len(want) < 2:
    bad.append("%d slots with renames" % len(want))
ms = [(e - s) / 1e6 for s, e in delays.items() if e is not None]
if len(ms) != len(delays) or not all(300 <= d < 600 for d in ms):
    bad.append("delays lasted %s ms" % ms)
d = json.load(open(sys.argv[2]))
ren = [o for o in d["ops"] if o["name"] == "Rename"][0]["lat_ns"]
long = sum(c for lo, c in ren["bins"] if lo >= 290e6) + ren["overflow"]
if long < len(delays):
    bad.append("%d delays, %d Rename calls of 290 ms or more" % (len(delays), long))
m, dmax = float(sys.argv[3]), max(ms + [0])
if not dmax <= m < dmax + 150:
    bad.append("Rename MaxLat %.3f ms, longest delay %.3f ms" % (m, dmax))
if bad:
    sys.exit("; ".join(bad))
print("%d renames in %d slots, each slot's first one delayed; longest delay "
      "%.3f ms, Rename MaxLat %.3f ms, %d Renames of 290 ms or more"
      % (len(calls), len(want), dmax, m, long))
PY
	fail "injection log: $(cat "$TMP/chk")"
echo "ok: $(cat "$TMP/chk")"

# fails_on OP ERROR: a run on faultfs exits 1, naming OP and ERROR;
# faultfs is unmounted after it.  The failure ends the run, in its first
# pass: the time limit only has to be out of reach of a slow machine.
fails_on() {
	"$DBNG" -t 60 --warmup 0 -D "$MNT" 1 >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc = 1 ] || fail "exit $rc, expected 1: $(cat "$TMP/err")"
	grep "$1" "$TMP/err" | grep -q "$2" ||
		fail "no $1 '$2' message: $(cat "$TMP/err")"
	ffs_umount
}

note "(3) write error=ENOSPC count=1"
ffs_mount --rule 'write:*/~wr* error=ENOSPC count=1'
fails_on WriteX "No space left on device"
if [ "$(grep -c ' error=ENOSPC start$' "$LOG")" != 1 ] ||
	[ "$(wc -l <"$LOG")" != 1 ]; then
	fail "injection log: $(cat "$LOG")"
fi
grep -q '^[0-9]* [0-9T:.-]*Z write clients/client0/.*/~wr[^/]* ' "$LOG" ||
	fail "log line: $(cat "$LOG")"
echo "ok: $(head -1 "$TMP/err")"

note "(4) unlink error=EIO"
ffs_mount --rule 'unlink error=EIO'
fails_on Unlink "Input/output error"
grep -q ' unlink .* error=EIO start$' "$LOG" || fail "injection log: $(cat "$LOG")"
echo "ok: $(head -1 "$TMP/err")"
rm -rf "${BACK:?}"/*

note "(5) --rules FILE, re-read on SIGHUP"
echo 'statfs error=EROFS' >"$TMP/rules"
ffs_mount --rules "$TMP/rules"
df "$MNT" >/dev/null 2>&1 && fail "statfs error=EROFS not injected"
printf '# now only mkdir\nmkdir:no* error=EDQUOT\n' >"$TMP/rules"
kill -HUP "$FFS_PID"
wait_for "$TMP/ffs.err" "1 rules from"
df "$MNT" >/dev/null || fail "statfs still failing after SIGHUP"
mkdir "$MNT/yes" || fail "mkdir yes failed"
mkdir "$MNT/no" 2>"$TMP/err" && fail "mkdir no succeeded"
grep -q "Disk quota exceeded" "$TMP/err" || fail "mkdir no: $(cat "$TMP/err")"
ffs_umount
[ -d "$BACK/yes" ] || fail "mkdir yes: not in the backing dir"
[ ! -e "$BACK/no" ] || fail "mkdir no: in the backing dir"
echo "ok: rules file and SIGHUP reload"

! grep -q " $MNT " /proc/mounts || fail "$MNT still mounted"
echo "all faultfs checks passed"
