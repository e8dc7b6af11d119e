# SPDX-License-Identifier: GPL-3.0-or-later
# Every string of a result file or a dbench log reaches the terminal
# printable, in the text of report, compare and check, their messages on
# stderr included, and in the HTML page: a dbench log and a JSON result
# whose every string (that the readers take) is ESC sequences, CR, BEL,
# DEL, C1 controls, invalid UTF-8 (in a log), bidi overrides and
# isolates, U+2028: the output holds no byte below 0x20 but newlines, no
# DEL, only valid UTF-8, no C1 control and none of those format
# characters.  Also the readers' error messages, which quote the file (a
# table row's op, a JSON key, a --paths mode).  Before, the bidi
# overrides reached the text and the page, and the messages every byte.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "python3 not installed"

# clean WHAT FILE...: nothing unprintable in the files
cat >"$TMP/clean.py" <<'PY'
import sys
what = sys.argv[1]
for name in sys.argv[2:]:
    b = open(name, "rb").read()
    bad = [i for i, c in enumerate(b) if (c < 0x20 and c != 10) or c == 0x7f]
    try:
        t = b.decode("utf-8")
    except UnicodeDecodeError as e:
        sys.exit("%s: %s: not UTF-8: %s" % (what, name, e))
    fmt = set(range(0x80, 0xa0)) | {0x61c, 0x200e, 0x200f, 0x2028, 0x2029} \
        | set(range(0x202a, 0x202f)) | set(range(0x2066, 0x206a))
    odd = [i for i, ch in enumerate(t) if ord(ch) in fmt]
    if bad or odd:
        at = bad[:1] and bad[0] or 0
        sys.exit("%s: %s: bytes %r at %s, format characters at %s: %r"
                 % (what, name, [b[i] for i in bad[:5]], bad[:5], odd[:5],
                    b[max(0, at - 40):at + 40]))
PY
clean() {
	python3 "$TMP/clean.py" "$@" || fail "unprintable output"
}

# the hostile string, as bytes (for a log) and as JSON text
H='A\x1b[2J\x1b]0;title\x07\rB\x9b\xc2\x9bC\xc2\x85\x7fD\xe2\x80\xaeEvil\xe2\x80\xac\xe2\x81\xa6F\xe2\x81\xa9\xe2\x80\xa8G\xd8\x9c\xe2\x80\x8fH\xff\xc0\xafI'

note "a dbench log"
{
	printf 'dbench version 4.00 - %b\n\n' "$H"
	printf "Running for 10 seconds with load '%b' and minimum warmup 2 secs\n" "$H"
	printf '   2      1000   100.00 MB/sec  execute   1 sec  latency 1.000 ms\n'
	printf '[1] ERROR %b failed\n\n' "$H"
	printf ' Not run: 5 lines of ops the backend cannot do\n LockX:   5  %b\n\n' "$H"
	printf ' Operation      Count    AvgLat    MaxLat\n'
	printf ' ----------------------------------------\n'
	printf ' NTCreateX        100     0.010     0.020\n\n'
	printf 'Throughput 100 MB/sec  2 clients  2 procs  max_latency=1.000 ms\n'
} >"$TMP/h.log"
grep -q "$(printf '\xe2\x80\xae')" "$TMP/h.log" || fail "no override in the log"
expect_rc 0 "$DBNG" report "$TMP/h.log" --html "$TMP/h.html" >"$TMP/out" 2>"$TMP/err"
clean "report of a log" "$TMP/out" "$TMP/err" "$TMP/h.html"
grep -q 'LockX: .*A\\x1B\[2J\\x1B\]0;title\\x07\\x0DB\\x9B\\xC2\\x9BC\\xC2\\x85\\x7FD\\xE2\\x80\\xAEEvil' "$TMP/out" ||
	fail "the reason of Not run is not shown escaped: $(cat -A "$TMP/out")"
echo "ok: report (text and HTML)"
sed "s/100 MB\/sec/90 MB\/sec/; s/load 'A/load 'ZA/" "$TMP/h.log" >"$TMP/h2.log"
# other loadfiles: refused, naming both
expect_rc 2 "$DBNG" compare "$TMP/h.log" -- "$TMP/h2.log" >"$TMP/out" 2>"$TMP/err"
clean "compare of logs" "$TMP/out" "$TMP/err"
grep -q "ran the loadfile A\\\\x1B\[2J\\\\x1B\]0;title" "$TMP/err" ||
	fail "compare does not name the loadfile escaped: $(cat -A "$TMP/err")"
"$DBNG" compare --mixed-workloads "$TMP/h.log" -- "$TMP/h2.log" >"$TMP/out" 2>"$TMP/err"
clean "compare of logs" "$TMP/out" "$TMP/err"
grep -q "^note: .*another loadfile .*(A\\\\x1B\[2J\\\\x1B\]0;title" "$TMP/out" ||
	fail "compare does not name the loadfile escaped: $(cat -A "$TMP/out")"
"$DBNG" check --baseline "$TMP/h.log" -B null -t 1 1 >"$TMP/out" 2>"$TMP/err"
clean "check of a log" "$TMP/out" "$TMP/err"
echo "ok: compare and check"

