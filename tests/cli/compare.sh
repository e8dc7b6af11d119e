# SPDX-License-Identifier: GPL-3.0-or-later
# dbench-ng compare on real runs.  The baseline loadfile takes a POSIX lock
# on a file of its own client; the candidate's two clients share the file
# and hold the lock for 200 ms in turn, so every candidate LockX waits
# about 200 ms: the regression compare must find (exit 1), by the
# thresholds at 3 vs 3 runs (which cannot reach alpha) and by the test at
# 4 vs 4 with one pre-registered metric (p = 2/70 = 0.029).  Also: no
# regression against itself (exit 0), improvements, two dbench 4.0 text
# logs, bad input (exit 2) and the JSON report; runs of other workloads
# (loadfiles, a log's Running line, client.txt against the built-in
# workload of a run without -c) refused unless --mixed-workloads.
. "$(dirname "$0")/../lib.sh"

# the regression is the candidate's loadfile: other workloads, compared
# all the same (their refusal is tested below)
CMP=("$DBNG" compare --mixed-workloads)
# runs beside other load that carry own latencies (BPF, as root) are
# compared on them, and the reason says so: either form is the verdict
OWN='(own )?'
ONOWN='(; on own latencies \(busy machine\))?'

# verdict WHAT ARGS...: compare ARGS gives a verdict (exit 0 or 1), not a
# refusal; its output in $TMP/out
verdict() {
	local what=$1 rc
	shift
	"$DBNG" compare "$@" >"$TMP/out" 2>&1
	rc=$?
	[ $rc = 0 ] || [ $rc = 1 ] || fail "$what: exit $rc: $(cat "$TMP/out")"
}

lock_loads 8 qpath

note "4 baseline and 4 candidate runs, interleaved"
mkdir -p "$TMP/d"
for i in 1 2 3 4; do
	for side in base cand; do
		expect_rc 0 "$DBNG" -t 2 --warmup 0 -c "$TMP/$side.load" \
			--json "$TMP/$side$i.json" -D "$TMP/d" 2 >/dev/null
	done
done
B3=("$TMP"/base[123].json) C3=("$TMP"/cand[123].json)
B4=("$TMP"/base[1-4].json) C4=("$TMP"/cand[1-4].json)

note "3 vs 3: n too small to reach alpha, flagged by the thresholds"
expect_rc 1 "${CMP[@]}" "${B3[@]}" -- "${C3[@]}" >"$TMP/out"
cat "$TMP/out"
grep -q '^3 vs 3 runs: n too small to reach alpha 0.05 (smallest possible p 0.1)$' "$TMP/out" ||
	fail "no 'n too small' line"
grep -Eq '^ LockX +over100ms +0 +[0-9]+ +\+inf .* REGRESSED$' "$TMP/out" ||
	fail "LockX over100ms not flagged"
# the p50 row shows the median of each run's own p50 (as its JSON has it,
# to the 3 digits shown): tiny for the baseline's lock of its own, and for
# the candidate a wait on the other client's 200 ms hold, so at least half
# of it (a p50 that is no lock wait fails) and under twice it (a wait
# counted double fails), whatever the speed of the machine; its verdict
# "few ops" while a run has fewer than 20 LockX (10 beyond the p50, about
# 9 in the candidate's 2 s), REGRESSED from 20 on
python3 - "$TMP/out" "${B3[@]}" -- "${C3[@]}" <<'PY' || fail "LockX p50 is not the runs' lock wait"
import json, statistics, sys
args = sys.argv[2:]
sides = (args[:args.index("--")], args[args.index("--") + 1:])
med = [statistics.median(
    [o["lat_ns"]["percentiles"]["50"] / 1e6 for f in side
     for o in json.load(open(f))["ops"] if o["name"] == "LockX"])
    for side in sides]
