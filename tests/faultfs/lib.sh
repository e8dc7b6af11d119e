# SPDX-License-Identifier: GPL-3.0-or-later
# Shared by the tests that run on faultfs: source after tests/lib.sh.
# Skips without root, /dev/fuse or libfuse3; builds faultfs into $TMP;
# ffs_mount [FAULTFS OPTIONS] mounts it on $MNT over $BACK (a tmpfs) with the
# injection log $LOG; ffs_umount unmounts; nothing is ever left mounted.
need_root "mounting FUSE"
[ -c /dev/fuse ] || skip "no /dev/fuse"
command -v cc >/dev/null || skip "no C compiler"
command -v pkg-config >/dev/null || skip "pkg-config not installed"
pkg-config --exists fuse3 || skip "libfuse3-dev (pkg-config fuse3) not installed"
command -v mountpoint >/dev/null || skip "mountpoint (util-linux) not installed"

FFS=$TMP/faultfs
BACK=$TMP/backing
MNT=$TMP/mnt
LOG=$TMP/inj.log
FFS_PID=
mkdir -p "$BACK" "$MNT"
# the backing directory on a tmpfs: the disk under /tmp would add its own
# fsync and writeback delays to what the tests measure
mount -t tmpfs -o size=2g,mode=0755 dbng-faultfs-back "$BACK" ||
	skip "cannot mount a tmpfs for the backing directory"
at_exit "umount -l $BACK"

# never leave a mount or a daemon behind (the last registered runs first)
ffs_kill() {
	[ -n "$FFS_PID" ] || return 0
	kill "$FFS_PID"
	for _ in $(seq 40); do
		kill -0 "$FFS_PID" 2>/dev/null || break
		sleep 0.05
	done
	kill -9 "$FFS_PID"
	wait "$FFS_PID"
	FFS_PID=
}
at_exit ffs_kill
at_exit "fusermount3 -u -z $MNT; umount -l $MNT"

note "build"
# shellcheck disable=SC2046
cc -std=gnu11 -O2 -Wall -Wextra -Wshadow -Wmissing-prototypes \
	-Wstrict-prototypes -Wformat=2 -D_GNU_SOURCE \
	$(pkg-config --cflags fuse3) -o "$FFS" \
	"$ROOT"/tests/faultfs/*.c $(pkg-config --libs fuse3) ||
	fail "cannot build faultfs"

# ffs_mount [FAULTFS OPTIONS]: mount faultfs with a fresh log; FFS_PID
ffs_mount() {
	rm -f "$LOG" "$TMP/ffs.pid"
	"$FFS" "$BACK" "$MNT" -f -o default_permissions --log "$LOG" \
		--pidfile "$TMP/ffs.pid" "$@" 2>"$TMP/ffs.err" &
	FFS_PID=$!
	wait_until 30 ffs_up && return 0
	fail "faultfs did not mount in 30 s: $(cat "$TMP/ffs.err")"
}

# ffs_up: mounted (0), still mounting (1); skips or fails if faultfs exited
ffs_up() {
	mountpoint -q "$MNT" && [ -s "$TMP/ffs.pid" ] && return 0
	kill -0 "$FFS_PID" 2>/dev/null && return 1
	wait "$FFS_PID"
	FFS_PID=
	grep -qi "mount failed\|device not found" "$TMP/ffs.err" &&
		skip "cannot mount FUSE here: $(cat "$TMP/ffs.err")"
	fail "faultfs exited: $(cat "$TMP/ffs.err")"
}

# ffs_umount: unmount, then the daemon must exit by itself
ffs_umount() {
	fusermount3 -u "$MNT" 2>/dev/null || umount "$MNT" ||
		fail "cannot unmount $MNT"
	wait_until 30 eval '! kill -0 "$FFS_PID" 2>/dev/null' ||
		fail "faultfs still running 30 s after the unmount"
	wait "$FFS_PID" || fail "faultfs exited $?: $(cat "$TMP/ffs.err")"
	FFS_PID=
	[ ! -e "$TMP/ffs.pid" ] || fail "pidfile left behind"
}

