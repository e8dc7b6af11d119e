# SPDX-License-Identifier: GPL-3.0-or-later
# The pages of several runs and the defects of the page of one, in a real
# browser: headless Chromium lays each page out and tests/cdp.py reads it
# through the DevTools protocol over a pipe (tests/html_dom.js), and keeps
# a screenshot of each page in $DBNG_ARTEFACTS/html_multi (by default
# build/test-artefacts/html_multi).
#   compare --html of 3 vs 3 synthetic runs of the 17 ops
#   (tests/cli/multiprobe.c): compare's text is the same with and without
#   --html; the page's verdict table has compare's rows cell for cell and
#   its reason as the headline; every op that ran has its panels, each
#   with every run and one bold median run per side, five shown at first,
#   WriteX (regressed) among them; a lane of stalls per run; no two labels
#   of a plot overlap.
#   An unwritable page: exit 2, the table printed.  dbench 4.0 logs:
#   notes in place of the plots they cannot have.
#   compare --html of 32 vs 32 runs: under 2 MB, its render time printed
#   (bench/html_render.sh measures it against its bound).
#   report with three files: each text report, and one page with the runs
#   in the order given.
#   report --html of one run: the latency plots have the series of the
#   ops of the tables only (not Deltree, which ran only in the warmup),
#   the stall's time is the text report's, no labels overlap; a dbench 4.0
#   log's Bytes are unknown.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "python3 not installed"
PROBE=$ROOT/build/tests/cli/multiprobe
[ -x "$PROBE" ] || fail "$PROBE not built (make test-progs)"
CHROMIUM=$(command -v chromium) ||
	skip "chromium not installed (apt-get install chromium)"
ART=${DBNG_ARTEFACTS:-$ROOT/build/test-artefacts}/html_multi
mkdir -p "$ART" || fail "cannot make $ART"

# page_ok FILE: well-formed, self-contained, its Content-Security-Policy
page_ok() {
	grep -q '<meta http-equiv="Content-Security-Policy" content="default-src '\''none'\''; style-src '\''unsafe-inline'\''"/>' \
		"$1" || fail "$1: no Content-Security-Policy"
	if command -v xmllint >/dev/null; then
		xmllint --noout "$1" || fail "$1: not well-formed"
	fi
	! grep -Eiq '<script|<link|<iframe|<img|@import|url\(|https?://' "$1" ||
		fail "$1: a script or an outside resource"
	! grep -Eiq ' on[a-z]+=' "$1" || fail "$1: an event handler attribute"
}

# dom FILE NAME: lay FILE out; what html_dom.js finds in $TMP/NAME.json,
# the screenshot in $ART/NAME.png
dom() {
	python3 "$ROOT/tests/cdp.py" "$CHROMIUM" "$1" "$TMP/$2.json" \
		"$ART/$2.png" <"$ROOT/tests/html_dom.js" ||
		fail "$1: Chromium could not lay it out"
	[ -s "$ART/$2.png" ] || fail "no screenshot of $1"
}

note "compare --html, 3 vs 3 runs"
mkdir "$TMP/r"
"$PROBE" "$TMP/r" b 3 40 1 && "$PROBE" "$TMP/r" c 3 40 1.3 ||
	fail "multiprobe failed"
B=("$TMP"/r/b{1..3}.json)
C=("$TMP"/r/c{1..3}.json)
"$DBNG" compare "${B[@]}" -- "${C[@]}" >"$TMP/plain.txt"
rc0=$?
"$DBNG" compare --html "$TMP/cmp.html" "${B[@]}" -- "${C[@]}" >"$TMP/cmp.txt"
rc=$?
[ $rc = 1 ] && [ $rc0 = 1 ] || fail "compare exit $rc0 and $rc, expected 1 (regressed)"
cmp -s "$TMP/plain.txt" "$TMP/cmp.txt" || fail "--html changed compare's text"
page_ok "$TMP/cmp.html"
dom "$TMP/cmp.html" cmp3
python3 - "$TMP/cmp3.json" "$TMP/cmp.txt" <<'PY' || fail "the comparison page is not compare's"
import json, sys
d = json.load(open(sys.argv[1]))["value"]
txt = open(sys.argv[2]).read().splitlines()
ops = ["NTCreateX", "Close", "Rename", "Unlink", "Deltree", "Rmdir", "Mkdir",
       "Qpathinfo", "Qfileinfo", "Qfsinfo", "Sfileinfo", "Find", "WriteX",
       "ReadX", "LockX", "UnlockX", "Flush"]
