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
run_ok -c builtin:netbench -t 3 --warmup 0 2
run_ok -c "$CLIENT_TXT" -t 3 --warmup 0 2
run_ok -c builtin:netbench -t 2 --warmup 0 -s -S -F -x 2
[ -z "$(find "$BACK" -mindepth 1)" ] ||
	fail "backing dir not clean: $(find "$BACK" -mindepth 1 | head)"
[ ! -s "$LOG" ] || fail "injections without a rule: $(head "$LOG")"
ffs_umount
echo "ok: builtin, client.txt and -s -S -F -x runs clean"

note "(2) rename delay=300 period=1000"
# the second rule delays nothing: it logs every rename, so the log shows
# which calls the period rule had to pick
ffs_mount --rule 'rename delay=300 period=1000' --rule 'rename delay=0'
run_ok -c builtin:netbench -t 5 --warmup 0 --json "$TMP/r2.json" 1
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
	"$DBNG" -c builtin:netbench -t 60 --warmup 0 -D "$MNT" 1 >"$TMP/out" 2>"$TMP/err"
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

note "(6) every client stuck in a write across the end of the run"
# Once the first progress line is out (the rule comes by SIGHUP, so it
# starts in the run's own second second, however slow the set-up was),
# every write takes 3.5 s: the 4 clients of a -t 3 run are stuck in a
# WriteX that ends at 4.5 s or later, over a second past the time limit
# (issue 13).
# The parent must still print a line every second, and since the op in
# flight at the end runs to its end and counts in the execute phase, the
# Throughput line and max_latency must cover the phase to the end of the
# last of them: bytes over that time, and the stuck lines.  Under strace
# (if there is one), the parent's main thread must make no call but poll,
# read and write from its first progress line to its last: nothing it
# does between ticks may wait on the filesystem under test.
: >"$TMP/rules"
ffs_mount --rules "$TMP/rules"
trace=()
# (LeakSanitizer cannot work under ptrace: a sanitized build leaves leak
# checks out of the traced run, as syscalls.sh does)
command -v strace >/dev/null && trace=(env "ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0"
	strace -f -s 80 -o "$TMP/st" -e trace=file,desc)
: >"$TMP/out" # now: the job truncates it later, and wait_for must not see the last run's lines
"${trace[@]}" "$DBNG" -c builtin:netbench -t 3 --warmup 0 --json "$TMP/r6.json" -D "$MNT" 4 \
	>"$TMP/out" 2>"$TMP/err" &
pid=$!
wait_for "$TMP/out" 'execute +1 sec'
echo 'write delay=3500' >"$TMP/rules"
kill -HUP "$FFS_PID"
wait "$pid" || fail "exit $? with writes stuck across the end: $(cat "$TMP/err")"
ffs_umount
sed -n '/releasing/,/^ *0  cleanup/p' "$TMP/out"
grep -E '^ WriteX|^Throughput' "$TMP/out"
rc=0
python3 - "$TMP/out" "$TMP/r6.json" <<'PY' >"$TMP/chk6" 2>&1 || rc=$?
import json, re, sys
out = open(sys.argv[1]).read()
d = json.load(open(sys.argv[2]))
bad = []
# a line for every second: the ticks' seconds never skip one, up to the
# last line, "0  cleanup": a tick prints no line once every client has
# cleaned up, and the exit of the processes may take a second or more on
# a loaded machine (the "0" line is the end's alone, as dbench's)
secs = [int(m) for m in re.findall(r"(?:execute|cleanup) +(\d+) sec", out)]
if not re.search(r"\n +0  cleanup +\d+ sec\n", out):
    bad.append("no '0  cleanup' line last")
for a, b in zip(secs, secs[1:-1]):
    if b > a + 1:
        bad.append("no progress line in second %d: %s" % (a + 1, secs))
if len(secs) > 1 and secs[-1] < secs[-2]:
    bad.append("the last line's second goes back: %s" % secs)
