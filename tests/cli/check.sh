# SPDX-License-Identifier: GPL-3.0-or-later
# dbench-ng check for git bisect run: 0 when the candidate behaves like
# the baseline, 1 when it regressed, 125 when the commit cannot be judged
# (a run that fails), 255 for the user's mistakes (a bad baseline or
# option), which must stop a bisection instead of skipping every commit;
# one line on stdout says why, in every case.  Real `git bisect run`s in a
# scratch repository check the last two.  A baseline of another workload
# (another loadfile, a log of another file, client.txt against the
# built-in workload of a run without -c) is bad input too, unless
# --mixed-workloads; the candidates below are other loadfiles on purpose.  The verdicts are forced by
# construction, not by how steady the machine is (the statistics
# themselves are unit-tested in tests/unit/test_compare.c):
#  - regressed: the candidate's two clients share one lock file and hold
#    the lock 200 ms in turn, so nearly every candidate LockX waits
#    ~190 ms, against microseconds for the baseline's lock of its own:
#    every candidate run is thousands of times past every baseline run,
#    which 5 vs 5 runs on one metric call significant (p = 2/252);
#  - good: the same baseline runs edited to a LockX mean of 2^40 ns (18
#    minutes), so that whatever the candidate runs measure they are far
#    better: nothing is worse, and 5 candidate runs below 5 baseline runs
#    show the metric not worse than the noise floor (the equivalence
#    bound, p = 1/252 <= 0.025); with one run per side (thresholds),
#    against one such run.
# Runs of 2 s: the candidate's clients take the shared lock about 5 times
# a second, and a LockX mean needs 5 ops in every run to decide.
# check keeps its runs' JSON results in a new $TMPDIR/dbench-ng-check.*
# (here inside $TMP) and names it at the end of its line.
. "$(dirname "$0")/../lib.sh"

command -v python3 >/dev/null || skip "python3 not installed (editing the baseline)"
D=$TMP/d
mkdir -p "$D"
lock_loads 4
RUN="-t 2 --warmup 0 -D $D 2"
export TMPDIR=$TMP
KEPT=' \(runs kept in '"$TMP"'/dbench-ng-check\.[A-Za-z0-9]{6}\)$'
"$DBNG" check --help | grep -q '^  --json FILE ' || fail "check --help has no --json"
# one pre-registered metric, so that 5 vs 5 runs can reach significance;
# --busy-ok: the suite also runs beside CPU burners, and these cases test
# the verdicts (the busy machine has its own case below)
CHECK="--metrics LockX:mean --max-runs 8 --busy-ok"
# beside other load, runs that carry own latencies (BPF, as root) are
# judged on them, and the reason says so: either form is the verdict
OWN='(own )?'
ONOWN='(; on own latencies \(busy machine\))?'

# shellcheck disable=SC2086
expect_rc 0 "$DBNG" --runs 5 --json "$TMP/base.json" -c "$TMP/base.load" $RUN >/dev/null

note "the same configuration against a baseline no candidate can be worse than: good"
python3 - "$TMP" <<'PY' || fail "cannot edit the baseline"
import json, sys
ns = 1 << 40
for i in range(1, 6):
    d = json.load(open("%s/base-%d.json" % (sys.argv[1], i)))
    for o in d["ops"]:
        if o["name"] == "LockX":
            n = o["count"]
            # the own latencies too: on a busy machine they decide
            for lat in [o["lat_ns"]] + ([o["own"]] if o.get("own") else []):
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
grep -Eq '^no regression: 1 metric compared, none worse past the noise floor; LockX '"$OWN"'mean shown not 5% worse \(p=0\.004 <= 0\.025\) \(5 vs 5 runs'"$ONOWN"'\); 1 improved'"$KEPT" "$TMP/out" ||
	fail "reason: $(cat "$TMP/out")"
