#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# builtin-vs-client.sh: does the built-in workload (-c builtin:netbench)
# ask the file system for the same work as dbench's client.txt?  Both are
# run by dbench-ng with -s (O_SYNC, the way fsperf runs dbench) on
# loop-mounted ext4, xfs and btrfs, alternately, ROUNDS times each, and the
# medians of throughput and of the WriteX and Flush mean latencies are
# compared.  Goal: built-in / client.txt within 10 % (0.90-1.10) on each.
# "ratio" is the ratio of the medians; "paired" (what PASS/FAIL is decided
# on) is the median of the per-round ratios of the two runs of a round,
# which run back to back, so a change of the machine's load in the middle
# of the benchmark hits both sides of a ratio alike.
#
# Each image is filled with dd from /dev/zero before mkfs, so that the
# backing file is not sparse: on a sparse image every run would allocate
# blocks of the host file system the previous run did not, and get faster
# run after run.
#
# Run:   sudo bench/builtin-vs-client.sh
# Environment (defaults in brackets):
#   FSTYPES ["ext4 xfs btrfs"]  SECS [20]  ROUNDS [3]  NPROCS [4]
#   IMG_MB [3072]  size of each image
#   LOADFILE [/usr/share/dbench/client.txt]  the reference
#   BUILTIN []  a loadfile to use instead of the embedded workload (-c),
#               e.g. loadfiles/netbench.load before rebuilding
#   DBENCH_NG [./dbench-ng]  RESULTS_DIR [bench/results/bvc-<date>-<time>]
#   IMG_DIR [mktemp -d under $TMPDIR or /var/tmp]  where the images go
# A default run takes about 3 * 2 * ROUNDS * (1.2 * SECS + 5) s plus
# the dd of 3 * IMG_MB MB: ~10 minutes.
# Exit status: 0 all within 10 %, 1 some figure outside, 2 usage or
# missing tools, 3 a run failed.

set -eu
. "$(dirname "$0")/lib.sh"

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)

FSTYPES=${FSTYPES:-ext4 xfs btrfs}
SECS=${SECS:-20}
ROUNDS=${ROUNDS:-3}
NPROCS=${NPROCS:-4}
IMG_MB=${IMG_MB:-3072}
LOADFILE=${LOADFILE:-/usr/share/dbench/client.txt}
DBENCH=${DBENCH:-/usr/bin/dbench}	# only recorded in env.txt
BUILTIN=${BUILTIN:-}
DBENCH_NG=${DBENCH_NG:-$top/dbench-ng}
RESULTS_DIR=${RESULTS_DIR:-$here/results/bvc-$(date +%Y%m%d-%H%M%S)}
IMG_PARENT=${IMG_DIR:-${TMPDIR:-/var/tmp}}

me=builtin-vs-client.sh
die2() { echo "$me: $*" >&2; exit 2; }

# ---------------------------------------------------------------- checks

[ "$(id -u)" = 0 ] || die2 "must run as root (losetup, mkfs, mount)"
[ -x "$DBENCH_NG" ] || die2 "$DBENCH_NG not found; build it with 'make'"
[ -r "$LOADFILE" ] || die2 "$LOADFILE missing (apt-get install dbench)"
[ -z "$BUILTIN" ] || [ -r "$BUILTIN" ] || die2 "BUILTIN=$BUILTIN unreadable"
for v in SECS ROUNDS NPROCS IMG_MB; do
	case "${!v}" in
	'' | *[!0-9]* | 0) die2 "$v must be a positive number" ;;
	esac
done
command -v python3 >/dev/null || die2 "python3 missing (scripts/install-deps.sh check)"
command -v losetup >/dev/null || die2 "losetup missing (apt-get install mount)"
for fs in $FSTYPES; do
	case $fs in
	ext4) pkg=e2fsprogs ;;
	xfs) pkg=xfsprogs ;;
	btrfs) pkg=btrfs-progs ;;
	*) die2 "unknown file system '$fs' (ext4, xfs, btrfs)" ;;
	esac
	command -v "mkfs.$fs" >/dev/null ||
		die2 "mkfs.$fs missing (apt-get install $pkg)"
	grep -qw "$fs" /proc/filesystems || modprobe "$fs" 2>/dev/null ||
		die2 "the kernel has no $fs"
