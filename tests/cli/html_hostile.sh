# SPDX-License-Identifier: GPL-3.0-or-later
# The HTML page of a result whose every string (that the reader takes)
# is markup: tags that close the title, style and script, a script, an
# img with onerror, an svg with onload, a javascript: link, an iframe,
# quotes and entities; and of a dbench log with it in its loadfile name,
# error lines and Not run reason; and the pages of several runs (compare
# --html, report with two files) of these, one of them in a file whose
# name is markup too.  Rendered in headless Chromium (its DOM
# after 3 s of virtual time): nothing of it ran (the title is the page's
# own, no "PWNED" anywhere, which only the script would write), and the
# DOM has no element or attribute the page did not make itself: no
# script, img, iframe, object or embed, no on* attribute, no javascript:
# URL.  The page also forbids scripts and loads (its
# Content-Security-Policy), in case a string ever got through.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "python3 not installed"
CHROMIUM=$(command -v chromium) ||
	skip "chromium not installed (apt-get install chromium)"

J='document.title=["PW","NED"].join("")'
P="</title></style></script></textarea>--><script>$J</script><img src=x onerror='$J'><svg onload='$J'><a href=\"javascript:$J\">x</a><iframe srcdoc=\"<script>parent.$J</script>\"></iframe>&amp;&#60;\"'\`"

"$DBNG" -B null -t 1 --warmup 0 --json "$TMP/base.json" 1 >/dev/null 2>&1 ||
	fail "the run failed"
python3 "$ROOT/tests/hostile_result.py" "$DBNG" "$TMP/base.json" "$TMP/h.json" "$P" ||
	fail "cannot craft the result"
expect_rc 0 "$DBNG" report "$TMP/h.json" --html "$TMP/h.html" >/dev/null
{
	printf 'dbench version 4.00 - %s\n\n' "$P"
	printf "Running for 10 seconds with load '%s' and minimum warmup 2 secs\n" "$P"
	printf '   2      1000   100.00 MB/sec  execute   1 sec  latency 1.000 ms\n'
	printf '[1] ERROR %s failed\n\n' "$P"
	printf ' Not run: 5 lines of ops the backend cannot do\n LockX:   5  %s\n\n' "$P"
	printf ' Per op          Count    AvgLat    MaxLat\n'
	printf ' ========================================\n'
	printf ' NTCreateX:       100     0.010     0.020\n\n'
	printf 'Partial figures of a failed run: 100 MB/sec  2 clients  2 procs  max_latency=1.000 ms\n'
} >"$TMP/h.log"
expect_rc 0 "$DBNG" report "$TMP/h.log" --html "$TMP/l.html" >/dev/null
# the pages of several runs: the strings, and markup in the file names
# they show (the runs' names are the command line's)
N="<svg onload='$J'>&amp;\"x"
cp "$TMP/h.json" "$TMP/$N.json" || fail "cannot name a file with markup"
"$DBNG" compare --mixed-workloads --mixed-paths --html "$TMP/c.html" "$TMP/$N.json" -- \
	"$TMP/base.json" >"$TMP/c.out" 2>&1
[ $? -le 1 ] || fail "compare --html of the hostile result: $(cat "$TMP/c.out")"
expect_rc 0 "$DBNG" report "$TMP/$N.json" "$TMP/h.log" --html "$TMP/s.html" >/dev/null

for f in h l c s; do
	note "$f.html"
	grep -q '<meta http-equiv="Content-Security-Policy" content="default-src '\''none'\''; style-src '\''unsafe-inline'\''"/>' \
		"$TMP/$f.html" || fail "$f.html: no Content-Security-Policy"
	if command -v xmllint >/dev/null; then
		xmllint --noout "$TMP/$f.html" || fail "$f.html: not well-formed"
	fi
	n=$(grep -o 'PW&quot;,&quot;NED' "$TMP/$f.html" | wc -l)
	[ "$n" -ge 3 ] || fail "$f.html: the markup is not there, escaped ($n)"
	# the title a script would set shows in the DOM ("PWNED")
	chromium_run "$TMP/$f.dom" --virtual-time-budget=3000 --dump-dom "file://$TMP/$f.html"
	[ -s "$TMP/$f.dom" ] || fail "no DOM of $f.html"
	python3 - "$TMP/$f.dom" <<'PY' || fail "$f.html: the markup became the page's"
import html.parser, sys
dom = open(sys.argv[1], encoding="utf-8").read()
bad = []
if "PWNED" in dom:
    bad.append("a script ran (PWNED in the DOM)")
class P(html.parser.HTMLParser):
    def handle_starttag(self, tag, attrs):
        if tag in ("script", "img", "iframe", "object", "embed", "frame",
                   "link", "base", "form", "meta") and not (
                       tag == "meta" and len(bad) == 0 and attrs and
                       attrs[0][0] in ("charset", "http-equiv", "name")):
            bad.append("element <%s %s>" % (tag, attrs))
        for k, v in attrs:
            if k.startswith("on"):
                bad.append("attribute %s on <%s>" % (k, tag))
            if v and "javascript:" in v.replace(" ", "").lower() and \
                    k in ("href", "src", "action", "xlink:href"):
                bad.append("a javascript: URL in %s" % k)
P().feed(dom)
if bad:
    sys.exit("; ".join(bad[:5]))
print("ok: %s: nothing of the markup ran or became an element" % sys.argv[1])
PY
done
echo "markup in every string stays text"
