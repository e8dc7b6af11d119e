#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# tbench.sh: dbench-ng's tbench client and server against Debian's tbench
# 4.0 and tbench_srv, over loopback, in a network namespace of its own
# (tbench_srv binds 0.0.0.0:7003, fixed; nothing here is seen outside).
#
# Four pairings, each round in this order, ROUNDS times per client count:
#   A  tbench 4.0            -> tbench_srv
#   B  dbench-ng tbench      -> tbench_srv
#   C  dbench-ng tbench      -> dbench-ng tbench_srv
#   D  tbench 4.0            -> dbench-ng tbench_srv
# each a fresh server in a network namespace of its own
# (tests/tbench-pair.sh), the same loadfile (client.txt), -t SECS.  With
# PAIRED=1 the four of a round run at the same time, each in its own
# namespace: on a busy machine each then meets the same load, so the
# ratios are fairer, but the pairings compete for the CPUs (4 x the
# clients), which is another experiment than one pairing alone.
#
# What it reports, per client count (medians of the rounds, and every
# round so the noise shows):
#   - lines/s: loadfile lines (= exchanges, client.txt has one op a line)
#     per second over all clients in the execute phase, from the progress
#     lines as vs-dbench.sh takes them (lib.sh parse): tbench 4.0 warms up
#     for SECS/5, dbench-ng for --warmup 2, so whole-run averages would
#     not compare;
#   - client ratio B/A: dbench-ng's client against tbench 4.0's, both on
#     tbench_srv (goal >= 1.3: tbench spends most of its user time
#     re-parsing the loadfile, as dbench does); C/D is the same on
#     dbench-ng's server;
#   - server ratio D/A: dbench-ng's server against tbench_srv, both with
#     tbench 4.0's client (goal >= 1.0: no slower); C/B the same with
#     dbench-ng's client;
#   - client CPU (user, sys) s per million lines: the whole process tree
#     of the client (bash's time keyword: both programs reap their
#     children), warmup included (and dbench-ng's parse of client.txt);
#     their sum is the CPU per exchange in us, and its ratio dbench-ng /
#     tbench 4.0 (B/A on tbench_srv, goal <= 0.9; C/D on dbench-ng's);
#   - the dbench-ng server's own CPU per million exchanges, from its
#     summary (tbench_srv's per-connection processes are reaped by the
#     kernel, so their CPU cannot be had the same way).
#
# With more clients than cores (4 on 2) everything is CPU-bound and the
# ratios are ones of CPU per exchange and of the scheduler's shares: a
# server of 2 threads competes with tbench_srv's 4 processes.  On a busy
# machine the rounds spread widely: read the rounds before a ratio.
#
# Run:   bench/tbench.sh             (root: network namespaces)
# Environment (defaults in brackets):
#   CLIENTS ["1 4"]  SECS [15]  ROUNDS [3]  PAIRED [0]
#   THREADS [the server's default]   --threads of dbench-ng's server
#   TBENCH [/usr/bin/tbench]  TBENCH_SRV [/usr/bin/tbench_srv]
#   LOADFILE [/usr/share/dbench/client.txt]  DBENCH_NG [./dbench-ng]
#   RESULTS_DIR [bench/results/<date>-<time>-tbench]
# A default run takes about 2 x ROUNDS x 4 x (SECS + 5) s: 8 minutes.

set -eu
. "$(dirname "$0")/lib.sh"

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)

CLIENTS=${CLIENTS:-1 4}
SECS=${SECS:-15}
ROUNDS=${ROUNDS:-3}
PAIRED=${PAIRED:-0}
THREADS=${THREADS:-}
TBENCH=${TBENCH:-/usr/bin/tbench}
TBENCH_SRV=${TBENCH_SRV:-/usr/bin/tbench_srv}
LOADFILE=${LOADFILE:-/usr/share/dbench/client.txt}
DBENCH_NG=${DBENCH_NG:-$top/dbench-ng}
RESULTS_DIR=${RESULTS_DIR:-$here/results/$(date +%Y%m%d-%H%M%S)-tbench}
PAIR=$top/tests/tbench-pair.sh
NG_WARMUP=2
DBENCH=$TBENCH # for bench_env