done

# --------------------------------------------------- scratch, cleanup

set -m
job=
imgdir=
mnt=
loopdev=
mounted=0

cleanup() {
	set +e
	stop_job
	if [ "$mounted" = 1 ]; then
		umount_retry "$mnt"
		mounted=0
	fi
	if [ -n "$loopdev" ]; then
		detach "$loopdev"
		loopdev=
	fi
	if [ -n "$imgdir" ]; then
		rm -rf "$imgdir"
		imgdir=
	fi
}
trap cleanup EXIT
trap 'echo "$me: interrupted, cleaning up" >&2; exit 130' INT
trap 'echo "$me: terminated, cleaning up" >&2; exit 143' TERM

results_init
imgdir=$(mktemp -d "$IMG_PARENT/dbng-bvc.XXXXXX")
mnt=$imgdir/mnt
mkdir "$mnt"
bench_env >"$RESULTS_DIR/env.txt"

# setup_fs FS: a filled image, mkfs, loop device, mount on $mnt
setup_fs() {
	local fs=$1 img=$imgdir/$1.img
	dd if=/dev/zero of="$img" bs=1M count="$IMG_MB" conv=fsync status=none
	loopdev=$(losetup --find --show "$img")
	case $fs in
	ext4) mkfs.ext4 -q -F "$loopdev" ;;
	xfs) mkfs.xfs -q -f "$loopdev" ;;
	btrfs) mkfs.btrfs -q -f "$loopdev" >/dev/null ;;
	esac
	mount "$loopdev" "$mnt"
	mounted=1
}

# detach LOOPDEV: losetup -d, and no error if the device is already
# unbound (a loop device set up elsewhere with autoclear, or detached by
# another program's cleanup, is gone by then)
detach() {
	losetup -d "$1" 2>/dev/null && return 0
	if losetup "$1" >/dev/null 2>&1; then
		echo "$me: cannot detach $1" >&2
		return 1
	fi
	return 0
}

