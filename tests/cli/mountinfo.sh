# SPDX-License-Identifier: GPL-3.0-or-later
# The environment capture (src/env.c) against the kernel, on real mounts
# (root only, otherwise skipped): tmpfs on a path with a space, a stacked
# over-mount, loop-mounted ext4 and btrfs (with a subvolume, and the
# subvolume mounted on its own).  A small driver, tests/cli/envprobe.c,
# built here, prints what env_capture() records; it must agree with uname,
# /proc, findmnt, stat -f and df.  Every mount is undone on every exit path.
. "$(dirname "$0")/../lib.sh"

need_root "mounting filesystems"
command -v findmnt >/dev/null || skip "findmnt (util-linux) not installed"

PROBE=$ROOT/build/tests/cli/envprobe
[ -x "$PROBE" ] || fail "$PROBE not built (make check builds it)"

# probe DIR: run the driver on DIR into $TMP/probe
probe() {
	"$PROBE" "$1" >"$TMP/probe" 2>"$TMP/probe.err" ||
		fail "envprobe $1: $(cat "$TMP/probe.err")"
}
# val KEY: a field of the last probe
val() { sed -n "s/^$1=//p" "$TMP/probe"; }
# same LABEL GOT WANT
same() { [ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"; }
# near LABEL GOT WANT: within 1 %
near() {
	awk -v a="$2" -v b="$3" 'BEGIN { d = a - b; if (d < 0) d = -d;
		exit !(b > 0 && d <= b / 100) }' ||
		fail "$1: got $2, expected $3 (1 %)"
}

# fm COLUMN: findmnt's COLUMN for the mount holding $real (it lists every
# mount stacked there, the top one last)
fm() { findmnt -n -v -o "$1" -T "$real" | tail -1; }

# check DIR LABEL [TYPE]: the filesystem fields of DIR against findmnt,
# stat -f and df (and its type against TYPE)
check() {
	local dir=$1 label=$2 type=${3:-} real t size avail
	probe "$dir"
	real=$(readlink -f "$dir")
	same "$label dir" "$(val dir)" "$dir"
	same "$label dir_real" "$(val dir_real)" "$real"
	same "$label fs_type" "$(val fs_type)" "$(fm FSTYPE)"
	[ -z "$type" ] || same "$label fs_type" "$(val fs_type)" "$type"
	same "$label fs_device" "$(val fs_device)" "$(fm SOURCE)"
	same "$label fs_mount_point" "$(val fs_mount_point)" "$(fm TARGET)"
	same "$label fs_options" "$(val fs_options)" \
		"$(fm VFS-OPTIONS) | $(fm FS-OPTIONS)"
	# the kernel's word on which mount it is (not for btrfs: see below)
	[ "$(val fs_type)" = btrfs ] ||
		same "$label st_dev" "$(val mi_dev)" "$(val st_dev)"
	# stat -f names ext2/3/4 by their common magic number
	t=$(stat -f -c %T "$real")
	[ "$t" = "$(val fs_type)" ] ||
		{ [ "$t" = ext2/ext3 ] && [ "$(val fs_type)" = ext4 ]; } ||
		fail "$label: stat -f says $t, env says $(val fs_type)"
	# statvfs: blocks * fragment size exactly, df within 1 %
	same "$label fs_size_bytes" "$(val fs_size_bytes)" \
		"$(stat -f -c '%b %S' "$real" | awk '{ printf "%.0f", $1 * $2 }')"
	read -r size avail < <(df -B1 --output=size,avail "$real" | tail -1)
	near "$label fs_size_bytes (df)" "$(val fs_size_bytes)" "$size"
	near "$label fs_free_bytes (df)" "$(val fs_free_bytes)" "$avail"
	echo "ok: $label: $(val fs_type) $(val fs_device) on" \
		"'$(val fs_mount_point)' [$(val fs_options)]" \
		"$(val fs_size_bytes)/$(val fs_free_bytes) B," \
		"st_dev $(val st_dev), mountinfo $(val mi_dev) root $(val mi_root)"
}

note "host"
probe /
same hostname "$(val hostname)" "$(uname -n)"
same kernel "$(val kernel)" "$(uname -r)"
same kernel_version "$(val kernel_version)" "$(uname -v)"
same machine "$(val machine)" "$(uname -m)"
same cpus "$(val cpus)" "$(getconf _NPROCESSORS_ONLN)"
same mem_bytes "$(val mem_bytes)" \
	"$(awk '/^MemTotal:/ { printf "%.0f", $2 * 1024 }' /proc/meminfo)"
model=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo | head -1)
model=${model%"${model##*[! ]}"} # trailing blanks
[ -z "$model" ] || same cpu_model "$(val cpu_model)" "$model"
echo "ok: $(val hostname) $(val kernel) $(val machine)," \
	"$(val cpus) x '$(val cpu_model)', $(val mem_bytes) B"