if [ ! -x "$TBENCH" ] || [ ! -x "$TBENCH_SRV" ] || [ ! -r "$LOADFILE" ]; then
	echo "tbench.sh: needs tbench 4.0 and tbench_srv ($TBENCH, $TBENCH_SRV)" \
		"and their loadfile ($LOADFILE): sudo apt-get install dbench" >&2
	exit 2
fi
if [ ! -x "$DBENCH_NG" ]; then
	echo "tbench.sh: $DBENCH_NG not found; build it with 'make'" >&2
	exit 2
fi
case "$SECS" in
'' | *[!0-9]*) echo "tbench.sh: SECS must be a number" >&2; exit 2 ;;
esac
if [ "$SECS" -lt 5 ]; then
	echo "tbench.sh: SECS must be at least 5 (two execute lines)" >&2
	exit 2
fi
if ! unshare -n true 2>/dev/null || ! command -v ss >/dev/null; then
	echo "tbench.sh: cannot make a network namespace (unshare -n, ss): run it as root" >&2
	exit 2
fi

# --------------------------------------------------- processes, cleanup

# every pairing is a job in its own process group (set -m): its
# tbench-pair.sh, server and client; the traps stop them all
set -m
job=
jobs_running=()
cleanup() {
	set +e
	local j
	for j in "${jobs_running[@]}"; do
		stop_pgrp "$j"
	done
	jobs_running=()
}
trap cleanup EXIT
trap 'echo "tbench.sh: interrupted, cleaning up" >&2; exit 130' INT
trap 'echo "tbench.sh: terminated, cleaning up" >&2; exit 143' TERM

results_init
DBENCH_NG_COPY=$DBENCH_NG
csv=$RESULTS_DIR/runs.csv
echo "pair,client,server,clients,round,exec_s,exec_lines,lines_per_s,mb_s,total_lines,real_s,user_s,sys_s,user_s_per_mline,sys_s_per_mline,srv_exchanges,srv_cpu_s" >"$csv"
bench_env >"$RESULTS_DIR/env.txt"

say "tbench 4.0 vs dbench-ng tbench, loadfile $LOADFILE, loopback, each pairing in a network namespace of its own"
if [ "$PAIRED" = 1 ]; then
	say "$ROUNDS rounds of A B C D at the same time (PAIRED=1), -t $SECS (tbench 4.0 warms up $((SECS / 5)) s, dbench-ng --warmup $NG_WARMUP)"
else
	say "$ROUNDS rounds of A B C D one after the other, -t $SECS (tbench 4.0 warms up $((SECS / 5)) s, dbench-ng --warmup $NG_WARMUP)"
fi
say "  A tbench 4.0 -> tbench_srv   B dbench-ng -> tbench_srv   C dbench-ng -> dbench-ng   D tbench 4.0 -> dbench-ng"
say "server threads: ${THREADS:-the default (4 x $(nproc) CPUs)}"
say "load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (other activity adds noise)"
say "results: $RESULTS_DIR"

# start_pair PAIR N ROUND: the pairing as a job; its pid appended to
# jobs_running
start_pair() {
	local pair=$1 n=$2 r=$3 out srv cl
	out=$RESULTS_DIR/$pair-c$n-r$r.out
	case $pair in
	A | B) srv=("$TBENCH_SRV") ;;
	*) srv=("$DBENCH_NG_COPY" tbench_srv ${THREADS:+--threads "$THREADS"}) ;;
	esac
	case $pair in
	A | D) cl=("$TBENCH" -c "$LOADFILE" -t "$SECS" "$n" 127.0.0.1) ;;
	*) cl=("$DBENCH_NG_COPY" tbench -c "$LOADFILE" -t "$SECS" \
		--warmup "$NG_WARMUP" "$n" 127.0.0.1) ;;
	esac
	echo "${srv[*]} -- ${cl[*]}" >"$out.cmd"
	# the client's own CPU: bash's time keyword around it alone
	"$PAIR" "$out" "${srv[@]}" -- bash -c \
		'TIMEFORMAT="TIME %3R %3U %3S"; time "$@"' bash "${cl[@]}" \
		</dev/null >/dev/null 2>&1 &
	jobs_running+=($!)
}

