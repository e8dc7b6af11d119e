#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# scale.sh: what many clients cost the load generator itself (issue 28).
#
# For 100, 1000 and 10000 clients (NS) runs
#   floor      fork-floor (bench/fork-floor.c, built here): N processes
#              with nothing of dbench-ng in them, forked, released at a
#              barrier, reading the clock until the end, reaped: what the
#              machine itself takes to start and end that many (its
#              release and past are the floor under the rows below);
#   drain      drain-cost (bench/drain-cost.c, built here against the
#              build's libraries): the parent's drain of N clients' slots
#              with nothing else on the CPU, once with 1 chunk a client
#              changed between two ticks and once with 100 (about what a
#              -B null client changes a second at 1000): the ms of a
#              tick's drain alone, and per chunk;
#   ng-null    dbench-ng -B null (the default workload): the engine alone;
#   ng-tmpfs   dbench-ng on a private tmpfs with an eight-line loadfile
#              (a fresh directory; open, write 4 KB, read them, close,
#              unlink);
#   db-tmpfs   dbench 4.0 (/usr/bin/dbench, Debian's) on the same tmpfs
#              and loadfile, at the counts where it runs (under stdbuf
#              -o0: its progress lines, to a file, would wait in a buffer);
#   old-...    the same with OLD_NG (the binary before the change), if set,
#              up to OLD_MAX clients (at 10000 its slots would take ~7 GB);
# each -t SECS (dbench's warmup, SECS / 5), and prints per run:
#   mem        the clients' and the parent's memory in the middle of the
#              execute phase, in MB, and that over the clients, in KB per
#              client: Pss (shared pages split among the processes that
#              map them, so nothing counts twice; the clients' from a
#              sample of 32 of them) and the page tables (VmPTE) of the
#              process tree; the difference between two counts of
#              clients is the cost of one more, without the parent's;
#              "shared": the part of it in shared memory (Pss_Shmem: the
#              slots and histograms; dbench 4.0's shared child structs),
#              per client;
#   release    seconds from the start of the command to "releasing
#              clients" in its output;
#   tick       the CPU time of the parent's main thread (its ticks) in
#              the execute phase, from its first progress line to the
#              first cleanup line, in ms per second;
#   lines      the progress lines of the execute phase the parent
#              printed, over SECS (its ticks on time: SECS - 1 or SECS;
#              a parent that waits behind the clients prints fewer);
#   past       seconds from the end of the run (release + warmup + -t)
#              to the exit of the command (every client gone).
#   maxlat     the run's longest op, in seconds (its Throughput line's
#              max_latency): an op in flight at the end holds its client
#              past the end by what is left of it, which no load
#              generator can cut short.
# and, up to STALL_MAX (1000) clients,
#   ng-stall   dbench-ng with the eight-line loadfile on faultfs
#              (tests/faultfs, built here; over the private tmpfs), which
#              delays one write of the middle client by STALL_MS (2000)
#              ms STALL_AT (4000) ms after it mounts; the watchdog
#              (--stall-threshold 500) must report it: "stall: caught"
#              with the event's client, op, duration and whether the
#              client's kernel stack was read while it was stuck, or
#              "stall: MISSED" (the row's other columns as above).
# Goals (issue 28): 10000 clients released in under 10 s and gone within
# 2 s of the end; the parent's tick under 10 ms per second at 10000; no
# stall missed at 1000 busy clients.
#
# Run: sudo bench/scale.sh   (root: tmpfs; 10000 processes)
# Environment: SECS [8] NS [100 1000 10000] DBENCH_NG [./dbench-ng]
#              DBENCH [/usr/bin/dbench] OLD_NG [] OLD_MAX [1000]
#              CASES [floor drain ng-null ng-tmpfs db-tmpfs ng-stall]
#              STALL_MAX [1000] STALL_MS [2000] STALL_AT [4000]
#              LIMIT [300]: seconds a run may take before it is killed
#              RESULTS_DIR [bench/results/scale-DATE]
set -eu
cd "$(dirname "$0")/.."
top=$PWD
. bench/lib.sh
SECS=${SECS:-8}
NS=${NS:-100 1000 10000}
CASES=${CASES:-floor drain ng-null ng-tmpfs db-tmpfs ng-stall}
STALL_MAX=${STALL_MAX:-1000}
STALL_MS=${STALL_MS:-2000}
STALL_AT=${STALL_AT:-4000}
DBENCH_NG=${DBENCH_NG:-./dbench-ng}
DBENCH=${DBENCH:-/usr/bin/dbench}
OLD_NG=${OLD_NG:-}
OLD_MAX=${OLD_MAX:-1000}
LIMIT=${LIMIT:-300}
PY=${PY:-/usr/bin/python3}
RESULTS_DIR=${RESULTS_DIR:-bench/results/scale-$(date -u +%Y%m%d-%H%M%S)}
[ "$(id -u)" = 0 ] || { echo "scale.sh: needs root (tmpfs)" >&2; exit 2; }
[ -x "$DBENCH_NG" ] || { echo "scale.sh: build first (make)" >&2; exit 2; }

