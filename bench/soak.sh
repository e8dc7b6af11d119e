#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# soak.sh: a long run of many clients.  Does dbench-ng's memory stay flat
# and its op rate steady over minutes?  Not part of 'make check'.
#
# Runs, each on a fresh private tmpfs mounted for it (so the file system
# costs little and the same state is met every time):
#   1. ng          dbench-ng, built-in workload (or SOAK_LOADFILE)
#   2. ng-client   dbench-ng -c /usr/share/dbench/client.txt    } the like-for-
#   3. dbench      dbench 4.0 -c /usr/share/dbench/client.txt   } like peer pair
# all with SOAK_CLIENTS clients, -t SOAK_SECS and the default warmup of
# both programs (SOAK_SECS/5: dbench 4.0 cannot be told otherwise), so
# each run lasts 1.2 x SOAK_SECS plus start-up and cleanup.  SOAK_PEER=0
# runs only the first.
#
# While a run goes on, a sampler reads every SOAK_SAMPLE seconds
# /proc/PID/smaps_rollup of the program's parent process and of all its
# client processes (Rss, Pss, Pss_Anon), the parent's shared mappings (the
# shared-memory segment: an anonymous MAP_SHARED mapping in dbench-ng,
# src/shm.c; a SysV segment in dbench 4.0), the Rss sum that 'ps -o rss'
# gives (a cross-check), and the tmpfs usage (file data: not process
# memory), and polls the tmpfs usage every second for its peak.
#
# It prints, per run:
#   - the op rate per SOAK_BUCKET (60) seconds of the run (warmup
#     included), in loadfile lines/s over all clients (client.txt has one
#     op a line; the built-in workload too, but for one Sleep and a
#     comment), from the per-second progress lines and their cumulative
#     lines-per-client column; and the memory at the end of each bucket;
#   - the drift of the rate: the least-squares slope over the buckets,
#     as % of their mean per 10 min, and the slowest and fastest bucket
#     against the median.  The first bucket (start-up: every client
#     copies its working set) and a last, partial bucket are left out;
#   - memory at the start (first sample >= SOAK_MEM_START = 30 s, when the
#     client trees are built) and at the end (last sample of the execute
#     phase with all clients alive), and the growth in KiB and %.
# and a side-by-side table of all runs with the ratio dbench-ng /
# dbench 4.0 on client.txt for the rates.
#
# Run:   sudo bench/soak.sh        (root: it mounts a tmpfs)
# Environment (defaults in brackets):
#   SOAK_SECS [600]  SOAK_CLIENTS [64]  SOAK_PEER [1]
#   SOAK_LOADFILE []         -c for run 1 (empty: the built-in workload)
#   SOAK_SAMPLE [10]         seconds between memory samples
#   SOAK_BUCKET [60]         seconds per row of the rate table
#   SOAK_MEM_START [30]      "start" memory sample: first one at or after
#   SOAK_TMPFS_SIZE [CLIENTS x 48 MiB + 512 MiB]   (peak seen: ~24 MiB a
#                            client, built-in and client.txt alike)
#   RESULTS_DIR [bench/results/soak-<date>-<time>]
#   DBENCH [/usr/bin/dbench]  LOADFILE [/usr/share/dbench/client.txt]
#   DBENCH_NG [./dbench-ng]
# Default run: 3 x (720 s + start-up and cleanup), about 37 minutes;
# SOAK_PEER=0: about 12.5 minutes.
#
# The tmpfs (device name "dbng-soak") is mounted on a mktemp -d directory
# /tmp/dbng-soak.XXXXXX; the benchmark and the sampler each run in a
# process group of their own, and every exit path (end, error, Ctrl-C,
# SIGTERM) stops both process groups, unmounts and removes the directory.

set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$here/lib.sh"