# finish_pair PAIR N ROUND: check and parse it; sets LPS, UPM, SPM, SPX
# (the dbench-ng server's CPU s per M exchanges, or "-")
finish_pair() {
	local pair=$1 n=$2 r=$3 out p fs fl ls ll ts mbs any real us ss res
	local sx=0 scpu=0
	out=$RESULTS_DIR/$pair-c$n-r$r.out
	if [ "$(cat "$out.rc" 2>/dev/null)" != 0 ]; then
		echo "tbench.sh: pairing $pair failed, output in $out:" >&2
		tail -20 "$out" "$out.srv.err" >&2
		exit 1
	fi
	if ! p=$(parse "$out"); then
		echo "tbench.sh: fewer than two execute lines in $out" >&2
		exit 1
	fi
	read -r fs fl ls ll ts mbs any <<<"$p"
	read -r real us ss <<<"$(sed -n 's/^TIME //p' "$out")"
	case $pair in
	C | D)
		sx=$(sed -n 's/.* at once), \([0-9]*\) exchanges,.*/\1/p' "$out.srv.out")
		scpu=$(sed -n 's/^tbench_srv: CPU time \([0-9.]*\) s (.*/\1/p' "$out.srv.out")
		;;
	esac
	res=$(awk -v fs="$fs" -v fl="$fl" -v ls="$ls" -v ll="$ll" -v mbs="$mbs" \
		-v any="$any" -v n="$n" -v real="$real" -v us="$us" -v ss="$ss" \
		-v sx="${sx:-0}" -v scpu="${scpu:-0}" \
		-v pre="$pair,$n,$r" -v csv="$csv" 'BEGIN {
		lps = (ll - fl) * n / (ls - fs)
		tot = any * n
		upm = us / (tot / 1e6); spm = ss / (tot / 1e6)
		spx = sx > 0 ? sprintf("%.4f", scpu / (sx / 1e6)) : "-"
		split(pre, q, ",")
		cl = q[1] == "A" || q[1] == "D" ? "tbench" : "ng"
		sv = q[1] == "A" || q[1] == "B" ? "tbench_srv" : "ng"
		printf "%s,%s,%s,%d,%d,%d,%d,%.0f,%s,%d,%s,%s,%s,%.4f,%.4f,%s,%s\n",
		       q[1], cl, sv, n, q[3], ls - fs, (ll - fl) * n, lps, mbs,
		       tot, real, us, ss, upm, spm, sx, scpu >> csv
		printf "%.0f,%.4f,%.4f,%s\n", lps, upm, spm, spx
	}')
	IFS=, read -r LPS UPM SPM SPX <<<"$res"
	printf '  %s %d client(s) round %d: %8.0f lines/s  client user %.3f sys %.3f s/Mline  server %s s/Mexch\n' \
		"$pair" "$n" "$r" "$LPS" "$UPM" "$SPM" "$SPX" >&2
}

goal() { awk -v r="$1" -v g="$2" 'BEGIN { printf "goal >= %s: %s", g, (r >= g ? "MET" : "NOT MET") }'; }

