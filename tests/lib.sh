# SPDX-License-Identifier: GPL-3.0-or-later
# Shared set-up for the shell tests: source it first.
#   DBNG      the built binary
#   TMP       a private temporary directory, removed on exit
#   skip MSG  exit 77 (counted as skipped, with the reason)
#   fail MSG  exit 1
#   at_exit CMD   run CMD on every exit path (last registered runs first)
#   mount_fs TYPE SIZE   loop-mount a fresh TYPE filesystem; sets MNT
#   wait_until SECS CMD...   poll CMD until it succeeds (1 if it never does)
#   wait_for FILE ERE [SECS] wait for a line of FILE to match ERE, or fail
#   stall_check JSON     the watchdog's events agree with the histograms
#   need_bpf             skip unless stalls can be traced with BPF here
set -u
export LC_ALL=C
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DBNG=$ROOT/dbench-ng
DATA=$ROOT/tests/data
CLIENT_TXT=/usr/share/dbench/client.txt
TMP=$(mktemp -d "${TMPDIR:-/tmp}/dbng-test.XXXXXX")
_exit_cmds=()

at_exit() { _exit_cmds=("$*" "${_exit_cmds[@]}"); }
_run_exit() {
	local c
	for c in "${_exit_cmds[@]}"; do eval "$c" >/dev/null 2>&1; done
	rm -rf "$TMP"
}
trap _run_exit EXIT
trap 'exit 130' INT TERM

# skip's and fail's words go to the test's own output, through a copy of
# it made here (fd 9): a check whose output is redirected, as in
# expect_rc 1 CMD >"$TMP/out", still says why it failed
exec 9>&1
skip() { echo "SKIP: $*" >&9; exit 77; }
fail() { echo "FAIL: $*" >&9; exit 1; }
note() { echo "--- $*"; }

# wait_until SECS CMD...: run CMD every 20 ms until it succeeds; return 1
# if it has not within SECS seconds.  Tests wait for what they need to see
# (a line, a lock, a process gone) instead of sleeping a guessed time: a
# slow machine only makes the wait longer, and only something that truly
# never happens makes it fail.  CMD's words are expanded once, at the
# call: a $(...) that must be asked again at every try goes in
# eval '[ ... "$(...)" ]' (a bare `test -z "$(procs)"` tests the first
# answer over and over).
wait_until() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ "$SECONDS" -lt "$end" ] || return 1
		sleep 0.02
	done
}

# wait_for FILE ERE [SECS]: wait (30 s by default) until a line of FILE
# matches the extended regular expression ERE; fail if none does
wait_for() {
	wait_until "${3:-30}" grep -Eq -- "$2" "$1" 2>/dev/null ||
		fail "no line matching /$2/ in $1 after ${3:-30} s: $(tail -5 "$1" 2>/dev/null)"
}

need_root() { [ "$(id -u)" = 0 ] || skip "needs root ($*)"; }

# need_bpf: skip unless the stall watchdog can trace with BPF here: root,
# kernel BTF, a kernel of 5.18 or later, a build with libbpf (a short run
# says which method it used and why); fail if it should and does not
need_bpf() {
	local rel maj min method
	need_root "loading BPF programs"
	[ -r /sys/kernel/btf/vmlinux ] ||
		skip "the kernel has no BTF (/sys/kernel/btf/vmlinux)"
	rel=$(uname -r)
	maj=${rel%%.*}
	min=${rel#*.}
	min=${min%%[!0-9]*}
	[ "$maj" -gt 5 ] || { [ "$maj" = 5 ] && [ "$min" -ge 18 ]; } ||
		skip "kernel $rel is older than 5.18"
	mkdir -p "$TMP/bpfprobe"
	echo 'Sleep 10000 NT_STATUS_OK' >"$TMP/bpfprobe.load"
	"$DBNG" -t 1 --warmup 0 -c "$TMP/bpfprobe.load" -D "$TMP/bpfprobe" \
		--json "$TMP/bpfprobe.json" 1 >/dev/null 2>&1 ||
		fail "the probe run failed"
	method=$(python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))["stalls"]
print(s["method"], s["method_note"] or "")' "$TMP/bpfprobe.json")
	case $method in
	bpf*) ;;
	"proc this build has no libbpf"*) skip "${method#proc }" ;;
	*) fail "no BPF tracing as root on a 5.18+ kernel with BTF: $method" ;;
	esac
}

# expect_rc WANT CMD...: run CMD, fail unless it exits WANT
expect_rc() {
	local want=$1 rc
	shift
	"$@"
	rc=$?
	[ "$rc" = "$want" ] || fail "exit $rc, expected $want: $*"
}

