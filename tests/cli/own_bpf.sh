# SPDX-License-Identifier: GPL-3.0-or-later
# Own latencies (docs/regressions.md, "Own latency"; src/engine/foreign*.c):
# the wait of the clients for a CPU that another program held is
# measured and taken out of each op's latency.
#  1. --no-bpf beside a CPU burner on the clients' CPU: method
#     schedstat, the note, run-queue wait but no own histograms, and the
#     busy line says comparisons are unreliable.
#  2. BPF, a quiet tmpfs run (no kernel thread does its work): every op
#     has its own histogram of as many calls, never above its latency,
#     and the foreign fields exist.
#  3. BPF beside the burner pinned to the clients' CPU: the burner must
#     take turns with the client on that CPU, so the client waits behind
#     it (what the scheduler guarantees two runnable tasks on one CPU,
#     however loaded the machine): foreign_ns > 0, own < raw, holders
#     named, the busy line naming the first.
# No figure of time is compared with a bound: only signs and orders.
. "$(dirname "$0")/../lib.sh"

need_root "pinning and BPF"
command -v taskset >/dev/null || skip "no taskset (util-linux)"
D=$TMP/d
mkdir -p "$D"
mount -t tmpfs tmpfs "$D" || skip "cannot mount a tmpfs"
at_exit umount "$D"

BURNER_PID=
burner() {
	taskset -c 0 python3 -c 'import ctypes
ctypes.CDLL(None).prctl(15, b"dbng-burner", 0, 0, 0)
while True:
    pass' &
	BURNER_PID=$!
	at_exit "kill $BURNER_PID"
	wait_until 10 eval '[ "$(cat /proc/$BURNER_PID/comm 2>/dev/null)" = dbng-burner ]' ||
		fail "the burner did not start"
}
burner_stop() { kill "$BURNER_PID"; wait "$BURNER_PID" 2>/dev/null; }

check() { # JSON MODE
	python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
mode = sys.argv[2]
f = d["foreign"]
print("foreign:", {k: f[k] for k in ("method", "note", "wait_ns", "runq_ns", "own_mbps")}, f["holders"][:2])
ops = [o for o in d["ops"] if o["count"]]
assert ops, "no op ran"
if mode == "schedstat":
    assert f["method"] == "schedstat" and f["note"] == "--no-bpf", f
    assert f["wait_ns"] == 0 and not f["holders"] and f["own_mbps"] == 0, f
    # a client and the burner on one CPU: the client queued behind it
    assert f["runq_ns"] > 0, f
    for o in ops:
        assert "own" not in o and o["foreign_ns"] == 0, o["name"]
    sys.exit(0)
assert f["method"] == "bpf" and f["note"] is None, f
for o in ops:
    own, lat = o["own"], o["lat_ns"]
    assert own["count"] == o["count"], (o["name"], own["count"], o["count"])
    assert sum(b[1] for b in own["bins"]) + own["overflow"] == own["count"]
    assert own["sum"] + o["foreign_ns"] == lat["sum"], o["name"]
    assert own["max"] <= lat["max"] and own["min"] <= lat["min"], o["name"]
assert f["wait_ns"] == sum(o["foreign_ns"] for o in d["ops"]), f
assert f["runq_ns"] >= 0 and f["own_mbps"] >= 0, f
# the time lost to other programs: the foreign wait, or the run-queue
# wait up to the CPU seconds the others had, whichever is more
m, n = d["summary"]["measured_s"], d["summary"]["clients"]
oc = (d.get("disturbance") or {}).get("other_cpus", 0)
lost = max(f["wait_ns"], min(f["runq_ns"], oc * m * 1e9)) / 1e9
want = sum(o["bytes"] for o in d["ops"]) / 1e6 / (m - lost / n)
assert abs(f["own_mbps"] - want) <= 1e-6 * want, (f["own_mbps"], want, oc)
if mode == "busy":
    assert f["wait_ns"] > 0, f
    assert any(o["own"]["sum"] < o["lat_ns"]["sum"] for o in ops)
    assert f["own_mbps"] > 0, f
    # who held the CPU: the burner, unless other programs of a loaded
    # machine took more of it (4 rows are kept): some, never nothing
    assert f["holders"] and all(h["comm"] and h["ns"] > 0
                                for h in f["holders"]), f["holders"]
    print("ok: %.1f ms of %d ops' latency was other programs'" %
          (f["wait_ns"] / 1e6, sum(o["count"] for o in ops)))
PY
}

note "1. --no-bpf beside a burner on the clients' CPU"
burner
expect_rc 0 taskset -c 0 "$DBNG" -t 3 --warmup 1 --no-bpf -D "$D" \
	--json "$TMP/s.json" 1 >"$TMP/s.out" 2>"$TMP/s.err"
burner_stop
check "$TMP/s.json" schedstat || fail "schedstat figures"
grep -q '^ Busy machine: .*comparisons of this run are unreliable: own latencies need BPF (without --no-bpf' \
	"$TMP/s.out" || fail "no busy line without BPF: $(grep -B2 Operation "$TMP/s.out")"

need_bpf
note "2. BPF, quiet"
expect_rc 0 "$DBNG" -t 3 --warmup 1 -D "$D" --json "$TMP/q.json" 2 \
	>"$TMP/q.out" 2>"$TMP/q.err"
check "$TMP/q.json" quiet || fail "own latencies of a quiet run"

note "3. BPF beside a burner on the clients' CPU"
burner
expect_rc 0 taskset -c 0 "$DBNG" -t 3 --warmup 1 -D "$D" \
	--json "$TMP/b.json" 1 >"$TMP/b.out" 2>"$TMP/b.err"
burner_stop
check "$TMP/b.json" busy || fail "own latencies beside a burner"
grep -E '^ Busy machine: other programs held the CPU for [0-9.]+ % of the clients. time \(most: [^)]+\); compare and check will decide on own latencies$' \
	"$TMP/b.out" || fail "no busy line: $(grep -B2 Operation "$TMP/b.out")"
"$DBNG" report "$TMP/b.json" | grep -q '^ Busy machine: ' ||
	fail "the report from the JSON has no busy line"
echo "ok"
