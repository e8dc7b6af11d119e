# SPDX-License-Identifier: GPL-3.0-or-later
# No path can escape DIR/clients: '..', paths outside \clients and
# absolute names are refused before any client starts; symlinks planted
# in the client tree are never followed: --paths full (the default)
# refuses them, and a tree others could plant one in, before the run;
# --paths dirfd works through them (openat2 RESOLVE_BENEATH, and the
# O_NOFOLLOW component walk used on kernels without openat2).  A
# directory moved out of the tree mid-run is not followed (both modes);
# a mount inside DIR/clients is refused at start and never entered when
# made mid-run (Deltree, clean-up).  A sibling directory is snapshotted
# before and after and must not change.
. "$(dirname "$0")/../lib.sh"

D=$TMP/d
VICTIM=$TMP/victim
mkdir -p "$D" "$VICTIM/sub"
echo "precious" >"$VICTIM/file"
echo "precious too" >"$VICTIM/sub/file2"
snapshot() {
	(cd "$TMP" && find victim -printf '%p %y %s %m %T@\n' | sort &&
		cat victim/file victim/sub/file2) | md5sum
}
before=$(snapshot)
check_victim() {
	[ "$(snapshot)" = "$before" ] || fail "$1: $VICTIM changed"
}

note "hostile paths are refused at parse time, nothing created"
i=0
for p in '\clients\client1\..\..\victim\file' \
	'\clients\..\victim\file' '\victim\file' '\etc\passwd' \
	'/etc/passwd' '\clients\client1\x\..\..\..\victim' 'relative\x' \
	'\clients\client1\a\..' 'C:\clients\client1'; do
	i=$((i + 1))
	printf 'NTCreateX "\\clients\\client1" 0x1 0x2 1 NT_STATUS_OK\nUnlink "%s" 0x6 NT_STATUS_OK\n' \
		"$p" >"$TMP/h$i.load"
	"$DBNG" -t 2 -c "$TMP/h$i.load" -D "$D" 1 >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc = 2 ] || fail "hostile path $p: exit $rc, expected 2"
	grep -q "h$i.load:2: path" "$TMP/err" || fail "message: $(cat "$TMP/err")"
	[ -z "$(ls -A "$D")" ] || fail "hostile loadfile created $(ls -A "$D")"
	echo "ok: $p -> $(cat "$TMP/err")"
done
check_victim "parse-time refusal"

# a loadfile that works through a directory a symlink was planted on
cat >"$TMP/through.load" <<'X'
NTCreateX "\clients\client1\docs\file" 0x40 0x1 1 NT_STATUS_OBJECT_NAME_NOT_FOUND
NTCreateX "\clients\client1\docs\new" 0x40 0x2 2 NT_STATUS_OBJECT_NAME_NOT_FOUND
QUERY_PATH_INFORMATION "\clients\client1\docs\file" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND
FIND_FIRST "\clients\client1\docs\*" 260 1366 0 NT_STATUS_NO_SUCH_FILE
Mkdir "\clients\client1\docs\sub\newdir" NT_STATUS_OK
Rmdir "\clients\client1\docs\sub" NT_STATUS_OBJECT_NAME_NOT_FOUND
Unlink "\clients\client1\docs\file" 0x6 NT_STATUS_OBJECT_NAME_NOT_FOUND
Rename "\clients\client1\docs\file" "\clients\client1\gotcha" NT_STATUS_OBJECT_NAME_NOT_FOUND
Deltree "\clients\client1\docs" NT_STATUS_OK
Deltree "\clients\client1\link" NT_STATUS_OK
NTCreateX "\clients\client1\link" 0x40 0x5 3 NT_STATUS_OBJECT_NAME_NOT_FOUND
Unlink "\clients\client1\link" 0x6 NT_STATUS_OK
X

# --paths full names whole paths, so links already in the tree are refused
# before the run: exit 2, the link named, nothing touched
for mode in openat2 fallback; do
	note "planted symlinks, --paths full ($mode): refused"
	if [ $mode = fallback ]; then
		export DBENCH_NG_NO_OPENAT2=1
	fi
	mkdir -p "$D/clients/client0"
	ln -s "$VICTIM" "$D/clients/client0/docs"
	expect_rc 2 "$DBNG" -t 2 --warmup 0 -c "$TMP/through.load" -D "$D" 1 \
		>"$TMP/out" 2>"$TMP/err"
	grep -q "clients/client0/docs is a symbolic link: --paths full" "$TMP/err" ||
		fail "$mode: message: $(cat "$TMP/err")"
	[ ! -s "$TMP/out" ] || fail "$mode: stdout: $(cat "$TMP/out")"
	[ -L "$D/clients/client0/docs" ] || fail "$mode: the link was touched"
	[ "$(find "$D/clients" | wc -l)" = 3 ] || fail "$mode: tree changed: $(find "$D/clients")"
	check_victim "$mode refusal"
	rm -rf "$D/clients"
	echo "ok: $mode: $(cat "$TMP/err")"
