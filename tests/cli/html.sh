# SPDX-License-Identifier: GPL-3.0-or-later
# The HTML report: a real run re-rendered with "dbench-ng report --html",
# and synthetic results (tests/cli/htmlprobe.c) with a 500 ms Rename stall
# every 30 s, hostile strings and the edge cases.  Each page must be
# well-formed, self-contained (no script, nothing fetched), hold the
# expected plots, render in headless Chromium without errors, and the
# stall must be drawn as evenly spaced spikes.
. "$(dirname "$0")/../lib.sh"

[ -x "$DBNG" ] || fail "$DBNG not built (make)"

# --- hostile strings of a result file, as text and as HTML --------------
# Every string "report" prints from a JSON file (the stall's file, path,
# start time, state, wchan and stack, the folded stacks, the note, the
# unexpected results' messages) with ESC [ 2 J, CR, BEL, TAB, newline,
# DEL, C1 controls (U+009B CSI, U+0085) and the words parsers look for:
# no byte below 0x20 but the newlines of the report itself, no DEL, no
# C1, valid UTF-8, and "execute"/"Operation" broken.  Bytes that are not
# UTF-8 cannot reach it: the JSON reader refuses the file.
note "hostile strings from a JSON result"
mkdir -p "$TMP/hd"
"$DBNG" -t 1 --warmup 0 -D "$TMP/hd" --json "$TMP/hb.json" 1 >/dev/null 2>&1 ||
	fail "the run for the JSON failed"
python3 - "$TMP/hb.json" "$TMP/hostile.json" <<'PY' || fail "cannot craft the JSON"
import json, sys
d = json.load(open(sys.argv[1]))
H = "A\x1b[2J\rB\x07C\u009bD\u0085E\x7fF\tG\nH execute Operation"
d["summary"]["unexpected_results"] = 1
d["summary"]["unexpected_messages"] = [H]
d["config"]["loadfile"] = H
d["environment"]["hostname"] = H
d["stalls"] = {
    "enabled": True, "threshold_ms": 100.0, "total": 1,
    "per_op": {"Rename": {"count": 1, "max_ms": 200.0}},
    "events": [{"op": "Rename", "duration_ms": 200.0, "ended": True,
                "client": 0, "pid": 1, "start_s": 0.5, "start_time": H,
                "file": H, "line": 3, "path": H,
                "psi_start": None, "psi_end": None,
                "samples": [{"t_ms": 5, "state": "\x1b", "wchan": H,
                             "stack": H, "repeat": 0}]}],
    "folded_stacks": [{"stack": H, "count": 3}], "folded_other": 0,
    "unsampled": 1, "note": H}
json.dump(d, open(sys.argv[2], "w"))
PY
"$DBNG" report "$TMP/hostile.json" --html "$TMP/hostile.html" >"$TMP/hostile.txt" ||
	fail "report of the hostile JSON failed"
for f in "$TMP/hostile.txt" "$TMP/hostile.html"; do
	python3 - "$f" <<'PY' || fail "$f: control bytes reach the output"
import sys
b = open(sys.argv[1], "rb").read()
bad = [i for i, c in enumerate(b) if (c < 0x20 and c != 10) or c == 0x7f]
t = b.decode("utf-8")  # raises on invalid UTF-8
c1 = [i for i, ch in enumerate(t) if 0x80 <= ord(ch) < 0xa0]
if bad or c1:
    sys.exit("%s: bytes %r at %s, C1 at %s" % (sys.argv[1],
             [b[i] for i in bad[:5]], bad[:5], c1[:5]))
PY
done
# each field is there, escaped (the text report: 6 of the stall's, the
# folded stack, the note, the message)
[ "$(grep -c 'A\\x1B\[2J\\x0DB\\x07C\\xC2\\x9BD\\xC2\\x85E\\x7FF\\x09G\\x0AH execut_e Operatio_n' "$TMP/hostile.txt")" -ge 7 ] ||
	fail "the strings are not shown escaped: $(cat -A "$TMP/hostile.txt" | sed -n '/Unexpected/,$p')"
grep -q 'state \\x1B, wchan' "$TMP/hostile.txt" || fail "the state is not escaped"
# the stalls the watchdog's budget left unsampled, in both reports
for f in "$TMP/hostile.txt" "$TMP/hostile.html"; do
	grep -q '1 of them ended before their first sample' "$f" ||
		fail "$f: no line for the unsampled stall"
done
! grep -q "execute\|Operation" <(sed -n '/Unexpected/,/^ Operation/p' "$TMP/hostile.txt" | sed '$d') ||
	fail "a parser word in our sections"
