# SPDX-License-Identifier: GPL-3.0-or-later
# Why a stall waited, traced with BPF, against an injected delay: faultfs
# holds one rename every 3 s for 500 ms.  The Rename stall that contains
# a delay (as the injection log has it) must have slept at least most of
# it in the FUSE request wait of a rename, and have been woken by
# faultfs, not by a client nor an interrupt, in the FUSE device's write
# path (its answer to the request); the per-op table says the same.
. "$(dirname "$0")/../lib.sh"
need_bpf
. "$ROOT/tests/faultfs/lib.sh"

ffs_mount --rule 'rename delay=500 period=3000'
"$DBNG" -c builtin:netbench -t 5 --warmup 0 --stall-threshold 250 --json "$TMP/r.json" -D "$MNT" 1 \
	>"$TMP/out" 2>"$TMP/err" || fail "exit $?: $(cat "$TMP/err")"
ffs_umount
sed -n '/^ Stalls/,/^$/p' "$TMP/out"
stall_check "$TMP/r.json"
python3 - "$LOG" "$TMP/r.json" <<'PY' || fail "the FUSE delays are not explained"
import json, re, sys
delays = []
for line in open(sys.argv[1]):
    ns, iso, op, path, action, event = line.split()
    if event == "start":
        delays.append([int(ns), None])
    else:
        delays[-1][1] = int(ns)
assert delays, "no delay injected"
st = json.load(open(sys.argv[2]))["stalls"]
assert st["method"] == "bpf", (st["method"], st["method_note"])
dmin = min(e - s for s, e in delays if e) / 1e6
renames = [e for e in st["events"] if e["op"] == "Rename" and e["ended"]
           and e["duration_ms"] >= dmin - 1]
assert renames, "no Rename stall as long as a delay (%.3f ms)" % dmin
for e in renames:
    w = e["offcpu"]["waits"][0]  # the longest sleep
    assert w["blocked_ms"] >= dmin / 2, (w["blocked_ms"], dmin, e)
    assert re.search(r"request_wait_answer", w["stack"] or ""), w
    assert re.search(r"fuse_rename", w["stack"]), w
    assert w["woken"] and w["waker_context"] == "task", w
    assert w["waker_client"] is None and w["waker_comm"] == "faultfs", w
    assert re.search(r"fuse_dev_(do_)?write", w["waker_stack"] or ""), w
    assert re.search(r"fuse_request_end", w["waker_stack"]), w
    print("ok: Rename %.3f ms: asleep %.3f ms in request_wait_answer, "
          "woken by faultfs (pid %d) in fuse_dev_write/fuse_request_end"
          % (e["duration_ms"], w["blocked_ms"], w["waker_pid"]))
top = max((p for p in st["bpf"]["waits"] if p["op"] == "Rename"
           and p["kind"] == "sleep"), key=lambda p: p["ms"])
assert top["waker_comm"] == "faultfs" and not top["waker_client"], top
assert "fuse_request_end" in top["waker_stack"], top
print("ok: the Rename row with the most time is the FUSE answer")
PY
grep -Eq 'woken by faultfs \(pid [0-9]+\) in .*fuse_request_end' "$TMP/out" ||
	fail "the text report does not name faultfs as the waker"
echo "all FUSE BPF checks passed"