done
unset DBENCH_NG_NO_OPENAT2

for mode in openat2 fallback; do
	note "planted symlinks, --paths dirfd ($mode)"
	if [ $mode = fallback ]; then
		export DBENCH_NG_NO_OPENAT2=1
	fi
	mkdir -p "$D/clients/client0"
	ln -s "$VICTIM" "$D/clients/client0/docs"
	ln -s "$VICTIM/file" "$D/clients/client0/link"
	"$DBNG" --paths dirfd -t 2 --warmup 0 --skip-cleanup -c "$TMP/through.load" -D "$D" 1 \
		>"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc = 0 ] || fail "$mode: exit $rc: $(cat "$TMP/err")"
	check_victim "$mode run through planted symlinks"
	# the link in the last component was removed itself, not its target
	[ ! -L "$D/clients/client0/link" ] || fail "the planted link survived Unlink"
	[ ! -e "$D/clients/client0/gotcha" ] || fail "Rename followed a symlink"
	# clean-up removes links, never what they point at
	ln -s "$VICTIM" "$D/clients/client0/docs2"
	"$DBNG" --paths dirfd -t 1 --warmup 0 -c "$TMP/through.load" -D "$D" 1 >/dev/null 2>&1
	check_victim "$mode clean-up"
	[ ! -e "$D/clients" ] || fail "$mode: clean-up left $(find "$D/clients")"
	echo "ok: $mode"
done
unset DBENCH_NG_NO_OPENAT2

note "--paths full: a tree others could plant a symlink in is refused"
# refused_mode WHAT PATTERN: exit 2 with PATTERN, nothing created or
# changed (DIR's listing and every mode in it as before); then --paths
# dirfd runs
refused_mode() {
	local before after
	before=$(cd "$D" && find . -printf '%p %m %u\n' | sort)
	expect_rc 2 "$DBNG" -t 1 --warmup 0 -c "$DATA/loadfiles/smoke.load" -D "$D" 1 \
		>"$TMP/out" 2>"$TMP/err"
	grep -Eq -- "$2" "$TMP/err" || fail "$1: message: $(cat "$TMP/err")"
	[ ! -s "$TMP/out" ] || fail "$1: stdout: $(cat "$TMP/out")"
	after=$(cd "$D" && find . -printf '%p %m %u\n' | sort)
	[ "$before" = "$after" ] || fail "$1: DIR changed: $(diff <(echo "$before") <(echo "$after"))"
	echo "ok: $1: $(cut -c1-160 "$TMP/err")"
	expect_rc 0 "$DBNG" --paths dirfd -t 1 --warmup 0 -c "$DATA/loadfiles/smoke.load" \
		-D "$D" 1 >/dev/null
}
mkdir -m 0777 "$D/clients"
refused_mode "DIR/clients mode 0777" "/clients is writable by group or others \(mode 0777\)"
rm -rf "$D/clients"
mkdir -p "$D/clients/client0/sub"
chmod 0775 "$D/clients/client0/sub"
refused_mode "a group-writable directory in the tree" "/clients/client0/sub is writable by group or others \(mode 0775\)"
rm -rf "$D/clients"
mkdir -p "$D/clients"
chown 65534 "$D/clients"
refused_mode "DIR/clients of another user" "/clients belongs to uid 65534"
rm -rf "$D/clients"
chmod 0777 "$D"
refused_mode "DIR writable by others" "$D is writable by group or others \(mode 0777\)"
[ ! -e "$D/clients" ] || fail "a refused DIR got a clients directory"
chmod 1777 "$D"
expect_rc 0 "$DBNG" -t 1 --warmup 0 -c "$DATA/loadfiles/smoke.load" -D "$D" 1 >/dev/null
echo "ok: a sticky DIR (mode 1777) is accepted"
chmod 0700 "$D"
(umask 0 && "$DBNG" -t 1 --warmup 0 --skip-cleanup -c "$DATA/loadfiles/smoke.load" -D "$D" 1 >/dev/null) ||
	fail "run with umask 0 failed"
w=$(find "$D/clients" -perm /022 | head -3)
[ -z "$w" ] || fail "umask 0: the clients made writable entries: $w"
rm -rf "$D/clients"
echo "ok: with umask 0 nothing the clients create is writable by others"

note "DIR/clients itself a symlink: refused"
ln -s "$VICTIM" "$D/clients"
expect_rc 2 "$DBNG" -t 1 -c "$TMP/through.load" -D "$D" 1 >/dev/null 2>"$TMP/err"
grep -q "refusing" "$TMP/err" || fail "message: $(cat "$TMP/err")"
rm "$D/clients"
check_victim "symlinked DIR/clients"