for n in $CLIENTS; do
	say ""
	say "-- $n client(s): running ($ROUNDS rounds)"
	declare -A lps=() upm=() spm=() spx=()
	for r in $(seq "$ROUNDS"); do
		if [ "$PAIRED" = 1 ]; then
			for pair in A B C D; do
				start_pair "$pair" "$n" "$r"
			done
			for j in "${jobs_running[@]}"; do
				wait "$j" || true
			done
			jobs_running=()
		fi
		for pair in A B C D; do
			if [ "$PAIRED" != 1 ]; then
				start_pair "$pair" "$n" "$r"
				wait "${jobs_running[0]}" || true
				jobs_running=()
			fi
			finish_pair "$pair" "$n" "$r"
			lps[$pair]="${lps[$pair]:-} $LPS"
			upm[$pair]="${upm[$pair]:-} $UPM"
			spm[$pair]="${spm[$pair]:-} $SPM"
			spx[$pair]="${spx[$pair]:-} $SPX"
		done
	done
	declare -A m=() mu=() ms=() cpx=()
	for pair in A B C D; do
		# shellcheck disable=SC2086
		m[$pair]=$(median ${lps[$pair]})
		# shellcheck disable=SC2086
		mu[$pair]=$(median ${upm[$pair]})
		# shellcheck disable=SC2086
		ms[$pair]=$(median ${spm[$pair]})
	done
	# shellcheck disable=SC2086
	msx=$(median ${spx[C]} ${spx[D]})
	say ""
	say "== $n client(s), medians of $ROUNDS rounds, execute phase, -t $SECS$([ "$PAIRED" = 1 ] && echo ", the four at the same time")"
	say "$(printf '   %-34s %10s %10s %10s %10s' '' 'A tb>tbs' 'B ng>tbs' 'C ng>ng' 'D tb>ng')"
	say "$(printf '   %-34s %10.0f %10.0f %10.0f %10.0f' 'lines/s' "${m[A]}" "${m[B]}" "${m[C]}" "${m[D]}")"
	say "$(printf '   %-34s %10.3f %10.3f %10.3f %10.3f' 'client user CPU s per M lines' "${mu[A]}" "${mu[B]}" "${mu[C]}" "${mu[D]}")"
	say "$(printf '   %-34s %10.3f %10.3f %10.3f %10.3f' 'client sys CPU s per M lines' "${ms[A]}" "${ms[B]}" "${ms[C]}" "${ms[D]}")"
	say "   client, dbench-ng / tbench 4.0:  on tbench_srv B/A $(ratio "${m[B]}" "${m[A]}")  ($(goal "$(ratio "${m[B]}" "${m[A]}")" 1.3));  on dbench-ng's C/D $(ratio "${m[C]}" "${m[D]}")"
	say "   server, dbench-ng / tbench_srv:  with tbench D/A $(ratio "${m[D]}" "${m[A]}")  ($(goal "$(ratio "${m[D]}" "${m[A]}")" 1.0));  with dbench-ng C/B $(ratio "${m[C]}" "${m[B]}")"
	say "   all dbench-ng / all tbench 4.0:  C/A $(ratio "${m[C]}" "${m[A]}")"
	# CPU per exchange of the client's process tree (user + sys, us):
	# dbench-ng's against tbench 4.0's, on either server (goal <= 0.9)
	for pair in A B C D; do
		cpx[$pair]=$(awk -v u="${mu[$pair]}" -v s="${ms[$pair]}" 'BEGIN { printf "%.2f", u + s }')
	done
	say "$(printf '   %-34s %10s %10s %10s %10s' 'client CPU us per exchange' "${cpx[A]}" "${cpx[B]}" "${cpx[C]}" "${cpx[D]}")"
	rb=$(ratio "${cpx[B]}" "${cpx[A]}")
	rc=$(ratio "${cpx[C]}" "${cpx[D]}")
	say "   client CPU per exchange, dbench-ng / tbench 4.0:  on tbench_srv B/A $rb  ($(awk -v r="$rb" 'BEGIN { printf "goal <= 0.9: %s", (r <= 0.9 ? "MET" : "NOT MET") }'));  on dbench-ng's C/D $rc"
	say "   dbench-ng server CPU s per M exchanges (C and D rounds, median): $msx"
	for pair in A B C D; do
		say "   rounds lines/s $pair: ${lps[$pair]}"
	done
	unset lps upm spm spx m mu ms cpx
done

echo "loadavg at end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$RESULTS_DIR/env.txt"
say ""
say "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
say "summary: $summary"
