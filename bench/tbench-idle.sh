#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# tbench-idle.sh: does dbench-ng's tbench server serve its busy clients
# as fast while it holds thousands of idle connections?  (issue 28, item
# 3.)  One dbench-ng tbench_srv in a network namespace of the script's
# own (loopback only, nothing is seen outside); ROUNDS rounds, each of
# two runs of BUSY dbench-ng tbench clients (client.txt, -t SECS,
# --warmup 2) against it, in ABBA order:
#   alone  the BUSY clients only;
#   idle   the same while IDLE other connections are open and idle
#          (bench/tbench-idle.py: each made tbench's handshake, then
#          holds its connection without a word until the run is over).
# It prints the lines/s of each run (the execute phase, from the
# progress lines, as bench/tbench.sh), the ratio idle/alone per round
# and its median (goal >= 0.95: the busy ones' throughput within 5 % of
# theirs alone), the server's memory with and without the idle
# connections, and its summary at the stop.
#
# The server needs a descriptor a connection: IDLE + BUSY + a few.  The
# script raises its own limit of open files (ulimit -n, root may raise
# the hard limit up to /proc/sys/fs/nr_open) and the server raises its
# soft limit to the hard one; if the limit cannot be had it says so and
# exits 3.
#
# Run:   sudo bench/tbench-idle.sh
# Environment (defaults in brackets):
#   IDLE [10000]  BUSY [100]  SECS [10]  ROUNDS [2]  THREADS [the server's]
#   LOADFILE [/usr/share/dbench/client.txt]  DBENCH_NG [./dbench-ng]
#   RESULTS_DIR [bench/results/<date>-<time>-tbench-idle]
# A default run takes about 2 x ROUNDS x (SECS + 2 + 5) s: 1.2 minutes.

set -eu
if [ -z "${DBNG_NETNS:-}" ]; then
	if ! unshare -n true 2>/dev/null || ! command -v ss >/dev/null; then
		echo "tbench-idle.sh: cannot make a network namespace (unshare -n, ss): run it as root" >&2
		exit 2
	fi
	exec unshare -n env DBNG_NETNS=1 bash "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)

IDLE=${IDLE:-10000}
BUSY=${BUSY:-100}
SECS=${SECS:-10}
ROUNDS=${ROUNDS:-2}
THREADS=${THREADS:-}
LOADFILE=${LOADFILE:-/usr/share/dbench/client.txt}
DBENCH_NG=${DBENCH_NG:-$top/dbench-ng}
RESULTS_DIR=${RESULTS_DIR:-$here/results/$(date +%Y%m%d-%H%M%S)-tbench-idle}
DBENCH=/usr/bin/tbench # for bench_env
PORT=7003

for v in IDLE BUSY SECS ROUNDS; do
	case ${!v} in
	'' | *[!0-9]*) echo "tbench-idle.sh: $v must be a number" >&2; exit 2 ;;
	esac
done
if [ "$SECS" -lt 5 ]; then
	echo "tbench-idle.sh: SECS must be at least 5 (two execute lines)" >&2
	exit 2
fi
if [ ! -x "$DBENCH_NG" ]; then
	echo "tbench-idle.sh: $DBENCH_NG not found; build it with 'make'" >&2
	exit 2
fi
if [ ! -r "$LOADFILE" ]; then
	echo "tbench-idle.sh: no loadfile $LOADFILE: sudo apt-get install dbench, or LOADFILE=" >&2
	exit 2
fi
command -v python3 >/dev/null || {
	echo "tbench-idle.sh: needs python3" >&2
	exit 2
}
ip link set lo up

# descriptors: the server holds IDLE + BUSY connections, the idle holder
# IDLE; each with room
need=$((IDLE + BUSY + 256))
hard=$(ulimit -Hn)
if [ "$hard" != unlimited ] && [ "$hard" -lt "$need" ]; then
	if ! ulimit -Hn "$need" 2>/dev/null; then
		echo "tbench-idle.sh: $IDLE + $BUSY connections need $need open files;" \
			"the hard limit is $hard and cannot be raised here" \
			"(root may, up to $(cat /proc/sys/fs/nr_open)): this machine cannot run it" >&2
		exit 3
	fi
fi
ulimit -Sn "$need"
if [ "$need" -gt "$(cat /proc/sys/fs/file-max)" ]; then
	echo "tbench-idle.sh: fs.file-max ($(cat /proc/sys/fs/file-max)) is below $need: this machine cannot run it" >&2
	exit 3
fi

set -m
srv_pg=
idle_pg=
cleanup() {
	set +e
	exec 9>&- 2>/dev/null
	stop_pgrp "$idle_pg"
	stop_pgrp "$srv_pg"
}
trap cleanup EXIT
trap 'echo "tbench-idle.sh: interrupted, cleaning up" >&2; exit 130' INT
trap 'echo "tbench-idle.sh: terminated, cleaning up" >&2; exit 143' TERM

results_init
bench_env >"$RESULTS_DIR/env.txt"
echo "nofile:  soft $(ulimit -Sn) hard $(ulimit -Hn)" >>"$RESULTS_DIR/env.txt"
csv=$RESULTS_DIR/runs.csv
echo "round,kind,lines_per_s,srv_rss_kb,established" >"$csv"

