# SPDX-License-Identifier: GPL-3.0-or-later
# The fault matrix (issue 6): a filesystem that fills up, fails writes with
# EIO, is read-only from the start or turns read-only mid-run, a
# DIR/clients removed under the clients, and SIGINT/SIGTERM at random
# moments of every phase.  For each: (a) a clear message on stderr, (b) the
# documented exit code (design.md §7), (c) partial results on stdout and in
# --json (status failed/interrupted), unless the run could not start,
# (d) no process left, (e) no mount left, (f) nothing outside DIR/clients
# touched.  A client or the parent killed with SIGKILL: tests/cli/process.sh.
#
# The random delays of the signal loop come from FAULTS_SEED (default:
# $RANDOM), printed first and with any failure: FAULTS_SEED=N
# tests/run.sh tests/cli/faults.sh repeats the same delays.  A fault that
# cannot be set up here (no loop device, no FUSE) is a note at the end, not
# a skip of the faults that ran.
. "$(dirname "$0")/../lib.sh"

need_root "tmpfs and loop mounts"
command -v python3 >/dev/null || skip "python3 not installed (JSON checks)"
[ -r "$CLIENT_TXT" ] || skip "$CLIENT_TXT missing (Debian package dbench)"

SKIPS=
SEED=${FAULTS_SEED:-$RANDOM}
echo "FAULTS_SEED=$SEED"
RANDOM=$SEED
# a failure names the seed, so the log's last lines are enough to replay it
fail() { echo "FAIL: $* (FAULTS_SEED=$SEED)"; exit 1; }

# ----------------------------- helpers ----------------------------------

# prepare DIR: DIR/clients' neighbours that no run may touch
prepare() {
	D=$1
	mkdir -p "$D/sibling/sub"
	echo "keep me" >"$D/keep.txt"
	head -c 5000 /dev/urandom >"$D/sibling/data"
	echo "also" >"$D/sibling/sub/note"
	touch -d '2020-01-02 03:04:05' "$D/keep.txt" "$D/sibling/data"
	SNAP=$(snapshot)
}

# snapshot: path, type, size, mtime and sha256 of everything in DIR but
# DIR/clients
snapshot() {
	(cd "$D" && find . -mindepth 1 -path ./clients -prune -o \
		-printf '%p %y %s %T@\n' | sort &&
		find . -path ./clients -prune -o -type f -print0 | sort -z |
		xargs -0 -r sha256sum)
}

# checks NAME: (d) no dbench-ng of DIR left (within 30 s), (f) DIR's
# neighbours intact
none_left() {
	left=$(pgrep -f -- "dbench-ng .*-D $D( |\$)")
	[ -z "$left" ]
}
checks() {
	local left
	wait_until 30 none_left
	[ -z "$left" ] || fail "$1: processes left: $(ps -o pid,stat,args -p "$(echo $left | tr ' ' ,)")"
	[ "$(snapshot)" = "$SNAP" ] ||
		fail "$1: outside DIR/clients changed: $(diff <(echo "$SNAP") <(snapshot))"
}

# run ARGS...: dbench-ng in its own process group (job control, so
# SIGINT is not ignored), output in $TMP/out and $TMP/err; sets PID, T0
run_bg() {
	rm -f "$TMP/out" "$TMP/err" "$TMP/r.json"
	T0=$(date +%s%N)
	set -m
	"$DBNG" --json "$TMP/r.json" "$@" >"$TMP/out" 2>"$TMP/err" &
	PID=$!
	set +m
}

# finish: RC, MS (wall time of the run)
finish() {
	wait "$PID"
	RC=$?
	MS=$((($(date +%s%N) - T0) / 1000000))
}

# want_rc NAME CODE
want_rc() {
	[ "$RC" = "$2" ] || fail "$1: exit $RC, expected $2: $(cat "$TMP/err")"
}

# want_err NAME ERE: (a) stderr matches
want_err() {
	grep -Eq -- "$2" "$TMP/err" ||
		fail "$1: stderr lacks /$2/: $(cat "$TMP/err")"
}

