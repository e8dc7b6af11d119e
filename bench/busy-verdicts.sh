#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Verdicts on a busy machine (docs/regressions.md, "A busy machine" and
# "One run a side"): does compare or check call a regression that the
# machine made, does check say good to a good commit, and does it still
# find a real one?  Every run is the same configuration on a private
# tmpfs (A vs A), with BURNERS CPU-burning processes beside it.  Parts
# (PARTS, all by default):
#   spreads  2 x PAIRS runs; compare each pair of one run a side (goal:
#            at most 1 exit 1 of 12), and print the largest A-vs-A change
#            of each metric over every ordered pair of runs, raw and own:
#            what the single-run thresholds must stay above
#   check    a baseline of RUNS runs, then check TRIES times against it
#            (goal: 0 in at least 8 of 10, never 1)
#   cgroup   check against the same baseline with the candidate held to
#            CG_QUOTA ms of CPU per 100 ms (50: half a CPU) by a cgroup
#            (v2 cpu.max, or v1 cfs_quota_us where the cpu controller is
#            bound to v1), made and removed here (goal: 1 in at most 5
#            runs); root only
# The figures go into docs/regressions.md with how loaded the machine was
# (each run records it: the 'machine:' lines).
set -u
cd "$(dirname "$0")/.." || exit 1
. bench/lib.sh
DBENCH_NG=${DBENCH_NG:-./dbench-ng}
PARTS=${PARTS:-spreads check cgroup}
PAIRS=${PAIRS:-12}
TRIES=${TRIES:-10}
CG_TRIES=${CG_TRIES:-3}
CG_QUOTA=${CG_QUOTA:-50}
# more options of check (--noise 10, say)
CHECK_OPTS=${CHECK_OPTS:-}
BURNERS=${BURNERS:-1}
SECS=${SECS:-5}
WARMUP=${WARMUP:-1}
RUNS=${RUNS:-5}
CLIENTS=${CLIENTS:-2}
LOADFILE=${LOADFILE:-}
KEEP=${KEEP:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/dbng-busy.XXXXXX")
burners=()
# shellcheck disable=SC2034 # bench/lib.sh's stop_job reads it
job=
mounted=
cg=
cleanup() {
	local p
	for p in "${burners[@]}"; do stop_pgrp "$p"; done
	stop_job
	if [ -n "$cg" ] && [ -d "$cg" ]; then
		# anything left in it back to the root, then it goes
		while read -r p; do
			echo "$p" >"$(dirname "$cg")/cgroup.procs" 2>/dev/null ||
				echo "$p" >"$(dirname "$cg")/tasks" 2>/dev/null
		done < <(cat "$cg/cgroup.procs" 2>/dev/null)
		rmdir "$cg" 2>/dev/null
	fi
	[ -n "$mounted" ] && umount "$work/d"
	# KEEP=DIR: the runs' JSON files are kept there
	[ -n "$KEEP" ] && mkdir -p "$KEEP" && cp "$work"/*.json "$KEEP"/ 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir "$work/d"
# a private tmpfs as root, else $TMPDIR's filesystem
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=4g dbng-busy "$work/d"; then
	mounted=1
fi
# check keeps its runs in $TMPDIR/dbench-ng-check.XXXXXX: here, removed
export TMPDIR=$work
run="-t $SECS --warmup $WARMUP -D $work/d $CLIENTS"
[ -n "$LOADFILE" ] && run="-c $LOADFILE $run"

burn() {
	set -m
	for _ in $(seq "$BURNERS"); do
		(while :; do :; done) &
		burners+=($!)
	done
	set +m
}

# the machine each run saw, from its JSON: "0.98 CPUs of others, own: bpf"
machine() {
	python3 - "$@" <<'PY'
import json, sys
for f in sys.argv[1:]:
    d = json.load(open(f))
    m = d.get("disturbance") or {}
    fo = d.get("foreign") or {}
    s = d.get("summary") or {}
    t = (d.get("config") or {}).get("clients") or 1
    t *= (s.get("measured_s") or 0) * 1e9
    print("  %s: other processes %.2f CPUs, steal %.1f %%, own latencies: %s,"
          " foreign wait %.1f %% of the clients' time; %.1f MB/s, own %.1f" %
          (f.rsplit("/", 1)[-1], m.get("other_cpus") or 0,
           m.get("steal_pct") or 0, fo.get("method") or "none",
           100 * (fo.get("wait_ns") or 0) / t if t > 0 else 0,
           s.get("throughput_mbps") or 0, fo.get("own_mbps") or 0))
PY
}

# tally NAME CODES...: "NAME: exit 0: 9, exit 125: 1"
tally() {
	local name=$1 line='' c
	shift
	declare -A n=()
	for c in "$@"; do n[$c]=$((${n[$c]:-0} + 1)); done
	for c in $(printf '%s\n' "${!n[@]}" | sort -n); do
		line="$line exit $c: ${n[$c]},"
	done
	echo "busy-verdicts: $name:${line%,}"
}

nproc=$(nproc)
where=$work/d
[ -n "$mounted" ] && where="a private tmpfs"
echo "busy-verdicts: $nproc CPUs, $BURNERS burner(s), runs of -t $SECS, $CLIENTS clients, ${LOADFILE:-the default workload} on $where; load average $(cut -d' ' -f1-3 /proc/loadavg)"
burn

case " $PARTS " in *" spreads "*)
	nruns=$((2 * PAIRS))
	echo "busy-verdicts: spreads: $nruns runs beside the burner(s)"
	for i in $(seq "$nruns"); do
		# shellcheck disable=SC2086
		"$DBENCH_NG" --json "$work/a$i.json" $run >/dev/null ||
			{ echo "busy-verdicts: run $i failed"; exit 1; }
	done
	machine "$work"/a*.json | sort -V
	codes=()
	for i in $(seq "$PAIRS"); do
		"$DBENCH_NG" compare "$work/a$((2 * i - 1)).json" -- "$work/a$((2 * i)).json" \
			>"$work/out" 2>&1
		rc=$?
		codes+=("$rc")
		printf '  pair %2d: exit %d  %s\n' "$i" "$rc" "$(tail -1 "$work/out")"
	done
	tally "compare, one run a side, $PAIRS pairs" "${codes[@]}"
	# every run's value of every metric, raw and own, from one comparison
	# of all runs against all runs
	files=()
	for i in $(seq "$nruns"); do files+=("$work/a$i.json"); done
	"$DBENCH_NG" compare --json "$work/all.json" "${files[@]}" -- "${files[@]}" >/dev/null
	python3 - "$work/all.json" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
print("  the largest A-vs-A change of each metric over every ordered pair"
      " of runs (worse direction; 'at' the worse value):")
print("  %-10s %-10s %16s %16s" % ("op", "metric", "raw", "own"))
rows = []
for m in d["metrics"]:
    if not m["eligible"] or m["metric"] == "ops/s":
        continue
    out = []
    for key in ("baseline", "own_baseline"):
        v = m.get(key)
        if not v:
            out.append("-")
            continue
        best, at = 0, 0
        for i, x in enumerate(v):
            for j, y in enumerate(v):
                if i == j:
                    continue
                if m["worse"] == "lower":
                    ch = 1 - y / x if x > 0 else 0
                    if ch > best:
                        best, at = ch, y
                elif m["metric"].startswith("over"):
                    if y - x > best:
                        best, at = y - x, y
                else:
                    ch = y / x if x > 0 else (math.inf if y > 0 else 1)
                    if ch > best:
                        best, at = ch, y
        if m["worse"] == "lower":
            out.append("-%.1f%%" % (100 * best))
        elif m["metric"].startswith("over"):
            out.append("+%.0f/M" % best)
        else:
            out.append("x%.2f at %.3g" % (best, at))
    rows.append((m["op"], m["metric"], out[0], out[1]))
for r in rows:
    print("  %-10s %-10s %16s %16s" % r)
PY
	;;
esac

base=()
case " $PARTS " in *" check "* | *" cgroup "*)
	echo "busy-verdicts: baseline, $RUNS runs beside the burner(s)"
	# shellcheck disable=SC2086
	"$DBENCH_NG" --runs "$RUNS" --json "$work/base.json" $run >/dev/null ||
		{ echo "busy-verdicts: the baseline runs failed"; exit 1; }
	for i in $(seq "$RUNS"); do base+=("$work/base-$i.json"); done
	machine "${base[@]}"
	;;
esac

# checks LABEL N [CGROUP]: N check calls against the baseline, in the
# cgroup CGROUP if given; a line each, their exits in codes[]
checks() {
	local label=$1 calls=$2 cgdir=${3:-} t rc
	codes=()
	for t in $(seq "$calls"); do
		# shellcheck disable=SC2016,SC2086
		sh -c '[ -z "$1" ] || echo $$ >"$1/cgroup.procs"; shift; exec "$@"' \
			sh "$cgdir" "$DBENCH_NG" check --no-keep $CHECK_OPTS \
			--baseline "${base[@]}" $run >"$work/out" 2>"$work/err"
		rc=$?
		codes+=("$rc")
		printf '  %s %2d: exit %3d after %2d runs  %s\n' "$label" "$t" "$rc" \
			"$(grep -c '^check: run [0-9]*: Throughput' "$work/err")" "$(cat "$work/out")"
	done
}

case " $PARTS " in *" check "*)
	checks check "$TRIES"
	tally "check, A vs A, $TRIES calls" "${codes[@]}"
	;;
esac

case " $PARTS " in *" cgroup "*)
	if [ "$(id -u)" != 0 ]; then
		echo "busy-verdicts: cgroup: skipped (needs root)"
	else
		half=$((CG_QUOTA * 1000))
		if grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
			cg=/sys/fs/cgroup/dbng-busy.$$
			mkdir "$cg" && echo "$half 100000" >"$cg/cpu.max"
		elif grep -qw cpu /sys/fs/cgroup/unified/cgroup.controllers 2>/dev/null; then
			cg=/sys/fs/cgroup/unified/dbng-busy.$$
			mkdir "$cg" && echo "$half 100000" >"$cg/cpu.max"
		else
			# the cpu controller is bound to cgroup v1 here
			cg=/sys/fs/cgroup/cpu/dbng-busy.$$
			mkdir "$cg" && echo 100000 >"$cg/cpu.cfs_period_us" &&
				echo "$half" >"$cg/cpu.cfs_quota_us"
		fi || { echo "busy-verdicts: cannot make the cgroup $cg"; exit 1; }
		echo "busy-verdicts: cgroup: the candidate held to $((half / 1000)) ms of CPU per 100 ms ($cg)"
		checks "cgroup check" "$CG_TRIES" "$cg"
		tally "check, candidate in the cgroup, $CG_TRIES calls" "${codes[@]}"
	fi
	;;
esac
