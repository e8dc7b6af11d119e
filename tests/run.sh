#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The one test runner: runs each test program or script given, under a
# timeout, TEST_JOBS of them at a time (default: the number of CPUs, at
# most 4; 1 runs them one by one in the order given).  Exit 0 = pass, 77 =
# skip (the test prints why), anything else = fail (its log is shown).
# A line `# run.sh: lock NAME` in a script keeps it from running beside
# another script with the same line (tests that look for processes by a
# name they share).  Tests start in the order given; a result is printed
# when its test ends.  Ends with exactly one line:
#   check: N passed, N failed, N skipped
set -u
cd "$(dirname "$0")/.."
logdir=build/test-logs
mkdir -p "$logdir"
timeout_s=${TEST_TIMEOUT:-600}
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || {
	echo "run.sh: TEST_JOBS=$jobs is not a number of jobs" >&2
	exit 2
}
[ -n "${TEST_JOBS:-}" ] || [ "$jobs" -le 4 ] || jobs=4
pass=0 fail=0 skip=0 failed=""
sandir=$PWD/$logdir/sanitizer
rm -rf "$sandir"

# run_one TEST: run it with its log, sanitizer reports and timeout; write
# "RC MS" to its .rc file
run_one() {
	local t=$1 name log start rc ms
	name=$(basename "$t")
	log="$logdir/$name.log"
	start=$(date +%s%N)
	# a build with SAN=1 reports to files, so a report is seen even when
	# a test sends the program's stderr elsewhere; any report fails it
	mkdir -p "$sandir/$name"
	export ASAN_OPTIONS="log_path=$sandir/$name/asan"
	export UBSAN_OPTIONS="log_path=$sandir/$name/ubsan:print_stacktrace=1"
	if [[ $t == *.sh ]]; then
		timeout -k 10 "$timeout_s" bash "$t" >"$log" 2>&1
	else
		timeout -k 10 "$timeout_s" "$t" >"$log" 2>&1
	fi
	rc=$?
	if [ -n "$(ls -A "$sandir/$name")" ]; then
		{
			echo "sanitizer reports:"
			cat "$sandir/$name"/*
		} >>"$log"
		rc=98 # a failure whatever the test said
	fi
	ms=$((($(date +%s%N) - start) / 1000000))
	echo "$rc $ms" >"$logdir/$name.rc"
}

# report TEST: count and print its result
report() {
	local name rc ms secs log
	name=$(basename "$1")
	log="$logdir/$name.log"
	read -r rc ms <"$logdir/$name.rc" || rc=99 ms=0
	secs=$((ms / 1000)).$((ms % 1000 / 100))
	case $rc in
	0)
		pass=$((pass + 1))
		printf 'PASS  %-28s %6ss\n' "$name" "$secs"
		;;
	77)
		skip=$((skip + 1))
		printf 'SKIP  %-28s %6ss  %s\n' "$name" "$secs" \
			"$(grep -m1 '^SKIP' "$log" | cut -c7-)"
		;;
	*)
		fail=$((fail + 1))
		failed="$failed $name"
		[ "$rc" = 124 ] && echo "(timed out after ${timeout_s}s)" >>"$log"
		printf 'FAIL  %-28s %6ss  (exit %d)\n' "$name" "$secs" "$rc"
		sed 's/^/      | /' "$log" | tail -n 40
		;;
	esac
}

# lock_of TEST: the NAME of its `# run.sh: lock NAME` line, if any
lock_of() {
	[[ $1 == *.sh ]] && sed -n 's/^# run\.sh: lock \([A-Za-z0-9_-]*\)$/\1/p' "$1" | head -1
}

declare -A pid_of=() lock_held=()
queue=("$@")
for t in "$@"; do
	rm -f "$logdir/$(basename "$t").rc"
done
# stopped: stop the tests running (each subshell's timeout and the test)
stop() {
	for p in "${pid_of[@]}"; do
		pkill -TERM -P "$p" 2>/dev/null
	done
	exit 130
}
trap stop INT TERM

while [ ${#queue[@]} -gt 0 ] || [ ${#pid_of[@]} -gt 0 ]; do
	# start the first tests of the queue that may start
	rest=()
	for t in "${queue[@]}"; do
		l=$(lock_of "$t")
		if [ ${#pid_of[@]} -ge "$jobs" ] || { [ -n "$l" ] && [ -n "${lock_held[$l]:-}" ]; }; then
			rest+=("$t")
			continue
		fi
		[ -z "$l" ] || lock_held[$l]=$t
		run_one "$t" &
		pid_of[$t]=$!
	done
	queue=("${rest[@]+"${rest[@]}"}")
	# wait for one to end, and report every one that has
	wait -n 2>/dev/null
	for t in "${!pid_of[@]}"; do
		kill -0 "${pid_of[$t]}" 2>/dev/null && continue
		wait "${pid_of[$t]}" 2>/dev/null
		unset "pid_of[$t]"
		l=$(lock_of "$t")
		[ -z "$l" ] || unset "lock_held[$l]"
		report "$t"
	done
done
[ -n "$failed" ] && echo "failed:$failed"
echo "check: $pass passed, $fail failed, $skip skipped"
[ $fail = 0 ]
