# SPDX-License-Identifier: GPL-3.0-or-later
# Results you can keep (issue 3): --json writes the whole result
# atomically; "dbench-ng report FILE.json" re-renders exactly the live
# run's report (percentiles recomputed from the stored bins); --json -
# moves the human output to stderr; failed and interrupted runs still
# write what they measured, marked so; bad files are refused with exit 2.
. "$(dirname "$0")/../lib.sh"

D=$TMP/d
mkdir -p "$D"
LF=$DATA/loadfiles/smoke.load

# after_progress FILE: the live output after the last cleanup line
after_progress() { awk 'f {print} /^ +0  cleanup /{f = 1}' "$1"; }

note "live report == report of the stored JSON"
for args in "-t 3 --warmup 1" "-t 2 --warmup 0 --per-client-results -s -S" \
	"-t 2 --warmup 1 --machine-readable"; do
	# shellcheck disable=SC2086
	expect_rc 0 "$DBNG" $args --json "$TMP/r.json" -D "$D" 2 >"$TMP/live"
	expect_rc 0 "$DBNG" report "$TMP/r.json" >"$TMP/rep"
	if [[ $args == *machine* ]]; then
		awk 'f {print} /^@C@0@/{f = 1}' "$TMP/live" >"$TMP/live.rep"
	else
		after_progress "$TMP/live" >"$TMP/live.rep"
	fi
	[ -s "$TMP/live.rep" ] || fail "no report in the live output ($args)"
	diff "$TMP/live.rep" "$TMP/rep" >"$TMP/diff" ||
		fail "report differs from the live run ($args): $(cat "$TMP/diff")"
	echo "ok: $args: $(wc -l <"$TMP/rep") lines identical"
done

note "the JSON document"
expect_rc 0 "$DBNG" -t 3 --warmup 1 -c builtin:netbench --json "$TMP/r.json" -D "$D" 2 >"$TMP/live3"
j=$TMP/r.json
grep -q '"format_version": 1' "$j" || fail "no format_version"
for k in '"command_line"' '"config"' '"environment"' '"kernel"' \
	'"fs_type"' '"mount_options"' '"sha256"' '"throughput_mbps"' \
	'"max_latency_ms"' '"bins"' '"99.99"' '"max_op"' '"time_series"' \
	'"latency_ms"' '"p99_ns"'; do
	grep -q "$k" "$j" || fail "the result lacks $k"
done
grep -q '"status": "ok"' "$j" || fail "status not ok"
grep -q '"backend_version": 2,' "$j" && grep -q '"backend_options": null' "$j" ||
	fail "backend version or options: $(grep '"backend' "$j")"
grep -q '"paths": "full",' "$j" || fail "paths: $(grep '"paths' "$j")"
expect_rc 0 "$DBNG" -t 1 --warmup 0 -o no-openat2 -o no-openat2=1 \
	--json "$TMP/o.json" -D "$D" 1 >/dev/null
grep -q '"backend_options": "no-openat2"' "$TMP/o.json" ||
	fail "-o no-openat2 not recorded: $(grep '"backend' "$TMP/o.json")"
echo "ok: the backend's version and -o options are recorded"
sha=$(sha256sum "$ROOT/loadfiles/netbench.load" | cut -d' ' -f1)
grep -q "\"sha256\": \"$sha\"" "$j" || fail "loadfile sha256 is not $sha"
[ "$(jq -r '.environment.loadfiles[0].kind' "$j")" = builtin ] ||
	fail "loadfile kind: $(jq -c .environment.loadfiles "$j")"
[ "$(stat -c %a "$j")" = "$(printf '%o' $((0666 & ~$(umask))))" ] ||
	fail "mode $(stat -c %a "$j") ignores the umask"
ls "$TMP"/r.json.tmp.* 2>/dev/null && fail "temporary file left behind"
# execute seconds in the series: one point per execute line
n_exec=$(grep -c '"warmup": false' "$j")
[ "$n_exec" -ge 2 ] || fail "only $n_exec execute points in the time series"
# the series covers the whole run: intervals back to back from the
# release; one point per progress line, with the line's own figures
# (lines per client since the start, latency), plus the two ticks that
# print no line (the end of the warmup, the stop) -- however late a busy
# machine's ticks come; and together the lines of every client and every
# byte of the execute phase, but those of the ops that end after the stop
python3 - "$j" "$TMP/live3" <<'PY' || fail "the time series does not cover the run"
import json, sys
d = json.load(open(sys.argv[1]))
pts = d["time_series"]["points"]
n = d["config"]["clients"]
t = 0.0
for p in pts:
    assert abs(p["t"] - p["dur"] - t) < 1e-6, ("gap before", p["t"], t)
    assert p["dur"] > 0, ("interval", p["t"], p["dur"])
    t = p["t"]