wx = [o for o in d["ops"] if o["name"] == "WriteX"][0]["lat_ns"]["max"]
pts = d["time_series"]["points"]
# when the last stuck write ended: the stall events have it exactly
ends = [e["start_s"] + e["duration_ms"] / 1e3 for e in d["stalls"]["events"]
        if e["op"] == "WriteX" and e["duration_ms"] >= 3499]
if wx < 3.5e9 or len(ends) < 4:
    print("the delay did not reach every client (WriteX max %.3f ms, %d stalls)"
          % (wx / 1e6, len(ends)))
    sys.exit(77)
over = max(ends)
if over < 4.0:
    print("the stuck writes ended %.3f s after the release, not a second past the end" % over)
    sys.exit(77)
s = d["summary"]
# Throughput: every byte of the execute phase over its time, to its last
# op's end (the client leaves right after it: 50 ms of slack)
lo, hi = s["bytes"] / 1e6 / (over + 0.05), s["bytes"] / 1e6 / over
if not lo <= s["throughput_mbps"] <= hi:
    bad.append("Throughput %.6f MB/s, not the bytes of the execute phase over its %.3f s, %.6f MB/s"
               % (s["throughput_mbps"], over, hi))
if "Throughput %g MB/sec" % s["throughput_mbps"] not in out:
    bad.append("the Throughput line is not the JSON's %g" % s["throughput_mbps"])
if not s["max_latency_ms"] * 1e6 >= wx:
    bad.append("max_latency %.3f ms < the stuck WriteX %.3f ms" % (s["max_latency_ms"], wx / 1e6))
if "WriteX" not in pts[-1].get("ops", {}) or pts[-1]["ops"]["WriteX"][1] != wx:
    bad.append("the last point of the series lacks the stuck WriteX: %s" % pts[-1])
if bad:
    sys.exit("; ".join(bad))
print("ok: a line each second %s; Throughput %g MB/s = bytes / %.3f s (to the last stuck write); max_latency %.3f ms >= WriteX %.3f ms"
      % (secs, s["throughput_mbps"], over, s["max_latency_ms"], wx / 1e6))
PY
[ $rc = 77 ] && skip "$(cat "$TMP/chk6")"
[ $rc = 0 ] || fail "$(cat "$TMP/chk6")"
cat "$TMP/chk6"
if [ ${#trace[@]} -gt 0 ]; then
	# the main thread is the first pid strace names; from its first
	# progress line to its last wait for the clients (after that it
	# reads /proc for the disturbance figures and cleans up)
	main=$(awk 'NR == 1 {print $1}' "$TMP/st")
	awk -v m="$main" '$1 == m && /write\(1, ".*execute +1 sec/ {on = 1}
		$1 == m && on' "$TMP/st" >"$TMP/main"
	last=$(grep -n '^[0-9]* *poll(' "$TMP/main" | tail -1 | cut -d: -f1)
	# (an anonymous mmap is memory, not the filesystem: a sanitized
	# build's allocator maps its regions so, where glibc's grows the
	# heap with brk, which strace's desc class leaves out)
	head -n "${last:-0}" "$TMP/main" |
		grep -Ev '^[0-9]+ +((poll|read|write)\(|<\.\.\. (poll|read|write|mmap) resumed>|--- SIG)' |
		grep -Ev '^[0-9]+ +mmap\(NULL, [0-9]+, [A-Z_|]+, [A-Z_|]*MAP_ANONYMOUS[A-Z_|]*, -1, 0' >"$TMP/calls"
	[ ! -s "$TMP/calls" ] ||
		fail "the parent made other calls between its ticks: $(head -5 "$TMP/calls")"
	echo "ok: between its ticks the parent only polled, read its signalfd and wrote its lines"
fi

! grep -q " $MNT " /proc/mounts || fail "$MNT still mounted"
echo "all faultfs checks passed"