# the readers' messages quote the file
sed "s/ NTCreateX  /$(printf ' NTCr\\x1b[2J\\xe2\\x80\\xaeX')/" "$TMP/h.log" >"$TMP/bad.log"
expect_rc 2 "$DBNG" report "$TMP/bad.log" >"$TMP/out" 2>"$TMP/err"
grep -q "unknown operation 'NTCr\\\\x1B\[2J\\\\xE2\\\\x80\\\\xAEX'" "$TMP/err" ||
	fail "the message: $(cat -A "$TMP/err")"
clean "a log refused" "$TMP/out" "$TMP/err"
expect_rc 2 "$DBNG" compare "$TMP/bad.log" -- "$TMP/h.log" >"$TMP/out" 2>"$TMP/err"
clean "compare refusing a log" "$TMP/out" "$TMP/err"
expect_rc 255 "$DBNG" check --baseline "$TMP/bad.log" -B null -t 1 1 >"$TMP/out" 2>"$TMP/err"
clean "check refusing a log" "$TMP/out" "$TMP/err"
grep -q "^bad input: .*unknown operation 'NTCr\\\\x1B" "$TMP/out" || fail "check: $(cat -A "$TMP/out")"
echo "ok: the messages of a refused log"

note "a JSON result"
"$DBNG" -B null -t 1 --warmup 0 --json "$TMP/base.json" 1 >/dev/null 2>&1 ||
	fail "the run failed"
# every string made hostile where the reader still takes the file; the
# refused ones give a message each, checked too
python3 "$ROOT/tests/hostile_result.py" "$DBNG" "$TMP/base.json" "$TMP/hostile.json" "$H" ||
	fail "cannot craft the result"
# a key the reader quotes, and a --paths mode compare quotes
python3 - "$TMP" "$H" <<'PY' || fail "cannot craft the results"
import json, sys
tmp = sys.argv[1]
H = sys.argv[2].encode().decode("unicode_escape").encode("latin-1").decode(
    "utf-8", "replace")
e = json.load(open(tmp + "/hostile.json"))
e["clients"][0]["ops"] = {H: [1, 2, 3]}
json.dump(e, open(tmp + "/badkey.json", "w"))
e = json.load(open(tmp + "/base.json"))
e["config"]["paths"] = H
json.dump(e, open(tmp + "/paths.json", "w"))
PY
expect_rc 0 "$DBNG" report "$TMP/hostile.json" --html "$TMP/j.html" >"$TMP/out" 2>"$TMP/err"
clean "report of the JSON" "$TMP/out" "$TMP/err" "$TMP/j.html"
[ "$(grep -c 'D\\xE2\\x80\\xAEEvil\\xE2\\x80\\xAC\\xE2\\x81\\xA6F\\xE2\\x81\\xA9\\xE2\\x80\\xA8G\\xD8\\x9C\\xE2\\x80\\x8FH' "$TMP/out")" -ge 5 ] ||
	fail "the strings are not shown escaped: $(cat -A "$TMP/out")"
echo "ok: report (text and HTML)"
for f in "$TMP"/hostile.json.refused.*; do
	[ -e "$f" ] && clean "a message refusing a string" "$f"
done
"$DBNG" compare "$TMP/hostile.json" -- "$TMP/base.json" >"$TMP/out" 2>"$TMP/err"
clean "compare of the JSON" "$TMP/out" "$TMP/err"
"$DBNG" check --baseline "$TMP/hostile.json" --min-runs 1 --max-runs 1 --busy-ok \
	--no-keep -B null -t 1 --warmup 0 1 >"$TMP/out" 2>"$TMP/err"
clean "check of the JSON" "$TMP/out" "$TMP/err"
echo "ok: compare and check"
expect_rc 2 "$DBNG" report "$TMP/badkey.json" >"$TMP/out" 2>"$TMP/err"
clean "a key refused" "$TMP/out" "$TMP/err"
grep -q "clients\[0\].ops: 'A\\\\x1B\[2J" "$TMP/err" || fail "$(cat -A "$TMP/err")"
expect_rc 2 "$DBNG" compare "$TMP/paths.json" -- "$TMP/base.json" >"$TMP/out" 2>"$TMP/err"
clean "compare refusing a --paths mode" "$TMP/out" "$TMP/err"
grep -q "ran --paths A\\\\x1B\[2J" "$TMP/err" || fail "$(cat -A "$TMP/err")"
expect_rc 255 "$DBNG" check --baseline "$TMP/paths.json" -B null -t 1 1 >"$TMP/out" 2>"$TMP/err"
clean "check refusing a --paths mode" "$TMP/out" "$TMP/err"
printf '{"a": \033[2J\342\200\256}' >"$TMP/token.json"
expect_rc 2 "$DBNG" report "$TMP/token.json" >"$TMP/out" 2>"$TMP/err"
clean "a JSON syntax error" "$TMP/out" "$TMP/err"
echo "ok: the messages of refused results"
echo "all strings of results and logs printed printable"
