# SPDX-License-Identifier: GPL-3.0-or-later
# Paced runs on faultfs: response time from each op's intended start shows
# the ops that queued behind a stall, which the service times hide (issue
# 13 item 10; docs/design.md §5).  faultfs delays one rename a pass by
# 500 ms ('rename:*slow* delay=500'), in
#  (1) a timestamped loadfile: a line every 10 ms; the client, stuck 500 ms
#      in the Rename, then rushes through the ~50 lines due meanwhile, each
#      measured from its own time;
#  (2) the same kind of pass paced by -R: the Rename and the 10 lines
#      after it move no bytes, so the pacer holds none of the 11 lines
#      after it: the byte schedule had them all due with the Rename, and
#      they run late, back to back.
# The service times show one slow op per stall; the response times show
# the ops behind it, and the late starts count them.  Every bound holds
# on a loaded machine: a slower machine only makes more ops late, and the
# number of lines due during a stall is the schedule's, not the
# machine's.  The exact figures are the fake-clock unit tests'
# (tests/unit/test_pace.c).  The JSON, the series, "report" and the HTML
# page carry the same figures; an unpaced run has none.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/faultfs/lib.sh"

command -v python3 >/dev/null || skip "python3 not installed"

# check JSON OUT MINLATE: the response times of run JSON (stdout OUT)
# against its service times; at least MINLATE late starts, and as many
# more responses than service times of 100 ms or more
check() {
	python3 - "$1" "$2" "$3" <<'PY' >"$TMP/chk" 2>&1 || fail "$(cat "$TMP/chk")"
import json, re, sys
d = json.load(open(sys.argv[1]))
out = open(sys.argv[2]).read()
minlate = int(sys.argv[3])
bad = []
resp = d.get("response")
if not resp:
    sys.exit("no 'response' object in a paced run's JSON")

def over(h, ns):
    return sum(c for lo, c in h["bins"] if lo >= ns) + h["overflow"]

svc100 = resp100 = late = nresp = 0
other_max = 0
for o in d["ops"]:
    r = o.get("resp_ns")
    if r is None:
        bad.append("%s has no response times" % o["name"])
        continue
    if r["count"] != o["count"]:
        bad.append("%s: %d response times for %d ops" % (o["name"], r["count"], o["count"]))
    if r["max"] < o["lat_ns"]["max"] or r["sum"] < o["lat_ns"]["sum"]:
        bad.append("%s: a response time shorter than the service time" % o["name"])
    svc100 += over(o["lat_ns"], 100e6)
    resp100 += over(r, 100e6)
    late += r["late_starts"]
    nresp += r["count"]
    if o["name"] != "Rename":
        other_max = max(other_max, o["lat_ns"]["max"])
ren = [o for o in d["ops"] if o["name"] == "Rename"]
if not ren or ren[0]["lat_ns"]["max"] < 500e6:
    bad.append("no Rename of 500 ms or more: the delay was not seen")
if late != resp["late_starts"] or nresp != resp["ops"]:
    bad.append("response totals %d/%d, ops say %d/%d" % (resp["late_starts"], resp["ops"], late, nresp))
if late < minlate:
    bad.append("%d late starts, expected %d or more" % (late, minlate))
if resp100 < svc100 + minlate:
    bad.append("%d responses of 100 ms or more, %d service times: "
               "expected %d more" % (resp100, svc100, minlate))
# the series holds a response time for each service time it holds (an
# op that ended less than a second after the end is in the tables, not
# in the series: docs/design.md §4), their late starts, and a point
# with a response as long as the stall
pts = [p for p in d["time_series"]["points"] if not p["warmup"]]
if d["time_series"].get("resp_op_fields") != ["count", "max_ns", "p99_ns", "late"]:
    bad.append("time_series.resp_op_fields: %s" % d["time_series"].get("resp_op_fields"))
sc = sum(v[0] for p in pts for v in p.get("resp_ops", {}).values())
ss = sum(v[0] for p in pts for v in p["ops"].values())
sl = sum(v[3] for p in pts for v in p.get("resp_ops", {}).values())
if sc != ss or not nresp - 1 <= sc <= nresp or not late - 1 <= sl <= late:
    bad.append("the series holds %d response times, %d service times and "
               "%d late starts, the ops %d, %d and %d"
               % (sc, ss, sl, nresp, nresp, late))
if max((v[1] for p in pts for v in p.get("resp_ops", {}).values()), default=0) < 500e6:
    bad.append("no point of the series has a response of 500 ms or more")
# the text says the same, before the classic table
m = re.search(r"^ Late starts: (\d+) of (\d+) ops began more than 10 ms "
              r"after the intended start", out, re.M)
if not m or (int(m.group(1)), int(m.group(2))) != (late, nresp):
    bad.append("text late starts %s, JSON %d of %d" % (m and m.groups(), late, nresp))
i, j = out.find(" Response ms "), out.find(" Operation ")
if not 0 < out.find(" Latency ms ") < i < j:
    bad.append("the response table is not between the percentile table and the classic one")
if out.rstrip("\n").split("\n")[-1].find("Throughput ") != 0:
    bad.append("the Throughput line is not last")
if bad:
    sys.exit("; ".join(bad))
print("ok: %d late starts of %d ops; %d responses of 100 ms or more, %d "
      "service times (the other ops' longest %.3f ms); the series agrees"
      % (late, nresp, resp100, svc100, other_max / 1e6))
PY
	cat "$TMP/chk"
}

