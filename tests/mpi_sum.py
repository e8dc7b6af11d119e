# SPDX-License-Identifier: GPL-3.0-or-later
# mpi_sum.py DIR R C: the result of a run across R ranks of C clients each
# (DIR/run.json, rank 0's --json) is exactly the sum of its ranks' own
# (DIR/rank-N.json, --rank-json): op counts, bytes, errors, every
# histogram bin, min, max, sum; the hosts section and the clients by id;
# the time series of every rank has the same points, and the run's point
# i is the sum of the ranks' points i (lines, bytes, calls per op):
# aligned on the barrier.  Used by tests/cli/mpi.sh and mpi_smb.sh.
import json, sys
d, R, C = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
run = json.load(open(d + "/run.json"))
ranks = [json.load(open("%s/rank-%d.json" % (d, r))) for r in range(R)]
bad = []
def need(ok, what):
    if not ok:
        bad.append(what)
need(run["status"] == "ok", "status " + run["status"])
need(run["summary"]["clients"] == R * C, "clients")
ops = {o["name"]: o for o in run["ops"]}
names = set(ops)
for r in ranks:
    names |= {o["name"] for o in r["ops"]}
for n in sorted(names):
    m = ops.get(n)
    per = [next((o for o in r["ops"] if o["name"] == n), None) for r in ranks]
    per = [o for o in per if o]
    need(m is not None, n + " missing")
    if not m:
        continue
    for k in ("count", "bytes", "errors"):
        need(m[k] == sum(o[k] for o in per), "%s %s" % (n, k))
    lat = m["lat_ns"]
    need(lat["sum"] == sum(o["lat_ns"]["sum"] for o in per), n + " sum")
    need(lat["max"] == max(o["lat_ns"]["max"] for o in per), n + " max")
    need(lat["min"] == min(o["lat_ns"]["min"] for o in per), n + " min")
    need(lat["overflow"] == sum(o["lat_ns"]["overflow"] for o in per),
         n + " overflow")
    want = {}
    for o in per:
        for lo, c in o["lat_ns"]["bins"]:
            want[lo] = want.get(lo, 0) + c
    need(dict((lo, c) for lo, c in lat["bins"]) == want, n + " bins")
# the hosts section: one row per rank, its own counts
hosts = run["hosts"]
need([h["rank"] for h in hosts] == list(range(R)), "hosts ranks")
need([h["first_client"] for h in hosts] == [C * r for r in range(R)],
     "first clients")
for h, r in zip(hosts, ranks):
    for o in r["ops"]:
        if not o["count"] and o["name"] not in h["ops"]:
            continue  # not run (a backend cannot do it): no row
        need(o["name"] in h["ops"], "host %d %s" % (h["rank"], o["name"]))
        if o["name"] not in h["ops"]:
            continue
        need(h["ops"][o["name"]]["count"] == o["count"],
             "host %d %s count" % (h["rank"], o["name"]))
        need(abs(h["ops"][o["name"]]["max_ms"] * 1e6 - o["lat_ns"]["max"]) < 1,
             "host %d %s max" % (h["rank"], o["name"]))
# clients by id: rank r has clients C r to C r + C - 1
need(len(run["clients"]) == R * C, "clients rows")
for r, rk in enumerate(ranks):
    need(len(rk["clients"]) == C, "rank %d clients" % r)
    for i, c in enumerate(rk["clients"]):
        need(run["clients"][C * r + i]["lines"] == c["lines"],
             "client %d lines" % (C * r + i))
# the series: the same points on every rank, the run's the sum of theirs
pts = [r["time_series"]["points"] for r in ranks]
mp = run["time_series"]["points"]
need(all(len(p) == len(mp) for p in pts),
     "points: run %d, ranks %s" % (len(mp), [len(p) for p in pts]))
skew = 0
for i in range(min([len(mp)] + [len(p) for p in pts])):
    need(all(p[i]["warmup"] == mp[i]["warmup"] for p in pts), "warmup %d" % i)
    for k in ("lines", "bytes"):
        need(mp[i][k] == sum(p[i][k] for p in pts), "point %d %s" % (i, k))
    for n in mp[i]["ops"]:
        need(mp[i]["ops"][n][0] ==
             sum(p[i]["ops"].get(n, [0])[0] for p in pts),
             "point %d %s calls" % (i, n))
    if mp[i]["warmup"] and not mp[i + 1]["warmup"]:
        # the end of the warmup is the same instant after each release
        need(all(p[i]["t"] == 1.0 for p in pts), "warmup end %d" % i)
    skew = max([skew] + [abs(p[i]["t"] - mp[i]["t"]) for p in pts])
if bad:
    sys.exit("; ".join(bad))
print("ok: %d ops, %d points, ticks sampled within %.1f ms of rank 0's, "
      "releases within %.3f ms of rank 0's (+- %.3f)"
      % (sum(o["count"] for o in run["ops"]), len(mp), skew * 1e3,
         max(abs(h["release_ms"]) for h in hosts),
         max(h["release_err_ms"] for h in hosts)))