# A client held at a LockX while the test changes the tree: hold_lock
# FILE starts a process (PID in LPID) holding a POSIX write lock on FILE;
# blocked_on FILE is true once someone waits for a lock on FILE
hold_lock() {
	rm -f "$TMP/locked"
	python3 -c 'import fcntl, sys, time
f = open(sys.argv[1], "r+")
fcntl.lockf(f, fcntl.LOCK_EX)
open(sys.argv[2], "w").close()
time.sleep(300)' "$1" "$TMP/locked" &
	LPID=$!
	at_exit "kill $LPID"
	wait_until 30 test -e "$TMP/locked" || fail "no lock on $1"
}
blocked_on() {
	grep -Eq -- "-> .*:$(stat -c %i "$1") " /proc/locks
}
# held LOADFILE ARGS... -- CMD...: run dbench-ng on LOADFILE (one client,
# ARGS); once the client waits at its LockX on client0/lk, run CMD, then
# let it go; the exit status in RC
held() {
	local lf=$1 dpid
	shift
	local args=()
	while [ "$1" != -- ]; do
		args+=("$1")
		shift
	done
	shift
	mkdir -p "$D/clients/client0"
	: >"$D/clients/client0/lk"
	hold_lock "$D/clients/client0/lk"
	"$DBNG" --run-once -t 60 --warmup 0 -c "$lf" -D "$D" "${args[@]}" 1 \
		>"$TMP/out" 2>"$TMP/err" &
	dpid=$!
	DPID=$dpid
	wait_until 60 blocked_on "$D/clients/client0/lk" ||
		fail "the client never reached its LockX: $(cat "$TMP/err")"
	"$@" || fail "$*: failed"
	kill "$LPID"
	wait "$LPID"
	wait "$dpid"
	RC=$?
}

if command -v python3 >/dev/null; then
	note "a directory moved out of the tree mid-run is not followed"
	# after the move, the paths under d name nothing: no file made, none
	# removed in the moved directory (--paths dirfd had its fd cached)
	cat >"$TMP/moved.load" <<'X'
NTCreateX "\clients\client1\lk" 0x0 0x1 1 NT_STATUS_OK
Mkdir "\clients\client1\d" *
Mkdir "\clients\client1\d\e" *
NTCreateX "\clients\client1\d\a" 0x0 0x5 2 *
Close 2 *
NTCreateX "\clients\client1\d\e\a" 0x0 0x5 2 *
Close 2 *
LockX 1 0 1 NT_STATUS_OK
NTCreateX "\clients\client1\d\b" 0x0 0x5 3 *
NTCreateX "\clients\client1\d\e\b" 0x0 0x5 4 *
Unlink "\clients\client1\d\a" 0 *
Unlink "\clients\client1\d\e\a" 0 *
Mkdir "\clients\client1\d\sub" *
Mkdir "\clients\client1\d\e\sub" *
Rename "\clients\client1\d\e\a" "\clients\client1\d\e\c" *
Deltree "\clients\client1\d" *
UnlockX 1 0 1 *
Close 1 *
X
	for mode in full full-fallback dirfd dirfd-fallback; do
		unset DBENCH_NG_NO_OPENAT2
		case $mode in *fallback) export DBENCH_NG_NO_OPENAT2=1 ;; esac
		paths=full
		case $mode in dirfd*) paths=dirfd ;; esac
		rm -rf "$TMP/elsewhere"
		mkdir "$TMP/elsewhere"
		held "$TMP/moved.load" --paths $paths -- \
			mv "$D/clients/client0/d" "$TMP/elsewhere/d"
		[ "$RC" = 0 ] || fail "$mode: exit $RC: $(cat "$TMP/err")"
		got=$(cd "$TMP/elsewhere" && find . | sort | tr '\n' ' ')
		[ "$got" = ". ./d ./d/a ./d/e ./d/e/a " ] ||
			fail "$mode: the moved directory was worked in: $got"
		[ ! -e "$D/clients" ] || fail "$mode: left $(find "$D/clients")"
		echo "ok: $mode: nothing done in the moved directory"
	done
	unset DBENCH_NG_NO_OPENAT2
fi

