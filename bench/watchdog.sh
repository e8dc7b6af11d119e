#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# watchdog.sh: does the stall watchdog change what it measures?
#
# Runs dbench-ng in three modes, alternately, ROUNDS times each:
#   off   --stall-threshold 0: no watchdog;
#   proc  the watchdog (--stall-threshold 100, the default) with --no-bpf:
#         it polls the slots and samples /proc/PID/stack of stuck clients;
#   bpf   the watchdog with BPF tracing of the clients' off-CPU time and
#         wakers (the default as root: every context switch of the
#         machine runs a BPF program, every sleep of a client sends a
#         record);
# on
#   - a private tmpfs, built-in workload, 1 and 2 clients: the cheapest
#     ops, where a polling thread would show most;
#   - the same tmpfs with Debian's client.txt (/usr/share/dbench/client.txt,
#     if installed), 2 clients;
#   - a loop-mounted btrfs (1 GiB image in the tmpfs) with -s (O_SYNC
#     opens), 2 clients: slow ops that sleep, where the watchdog fires and
#     BPF sends a record per sleep.
# and prints for each the median lines/s (execute phase, from the
# progress lines, as vs-dbench.sh) of each mode, the ratios proc/off and
# bpf/proc, every round so the run-to-run noise is visible, the stalls
# caught, and the BPF side's intervals and lost records (ring buffer
# full).  Goal: proc/off within the noise; bpf/proc within the noise on
# tmpfs and within 3 % with -s.
#
# Run: sudo bench/watchdog.sh   (root: tmpfs, loop mount, BPF)
# The order of the three modes turns each round (off proc bpf, proc bpf
# off, bpf off proc, ...), so that none always runs on the filesystem
# the one before it aged.
#
# Environment: SECS [10] ROUNDS [3] DBENCH_NG [./dbench-ng]
#              LOADFILE [/usr/share/dbench/client.txt]
#              CASES [tmpfs btrfs]: the rows to run (tmpfs: the first
#              three, btrfs: the last)
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
SECS=${SECS:-10}
ROUNDS=${ROUNDS:-3}
CASES=${CASES:-tmpfs btrfs}
DBENCH_NG=${DBENCH_NG:-./dbench-ng}
LOADFILE=${LOADFILE:-/usr/share/dbench/client.txt}
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
	# the loop device lets go of its image asynchronously: retry
	mountpoint -q "$mnt" 2>/dev/null && umount_retry "$mnt"
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

# bpf_figures JSON: "intervals lost" of its BPF tracing ("- -" without)
bpf_figures() {
	python3 -c 'import json, sys
b = json.load(open(sys.argv[1]))["stalls"].get("bpf")
print("%d %d" % (b["intervals"], b["lost"]) if b else "- -")' "$1"
}

compare() {
	local label=$1 dir=$2
	shift 2
	local off=() proc=() bpf=() r out stalls=0 iv=0 lost=0 m_off m_proc m_bpf
	local modes=(off proc bpf)
	for r in $(seq "$ROUNDS"); do
		for k in 0 1 2; do
			mode=${modes[(r - 1 + k) % 3]}
			out=$work/$label-$mode-$r.out
			case $mode in
			off) opts=(--stall-threshold 0) ;;
			proc) opts=(--stall-threshold 100 --no-bpf) ;;
			bpf) opts=(--stall-threshold 100 --json "$out.json") ;;
			esac
			run_timed "$out" "$out.time" "$DBENCH_NG" -t "$SECS" --warmup 2 \
				"${opts[@]}" -D "$dir" "$@" ||
				{ echo "run failed: $out" >&2; exit 1; }
			s=$(sed -n 's/^ Stalls: \([0-9]*\) op.*/\1/p' "$out")
			case $mode in
			off) off+=("$(rate "$out")") ;;
			proc)
				proc+=("$(rate "$out")")
				stalls=$((stalls + ${s:-0}))
				;;
			bpf)
				bpf+=("$(rate "$out")")
				stalls=$((stalls + ${s:-0}))
				read -r a b <<<"$(bpf_figures "$out.json")"
				[ "$a" = - ] && { echo "no BPF tracing in $out:" \
					"$(grep BPF "$out")" >&2; exit 1; }
				iv=$((iv + a))
				lost=$((lost + b))
				;;
			esac
		done
	done
	m_off=$(median "${off[@]}")
	m_proc=$(median "${proc[@]}")
	m_bpf=$(median "${bpf[@]}")
	printf '%-30s %9.0f %9.0f %9.0f %9s %9s   stalls: %d, BPF intervals: %d, lost: %d\n' \
		"$label" "$m_off" "$m_proc" "$m_bpf" \
		"$(awk -v a="$m_proc" -v b="$m_off" 'BEGIN {printf "%.3f", (b > 0 ? a / b : 0)}')" \
		"$(awk -v a="$m_bpf" -v b="$m_proc" 'BEGIN {printf "%.3f", (b > 0 ? a / b : 0)}')" \
		"$stalls" "$iv" "$lost"
	printf '%-30s off: %s   proc: %s   bpf: %s\n' "" "${off[*]}" "${proc[*]}" \
		"${bpf[*]}"
}

echo "watchdog off (--stall-threshold 0), with /proc sampling only (100,"
echo "--no-bpf), with BPF tracing (100): lines/s, execute phase"
echo "$(uname -r), $(nproc) CPUs, -t $SECS, $ROUNDS rounds alternating," \
	"load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-30s %9s %9s %9s %9s %9s\n' "" off proc bpf proc/off bpf/proc
if [[ " $CASES " == *" tmpfs "* ]]; then
	compare "tmpfs, built-in, 1 client" "$mnt/d" -c builtin:netbench 1
	compare "tmpfs, built-in, 2 clients" "$mnt/d" -c builtin:netbench 2
	if [ -r "$LOADFILE" ]; then
		compare "tmpfs, client.txt, 2 clients" "$mnt/d" -c "$LOADFILE" 2
	else
		echo "(no $LOADFILE: apt-get install dbench for the client.txt row)"
	fi
fi
[[ " $CASES " != *" btrfs "* ]] ||
	compare "btrfs -s, built-in, 2 clients" "$bmnt" -c builtin:netbench -s 2
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