say "dbench-ng tbench_srv: $BUSY busy clients alone and beside $IDLE idle connections, $ROUNDS rounds (ABBA), -t $SECS --warmup 2, loopback"
say "server threads: ${THREADS:-the default (4 x $(nproc) CPUs)}; open files: $(ulimit -Sn)"
say "load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (other activity adds noise)"
say "results: $RESULTS_DIR"

"$DBENCH_NG" tbench_srv --bind 127.0.0.1 ${THREADS:+--threads "$THREADS"} \
	>"$RESULTS_DIR/srv.out" 2>"$RESULTS_DIR/srv.err" </dev/null &
srv_pg=$!
for _ in $(seq 500); do
	[ -n "$(ss -Hltn "sport = :$PORT")" ] && break
	kill -0 "$srv_pg" 2>/dev/null || break
	sleep 0.02
done
if [ -z "$(ss -Hltn "sport = :$PORT")" ]; then
	echo "tbench-idle.sh: the server does not listen:" >&2
	cat "$RESULTS_DIR/srv.err" >&2
	exit 1
fi

rss() { awk '/^VmRSS/ { print $2 }' "/proc/$srv_pg/status"; }
established() { ss -Htn state established "( sport = :$PORT )" | wc -l; }

# idle_open: the idle connections, held by tbench-idle.py until fd 9
# (its stdin) is closed
idle_open() {
	local fifo=$RESULTS_DIR/idle.fifo ready=$RESULTS_DIR/idle.ready
	rm -f "$fifo" "$ready"
	mkfifo "$fifo"
	python3 "$here/tbench-idle.py" "$IDLE" 127.0.0.1 "$PORT" \
		<"$fifo" >"$ready" 2>"$RESULTS_DIR/idle.err" &
	idle_pg=$!
	exec 9>"$fifo"
	for _ in $(seq 1500); do
		grep -q '^ready' "$ready" 2>/dev/null && break
		kill -0 "$idle_pg" 2>/dev/null || break
		sleep 0.1
	done
	if ! grep -q '^ready' "$ready" 2>/dev/null; then
		echo "tbench-idle.sh: the idle connections could not be opened:" >&2
		cat "$RESULTS_DIR/idle.err" >&2
		exit 3
	fi
}
idle_close() {
	exec 9>&-
	wait "$idle_pg" || true
	idle_pg=
	# the server sees every close before the next run
	for _ in $(seq 300); do
		[ "$(established)" -le 0 ] && break
		sleep 0.1
	done
}

# busy ROUND KIND: a run of the busy clients; sets LPS
busy() {
	local r=$1 kind=$2 out p fs fl ls ll est mem
	out=$RESULTS_DIR/$kind-r$r.out
	est=$(established)
	mem=$(rss)
	if ! "$DBENCH_NG" tbench -c "$LOADFILE" -t "$SECS" --warmup 2 \
		"$BUSY" 127.0.0.1 >"$out" 2>&1 </dev/null; then
		echo "tbench-idle.sh: the $kind run of round $r failed, output in $out:" >&2
		tail -20 "$out" >&2
		exit 1
	fi
	if ! p=$(parse "$out"); then
		echo "tbench-idle.sh: fewer than two execute lines in $out" >&2
		exit 1
	fi
	read -r fs fl ls ll _ _ _ <<<"$p"
	LPS=$(awk -v fs="$fs" -v fl="$fl" -v ls="$ls" -v ll="$ll" -v n="$BUSY" \
		'BEGIN { printf "%.0f", (ll - fl) * n / (ls - fs) }')
	echo "$r,$kind,$LPS,$mem,$est" >>"$csv"
	say "$(printf '  round %d %-5s %8s lines/s  (%d idle connections open, server RSS %d KB)' \
		"$r" "$kind" "$LPS" "$est" "$mem")"
}

ratios=
la=
li=
for r in $(seq "$ROUNDS"); do
	if [ $((r % 2)) = 1 ]; then order="alone idle"; else order="idle alone"; fi
	for kind in $order; do
		if [ "$kind" = idle ]; then
			idle_open
			busy "$r" idle
			IDLE_LPS=$LPS
			idle_close
		else
			busy "$r" alone
			ALONE_LPS=$LPS
		fi
	done
	ratios="$ratios $(ratio "$IDLE_LPS" "$ALONE_LPS")"
	la="$la $ALONE_LPS"
	li="$li $IDLE_LPS"
done
stop_pgrp "$srv_pg" || true
srv_pg=
# shellcheck disable=SC2086
m=$(median $ratios)
# shellcheck disable=SC2086
say ""
say "== $BUSY busy clients, -t $SECS, medians of $ROUNDS rounds"
# shellcheck disable=SC2086
say "   lines/s alone: $(median $la)   beside $IDLE idle connections: $(median $li)"
say "   ratio idle/alone per round:$ratios; median $m ($(awk -v r="$m" 'BEGIN { printf "goal >= 0.95: %s", (r >= 0.95 ? "MET" : "NOT MET") }'))"
say "   server: $(grep '^tbench_srv: served' "$RESULTS_DIR/srv.out" || echo "no summary")"
say "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
say "summary: $summary"