teardown_fs() {
	umount_retry "$mnt"
	mounted=0
	detach "$loopdev"
	loopdev=
	rm -f "$imgdir"/*.img
}

# one_run WHICH FS ROUND: sets T, WX, FL (MB/s, WriteX and Flush mean us)
one_run() {
	local which=$1 fs=$2 r=$3 out json tf
	out=$RESULTS_DIR/$fs-$which-r$r.out
	json=$RESULTS_DIR/$fs-$which-r$r.json
	tf=$RESULTS_DIR/$fs-$which-r$r.time
	if [ "$which" = client ]; then
		set -- -c "$LOADFILE"
	elif [ -n "$BUILTIN" ]; then
		set -- -c "$BUILTIN"
	else
		set -- -c builtin:netbench
	fi
	set -- "$DBENCH_NG" -s -t "$SECS" "$@" --json "$json" -D "$mnt" \
		"$NPROCS"
	echo "$*" >"$out.cmd"
	sync
	if ! run_timed "$out" "$tf" "$@"; then
		echo "$me: '$*' failed, output in $out:" >&2
		tail -20 "$out" >&2
		exit 3
	fi
	read -r T WX FL < <(python3 - "$json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
mean = {o["name"]: o["lat_ns"]["mean"] for o in r["ops"]}
print(r["summary"]["throughput_mbps"], mean.get("WriteX", 0) / 1000,
      mean.get("Flush", 0) / 1000, sep="\t")
PY
)
}

csv=$RESULTS_DIR/runs.csv
echo "fs,workload,round,mb_s,writex_mean_us,flush_mean_us" >"$csv"
say "built-in workload vs $LOADFILE, dbench-ng -s -t $SECS ... $NPROCS"
say "built-in: ${BUILTIN:-embedded (no -c)}; $ROUNDS rounds each, alternating (ABBA order)"
say "images: $IMG_MB MB each, filled with dd before mkfs, in $imgdir"
say "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
say "results: $RESULTS_DIR"
say ""
say "$(printf '%-6s %-10s %12s %12s %12s' fs '' 'MB/s' 'WriteX us' 'Flush us')"

verdict=0
for fs in $FSTYPES; do
	setup_fs "$fs"
	for w in builtin client; do
		eval "t_$w=() wx_$w=() fl_$w=()"
	done
	for r in $(seq "$ROUNDS"); do
		if [ $((r % 2)) = 1 ]; then order="builtin client"
		else order="client builtin"; fi
		for w in $order; do
			printf '  %-5s %-7s round %d ... ' "$fs" "$w" "$r" >&2
			one_run "$w" "$fs" "$r"
			t=$T wx=$WX fl=$FL
			printf '%8.2f MB/s  WriteX %8.1f us  Flush %8.1f us\n' \
				"$t" "$wx" "$fl" >&2
			echo "$fs,$w,$r,$t,$wx,$fl" >>"$csv"
			eval "t_$w+=(\"\$t\") wx_$w+=(\"\$wx\") fl_$w+=(\"\$fl\")"
		done
	done
	for w in builtin client; do
		eval "mt_$w=\$(median \"\${t_$w[@]}\")"
		eval "mw_$w=\$(median \"\${wx_$w[@]}\")"
		eval "mf_$w=\$(median \"\${fl_$w[@]}\")"
	done
	rt=$(ratio "$mt_builtin" "$mt_client")
	rw=$(ratio "$mw_builtin" "$mw_client")
	rf=$(ratio "$mf_builtin" "$mf_client")
	# paired: the ratio of the two runs of each round, then the median;
	# a drift of the machine's load hits both runs of a round alike
	pt=() pw=() pf=()
	for i in "${!t_builtin[@]}"; do
		pt+=("$(ratio "${t_builtin[i]}" "${t_client[i]}")")
		pw+=("$(ratio "${wx_builtin[i]}" "${wx_client[i]}")")
		pf+=("$(ratio "${fl_builtin[i]}" "${fl_client[i]}")")
	done
	qt=$(median "${pt[@]}") qw=$(median "${pw[@]}") qf=$(median "${pf[@]}")
	ok=PASS
	for x in "$qt" "$qw" "$qf"; do
		awk -v r="$x" 'BEGIN { exit !(r >= 0.90 && r <= 1.10) }' ||
			ok=FAIL
	done
	[ "$ok" = PASS ] || verdict=1
	say "$(printf '%-6s %-10s %12.2f %12.1f %12.1f' "$fs" built-in "$mt_builtin" "$mw_builtin" "$mf_builtin")"
	say "$(printf '%-6s %-10s %12.2f %12.1f %12.1f' '' client.txt "$mt_client" "$mw_client" "$mf_client")"
	say "$(printf '%-6s %-10s %12s %12s %12s' '' 'ratio' "$rt" "$rw" "$rf")"
	say "$(printf '%-6s %-10s %12.2f %12.2f %12.2f   %s' '' 'paired' "$qt" "$qw" "$qf" "$ok")"
	say "       rounds paired ratios MB/s: ${pt[*]}  WriteX: ${pw[*]}  Flush: ${pf[*]}"
	say "       rounds MB/s built-in: $(printf '%.2f ' "${t_builtin[@]}")client.txt: $(printf '%.2f ' "${t_client[@]}")"
	say "       rounds WriteX us built-in: $(printf '%.0f ' "${wx_builtin[@]}")client.txt: $(printf '%.0f ' "${wx_client[@]}")"
	say "       rounds Flush us built-in: $(printf '%.0f ' "${fl_builtin[@]}")client.txt: $(printf '%.0f ' "${fl_client[@]}")"
	teardown_fs
done
say ""
say "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$verdict" = 0 ]; then
	say "result: PASS (every paired ratio within 0.90-1.10)"
else
	say "result: FAIL (some paired ratio outside 0.90-1.10)"
fi
exit "$verdict"
