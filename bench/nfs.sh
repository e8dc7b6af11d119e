#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# nfs.sh: how fast is the nfs backend against a local NFS server, and is
# the load generator the bottleneck?
#
# Starts a private nfs-ganesha (FSAL_VFS, with its default caches) and
# rpcbind in a network and mount namespace of its own (tests/ganesha.sh),
# exporting a private tmpfs (EXPORT_FS=tmpfs, the default: the disk is not
# what is measured) or a directory on /tmp's file system (EXPORT_FS=disk),
# then runs dbench-ng -B nfs at each client count of CLIENTS, ROUNDS times,
# and prints per client count:
#   - lines/s: loadfile lines per second over all clients in the execute
#     phase, from the progress lines (as vs-dbench.sh);
#   - the CPU time per loadfile line of the client (utime + stime of
#     every dbench-ng process of the run: the parent and its clients) and
#     of the server (ganesha's, all its threads), in microseconds, and
#     their ratio: from /proc/PID/stat, read when each execute progress
#     line appears, from the first one to the last one, divided by the
#     lines done between the two (both sides over the same lines).
# Goal: the client uses under a quarter of the CPU the server uses for the
# same ops (client/server < 0.25), so that the load generator is not what
# limits the figures.  On loopback each side's system time also holds TCP
# work done for the other (a sender runs the receiver's TCP input): the
# split of user and system time is in runs.csv.
#
# Run: sudo bench/nfs.sh   (root: the namespaces, the tmpfs, the servers)
# Environment: CLIENTS ["1 4"] SECS [10] ROUNDS [3] LOADFILE [built-in]
#   EXPORT_FS [tmpfs|disk] DBENCH_NG [./dbench-ng]
#   RESULTS_DIR [bench/results/nfs-<date>-<time>]
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../tests/ganesha.sh"
ganesha_ns "$@" # before the cd: it runs "$0" again
cd "$here/.."
top=$PWD
. bench/lib.sh
CLIENTS=${CLIENTS:-1 4}
SECS=${SECS:-10}
ROUNDS=${ROUNDS:-3}
LOADFILE=${LOADFILE:-builtin:netbench}
EXPORT_FS=${EXPORT_FS:-tmpfs}
DBENCH_NG=${DBENCH_NG:-./dbench-ng}
RESULTS_DIR=${RESULTS_DIR:-bench/results/nfs-$(date +%Y%m%d-%H%M%S)}
DBENCH=/usr/bin/dbench
[ -x "$DBENCH_NG" ] || { echo "nfs.sh: build first (make)" >&2; exit 2; }
[ "$SECS" -ge 5 ] 2>/dev/null || { echo "nfs.sh: SECS must be at least 5" >&2; exit 2; }

# what tests/ganesha.sh needs of tests/lib.sh
DBNG=$DBENCH_NG
_exit_cmds=()
at_exit() { _exit_cmds=("$*" "${_exit_cmds[@]}"); }
skip() { echo "nfs.sh: $*" >&2; exit 2; }
fail() { echo "nfs.sh: $*" >&2; exit 3; }
wait_until() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ "$SECONDS" -lt "$end" ] || return 1
		sleep 0.02
	done
}

