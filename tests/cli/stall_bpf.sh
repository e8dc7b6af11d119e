# SPDX-License-Identifier: GPL-3.0-or-later
# Why a stall waited, traced with BPF (src/engine/offcpu*.c): two clients
# take turns holding a POSIX lock for 300 ms (LockX is fcntl F_SETLKW, so
# the other one's LockX sleeps until the unlock).  Each LockX stall must
# name, for its long sleep (one with stacks), the other client as the
# waker, in the kernel's lock-release path, with the sleep in the lock
# wait; its time asleep, runnable and on a CPU adds up to no more than
# the op; the per-op table says the same; the text report shows it and
# re-renders it from the JSON.  Nothing rests on timing: under load a
# LockX may wait mostly for a CPU, and then its sleep is short and
# stackless, which the checks allow; the run is long enough that most are
# not (at least one must be).  A stall whose intervals were not all
# seen (a switch of a client can come without a sched_switch event:
# stalls.bpf.lost) must say it is a lower bound, and is not held to the
# rest.
. "$(dirname "$0")/../lib.sh"

need_bpf
D=$TMP/d
mkdir -p "$D"
shared_lock_load

expect_rc 0 "$DBNG" -t 3 --warmup 0 -c "$TMP/lock.load" --json "$TMP/r.json" \
	-D "$D" 2 >"$TMP/out" 2>"$TMP/err"
! grep -q 'BPF' "$TMP/err" || fail "a BPF message on stderr: $(cat "$TMP/err")"
sed -n '/^ Stalls/,/^$/p' "$TMP/out" >"$TMP/stalls"
cat "$TMP/stalls"
stall_check "$TMP/r.json"
python3 - "$TMP/r.json" <<'PY' || fail "the lock waits are not explained"
import json, re, sys
d = json.load(open(sys.argv[1]))
st = d["stalls"]
assert st["method"] == "bpf", (st["method"], st["method_note"])
bpf = st["bpf"]
assert bpf["intervals"] > 0, bpf
if bpf["lost"]:
    print("note: %d intervals lost" % bpf["lost"])
# the lock-release path: the unlocking fcntl, or a close that drops the
# lock (the last turn, when the run ends)
release = re.compile(r"posix_lock_inode|locks_remove_posix|locks_wake_up")
named = 0
for e in st["events"]:
    o = e["offcpu"]
    assert o is not None, "event without off-CPU figures: %s" % e
    assert o["blocked_ms"] + o["runq_ms"] <= e["duration_ms"] + 0.001, e
    if o["partial"]:
        print("note: LockX of %.3f ms: lower bounds (%d sleeps)" %
              (e["duration_ms"], o["sleeps"]))
        continue
    assert o["sleeps"] >= 1 and o["waits"], e
    w = o["waits"][0]  # the longest sleep
    assert w["blocked_ms"] <= o["blocked_ms"] + 0.001, e
    if not w["stack"]:
        print("note: LockX of %.3f ms: its longest sleep %.3f ms had no "
              "stack (runnable %.3f ms)" % (e["duration_ms"],
              w["blocked_ms"], o["runq_ms"]))
        continue
    assert "fcntl_setlk" in w["stack"], w["stack"]
    assert w["woken"] and w["waker_context"] == "task", w
    assert w["waker_client"] == 1 - e["client"], \
        "client %d woken by %s" % (e["client"], w["waker_client"])
    assert w["waker_comm"] == "dbench-ng", w
    assert w["waker_stack"] and release.search(w["waker_stack"]), w
    named += 1
    print("ok: client %d's LockX %.3f ms: asleep %.3f ms in fcntl_setlk, "
          "woken by client %d in %s" % (e["client"], e["duration_ms"],
          w["blocked_ms"], w["waker_client"],
          w["waker_stack"].split(";")[-6]))
assert named, "no LockX stall with a stack"
# the per-op table: LockX's most time is a lock wait woken by a client,
# and its rows add up to the stalled LockX calls (all ended, none in the
# warmup: there is none)
rows = [p for p in bpf["waits"] if p["op"] == "LockX"]
top = max((p for p in rows if p["kind"] == "sleep"), key=lambda p: p["ms"])
assert top["waker_client"] and "fcntl_setlk" in top["stack"], top
assert release.search(top["waker_stack"]), top
total = sum(p["ms"] for p in rows)
want = sum(e["duration_ms"] for e in st["events"] if e["ended"])
assert abs(total - want) < 0.01 * len(st["events"]) + 0.01, (total, want)
print("ok: the LockX rows add up to its stalls: %.3f ms" % total)
PY
grep -Eq 'woken by client [01] \(pid [0-9]+\) in .*(posix_lock_inode|locks_remove_posix)' \
	"$TMP/stalls" || fail "no 'woken by client' line with the release path"
grep -q '^  where the stalled ops spent their time (BPF' "$TMP/stalls" ||
	fail "no per-op table"
grep -Eq '^  traced with BPF: [0-9]+ off-CPU intervals of the clients, (none lost|[0-9]+ lost)' \
	"$TMP/stalls" || fail "no line saying how the stalls were traced"
! grep -q 'execute\|Operation' "$TMP/stalls" ||
	fail "the stall section contains a word dbench parsers look for"
tail -1 "$TMP/out" | grep -q '^Throughput ' || fail "Throughput not last"
expect_rc 0 "$DBNG" report "$TMP/r.json" >"$TMP/rep"
sed -n '/^ Stalls/,/^$/p' "$TMP/rep" | diff - "$TMP/stalls" ||
	fail "the re-rendered stall section differs"

note "the HTML page has the table and the wakers on the stall markers"
expect_rc 0 "$DBNG" report "$TMP/r.json" --html "$TMP/r.html" >/dev/null
grep -q '<h3>Where the stalled ops spent their time</h3>' "$TMP/r.html" ||
	fail "no table of where the stalled ops spent their time"
grep -Eq '<title>LockX [0-9.]+ ms, client [01], from [0-9.]+ s \(watchdog\), woken by client [01] \(pid [0-9]+\) in ' \
	"$TMP/r.html" || fail "no waker on the stall markers"
echo "all BPF stall checks passed"
