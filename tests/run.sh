#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The one test runner: runs each test program or script given, under a
# timeout.  Exit 0 = pass, 77 = skip (the test prints why), anything else =
# fail (its log is shown).  Ends with exactly one line:
#   check: N passed, N failed, N skipped
set -u
cd "$(dirname "$0")/.."
logdir=build/test-logs
mkdir -p "$logdir"
timeout_s=${TEST_TIMEOUT:-300}
pass=0 fail=0 skip=0 failed=""
sandir=$PWD/$logdir/sanitizer
rm -rf "$sandir"

for t in "$@"; do
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
		rc=98	# a failure whatever the test said
	fi
	ms=$((($(date +%s%N) - start) / 1000000))
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
		[ $rc = 124 ] && echo "(timed out after ${timeout_s}s)" >>"$log"
		printf 'FAIL  %-28s %6ss  (exit %d)\n' "$name" "$secs" "$rc"
		sed 's/^/      | /' "$log" | tail -n 40
		;;
	esac
done
[ -n "$failed" ] && echo "failed:$failed"
echo "check: $pass passed, $fail failed, $skip skipped"
[ $fail = 0 ]
