# SPDX-License-Identifier: GPL-3.0-or-later
# Stall forensics against injected delays: faultfs delays one rename every
# 3 s by 500 ms.  Each injected delay must be exactly one stall event, a
# Rename, that contains the delay as the injection log has it (it starts
# before the delay starts, by no more than the op's time outside the
# delay, and lasts at least the delay), with a kernel stack in the FUSE
# request wait; Rename MaxLat must hold the longest delay; every event
# must agree with the run's own histograms.  Nothing here rests on how
# fast the machine is: the bounds come from the log and the run.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/faultfs/lib.sh"

ffs_mount --rule 'rename delay=500 period=3000'
# threshold 250 ms: half the injected delay, and far above what a FUSE op
# costs (an op slower than that for other reasons is allowed: it must be
# in the histograms, see stall_check, and overlap no injection)
"$DBNG" -c builtin:netbench -t 10 --warmup 0 --stall-threshold 250 --json "$TMP/r.json" -D "$MNT" 1 >"$TMP/out" 2>"$TMP/err" ||
	fail "exit $?: $(cat "$TMP/err")"
ffs_umount
sed -n '/^ Stalls/,/^$/p' "$TMP/out"

stall_check "$TMP/r.json"

# Every stall duration is the latency the client measured for that op, to
# the microsecond: the longest is the Rename max of the percentile table
# (lat_ns.max) and the classic MaxLat, and each is the exact max of the
# second it ended in (points[].ops: each second holds at most one delay,
# and no other Rename comes near it).  The watchdog looks every 5 ms and
# the client runs on at once after the delay, so it nearly always finds
# the client past its next ops: a duration of its own clock (up to 5 ms
# too long, issue 13) matches none of these.
max_us=$(awk '/^ Operation/ {t=1; next} t && $1 == "Rename" {print $4; exit}' "$TMP/out")
python3 - "$TMP/r.json" "$max_us" <<'PY' >"$TMP/exact" 2>&1 || fail "$(cat "$TMP/exact")"
import json, sys
d = json.load(open(sys.argv[1]))
us = lambda ns: int(round(ns / 1e3))
evs = [e for e in d["stalls"]["events"] if e["ended"]]
lat = [o for o in d["ops"] if o["name"] == "Rename"][0]["lat_ns"]["max"]
pts = d["time_series"]["points"]
bad = []
if not evs:
    bad.append("no stall event")
elif us(evs[0]["duration_ms"] * 1e6) != us(lat):
    bad.append("longest stall %.6f ms, Rename max %.6f ms" % (evs[0]["duration_ms"], lat / 1e6))
if "%.3f" % (lat / 1e6) != sys.argv[2]:
    bad.append("Rename MaxLat %s, lat_ns.max %d" % (sys.argv[2], lat))
for e in evs:
    if e["op"] != "Rename":
        continue
    dur = us(e["duration_ms"] * 1e6)
    end = e["start_s"] + e["duration_ms"] / 1e3
    seconds = [p for p in pts if p["t"] - p["dur"] - 0.05 <= end <= p["t"] + 0.05]
    maxes = [us(p["ops"]["Rename"][1]) for p in seconds if "Rename" in p.get("ops", {})]
    if end > pts[-1]["t"] - 0.05 and dur <= us(lat):
        print("ok: a %.3f ms Rename stall ended at the stop" % e["duration_ms"])
    elif dur not in maxes:
        bad.append("stall of %.6f ms at %.3f s: the Rename max of its second is %s"
                   % (e["duration_ms"], e["start_s"], [m / 1e3 for m in maxes]))
    else:
        print("ok: Rename stall of %.6f ms is the exact max of its second" % e["duration_ms"])
if bad:
    sys.exit("; ".join(bad))
print("ok: the longest stall is Rename lat_ns.max and MaxLat %s ms" % sys.argv[2])
PY
cat "$TMP/exact"

# the text summary is the JSON's
summary=$(grep '^ Stalls:' "$TMP/out") || fail "no stall section"
want=$(python3 - "$TMP/r.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["stalls"]
print(" Stalls: %d op%s ran longer than 250 ms (%s)" % (s["total"],
      "" if s["total"] == 1 else "s",
      "; ".join("%s %d, max %.3f ms" % (k, v["count"], v["max_ms"])
                for k, v in s["per_op"].items())))
PY
)
[ "$summary" = "$want" ] || fail "text summary '$summary' is not the JSON's '$want'"