# partial NAME STATUS MARKER [SIGNAL]: (c) the table and Throughput last on
# stdout with MARKER, and the JSON parses, has STATUS (and SIGNAL) and the
# same NTCreateX count as the table
partial() {
	local name=$1 status=$2 marker=$3 sig=${4:-None} n
	grep -q "^$marker" "$TMP/out" || fail "$name: no '$marker': $(cat "$TMP/out")"
	if [ "$status" = ok ]; then
		grep -q '^ Operation      Count    AvgLat    MaxLat' "$TMP/out" ||
			fail "$name: no table: $(cat "$TMP/out")"
		tail -1 "$TMP/out" | grep -q '^Throughput .* MB/sec' ||
			fail "$name: Throughput not last: $(tail -3 "$TMP/out")"
		n=$(op_count "$TMP/out" NTCreateX)
	else
		# not a result: our table, no dbench table or Throughput line
		grep -q '^ Per op         Count    AvgLat    MaxLat' "$TMP/out" ||
			fail "$name: no table: $(cat "$TMP/out")"
		tail -1 "$TMP/out" | grep -q '^Partial figures of an\? [a-z]* run: .* MB/sec' ||
			fail "$name: partial figures not last: $(tail -3 "$TMP/out")"
		! grep -q '^ Operation\|^Throughput' "$TMP/out" ||
			fail "$name: a dbench table or Throughput line: $(cat "$TMP/out")"
		n=$(awk '/^ Per op/ {t = 1; next} t && $1 == "NTCreateX:" {print $2; exit}' "$TMP/out")
	fi
	[ -s "$TMP/r.json" ] || fail "$name: no JSON written"
	python3 - "$TMP/r.json" "$status" "$sig" "${n:-0}" <<'PY' ||
import json, sys
d = json.load(open(sys.argv[1]))
want, sig, n = sys.argv[2], sys.argv[3], int(sys.argv[4])
err = []
if d["status"] != want:
    err.append("status %r" % d["status"])
if str(d["signal"]) != sig:
    err.append("signal %r, expected %s" % (d["signal"], sig))
if want == "failed" and not d["errors"]:
    err.append("no errors[]")
c = sum(o["count"] for o in d["ops"] if o["name"] == "NTCreateX")
if c != n:
    err.append("NTCreateX %d, the table says %d" % (c, n))
if err:
    sys.exit("; ".join(err))
PY
		fail "$name: JSON: see above"
}

# failed NAME [LABEL]: a run that failed once it had started: exit 1, the
# partial results marked, (d) and (f), and its line for the report
failed() {
	want_rc "$1" 1
	partial "$1" failed "Run failed after"
	checks "$1"
	report "${2:-$1}"
}

# nothing NAME: a run that could not start printed no table, wrote no JSON
nothing() {
	! grep -q '^Throughput' "$TMP/out" || fail "$1: a Throughput line"
	[ ! -e "$TMP/r.json" ] || fail "$1: a JSON file: $(head -c 300 "$TMP/r.json")"
}

# report NAME: one line for the table of the report
report() {
	echo "ok: $1: exit $RC in $MS ms: $(grep -v '^dbench-ng: environment' "$TMP/err" | head -1)"
}

# end: (e) no mount left, and the verdict.  A fault that could not be set
# up here is said, but the test passed: the others ran (without root or
# tmpfs nothing runs, and it skipped above)
end() {
	! grep -qF "$TMP" /proc/self/mountinfo ||
		fail "mounts left: $(grep -F "$TMP" /proc/self/mountinfo)"
	[ -z "$SKIPS" ] || note "not tested here: ${SKIPS#; }"
	echo "all fault checks passed"
	exit 0
}

# ------------------------ 1. ENOSPC mid-run -----------------------------
note "1. ENOSPC: a 8 MB tmpfs fills up"
M1=$TMP/tmpfs
mkdir -p "$M1"
mount -t tmpfs -o size=8m tmpfs "$M1" || skip "cannot mount tmpfs"
at_exit "umount -l $M1"
prepare "$M1"
# the run ends when the tmpfs is full, in its first pass: the time limit
# only has to be out of reach of a slow machine
run_bg -c builtin:netbench -t 60 --warmup 0 -D "$D" 2
finish
want_err ENOSPC "client [01] at builtin:netbench:[0-9]+: .*No space left on device"
failed ENOSPC
[ ! -e "$D/clients" ] || fail "ENOSPC: trees left: $(find "$D/clients" | head)"
umount "$M1" || fail "cannot unmount the tmpfs"