bad = []
# the verdicts, cell for cell: Op Metric Baseline Candidate Change p CI Verdict
i = next(k for k, l in enumerate(txt) if l.startswith(" ---"))
rows = []
for l in txt[i + 1:]:
    if not l.strip():
        break
    w = l.split()
    rows.append(w[:5] + [w[6], w[5], " ".join(w[7:])])
html = [[r[0], r[1], r[2], r[3], r[4], r[6], r[7], r[8]] for r in d["verdicts"]]
if rows != html:
    diff = [(a, b) for a, b in zip(rows, html) if a != b][:3]
    bad.append("verdict rows differ (%d vs %d): %s" % (len(rows), len(html), diff))
if d["verdict"] != "regressed" or txt[-1] not in d["headline"]:
    bad.append("headline %r lacks the reason %r" % (d["headline"], txt[-1]))
# as compare --changed: the rows of a verdict, or unclear
shown_rows = sum(1 for r in html if r[7] in ("REGRESSED", "improved", "unclear"))
if d["shown_verdicts"] != shown_rows:
    bad.append("%s rows shown at first, %d changed" % (d["shown_verdicts"], shown_rows))
for kind in ("mspectrum", "mp99"):
    p = [x for x in d["plots"] if x["kind"] == kind]
    got = sorted(x["op"] for x in p)
    if got != sorted(ops):
        bad.append("%s panels of %s, expected the 17 ops" % (kind, got))
    for x in p:
        runs = sorted(r[0] for r in x["runs"])
        if runs != ["B1", "B2", "B3", "C1", "C2", "C3"]:
            bad.append("%s %s: runs %s" % (kind, x["op"], runs))
        cls = sorted(r[1] for r in x["runs"])
        if cls.count("rb0") != 1 or cls.count("rb1") != 1:
            bad.append("%s %s: bold %s" % (kind, x["op"], cls))
    on = sorted(x["op"] for x in p if x["shown"])
    if len(on) != 5 or "WriteX" not in on:
        bad.append("%s shown at first: %s" % (kind, on))
pick = d["picker"]
if sorted(o for o, c in pick) != sorted(ops) or sum(c for o, c in pick) != 5:
    bad.append("picker %s" % pick)
lanes = [x for x in d["plots"] if x["kind"] == "lanes"][0]["lanes"]
if [l[0] for l in lanes] != ["B1", "B2", "B3", "C1", "C2", "C3"] or \
        min(l[1] for l in lanes) < 1:
    bad.append("lanes %s" % lanes)
for x in d["plots"]:
    if x["overlaps"]:
        bad.append("%s %s: labels overlap: %s" % (x["kind"], x["op"], x["overlaps"][:3]))
if bad:
    sys.exit("\n".join(bad[:12]))
print("ok: %d verdict rows as compare's, 17 ops with 6 runs each, "
      "laid out in %.0f ms" % (len(rows), json.load(open(sys.argv[1]))["load_ms"]))
PY

# an unwritable page: compare says why and exits 2, after its table
"$DBNG" compare --html "$TMP/nodir/c.html" "${B[@]}" -- "${C[@]}" \
	>"$TMP/nd.txt" 2>"$TMP/nd.err"
