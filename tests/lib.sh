# SPDX-License-Identifier: GPL-3.0-or-later
# Shared set-up for the shell tests: source it first.
#   DBNG      the built binary
#   TMP       a private temporary directory, removed on exit
#   skip MSG  exit 77 (counted as skipped, with the reason)
#   fail MSG  exit 1
#   at_exit CMD   run CMD on every exit path (last registered runs first)
#   mount_fs TYPE SIZE   loop-mount a fresh TYPE filesystem; sets MNT
set -u
export LC_ALL=C
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DBNG=$ROOT/dbench-ng
DATA=$ROOT/tests/data
CLIENT_TXT=/usr/share/dbench/client.txt
TMP=$(mktemp -d /tmp/dbng-test.XXXXXX)
_exit_cmds=()

at_exit() { _exit_cmds=("$*" "${_exit_cmds[@]}"); }
_run_exit() {
	local c
	for c in "${_exit_cmds[@]}"; do eval "$c" >/dev/null 2>&1; done
	rm -rf "$TMP"
}
trap _run_exit EXIT
trap 'exit 130' INT TERM

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
note() { echo "--- $*"; }

need_root() { [ "$(id -u)" = 0 ] || skip "needs root ($*)"; }

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
# lock shows in /proc/locks
hold_lock() {
	local ino
	printf '%s\n' 'NTCreateX "\clients\lockfile" 0x40 0x5 1 NT_STATUS_OK' \
		'LockX 1 0 1 NT_STATUS_OK' 'Sleep 60000000 NT_STATUS_OK' \
		>"$TMP/holder.load"
	"$DBNG" -t 60 --warmup 0 -c "$TMP/holder.load" -D "$1" 1 \
		>/dev/null 2>&1 &
	HOLDER=$!
	at_exit "kill $HOLDER"
	for _ in $(seq 100); do
		ino=$(stat -c %i "$1/clients/lockfile" 2>/dev/null) &&
			grep -q ":$ino 0 0\$" /proc/locks && return 0
		sleep 0.1
	done
	fail "the lock holder did not take its lock in 10 s"
}

# op_count FILE OP: the Count column of OP in the classic table of FILE
op_count() {
	awk -v op="$2" '/^ Operation/ {t=1; next} t && $1 == op {print $2; exit}' "$1"
}