# mount_fs TYPE SIZE: a fresh loop-mounted filesystem at $MNT, unmounted
# and detached on every exit path
mount_fs() {
	local type=$1 size=$2 img dev
	need_root "loop-mounting $type"
	command -v "mkfs.$type" >/dev/null || skip "mkfs.$type not installed"
	grep -qw "$type" /proc/filesystems || modprobe "$type" 2>/dev/null
	grep -qw "$type" /proc/filesystems || skip "kernel has no $type"
	img=$TMP/$type.img
	MNT=$TMP/mnt-$type
	mkdir -p "$MNT"
	truncate -s "$size" "$img"
	case $type in
	ext4) mkfs.ext4 -q -F "$img" ;;
	xfs) mkfs.xfs -q -f "$img" ;;
	btrfs) mkfs.btrfs -q -f "$img" ;;
	esac >/dev/null 2>&1 || fail "mkfs.$type failed"
	dev=$(losetup -f --show "$img") || skip "no loop device available"
	at_exit "losetup -d $dev"
	mount "$dev" "$MNT" || fail "mount $type failed"
	at_exit "umount -l $MNT"
	MNT_DEV=$dev
}

# unmount_fs: undo the last mount_fs now (the exit hooks stay harmless)
unmount_fs() {
	umount "$MNT" || umount -l "$MNT"
	losetup -d "$MNT_DEV"
}

# hold_lock DIR: another dbench-ng (pid HOLDER, killed on exit) opens
# DIR/clients/lockfile, locks its first byte and sleeps; returns once the
# lock shows in /proc/locks (up to 30 s)
hold_lock() {
	printf '%s\n' 'NTCreateX "\clients\lockfile" 0x40 0x5 1 NT_STATUS_OK' \
		'LockX 1 0 1 NT_STATUS_OK' 'Sleep 60000000 NT_STATUS_OK' \
		>"$TMP/holder.load"
	"$DBNG" -t 60 --warmup 0 -c "$TMP/holder.load" -D "$1" 1 \
		>/dev/null 2>&1 &
	HOLDER=$!
	at_exit "kill $HOLDER"
	wait_until 30 lock_held "$1/clients/lockfile" ||
		fail "the lock holder did not take its lock in 30 s"
}

# lock_held FILE: a POSIX lock on the first byte of FILE is granted (a line
# of /proc/locks without "->"); lock_waiters FILE: how many wait for one
lock_held() {
	local ino
	ino=$(stat -c %i "$1" 2>/dev/null) &&
		grep -v -- '->' /proc/locks | grep -q ":$ino 0 0\$"
}
lock_waiters() {
	local ino
	ino=$(stat -c %i "$1" 2>/dev/null) || { echo 0; return; }
	grep -- '->' /proc/locks | grep -c ":$ino 0 0\$"
}

# stall_check JSON: the stall events of a --json result agree with the
# exact histograms of the same run (a slow machine changes both alike):
# per op, the events of ops that ended are at most its calls that lasted
# the threshold or more (an event opens only while a call is that old) and
# at least its calls of twice the threshold or more (the watchdog looks
# every 5 ms: it had a whole threshold's time to see each of them), no
# event names an op that never ended unless it was still stuck, and the
# longest event is at least the op's longest call when that one had to be
# caught.  Counts "at or over X" are bounded from both sides by the bins.
# For runs without a warmup (its calls are not in the histograms).
stall_check() {
	python3 - "$1" <<'PY' || fail "the stall events of $1 disagree with its histograms"
import json, sys
d = json.load(open(sys.argv[1]))
st = d["stalls"]
thr = st["threshold_ms"] * 1e6
evs = st["events"]
if len(evs) != st["total"] + st.get("warmup_total", 0):
    sys.exit("%d events listed of %d: cannot check" % (len(evs), st["total"]))
# the tables leave the warmup out, and so do the counts: its events too
evs = [e for e in evs if not e.get("warmup")]
def width(lo):
    return 1 if lo < 64 else 1 << (lo.bit_length() - 7)
ops = {o["name"]: o for o in d["ops"]}
bad, good = [], []
for name in sorted(set(st["per_op"]) | set(ops)):
    p = st["per_op"].get(name, {"count": 0, "max_ms": 0})
    stuck = sum(1 for e in evs if e["op"] == name and not e["ended"])
    ended = p["count"] - stuck
    lat = ops[name]["lat_ns"] if name in ops else {"bins": [], "overflow": 0, "max": 0}
    bins = lat["bins"]
    # calls surely >= x, and calls possibly >= x
    sure = lambda x: sum(c for lo, c in bins if lo >= x) + lat["overflow"]
    maybe = lambda x: sum(c for lo, c in bins if lo + width(lo) > x) + lat["overflow"]
    lo_n, hi_n = sure(2 * thr), maybe(thr)
    if not lo_n <= ended <= hi_n:
        bad.append("%s: %d ended events, but %d calls >= %g ms and %d >= %g ms"
                   % (name, ended, hi_n, thr / 1e6, lo_n, 2 * thr / 1e6))
    if lo_n and p["max_ms"] < lat["max"] / 1e6 - 0.001:
        bad.append("%s: longest event %.3f ms, longest call %.3f ms"
                   % (name, p["max_ms"], lat["max"] / 1e6))
    if p["count"]:
        good.append("ok: %s: %d stall events (%d still stuck); calls >= %g ms: %d, >= %g ms: %d"
              % (name, p["count"], stuck, thr / 1e6, hi_n, 2 * thr / 1e6, lo_n))
if bad:
    sys.exit("; ".join(bad))
print("\n".join(good))
PY
}