# the runs are kept, outside DIR/clients, in the directory the line names
kept=$(sed 's/.*(runs kept in \(.*\))$/\1/' "$TMP/out")
[ "$(cd "$kept" && echo run-*.json)" = "run-1.json run-2.json run-3.json run-4.json run-5.json" ] ||
	fail "kept: $(ls -la "$kept")"
for i in 1 2 3 4 5; do
	[ "$(jq -r .format_version "$kept/run-$i.json")" = 1 ] || fail "$kept/run-$i.json is no result"
done
grep -q '^check: run 5: ' "$TMP/err" && ! grep -q '^check: run 6: ' "$TMP/err" ||
	fail "not decided after the 5 runs of --min-runs: $(grep '^check:' "$TMP/err")"

note "a lock shared by the clients: regressed"
# shellcheck disable=SC2086
"$DBNG" check --baseline "$TMP"/base-*.json $CHECK --mixed-workloads -c "$TMP/cand.load" $RUN \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
cat "$TMP/out"
[ $rc = 1 ] || fail "exit $rc for a slower candidate, expected 1: $(tail -5 "$TMP/err")"
[ "$(wc -l <"$TMP/out")" = 1 ] || fail "stdout is not one line"
grep -Eq '^regressed: LockX '"$OWN"'mean [0-9.e-]+ -> [0-9.]+ ms \(p=0\.0079, 5 vs 5 runs'"$ONOWN"'\)'"$KEPT" "$TMP/out" ||
	fail "reason: $(cat "$TMP/out")"
grep -Eq '^ LockX +mean .* REGRESSED$' "$TMP/err" || fail "no table on stderr"

note "all metrics: the halved throughput is decided in 5 runs (the sequential rule)"
# the candidate's clients wait for each other's lock: every candidate run
# does half the baseline's work (sleep-bound, whatever the machine), which
# the first look (5 vs 5, MB/s alone at alpha/4) calls significant
# shellcheck disable=SC2086
"$DBNG" check --baseline "$TMP"/base-*.json --busy-ok --mixed-workloads -c "$TMP/cand.load" $RUN \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
cat "$TMP/out"
[ $rc = 1 ] || fail "all metrics: exit $rc, expected 1: $(tail -5 "$TMP/err")"
grep -Eq '^regressed: '"$OWN"'throughput [0-9.]+ -> [0-9.]+ MB/s \(p=0\.0079, 5 vs 5 runs'"$ONOWN"'\)' "$TMP/out" ||
	fail "all metrics: $(cat "$TMP/out")"
grep -q '^check: run 5: ' "$TMP/err" && ! grep -q '^check: run 6: ' "$TMP/err" ||
	fail "all metrics: not decided in 5 runs: $(grep '^check:' "$TMP/err")"
grep -q '^sequential: this look spends 0.025 of alpha 0.05: MB/s alone at 0.0125' "$TMP/err" ||
	fail "all metrics: no sequential line: $(grep '^sequential' "$TMP/err")"

note "--json names the kept runs; --no-keep keeps none"
ls -d "$TMP"/dbench-ng-check.* >"$TMP/dirs"
# shellcheck disable=SC2086
"$DBNG" check --baseline "$TMP"/base-*.json $CHECK --mixed-workloads --json "$TMP/k.json" -c "$TMP/cand.load" $RUN \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 1 ] || fail "--json: exit $rc: $(tail -5 "$TMP/err")"
grep -Eq "^regressed: .* \(runs kept in $TMP/k-1\.json \.\. $TMP/k-5\.json\)\$" "$TMP/out" ||
	fail "--json: $(cat "$TMP/out")"