row = [l.split() for l in open(sys.argv[1]) if l.split()[:2] == ["LockX", "p50"]][0]
fewest = min(o["count"] for side in sides for f in side
             for o in json.load(open(f))["ops"] if o["name"] == "LockX")
want = ["REGRESSED"] if fewest >= 20 else ["few", "ops"]
shown = [float(row[2]), float(row[3])]
print("LockX p50: runs' medians %.6g -> %.6g ms, shown %s -> %s, %s "
      "(fewest ops %d)" % (med[0], med[1], row[2], row[3],
                           " ".join(row[len(row) - len(want):]), fewest))
ok = all(abs(a - b) <= 0.005 * b for a, b in zip(shown, med))
sys.exit(0 if ok and row[len(row) - len(want):] == want and 100 <= med[1] < 400 and
         med[0] < med[1] else 1)
PY
# the throughput first, then the means (the strongest evidence), then the
# rest of the regressed metrics
tail -1 "$TMP/out" | grep -Eq '^regressed: '"$OWN"'throughput [0-9.]+ -> [0-9.]+ MB/s .* by thresholds; 3 vs 3 runs: n too small to reach alpha 0.05'"$ONOWN"'\), and [0-9]+ more metrics: (.*, )?LockX mean, .*LockX over100ms' ||
	fail "reason line: $(tail -1 "$TMP/out")"

expect_rc 1 "${CMP[@]}" --changed "${B3[@]}" -- "${C3[@]}" >"$TMP/out2"
grep -q '^ ([0-9]* rows of no change not shown)$' "$TMP/out2" || fail "--changed"
grep -v '^ ' "$TMP/out" | cmp -s - <(grep -v '^ ' "$TMP/out2") ||
	fail "--changed changed more than the rows"

note "4 vs 4, one pre-registered metric: the test decides (p = 0.029)"
expect_rc 1 "${CMP[@]}" --metrics LockX:over100ms --json "$TMP/cmp.json" \
	"${B4[@]}" -- "${C4[@]}" >"$TMP/out"
cat "$TMP/out"
grep -q '^p: Mann-Whitney U on per-run values, Holm-adjusted over 1 metric ' "$TMP/out" ||
	fail "not decided by the test"
tail -1 "$TMP/out" | grep -Eq '^regressed: LockX '"$OWN"'over100ms 0 -> [0-9]+ per million ops \(p=0\.029, 4 vs 4 runs'"$ONOWN"'\)$' ||
	fail "reason line: $(tail -1 "$TMP/out")"
[ "$(jq -r .mode "$TMP/cmp.json")" = test ] || fail "JSON mode"
[ "$(jq -r .exit "$TMP/cmp.json")" = 1 ] || fail "JSON exit"
[ "$(jq -r '.metrics[0].verdict' "$TMP/cmp.json")" = regressed ] || fail "JSON verdict"
[ "$(jq -r '.metrics[0].candidate | length' "$TMP/cmp.json")" = 4 ] || fail "JSON values"
jq -r .reason "$TMP/cmp.json" | cmp -s - <(tail -1 "$TMP/out") || fail "JSON reason"
[ "$(jq -r '.baseline_runs[0]' "$TMP/cmp.json")" = "${B4[0]}" ] || fail "JSON run names"

note "the other way round LockX improved: exit 0"
expect_rc 0 "${CMP[@]}" --metrics LockX "${C4[@]}" -- "${B4[@]}" >"$TMP/out"
grep -Eq '^ LockX +mean .* improved$' "$TMP/out" || fail "no improvement shown"
tail -1 "$TMP/out" | grep -q '^no regression: .*; [0-9]* improved$' || fail "reason: $(tail -1 "$TMP/out")"

note "runs against themselves: nothing regressed"
expect_rc 0 "${CMP[@]}" "${B4[@]}" -- "${B4[@]}" >"$TMP/out"
tail -1 "$TMP/out" | grep -Eq '^no regression: [0-9]* metrics compared, none past the thresholds \(4 vs 4 runs: n too small to reach alpha 0.05 over [0-9]* metrics'"$ONOWN"'\)$' ||
	fail "reason: $(tail -1 "$TMP/out")"