results_init
bench_env >"$RESULTS_DIR/env.txt"
# the watching (polls of the output, reads of /proc) at nice -20, or it
# waits seconds behind 10000 busy clients and its times are late; the
# runs at the nice value this script had
nice0=$(ps -o ni= $$)
renice -n -20 $$ >/dev/null
back=$((nice0 - $(ps -o ni= $$)))
bench_tmpfs scale 4G
cat >"$work/small.load" <<'X'
Deltree "\clients\client1" NT_STATUS_OK
Mkdir "\clients" NT_STATUS_OK
Mkdir "\clients\client1" NT_STATUS_OK
NTCreateX "\clients\client1\f.dat" 0x0 0x5 1 NT_STATUS_OK
WriteX 1 0 4096 4096 NT_STATUS_OK
ReadX 1 0 4096 4096 NT_STATUS_OK
Close 1 NT_STATUS_OK
Unlink "\clients\client1\f.dat" 0x6 NT_STATUS_OK
X

floor=
case " $CASES " in *" floor "*)
	if ${CC:-cc} -std=gnu11 -O2 -Isrc/base -o "$work/fork-floor" bench/fork-floor.c; then
		floor=$work/fork-floor
	else
		say "floor: not run (cannot build bench/fork-floor.c with ${CC:-cc})"
	fi
	;;
esac

drain=
case " $CASES " in *" drain "*)
	if ${CC:-cc} -std=gnu11 -O2 -Isrc/engine -Isrc/results -Isrc/base \
		-Isrc/workload -o "$work/drain-cost" bench/drain-cost.c \
		build/libengine.a build/libresults.a build/libworkload.a \
		build/libbase.a -lm 2>/dev/null; then
		drain=$work/drain-cost
	else
		say "drain: not run (cannot build bench/drain-cost.c against build/: run make, without SAN=1)"
	fi
	;;
esac