[ "$(jq -r .format_version "$TMP/k-5.json")" = 1 ] && [ ! -e "$TMP/k-6.json" ] || fail "--json: k-5.json"
# shellcheck disable=SC2086
"$DBNG" check --baseline "$TMP"/base-*.json $CHECK --no-keep --min-runs 1 --max-runs 1 -c "$TMP/base.load" $RUN \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || fail "--no-keep: exit $rc: $(tail -5 "$TMP/err")"
[ "$(wc -l <"$TMP/out")" = 1 ] || fail "--no-keep: stdout is not one line"
! grep -q 'kept' "$TMP/out" || fail "--no-keep: $(cat "$TMP/out")"
ls -d "$TMP"/dbench-ng-check.* | cmp -s - "$TMP/dirs" || fail "--json or --no-keep made a directory"

# one_line FILE PREFIX: FILE (a check's stdout) is one line, starting so
one_line() {
	[ "$(wc -l <"$1")" = 1 ] || fail "stdout is not one line: $(cat "$1")"
	case $(cat "$1") in "$2"*) ;; *) fail "stdout: $(cat "$1"), expected '$2...'" ;; esac
}

note "a run that fails: 125, so bisect skips the commit"
printf '%s\n' 'Mkdir "\clients\client1" NT_STATUS_OK' \
	'Unlink "\clients\client1\nofile" 0x0 NT_STATUS_OK' \
	'Sleep 10000 NT_STATUS_OK' >"$TMP/fail.load"
"$DBNG" check --busy-ok --mixed-workloads --baseline "$TMP/base-1.json" -c "$TMP/fail.load" -t 1 --warmup 0 -D "$D" 1 \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 125 ] || fail "exit $rc for a run that fails, expected 125: $(cat "$TMP/err")"
one_line "$TMP/out" "cannot decide: run 1 failed (exit 1)"
grep -q 'Unlink .*nofile failed' "$TMP/err" || fail "the run's error is not on stderr: $(cat "$TMP/err")"
# exit 3 of a run (DIR/clients cannot be created: mkdir in /proc fails for
# anyone, and creates nothing) is the system under test's too
"$DBNG" check --busy-ok --baseline "$TMP/base-1.json" -c "$TMP/base.load" -t 1 --warmup 0 -D /proc 1 \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 125 ] || fail "exit $rc for a DIR/clients that cannot be created, expected 125: $(cat "$TMP/err")"
one_line "$TMP/out" "cannot decide: cannot create /proc/clients: "
grep -q '^dbench-ng: cannot create /proc/clients: ' "$TMP/err" || fail "stderr: $(cat "$TMP/err")"

note "the user's mistakes: 255 (git bisect run stops), the reason on stdout and stderr"
echo '{"format_version": 1' >"$TMP/trunc.json"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["format_version"] = 99
json.dump(d, open(sys.argv[2], "w"))' "$TMP/base-1.json" "$TMP/v99.json" ||
	fail "cannot write v99.json"
for f in trunc.json nope.json v99.json; do
	"$DBNG" check --baseline "$TMP/$f" -c "$TMP/base.load" -t 1 --warmup 0 -D "$D" 1 \
		>"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc = 255 ] || fail "--baseline $f: exit $rc, expected 255"
	one_line "$TMP/out" "bad input: $TMP/$f"
	grep -q "^dbench-ng check: $TMP/$f" "$TMP/err" || fail "$f: stderr: $(cat "$TMP/err")"
done
grep -q 'format_version 99' "$TMP/out" || fail "v99.json: $(cat "$TMP/out")"
# each line: the arguments | the stdout line | a line of stderr (ERE)
while IFS='|' read -r args want err; do
	# shellcheck disable=SC2086
	"$DBNG" check $args >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc = 255 ] || fail "check $args: exit $rc, expected 255: $(cat "$TMP/err")"
	one_line "$TMP/out" "bad input: $want"
	grep -Eq "$err" "$TMP/err" || fail "check $args: stderr: $(cat "$TMP/err")"
	! grep -q '^check: run' "$TMP/err" || fail "check $args: a run was made"