SOAK_SECS=${SOAK_SECS:-600}
SOAK_CLIENTS=${SOAK_CLIENTS:-64}
SOAK_PEER=${SOAK_PEER:-1}
SOAK_LOADFILE=${SOAK_LOADFILE:-}
SOAK_SAMPLE=${SOAK_SAMPLE:-10}
SOAK_BUCKET=${SOAK_BUCKET:-60}
SOAK_MEM_START=${SOAK_MEM_START:-30}
SOAK_TMPFS_SIZE=${SOAK_TMPFS_SIZE:-$((SOAK_CLIENTS * 48 + 512))M}
DBENCH=${DBENCH:-/usr/bin/dbench}
LOADFILE=${LOADFILE:-/usr/share/dbench/client.txt}
DBENCH_NG=${DBENCH_NG:-$top/dbench-ng}
RESULTS_DIR=${RESULTS_DIR:-$here/results/soak-$(date +%Y%m%d-%H%M%S)}

# ---------------------------------------------------------------- checks

die() { echo "soak.sh: $*" >&2; exit 2; }
for v in SOAK_SECS SOAK_CLIENTS SOAK_SAMPLE SOAK_BUCKET SOAK_MEM_START; do
	case "${!v}" in
	'' | *[!0-9]*) die "$v must be a number" ;;
	esac
done
[ "$SOAK_SECS" -ge 10 ] || die "SOAK_SECS must be at least 10"
[ "$SOAK_CLIENTS" -ge 1 ] || die "SOAK_CLIENTS must be at least 1"
if [ "$SOAK_SAMPLE" -lt 1 ] || [ "$SOAK_BUCKET" -lt 2 ]; then
	die "SOAK_SAMPLE must be >= 1 and SOAK_BUCKET >= 2"
fi
[ "$(id -u)" = 0 ] || die "needs root (it mounts a private tmpfs)"
[ -x "$DBENCH_NG" ] || die "$DBENCH_NG not found; build it with 'make'"
[ -z "$SOAK_LOADFILE" ] || [ -r "$SOAK_LOADFILE" ] ||
	die "SOAK_LOADFILE $SOAK_LOADFILE is not readable"
if [ "$SOAK_PEER" != 0 ] && { [ ! -x "$DBENCH" ] || [ ! -r "$LOADFILE" ]; }; then
	cat >&2 <<EOF
soak.sh: the peer run needs dbench 4.0 ($DBENCH) and its loadfile
($LOADFILE).  On Debian or Ubuntu: sudo apt-get install dbench
(or SOAK_PEER=0 to run dbench-ng alone).
EOF
	exit 2
fi

# --------------------------------------------------- scratch, cleanup

set -m
job=
sampler=
mnt=

cleanup() {
	set +e
	set +m		# no "Terminated" job notices for what is stopped here
	stop_job
	stop_pgrp "$sampler"
	sampler=
	if [ -n "$mnt" ]; then
		mountpoint -q "$mnt" && umount_retry "$mnt"
		rmdir "$mnt"
		mnt=
	fi
}
trap cleanup EXIT
trap 'echo "soak.sh: interrupted, cleaning up" >&2; exit 130' INT
trap 'echo "soak.sh: terminated, cleaning up" >&2; exit 143' TERM

results_init
mnt=$(mktemp -d /tmp/dbng-soak.XXXXXX)

# ------------------------------------------------------------ sampling

