# SPDX-License-Identifier: GPL-3.0-or-later
# dbench-ng check for git bisect run: 0 when the candidate behaves like
# the baseline, 1 when it regressed, 125 when it cannot decide (a run that
# cannot start); one line on stdout says why.  Both verdicts are forced by
# construction, not by how steady the machine is (the statistics
# themselves are unit-tested in tests/unit/test_compare.c):
#  - regressed: the candidate's two clients share one lock file and hold
#    the lock 200 ms in turn, so nearly every candidate LockX waits
#    ~190 ms, against microseconds for the baseline's lock of its own:
#    every candidate run is thousands of times past every baseline run,
#    which 5 vs 5 runs on one metric call significant (p = 2/252);
#  - unchanged: the same baseline runs, two of them edited to a LockX mean
#    of 1 ns and two to 2^40 ns (18 minutes), so that whatever the
#    candidate runs measure they lie inside the baseline's spread and no
#    rank test can find them worse (p >= 0.5).
. "$(dirname "$0")/../lib.sh"

command -v python3 >/dev/null || skip "python3 not installed (editing the baseline)"
D=$TMP/d
mkdir -p "$D"
lock_loads 4
RUN="-t 1 --warmup 0 -D $D 2"
# one pre-registered metric, so that 5 vs 5 runs can reach significance
CHECK="--metrics LockX:mean --max-runs 8"

# shellcheck disable=SC2086
expect_rc 0 "$DBNG" --runs 5 --json "$TMP/base.json" -c "$TMP/base.load" $RUN >/dev/null

note "the same configuration against a baseline that spans everything: good"
python3 - "$TMP" <<'PY' || fail "cannot edit the baseline"
import json, sys
for i, ns in ((1, 1), (2, 1), (3, None), (4, 1 << 40), (5, 1 << 40)):
    d = json.load(open("%s/base-%d.json" % (sys.argv[1], i)))
    if ns is not None:
        for o in d["ops"]:
            if o["name"] == "LockX":
                n, lat = o["count"], o["lat_ns"]
                lat.update(min=ns, max=ns, mean=float(ns), stddev=0.0,
                           sum=n * ns, bins=[[ns, n]], overflow=0,
                           percentiles={k: ns for k in lat["percentiles"]})
    json.dump(d, open("%s/spread-%d.json" % (sys.argv[1], i), "w"))
PY
# shellcheck disable=SC2086
"$DBNG" check --baseline "$TMP"/spread-*.json $CHECK -c "$TMP/base.load" $RUN \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
cat "$TMP/out"
[ $rc = 0 ] || fail "exit $rc for an unchanged candidate: $(tail -5 "$TMP/err")"
[ "$(wc -l <"$TMP/out")" = 1 ] || fail "stdout is not one line"
grep -q '^no regression: 1 metric compared, none worse past the noise floor (5 vs 5 runs)$' "$TMP/out" ||
	fail "reason: $(cat "$TMP/out")"
grep -q '^check: run 5: ' "$TMP/err" && ! grep -q '^check: run 6: ' "$TMP/err" ||
	fail "not decided after the 5 runs of --min-runs: $(grep '^check:' "$TMP/err")"

note "a lock shared by the clients: regressed"
# shellcheck disable=SC2086
"$DBNG" check --baseline "$TMP"/base-*.json $CHECK -c "$TMP/cand.load" $RUN \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
cat "$TMP/out"
[ $rc = 1 ] || fail "exit $rc for a slower candidate, expected 1: $(tail -5 "$TMP/err")"
[ "$(wc -l <"$TMP/out")" = 1 ] || fail "stdout is not one line"
grep -Eq '^regressed: LockX mean [0-9.e-]+ -> [0-9.]+ ms \(p=0\.0079, 5 vs 5 runs\)$' "$TMP/out" ||
	fail "reason: $(cat "$TMP/out")"
grep -Eq '^ LockX +mean .* REGRESSED$' "$TMP/err" || fail "no table on stderr"

note "a run that cannot start: 125, so bisect skips the commit"
"$DBNG" check --baseline "$TMP/base-1.json" -t 1 -D "$TMP/nonexistent" 1 \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 125 ] || fail "exit $rc for a run that cannot start, expected 125"
"$DBNG" check -t 1 -D "$D" 1 >/dev/null 2>"$TMP/err"
rc=$?
[ $rc = 125 ] || fail "no --baseline: exit $rc, expected 125"
grep -q 'no --baseline given' "$TMP/err" || fail "message: $(cat "$TMP/err")"

note "a baseline of the other --paths mode: 125, nothing run"
"$DBNG" check --baseline "$TMP/base-1.json" --paths dirfd -t 1 -D "$D" 1 \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 125 ] || fail "mixed --paths: exit $rc, expected 125"
grep -q "^dbench-ng check: $TMP/base-1.json ran --paths full and this run --paths dirfd: .*not comparable$" "$TMP/err" ||
	fail "message: $(cat "$TMP/err")"
grep -q "check: run" "$TMP/err" && fail "a run was made: $(cat "$TMP/err")"
echo "all check tests passed"