done <<END
--busy-ok -t 1 -D $D 1|no --baseline given|^dbench-ng check: no --baseline given
--busy-ok --baseline $TMP/base-1.json --min-runs x -D $D 1|--min-runs: 'x' is not a whole number|^dbench-ng check: --min-runs
--busy-ok --baseline $TMP/base-1.json --metrics p42 -D $D 1|--metrics: 'p42' is not METRIC|^dbench-ng check: --metrics
--busy-ok --baseline $TMP/base-1.json -c $TMP/base.load -t 1 -D $TMP/nonexistent 1|-D $TMP/nonexistent: No such file|^dbench-ng: -D $TMP/nonexistent: No such file
--busy-ok --baseline $TMP/base-1.json -t x -D $D 1|-t: 'x' is not a whole number|^dbench-ng: -t: 'x'
--busy-ok --baseline $TMP/base-1.json -B nosuch -t 1 -D $D 1|-B: unknown backend 'nosuch'|^dbench-ng: -B: unknown
--busy-ok --baseline $TMP/base-1.json --timelimt 1 -D $D 1|unknown option '--timelimt'; did you mean '--timelimit'?|^dbench-ng: unknown option '--timelimt'; did you mean
--busy-ok --basline $TMP/base-1.json -t 1 -D $D 1|unknown option '--basline'; did you mean '--baseline'?|^dbench-ng check: unknown option '--basline'; did you mean
--busy-ok --baseline $TMP/base-1.json -c $TMP/nope.load -t 1 -D $D 1|$TMP/nope.load: cannot open loadfile|^dbench-ng: $TMP/nope.load
--busy-ok --baseline $TMP/base-1.json -c $TMP/base.load -t 1 --json $TMP/nodir/r.json -D $D 1|--json $TMP/nodir/r-1.json: No such file or directory|^dbench-ng: --json $TMP/nodir/r-1.json
--busy-ok --baseline $TMP/base-1.json -c $TMP/base.load -t 1 --json $D/clients/r.json -D $D 1|--json $D/clients/r-1.json: inside $D/clients|^dbench-ng: --json $D/clients/r-1.json: inside
--busy-ok --baseline $TMP/base-1.json --metrics Rename:p99 -c $TMP/base.load -t 1 -D $D 1|no metric to compare: the baseline runs have none that --metrics selects|^dbench-ng check: no metric to compare
END

note "a baseline of the other --paths mode: 255, nothing run"
"$DBNG" check --busy-ok --baseline "$TMP/base-1.json" --paths dirfd -c "$TMP/base.load" -t 1 -D "$D" 1 \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 255 ] || fail "mixed --paths: exit $rc, expected 255"
one_line "$TMP/out" "bad input: $TMP/base-1.json ran --paths full and this run --paths dirfd"
grep -q "^dbench-ng check: $TMP/base-1.json ran --paths full and this run --paths dirfd: .*not comparable$" "$TMP/err" ||
	fail "message: $(cat "$TMP/err")"
grep -q "check: run" "$TMP/err" && fail "a run was made: $(cat "$TMP/err")"

note "a baseline of another workload: 255, nothing run; --mixed-workloads checks"
# check_bad WANT ARGS...: exit 255, the one stdout line "bad input: WANT",
# the same on stderr, no run made
check_bad() {
	local want=$1
	shift
	"$DBNG" check --busy-ok "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc = 255 ] || fail "check $*: exit $rc, expected 255: $(cat "$TMP/out" "$TMP/err")"
	[ "$(cat "$TMP/out")" = "bad input: $want" ] || fail "check $*: stdout: $(cat "$TMP/out")"
	grep -qxF "dbench-ng check: $want" "$TMP/err" || fail "check $*: stderr: $(cat "$TMP/err")"
	! grep -q '^check: run' "$TMP/err" || fail "check $*: a run was made"
	echo "ok: $(cat "$TMP/out")"
}
NC="other workloads, so their numbers are not comparable"
check_bad "$TMP/base-1.json ran the loadfile $TMP/base.load and this run the loadfile $TMP/cand.load: $NC (--mixed-workloads checks anyway)" \
	--baseline "$TMP/base-1.json" -c "$TMP/cand.load" -t 1 --warmup 0 -D "$D" 1