if [ "$(id -u)" = 0 ] && command -v python3 >/dev/null; then
	note "mounts inside DIR/clients: refused at start, never crossed"
	SRC=$TMP/mounted
	mkdir -p "$SRC/sub"
	echo "mounted" >"$SRC/file"
	echo "mounted too" >"$SRC/sub/file2"
	msnap() { (cd "$1" && find . -mindepth 1 -printf '%p %y\n' | sort && cat file sub/file2) | md5sum; }
	msum=$(msnap "$SRC")
	# a mount already there (a bind mount of a directory of the same
	# filesystem): exit 2 before anything is created, in both modes
	for paths in full dirfd; do
		mkdir -p "$D/clients/client0/x/m"
		mount --bind "$SRC" "$D/clients/client0/x/m" || skip "cannot bind-mount"
		at_exit "umount -l $D/clients/client0/x/m"
		"$DBNG" --paths $paths -t 1 --warmup 0 \
			-c "$DATA/loadfiles/smoke.load" -D "$D" 1 >"$TMP/out" 2>"$TMP/err"
		rc=$?
		[ $rc = 2 ] || fail "--paths $paths: a mount inside: exit $rc, expected 2"
		[ ! -s "$TMP/out" ] || fail "--paths $paths: stdout: $(cat "$TMP/out")"
		[ "$(ls -A "$D/clients")$(ls -A "$D/clients/client0")" = client0x ] ||
			fail "--paths $paths: the refusal changed the tree: $(find "$D/clients")"
		grep -q "clients/client0/x/m is a mount point: dbench-ng never works across a mount" "$TMP/err" ||
			fail "--paths $paths: message: $(cat "$TMP/err")"
		umount "$D/clients/client0/x/m"
		[ "$(msnap "$SRC")" = "$msum" ] || fail "--paths $paths: the mounted tree changed"
		rm -rf "$D/clients"
		echo "ok: --paths $paths: $(cut -c1-150 "$TMP/err")"
	done
	# a mount made during the run: Deltree and the clean-up do not enter
	# it (what is mounted stays, with the directory it is mounted on).
	# A bind mount of the same filesystem (same st_dev: only openat2's
	# RESOLVE_NO_XDEV tells), and without openat2 a tmpfs.  Made in the
	# run's mount namespace (--paths full has one of its own, which a
	# mount made outside reaches only where / propagates: not on a host
	# whose / is private), kept alive after the run by a holder there
	HOLD=
	hold_ns() {
		local c ns
		c=$(pgrep -P "$DPID" | head -1)
		ns=$(readlink /proc/"$c"/ns/mnt)
		nsenter -t "$c" -m sleep 600 &
		HOLD=$!
		at_exit "kill $HOLD"
		wait_until 10 eval '[ "$(readlink /proc/$HOLD/ns/mnt)" = "$ns" ]'
	}
	in_run() { nsenter -t "$HOLD" -m "$@"; }
	cat >"$TMP/mount.load" <<'X'
NTCreateX "\clients\client1\lk" 0x0 0x1 1 NT_STATUS_OK
Mkdir "\clients\client1\m" *
LockX 1 0 1 NT_STATUS_OK
Deltree "\clients\client1\m" *
Deltree "\clients\client1" *
UnlockX 1 0 1 *
Close 1 *
X
	for mode in full dirfd full-fallback dirfd-fallback; do
		unset DBENCH_NG_NO_OPENAT2
		paths=full
		case $mode in dirfd*) paths=dirfd ;; esac
		m=$D/clients/client0/m
		case $mode in
		*fallback)
			export DBENCH_NG_NO_OPENAT2=1
			mnt() {
				hold_ns
				in_run mount -t tmpfs -o size=1m dbng-safety "$m" &&
					in_run cp -a "$SRC/." "$m/"
			}
			;;
		*) mnt() { hold_ns; in_run mount --bind "$SRC" "$m"; } ;;
		esac
		at_exit "umount -l $m"
		held "$TMP/mount.load" --paths $paths -- mnt
		[ "$(in_run bash -c "$(declare -f msnap); msnap $m")" = "$msum" ] ||
			fail "$mode: the mounted tree changed: $(in_run find "$m")"
		grep -q "clean-up: 1 client tree left" "$TMP/err" ||
			fail "$mode: exit $RC: $(cat "$TMP/err")"
		in_run umount "$m"
		kill $HOLD
		wait $HOLD
		[ "$(msnap "$SRC")" = "$msum" ] || fail "$mode: the bind-mounted tree changed"
		rm -rf "$D/clients"
		echo "ok: $mode: a mount made mid-run kept, exit $RC: $(tail -1 "$TMP/err")"
	done
	unset DBENCH_NG_NO_OPENAT2
fi

note "a sibling of DIR/clients is never touched"
echo keep >"$D/sibling"
mkdir "$D/otherdir"
expect_rc 0 "$DBNG" -t 2 -c "$DATA/loadfiles/smoke.load" -D "$D" 2 >/dev/null
[ "$(cat "$D/sibling")" = keep ] && [ -d "$D/otherdir" ] ||
	fail "files beside DIR/clients changed"
[ "$(ls -A "$D")" = "$(printf 'otherdir\nsibling')" ] ||
	fail "DIR has $(ls -A "$D")"
echo "all safety checks passed"
