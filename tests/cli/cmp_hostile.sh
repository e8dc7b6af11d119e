# SPDX-License-Identifier: GPL-3.0-or-later
# report, compare and check on results and dbench logs with extreme
# numbers and deep nesting: the largest and smallest doubles (1.8e308,
# a denormal), integers at and past 2^63 and 2^64, 1e999999, a 100,000
# digit number, counts the bins do not hold, nesting 100,000 deep,
# 200,000 progress lines, a line of a million brackets.  Each file is
# either refused (exit 2, 255 for check: one message naming the file)
# or read (exit 0 or 1, 0, 1 or 125 for check); nothing crashes, hangs
# or (under SAN=1, which run.sh watches) trips a sanitizer.  A negative
# throughput, time or rate in a JSON result was taken (compare called
# the run regressed): it is refused.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "python3 not installed"

"$DBNG" -B null -t 1 --warmup 0 --json "$TMP/base.json" 1 >/dev/null 2>&1 ||
	fail "the run failed"
cd "$TMP" || fail "no $TMP"
python3 - <<'PY' || fail "cannot make the files"
import copy, json
d = json.load(open("base.json"))
def w(name, f):
    e = copy.deepcopy(d)
    f(e)
    json.dump(e, open(name, "w"))
def summary(**kv):
    return lambda e: e["summary"].update(kv)
def ops(f):
    return lambda e: [f(o) for o in e["ops"]]
w("big.json", summary(throughput_mbps=1.7976931348623157e308,
                      max_latency_ms=1.7976931348623157e308, measured_s=5e-324))
w("tiny.json", summary(throughput_mbps=5e-324, max_latency_ms=5e-324))
# refused: negative figures
w("neg-tput.json", summary(throughput_mbps=-1e308))
w("neg-lat.json", summary(max_latency_ms=-1.0))
w("neg-time.json", summary(measured_s=-5e-324))
w("neg-rate.json", lambda e: e["config"].update(target_rate_mbps=-1.0))
w("count.json", ops(lambda o: o.update(count=2**63 - 1)))
w("count0.json", ops(lambda o: o.update(count=0)))
w("int64.json", ops(lambda o: o["lat_ns"].update(sum=2**63)))
def bins(o):
    # three buckets of 2^61 calls each (their starts taken from the run)
    n = 2**61
    lo = [b[0] for b in o["lat_ns"]["bins"]][-3:]
    o["count"] = len(lo) * n
    o["lat_ns"].update(bins=[[x, n] for x in lo], overflow=0,
                       sum=2**63 - 1, max=2**63 - 1)
w("bins.json", ops(bins))
open("deep.json", "w").write('{"a":' + "[" * 100000 + "]" * 100000 + "}")
open("deep2.json", "w").write('{"format_version": 1, "x":' + '{"a":' * 100000 +
                             "1" + "}" * 100000 + "}")
t = open("base.json").read()
open("e999.json", "w").write(t.replace('"format_version": 1',
                                       '"format_version": 1, "zz": 1e999999', 1))
open("digits.json", "w").write(t.replace('"format_version": 1',
                                         '"format_version": 1, "zz": ' + "9" * 100000, 1))

def log(name, tput="100", row=" NTCreateX        100     0.010     0.020",
        prog="   2      1000   100.00 MB/sec  execute   1 sec  latency 1.000 ms",
        maxlat="1.000"):
    open(name, "w").write(
        "dbench version 4.00 - \n\nRunning for 10 seconds with load 'x' and "
        "minimum warmup 2 secs\n%s\n\n Operation      Count    AvgLat    MaxLat\n"
        " ----------------------------------------\n%s\n\nThroughput %s MB/sec  "
        "2 clients  2 procs  max_latency=%s ms\n" % (prog, row, tput, maxlat))
log("base.log")
log("tput.log", tput="1" + "0" * 308)
log("tput-e.log", tput="1e308", maxlat="1e308")
log("tput-inf.log", tput="1e309")
log("tiny.log", tput="4.9e-324")
log("count.log", row=" NTCreateX 18446744073709551615 0.010 0.020")
log("count65.log", row=" NTCreateX 18446744073709551616 0.010 0.020")
log("lat.log", row=" NTCreateX 100 1e300 1e300")
log("lat-big.log", row=" NTCreateX 1 9000000000 9000000000")
log("prog.log", prog="   2  99999999999999999999   1e300 MB/sec  execute   1e300 sec  latency 1e300 ms")
log("prog-max.log", prog="2147483647  9223372036854775807   1 MB/sec  execute   1 sec  latency 1 ms")
log("prog-many.log", prog="\n".join(
    "   2      %d   100.00 MB/sec  execute   %d sec  latency 1.000 ms" % (i * 1000, i)
    for i in range(1, 200001)))
open("brackets.log", "w").write("Throughput 1 MB/sec\n" + "(" * 1000000 + "\n")
PY

# one FILE: report, compare (against a run and a log, and against
# itself with three runs a side) and check; prints the exits
one() {
	local f=$1 r c1 c2 c3 k
	timeout 120 "$DBNG" report "$f" >out.r 2>err.r
	r=$?
	timeout 120 "$DBNG" compare --mixed-workloads base.json -- "$f" >out.c 2>err.c
	c1=$?
	timeout 120 "$DBNG" compare --mixed-workloads base.log -- "$f" >/dev/null 2>&1
	c2=$?
	timeout 120 "$DBNG" compare --mixed-workloads "$f" "$f" "$f" -- "$f" "$f" base.json \
		>/dev/null 2>&1
	c3=$?
	timeout 120 "$DBNG" check --baseline "$f" --min-runs 1 --max-runs 1 --busy-ok --mixed-workloads \
		--no-keep -B null -t 1 --warmup 0 1 >out.k 2>/dev/null
	k=$?
	case $r in
	0) case "$c1 $c2 $c3" in *[!01\ ]*) fail "$f: read by report, compare exits $c1 $c2 $c3" ;; esac
	   case $k in 0 | 1 | 125) ;; *) fail "$f: check exit $k: $(cat out.k)" ;; esac ;;
	2) [ "$c1 $c2 $c3 $k" = "2 2 2 255" ] || fail "$f: refused by report, compare $c1 $c2 $c3, check $k"
	   [ "$(wc -l <err.r)" = 1 ] && grep -q "^dbench-ng report: $f:" err.r ||
		fail "$f: the message: $(cat err.r)"
	   grep -q "^bad input: $f:" out.k || fail "$f: check says $(cat out.k)" ;;
	*) fail "$f: report exit $r: $(tail -3 err.r)" ;;
	esac
	echo "ok: $f: report $r, compare $c1 $c2 $c3, check $k $(cat err.r)"
}
for f in big.json tiny.json count.json count0.json int64.json bins.json deep.json \
	deep2.json e999.json digits.json neg-tput.json neg-lat.json neg-time.json \
	neg-rate.json base.log tput.log tput-e.log tput-inf.log tiny.log count.log \
	count65.log lat.log lat-big.log prog.log prog-max.log prog-many.log brackets.log; do
	one "$f"
done
for f in neg-tput neg-lat neg-time; do
	"$DBNG" report "$f.json" 2>&1 | grep -q "field 'summary\.[a-z_]*' is negative$" ||
		fail "$f.json: not refused as negative"
done
"$DBNG" report neg-rate.json 2>&1 | grep -q "field 'config.target_rate_mbps' is negative$" ||
	fail "neg-rate.json: not refused as negative"
echo "all extreme results read or refused"