# baselines of two workloads
check_bad "$TMP/base-1.json ran the loadfile $TMP/base.load and $TMP/k-1.json the loadfile $TMP/cand.load: $NC (--mixed-workloads checks anyway)" \
	--baseline "$TMP/base-1.json" "$TMP/k-1.json" -c "$TMP/base.load" -t 1 --warmup 0 -D "$D" 1
# a dbench 4.0 log of client.txt against another loadfile, and against
# the built-in workload of a run without -c where no client.txt is found
# (DBENCH_NG_TEST_CLIENT_TXT_PATH: the tests' own list)
LOG=$DATA/dblog/sample-4.0.txt
check_bad "$LOG ran dbench's client.txt (/usr/share/dbench/client.txt) and this run the loadfile $TMP/base.load: $NC (--mixed-workloads checks anyway)" \
	--baseline "$LOG" -c "$TMP/base.load" -t 1 --warmup 0 -D "$D" 1
DBENCH_NG_TEST_CLIENT_TXT_PATH= check_bad "$LOG ran dbench's client.txt (/usr/share/dbench/client.txt) and this run the built-in workload builtin:netbench: $NC; without -c, a run replays dbench's client.txt where it is installed, else the built-in workload (--mixed-workloads checks anyway)" \
	--baseline "$LOG" -t 1 --warmup 0 -D "$D" 1
# with --mixed-workloads: a verdict (one run each side: the thresholds)
"$DBNG" check --busy-ok --mixed-workloads --no-keep --min-runs 1 --max-runs 1 \
	--metrics LockX:mean --baseline "$TMP/base-1.json" -c "$TMP/cand.load" $RUN >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 1 ] || fail "--mixed-workloads: exit $rc, expected 1: $(cat "$TMP/out" "$TMP/err")"
one_line "$TMP/out" "regressed: LockX "
grep -Eq '^regressed: LockX (own )?mean ' "$TMP/out" || fail "--mixed-workloads: $(cat "$TMP/out")"
grep -q "^note: 1 of the 2 runs ran another loadfile than baseline run 1 ($TMP/base.load; the sha256 or name differs)$" "$TMP/err" ||
	fail "--mixed-workloads: no note: $(grep note "$TMP/err")"
echo "ok: --mixed-workloads: $(cat "$TMP/out")"

command -v git >/dev/null || skip "git not installed (the git bisect run cases; the others passed)"
note "git bisect run: a bad baseline stops the bisection instead of skipping every commit"
# c0 good .. c4 bad; the loadfile of c2 fails its run, those of c1 and c3
# are base.load: against the baseline run edited to a LockX mean of
# 2^40 ns, one run per side, the thresholds can only say "no regression"
R=$TMP/repo
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=$TMP \
	GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
git init -q "$R" || fail "git init"
C=()
for c in 0 1 2 3 4; do
	case $c in
	2) cp "$TMP/fail.load" "$R/load" ;;
	4) cp "$TMP/cand.load" "$R/load" ;;
	*) cp "$TMP/base.load" "$R/load" ;;
	esac
	echo "$c" >"$R/n"
	git -C "$R" add load n && git -C "$R" commit -qm "c$c" || fail "git commit"
	C[c]=$(git -C "$R" rev-parse HEAD) || fail "git rev-parse"