[ $? = 2 ] || fail "compare --html into a missing directory did not exit 2"
grep -qx -- "dbench-ng compare: --html $TMP/nodir/c.html: No such file or directory" \
	"$TMP/nd.err" || fail "bad message: $(cat "$TMP/nd.err")"
cmp -s "$TMP/nd.txt" "$TMP/cmp.txt" || fail "the table is not printed before"
# dbench 4.0 logs: no histograms, no per-op series: notes, no picker
"$DBNG" compare --html "$TMP/logs.html" "$DATA/dblog/sample-4.0.txt" \
	"$DATA/dblog/warmup-4.0.txt" -- "$DATA/dblog/sync-4.0.txt" >/dev/null
[ $? -le 1 ] || fail "compare --html of dbench logs failed"
page_ok "$TMP/logs.html"
grep -q 'data-note="mspectrum">No latency distributions' "$TMP/logs.html" &&
	grep -q 'data-note="mp99">No p99 per interval' "$TMP/logs.html" ||
	fail "the page of logs lacks the notes of what it cannot draw"
! grep -q 'data-opsel' "$TMP/logs.html" || fail "a picker without plots to pick"
grep -q 'data-plot="mthroughput"' "$TMP/logs.html" ||
	fail "the logs' throughput is not drawn"

note "compare --html, 32 vs 32 runs of 17 ops"
mkdir "$TMP/big"
"$PROBE" "$TMP/big" b 32 60 1 && "$PROBE" "$TMP/big" c 32 60 1.3 ||
	fail "multiprobe failed"
"$DBNG" compare --html "$TMP/big.html" "$TMP"/big/b{1..32}.json -- \
	"$TMP"/big/c{1..32}.json >/dev/null
[ $? = 1 ] || fail "compare of 64 runs did not find the regression"
size=$(stat -c %s "$TMP/big.html")
[ "$size" -lt 2000000 ] || fail "the page of 64 runs has $size bytes, not under 2 MB"
page_ok "$TMP/big.html"
dom "$TMP/big.html" cmp64
python3 - "$TMP/cmp64.json" "$size" <<'PY' || fail "the page of 64 runs"
import json, sys
j = json.load(open(sys.argv[1]))
d = j["value"]
bad = [x["kind"] for x in d["plots"] if x["overlaps"]]
n = [len(x["runs"]) for x in d["plots"] if x["kind"] == "mspectrum"]
if bad or len(n) != 17 or set(n) != {64}:
    sys.exit("overlaps in %s; runs per panel %s" % (bad, n))
print("ok: 64 runs of 17 ops: %s bytes, laid out in %.0f ms (this machine, "
      "busy: bench/html_render.sh measures it)" % (sys.argv[2], j["load_ms"]))
PY

note "report with three files"
"$DBNG" report "${B[0]}" "${C[0]}" "${B[1]}" --html "$TMP/ser.html" >"$TMP/ser.txt" ||
	fail "report of three files failed"
[ "$(grep -c '^==> report [123] of 3 <==$' "$TMP/ser.txt")" = 3 ] ||
	fail "the text lacks the three reports"
[ "$(grep -c '^Throughput ' "$TMP/ser.txt")" = 3 ] || fail "not three Throughput lines"
page_ok "$TMP/ser.html"
dom "$TMP/ser.html" series
python3 - "$TMP/series.json" "${B[0]}" "${C[0]}" "${B[1]}" <<'PY' || fail "the series page"
import json, sys
d = json.load(open(sys.argv[1]))["value"]
bad = []
names = [r[1] for r in d["runs"]]
if names != sys.argv[2:5]:
    bad.append("runs table %s" % names)
for x in d["plots"]:
    if x["kind"] in ("mspectrum", "mp99", "mthroughput"):
        if [r[0] for r in x["runs"]] != ["1", "2", "3"]:
            bad.append("%s %s runs %s" % (x["kind"], x["op"], x["runs"]))
    if x["overlaps"]:
        bad.append("%s: overlaps %s" % (x["kind"], x["overlaps"][:3]))