work=$(mktemp -d /tmp/dbng-nfsbench.XXXXXX)
job=
cleanup() {
	local c
	stop_job
	for c in "${_exit_cmds[@]}"; do eval "$c" >/dev/null 2>&1; done
	mountpoint -q "$work/nfs/export" 2>/dev/null && umount_retry "$work/nfs/export"
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
set -m

mkdir -p "$work/nfs/export"
if [ "$EXPORT_FS" = tmpfs ] && [ "$(id -u)" = 0 ]; then
	mount -t tmpfs -o size=2G dbng-nfsbench "$work/nfs/export" ||
		{ echo "nfs.sh: cannot mount a tmpfs" >&2; exit 2; }
fi
results_init
hz=$(getconf CLK_TCK)
GANESHA_CACHE=1 ganesha_start "$work/nfs"

# rate OUT: execute-phase lines/s from the progress lines
rate() {
	local p fs fl ls ll n
	p=$(parse "$1") || { echo 0; return; }
	read -r fs fl ls ll _ _ _ <<<"$p"
	n=$(tail -1 "$1" | awk '{for (i = 1; i <= NF; i++) if ($i == "clients") print $(i - 1)}')
	awk -v a="$fs" -v b="$fl" -v c="$ls" -v d="$ll" -v n="$n" \
		'BEGIN { printf "%.0f", (d - b) * n / (c - a) }'
}

# ticks PID...: "utime stime" of the PIDs (all threads), in clock ticks;
# fails if one of them is gone
ticks() {
	local p
	for p in "$@"; do cat "/proc/$p/stat" 2>/dev/null || echo gone; done |
		awk '/^gone$/ { exit 1 } { u += $14; s += $15 } END { print u + 0, s + 0 }'
}

# sample OUT: while the run writing OUT is on, at each new execute
# progress line: "lines client_utime client_stime server_utime
# server_stime" (lines per client from the line; the client's ticks are
# those of every dbench-ng process of the run, the server's ganesha's)
# to OUT.samples; ends with the run's cleanup line or the run
sample() {
	local out=$1 last= first= l pids c sv
	: >"$out.samples"
	while kill -0 "$job" 2>/dev/null; do
		l=$(grep -E '^ +[0-9]+ +[0-9]+ +[0-9.]+ MB/sec  execute' "$out" | tail -1)
		if [ -n "$l" ] && [ "$l" != "$last" ]; then
			last=$l
			pids=$(pgrep -f -- "--nfs=$NFS_URL -t") || break
			# the processes of the first sample, all still there
			# (a client that exited is no longer counted)
			[ -n "$first" ] || first=$pids
			[ "$pids" = "$first" ] || break
			# shellcheck disable=SC2086 # one word per pid
			c=$(ticks $pids) && sv=$(ticks "$GANESHA") || break
			echo "$(awk '{ print $2 }' <<<"$l") $c $sv" >>"$out.samples"
		fi
		grep -q '  cleanup ' "$out" && break
		sleep 0.05
	done
}

{
	bench_env
	echo "libnfs:  $(dpkg-query -W -f '${Version}' libnfs13 2>/dev/null || echo n/a)"
	echo "ganesha: $(dpkg-query -W -f '${Version}' nfs-ganesha 2>/dev/null || echo n/a), export on $EXPORT_FS"
} >"$RESULTS_DIR/env.txt"
lf=(-c "$LOADFILE")
echo "round,clients,lines_per_s,lines,client_utime,client_stime,server_utime,server_stime (ticks of 1/$hz s, execute phase)" >"$RESULTS_DIR/runs.csv"
say "dbench-ng -B nfs against a private nfs-ganesha ($EXPORT_FS export), $(nproc) CPUs, -t $SECS --warmup 2, $LOADFILE, $ROUNDS rounds"
say "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
say "$(printf '%-8s %12s %14s %14s %14s' clients lines/s 'client us/line' 'server us/line' client/server)"
for n in $CLIENTS; do
	rates=() cl=() sv=() rt=()
	for r in $(seq "$ROUNDS"); do
		out=$RESULTS_DIR/nfs-c$n-r$r.out
		start_timed "$out" "$out.time" "$DBENCH_NG" -B nfs --nfs="$NFS_URL" \
			-t "$SECS" --warmup 2 "${lf[@]}" "$n"
		sample "$out"
		wait "$job" ||
			{ echo "nfs.sh: run failed: $out: $(tail -3 "$out")" >&2; exit 3; }
		job=
		[ "$(wc -l <"$out.samples")" -ge 2 ] ||
			{ echo "nfs.sh: fewer than 2 execute lines seen in $out" >&2; exit 3; }
		# from the first execute line seen to the last one
		read -r l0 cu0 cs0 su0 ss0 <"$out.samples"
		read -r l1 cu1 cs1 su1 ss1 < <(tail -1 "$out.samples")
		lines=$(((l1 - l0) * n))
		rt+=("$(rate "$out")")
		c=$(awk -v a=$((cu1 + cs1 - cu0 - cs0)) -v l="$lines" -v hz="$hz" 'BEGIN { printf "%.1f", a / hz * 1e6 / l }')
		s=$(awk -v a=$((su1 + ss1 - su0 - ss0)) -v l="$lines" -v hz="$hz" 'BEGIN { printf "%.1f", a / hz * 1e6 / l }')
		cl+=("$c")
		sv+=("$s")
		rates+=("$(ratio "$c" "$s")")
		echo "$r,$n,${rt[-1]},$lines,$(((cu1 - cu0))),$(((cs1 - cs0))),$(((su1 - su0))),$(((ss1 - ss0)))" >>"$RESULTS_DIR/runs.csv"
	done
	say "$(printf '%-8s %12.0f %14s %14s %14s' "$n" "$(median "${rt[@]}")" \
		"$(median "${cl[@]}")" "$(median "${sv[@]}")" "$(median "${rates[@]}")")"
	say "$(printf '%-8s rounds: lines/s %s; client %s; server %s; ratio %s' "" \
		"${rt[*]}" "${cl[*]}" "${sv[*]}" "${rates[*]}")"
done
say "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
say "goal: client/server < 0.25 (the client is not the bottleneck); results in $RESULTS_DIR"