# faultfs for ng-stall, built as tests/faultfs/lib.sh builds it; its
# mount (ffs_pid) goes on every exit path, before bench_tmpfs's
ffs=
ffs_pid=
case " $CASES " in *" ng-stall "*)
	if pkg-config --exists fuse3 && [ -c /dev/fuse ]; then
		# shellcheck disable=SC2046
		cc -std=gnu11 -O2 -D_GNU_SOURCE $(pkg-config --cflags fuse3) \
			-o "$work/faultfs" tests/faultfs/*.c $(pkg-config --libs fuse3) &&
			ffs=$work/faultfs
	fi
	[ -n "$ffs" ] || say "ng-stall: not run (needs libfuse3-dev and /dev/fuse)"
	;;
esac
# (safe under set -e, for the exit trap: a faultfs already gone must not
# end it before the tmpfs goes)
ffs_stop() {
	[ -n "$ffs_pid" ] || return 0
	fusermount3 -u -z "$mnt/ffs" 2>/dev/null || umount -l "$mnt/ffs" 2>/dev/null || true
	kill "$ffs_pid" 2>/dev/null || true
	wait "$ffs_pid" 2>/dev/null || true
	ffs_pid=
}
# on any exit: the run in flight, its killer (left behind, it would
# kill the run's process group LIMIT s later, whoever has that number
# by then), faultfs, the tmpfs
killer=
scale_cleanup() {
	stop_job
	if [ -n "$killer" ]; then
		kill "$killer" 2>/dev/null || true
	fi
	ffs_stop
	bench_tmpfs_cleanup
}
trap scale_cleanup EXIT

now() { date +%s.%N; }
# main-thread CPU of process @1 in clock ticks (utime + stime); -1: gone
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/task/$1/stat" 2>/dev/null || echo -1; }
# "MB" of process group @1 (its leader @1): the leader's Pss, the mean
# Pss of up to 32 of the others (evenly spread: reading Pss walks the
# page tables, 5 ms a process on a busy machine, too slow for 10000 of
# them) times their number, and every process's page tables (VmPTE)
tree_mem() {
	"$PY" - "$1" <<'P'
import os, sys
pg = int(sys.argv[1])
def field(p, f, key):
    try:
        for l in open("/proc/%d/%s" % (p, f)):
            if l.startswith(key):
                return int(l.split()[1])
    except OSError:
        pass
    return 0
pids = []
for p in os.listdir("/proc"):
    if p.isdigit():
        try:
            if os.getpgid(int(p)) == pg:
                pids.append(int(p))
        except OSError:
            pass
kids = sorted(p for p in pids if p != pg)
pick = kids[::max(1, len(kids) // 32)][:32]
def est(key):
    v = [field(p, "smaps_rollup", key) for p in pick]
    return field(pg, "smaps_rollup", key) + \
        (sum(v) / len(v) * len(kids) if v else 0)
kb = est("Pss:") + sum(field(p, "status", "VmPTE:") for p in pids)
print("%.1f %.1f" % (kb / 1024.0, est("Pss_Shmem:") / 1024.0))
P
}

# run LABEL N CMD...: one run; prints its row
run() {
	local label=$1 n=$2 out t0 trel=0 w c0=-1 c1=-1 s0=0 s1=0 mem=0 shm=0 texit rc=0 ml
	shift 2
	out=$RESULTS_DIR/$label-$n.out
	rm -rf "${mnt:?}/d" && mkdir -p "$mnt/d"
	: >"$out"
	t0=$(now)
	nice -n "$back" "$@" >"$out" 2>&1 </dev/null &
	job=$!
	# a run that does not end (dbench 4.0 at many clients) is killed;
	# the killer's sleep goes with it (a sleep left behind would hold
	# the script's stdout open for LIMIT s: `scale.sh | tail` waited)
	(
		trap 'kill "$s"; exit 0' TERM
		sleep "$LIMIT" &
		s=$!
		wait "$s" && kill -KILL -- "-$job"
	) >/dev/null 2>&1 &
	killer=$!
	while kill -0 "$job" 2>/dev/null; do
		grep -q '^releasing clients' "$out" && { trel=$(now); break; }
		sleep 0.05
	done
	w=$(sed -n 's/.*minimum warmup \([0-9]*\) secs.*/\1/p' "$out" | head -1)
	w=${w:-0}
	if [ "$trel" != 0 ]; then
		# the execute phase, by the progress lines: the parent's CPU
		# from its first line to the first cleanup line (before the
		# clients exit), the memory after the first line
		mem=0
		while kill -0 "$job" 2>/dev/null; do
			grep -q ' execute ' "$out" && { c0=$(cpu_ticks "$job"); s0=$(now); break; }
			sleep 0.05
		done
		[ "$s0" != 0 ] && read -r mem shm <<<"$(tree_mem "$job")"
		while kill -0 "$job" 2>/dev/null; do
			grep -q ' cleanup ' "$out" && { c1=$(cpu_ticks "$job"); s1=$(now); break; }
			sleep 0.05
		done
	fi
	wait "$job" || rc=$?
	texit=$(now)
	kill "$killer" 2>/dev/null
	wait "$killer" 2>/dev/null || true
	killer=
	job=
	if [ "$trel" = 0 ]; then
		say "$(printf '%-10s %6d  did not release (exit %d): %s' "$label" "$n" "$rc" "$(tail -1 "$out")")"
		return 0
	fi
	# the main thread's CPU over [s0, s1]; a line not seen, or the
	# process gone when it was read: not known
	{ [ "$c0" -lt 0 ] || [ "$c1" -lt 0 ]; } && c1=-1
	# the longest op of the run (the Throughput line's, as dbench's):
	# ops still in flight at the end hold their clients past it
	ml=$(sed -n 's/^Throughput .*max_latency=\([0-9.]*\) ms.*/\1/p' "$out" | tail -1)
	# the progress lines of the execute phase the parent printed (one
	# a second when its ticks come on time: SECS - 1 or SECS)
	pl=$(grep -c ' execute ' "$out" || true)
	say "$(awk -v l="$label" -v n="$n" -v m="$mem" -v sh="$shm" -v t0="$t0" -v tr="$trel" \
		-v c0="$c0" -v c1="$c1" -v s0="$s0" -v s1="$s1" -v hz="$(getconf CLK_TCK)" \
		-v te="$texit" -v w="$w" -v t="$SECS" -v rc="$rc" -v ml="${ml:--1}" -v pl="$pl" 'BEGIN {
		# an execute line first seen after the end (a starved parent):
		# its memory is that of clients on their way out, and a tick
		# over less than 2 s is below the resolution of the CPU times
		end = tr + w + t
		late = s0 >= end
		if (late)
			m = 0
		tk = c1 < 0 || late || s1 - s0 < 2 ? "    n/a" \
			: sprintf("%7.2f", (c1 - c0) * 1000 / hz / (s1 - s0))
		mx = ml < 0 ? "   n/a" : sprintf("%6.2f", ml / 1000)
		# no execute line (the floor, a starved parent): not sampled,
		# nor one seen after the end (above)
		mm = m > 0 ? sprintf("%8.1f MB %7.1f KB/client (shared %6.1f)", m, m * 1024 / n, sh * 1024 / n) \
			   : sprintf("%8s MB %7s KB/client (shared %6s)", "n/a", "n/a", "n/a")
		printf "%-10s %6d  mem %s  release %6.2f s  tick %s ms/s  lines %3d/%d  past %6.2f s  maxlat %s s%s\n",
			l, n, mm, tr - t0, tk, pl, t, te - end,
			mx, rc ? "  (exit " rc ")" : ""
	}')"
}