# op_count FILE OP: the Count column of OP in the classic table of FILE
op_count() {
	awk -v op="$2" '/^ Operation/ {t=1; next} t && $1 == op {print $2; exit}' "$1"
}

# lock_loads N [qpath]: $TMP/base.load and $TMP/cand.load, the same ops on
# a lock file of client 1's own (base) or one all clients share (cand):
# take its lock, hold it 200 ms, N rounds of a 4 KiB WriteX and ReadX
# (each with a Qpathinfo of the lock file if "qpath" is given)
lock_loads() {
	local n=$1 q=${2:-} side file i
	for side in base cand; do
		file='\clients\lockfile'
		[ $side = base ] && file='\clients\client1\lockfile'
		{
			echo 'Mkdir "\clients\client1" NT_STATUS_OK'
			echo "NTCreateX \"$file\" 0x40 0x5 1 NT_STATUS_OK"
			echo 'LockX 1 0 1 NT_STATUS_OK'
			echo 'Sleep 200000 NT_STATUS_OK'
			echo 'UnlockX 1 0 1 NT_STATUS_OK'
			for i in $(seq "$n"); do
				echo "WriteX 1 $((i * 4096)) 4096 4096 NT_STATUS_OK"
				echo "ReadX 1 $((i * 4096)) 4096 4096 NT_STATUS_OK"
				[ -z "$q" ] ||
					echo "QUERY_PATH_INFORMATION \"$file\" 1004 NT_STATUS_OK"
			done
			echo 'Close 1 NT_STATUS_OK'
			echo 'Sleep 10000 NT_STATUS_OK'
		} >"$TMP/$side.load"
	done
}

# shared_lock_load: $TMP/lock.load, whose clients all take the lock of one
# file and hold it 300 ms in turn: every client but one waits in LockX
shared_lock_load() {
	cat >"$TMP/lock.load" <<'X'
NTCreateX "\clients\lockfile" 0x40 0x5 1 NT_STATUS_OK
LockX 1 0 1 NT_STATUS_OK
Sleep 300000 NT_STATUS_OK
UnlockX 1 0 1 NT_STATUS_OK
Close 1 NT_STATUS_OK
Sleep 10000 NT_STATUS_OK
X
}

# chromium_run OUT ARGS...: headless Chromium ($CHROMIUM), time-boxed, its
# stdout in OUT, its stderr in $TMP/chr.err; in a session of its own,
# killed by id on every exit path; fails if the page logged an error
# (tests/cli/html.sh, html_hostile.sh)
chromium_run() {
	local out=$1 pid rc
	shift
	setsid timeout -k 5 60 "$CHROMIUM" --headless --no-sandbox \
		--disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$TMP/chr" \
		--enable-logging=stderr --v=0 "$@" >"$out" 2>"$TMP/chr.err" &
	pid=$!
	at_exit "kill -KILL -- -$pid"
	wait $pid
	rc=$?
	kill -KILL -- -$pid 2>/dev/null
	[ $rc = 0 ] || fail "chromium exit $rc: $(tail -5 "$TMP/chr.err")"
	! grep -E 'Uncaught|ERROR:.*CONSOLE|CONSOLE.*[Ee]rror' "$TMP/chr.err" ||
		fail "the page logged errors in Chromium"
}

# --- network namespaces, for the tests that run tbench servers ---------
# Every test that starts a server runs it in a network namespace of its
# own (loopback only, up), so that two tests never meet on a port and
# nothing listens outside: port 7003 is fixed for Debian's tbench_srv.

# netns_ok: can a network namespace be made here (unshare -n and ip)?
netns_ok() {
	command -v unshare >/dev/null && command -v ip >/dev/null &&
		unshare -n ip link set lo up 2>/dev/null
}

