#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# mpi.sh: the cost of a run across hosts (docs/mpi.md) on one machine:
# loadfile lines per second of the same total number of clients run as
#   plain   dbench-ng CLIENTS                       (no MPI at all)
#   1 rank  mpirun -np 1 dbench-ng-mpi CLIENTS      (the coordinator, alone)
#   4 ranks mpirun -np 4 dbench-ng-mpi CLIENTS/4    (4 parents, and every
#           second an agreement and a 340 KB reduction between them)
# on the same private tmpfs, with the fileio backend and with -B null (no
# I/O: the harness alone, where any cost shows most).  Every mpirun runs in
# a network namespace of its own with only lo, Open MPI's TCP transport
# forced, as tests/cli/mpi.sh does.
#
# lines/s is the lines of the measured phase over its seconds, from the
# JSON result (every rank's, merged; summary.measured_s and the series);
# cpu ns/line is the user + sys CPU time of the whole process tree
# (mpirun, its ranks, their clients; bash's time: every process is reaped
# by its parent) over every line the clients did, warmup included: the
# cost per line of the harness and, for the ranks, of MPI (mpirun's
# progress, the agreements and reductions), less sensitive than lines/s
# to what else the machine does.  Each round is printed, then the median
# of each column and the ratio to plain.  On one machine the 4 ranks also
# share its CPUs: 4 parents tick instead of one, which is part of what is
# measured.
#
# Needs root (tmpfs, unshare -n), mpirun, a built ./dbench-ng and
# ./dbench-ng-mpi, python3.  Environment:
#   CLIENTS=4        total clients (a multiple of 4)
#   SECS=10          -t of every run (warmup 2 s)
#   ROUNDS=3         runs of each kind
#   BACKENDS="fileio null"
#   RESULTS_DIR=...  raw outputs (default bench/results/<date>-mpi)
# Run: sudo bench/mpi.sh   (about 2 x ROUNDS x 3 x (SECS + 4) s)

set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
CLIENTS=${CLIENTS:-4}
SECS=${SECS:-10}
ROUNDS=${ROUNDS:-3}
BACKENDS=${BACKENDS:-fileio null}
NG=$top/dbench-ng
MPI=$top/dbench-ng-mpi
RESULTS_DIR=${RESULTS_DIR:-$here/results/$(date +%Y%m%d-%H%M%S)-mpi}

die() { echo "mpi.sh: $*" >&2; exit 2; }
[ "$(id -u)" = 0 ] || die "needs root (a private tmpfs, unshare -n)"
command -v mpirun >/dev/null || die "mpirun missing: apt-get install openmpi-bin"
[ -x "$NG" ] && [ -x "$MPI" ] || die "build first: make (needs libopenmpi-dev)"
[ $((CLIENTS % 4)) = 0 ] || die "CLIENTS must be a multiple of 4"
mkdir -p "$RESULTS_DIR"
T=$(mktemp -d /tmp/dbng-bench-mpi.XXXXXX)
mount -t tmpfs -o size=2G dbng-bench "$T" || die "cannot mount a tmpfs"
trap 'umount -l "$T"; rmdir "$T"' EXIT
trap 'exit 130' INT TERM

# "lines/s cpu-ns/line" of the JSON result $1 and the time file $2
rate() {
	python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
lines = sum(p["lines"] for p in d["time_series"]["points"] if not p["warmup"])
real, user, sys_ = map(float, open(sys.argv[2]).read().split())
total = sum(c["lines"] for c in d["clients"])
print("%.0f %.0f" % (lines / d["summary"]["measured_s"],
                     (user + sys_) * 1e9 / total))
PY
}

# timed TIMEFILE CMD...: CMD, its tree's "real user sys" seconds to TIMEFILE
timed() {
	local tf=$1
	shift
	{ TIMEFORMAT='%3R %3U %3S'; time "$@"; } 2>"$tf"
}

mpi() { # NP OUT ARGS...
	local np=$1 out=$2
	shift 2
	unshare -n sh -c 'ip link set lo up && exec "$@"' sh \
		mpirun --allow-run-as-root --oversubscribe -np "$np" \
		--mca btl self,tcp --mca btl_tcp_if_include lo \
		--mca oob_tcp_if_include lo "$MPI" "$@" >"$out" 2>&1
}

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

echo "mpi.sh: $CLIENTS clients, -t $SECS, $ROUNDS rounds; $(nproc) CPUs;" \
	"load $(cut -d' ' -f1-3 /proc/loadavg); raw outputs in $RESULTS_DIR"
for be in $BACKENDS; do
	printf '%-7s %5s %21s %21s %21s\n' "$be" round "plain" "1 rank" "4 ranks"
	printf '%-7s %5s %21s %21s %21s\n' "" "" "lines/s  cpu-ns/line" \
		"lines/s  cpu-ns/line" "lines/s  cpu-ns/line"
	: >"$RESULTS_DIR/$be.rates"
	for r in $(seq "$ROUNDS"); do
		base=$RESULTS_DIR/$be-$r
		common=(-B "$be" -c builtin:netbench -t "$SECS" --warmup 2 -D "$T")
		timed "$base-plain.time" "$NG" "${common[@]}" \
			--json "$base-plain.json" "$CLIENTS" \
			>"$base-plain.out" 2>&1 ||
			die "dbench-ng failed: $base-plain.out"
		timed "$base-1.time" mpi 1 "$base-1.out" "${common[@]}" \
			--json "$base-1.json" "$CLIENTS" ||
			die "1 rank failed: $base-1.out"
		timed "$base-4.time" mpi 4 "$base-4.out" "${common[@]}" \
			--json "$base-4.json" $((CLIENTS / 4)) ||
			die "4 ranks failed: $base-4.out"
		row=$(rate "$base-plain.json" "$base-plain.time")
		row="$row $(rate "$base-1.json" "$base-1.time")"
		row="$row $(rate "$base-4.json" "$base-4.time")"
		echo "$row" >>"$RESULTS_DIR/$be.rates"
		# shellcheck disable=SC2086
		printf '%-7s %5s %10s %10s %10s %10s %10s %10s\n' "" "$r" $row
	done
	med=""
	for c in 1 2 3 4 5 6; do
		med="$med $(cut -d' ' -f$c "$RESULTS_DIR/$be.rates" | median)"
	done
	# shellcheck disable=SC2086
	printf '%-7s %5s %10s %10s %10s %10s %10s %10s\n' "" median $med
	# shellcheck disable=SC2086
	echo $med | awk '{ printf "%-7s %5s %10s %10s %10.3f %10.3f %10.3f %10.3f   of plain\n", "", "ratio", "1", "1", $3 / $1, $4 / $2, $5 / $1, $6 / $2 }'
done
echo "mpi.sh: load $(cut -d' ' -f1-3 /proc/loadavg) at the end"
