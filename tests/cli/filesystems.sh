# SPDX-License-Identifier: GPL-3.0-or-later
# Real filesystems: tmpfs and loop-mounted ext4, xfs and btrfs (root only,
# otherwise skipped).  On each: the built-in workload and client.txt with
# -s -S -F, -x (user xattrs), --stat-check, --no-resolve and
# --one-byte-write-fix; no unexpected results, a clean tree afterwards.
# Every mount and loop device is undone on every exit path (lib.sh).
. "$(dirname "$0")/../lib.sh"

need_root "mounting filesystems"

# run_on DIR LABEL ARGS...: a short run must exit 0 with a full table,
# no unexpected results, nothing left in DIR
run_on() {
	local dir=$1 label=$2
	shift 2
	"$DBNG" -t 2 --warmup 1 -D "$dir" "$@" >"$TMP/out" 2>"$TMP/err" ||
		fail "$label $*: exit $?: $(cat "$TMP/err")"
	! grep -q "Unexpected results" "$TMP/out" ||
		fail "$label $*: $(sed -n '/Unexpected/,/^$/p' "$TMP/out")"
	# a slow synchronous filesystem may not reach the reads in 2 s
	[ "$(op_count "$TMP/out" NTCreateX)" -gt 0 ] ||
		fail "$label $*: no NTCreateX in the table"
	[ -z "$(ls -A "$dir" | grep -v lost+found)" ] ||
		fail "$label $*: left $(ls -A "$dir")"
	echo "ok: $label $* -> $(tail -1 "$TMP/out")"
}

exercise() {
	local dir=$1 label=$2
	run_on "$dir" "$label" -c builtin:netbench 2
	run_on "$dir" "$label" -c builtin:netbench -s -S -F 2
	run_on "$dir" "$label" -c builtin:netbench --stat-check --one-byte-write-fix 2
	run_on "$dir" "$label" -c builtin:netbench --no-resolve --clients-per-process 2 1
	if [ -r "$CLIENT_TXT" ]; then
		run_on "$dir" "$label" -c "$CLIENT_TXT" -x 2
	fi
	run_on "$dir" "$label" -c "$DATA/loadfiles/smoke.load" -x -S 2
}

mkdir -p "$TMP/tmpfs"
mount -t tmpfs -o size=1G tmpfs "$TMP/tmpfs" || fail "mount tmpfs"
at_exit "umount -l $TMP/tmpfs"
exercise "$TMP/tmpfs" tmpfs

for fs in ext4 xfs btrfs; do
	note "$fs"
	mount_fs $fs 1G
	exercise "$MNT" $fs
	unmount_fs
done

# -x on a filesystem without user xattrs fails clearly, it does not hang
note "-x where user xattrs are not supported"
mkdir -p "$TMP/noxattr"
if mount -t ramfs ramfs "$TMP/noxattr" 2>/dev/null; then
	at_exit "umount -l $TMP/noxattr"
	"$DBNG" -t 2 -x -c "$DATA/loadfiles/smoke.load" -D "$TMP/noxattr" 1 \
		>"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc = 1 ] || fail "-x on ramfs: exit $rc"
	grep -q "fsetxattr user.DosAttrib on handle .* failed" "$TMP/err" ||
		fail "-x message: $(cat "$TMP/err")"
	echo "ok: $(cat "$TMP/err")"
fi
echo "all filesystem checks passed"