prog = [l.split() for l in open(sys.argv[2])
        if len(l.split()) == 10 and l.split()[4] in ("warmup", "execute")]
last_warm = max(i for i, p in enumerate(pts) if p["warmup"])
assert last_warm < len(pts) - 1, "no execute point"
line_pts = [i for i in range(len(pts)) if i not in (last_warm, len(pts) - 1)]
assert len(line_pts) == len(prog), ("points", len(pts), "progress lines", len(prog))
# The lines a progress line shows (all clients' / n, rounded down) are
# what the points up to it hold: none lost, also at the end of the warmup
# (the runner once re-read the counts there and lost 0-255 lines a run)
for i, l in zip(line_pts, prog):
    p, done = pts[i], sum(q["lines"] for q in pts[:i + 1])
    assert p["warmup"] == (l[4] == "warmup"), ("phase", p, l)
    assert "%.3f" % p["latency_ms"] == l[8], ("latency", p["latency_ms"], l)
    assert int(l[1]) * n <= done <= int(l[1]) * n + n - 1, ("lines", done, n, l)
# an op that ends after the stop is in the clients' totals only: at most
# one per client (a Sleep or I/O it was in), of at most 2 lines (the
# built-in workload's first line follows a comment) and 65536 bytes
nbytes = sum(c["bytes"] for c in d["clients"])
pbytes = sum(p["bytes"] for p in pts if not p["warmup"])
assert nbytes - n * 65536 <= pbytes <= nbytes, ("execute bytes", pbytes, nbytes)
lines = sum(c["lines"] for c in d["clients"])
plines = sum(p["lines"] for p in pts)
assert 0 <= lines - plines <= 2 * n, ("lines", plines, lines)
print("ok: %d points for %d progress lines, %d of %d lines, from 0 to %.3f s"
      % (len(pts), len(prog), plines, lines, t))
PY

note "--json - : JSON on stdout, the text on stderr"
expect_rc 0 "$DBNG" -t 2 --warmup 0 -c "$LF" --json - -D "$D" 1 >"$TMP/out" 2>"$TMP/err"
head -c1 "$TMP/out" | grep -q '{' || fail "stdout is not JSON: $(head -3 "$TMP/out")"
tail -1 "$TMP/err" | grep -q '^Throughput ' || fail "the text is not on stderr"
expect_rc 0 "$DBNG" report "$TMP/out" >/dev/null

note "--percentiles chooses the columns"
expect_rc 0 "$DBNG" report "$j" --percentiles 50,99.99 >"$TMP/rep"
grep -q '^ Latency ms        Count      Mean       p50    p99.99       Max$' "$TMP/rep" ||
	fail "columns: $(grep Latency "$TMP/rep")"
"$DBNG" report "$j" --percentiles 50,abc >/dev/null 2>"$TMP/err"
[ $? = 2 ] && grep -q "'abc' is not a percentile" "$TMP/err" || fail "bad --percentiles"

note "a failed run writes its JSON, marked failed"
printf 'Unlink "\\clients\\client1\\nope" 0x6 NT_STATUS_OK\n' >"$TMP/fail.load"
"$DBNG" -t 5 -c "$TMP/fail.load" --json "$TMP/f.json" -D "$D" 1 >/dev/null 2>&1
[ $? = 1 ] || fail "the failing run did not exit 1"
grep -q '"status": "failed"' "$TMP/f.json" || fail "not marked failed"
grep -q 'fail.load:1: Unlink' "$TMP/f.json" || fail "the error is not in the JSON"