if bad:
    sys.exit("\n".join(bad[:8]))
print("ok: three runs in order, overlaid")
PY
expect_rc 2 "$DBNG" report "${B[0]}" "$TMP/none.json" --html "$TMP/x.html"
[ ! -e "$TMP/x.html" ] || fail "a page was written though a file was missing"

note "report --html of one run: the defects"
# Deltree ran only in the warmup: its time series figures, no op figures
python3 - "${C[0]}" "$TMP/one.json" <<'PY' || fail "cannot craft the result"
import json, sys
d = json.load(open(sys.argv[1]))
d["ops"] = [o for o in d["ops"] if o["name"] != "Deltree"]
for p in d["time_series"]["points"]:
    if not p["warmup"]:
        p["ops"].pop("Deltree", None)
json.dump(d, open(sys.argv[2], "w"))
PY
"$DBNG" report "$TMP/one.json" --html "$TMP/one.html" >"$TMP/one.txt" ||
	fail "report of one run failed"
page_ok "$TMP/one.html"
dom "$TMP/one.html" single
python3 - "$TMP/single.json" "$TMP/one.txt" <<'PY' || fail "the page of one run"
import json, re, sys
d = json.load(open(sys.argv[1]))["value"]
txt = open(sys.argv[2]).read()
bad = []
table = [r[0] for r in d["ops_table"]]
if "Deltree" in table:
    bad.append("Deltree in the op table")
for x in d["plots"]:
    if x["overlaps"]:
        bad.append("%s: labels overlap: %s" % (x["kind"], x["overlaps"][:3]))
    if x["kind"] in ("maxlat", "p99"):
        ops = [o for o, shown in x["series"] if o != "dbench"]
        if ops != table:
            bad.append("%s series %s, the table's ops %s" % (x["kind"], ops, table))
        if sum(1 for o, shown in x["series"] if shown and o != "dbench") != 5:
            bad.append("%s: not 5 series shown at first" % x["kind"])
if "Deltree" in [o for o, c in d["picker"]]:
    bad.append("Deltree in the picker")
# one time base: the text's "N s into the measured phase" of the WriteX
# stall is the page's, in the stall table and on the slowest-call plot
m = re.search(r"WriteX 784\.000 ms, .* started ([0-9.]+) s into the measured phase", txt)
ml = [x for x in d["plots"] if x["kind"] == "maxlat"][0]
ann = [t for t in ml["texts"] if t.startswith("WriteX 784 ms at ")]
if not m or not ann or abs(float(ann[0].split()[-2]) - (float(m.group(1)) + 0.784)) > 0.6:
    bad.append("the stall at %s s (text) is labelled %s" % (m and m.group(1), ann))
if bad:
    sys.exit("\n".join(bad[:8]))
print("ok: the ops of the tables only, five shown, one time base (%s s), "
      "no overlaps" % m.group(1))
PY
grep -q "<td class=\"n\">$(sed -n 's/.*WriteX 784\.000 ms, .* started \([0-9.]*\) s into the measured phase.*/\1/p' "$TMP/one.txt")</td>" \
	"$TMP/one.html" || fail "the stall table's time is not the text report's"

# a dbench 4.0 log: no bytes per op in it
"$DBNG" report "$DATA/dblog/sample-4.0.txt" --html "$TMP/log.html" >/dev/null ||
	fail "report of a dbench 4.0 log failed"
dom "$TMP/log.html" log
python3 - "$TMP/log.json" <<'PY' || fail "the page of a dbench 4.0 log"
import json, sys
d = json.load(open(sys.argv[1]))["value"]
b = set(r[1] for r in d["ops_table"])
if b != {"unknown"}:
    sys.exit("Bytes of a dbench 4.0 log: %s" % b)
print("ok: a dbench 4.0 log's Bytes are unknown")
PY
echo "ok: screenshots in $ART"
exit 0