# compare quotes a result's backend name in its notes
python3 - "$TMP/hb.json" "$TMP/hostile-be.json" <<'PY' || fail "cannot craft the JSON"
import json, sys
d = json.load(open(sys.argv[1]))
d["config"]["backend"] = "null\x1b[2J\x07\u009b\rX"
json.dump(d, open(sys.argv[2], "w"))
PY
"$DBNG" compare "$TMP/hostile-be.json" -- "$TMP/hb.json" >"$TMP/hostile-cmp.txt" 2>&1 ||
	fail "compare of the hostile JSON failed: $(cat "$TMP/hostile-cmp.txt")"
grep -q 'null\\x1B\[2J\\x07\\xC2\\x9B\\x0DX' "$TMP/hostile-cmp.txt" ||
	fail "compare does not show the backend escaped: $(cat -A "$TMP/hostile-cmp.txt")"
python3 - "$TMP/hostile-cmp.txt" <<'PY' || fail "control bytes reach compare's output"
import sys
b = open(sys.argv[1], "rb").read()
t = b.decode("utf-8")
if [c for c in b if (c < 0x20 and c != 10) or c == 0x7f] or [ch for ch in t if 0x80 <= ord(ch) < 0xa0]:
    sys.exit(1)
PY
python3 -c 'import sys; b = open(sys.argv[1], "rb").read(); open(sys.argv[2], "wb").write(b.replace(b"\"note\": \"A", b"\"note\": \"\xff\xc0\xafA", 1))' \
	"$TMP/hostile.json" "$TMP/bad-utf8.json"
grep -q "$(printf '\xff')" "$TMP/bad-utf8.json" || fail "no invalid UTF-8 in the crafted file"
expect_rc 2 "$DBNG" report "$TMP/bad-utf8.json" >"$TMP/bad.txt" 2>&1
echo "ok: hostile strings escaped in text and HTML"

CHROMIUM=$(command -v chromium) ||
	skip "chromium not installed (apt-get install chromium)"

# --- the probe: built by make check, with the report layer only --------
PROBE=$ROOT/build/tests/cli/htmlprobe
[ -x "$PROBE" ] || fail "$PROBE not built (make check builds it)"