done
export DBNG D CALLS=$TMP/calls
# expanded by the sh of git bisect run, in the scratch work tree;
# --mixed-workloads: the commits change the loadfile itself
# shellcheck disable=SC2016
BISECT='git rev-parse HEAD >>"$CALLS"; exec "$DBNG" check --busy-ok --mixed-workloads --baseline "$BASE" --metrics LockX:mean --min-runs 1 --max-runs 1 -c load -t 2 --warmup 0 -D "$D" 2'
# bisect BASELINE: git bisect run from c0 (good) to c4 (bad); its exit in
# $rc, its output in $TMP/bisect, its log in $TMP/log
bisect() {
	: >"$CALLS"
	(cd "$R" && git bisect start "${C[4]}" "${C[0]}" &&
		BASE=$1 git bisect run sh -c "$BISECT") >"$TMP/bisect" 2>&1
	rc=$?
	git -C "$R" bisect log >"$TMP/log" 2>&1
	git -C "$R" bisect reset >/dev/null 2>&1
}
for f in trunc.json nope.json v99.json; do
	bisect "$TMP/$f"
	[ $rc != 0 ] || fail "--baseline $f: git bisect run exit 0: $(cat "$TMP/bisect")"
	grep -q 'bisect run failed' "$TMP/bisect" && grep -q 'exit code 255' "$TMP/bisect" ||
		fail "--baseline $f: the bisection did not stop: $(cat "$TMP/bisect")"
	[ "$(wc -l <"$CALLS")" = 1 ] || fail "--baseline $f: $(wc -l <"$CALLS") commits tested, expected 1"
	! grep -q 'skip' "$TMP/log" || fail "--baseline $f: commits skipped: $(cat "$TMP/log")"
	grep -q "^bad input: $TMP/$f" "$TMP/bisect" || fail "--baseline $f: no reason: $(cat "$TMP/bisect")"
done

note "git bisect run: a commit whose run fails is skipped (125), the others decide"
bisect "$TMP/spread-4.json"
[ $rc = 0 ] || fail "git bisect run: exit $rc: $(cat "$TMP/bisect")"
grep -q "^# skip: \[${C[2]}\]" "$TMP/log" || fail "c2 not skipped: $(cat "$TMP/log")"
grep -q "^# good: \[${C[3]}\]" "$TMP/log" || fail "c3 not good: $(cat "$TMP/log")"
grep -q "^${C[4]} is the first bad commit" "$TMP/bisect" || fail "first bad: $(cat "$TMP/bisect")"
grep -Eq '^cannot decide: run 1 failed \(exit 1\)'"$KEPT" "$TMP/bisect" || fail "no reason for c2: $(cat "$TMP/bisect")"
grep -q '^no regression: ' "$TMP/bisect" || fail "no verdict for c3: $(cat "$TMP/bisect")"
note "a busy machine: a run made again, then 125; a busy baseline: 255, unless both have own latencies"
# the baseline without its record of the machine (this suite may run
# beside burners) and without own latencies (those the runs have as root)
# strip IN OUT [busy]: a copy of the baseline run IN without own
# latencies, its machine unknown, or with "busy" one past the bound
strip() {
	python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for o in d["ops"]:
    o.pop("own", None)
    o.pop("foreign_ns", None)
d.pop("foreign", None)
d["disturbance"] = None
if len(sys.argv) > 3:
    d["disturbance"] = dict(seconds=2.0, other_cpus=1.5, steal_pct=0.0,
                            load1_start=2.0, load1_end=3.0,
                            psi_some_ms=dict(io=0.0, memory=None, cpu=900.0),
                            cpu_mhz_min=None, cpu_mhz_max=None,
                            disturbed=True)
json.dump(d, open(sys.argv[2], "w"))
PY
}
strip "$TMP/spread-4.json" "$TMP/quiet.json" || fail "cannot edit the baseline"
# a CPU burner beside every run: other processes use about a CPU, five
# times the bound, however loaded the machine already is (more load only
# makes it busier); its own process group, killed on every exit path
set -m
(while :; do :; done) &
BURNER=$!
set +m
at_exit "kill -KILL -- -$BURNER"
"$DBNG" check --baseline "$TMP/quiet.json" --metrics LockX:mean \
	--min-runs 1 --max-runs 2 -c "$TMP/base.load" -t 2 --warmup 0 -D "$D" 2 \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 125 ] || fail "exit $rc beside a CPU burner, expected 125: $(cat "$TMP/out" "$TMP/err")"
