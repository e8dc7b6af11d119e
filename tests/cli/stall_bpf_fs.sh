# SPDX-License-Identifier: GPL-3.0-or-later
# Why stalls wait on real filesystems with -s (O_SYNC): loop-mounted ext4
# (fsyncs wait for the jbd2 commit, woken by the jbd2 thread) and btrfs
# (log commits: woken by another client syncing the log, by the
# transaction kthread, or by the block layer's completion in a softirq).
# Which of these shows depends on the machine, so this test records what
# the stalls waited for (the top rows of the per-op table, printed) and
# asserts only what holds on any machine: every stall was traced, its
# accounting adds up, wakers are named, an interrupt is never a client,
# and a waker is an interrupt exactly when its own stack has an interrupt
# entry below the wakeup (the BPF side tells it by the preempt count or
# by counting interrupts in progress, never by the stack: two ways agree).
. "$(dirname "$0")/../lib.sh"

need_bpf

# fs TYPE: run 4 clients with -s on a fresh loop-mounted TYPE; a stall is
# 20 ms here, to catch the commits of a quiet machine too
fs() {
	mount_fs "$1" 1G
	"$DBNG" -c builtin:netbench -t 4 --warmup 1 -s --stall-threshold 20 --json "$TMP/$1.json" \
		-D "$MNT" 4 \
		>"$TMP/$1.out" 2>"$TMP/$1.err" || fail "$1: exit $?: $(cat "$TMP/$1.err")"
	unmount_fs
	python3 - "$1" "$TMP/$1.json" <<'PY' || fail "$1: the stalls are not explained"
import json, sys
fs, st = sys.argv[1], json.load(open(sys.argv[2]))["stalls"]
assert st["method"] == "bpf", (st["method"], st["method_note"])
b = st["bpf"]
print("%s: %d stalls (%d in the warmup), %d intervals traced, %d lost; "
      "interrupt wakers told by %s" % (fs, st["total"], st["warmup_total"],
      b["intervals"], b["lost"], b["irq_method"]))
import re
entry = re.compile(r"^(handle_softirqs|__do_softirq|asm_sysvec_.*|"
                   r"__?sysvec_.*|(asm_)?common_interrupt|handle_irq_event.*|"
                   r"hrtimer_interrupt|(asm_)?exc_nmi)$")
checked = 0
for e in st["events"]:
    o = e["offcpu"]
    assert o, "a stall without off-CPU figures"
    assert o["blocked_ms"] + o["runq_ms"] <= e["duration_ms"] + 0.001, e
    for w in o["waits"]:
        assert w["blocked_ms"] <= o["blocked_ms"] + 0.001, w
        if not w["woken"]:
            continue
        assert w["waker_comm"], w
        irq = w["waker_context"] in ("hardirq", "softirq", "nmi")
        if irq:
            assert w["waker_client"] is None, w
        if w["waker_stack"]:
            # the waker's own stack agrees that it was (not) an interrupt:
            # an interrupt entry below the wakeup
            frames = w["waker_stack"].split(";")
            seen = any(entry.match(f) for f in frames)
            assert seen == irq, ("context %s, stack %s" %
                                 (w["waker_context"], w["waker_stack"]))
            checked += 1
print(" %d wakers with a stack: their context agrees with it" % checked)
generic = re.compile(r"^(try_to_wake_up|__?wake_up.*|.*wake_.*function|"
                     r"complete(_all)?|wake_q_.*)$")
def short(s, waker=False):
    f = (s or "(no stack)").split(";")
    while waker and len(f) > 1 and generic.match(f[-1]):
        f.pop()
    return ";".join(f[-3:])
def who(x):
    if x["waker_context"] in ("hardirq", "softirq", "nmi"):
        return "a " + x["waker_context"]
    c = x["waker_client"]
    return "client %d" % c if type(c) is int else \
        "a client" if c is True else x["waker_comm"]
print(" the longest stalls, their longest sleep:")
for e in st["events"][:5]:
    w = e["offcpu"]["waits"][0] if e["offcpu"]["waits"] else None
    print("  %s %.3f ms: asleep %.3f, runnable %.3f ms; %s" % (
          e["op"], e["duration_ms"], e["offcpu"]["blocked_ms"],
          e["offcpu"]["runq_ms"], "no sleep" if not w else
          "%.3f ms in %s <- %s in %s" % (w["blocked_ms"], short(w["stack"]),
          who(w) if w["woken"] else "nobody yet",
          short(w["waker_stack"], True))))
print(" where the stalled ops of the measured phase spent their time:")
for p in sorted(b["waits"], key=lambda p: -p["ms"])[:6]:
    if p["kind"] != "sleep":
        print("  %10.3f ms %5d  %s: (%s)" % (p["ms"], p["count"], p["op"],
              p["kind"]))
        continue
    print("  %10.3f ms %5d  %s: %s <- %s in %s" % (p["ms"], p["count"],
          p["op"], short(p["stack"]), who(p), short(p["waker_stack"], True)))
PY
}

note "ext4 with -s"
fs ext4
note "btrfs with -s"
fs btrfs
echo "ext4 and btrfs stalls recorded"