! grep -q 'REGRESSED\|improved$' "$TMP/out" || fail "flags against itself"

note "ordinary numbers only: an overflow, a denormal, an underflow to 0 are refused"
expect_rc 0 "${CMP[@]}" --alpha 1e-300 --noise 1e-300 --floor 0 "${B4[@]}" -- "${B4[@]}" >/dev/null
for o in "--floor 1e400" "--alpha 1e-320" "--noise 1e-320" "--floor 1e-400"; do
	# shellcheck disable=SC2086
	expect_rc 2 "${CMP[@]}" $o "${B4[@]}" -- "${B4[@]}" 2>"$TMP/err"
	grep -q "^dbench-ng compare: ${o%% *}: '${o#* }' is not" "$TMP/err" || fail "$o: $(cat "$TMP/err")"
done

note "one run per side: thresholds only, and it says so"
expect_rc 1 "${CMP[@]}" "$TMP/base1.json" -- "$TMP/cand1.json" >"$TMP/out"
grep -q '^1 vs 1 run: significance cannot be judged; flagged only by the thresholds' "$TMP/out" ||
	fail "no 1-run note"

note "the btrfs report of README.md, one run a side: the Rename stall is flagged, nothing else"
# tests/data/dblog/btrfs-kernel-{a,b}-4.0.txt: dbench 4.0 logs of -s -t 60
# with 4 clients made to hold the report's Rename rows (18242 0.080 0.340
# against 17749 0.110 503.312), the other rows within a few percent (their
# maxima within 12 %), the throughput 2.7 % lower
BA=$DATA/dblog/btrfs-kernel-a-4.0.txt BB=$DATA/dblog/btrfs-kernel-b-4.0.txt
expect_rc 1 "${CMP[@]}" "$BA" -- "$BB" >"$TMP/out"
[ "$(grep -c 'REGRESSED$' "$TMP/out")" = 1 ] || fail "btrfs report: not only Rename max flagged: $(grep -E 'REGRESSED|improved' "$TMP/out")"
grep -Eq '^ Rename +max +0\.34 +503 +x1480 .* REGRESSED$' "$TMP/out" || fail "btrfs report: $(grep Rename "$TMP/out")"
tail -1 "$TMP/out" | grep -q '^regressed: Rename max 0.34 -> 503 ms (x1480, by thresholds; 1 vs 1 run: significance cannot be judged)$' ||
	fail "btrfs report: reason: $(tail -1 "$TMP/out")"
grep -q '^machine: unknown (not recorded by the runs: dbench logs or older results)$' "$TMP/out" ||
	fail "btrfs report: the machine of dbench logs: $(grep machine "$TMP/out")"
# the other way round: improved, exit 0
expect_rc 0 "${CMP[@]}" "$BB" -- "$BA" >"$TMP/out"
grep -Eq '^ Rename +max .* improved$' "$TMP/out" && [ "$(grep -c '^ .* improved$' "$TMP/out")" = 1 ] ||
	fail "btrfs report reversed: $(grep -E 'REGRESSED|improved' "$TMP/out")"
echo "ok: $(tail -1 "$TMP/out")"