note "an interrupted run writes its JSON, marked interrupted"
set -m
: >"$TMP/out" # now: the job truncates it later, and wait_for must not see the last run's lines
"$DBNG" -t 60 --warmup 0 -c "$LF" --json "$TMP/i.json" -D "$D" 1 >"$TMP/out" 2>&1 &
pid=$!
set +m
# in the measured phase (an execute line), so "after X s of measurement"
wait_for "$TMP/out" " execute "
kill -INT $pid
wait $pid
[ $? = 130 ] || fail "interrupted run did not exit 130"
grep -q '"status": "interrupted"' "$TMP/i.json" || fail "not marked interrupted"
grep -q '"signal": 2' "$TMP/i.json" || fail "signal not recorded"
expect_rc 0 "$DBNG" report "$TMP/i.json" >"$TMP/rep"
grep -q '^Interrupted by signal 2 after' "$TMP/rep" || fail "re-render lost the mark"

if command -v dbench >/dev/null && [ -r "$CLIENT_TXT" ]; then
	note "a dbench 4.0 log re-renders as dbench printed it"
	(cd "$D" && dbench -t 3 -c "$CLIENT_TXT" -D "$D" 2) >"$TMP/db.log" 2>&1 ||
		fail "dbench 4.0 failed"
	expect_rc 0 "$DBNG" report "$TMP/db.log" >"$TMP/rep"
	after_progress "$TMP/db.log" >"$TMP/db.rep"
	diff "$TMP/db.rep" "$TMP/rep" >"$TMP/diff" ||
		fail "re-rendered dbench log differs: $(cat "$TMP/diff")"
	echo "ok: the dbench 4.0 table and Throughput line reproduced exactly"
fi

note "--runs 3: three results, each on a fresh tree, and the spread"
expect_rc 0 "$DBNG" -t 2 --warmup 0 --runs 3 -c "$LF" --json "$TMP/runs.json" -D "$D" 2 >"$TMP/out"
for i in 1 2 3; do
	grep -q '"status": "ok"' "$TMP/runs-$i.json" || fail "no result of run $i"
	grep -q "^==> run $i of 3$" "$TMP/out" || fail "run $i not announced"
done
[ "$(grep -c '^Running for' "$TMP/out")" = 3 ] || fail "not three runs"
grep -q '^Run-to-run spread over 3 runs' "$TMP/out" || fail "no spread summary"
grep -Eq '^ Rename: mean ms +[0-9.]+ \[ *[0-9.]+ \.\. +[0-9.]+\]  cv +[0-9.]+%$' "$TMP/out" ||
	fail "no Rename row in the spread"
tail -1 "$TMP/out" | grep -q '^Throughput .* 2 clients  2 procs  max_latency=' ||
	fail "the last line is not a Throughput line"
[ ! -e "$D/clients" ] || fail "client tree left after --runs"
grep -q "\"json\": \"$TMP/runs-2.json\"" "$TMP/runs-2.json" ||
	fail "runs-2.json does not name itself in config.json"
grep -q '"runs": 3' "$TMP/runs-2.json" || fail "config.runs is not 3"

note "the stall threshold and the JSON path reach the HTML page"
expect_rc 0 "$DBNG" -t 1 --warmup 0 --stall-threshold 250 -c "$LF" \
	--json "$TMP/st.json" -D "$D" 1 >/dev/null
grep -q '"stall_threshold_ms": 250,' "$TMP/st.json" ||
	fail "config.stall_threshold_ms is not 250"
expect_rc 0 "$DBNG" report "$TMP/st.json" --html "$TMP/st.html" >/dev/null
grep -q '<code>--stall-threshold</code></td><td>250 ms</td>' "$TMP/st.html" ||
	fail "the page does not show the stall threshold of 250 ms"
grep -qF "<code>--json</code></td><td>$TMP/st.json</td>" "$TMP/st.html" ||
	fail "the page does not show the JSON path"
echo "ok: 250 ms and $TMP/st.json on the page"
"$DBNG" -t 2 --runs 2 --json - -D "$D" 1 >/dev/null 2>"$TMP/err"
[ $? = 2 ] || fail "--json - with --runs 2 accepted"