# the run's text and HTML again from its JSON: the same response section
rerender() {
	"$DBNG" report "$1" --html "$TMP/r.html" >"$TMP/rep" ||
		fail "report $1 failed"
	diff <(sed -n '/^ Response ms/,/^$/p' "$2") \
		<(sed -n '/^ Response ms/,/^$/p' "$TMP/rep") >/dev/null ||
		fail "report re-renders another response section: $(diff <(sed -n '/^ Response ms/,/^$/p' "$2") <(sed -n '/^ Response ms/,/^$/p' "$TMP/rep"))"
	grep -q 'data-table="response"' "$TMP/r.html" ||
		fail "no response table in the HTML page"
	grep -q '<use href="#sr-' "$TMP/r.html" ||
		fail "no response line in the HTML spectrum"
	python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' \
		"$TMP/r.html" 2>"$TMP/xml.err" ||
		fail "the HTML page is not well-formed: $(tail -1 "$TMP/xml.err")"
	echo "ok: report and the HTML page show the same response times"
}

ffs_mount --rule 'rename:*slow* delay=500'

note "(1) a timestamped loadfile: a line every 10 ms, a 500 ms Rename at 0.5 s"
# one pass of 2 s: the file, cheap writes until 0.49 s, the Rename at
# 0.5 s, then a line every 10 ms until 1.99 s (~50 of them due during
# the stall), the file removed at 1.995 s
python3 - >"$TMP/ts.load" <<'PY'
p = r'"\clients\client1\%s"'
print(r'0.000 Mkdir "\clients\client1" NT_STATUS_OK')
print('0.000 NTCreateX %s 0x0 0x5 1 NT_STATUS_OK' % (p % "f.dat"))
for i in range(1, 49):
    print('%.3f WriteX 1 %d 4096 4096 NT_STATUS_OK' % (i / 100, 4096 * i))
print('0.490 Close 1 NT_STATUS_OK')
print('0.500 Rename %s %s NT_STATUS_OK' % (p % "f.dat", p % "slow.dat"))
for i in range(51, 200):
    print('%.3f QUERY_PATH_INFORMATION %s 1004 NT_STATUS_OK' % (i / 100, p % "slow.dat"))
print('1.995 Unlink %s 0x16 NT_STATUS_OK' % (p % "slow.dat"))
PY
"$DBNG" -c "$TMP/ts.load" -t 3 --warmup 0 --json "$TMP/ts.json" -D "$MNT" 1 \
	>"$TMP/ts.out" 2>"$TMP/err" || fail "exit $?: $(cat "$TMP/err")"
sed -n '/^ Response ms/,/^$/p' "$TMP/ts.out"
# ~49 lines due during each stall start more than 10 ms late, ~40 of
# them answer 100 ms or more after they were due; 20 leaves room
check "$TMP/ts.json" "$TMP/ts.out" 20
python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["response"]["pacing"] != "timestamps")' \
	"$TMP/ts.json" || fail "the pacing is not timestamps"
grep -q "(the loadfile's timestamps)" "$TMP/ts.out" ||
	fail "the text does not say the intended starts are the timestamps"
rerender "$TMP/ts.json" "$TMP/ts.out"

note "(2) -R 2: the 11 lines after the 500 ms Rename are due with it"
{
	echo 'Mkdir "\clients\client1" NT_STATUS_OK'
	echo 'NTCreateX "\clients\client1\f.dat" 0x0 0x5 1 NT_STATUS_OK'
	for i in 0 1 2 3; do
		echo "WriteX 1 $((65536 * i)) 65536 65536 NT_STATUS_OK"
	done
	echo 'Close 1 NT_STATUS_OK'
	echo 'Rename "\clients\client1\f.dat" "\clients\client1\slow.dat" NT_STATUS_OK'
	for _ in $(seq 10); do
		echo 'QUERY_PATH_INFORMATION "\clients\client1\slow.dat" 1004 NT_STATUS_OK'
	done
	echo 'Unlink "\clients\client1\slow.dat" 0x16 NT_STATUS_OK'
} >"$TMP/rate.load"
"$DBNG" -c "$TMP/rate.load" -R 2 -t 3 --warmup 0 --json "$TMP/rate.json" \
	-D "$MNT" 1 >"$TMP/rate.out" 2>"$TMP/err" ||
	fail "exit $?: $(cat "$TMP/err")"
sed -n '/^ Response ms/,/^$/p' "$TMP/rate.out"
# a pass: 262 KB at 2 MB/s and the 500 ms stall, so at least 3 stalls in
# 3 s, each with 11 lines due with the Rename
check "$TMP/rate.json" "$TMP/rate.out" 11
grep -q "(the byte schedule of -R 2 MB/s)" "$TMP/rate.out" ||
	fail "the text does not say the intended starts are -R's"
rerender "$TMP/rate.json" "$TMP/rate.out"

note "(3) unpaced: no response times anywhere"
"$DBNG" -c "$TMP/rate.load" -t 1 --warmup 0 --json "$TMP/u.json" -D "$MNT" 1 \
	>"$TMP/u.out" 2>"$TMP/err" || fail "exit $?: $(cat "$TMP/err")"
! grep -q "Response\|Late starts" "$TMP/u.out" ||
	fail "an unpaced run prints response times"
! grep -q '"response"\|"resp_ns"\|"resp_ops"\|"resp_op_fields"' "$TMP/u.json" ||
	fail "an unpaced run's JSON has response times"
echo "ok: an unpaced run has no response times"
ffs_umount
echo "all paced FUSE checks passed"
