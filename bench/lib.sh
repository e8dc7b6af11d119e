# SPDX-License-Identifier: GPL-3.0-or-later
# Helpers shared by the benchmark scripts: source it.  Uses the caller's
# variable "job" (the pgid of the run in flight, for the exit traps).

# stop_pgrp PGID: stop a background job (a process group of its own, set
# -m), TERM first, KILL after 10 s, and reap it.  Safe under set -e, as
# the exit traps that call it run: a kill of a group already gone, or
# the job's own status, must not end the trap before its cleanup.
stop_pgrp() {
	local pg=$1
	if [ -n "$pg" ] && kill -0 -- "-$pg" 2>/dev/null; then
		kill -TERM -- "-$pg" 2>/dev/null || true
		for _ in $(seq 100); do
			kill -0 -- "-$pg" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL -- "-$pg" 2>/dev/null || true
	fi
	if [ -n "$pg" ]; then
		wait "$pg" 2>/dev/null || true
	fi
	return 0
}

# stop_job: stop the run in flight ($job, a process group), TERM first,
# KILL after 10 s; used by the exit traps.
stop_job() {
	stop_pgrp "$job"
	job=
}

# start_timed OUT TIMEFILE CMD...: CMD's stdout+stderr to OUT; "real user
# sys" seconds of its whole process tree (bash's time keyword:
# RUSAGE_CHILDREN, every process here is reaped by its parent) to
# TIMEFILE.  Starts it as a background job in its own process group (set
# -m by the caller), so a trap can stop the whole tree, and returns at
# once with its pid (= pgid) in $job; 'wait "$job"' gives its status.
start_timed() {
	local out=$1 tf=$2
	shift 2
	( TIMEFORMAT='%3R %3U %3S'
	  { time "$@" >"$out" 2>&1 </dev/null; } 2>"$tf" ) &
	job=$!
}

# run_timed OUT TIMEFILE CMD...: start_timed, then wait for it; returns
# CMD's status.
run_timed() {
	local rc=0
	start_timed "$@"
	wait "$job" || rc=$?
	job=
	return $rc
}

# parse OUT: "first_s first_lines last_s last_lines table_sum mbs
# last_lines_any" from a dbench or dbench-ng output: the seconds and
# lines-per-client columns of the first and last execute lines, the sum
# of the table's Count column, the final MB/sec, and the lines column of
# the last progress line of any phase.  Fails with fewer than two
# execute lines.
parse() {
	awk '
	$4 == "MB/sec" { any = $2 }
	$4 == "MB/sec" && $5 == "execute" {
		if (!n++) { fs = $6; fl = $2 }
		ls = $6; ll = $2
	}
	/^ Operation +Count +AvgLat +MaxLat/ { t = 1; next }
	t && /^ *-+ *$/ { next }
	t && NF == 0 { t = 0 }
	t && NF >= 2 { sum += $2 }
	/^Throughput / { mbs = $2 }
	END {
		if (n < 2 || ll <= fl || ls <= fs) exit 1
		print fs, fl, ls, ll, sum + 0, mbs + 0, any
	}' "$1"
}

# median VALUES...: the median (mean of the middle two for an even count)
median() {
	printf '%s\n' "$@" | sort -g |
		awk '{ v[NR] = $1 }
		     END { if (NR % 2) print v[(NR + 1) / 2]
			   else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# ratio A B: A / B with two decimals (0 when B is 0)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

# umount_retry DIR: unmount DIR; if it is busy (a process killed a moment
# ago may still hold it), retry after 1 s, then detach it lazily.
# results_init: create $RESULTS_DIR and run a private copy of the binary
# kept with the results (a concurrent 'make' must not swap it between
# rounds): DBENCH_NG becomes the copy, DBENCH_NG_ORIG the original;
# say TEXT prints a line and appends it to $summary
results_init() {
	mkdir -p "$RESULTS_DIR"
	cp "$DBENCH_NG" "$RESULTS_DIR/dbench-ng"
	DBENCH_NG_ORIG=$DBENCH_NG
	DBENCH_NG=$RESULTS_DIR/dbench-ng
	summary=$RESULTS_DIR/summary.txt
	: >"$summary"
}
# bench_env: the machine, the versions of both programs, the git tree
# ($top) and the load, for RESULTS_DIR/env.txt
bench_env() {
	echo "date:    $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "kernel:  $(uname -r)"
	echo "cpu:     $(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
	echo "nproc:   $(nproc)"
	echo "memory:  $(awk '/^MemTotal/ { printf "%.1f GB", $2 / 1048576 }' /proc/meminfo)"
	echo "dbench:  $DBENCH ($(dpkg-query -W -f '${Package} ${Version}' dbench 2>/dev/null || echo version unknown))"
	echo "ng:      $DBENCH_NG_ORIG ($("$DBENCH_NG" --version 2>&1 | head -1)), copied to $DBENCH_NG"
	echo "ng sha256: $(sha256sum <"$DBENCH_NG" | cut -d' ' -f1)"
	echo "git:     $(git -C "$top" describe --always --dirty 2>/dev/null || echo n/a)"
	echo "loadavg at start: $(cut -d' ' -f1-3 /proc/loadavg)"
}

say() { printf '%s\n' "$*" | tee -a "$summary"; }

umount_retry() {
	umount "$1" 2>/dev/null && return 0
	sleep 1
	umount "$1" 2>/dev/null || umount -l "$1"
}

# bench_tmpfs NAME SIZE: a work directory $work (/tmp/dbng-NAME.XXXXXX)
# and in it a private tmpfs of SIZE at $mnt, both undone on any exit, with
# the job start_timed left running ($job); job control on (start_timed)
bench_tmpfs() {
	work=$(mktemp -d "/tmp/dbng-$1.XXXXXX")
	mnt=$work/tmpfs
	job=
	trap bench_tmpfs_cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	set -m
	mkdir -p "$mnt"
	mount -t tmpfs -o "size=$2" "dbng-$1" "$mnt"
}

bench_tmpfs_cleanup() {
	stop_job
	mountpoint -q "$mnt" 2>/dev/null && umount_retry "$mnt"
	rm -rf "$work"
}