note "bad files: exit 2, the file and what was expected named"
bad() {
	local want=$1
	shift
	"$DBNG" report "$@" >/dev/null 2>"$TMP/err"
	[ $? = 2 ] || fail "report $*: exit $?, expected 2"
	grep -q -- "$want" "$TMP/err" || fail "report $*: '$(cat "$TMP/err")' lacks '$want'"
	echo "ok: $(cat "$TMP/err")"
}
head -c 3000 "$j" >"$TMP/trunc.json"
bad "trunc.json:[0-9]*:[0-9]*: " "$TMP/trunc.json"
sed 's/"count": \([0-9]*\)/"count": "x"/' "$j" >"$TMP/type.json"
bad "field 'ops\[\].count' is missing or has the wrong type" "$TMP/type.json"
echo "just some text" >"$TMP/neither.txt"
bad "neither a dbench-ng JSON result nor a dbench text log" "$TMP/neither.txt"
bad "No such file" "$TMP/missing.json"
bad "missing FILE"
bad "unknown option '--frob'" "$j" --frob
note "a --json path that cannot be written: refused before the run"
# each is refused with exit 2 before anything is created or run: a
# refusal after the run (exit 3, no JSON) loses the whole benchmark
badjson() {
	local want=$1 before
	shift
	before=$(find "$D" | sort)
	"$DBNG" -t 30 --warmup 0 -c "$LF" -D "$D" "$@" 1 >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc = 2 ] || fail "--json ${*: -1}: exit $rc, expected 2: $(cat "$TMP/err")"
	grep -q -- "$want" "$TMP/err" || fail "'$(cat "$TMP/err")' lacks '$want'"
	grep -q "releasing clients" "$TMP/out" && fail "ran before refusing ${*: -1}"
	[ "$(find "$D" | sort)" = "$before" ] ||
		fail "DIR changed for a refused --json: $(find "$D")"
	echo "ok: $(cat "$TMP/err")"
}
badjson "No such file or directory" --json "$TMP/nodir/r.json"
badjson "Is a directory" --json "$TMP"
mkdir -p "$D/clients"	# left by an earlier --skip-cleanup, say
badjson "inside $D/clients, which the run removes" --json "$D/clients/r.json"
mkdir -p "$D/clients/client0"
badjson "inside $D/clients" --json "$D/clients/client0/../r.json"
badjson "inside $D/clients" --json "$D/clients"
ln -s "$D" "$TMP/alias"
badjson "inside" --json "$TMP/alias/clients/r.json"
badjson "inside" --runs 2 --json "$D/clients/r.json"
rm "$TMP/alias"
rm -r "$D/clients"
if [ "$(id -u)" != 0 ]; then	# root may write anywhere
	mkdir "$TMP/ro"
	chmod 555 "$TMP/ro"
	badjson "Permission denied" --json "$TMP/ro/r.json"
fi
note "the temporary JSON is unnamed until it is complete"
# (O_TMPFILE): the run's file exists from the start, yet no temporary
# name shows in the directory (only FILE itself, a checkpoint, once the
# first tick wrote one), so a parent killed with SIGKILL leaves no half
# file (process.sh); at the end it is renamed into place
: >"$TMP/out" # now: the job truncates it later, and wait_for must not see the last run's lines
"$DBNG" -t 4 --warmup 0 -c "$LF" --json "$TMP/tmpf.json" -D "$D" 1 >"$TMP/out" 2>&1 &
pid=$!
wait_for "$TMP/out" " sec  latency "
ls -l "/proc/$pid/fd" | grep -q "$TMP/#[0-9]* (deleted)" ||
	fail "no unnamed temporary file open: $(ls -l /proc/$pid/fd)"
[ -z "$(ls "$TMP" | grep 'tmpf\.json\.')" ] || fail "a named temporary file: $(ls "$TMP")"
wait $pid || fail "the run failed: $(cat "$TMP/out")"
json_ok=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["status"])' "$TMP/tmpf.json")
[ "$json_ok" = ok ] || fail "status $json_ok"
[ "$(ls "$TMP" | grep -c tmpf)" = 1 ] || fail "files left: $(ls "$TMP")"
echo "ok: unnamed until complete, then renamed"