# sample PGID T USED: one CSV row for the benchmark in process group PGID, T
# seconds after its start: t, clients alive, parent pid, parent Rss Pss
# Pss_Anon, clients' sums of Rss Pss Pss_Anon, the parent's shared
# mappings' Size and Rss, the Rss sum of smaps_rollup and of 'ps -o rss'
# over the same processes, and USED, the tmpfs usage (all KiB).  The parent is
# the dbench or dbench-ng process whose parent is not one; the others in
# the group are its clients.
sample() {
	ps -e -o pgid=,pid=,ppid=,rss=,comm= 2>/dev/null |
	awk -v pg="$1" -v t="$2" -v used="$3" '
	function rollup(p,   f, line, a) {
		R = P = A = 0
		f = "/proc/" p "/smaps_rollup"
		while ((getline line < f) > 0) {
			split(line, a, " ")
			if (a[1] == "Rss:") R = a[2]
			else if (a[1] == "Pss:") P = a[2]
			else if (a[1] == "Pss_Anon:") A = a[2]
		}
		close(f)
	}
	$1 == pg && ($5 == "dbench" || $5 == "dbench-ng") {
		n++; pid[n] = $2; pp[n] = $3; rss[n] = $4; mine[$2] = 1
	}
	END {
		for (i = 1; i <= n; i++) {
			rollup(pid[i])
			psr += rss[i]; smr += R
			if (pp[i] in mine) { nc++; cr += R; cp += P; ca += A }
			else { par = pid[i]; pr = R; ppss = P; pa = A }
		}
		if (par) {
			f = "/proc/" par "/smaps"
			while ((getline line < f) > 0) {
				if (line ~ /^[0-9a-f]+-[0-9a-f]+ /) {
					split(line, a, " ")
					sh = substr(a[2], 4, 1) == "s"
				} else if (sh && line ~ /^Size:/) {
					split(line, a, " "); ssz += a[2]
				} else if (sh && line ~ /^Rss:/) {
					split(line, a, " "); srss += a[2]
				}
			}
			close(f)
		}
		printf "%.1f,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d\n", t,
		       nc, par, pr, ppss, pa, cr, cp, ca, ssz, srss, smr, psr,
		       used
	}'
}