# ------------------------ 3a. read-only from the start ------------------
note "3a. a read-only filesystem: the run cannot start"
mount -t tmpfs -o size=8m tmpfs "$M1" || fail "cannot mount tmpfs"
prepare "$M1"
mount -o remount,ro "$M1" || fail "cannot remount the tmpfs read-only"
run_bg -c builtin:netbench -t 3 --warmup 0 -D "$D" 2
finish
want_rc "read-only" 3
want_err "read-only" "^dbench-ng: cannot create $D/clients: Read-only file system$"
nothing "read-only"
[ ! -e "$D/clients" ] || fail "read-only: DIR/clients exists"
checks "read-only"
report "read-only start"
umount "$M1" || fail "cannot unmount the tmpfs"

# ------------------------ 4. DIR/clients removed ------------------------
note "4. DIR/clients removed while the clients run"
D4=$TMP/rmdir
mkdir -p "$D4"
prepare "$D4"
# the run fails soon after the removal: the time limit only has to leave
# the removal time to happen
run_bg -c builtin:netbench -t 60 --warmup 0 -D "$D" 2
wait_for "$TMP/out" ' execute '
# the clients are stopped meanwhile, so that the removal is complete when
# they go on (rm -rf races with their creations otherwise)
kill -STOP -- "-$PID"
rm -rf "$D/clients"
kill -CONT -- "-$PID"
finish
want_err "removed" "client [01] at builtin:netbench:[0-9]+: "
want_err "removed" "^dbench-ng: $D/clients was removed during the run"
failed "removed" "DIR/clients removed"
rm -rf "$D/clients"

# ------------------------ 5. SIGINT / SIGTERM ---------------------------
# In each phase (setup: the clients are forked and set up; warmup;
# execute; cleanup) with each signal, at a random moment of the phase.
# Before the program blocks the signals (the first ms after exec) a signal
# would kill it outright: the setup delays count from the moment
# /proc/PID/status shows them blocked in dbench-ng.  The clean-up is short:
# a signal that comes after the run ended is no fault (exit 0, status ok,
# said in the log).
# blocked: the process is dbench-ng and blocks SIGINT and SIGTERM
blocked() {
	local m
	[ "$(readlink "/proc/$PID/exe" 2>/dev/null)" = "$(readlink -f "$DBNG")" ] &&
		m=$(awk '/^SigBlk:/ { print $2 }' "/proc/$PID/status" 2>/dev/null) &&
		[ -n "$m" ] && (((16#$m & 0x4002) == 0x4002))
}
note "5. SIGINT and SIGTERM at random moments"
D5=$TMP/sig
mkdir -p "$D5"
prepare "$D5"
i=0
for sig in INT TERM; do
	for phase in setup warmup execute cleanup; do
		i=$((i + 1))
		# 3 clients per process: a clean-up of about 120 ms
		run_bg -t 3 --warmup 1 --clients-per-process 3 \
			-c "$CLIENT_TXT" -D "$D" 8
		case $phase in
		setup) wait_for=; delay_ms=$((RANDOM % 100)) ;;
		warmup) wait_for='^releasing clients'; delay_ms=$((RANDOM % 900)) ;;
		execute) wait_for=' execute '; delay_ms=$((RANDOM % 700)) ;;
		cleanup) wait_for=' cleanup '; delay_ms=$((RANDOM % 50)) ;;
		esac
		if [ -n "$wait_for" ]; then
			wait_for "$TMP/out" "$wait_for"
		else
			wait_until 30 blocked ||
				fail "SIG$sig in setup: dbench-ng did not block the signals in 30 s"
		fi
		sleep "$(printf '0.%03d' "$delay_ms")"
		seen=$(grep -c . "$TMP/out")
		kill -"$sig" "$PID" 2>/dev/null # gone: it finished first
		finish
		want=$((128 + $(kill -l $sig)))
		name="SIG$sig in $phase +${delay_ms}ms"
		if [ "$RC" = 0 ] && [ $phase = cleanup ] &&
			! grep -q "^dbench-ng: interrupted" "$TMP/err"; then
			# the run ended before the signal arrived
			partial "$name" ok " Operation"
			echo "ok: $name: finished first (exit 0)"
		elif [ $phase = cleanup ] &&
			grep -q "^dbench-ng: interrupted (signal $(kill -l $sig), [A-Za-z]*) after the run: " "$TMP/err"; then
			# the run had ended, its report and JSON were written:
			# said, the result whole, exit 128 + the signal
			want_rc "$name" $want
			partial "$name" ok " Operation"
			echo "ok: $name: after the run: said, the result whole (exit $RC)"
		else
			want_rc "$name" $want
			want_err "$name" "^dbench-ng: interrupted by signal $(kill -l $sig) \($( [ $sig = INT ] && echo Interrupt || echo Terminated)\): stopping the clients$"
			partial "$name" interrupted "Interrupted by signal $(kill -l $sig) " "$(kill -l $sig)"
			echo "ok: $name: exit $RC in $MS ms, $seen lines before: $(grep '^Interrupted' "$TMP/out")"
		fi
		[ ! -e "$D/clients" ] || fail "$name: trees left: $(find "$D/clients" | head)"
		checks "$name"
	done