check / root

note "unresolvable directories"
"$PROBE" "$TMP/missing/dir" >"$TMP/out" 2>"$TMP/err" &&
	fail "missing dir: exit 0"
grep -q "missing/dir: No such file or directory" "$TMP/err" ||
	fail "missing dir: $(cat "$TMP/err")"
echo "ok: $(cat "$TMP/err")"

note "tmpfs on a path with a space, an over-mount"
T="$TMP/tmp fs"
mkdir -p "$T"
mount -t tmpfs -o size=64M,mode=0755 dbng-one "$T" || fail "mount tmpfs"
at_exit "umount -l '$T'"
mkdir "$T/sub"
ln -s "$T/sub" "$TMP/link"
check "$T" tmpfs tmpfs
check "$TMP/link" "tmpfs via a symlink" tmpfs
same "tmpfs source" "$(val fs_device)" dbng-one
same "tmpfs size" "$(val fs_size_bytes)" $((64 << 20))
mount -t tmpfs -o size=32M,noexec dbng-two "$T" || fail "mount tmpfs over"
at_exit "umount -l '$T'"
check "$T" "tmpfs over-mount" tmpfs
same "over-mount source" "$(val fs_device)" dbng-two
same "over-mount size" "$(val fs_size_bytes)" $((32 << 20))
case $(val fs_options) in *noexec*" | "*) ;;
*) fail "over-mount options: $(val fs_options)" ;;
esac
umount "$T" || fail "umount the over-mount"
probe "$T"
same "uncovered source" "$(val fs_device)" dbng-one
umount "$T" || fail "umount tmpfs"

note "ext4"
mount_fs ext4 512M
mkdir "$MNT/sub"
check "$MNT/sub" ext4 ext4
same "ext4 device" "$(val fs_device)" "$MNT_DEV"
same "ext4 mount point" "$(val fs_mount_point)" "$MNT"
mount -o remount,noatime "$MNT" || fail "remount noatime"
check "$MNT" "ext4 noatime" ext4
case $(val fs_options) in *noatime*" | "*) ;;
*) fail "ext4 remount: $(val fs_options)" ;;
esac
# a run records the filesystem as the user sees it, not the bind of DIR
# (nosymfollow) it makes in a mount namespace of its own for --paths full
"$DBNG" -c builtin:netbench -t 1 --warmup 0 -D "$MNT/sub" \
	--json "$TMP/run.json" 1 >"$TMP/run.out" 2>&1 ||
	fail "run on ext4: $(tail -5 "$TMP/run.out")"
real=$(readlink -f "$MNT/sub")
got=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))["environment"]["directory"]
print(d["mount_point"] + "|" + d["mount_options"])' "$TMP/run.json")
same "run's mount point and options" "$got" \
	"$MNT|$(fm VFS-OPTIONS) | $(fm FS-OPTIONS)"
echo "ok: the run's JSON: ${got%%|*} [${got#*|}]"
unmount_fs

note "btrfs"
mount_fs btrfs 512M
check "$MNT" btrfs btrfs
same "btrfs device" "$(val fs_device)" "$MNT_DEV"
if command -v btrfs >/dev/null; then
	btrfs -q subvolume create "$MNT/sv" >/dev/null || fail "subvolume create"
	mkdir "$MNT/sv/d"
	check "$MNT/sv/d" "btrfs subvolume" btrfs
	same "subvolume mount point" "$(val fs_mount_point)" "$MNT"
	[ "$(val st_dev)" != "$(val mi_dev)" ] &&
		echo "note: a subvolume's st_dev $(val st_dev) is not in" \
			"mountinfo (the mount shows $(val mi_dev))"
	mkdir "$TMP/svmnt"
	mount -o subvol=sv "$MNT_DEV" "$TMP/svmnt" || fail "mount subvol=sv"
	at_exit "umount -l $TMP/svmnt"
	check "$TMP/svmnt/d" "btrfs subvol=sv" btrfs
	same "subvol mount point" "$(val fs_mount_point)" "$TMP/svmnt"
	same "subvol root" "$(val mi_root)" /sv
	case $(val fs_options) in *" | "*subvol=/sv*) ;;
	*) fail "subvol options: $(val fs_options)" ;;
	esac
	umount "$TMP/svmnt" || fail "umount subvol"
else
	echo "note: no btrfs tool, subvolumes not checked"
fi
unmount_fs

echo "all mountinfo checks passed"
