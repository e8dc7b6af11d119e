#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# smb.sh: is the load generator the bottleneck?  dbench-ng -B smb against
# a private smbd on this machine (tests/smbd.sh: config, state and share
# in a temporary directory, inside a network namespace of its own, over
# loopback), at 1 and 4 clients, ROUNDS rounds each, and for each:
#
#   lines/s      loadfile lines per second of the execute phase, from the
#                progress lines (as vs-dbench.sh: bench/README.md)
#   clients' CPU us/line  the CPU (user + sys, /proc/PID/stat sampled every
#                0.1 s until they exit) of the client processes, which
#                make every SMB call, per loadfile line of the run (warmup
#                included, lines = the last progress line's count x
#                clients)
#   whole dbench-ng us/line  the same for the whole process tree (bash's
#                time: RUSAGE_CHILDREN), with the parent's parse of the
#                loadfile, ticks and watchdog
#   smbd CPU us/line  smbd's CPU over the same run: the main smbd's own
#                and its reaped children's (utime stime cutime cstime:
#                each connection is a child of its own, reaped when the
#                clients log off) plus the long-lived helpers' (notifyd,
#                cleanupd), after minus before
#   clients/smbd the ratio; goal: under 0.25 (the load generator uses
#                under a quarter of the CPU the server uses for the same
#                ops)
#
# Both run on the same 2 cores, so at 4 clients they compete for them; the
# ratio is per line and holds anyway.  LockX, UnlockX and Flush are not
# run over SMB (docs/smb.md): they count as lines, cost nothing.
#
# Run: sudo bench/smb.sh   (root: a network namespace)
# Environment: CLIENTS ["1 4"] SECS [10] ROUNDS [3] WARMUP [2]
#   LOADFILE [/usr/share/dbench/client.txt, else builtin:netbench]
#   DBENCH_NG [./dbench-ng] RESULTS_DIR [bench/results/<date>-smb]
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$top/tests/smbd.sh"
netns_enter "$@"
. "$top/tests/lib.sh"
. "$here/lib.sh"
set -u

CLIENTS=${CLIENTS:-1 4}
SECS=${SECS:-10}
ROUNDS=${ROUNDS:-3}
WARMUP=${WARMUP:-2}
DBENCH_NG=${DBENCH_NG:-$top/dbench-ng}
RESULTS_DIR=${RESULTS_DIR:-$here/results/$(date +%Y%m%d-%H%M%S)-smb}
if [ -z "${LOADFILE:-}" ]; then
	LOADFILE=builtin:netbench
	[ -r /usr/share/dbench/client.txt ] && LOADFILE=/usr/share/dbench/client.txt
fi
[ -x "$DBENCH_NG" ] || { echo "smb.sh: build first (make)" >&2; exit 2; }
"$DBENCH_NG" --help | grep -q ' smb (' ||
	{ echo "smb.sh: this build has no smb backend (apt-get install libsmbclient-dev, then make)" >&2; exit 2; }
netns_lo
job=
at_exit stop_job

results_init
DBENCH=n/a
bench_env >"$RESULTS_DIR/env.txt"
start_smbd "$TMP/smb"
# each run a job of its own process group, which the exit trap stops; from
# here lib.sh's wait_until (whose foreground sleeps job control slows) is
# not used
set -m
echo "smbd:    $(smbd --version)" >>"$RESULTS_DIR/env.txt"
echo "clients,round,lines_s,lines,tree_cpu_s,clients_cpu_s,server_cpu_s,tree_us_line,clients_us_line,server_us_line,ratio" \
	>"$RESULTS_DIR/runs.csv"

# ticks -> seconds
hz=$(getconf CLK_TCK)