# no_temp_left: no PATH.tmp.XXXXXX of an atomic write remains in $TMP
no_temp_left() {
	local t
	for t in "$TMP"/*.tmp.*; do
		[ -e "$t" ] && fail "temporary file left: $t"
	done
	return 0
}

# check_page FILE NPLOTS: well-formed, self-contained, NPLOTS plots
check_page() {
	local f=$1 want=$2 n
	[ -s "$f" ] || fail "$f: missing or empty"
	head -c 15 "$f" | grep -q '<!DOCTYPE html>' || fail "$f: no doctype"
	if command -v xmllint >/dev/null; then
		# the page is also well-formed XML (polyglot), which is
		# stricter than the HTML parser: every tag closed, every &
		# escaped, no control characters
		xmllint --noout "$f" 2>"$TMP/xml.err" ||
			fail "$f: not well-formed: $(head -5 "$TMP/xml.err")"
		# libxml2's HTML parser knows HTML 4 only: ignore its
		# complaints about HTML5 and SVG tag names, nothing else.
		# --memory: read whole, as libxml2 2.9.14 reading a file in
		# chunks saw "error parsing attribute name" in a right tag
		# that met a chunk's end (one byte more before it: none)
		xmllint --html --memory --noout "$f" 2>&1 | grep 'error :' |
			grep -v 'error : Tag [a-zA-Z]* invalid' >"$TMP/html.err"
		[ ! -s "$TMP/html.err" ] ||
			fail "$f: HTML errors: $(head -5 "$TMP/html.err")"
	else
		[ "$(grep -o '<svg' "$f" | wc -l)" = \
			"$(grep -o '</svg>' "$f" | wc -l)" ] ||
			fail "$f: unbalanced <svg>"
	fi
	! grep -Eiq '(src|href|action)=["'\'']?[a-z]+:' "$f" ||
		fail "$f: references a URL: $(grep -Eio '(src|href)=.{0,40}' "$f" | head -3)"
	! grep -Eq 'https?://' "$f" || fail "$f: contains http(s)://"
	! grep -Eiq '<script|<link|<iframe|<img|@import|url\(' "$f" ||
		fail "$f: script or external resource"
	! grep -Eiq ' on[a-z]+=' "$f" || fail "$f: event handler attribute"
	n=$(grep -o 'data-plot="[a-z0-9]*"' "$f" | wc -l)
	[ "$n" = "$want" ] || fail "$f: $n plots, expected $want"
	n=$(grep -o '<svg class="plot" data-plot="[a-z0-9]*" viewBox="0 0 [0-9]* [0-9]*"' "$f" | wc -l)
	[ "$n" = "$want" ] || fail "$f: a plot lacks class or viewBox"
	echo "ok: $(basename "$f"): $want plots, well-formed, self-contained"
}

# render FILE MINCOLOURED: screenshot and DOM of FILE (12000 px tall: a
# real run on a busy machine has a long Stalls section); the plots must be
# in the DOM with many vertices, and the picture must be colourful
render() {
	local f=$1 min=$2 png=${1%.html}.png stats max w h nonwhite coloured
	chromium_run "$TMP/shot.out" --window-size=1400,12000 \
		--screenshot="$png" "file://$f"
	[ -s "$png" ] || fail "no screenshot of $f"
	chromium_run "${f%.html}.dom" --dump-dom "file://$f"
	grep -q 'data-plot="spectrum"' "${f%.html}.dom" ||
		fail "$f: the DOM lacks the spectrum plot"
	# the longest polyline of the DOM: the spectrum staircases have
	# hundreds of vertices
	max=$(grep -o 'points="[^"]*"' "${f%.html}.dom" |
		awk '{ if (NF > m) m = NF } END { print m + 0 }')
	[ "$max" -ge 50 ] || fail "$f: longest polyline has $max points"
	if command -v convert >/dev/null &&
		stats=$(convert "$png" ppm:- 2>/dev/null | "$PROBE" ppm-stats) &&
		[ -n "$stats" ]; then
		# W H NONWHITE COLOURED: text and grids are grey, the plotted
		# lines are coloured
		read -r w h nonwhite coloured <<<"$stats"
		[ "$coloured" -ge "$min" ] ||
			fail "$png: $coloured coloured pixels, expected >= $min"
		echo "ok: $(basename "$png"): ${w}x$h, $nonwhite non-white," \
			"$coloured coloured pixels, longest polyline $max points"
	else
		[ "$(stat -c %s "$png")" -gt 51200 ] ||
			fail "$png: only $(stat -c %s "$png") bytes"
		echo "ok: $(basename "$png"): $(stat -c %s "$png") bytes," \
			"longest polyline $max points"
	fi
}

# --- a real run, re-rendered -------------------------------------------
note "real run"
mkdir -p "$TMP/d"
"$DBNG" -t 6 --warmup 1 --json "$TMP/r.json" -D "$TMP/d" 2 \
	>"$TMP/run.out" 2>&1 || fail "run failed: $(tail -5 "$TMP/run.out")"
umask 022
"$DBNG" report "$TMP/r.json" --html "$TMP/r.html" >"$TMP/report.out" \
	2>"$TMP/report.err" || fail "report --html: $(cat "$TMP/report.err")"
[ "$(stat -c %a "$TMP/r.html")" = 644 ] ||
	fail "r.html has mode $(stat -c %a "$TMP/r.html"), expected 644"
check_page "$TMP/r.html" 4
# a real run's plots are as long as what the machine let it do: 8851
# coloured pixels seen beside load, 10000 and more on a quiet machine;
# the synthetic page below, the same on every machine, is held to its
# count, this one only to plots that were drawn at all
render "$TMP/r.html" 4000

# an unwritable destination: one message, exit non-zero, nothing left
"$DBNG" report "$TMP/r.json" --html "$TMP/nodir/r.html" >/dev/null \
	2>"$TMP/err" && fail "report --html into a missing directory succeeded"
grep -q -- "--html $TMP/nodir/r.html: No such file or directory" "$TMP/err" ||
	fail "bad message: $(cat "$TMP/err")"

# --- the synthetic stall -----------------------------------------------
note "synthetic 130 s run, Rename stalls 500 ms every 30 s"
echo old >"$TMP/s.html"
"$PROBE" stall "$TMP/s.html" || fail "htmlprobe stall"
check_page "$TMP/s.html" 4
"$PROBE" stall "$TMP/s2.html" || fail "htmlprobe stall (again)"
cmp -s "$TMP/s.html" "$TMP/s2.html" || fail "the page is not deterministic"
no_temp_left

# hostile strings are escaped, bytes that are not text shown as \xNN
! grep -q '<script' "$TMP/s.html" || fail "an unescaped <script> got in"
grep -q 'host&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&quot;q&quot;' \
	"$TMP/s.html" || fail "hostname not escaped as expected"
grep -q 'ctl\\x01\\x7F-latin1-\\xE9-ok-é' "$TMP/s.html" ||
	fail "control bytes / invalid UTF-8 not shown as \\xNN"

# the stall: in the max-latency plot, the Rename line has exactly four
# points far above all its others, 30 s apart (x = 74 + t / 130 * 950)
awk '/data-plot="maxlat"/ { p = 1 }
     p && /data-op="Rename"/ { g = 1 }
     g && /<polyline/ { print; exit }' "$TMP/s.html" |
	grep -o '[0-9.]*,[0-9.]*' | tr , ' ' >"$TMP/rename.xy"
[ "$(wc -l <"$TMP/rename.xy")" -ge 100 ] ||
	fail "Rename max line has $(wc -l <"$TMP/rename.xy") points, not a full series"
awk 'NR == 1 || $2 < top { top = $2 } { x[NR] = $1; y[NR] = $2 }
     END {
	gap = 1e9
	for (i = 1; i <= NR; i++) {
		if (y[i] < top + 5) { s[++n] = x[i]; continue }
		if (y[i] - top < gap) { gap = y[i] - top }
		if (y[i] - top < 100) { bad++ }
	}
	if (n != 4 || bad) { print "spikes " n ", close to them " bad; exit 1 }
	for (i = 2; i <= n; i++) {
		d = s[i] - s[i - 1] - 30 / 130 * 950
		if (d > 2 || d < -2) { print "spacing " s[i] - s[i - 1]; exit 1 }
	}
	printf "ok: 4 Rename spikes at x = %s %s %s %s, %.0f units above the rest\n", s[1], s[2], s[3], s[4], gap
     }' "$TMP/rename.xy" || fail "the stall is not drawn as 4 spikes 30 s apart"
# at 14.5 s of the measured phase: 24.5 s after the release, less the
# 10 s of warmup (the time base of the text report)
grep -q '>Rename 500 ms at 14.5 s</text>' "$TMP/s.html" ||
	fail "the largest spike is not annotated"
# the watchdog's events: a table, and a diamond on each spike
grep -q '<h2>Stalls</h2>' "$TMP/s.html" || fail "no Stalls section"
[ "$(awk '/data-plot="maxlat"/,/<\/svg>/' "$TMP/s.html" |
	grep -c '<path class="stm os2" stroke="#d62728"')" = 4 ] ||
	fail "the 4 watchdog events are not marked in the max plot"
grep -q 'do_renameat2;<wbr/>&lt;evil&gt;&amp;frame' "$TMP/s.html" ||
	fail "kernel stack not shown (escaped, one frame per break)"
render "$TMP/s.html" 15000

# --- edge cases ---------------------------------------------------------
note "edge cases"
"$PROBE" failed "$TMP/f.html" || fail "htmlprobe failed"
check_page "$TMP/f.html" 4
grep -q 'class="banner st-failed"' "$TMP/f.html" || fail "no failure banner"
grep -q 'Rename /mnt/a -&gt; /mnt/&lt;b&gt;: No such file' "$TMP/f.html" ||
	fail "the error is not in the banner"

"$PROBE" single "$TMP/1.html" || fail "htmlprobe single"
check_page "$TMP/1.html" 4
grep -q 'class="banner st-interrupted"' "$TMP/1.html" ||
	fail "no interruption banner"

"$PROBE" nobins "$TMP/nb.html" || fail "htmlprobe nobins"
check_page "$TMP/nb.html" 2
grep -q 'data-note="spectrum">No percentile spectrum: this result has no latency histograms' \
	"$TMP/nb.html" || fail "nobins: no note on the missing spectrum"
grep -q 'data-note="p99"' "$TMP/nb.html" || fail "nobins: no note on p99"

"$PROBE" empty "$TMP/e.html" || fail "htmlprobe empty"
check_page "$TMP/e.html" 0
grep -q 'data-note="time">No time plots' "$TMP/e.html" ||
	fail "empty: no note on the missing time plots"

"$PROBE" huge "$TMP/h.html" || fail "htmlprobe huge"
check_page "$TMP/h.html" 3
! grep -Eq '(nan|inf)[,"]' "$TMP/h.html" || fail "huge: NaN or inf in the SVG"

# errors: a missing directory, a directory as the destination
"$PROBE" stall "$TMP/nodir/x.html" 2>"$TMP/err" && fail "wrote into nodir"
grep -qx -- "--html $TMP/nodir/x.html: No such file or directory" "$TMP/err" ||
	fail "bad message: $(cat "$TMP/err")"
mkdir "$TMP/adir"
"$PROBE" stall "$TMP/adir" 2>"$TMP/err" && fail "replaced a directory"
grep -qx -- "--html $TMP/adir: Is a directory" "$TMP/err" ||
	fail "bad message: $(cat "$TMP/err")"
no_temp_left
echo "ok: edge cases and errors"
exit 0