one_line "$TMP/out" "cannot decide: machine too busy to decide (run 1: other processes used "
[ "$(grep -c '^check: run 1: the machine was busy' "$TMP/err")" = 3 ] ||
	fail "not 3 tries: $(grep '^check:' "$TMP/err")"
grep -q 'run as root for own latencies (with a baseline that has them too), or give --busy-ok' "$TMP/out" ||
	fail "the 125 names no way out: $(cat "$TMP/out")"
# with own latencies on both sides (BPF: the baseline runs have them when
# this suite runs as root with BPF), a busy run is judged on them: the
# same busy baseline is accepted, and the LockX mean edited to 2^40 ns
# makes the candidate good, decided on own latencies
if [ "$(jq -r '.foreign.method // "none"' "$TMP/spread-4.json")" = bpf ]; then
	python3 - "$TMP/spread-4.json" "$TMP/busy-own.json" <<'PY' || fail "cannot edit the baseline"
import json, sys
d = json.load(open(sys.argv[1]))
d["disturbance"] = dict(seconds=2.0, other_cpus=1.5, steal_pct=0.0,
                        load1_start=2.0, load1_end=3.0,
                        psi_some_ms=dict(io=0.0, memory=None, cpu=900.0),
                        cpu_mhz_min=None, cpu_mhz_max=None, disturbed=True)
json.dump(d, open(sys.argv[2], "w"))
PY
	"$DBNG" check --baseline "$TMP/busy-own.json" --metrics LockX:mean --no-keep \
		--min-runs 1 --max-runs 1 -c "$TMP/base.load" -t 2 --warmup 0 -D "$D" 2 \
		>"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc = 0 ] || fail "own latencies beside a burner: exit $rc, expected 0: $(cat "$TMP/out" "$TMP/err")"
	one_line "$TMP/out" "no regression: 1 metric compared, none past the thresholds (1 vs 1 run: significance cannot be judged; on own latencies (busy machine))"
	! grep -q 'the machine was busy' "$TMP/err" || fail "a run made again: $(grep '^check:' "$TMP/err")"
	grep -q '^own latencies: 2 of 2 runs ran on a busy machine' "$TMP/err" ||
		fail "no own-latencies line: $(head -12 "$TMP/err")"
	echo "ok: a busy baseline and run with own latencies: $(cat "$TMP/out")"
else
	echo "skipped: own latencies beside a burner (the runs have none: no BPF here)"
fi
kill -KILL -- "-$BURNER"
wait "$BURNER" 2>/dev/null
strip "$TMP/spread-4.json" "$TMP/busy.json" busy || fail "cannot edit the baseline"
"$DBNG" check --baseline "$TMP/busy.json" -c "$TMP/base.load" -t 1 --warmup 0 -D "$D" 2 \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 255 ] || fail "a busy baseline: exit $rc, expected 255"
one_line "$TMP/out" "bad input: $TMP/busy.json: recorded on a busy machine (other processes used 1.50 CPUs"
grep -q -- '--busy-ok' "$TMP/out" || fail "the refusal does not name --busy-ok: $(cat "$TMP/out")"
grep -q "check: run" "$TMP/err" && fail "a run was made with a busy baseline"
"$DBNG" compare "$TMP/busy.json" -- "$TMP/spread-4.json" >"$TMP/out" 2>&1
grep -q "^machine: baseline: other processes used up to 1.50 CPUs, busy in 1 of 1 run; candidate: " "$TMP/out" ||
	fail "compare shows no machine line: $(head -12 "$TMP/out")"
grep -q "^note: baseline run 1 (.*busy.json) ran on a busy machine: other processes used 1.50 CPUs" "$TMP/out" ||
	fail "compare has no busy note: $(head -12 "$TMP/out")"
echo "ok: busy runs made again then 125, busy baseline 255, compare shows it"

echo "all check tests passed"