note "two dbench 4.0 text logs"
if command -v dbench >/dev/null && [ -f "$CLIENT_TXT" ]; then
	mkdir -p "$TMP/dd"
	for i in 1 2; do
		timeout 60 dbench -t 3 -c "$CLIENT_TXT" -D "$TMP/dd" 2 >"$TMP/log$i.txt" 2>&1 ||
			fail "dbench failed: $(tail -3 "$TMP/log$i.txt")"
	done
	"${CMP[@]}" "$TMP/log1.txt" -- "$TMP/log2.txt" >"$TMP/out"
	rc=$?
	cat "$TMP/out"
	[ $rc = 0 ] || [ $rc = 1 ] || fail "two logs: exit $rc"
	grep -q '^note: 2 of the 2 runs are dbench text logs' "$TMP/out" || fail "no text-log note"
	for m in ops/s mean max; do
		grep -Eq "^ Rename +$m " "$TMP/out" || fail "no Rename $m row"
	done
	! grep -Eq '^ Rename +(p50|p99|over10ms) ' "$TMP/out" || fail "a log has no percentiles"
	grep -Eq '^ all +MB/s ' "$TMP/out" || fail "no throughput row"
	expect_rc 0 "${CMP[@]}" "$TMP/log1.txt" -- "$TMP/log1.txt" >/dev/null
	# the same log with one Rename at 500 ms, or ten times its max if that
	# is more: past the factor 4 of a max whatever dbench measured
	slow=$(awk '/^ Rename / {m = $4 * 10; printf "%.3f", (m > 500 ? m : 500); exit}' "$TMP/log1.txt")
	awk -v s="$slow" '/^ Rename / {$4 = s; printf " %-12s %7s %9s %9s\n", $1, $2, $3, $4; next} {print}' \
		"$TMP/log1.txt" >"$TMP/log1-slow.txt"
	expect_rc 1 "${CMP[@]}" "$TMP/log1.txt" -- "$TMP/log1-slow.txt" >"$TMP/out"
	[ "$(grep -c 'REGRESSED$' "$TMP/out")" = 1 ] || fail "more than Rename max flagged"
	grep -Eq '^ Rename +max .* REGRESSED$' "$TMP/out" || fail "Rename max not flagged"
	# the reason names the new max, to the 3 digits compare prints
	got=$(tail -1 "$TMP/out" | sed -En 's/^regressed: Rename max [0-9.]+ -> ([0-9.]+) ms \(.*/\1/p')
	[ -n "$got" ] && awk -v g="$got" -v s="$slow" 'BEGIN { exit !(g >= s * 0.995 && g <= s * 1.005) }' ||
		fail "reason: $(tail -1 "$TMP/out"), Rename max made $slow ms"
	# a log without its Running line: its measured time is unknown
	grep -v '^Running for ' "$TMP/log2.txt" >"$TMP/log2-norun.txt"
	"${CMP[@]}" "$TMP/log1.txt" -- "$TMP/log2-norun.txt" >"$TMP/out"
	grep -q "^note: candidate run 1 (.*log2-norun.txt) is a dbench log without its 'Running for' line: its measured time is unknown, so its ops/s are not compared$" "$TMP/out" ||
		fail "no note on the missing Running line: $(grep note "$TMP/out")"
	! grep -Eq '^ Rename +ops/s ' "$TMP/out" || fail "ops/s compared without a Running line"
	# another loadfile named by a log's Running line: refused, or
	# with --mixed-workloads noted
	sed "s|load '[^']*'|load '/elsewhere/other.txt'|" "$TMP/log2.txt" >"$TMP/log2-other.txt"
	expect_rc 2 "$DBNG" compare "$TMP/log1.txt" -- "$TMP/log2-other.txt" >"$TMP/out" 2>"$TMP/err"
	[ "$(cat "$TMP/err")" = "dbench-ng compare: $TMP/log1.txt ran dbench's client.txt ($CLIENT_TXT) and $TMP/log2-other.txt the loadfile /elsewhere/other.txt: other workloads, so their numbers are not comparable (--mixed-workloads compares them anyway)" ] ||
		fail "another loadfile in a log: $(cat "$TMP/err")"
	"${CMP[@]}" "$TMP/log1.txt" -- "$TMP/log2-other.txt" >"$TMP/out"
	grep -q "^note: 1 of the 2 runs ran another loadfile than baseline run 1 (.*client.txt; the name differs)$" "$TMP/out" ||
		fail "no note on another loadfile: $(grep note "$TMP/out")"
	# the same client.txt elsewhere (a /usr/local install) is the same
	sed "s|load '[^']*'|load '/usr/local/share/client.txt'|" "$TMP/log2.txt" >"$TMP/log2-local.txt"
	verdict "client.txt of another install" "$TMP/log1.txt" -- "$TMP/log2-local.txt"
	echo "ok: a log's Running line: its loadfile compared, and without it no ops/s"

	note "no -c: client.txt here, the built-in workload where it is not installed"
	# a run without -c on this machine, and one where the search finds no
	# client.txt (DBENCH_NG_TEST_CLIENT_TXT_PATH, the tests' own list)
	expect_rc 0 "$DBNG" -B null -t 1 --warmup 0 --json "$TMP/def.json" -D "$TMP/d" 1 >/dev/null
	DBENCH_NG_TEST_CLIENT_TXT_PATH= expect_rc 0 "$DBNG" -B null -t 1 --warmup 0 \
		--json "$TMP/def-builtin.json" -D "$TMP/d" 1 >/dev/null 2>&1
	def=$(jq -r .config.loadfile "$TMP/def.json")
	expect_rc 2 "$DBNG" compare "$TMP/def.json" -- "$TMP/def-builtin.json" >"$TMP/out" 2>"$TMP/err"
	[ "$(cat "$TMP/err")" = "dbench-ng compare: $TMP/def.json ran dbench's client.txt ($def) and $TMP/def-builtin.json the built-in workload builtin:netbench: other workloads, so their numbers are not comparable; without -c, a run replays dbench's client.txt where it is installed, else the built-in workload (--mixed-workloads compares them anyway)" ] ||
		fail "client.txt against the built-in: $(cat "$TMP/err")"
	[ ! -s "$TMP/out" ] || fail "a table was printed"
	# a dbench 4.0 log of client.txt: the same workload as the run of
	# client.txt, not as the built-in one
	verdict "a dbench log against a run of client.txt" "$TMP/log1.txt" -- "$TMP/def.json"
	expect_rc 2 "$DBNG" compare "$TMP/log1.txt" -- "$TMP/def-builtin.json" 2>"$TMP/err"
	grep -qF "$TMP/log1.txt ran dbench's client.txt ($CLIENT_TXT) and $TMP/def-builtin.json the built-in workload builtin:netbench" "$TMP/err" ||
		fail "a dbench log against the built-in: $(cat "$TMP/err")"
	verdict "--mixed-workloads, a log against the built-in" --mixed-workloads "$TMP/log1.txt" -- "$TMP/def-builtin.json"
	echo "ok: client.txt and the built-in workload are not mixed"