# sampler PGID T0_US CSV PEAKFILE: until process group PGID is gone,
# polls the tmpfs usage every second (its peak goes to PEAKFILE at the
# end) and appends a sample() row to CSV every SOAK_SAMPLE seconds.
# T0_US: the start of the run, in microseconds since the epoch.  It runs
# at nice -10 so that 64 busy clients do not starve it (samples would be
# late), and it costs little: a df a second and one ps and a read of
# every process's smaps_rollup per sample.
sampler() {
	local pg=$1 t0=$2 csv=$3 peakf=$4 peak=0 used now el next
	renice -n -10 -p "$BASHPID" >/dev/null 2>&1 || true
	next=$((SOAK_SAMPLE * 1000000))
	while kill -0 -- "-$pg" 2>/dev/null; do
		now=${EPOCHREALTIME/./}
		el=$((now - t0))
		used=$(df -k --output=used "$mnt" 2>/dev/null | tail -1)
		used=${used// /}
		[ "${used:-0}" -gt "$peak" ] && peak=$used
		if [ "$el" -ge "$next" ]; then
			sample "$pg" "$(printf '%d.%06d' $((el / 1000000)) $((el % 1000000)))" \
				"${used:-0}" >>"$csv"
			# the next multiple of SOAK_SAMPLE (none is made up for)
			next=$(((el / (SOAK_SAMPLE * 1000000) + 1) * SOAK_SAMPLE * 1000000))
		fi
		now=${EPOCHREALTIME/./}
		el=$((now - t0))
		# sleep to the next whole second of the run
		sleep "0.$(printf '%06d' $((1000000 - el % 1000000)))"
	done
	echo "$peak" >"$peakf"
}

# ------------------------------------------------------------ analysis

# rates OUT CLIENTS: the rate table of a run from its progress lines, as
# CSV rows "bucket,t_from,t_to,lines_per_s,phase,partial" and one last
# row "W,<warmup s>,<execute end s>".  A progress line's time in the run
# is its seconds column, plus the warmup length W in the execute phase
# (W = last warmup second + 1: both programs print no line for the
# second the warmup ends in).  The rate of a bucket is the lines column
# (cumulative per client since the start) at its last line minus that
# at the previous bucket's last line (0 at t = 0), times CLIENTS, over
# the time between the two lines.  A bucket shorter than BUCKET - 1.5 s
# is partial (the last one, normally).
rates() {
	awk -v n="$2" -v B="$SOAK_BUCKET" '
	$4 == "MB/sec" && ($5 == "warmup" || $5 == "execute") {
		if ($5 == "warmup") { t = $6; lw = $6 }
		else {
			if (!exec_seen) { W = lw ? lw + 1 : 0; exec_seen = 1 }
			t = W + $6; le = $6
		}
		if (np && t <= pt[np]) np--       # same second twice: keep the last
		np++; pt[np] = t; pl[np] = $2; ph[np] = $5
	}
	END {
		pk = 0; t0 = 0; l0 = 0; phases = ""
		for (i = 1; i <= np; i++) {
			k = int((pt[i] - 1) / B) + 1
			if (i < np && int((pt[i + 1] - 1) / B) + 1 == k) {
				if (index(phases, ph[i]) == 0) phases = phases (phases ? "+" : "") ph[i]
				continue
			}
			if (index(phases, ph[i]) == 0) phases = phases (phases ? "+" : "") ph[i]
			partial = (pt[i] - (k - 1) * B < B - 1.5)
			printf "%d,%d,%d,%.0f,%s,%d\n", k, t0, pt[i],
			       (pl[i] - l0) * n / (pt[i] - t0), phases, partial
			t0 = pt[i]; l0 = pl[i]; phases = ""
		}
		printf "W,%d,%d\n", W, W + le
	}' "$1"
}

# drift RATES_CSV: "n median min max slope_pct_per_10min min_pct max_pct"
# over the buckets after the first that are not partial (n/a below 3).
drift() {
	awk -F, '$1 != "W" && $1 > 1 && !$6 {
		n++; v[n] = $4; x[n] = ($2 + $3) / 2
	}
	END {
		if (n < 3) { print n + 0, "n/a n/a n/a n/a n/a n/a"; exit }
		for (i = 1; i <= n; i++) { s[i] = v[i]; sx += x[i]; sy += v[i] }
		for (i = 2; i <= n; i++)             # insertion sort, n is small
			for (j = i; j > 1 && s[j - 1] > s[j]; j--) {
				tmp = s[j]; s[j] = s[j - 1]; s[j - 1] = tmp
			}
		med = n % 2 ? s[(n + 1) / 2] : (s[n / 2] + s[n / 2 + 1]) / 2
		mx = sx / n; my = sy / n
		for (i = 1; i <= n; i++) {
			sxy += (x[i] - mx) * (v[i] - my); sxx += (x[i] - mx) ^ 2
		}
		slope = sxx > 0 ? sxy / sxx : 0             # lines/s per second
		printf "%d %.0f %.0f %.0f %+.1f %+.1f %+.1f\n", n, med, s[1], s[n],
		       slope * 600 / my * 100, (s[1] / med - 1) * 100,
		       (s[n] / med - 1) * 100
	}' "$1"
}

# mem_pick MEM_CSV CLIENTS EXEC_END: the start and end samples: the first
# with t >= SOAK_MEM_START and all clients alive, the last with t <=
# EXEC_END and all clients alive; two lines (empty if none).
mem_pick() {
	awk -F, -v n="$2" -v e="$3" -v s="$SOAK_MEM_START" '
	$2 == n && $1 >= s && !a { a = $0 }
	$2 == n && $1 <= e - 2 { b = $0 }
	END { print a; print b }' "$1"
}

# growth START END: "KiB %" from START to END
growth() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		printf "%+d %s", b - a, (a > 0 ? sprintf("%+.1f%%", (b - a) / a * 100) : "n/a")
	}'
}

# ------------------------------------------------------------ the runs

{
	bench_env
	echo "settings: SOAK_SECS=$SOAK_SECS SOAK_CLIENTS=$SOAK_CLIENTS SOAK_PEER=$SOAK_PEER SOAK_LOADFILE=$SOAK_LOADFILE SOAK_SAMPLE=$SOAK_SAMPLE SOAK_BUCKET=$SOAK_BUCKET SOAK_MEM_START=$SOAK_MEM_START SOAK_TMPFS_SIZE=$SOAK_TMPFS_SIZE"
} >"$RESULTS_DIR/env.txt"