# sample_clients JOB: while the run JOB lasts, every 0.1 s, the CPU ticks
# (utime + stime) of each client process (a child of the dbench-ng
# parent, which runs the same binary); prints "PID TICKS" of each, as
# last seen (a client's clean-up after its last sample is missed).  The
# parent's own CPU (parsing the loadfile, the ticks, the watchdog) is
# not a client's: it is left out here and is in the tree's total.
sample_clients() {
	local p st ppid t
	declare -A last=()
	local -A par=()
	while kill -0 "$1" 2>/dev/null; do
		for p in $(pgrep -f -- "^$DBENCH_NG "); do
			st=$(sed 's/^.*) //' "/proc/$p/stat" 2>/dev/null) || continue
			read -r _ ppid t <<<"$(awk '{ print $1, $2, $12 + $13 }' <<<"$st")"
			last[$p]=$t
			par[$p]=$ppid
		done
		sleep 0.1
	done
	for p in "${!last[@]}"; do
		# a client: its parent is a dbench-ng process too
		[ -n "${last[${par[$p]}]:-}" ] && echo "$p ${last[$p]}"
	done
}
# the CPU seconds smbd has used so far: the main process with its reaped
# children, and the helpers still alive (not per-connection children:
# they are waited for to end, see below)
smbd_cpu() {
	local p t=0 f
	for p in $(smbd_pids); do
		f=$(sed 's/^.*) //' "/proc/$p/stat" 2>/dev/null) || continue
		# fields after "comm) ": 12 utime 13 stime 14 cutime 15 cstime
		# (3-based: state is $1)
		t=$(awk -v t="$t" -v main=$([ "$p" = "$SMBD" ] && echo 1 || echo 0) \
			'{ print t + $12 + $13 + (main ? $14 + $15 : 0) }' <<<"$f")
	done
	awk -v t="$t" -v hz="$hz" 'BEGIN { printf "%.3f", t / hz }'
}
nsmbd() { smbd_pids | wc -l; }
base_n=$(nsmbd)
# wait (up to 30 s) until the connections' children have ended
back_to_base() {
	for _ in $(seq 300); do
		[ "$(nsmbd)" -le "$base_n" ] && return 0
		sleep 0.1
	done
	echo "smb.sh: smbd children did not end" >&2
	exit 1
}

S=--smb-share=//127.0.0.1:$SMB_PORT/share
say "dbench-ng -B smb against a private smbd (loopback), $LOADFILE, -t $SECS --warmup $WARMUP, $ROUNDS rounds"
say "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for n in $CLIENTS; do
	for r in $(seq "$ROUNDS"); do
		out=$RESULTS_DIR/smb-c$n-r$r.out
		back_to_base
		s0=$(smbd_cpu)
		c=(-c "$LOADFILE")
		DBENCH_NG_SMB_PASSWORD=$SMB_PW start_timed "$out" "$out.time" \
			"$DBENCH_NG" -B smb "$S" --smb-user=root -t "$SECS" \
			--warmup "$WARMUP" "${c[@]}" "$n"
		sample_clients "$job" >"$out.clients"
		wait "$job" ||
			{ echo "smb.sh: run failed: $(tail -3 "$out")" >&2; exit 1; }
		job=
		cl=$(awk '{ t += $2 } END { printf "%.3f", t / '"$hz"' }' "$out.clients")
		# the connections' smbd children end when the clients log off
		back_to_base
		s1=$(smbd_cpu)
		p=$(parse "$out") || { echo "smb.sh: no execute lines in $out" >&2; exit 1; }
		read -r fs fl ls ll _ _ any <<<"$p"
		read -r _ u sy <"$out.time"
		awk -v n="$n" -v r="$r" -v fs="$fs" -v fl="$fl" -v ls="$ls" \
			-v ll="$ll" -v any="$any" -v u="$u" -v sy="$sy" \
			-v cc="$cl" -v s0="$s0" -v s1="$s1" 'BEGIN {
			lines = any * n; tc = u + sy; sc = s1 - s0
			printf "%d,%d,%.0f,%d,%.3f,%.3f,%.3f,%.2f,%.2f,%.2f,%.3f\n",
				n, r, (ll - fl) * n / (ls - fs), lines, tc, cc, sc,
				tc * 1e6 / lines, cc * 1e6 / lines, sc * 1e6 / lines,
				(sc > 0 ? cc / sc : 0) }' >>"$RESULTS_DIR/runs.csv"
		tail -1 "$RESULTS_DIR/runs.csv"
	done
done

say ""
say "| clients | lines/s | clients' CPU us/line | whole dbench-ng us/line | smbd CPU us/line | clients/smbd (goal < 0.25) | rounds: lines/s; ratio |"
say "|---:|---:|---:|---:|---:|---:|---|"
for n in $CLIENTS; do
	col() { awk -F, -v n="$n" -v k="$1" '$1 == n { print $k }' "$RESULTS_DIR/runs.csv"; }
	# shellcheck disable=SC2046
	say "| $n | $(median $(col 3)) | $(median $(col 9)) | $(median $(col 8)) | $(median $(col 10)) | $(median $(col 11)) | $(col 3 | tr '\n' ' '); $(col 11 | tr '\n' ' ') |"
done
say "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "raw data: $RESULTS_DIR"