else
	note "dbench 4.0 not installed: text logs not tested"
fi

note "runs of other loadfiles: refused (exit 2) unless --mixed-workloads"
expect_rc 2 "$DBNG" compare "$TMP/base1.json" -- "$TMP/cand1.json" >"$TMP/out" 2>"$TMP/err"
[ "$(cat "$TMP/err")" = "dbench-ng compare: $TMP/base1.json ran the loadfile $TMP/base.load and $TMP/cand1.json the loadfile $TMP/cand.load: other workloads, so their numbers are not comparable (--mixed-workloads compares them anyway)" ] ||
	fail "other loadfiles: $(cat "$TMP/err")"
[ ! -s "$TMP/out" ] || fail "other loadfiles printed a table"
# within one side too
expect_rc 2 "$DBNG" compare "$TMP/base1.json" "$TMP/cand2.json" -- "$TMP/base2.json" 2>"$TMP/err"
grep -qF "$TMP/base1.json ran the loadfile $TMP/base.load and $TMP/cand2.json the loadfile $TMP/cand.load" "$TMP/err" ||
	fail "other loadfiles in the baseline: $(cat "$TMP/err")"
# the same text under another name is the same workload (by its SHA-256);
# the same name with another text is not, and the SHA-256s say so
cp "$TMP/base.load" "$TMP/renamed.load"
expect_rc 0 "$DBNG" -t 1 --warmup 0 -c "$TMP/renamed.load" --json "$TMP/renamed.json" -D "$TMP/d" 2 >/dev/null
verdict "the same loadfile renamed" "$TMP/base1.json" -- "$TMP/renamed.json"
! grep -q 'another loadfile' "$TMP/out" || fail "the same loadfile renamed is noted: $(grep note "$TMP/out")"
jq --arg f "$TMP/base.load" '.config.loadfile = $f | .environment.loadfiles[0].name = $f' \
	"$TMP/cand1.json" >"$TMP/samename.json"