others() { pgrep -c '^dbench(-ng)?$' || true; }
warm=$((SOAK_SECS / 5))
say "soak: $SOAK_CLIENTS clients, -t $SOAK_SECS (+ warmup $warm s), memory sampled every $SOAK_SAMPLE s, rates per $SOAK_BUCKET s"
say "scratch: a fresh private tmpfs (size=$SOAK_TMPFS_SIZE) on $mnt for each run"
say "load average at start: $(cut -d' ' -f1-3 /proc/loadavg), other dbench/dbench-ng processes: $(others) (other activity adds noise)"
say "results: $RESULTS_DIR"

labels=(ng)
if [ -n "$SOAK_LOADFILE" ]; then
	descs=("dbench-ng -c $SOAK_LOADFILE")
else
	descs=("dbench-ng, built-in workload")
fi
if [ "$SOAK_PEER" != 0 ]; then
	if [ "$SOAK_LOADFILE" != "$LOADFILE" ]; then
		labels+=(ng-client)
		descs+=("dbench-ng -c $LOADFILE")
	fi
	labels+=(dbench)
	descs+=("dbench 4.0 -c $LOADFILE")
fi
say "runs: $(for i in "${!labels[@]}"; do printf '%s%s = %s' "$([ "$i" = 0 ] || echo '; ')" "${labels[$i]}" "${descs[$i]}"; done)"
say "each run takes about $((SOAK_SECS + warm)) s plus start-up and cleanup"

# per-run results for the final table, by label
declare -A R_EXEC R_MED R_DRIFT R_MIN R_MAX R_NB R_PPSS R_CPSS R_CANON R_SHM R_TMPFS R_PEAK R_START R_END

