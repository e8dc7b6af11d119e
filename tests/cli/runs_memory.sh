# SPDX-License-Identifier: GPL-3.0-or-later
# --runs keeps memory flat (issue 25): the peak resident memory (VmHWM)
# of the run's largest process, from getrusage(RUSAGE_CHILDREN) of the
# program that started it, for --runs 3 and --runs 30 of the built-in
# workload on a tmpfs, each run with its --json file (and its
# checkpoints), the stall watchdog and, as root, BPF tracing.  Memory,
# not time: a busy machine changes neither figure.  Before the fix every
# run's whole result was kept for the spread summary (its histograms
# alone: 330 KB a run) and the heap fragmented around them: 28.4 MB for 3
# runs, 68.2 MB for 30 here (1.5 MB a run).
. "$(dirname "$0")/../lib.sh"

command -v python3 >/dev/null || skip "python3 is not installed"
D=$TMP/d
mkdir -p "$D"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=256m tmpfs "$D" 2>/dev/null
then
	at_exit "umount -l $D"
else
	note "no tmpfs of its own (not root): DIR is on $(df -P "$D" | awk 'NR == 2 { print $6 }')"
fi

# AddressSanitizer's allocator keeps freed blocks in its quarantine: what
# it grows is not the program's heap
grep -qa __asan_init "$DBNG" &&
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0"

# peak N: run --runs N; print the peak resident memory in kB of its
# largest process (the parent, or a client forked from it, which maps
# what the parent has)
peak() {
	python3 - "$@" <<'EOF'
import resource, subprocess, sys
with open(sys.argv[2], "w") as out, open(sys.argv[3], "w") as err:
    st = subprocess.call(sys.argv[4:], stdout=out, stderr=err)
if st:
    sys.exit("exit %d" % st)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
EOF
}
run() {
	peak "$1" "$TMP/out$1" "$TMP/err$1" "$DBNG" --runs "$1" -t 1 \
		--warmup 0 -c builtin:netbench -D "$D" --json "$TMP/m$1.json" 2 \
		>"$TMP/peak$1" || fail "--runs $1: $(tail -3 "$TMP/err$1")"
}
N=30
run 3
run $N
p3=$(cat "$TMP/peak3")
pN=$(cat "$TMP/peak$N")
grep -q "^Run-to-run spread over $N runs" "$TMP/out$N" ||
	fail "no spread summary: $(tail -3 "$TMP/out$N")"
tail -1 "$TMP/out$N" | grep -q '^Throughput ' || fail "no Throughput line last"
[ -e "$TMP/m$N-$N.json" ] || fail "no JSON file of run $N"
grow=$((pN - p3))
echo "peak resident memory: --runs 3 $p3 kB, --runs $N $pN kB ($grow kB more)"
# The bound: a run's result kept, even without the heap's fragmentation,
# is its histograms' 330 KB, 8.9 MB over these 27 runs more; flat, the
# heap has settled after 3 runs (the first ones warm it: freed blocks
# kept, the arenas of the watchdog's and the checkpoints' threads, the
# BPF program loaded again) and the peak moves by what one run's stalls
# and series take: 0.1 to 1.1 MB seen.  4 MB lies between the two.
[ $grow -le 4096 ] ||
	fail "--runs $N peaked $grow kB above --runs 3: memory grows run after run"
echo "ok: the memory of --runs $N is flat"