# run_stall N: the ng-stall row, then whether the injected stall was
# reported (the JSON's events: the middle client's, on the delayed write)
run_stall() {
	local n=$1 k=$(($1 / 2)) j
	j=$RESULTS_DIR/ng-stall-$n.json
	rm -rf "${mnt:?}/back" && mkdir -p "$mnt/back" "$mnt/ffs"
	"$ffs" "$mnt/back" "$mnt/ffs" -f --log "$RESULTS_DIR/ng-stall-$n.inj" \
		--rule "write:clients/client$k/* delay=$STALL_MS after=$STALL_AT count=1" \
		2>"$RESULTS_DIR/ng-stall-$n.ffs" &
	ffs_pid=$!
	for _ in $(seq 100); do mountpoint -q "$mnt/ffs" && break; sleep 0.1; done
	mountpoint -q "$mnt/ffs" || { say "ng-stall $n: faultfs did not mount"; ffs_stop; return 0; }
	run ng-stall "$n" "$DBENCH_NG" -c "$work/small.load" -D "$mnt/ffs" \
		--stall-threshold 500 --json "$j" -t "$SECS" "$n"
	ffs_stop
	say "$("$PY" - "$j" "$k" "$STALL_MS" "$RESULTS_DIR/ng-stall-$n.inj" <<'P'
import json, sys
j, k, ms, inj = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
injected = sum(1 for l in open(inj) if l.rstrip().endswith(" start"))
try:
    st = json.load(open(j))["stalls"]
except (OSError, ValueError) as e:
    sys.exit("           stall: no result (%s)" % e)
evs = [e for e in st["events"] if e["client"] == k and e["op"] == "WriteX"
       and e["duration_ms"] >= ms]
if not evs:
    print("           stall: MISSED (client %d's %g ms WriteX, %d injected; %d events)"
          % (k, ms, injected, len(st["events"])))
else:
    e = evs[0]
    print("           stall: caught: client %d WriteX %.1f ms%s; %d events of %d clients in all"
          % (k, e["duration_ms"],
             ", its stack read while stuck" if e.get("samples") else ", no stack",
             len(st["events"]), len({x["client"] for x in st["events"]})))
P
)"
}

# a drain-cost row: the drain of 1 and of ~100 changed chunks a client
run_drain() {
	local n=$1 a b
	a=$(nice -n "$back" "$drain" "$n" 1 | sed -n 's/.*drain median \([0-9.]*\) ms.*/\1/p')
	b=$(nice -n "$back" "$drain" "$n" 100 | tee "$RESULTS_DIR/drain-$n.out" |
		sed -n 's/.*drain median \([0-9.]*\) ms (\([0-9]*\) ns.*/\1 \2/p')
	b=${b:-? ?}
	say "$(printf '%-10s %6d  drain a tick: %s ms at 1 chunk a client, %s ms at 100 (%s ns a chunk)' \
		drain "$n" "${a:-?}" "${b% *}" "${b#* }")"
}

say "scale.sh: -t $SECS, $(nproc) CPUs, loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
for n in $NS; do
	for c in $CASES; do
		case $c in
		floor) [ -n "$floor" ] && run floor "$n" "$floor" "$n" "$SECS" ;;
		drain) [ -n "$drain" ] && run_drain "$n" ;;
		ng-null) run ng-null "$n" "$DBENCH_NG" -B null -t "$SECS" "$n" ;;
		ng-tmpfs) run ng-tmpfs "$n" "$DBENCH_NG" -c "$work/small.load" \
			-D "$mnt/d" -t "$SECS" "$n" ;;
		db-tmpfs) [ -x "$DBENCH" ] && run db-tmpfs "$n" stdbuf -o0 "$DBENCH" \
			-c "$work/small.load" -D "$mnt/d" -t "$SECS" "$n" ;;
		ng-stall) [ -n "$ffs" ] && [ "$n" -le "$STALL_MAX" ] && run_stall "$n" ;;
		esac
		[ -n "$OLD_NG" ] && [ "$n" -le "$OLD_MAX" ] || continue
		case $c in
		ng-null) run old-null "$n" "$OLD_NG" -B null -t "$SECS" "$n" ;;
		ng-tmpfs) run old-tmpfs "$n" "$OLD_NG" -c "$work/small.load" \
			-D "$mnt/d" -t "$SECS" "$n" ;;
		esac
	done
done
echo "results in $RESULTS_DIR"