done

# ------------------------ 3b. read-only mid-run -------------------------
# 'mount -o remount,ro' fails (EBUSY) while the clients hold files open
# for writing, and blockdev --setro does not stop a mounted filesystem's
# writes; ext4's errors=remount-ro with /sys/fs/ext4/DEV/trigger_fs_error
# turns it read-only at once, as a real metadata error would.
note "3b. ext4 turns read-only mid-run (errors=remount-ro)"
# (what mount_fs would skip for, checked first: the other faults ran)
grep -qw ext4 /proc/filesystems || modprobe ext4 2>/dev/null
if ! command -v mkfs.ext4 >/dev/null || ! losetup -f >/dev/null 2>&1 ||
	! grep -qw ext4 /proc/filesystems; then
	SKIPS="$SKIPS; read-only mid-run: no mkfs.ext4, no loop device or no ext4 in the kernel"
else
mount_fs ext4 128M
M3=$MNT
mount -o remount,errors=remount-ro "$M3" || fail "cannot set errors=remount-ro"
DEVN=${MNT_DEV#/dev/}
if [ ! -w "/sys/fs/ext4/$DEVN/trigger_fs_error" ]; then
	SKIPS="$SKIPS; read-only mid-run: no /sys/fs/ext4/$DEVN/trigger_fs_error (kernel before 6.x?)"
	unmount_fs
else
prepare "$M3"
# the run fails at the first write after the error: the time limit only
# has to leave the error time to happen
run_bg -c builtin:netbench -t 60 --warmup 0 -D "$D" 2
wait_for "$TMP/out" ' execute '
echo 1 >"/sys/fs/ext4/$DEVN/trigger_fs_error"
finish
# (kernels since 6.x say emergency_ro instead of ro)
grep -Eq " (ro|.*,emergency_ro)[ ,]" <(grep " $M3 " /proc/mounts) ||
	fail "ext4 did not turn read-only: $(grep " $M3 " /proc/mounts)"
want_err "remount-ro" "client [01] at builtin:netbench:[0-9]+: .*Read-only file system"
want_err "remount-ro" "clean-up: [12] client trees? left in $D/clients \(client[01]: Read-only file system\)"
failed "remount-ro"
unmount_fs
fi
fi

# ------------------------ 2. EIO on write (faultfs) ---------------------
note "2. EIO on every write after 1 s (faultfs)"
# faultfs' lib skips (exit 77) without FUSE; its prerequisites are
# checked here first so that the other faults' skips are reported too
if [ ! -c /dev/fuse ] || ! command -v pkg-config >/dev/null ||
	! pkg-config --exists fuse3 || ! command -v cc >/dev/null ||
	! command -v mountpoint >/dev/null; then
	SKIPS="$SKIPS; EIO: no /dev/fuse, C compiler, libfuse3-dev or mountpoint"
else
# from here a skip of faultfs's lib (FUSE cannot be mounted here) ends the
# test as passed, with a note: the faults above ran
skip() {
	SKIPS="$SKIPS; EIO: $*"
	[ -n "${BACK:-}" ] && mountpoint -q "$BACK" && umount "$BACK"
	end
}
. "$ROOT/tests/faultfs/lib.sh"
ffs_mount --rule 'write error=EIO after=1000'
prepare "$MNT"
# every write fails from 1 s after the mount on: the run ends at its first
# one then, whatever the time limit (out of reach of a slow machine)
run_bg -c builtin:netbench -t 60 --warmup 0 -D "$D" 2
finish
want_err EIO "client [01] at builtin:netbench:[0-9]+: WriteX handle [0-9]+ failed \(Input/output error\)"
failed EIO
[ ! -e "$D/clients" ] || fail "EIO: trees left: $(find "$D/clients" | head)"
ffs_umount
umount "$BACK"	# faultfs's backing tmpfs (tests/faultfs/lib.sh)
grep -q ' write .* error=EIO start$' "$LOG" || fail "EIO: no injection logged"
fi

end