max=$(awk '/^ Operation/ {t=1; next} t && $1 == "Rename" {print $4; exit}' "$TMP/out")
# <ns> <iso> rename PATH delay=500 start|end (the start stamped when faultfs
# decided, tests/faultfs/README.md); the events' start_time and the log's
# times are both wall-clock milliseconds, truncated: 2 ms of slack
python3 - "$LOG" "$TMP/r.json" "$max" "$TMP/out" <<'PY' >"$TMP/chk" ||
import calendar, datetime, json, sys

def ms(iso):
    t = datetime.datetime.strptime(iso, "%Y-%m-%dT%H:%M:%S.%fZ")
    return calendar.timegm(t.timetuple()) * 1000 + t.microsecond / 1000

inj, bad, out = [], [], []
for line in open(sys.argv[1]):
    ns, iso, op, path, action, event = line.split()
    if (op, action) != ("rename", "delay=500"):
        bad.append("unexpected injection: " + line.strip())
    elif event == "start":
        inj.append([int(ns), ms(iso), None])
    else:
        inj[-1][2] = int(ns)
d = json.load(open(sys.argv[2]))
evs = d["stalls"]["events"]
text = open(sys.argv[4]).read()
if len(inj) < 2:
    bad.append("%d delays injected in 10 s" % len(inj))
matched = set()
dmax = 0
# the time the op waited for a CPU (BPF; 0 without it): beside other load
# an op lasts its delay plus that, which no fixed slack bounds
def runq(e):
    return (e.get("offcpu") or {}).get("runq_ms", 0)
for s_ns, s_ms, e_ns in inj:
    dl = (e_ns - s_ns) / 1e6
    dmax = max(dmax, dl)
    over = [i for i, e in enumerate(evs)
            if ms(e["start_time"]) <= s_ms + dl + 2 and
            s_ms <= ms(e["start_time"]) + e["duration_ms"] + 2]
    if len(over) != 1:
        bad.append("delay at %.0f: %d events overlap it" % (s_ms, len(over)))
        continue
    e = evs[over[0]]
    matched.add(over[0])
    before = s_ms - ms(e["start_time"])
    # the op starts before faultfs sees it and spends at most its time
    # beyond the delay before it; it lasts the delay and less than half a
    # delay more (a delay counted twice is caught)
    if e["op"] != "Rename" or not e["ended"]:
        bad.append("the delay at %s is in a %s event" % (e["start_time"], e["op"]))
    elif not -2 <= before <= e["duration_ms"] - dl + 2:
        bad.append("event at %s, %.3f ms; delay %.3f ms from %.0f ms after it"
                   % (e["start_time"], e["duration_ms"], dl, before))
    elif not dl - 0.001 <= e["duration_ms"] < dl + 250 + runq(e):
        bad.append("event of %.3f ms (%.3f of them waiting for a CPU) for a delay of %.3f ms"
                   % (e["duration_ms"], runq(e), dl))
    elif e["start_time"] not in text:
        bad.append("event at %s not in the text report" % e["start_time"])
    else:
        out.append("ok: delay of %.3f ms at %s: Rename stall of %.3f ms, started %.0f ms before it"
                   % (dl, e["start_time"], e["duration_ms"], before))
for i, e in enumerate(evs):
    if i not in matched:
        out.append("note: a %s of %.3f ms at %s, not injected (a slow op, in the histogram)"
                   % (e["op"], e["duration_ms"], e["start_time"]))
m = float(sys.argv[3])
# MaxLat is the longest event's duration (each delay has one: above)
mq = max([runq(evs[i]) for i in matched] or [0])
if not dmax <= m < dmax + 250 + mq:
    bad.append("Rename MaxLat %.3f ms, longest delay %.3f ms" % (m, dmax))
else:
    out.append("ok: Rename MaxLat %.3f ms for a longest delay of %.3f ms" % (m, dmax))
if bad:
    sys.exit("; ".join(bad))
print("\n".join(out))
PY
	fail "$(cat "$TMP/chk")"
cat "$TMP/chk"

grep -q 'fuse' <(sed -n '/^ Stalls/,/^$/p' "$TMP/out") ||
	fail "no FUSE frame in the stall stacks"
grep -Eq 'request_wait_answer|fuse_simple_request|fuse_' "$TMP/r.json" ||
	fail "the JSON stacks lack the FUSE wait"
echo "ok: the stacks show the FUSE request wait"
echo "all FUSE stall checks passed"
