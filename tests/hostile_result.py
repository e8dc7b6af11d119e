# SPDX-License-Identifier: GPL-3.0-or-later
# hostile_result.py DBNG BASE.json OUT.json STRING: OUT.json is BASE.json
# (a result of a short run) with a stall, an unexpected result and an
# unknown key added, and every string in it that dbench-ng report still
# takes replaced by STRING (each tried in turn; one the reader refuses
# keeps its value, and the message refusing it is kept in
# OUT.json.refused.N for the caller to check).  STRING may hold \xNN
# escapes of its UTF-8 bytes, as printf %b does (bytes that are not
# UTF-8 become U+FFFD: JSON holds UTF-8 only).  Used by
# tests/cli/printable.sh and tests/cli/html_hostile.sh.
import json, subprocess, sys

dbng, base, out, s = sys.argv[1:5]
H = s.encode().decode("unicode_escape").encode("latin-1").decode("utf-8", "replace")
d = json.load(open(base))
d["stalls"] = {
    "enabled": True, "threshold_ms": 100.0, "total": 1,
    "per_op": {"Rename": {"count": 1, "max_ms": 200.0}},
    "events": [{"op": "Rename", "duration_ms": 200.0, "ended": True,
                "client": 0, "pid": 1, "start_s": 0.5, "start_time": "x",
                "file": "x", "line": 3, "path": "x", "host": "x", "rank": 1,
                "psi_start": None, "psi_end": None,
                "samples": [{"t_ms": 5, "state": "D", "wchan": "x",
                             "stack": "x", "repeat": 0}]}],
    "folded_stacks": [{"stack": "x", "count": 3}], "folded_other": 0,
    "note": "x"}
d["summary"]["unexpected_results"] = 1
d["summary"]["unexpected_messages"] = ["x"]
d["errors"] = ["x"]
d[H] = H  # an unknown key, ignored


def leaves(o, path=()):
    if isinstance(o, dict):
        for k, v in o.items():
            yield from leaves(v, path + (k,))
    elif isinstance(o, list):
        for i, v in enumerate(o):
            yield from leaves(v, path + (i,))
    elif isinstance(o, str):
        yield path


def at(o, path):
    for p in path[:-1]:
        o = o[p]
    return o


taken = refused = 0
for path in list(leaves(d)):
    o = at(d, path)
    old = o[path[-1]]
    o[path[-1]] = H
    json.dump(d, open(out, "w"))
    r = subprocess.run([dbng, "report", out], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
    if r.returncode:
        refused += 1
        with open("%s.refused.%d" % (out, refused), "wb") as f:
            f.write(r.stderr)
        o[path[-1]] = old
    else:
        taken += 1
json.dump(d, open(out, "w"))
print("ok: %d strings made hostile, %d refused by the reader" % (taken, refused))
