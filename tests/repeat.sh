#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/repeat.sh N [--load] [VAR=VALUE...]: is the suite stable?  Clones
# the HEAD of the repository this script lives in into a temporary
# directory under $TMPDIR (default /tmp), builds it once, then runs the whole suite
# (make check VAR=VALUE...) there N times; with --load, two CPU-burning
# processes run beside it.  Each run's output and its test logs are kept
# in build/repeat/DATE-TIME/ of this repository; the clone is removed at
# the end.  Prints one line per run (number, its check: line, wall time)
# and a last line of totals; exits 0 only if every run passed.
#   tests/repeat.sh 5            five plain runs
#   tests/repeat.sh 5 --load     five runs beside two CPU burners
#   tests/repeat.sh 2 SAN=1      two runs of the sanitizer build
{ # bash reads the whole group before it runs it: editing this file
  # during a run (which takes hours) cannot change what the run does
set -u
export LC_ALL=C

usage() {
	echo "usage: tests/repeat.sh N [--load] [VAR=VALUE...]" >&2
	exit 2
}
n="" load=0 makeargs=()
for a in "$@"; do
	case $a in
	--load) load=1 ;;
	[A-Za-z_]*=*) makeargs+=("$a") ;;
	*[!0-9]* | "") usage ;;
	*) [ -z "$n" ] || usage; n=$a ;;
	esac
done
[ -n "$n" ] || usage
n=$((10#$n))
[ "$n" -ge 1 ] || usage

here=$(cd "$(dirname "$0")/.." && pwd)
command -v git >/dev/null || { echo "repeat: git is needed" >&2; exit 2; }
rev=$(git -C "$here" rev-parse HEAD) || exit 2
[ -z "$(git -C "$here" status --porcelain --untracked-files=no)" ] ||
	echo "repeat: uncommitted changes are not tested: HEAD only" >&2

logdir=$here/build/repeat/$(date +%Y%m%d-%H%M%S)
mkdir -p "$logdir" || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dbench-ng-repeat.XXXXXX") || exit 2
src=$tmp/dbench-ng

# Every job runs in its own process group (set -m): make and the tests
# get SIGINT like under an interactive shell (without job control bash
# starts background jobs with SIGINT ignored), and a signal to this
# script is forwarded to the job at once instead of after the run.
set -m
job="" burners=()

# job_groups PID: the process groups of PID and of all its descendants (the
# test runner's timeout puts each test in a group of its own, out of
# reach of the terminal's Ctrl-C)
# shellcheck disable=SC2317 # run from the traps
job_groups() {
	ps -e -o pid=,ppid=,pgid= | awk -v root="$1" -v self="$$" '
		{ parent[$1] = $2; group[$1] = $3 }
		END {
			for (p in parent)
				for (q = p; q in parent; q = parent[q])
					if (q == root) {
						if (group[p] != group[self])
							print group[p]
						break
					}
		}' | sort -u
}

# shellcheck disable=SC2317 # run from the traps
cleanup() {
	local p g
	trap '' INT TERM HUP
	if [ -n "$job" ]; then	# interrupted: stop the suite, wait for it
		echo "repeat: SIG$1: stopping the suite" >&2
		for g in $(job_groups "$job"); do
			kill -s "$1" -- "-$g" 2>/dev/null
		done
		wait "$job" 2>/dev/null
	fi
	for p in "${burners[@]}"; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap 'cleanup TERM' EXIT
trap 'cleanup INT; trap - EXIT; exit 130' INT
trap 'cleanup TERM; trap - EXIT; exit 143' TERM
trap 'cleanup HUP; trap - EXIT; exit 129' HUP

# run LOG CMD...: run CMD as the job, output to LOG; its exit status
run() {
	local log=$1 rc
	shift
	"$@" </dev/null >"$log" 2>&1 &
	job=$!
	wait "$job"
	rc=$?
	job=""
	return $rc
}

secs() { echo $(($(date +%s) - $1)); }

t0=$(date +%s)
echo "repeat: $n x make check${makeargs[*]:+ ${makeargs[*]}}" \
	"on $rev$([ $load = 1 ] && echo ", beside 2 CPU burners")," \
	"$(nproc) CPUs"
echo "repeat: clone $src, logs $logdir"
# shellcheck disable=SC2016 # $1 $2 $@ are the inner shell's arguments
if ! run "$logdir/build.log" sh -c '
	git clone -q --no-checkout "$1" "$2" &&
	cd "$2" && git fetch -q "$1" HEAD &&
	git checkout -q --detach FETCH_HEAD &&
	shift 2 && make deps-check && make "$@" all test-progs' \
	sh "$here" "$src" "${makeargs[@]}"; then
	tail -n 20 "$logdir/build.log"
	echo "repeat: clone or build failed ($(secs "$t0") s):" \
		"see $logdir/build.log"
	exit 1
fi
echo "build: $(secs "$t0") s"

if [ $load = 1 ]; then
	# busy loops in user space; each also stops by itself within a
	# fraction of a second if this script dies without its traps (kill -9)
	for _ in 1 2; do
		(
			trap - INT TERM HUP EXIT
			while kill -0 $$ 2>/dev/null; do
				for ((j = 0; j < 20000; j++)); do :; done
			done
		) </dev/null >/dev/null 2>&1 &
		burners+=($!)
	done
fi

npass=0 nfail=0 tp=0 tf=0 ts=0 total=0
for ((k = 1; k <= n; k++)); do
	start=$(date +%s)
	run "$logdir/run-$k.log" make -C "$src" --no-print-directory check \
		"${makeargs[@]}"
	rc=$?
	s=$(secs "$start")
	total=$((total + s))
	line=$(grep '^check: ' "$logdir/run-$k.log" | tail -n 1)
	[ -d "$src/build/test-logs" ] &&
		cp -r "$src/build/test-logs" "$logdir/run-$k.test-logs"
	re='^check: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped$'
	ok=0
	if [[ $line =~ $re ]]; then
		tp=$((tp + BASH_REMATCH[1])) tf=$((tf + BASH_REMATCH[2]))
		ts=$((ts + BASH_REMATCH[3]))
		[ $rc = 0 ] && [ "${BASH_REMATCH[2]}" = 0 ] && ok=1
	else
		line="no check: line (make exited $rc)"
	fi
	if [ $ok = 1 ]; then
		npass=$((npass + 1))
		printf 'run %d/%d  %s  %d s\n' "$k" "$n" "$line" "$s"
	else
		nfail=$((nfail + 1))
		which=$(sed -n 's/^failed: *//p' "$logdir/run-$k.log" |
			tail -n 1)
		printf 'run %d/%d  %s  %d s  FAILED (exit %d)%s\n' "$k" "$n" \
			"$line" "$s" "$rc" "${which:+: $which}"
	fi
done
echo "repeat: $n runs: $npass passed, $nfail failed;" \
	"tests $tp passed, $tf failed, $ts skipped;" \
	"$total s of suite, $(secs "$t0") s in all; logs in $logdir"
[ $nfail = 0 ]
exit
}