note "checkpoints: the file holds the run so far while it runs"
# the first with the first tick, one every 5 s, the last of the measured
# phase at its end; status running and the time covered; report, the
# page and compare say it is partial; check refuses it as a baseline;
# the final write replaces it
: >"$TMP/out"
"$DBNG" -t 8 --warmup 2 -c "$LF" --json "$TMP/ck.json" -D "$D" 2 >"$TMP/out" 2>&1 &
pid=$!
wait_until 30 test -e "$TMP/ck.json" || fail "no checkpoint after 30 s: $(cat "$TMP/out")"
cp "$TMP/ck.json" "$TMP/ck1.json"
# the next one (6 s) is of the measured phase
wait_until 30 eval "python3 -c 'import json, sys
sys.exit(json.load(open(sys.argv[1]))[\"summary\"][\"measured_s\"] <= 0)' '$TMP/ck.json'" ||
	fail "no checkpoint of the measured phase"
cp "$TMP/ck.json" "$TMP/ck2.json"
python3 - "$TMP/ck1.json" "$TMP/ck2.json" <<'PY' || fail "the checkpoints"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
for d in a, b:
    assert d["status"] == "running", d["status"]
    pts = d["time_series"]["points"]
    assert abs(d["covers_s"] - pts[-1]["t"]) < 1e-6, (d["covers_s"], pts[-1])
    assert d["config"]["json"].endswith("/ck.json"), d["config"]["json"]
    assert d["environment"]["kernel"], "no environment"
    assert d["clients"] == [], "clients in a checkpoint"
    assert d["checkpoint_time"] >= d["start_time"], d["checkpoint_time"]
# the first, in the warmup: its ops are the warmup's; the second covers
# more and its ops are of the measured phase, as many as its points say
assert a["summary"]["measured_s"] == 0 and a["covers_s"] < b["covers_s"]
pts = [p for p in b["time_series"]["points"] if not p["warmup"]]
for o in b["ops"]:
    n = sum(p["ops"].get(o["name"], [0])[0] for p in pts)
    assert o["count"] == n, (o["name"], o["count"], n)
assert abs(b["summary"]["measured_s"] - sum(p["dur"] for p in pts)) < 1e-6
print("ok: checkpoints of %.1f and %.1f s" % (a["covers_s"], b["covers_s"]))
PY
expect_rc 0 "$DBNG" report "$TMP/ck2.json" >"$TMP/rep"
grep -q '^Checkpoint of a run still running or killed, after [0-9.]* s of measurement: partial results$' "$TMP/rep" ||
	fail "report: $(head -3 "$TMP/rep")"
tail -1 "$TMP/rep" | grep -q '^Partial figures of an unfinished run: ' ||
	fail "report: $(tail -1 "$TMP/rep")"
grep -q '^Throughput' "$TMP/rep" && fail "a checkpoint reported as a result"
expect_rc 0 "$DBNG" report "$TMP/ck1.json" >"$TMP/rep"
grep -q '^Checkpoint of a run still running or killed, during the warmup' "$TMP/rep" ||
	fail "report of the warmup's: $(head -3 "$TMP/rep")"
expect_rc 0 "$DBNG" report "$TMP/ck2.json" --html "$TMP/ck.html" >/dev/null
grep -q 'class="banner st-running">A checkpoint' "$TMP/ck.html" ||
	fail "the page has no banner for the checkpoint"
wait $pid || fail "the run failed: $(cat "$TMP/out")"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d["status"] == "ok" and "covers_s" not in d and
         "checkpoint_time" not in d else d["status"])' \
	"$TMP/ck.json" || fail "the final write did not replace the checkpoint"
ls "$TMP" | grep -q 'ck\.json\.' && fail "a temporary file left: $(ls "$TMP")"
"$DBNG" compare "$TMP/ck.json" -- "$TMP/ck2.json" >"$TMP/cmp" 2>&1
grep -q "ck2.json) is a checkpoint of a run that had not ended (still running, or killed): partial figures" "$TMP/cmp" ||
	fail "compare does not note the checkpoint: $(cat "$TMP/cmp")"
"$DBNG" check --baseline "$TMP/ck2.json" -t 1 --warmup 0 -c "$LF" -D "$D" 1 >"$TMP/cmp" 2>&1
rc=$?
[ $rc = 255 ] || fail "check decided on a checkpoint (exit $rc): $(cat "$TMP/cmp")"
grep -q "^bad input: .*ck2.json: a checkpoint of a run that had not ended" "$TMP/cmp" ||
	fail "check: $(cat "$TMP/cmp")"
[ ! -e "$D/clients" ] || fail "check ran a run for a checkpoint baseline"
echo "ok: report, the page and compare say partial, check refuses it"

echo "all json checks passed"
