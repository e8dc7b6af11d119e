# SPDX-License-Identifier: GPL-3.0-or-later
# A stall that waited for a CPU says so (docs/design.md §9, issue 24):
# one client and a CPU burner at a higher priority pinned to the same CPU
# (the scheduler gives the burner most of it, so the client's ops are
# preempted for many ms at a time, inside an op nearly every time: the
# client spends almost all its time in ops).  With a 1 ms threshold
# there are stalls, and every one that BPF shows runnable more than half
# its time must carry the headline "waiting for a CPU (X of Y ms)" right
# under its heading, before its /proc stack, and name a holder that the
# JSON has too; at least one such stall must exist.  No figure of time
# is compared with a bound of ours: only the BPF figures' own halves.
. "$(dirname "$0")/../lib.sh"

need_bpf
command -v taskset >/dev/null || skip "no taskset (util-linux)"
D=$TMP/d
mkdir -p "$D"
mount -t tmpfs tmpfs "$D" || skip "cannot mount a tmpfs"
at_exit umount "$D"

nice -n -10 taskset -c 0 python3 -c 'import ctypes
ctypes.CDLL(None).prctl(15, b"dbng-burner", 0, 0, 0)
while True:
    pass' &
B=$!
at_exit "kill $B"
wait_until 10 eval '[ "$(cat /proc/$B/comm 2>/dev/null)" = dbng-burner ]' ||
	fail "the burner did not start"
expect_rc 0 taskset -c 0 "$DBNG" -t 4 --warmup 0 --stall-threshold 1 -D "$D" \
	--json "$TMP/r.json" 1 >"$TMP/out" 2>"$TMP/err"
kill "$B"
! grep -q 'BPF' "$TMP/err" || fail "a BPF message on stderr: $(cat "$TMP/err")"
sed -n '/^ Stalls/,/^$/p' "$TMP/out" >"$TMP/stalls"
head -20 "$TMP/stalls"
python3 - "$TMP/r.json" "$TMP/stalls" <<'PY' || fail "runnable stalls are not headed so"
import json, re, sys
d = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
st = d["stalls"]
assert st["method"] == "bpf", (st["method"], st["method_note"])
# the events as printed: heading, then the lines up to the next one
blocks = re.split(r"\n(?=  #\d+ )", text)[1:]
shown = 0
for e, b in zip(st["events"], blocks):
    o = e["offcpu"]
    lines = b.split("\n")
    head = [l for l in lines if l.startswith("     waiting for a CPU (")]
    if not (2 * o["runq_ms"] > e["duration_ms"]):
        assert not head, (e, b)
        continue
    want = "     waiting for a CPU (%.1f of %.1f ms)" % (o["runq_ms"],
                                                    e["duration_ms"])
    assert lines[1].startswith(want), (want, b)
    h = o.get("holder")
    if h:
        assert h["kind"] in ("other", "kernel_thread", "client", "parent"), h
        assert h["comm"] in lines[1], (h, lines[1])
        assert h["ms"] <= o["runq_ms"] + 0.001, (h, o)
    stack = [i for i, l in enumerate(lines) if l.startswith("     at ")]
    assert not stack or stack[0] > 1, b
    shown += 1
assert shown, "no stall mostly runnable among %d" % len(st["events"])
print("ok: %d of the %d stalls printed headed as waiting for a CPU" %
      (shown, len(blocks)))
PY
