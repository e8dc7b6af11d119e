# SPDX-License-Identifier: GPL-3.0-or-later
# dbench-ng check for git bisect run: 0 when the candidate behaves like
# the baseline, 1 when it regressed (here: O_SYNC opens and fsync after
# every write on a disk), 125 when it cannot decide (a run that cannot
# start); one line on stdout says why.
. "$(dirname "$0")/../lib.sh"

D=$TMP/d
mkdir -p "$D"
LF=$DATA/loadfiles/smoke.load
RUN="-t 1 --warmup 0 -c $LF -D $D 1"
# one pre-registered metric, so 5 vs 5 runs can reach significance.
# Sets of 1 s runs taken seconds apart on a shared 2-core CI machine drift
# by up to 30 % (Flush mean 0.222 -> 0.289 ms once, p=0.016), which the
# default 5 % noise floor rightly calls a change; a 50 % floor keeps the
# unchanged case stable while the -s -F candidate below is ~20x slower.
CHECK="--metrics WriteX:mean --max-runs 8 --noise 50"

# shellcheck disable=SC2086
expect_rc 0 "$DBNG" --runs 5 --json "$TMP/base.json" $RUN >/dev/null

note "the same configuration: good"
# shellcheck disable=SC2086
"$DBNG" check --baseline "$TMP"/base-*.json $CHECK $RUN >"$TMP/out" 2>"$TMP/err"
rc=$?
cat "$TMP/out"
[ $rc = 0 ] || fail "exit $rc for an unchanged candidate: $(tail -3 "$TMP/err")"
[ "$(wc -l <"$TMP/out")" = 1 ] || fail "stdout is not one line"
grep -q '^no regression: ' "$TMP/out" || fail "reason: $(cat "$TMP/out")"

note "O_SYNC and fsync on every write: regressed"
# shellcheck disable=SC2086
"$DBNG" check --baseline "$TMP"/base-*.json $CHECK -s -F $RUN >"$TMP/out" 2>"$TMP/err"
rc=$?
cat "$TMP/out"
[ $rc = 1 ] || fail "exit $rc for a slower candidate, expected 1"
grep -q '^regressed: ' "$TMP/out" || fail "reason: $(cat "$TMP/out")"
grep -q 'REGRESSED' "$TMP/err" || fail "no table on stderr"

note "a run that cannot start: 125, so bisect skips the commit"
"$DBNG" check --baseline "$TMP/base-1.json" -t 1 -D "$TMP/nonexistent" 1 \
	>"$TMP/out" 2>"$TMP/err"
[ $? = 125 ] || fail "exit $? for a run that cannot start, expected 125"
"$DBNG" check -t 1 -D "$D" 1 >/dev/null 2>"$TMP/err"
[ $? = 125 ] || fail "no --baseline: exit $?, expected 125"
grep -q 'no --baseline given' "$TMP/err" || fail "message: $(cat "$TMP/err")"
echo "all check tests passed"
