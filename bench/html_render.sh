#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# html_render.sh: how long does headless Chromium take to lay out the
# largest page dbench-ng writes, compare --html of 32 against 32 runs of
# the 17 ops (tests/cli/multiprobe.c), and that page's size?
#
# Makes the runs, writes the page with the real command line (and times
# that), then loads it ROUNDS (5) times in a fresh Chromium each and reads
# over the DevTools pipe (tests/cdp.py: no port, no network) the time from
# the navigation to the second frame after the load event.  Prints every
# round, the median, and the median against the goal of the issue, 2 s
# (under 1.0 meets it), and the same for the page of one run (a real-size
# synthetic run, htmlprobe's stall case) as the reference of what a page
# costs at all.  Timings are the machine's: run it on a quiet one.
#
# Run: make test-progs && bench/html_render.sh [ROUNDS]
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ROUNDS=${1:-5}
CHROMIUM=$(command -v chromium) || { echo "chromium not installed"; exit 1; }
for p in multiprobe htmlprobe; do
	[ -x "$ROOT/build/tests/cli/$p" ] ||
		{ echo "build/tests/cli/$p not built (make test-progs)"; exit 1; }
done
TMP=$(mktemp -d "${TMPDIR:-/tmp}/dbng-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

mkdir "$TMP/r"
"$ROOT/build/tests/cli/multiprobe" "$TMP/r" b 32 60 1 &&
	"$ROOT/build/tests/cli/multiprobe" "$TMP/r" c 32 60 1.3 || exit 1
s0=$(date +%s.%N)
"$ROOT/dbench-ng" compare --html "$TMP/cmp.html" "$TMP"/r/b{1..32}.json -- \
	"$TMP"/r/c{1..32}.json >/dev/null
s1=$(date +%s.%N)
"$ROOT/build/tests/cli/htmlprobe" stall "$TMP/one.html" || exit 1

# median of the numbers on stdin
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for page in cmp one; do
	: >"$TMP/$page.ms"
	for i in $(seq "$ROUNDS"); do
		echo 1 | python3 "$ROOT/tests/cdp.py" "$CHROMIUM" \
			"$TMP/$page.html" "$TMP/o.json" || exit 1
		python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["load_ms"])' \
			"$TMP/o.json" >>"$TMP/$page.ms"
	done
	m=$(median <"$TMP/$page.ms")
	printf '%-4s %8d bytes  rounds (ms): %s  median %s ms  median/2000 ms %.2f\n' \
		"$page" "$(stat -c %s "$TMP/$page.html")" \
		"$(tr '\n' ' ' <"$TMP/$page.ms")" "$m" "$(echo "$m / 2000" | bc -l)"
done
printf 'compare --html of 64 runs wrote the page in %.2f s\n' "$(echo "$s1 - $s0" | bc -l)"