# enter_netns ARGS...: run the rest of this test in a network namespace
# of its own with lo up: the script is run again under unshare -n (its
# temporary directory is made anew there); skips if that cannot be done
enter_netns() {
	if [ -n "${DBNG_NETNS:-}" ]; then
		ip link set lo up || fail "cannot bring lo up in the namespace"
		return 0
	fi
	netns_ok || skip "cannot make a network namespace (unshare -n, ip; needs root)"
	rm -rf "$TMP"
	trap - EXIT
	exec unshare -n env DBNG_NETNS=1 bash "$0" "$@"
}

# netns_procs COMM: the pids of the processes called COMM in this network
# namespace (none may outlive a test's servers and clients)
netns_procs() {
	local p c
	for p in /proc/[0-9]*; do
		[ "$p/ns/net" -ef /proc/$$/ns/net ] || continue
		read -r c <"$p/comm" 2>/dev/null || continue
		[ "$c" = "$1" ] && echo "${p#/proc/}"
	done
}

# netns_gone COMM: wait (10 s) until no process called COMM is left in
# this network namespace, or fail naming them
netns_gone() {
	local comm=$1
	wait_until 10 eval '[ -z "$(netns_procs "$comm")" ]' ||
		fail "$comm processes left: $(netns_procs "$comm")"
}

# failed_run OUT: OUT is the stdout of a failed run (its exit status is
# the caller's to check): the marker, our last line, no dbench table or
# Throughput line
failed_run() {
	grep -q "^Run failed \(after [0-9.]* s of measurement\|during the warmup\): " "$1" ||
		fail "no 'Run failed' marker: $(cat "$1")"
	tail -1 "$1" | grep -q "^Partial figures of a failed run: " || fail "last line: $(tail -1 "$1")"
	! grep -q "Operation\|^Throughput" "$1" || fail "a dbench table or Throughput line: $(cat "$1")"
}

# listening PORT: something listens on TCP port PORT here
listening() { [ -n "$(ss -Hltn "sport = :$1" 2>/dev/null)" ]; }

# srv_start NAME PORT CMD...: start a tbench server CMD in the background
# (stdout $TMP/NAME.out, stderr $TMP/NAME.err), wait until it listens on
# PORT; its pid in SRV, killed on every exit path (srv_stop stops it)
srv_start() {
	local name=$1 port=$2
	shift 2
	"$@" >"$TMP/$name.out" 2>"$TMP/$name.err" &
	SRV=$!
	at_exit "kill -KILL $SRV"
	wait_until 30 _srv_ready "$port" "$SRV"
	listening "$port" ||
		fail "$name does not listen on port $port: $(cat "$TMP/$name.err")"
}
_srv_ready() { listening "$1" || ! kill -0 "$2" 2>/dev/null; }

# srv_stop [SIG]: stop the server $SRV with SIG (TERM) and wait for it;
# its exit status in SRV_RC
srv_stop() {
	kill -"${1:-TERM}" "$SRV" 2>/dev/null
	SRV_RC=0
	wait "$SRV" || SRV_RC=$?
}

# The server-side tree of a backend test (nfs.sh, smb.sh):
# keep_beside ROOT WHAT plants a file and a folder beside ROOT/clients
# that no run may touch; untouched checks them, and that ROOT/clients is
# gone (WHAT, "the export" or "the share", names ROOT in the messages)
keep_beside() {
	KEEP_ROOT=$1 KEEP_WHAT=$2
	echo "keep me" >"$1/marker.txt"
	mkdir "$1/keep" && echo inner >"$1/keep/inner.txt"
	touch -d '2020-01-01 00:00' "$1/marker.txt" "$1/keep/inner.txt" "$1/keep"
	beside >"$TMP/beside.0"
}
beside() {
	(cd "$KEEP_ROOT" && find . -mindepth 1 -path ./clients -prune -o \
		-printf '%y %s %T@ %m %p\n' | sort)
}
untouched() {
	beside | diff "$TMP/beside.0" - || fail "something beside clients/ on $KEEP_WHAT changed"
	[ ! -e "$KEEP_ROOT/clients" ] ||
		fail "clients/ is left on $KEEP_WHAT: $(find "$KEEP_ROOT/clients" | head)"
}

# be_refused BACKEND RC WANT ARGS...: dbench-ng -B BACKEND ARGS -t 2 2
# exits RC with one line on stderr that matches WANT, and starts no run
be_refused() {
	local be=$1 want_rc=$2 want=$3
	shift 3
	expect_rc "$want_rc" "$DBNG" -B "$be" "$@" -t 2 2 >"$TMP/out" 2>"$TMP/err"
	[ "$(wc -l <"$TMP/err")" = 1 ] || fail "not one message: $(cat "$TMP/err")"
	grep -q -- "$want" "$TMP/err" || fail "message: $(cat "$TMP/err"), want $want"
	! grep -q '^releasing' "$TMP/out" || fail "a refused run started"
	cat "$TMP/err"
}