one_run() {
	local label=$1 desc=$2 out tf mem peakf rc=0 t0 p fs fl ls ll E
	local st en t_s t_e
	out=$RESULTS_DIR/$label.out
	tf=$RESULTS_DIR/$label.time
	mem=$RESULTS_DIR/$label-mem.csv
	peakf=$RESULTS_DIR/$label-tmpfs-peak
	case $label in
	ng)	set -- "$DBENCH_NG" -c "${SOAK_LOADFILE:-builtin:netbench}" \
			--json "$RESULTS_DIR/$label.json" ;;
	ng-client) set -- "$DBENCH_NG" -c "$LOADFILE" \
			--json "$RESULTS_DIR/$label.json" ;;
	dbench)	set -- "$DBENCH" -c "$LOADFILE" ;;
	esac
	set -- "$@" -t "$SOAK_SECS" -D "$mnt" "$SOAK_CLIENTS"
	echo "$*" >"$out.cmd"
	echo "t,clients,parent_pid,parent_rss,parent_pss,parent_pss_anon,clients_rss,clients_pss,clients_pss_anon,shm_size,shm_rss,rss_sum_smaps,rss_sum_ps,tmpfs_used" >"$mem"

	mount -t tmpfs -o "size=$SOAK_TMPFS_SIZE,mode=0755" dbng-soak "$mnt"
	say ""
	say "-- $label: $desc, $(date '+%H:%M:%S'), until about $(date -d "+$((SOAK_SECS + warm + 5)) sec" '+%H:%M:%S')"
	t0=${EPOCHREALTIME/./}
	start_timed "$out" "$tf" "$@"
	( sampler "$job" "$t0" "$mem" "$peakf" ) &
	sampler=$!
	wait "$job" || rc=$?
	job=
	wait "$sampler" 2>/dev/null || true
	sampler=
	umount_retry "$mnt"
	if [ "$rc" != 0 ]; then
		echo "soak.sh: '$*' failed (exit $rc), output in $out:" >&2
		tail -20 "$out" >&2
		exit 1
	fi

	# rates
	rates "$out" "$SOAK_CLIENTS" >"$RESULTS_DIR/$label-rate.csv"
	IFS=, read -r _ _ E < <(grep '^W,' "$RESULTS_DIR/$label-rate.csv")
	if ! p=$(parse "$out"); then
		echo "soak.sh: fewer than two execute lines in $out" >&2
		exit 1
	fi
	read -r fs fl ls ll _ _ _ <<<"$p"
	R_EXEC[$label]=$(awk -v a="$fs" -v b="$fl" -v c="$ls" -v d="$ll" \
		-v n="$SOAK_CLIENTS" 'BEGIN { printf "%.0f", (d - b) * n / (c - a) }')
	read -r "R_NB[$label]" "R_MED[$label]" _ _ "R_DRIFT[$label]" "R_MIN[$label]" "R_MAX[$label]" \
		< <(drift "$RESULTS_DIR/$label-rate.csv")

	# memory
	{ read -r st; read -r en; } < <(mem_pick "$mem" "$SOAK_CLIENTS" "$E")
	R_PEAK[$label]=$(cat "$peakf" 2>/dev/null || echo 0)
	say ""
	say "$(printf '   %6s %5s %-15s %10s %10s %11s %10s %10s' \
		"bucket" "end s" "phase" "lines/s" "parent" "clients" "clients" "tmpfs")"
	say "$(printf '   %6s %5s %-15s %10s %10s %11s %10s %10s' \
		"" "" "" "" "Pss KiB" "Pss KiB" "anon KiB" "used KiB")"
	while IFS=, read -r k a b r ph part; do
		[ "$k" = W ] && continue
		# the last sample in the bucket
		m=$(awk -F, -v a="$a" -v b="$b" 'NR > 1 && $1 > a && $1 <= b + 0.999 { l = $0 } END { print l }' "$mem")
		IFS=, read -r _ _ _ _ mpp _ _ mcp mca _ _ _ _ mtu <<<"${m:-,,,,,,,,,,,,,}"
		note=
		[ "$k" = 1 ] && note="  (start-up, not in the drift)"
		[ "$part" = 1 ] && note="  (partial: $((b - a)) s, not in the drift)"
		say "$(printf '   %6s %5s %-15s %10s %10s %11s %10s %10s%s' \
			"$k" "$b" "$ph" "$r" "${mpp:--}" "${mcp:--}" "${mca:--}" "${mtu:--}" "$note")"
	done <"$RESULTS_DIR/$label-rate.csv"
	say ""
	say "   rate: execute phase $(printf '%.0f' "${R_EXEC[$label]}") lines/s (first to last execute line); over ${R_NB[$label]} buckets: median ${R_MED[$label]}, drift ${R_DRIFT[$label]} % per 10 min, slowest ${R_MIN[$label]} %, fastest ${R_MAX[$label]} % vs the median"
	if [ -f "$RESULTS_DIR/$label.json" ]; then
		say "   check: execute phase from the JSON time series: $(jq -r '[.time_series.points[] | select(.warmup | not)] | "\((map(.lines) | add) / (map(.dur) | add) | floor) lines/s"' "$RESULTS_DIR/$label.json" 2>/dev/null || echo n/a)"
	fi
	if [ -z "$st" ] || [ -z "$en" ]; then
		say "   memory: no sample with all $SOAK_CLIENTS clients alive between ${SOAK_MEM_START} s and the end of the execute phase ($E s)"
		R_START[$label]=- R_END[$label]=-
		return
	fi
	local -a S N
	IFS=, read -r -a S <<<"$st"
	IFS=, read -r -a N <<<"$en"
	t_s=${S[0]%.*} t_e=${N[0]%.*}
	R_START[$label]=$t_s R_END[$label]=$t_e
	say ""
	say "$(printf '   %-34s %12s %12s %10s %8s' "memory, KiB" "start ${t_s}s" "end ${t_e}s" "growth" "%")"
	memrow() {
		local g
		g=$(growth "$2" "$3")
		say "$(printf '   %-34s %12d %12d %10s %8s' "$1" "$2" "$3" "${g% *}" "${g#* }")"
	}
	memrow "parent Pss" "${S[4]}" "${N[4]}"
	memrow "parent Pss_Anon" "${S[5]}" "${N[5]}"
	memrow "parent Rss" "${S[3]}" "${N[3]}"
	memrow "clients Pss (sum of ${S[1]})" "${S[7]}" "${N[7]}"
	memrow "clients Pss_Anon (sum)" "${S[8]}" "${N[8]}"
	memrow "clients Rss (sum)" "${S[6]}" "${N[6]}"
	memrow "  per client, Pss" "$((S[7] / S[1]))" "$((N[7] / N[1]))"
	memrow "shared segment Rss (size ${N[9]})" "${S[10]}" "${N[10]}"
	memrow "tmpfs used (file data)" "${S[13]}" "${N[13]}"
	say "$(printf '   %-34s %12s %12d' "tmpfs peak (1 s polls)" "" "${R_PEAK[$label]}")"
	say "   check: Rss sum at the end, smaps_rollup ${N[11]} KiB vs ps -o rss ${N[12]} KiB ($(growth "${N[12]}" "${N[11]}" | cut -d' ' -f2))"
	R_PPSS[$label]=$(growth "${S[4]}" "${N[4]}")
	R_CPSS[$label]=$(growth "${S[7]}" "${N[7]}")
	R_CANON[$label]=$(growth "${S[8]}" "${N[8]}")
	R_SHM[$label]=$(growth "${S[10]}" "${N[10]}")
	R_TMPFS[$label]=${N[13]}
}