sb=$(sha256sum <"$TMP/base.load" | cut -c1-12)
sc=$(sha256sum <"$TMP/cand.load" | cut -c1-12)
expect_rc 2 "$DBNG" compare "$TMP/base1.json" -- "$TMP/samename.json" 2>"$TMP/err"
grep -qF "$TMP/base1.json ran the loadfile $TMP/base.load (sha256 $sb...) and $TMP/samename.json the loadfile $TMP/base.load (sha256 $sc...): other workloads" "$TMP/err" ||
	fail "the same name, another text: $(cat "$TMP/err")"
# a result from before loadfiles[].kind: the same
jq 'del(.environment.loadfiles[0].kind)' "$TMP/base2.json" >"$TMP/nokind.json"
verdict "a result without kind" "$TMP/base1.json" -- "$TMP/nokind.json"
echo "ok: other loadfiles refused, by content; --mixed-workloads compares them"

note "bad input: exit 2, naming the file"
expect_rc 2 "${CMP[@]}" "${B3[@]}" "${C3[@]}" 2>"$TMP/err"
grep -q "missing '--'" "$TMP/err" || fail "no message for a missing --"
expect_rc 2 "${CMP[@]}" "$TMP/base1.json" -- "$TMP/nope.json" 2>"$TMP/err"
grep -q "$TMP/nope.json" "$TMP/err" || fail "the missing file is not named"
echo '{"format_version": 1' >"$TMP/trunc.json"
expect_rc 2 "${CMP[@]}" "$TMP/trunc.json" -- "$TMP/cand1.json" 2>"$TMP/err"
grep -q "trunc.json" "$TMP/err" || fail "the bad file is not named"
expect_rc 2 "${CMP[@]}" -- "$TMP/cand1.json" 2>/dev/null
expect_rc 2 "${CMP[@]}" "$TMP/base1.json" -- 2>/dev/null
expect_rc 2 "${CMP[@]}" --alpha 1.5 "$TMP/base1.json" -- "$TMP/cand1.json" 2>/dev/null
expect_rc 2 "${CMP[@]}" --metrics p42 "$TMP/base1.json" -- "$TMP/cand1.json" 2>"$TMP/err"
grep -q "^dbench-ng compare: --metrics: 'p42' is not METRIC" "$TMP/err" || fail "--metrics message"
# --metric is taken too
expect_rc 1 "${CMP[@]}" --metric LockX:max "$TMP/base1.json" -- "$TMP/cand1.json" >/dev/null
expect_rc 2 "${CMP[@]}" --bogus "$TMP/base1.json" -- "$TMP/cand1.json" 2>/dev/null
expect_rc 2 "${CMP[@]}" "$TMP/base1.json" -- "$TMP/cand1.json" --json x 2>"$TMP/err"
grep -q "options go before '--'" "$TMP/err" || fail "no hint for an option after --"
expect_rc 0 "${CMP[@]}" --help >"$TMP/out"
grep -q 'BASELINE\.\.\. -- CANDIDATE\.\.\.' "$TMP/out" || fail "usage"

