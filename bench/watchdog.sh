#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# watchdog.sh: does the stall watchdog change what it measures?
#
# Runs dbench-ng with the watchdog (the default --stall-threshold 100) and
# without it (--stall-threshold 0), alternately, ROUNDS times each, on
#   - a private tmpfs, built-in workload, 1 and 2 clients: the cheapest
#     ops, where a polling thread would show most;
#   - a loop-mounted btrfs (1 GiB image in the tmpfs) with -s (O_SYNC
#     opens), 2 clients: slow ops, where the watchdog actually fires.
# and prints for each the median lines/s (execute phase, from the
# progress lines, as vs-dbench.sh), the ratio with/without, and every
# round so the run-to-run noise is visible.  Goal: no difference beyond
# that noise.
#
# Run: sudo bench/watchdog.sh   (root: tmpfs and loop mount)
# Environment: SECS [10] ROUNDS [3] DBENCH_NG [./dbench-ng]
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
SECS=${SECS:-10}
ROUNDS=${ROUNDS:-3}
DBENCH_NG=${DBENCH_NG:-./dbench-ng}
[ "$(id -u)" = 0 ] || { echo "watchdog.sh: needs root (tmpfs, loop mount)" >&2; exit 2; }
[ -x "$DBENCH_NG" ] || { echo "watchdog.sh: build first (make)" >&2; exit 2; }

work=$(mktemp -d /tmp/dbng-wd.XXXXXX)
mnt=$work/tmpfs
bmnt=$work/btrfs
dev=
job=
cleanup() {
	stop_job
	mountpoint -q "$bmnt" 2>/dev/null && umount "$bmnt"
	[ -n "$dev" ] && losetup -d "$dev" 2>/dev/null
	mountpoint -q "$mnt" 2>/dev/null && umount "$mnt"
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
set -m
mkdir -p "$mnt" "$bmnt"
mount -t tmpfs -o size=3G dbng-wd "$mnt"
truncate -s 1G "$mnt/btrfs.img"
mkfs.btrfs -q -f "$mnt/btrfs.img" >/dev/null
dev=$(losetup -f --show "$mnt/btrfs.img")
mount "$dev" "$bmnt"
mkdir -p "$mnt/d"

# rate OUT: execute-phase lines/s from the progress lines
rate() {
	local p fs fl ls ll n
	p=$(parse "$1") || { echo 0; return; }
	read -r fs fl ls ll _ _ _ <<<"$p"
	n=$(tail -1 "$1" | awk '{for (i = 1; i <= NF; i++) if ($i == "clients") print $(i - 1)}')
	awk -v a="$fs" -v b="$fl" -v c="$ls" -v d="$ll" -v n="$n" \
		'BEGIN { printf "%.0f", (d - b) * n / (c - a) }'
}

compare() {
	local label=$1 dir=$2
	shift 2
	local on=() off=() r out stalls=0
	for r in $(seq "$ROUNDS"); do
		for mode in on off; do
			out=$work/$label-$mode-$r.out
			if [ $mode = on ]; then th=100; else th=0; fi
			run_timed "$out" "$out.time" "$DBENCH_NG" -t "$SECS" --warmup 2 \
				--stall-threshold $th -D "$dir" "$@" ||
				{ echo "run failed: $out" >&2; exit 1; }
			if [ $mode = on ]; then
				on+=("$(rate "$out")")
				s=$(sed -n 's/^ Stalls: \([0-9]*\) op.*/\1/p' "$out")
				stalls=$((stalls + ${s:-0}))
			else
				off+=("$(rate "$out")")
			fi
		done
	done
	m_on=$(median "${on[@]}")
	m_off=$(median "${off[@]}")
	printf '%-34s %10.0f %10.0f %7.3f   stalls caught: %d\n' "$label" \
		"$m_on" "$m_off" "$(awk -v a="$m_on" -v b="$m_off" 'BEGIN {print (b > 0 ? a / b : 0)}')" "$stalls"
	printf '%-34s on: %s   off: %s\n' "" "${on[*]}" "${off[*]}"
}

echo "watchdog on (--stall-threshold 100) vs off (0): lines/s, execute phase"
echo "$(uname -r), $(nproc) CPUs, -t $SECS, $ROUNDS rounds alternating"
printf '%-34s %10s %10s %7s\n' "" "on" "off" "on/off"
compare "tmpfs, built-in, 1 client" "$mnt/d" 1
compare "tmpfs, built-in, 2 clients" "$mnt/d" 2
compare "btrfs -s, built-in, 2 clients" "$bmnt" -s 2