for i in "${!labels[@]}"; do
	one_run "${labels[$i]}" "${descs[$i]}"
done
rmdir "$mnt"
mnt=

# ------------------------------------------------------------ summary

say ""
say "== summary: $SOAK_CLIENTS clients, -t $SOAK_SECS + warmup $warm s, rates in lines/s over all clients"
hdr=$(printf '   %-30s' "")
for l in "${labels[@]}"; do hdr+=$(printf ' %20s' "$l"); done
peer=0
[ -n "${R_EXEC[dbench]:-}" ] && [ -n "${R_EXEC[ng-client]:-}" ] && peer=1
[ "$peer" = 1 ] && hdr+=$(printf ' %18s' "ng-client/dbench")
say "$hdr"
row() {  # NAME ARRAYNAME [ratio]
	local -n a=$2
	local line l
	line=$(printf '   %-30s' "$1")
	for l in "${labels[@]}"; do line+=$(printf ' %20s' "${a[$l]:--}"); done
	if [ "$peer" = 1 ] && [ "${3:-}" = ratio ]; then
		case "${a[ng-client]:-x}${a[dbench]:-x}" in
		*[!0-9.]*) line+=$(printf ' %18s' -) ;;
		*) line+=$(printf ' %18s' "$(ratio "${a[ng-client]}" "${a[dbench]}")") ;;
		esac
	fi
	say "$line"
}
row "execute lines/s" R_EXEC ratio
row "median bucket lines/s" R_MED ratio
row "drift, % per 10 min" R_DRIFT
row "slowest bucket vs median, %" R_MIN
row "fastest bucket vs median, %" R_MAX
row "buckets in the drift" R_NB
row "memory start / end sample, s" R_START
row "                          " R_END
row "parent Pss growth, KiB %" R_PPSS
row "clients Pss growth, KiB %" R_CPSS
row "clients Pss_Anon growth" R_CANON
row "shared segment Rss growth" R_SHM
row "tmpfs used at end, KiB" R_TMPFS
row "tmpfs peak, KiB" R_PEAK

echo "loadavg at end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$RESULTS_DIR/env.txt"
say ""
say "load average at end: $(cut -d' ' -f1-3 /proc/loadavg), other dbench/dbench-ng processes: $(others)"
say "summary: $summary"
