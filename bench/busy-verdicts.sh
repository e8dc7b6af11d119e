#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A vs A beside CPU burners: does check ever call a regression that the
# machine made?  Records a baseline of RUNS runs on a quiet machine, then
# runs "dbench-ng check" TRIES times against the same configuration with
# BURNERS CPU-burning processes beside it, and counts the exit statuses.
# The promise (docs/regressions.md, "A busy machine"): 0 or 125, never 1.
# Also counts, as a reference, what check says with --busy-ok (the
# verdict forced on the busy machine).
set -u
cd "$(dirname "$0")/.."
. bench/lib.sh
DBENCH_NG=${DBENCH_NG:-./dbench-ng}
TRIES=${TRIES:-10}
BURNERS=${BURNERS:-2}
SECS=${SECS:-3}
RUNS=${RUNS:-5}
CLIENTS=${CLIENTS:-2}
LOADFILE=${LOADFILE:-builtin:netbench}
work=$(mktemp -d "${TMPDIR:-/tmp}/dbng-busy.XXXXXX")
burners=()
job=
cleanup() {
	local p
	for p in "${burners[@]}"; do stop_pgrp "$p"; done
	stop_job
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir "$work/d"
# check keeps its runs in $TMPDIR/dbench-ng-check.XXXXXX: here, removed
export TMPDIR=$work
run="-c $LOADFILE -t $SECS --warmup 1 -D $work/d $CLIENTS"

echo "busy-verdicts: baseline, $RUNS runs of -t $SECS on a quiet machine"
# shellcheck disable=SC2086
"$DBENCH_NG" --runs "$RUNS" --json "$work/base.json" $run >/dev/null ||
	{ echo "busy-verdicts: the baseline runs failed"; exit 1; }
python3 - "$work" "$RUNS" <<'PY'
import json, sys
for i in range(1, int(sys.argv[2]) + 1):
    d = json.load(open("%s/base-%d.json" % (sys.argv[1], i)))["disturbance"]
    print("  baseline run %d: other processes %.3f CPUs, steal %.2f %%%s" %
          (i, d["other_cpus"], d["steal_pct"] or 0,
           " (busy: check will refuse it)" if d["disturbed"] else ""))
PY
set -m
for _ in $(seq "$BURNERS"); do
	(while :; do :; done) &
	burners+=($!)
done
set +m
declare -A count
for mode in default busy-ok; do
	count=()
	for t in $(seq "$TRIES"); do
		extra=
		[ $mode = busy-ok ] && extra=--busy-ok
		# shellcheck disable=SC2086
		"$DBENCH_NG" check $extra --baseline "$work"/base-*.json $run \
			>"$work/out" 2>"$work/err"
		rc=$?
		count[$rc]=$((${count[$rc]:-0} + 1))
		printf '  %-8s try %2d: exit %3d  %s\n' "$mode" "$t" "$rc" "$(cat "$work/out")"
	done
	line=
	for rc in "${!count[@]}"; do line="$line exit $rc: ${count[$rc]},"; done
	echo "busy-verdicts: $mode, $BURNERS burners, $TRIES tries:${line%,}"
	if [ $mode = default ] && [ "${count[1]:-0}" != 0 ]; then
		echo "busy-verdicts: FAILED: a regression was called on a busy machine"
		exit 1
	fi
done