note "--paths modes are not compared unless --mixed-paths"
expect_rc 0 "$DBNG" -t 1 --warmup 0 --paths dirfd -c "$TMP/base.load" \
	--json "$TMP/dirfd.json" -D "$TMP/d" 2 >/dev/null
grep -q '"paths": "dirfd"' "$TMP/dirfd.json" || fail "no paths dirfd in the JSON"
grep -q '"paths": "full"' "$TMP/base1.json" || fail "no paths full in the JSON"
expect_rc 2 "${CMP[@]}" "$TMP/base1.json" -- "$TMP/dirfd.json" >"$TMP/out" 2>"$TMP/err"
grep -q "^dbench-ng compare: $TMP/base1.json ran --paths full and $TMP/dirfd.json --paths dirfd: .*not comparable (--mixed-paths compares them anyway)$" "$TMP/err" ||
	fail "mixed modes: $(cat "$TMP/err")"
[ ! -s "$TMP/out" ] || fail "mixed modes printed a table"
"${CMP[@]}" --mixed-paths "$TMP/base1.json" -- "$TMP/dirfd.json" >"$TMP/out" 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || fail "--mixed-paths: exit $rc: $(cat "$TMP/out")"
# a result from before --paths (no key) ran through directory fds
grep -v '"paths":' "$TMP/base1.json" >"$TMP/old.json"
expect_rc 2 "${CMP[@]}" "$TMP/old.json" -- "$TMP/base2.json" 2>"$TMP/err"
grep -q "old.json ran --paths dirfd and .*base2.json --paths full" "$TMP/err" ||
	fail "a result without paths: $(cat "$TMP/err")"
"${CMP[@]}" "$TMP/old.json" -- "$TMP/dirfd.json" >"$TMP/out" 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || fail "an older result against dirfd: exit $rc: $(cat "$TMP/out")"
echo "ok: modes refused, --mixed-paths compares, an older result is dirfd"
note "runs of other options, another kernel or filesystem: noted"
python3 - "$TMP/cand1.json" "$TMP/other" <<'PY' || fail "cannot edit the results"
import json, sys
d = json.load(open(sys.argv[1]))
e = dict(d)
e["config"] = dict(d["config"], sync_open=True, fsync=True)
json.dump(e, open(sys.argv[2] + "-opts.json", "w"))
e = dict(d)
env = dict(d["environment"], kernel="9.9.9-other")
env["directory"] = dict(env["directory"], fs_type="xfs")
e["environment"] = env
json.dump(e, open(sys.argv[2] + "-env.json", "w"))
PY
"${CMP[@]}" "$TMP/cand1.json" -- "$TMP/other-opts.json" >"$TMP/out"
grep -q '^note: 1 of the 2 runs ran other options than baseline run 1 (none of -s -S -F -x --no-resolve --stat-check --one-byte-write-fix --fake-io): another load on the kernel$' "$TMP/out" ||
	fail "no note on other options: $(grep note "$TMP/out")"
"${CMP[@]}" "$TMP/other-opts.json" -- "$TMP/cand1.json" >"$TMP/out"
grep -q '^note: 1 of the 2 runs ran other options than baseline run 1 (-s -F): another load on the kernel$' "$TMP/out" ||
	fail "no note on other options: $(grep note "$TMP/out")"
"${CMP[@]}" "$TMP/cand1.json" -- "$TMP/other-env.json" >"$TMP/out"
grep -q '^note: 1 of the 2 runs ran on another kernel than baseline run 1 (' "$TMP/out" &&
	grep -q '^note: 1 of the 2 runs ran on another filesystem type than baseline run 1 (' "$TMP/out" ||
	fail "no note on kernel or filesystem: $(grep note "$TMP/out")"
! grep -q 'other options' "$TMP/out" || fail "options noted where none differ"
echo "ok: options, kernel and filesystem type that differ are noted"

echo "all compare checks passed"
