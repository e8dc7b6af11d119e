# SPDX-License-Identifier: GPL-3.0-or-later
# By default dbench-ng asks the kernel for the very work dbench 4.0 asks
# for: one dbench 4.0 client and one dbench-ng client run the same loadfile
# under strace on a private tmpfs, each stream is normalised by
# strace-norm.awk (exactly the differences docs/compat.md lists under "The
# system calls") and the two are diffed: no difference is allowed.  The
# first 50,000 lines of client.txt plainly, the first 6,000 with each
# option that changes the calls, and a loadfile of our own with the ops
# and paths client.txt lacks (Rmdir, a nested Deltree, a directory opened
# as a file, a case-only match, \clients itself, dispositions 4 and 5 on
# a new and on a non-empty file).  Then the comparison is
# shown to fail where the calls do differ (--paths dirfd).
. "$(dirname "$0")/../lib.sh"

command -v strace >/dev/null || skip "strace not installed"
[ -x /usr/bin/dbench ] && [ -r "$CLIENT_TXT" ] ||
	skip "dbench 4.0 not installed (apt-get install dbench)"
need_root "a private tmpfs"
M=$TMP/m
mkdir -p "$M"
mount -t tmpfs -o size=2g dbng-samecalls "$M" || skip "cannot mount a tmpfs"
at_exit "umount -l $M"
umask 022
# LeakSanitizer cannot run under ptrace (a SAN=1 build)
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"
NORM=$ROOT/tests/cli/strace-norm.awk
END='QUERY_PATH_INFORMATION "\clients\client1\dbench-trace-end" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND'

# first N: the first N lines of client.txt and the end marker, in $TMP
first() {
	{
		head -n "$1" "$CLIENT_TXT"
		echo "$END"
	} >"$TMP/first$1.load"
	echo "$TMP/first$1.load"
}

# marker_in OUT: a trace file OUT.PID has the end marker (the glob is
# expanded anew at each try: the files appear as dbench forks)
marker_in() {
	grep -qs dbench-trace-end "$1".[0-9]*
}

# trace_dbench LOADFILE DIR OUT ARGS...: one dbench 4.0 client under
# strace -ff (files OUT.PID) until it has run the end marker; then its
# processes are stopped by PID.  DIR/clients is made first, as dbench-ng
# makes it before its clients start (docs/compat.md).
trace_dbench() {
	local lf=$1 dir=$2 out=$3 f
	shift 3
	mkdir -p "$dir/clients"
	strace -ff -qq -o "$out" /usr/bin/dbench -t 1000 -c "$lf" -D "$dir" \
		"$@" 1 >"$out.log" 2>&1 &
	local spid=$!
	at_exit "kill $spid"
	wait_until 400 marker_in "$out" ||
		fail "dbench $* never reached the end marker: $(tail -3 "$out.log")"
	for f in "$out".*; do
		kill "${f##*.}" 2>/dev/null
	done
	wait "$spid"
	grep -q "ERROR" "$out.log" && fail "dbench $*: $(grep -m3 ERROR "$out.log")"
	return 0
}

# trace_ng LOADFILE DIR OUT ARGS...: one pass of one dbench-ng client
trace_ng() {
	local lf=$1 dir=$2 out=$3
	shift 3
	mkdir -p "$dir"
	# shellcheck disable=SC2086
	strace -ff -qq -o "$out" "$DBNG" --run-once --warmup 0 -t 1000 \
		-c "$lf" -D "$dir" "$@" ${NG_EXTRA:-} 1 >"$out.log" 2>&1 ||
		fail "dbench-ng $* failed: $(tail -3 "$out.log")"
	! grep -q "Unexpected" "$out.log" ||
		fail "dbench-ng $*: $(grep -A3 Unexpected "$out.log")"
}

# streams NAME LOADFILE ARGS...: trace both (dbench-ng also with
# $NG_EXTRA), normalise both into $TMP/NAME.db and $TMP/NAME.ng (the calls
# only; $TMP/NAME.dbl keeps dbench's loadfile line of each call)
streams() {
	local name=$1 lf=$2 d n
	shift 2
	trace_dbench "$lf" "$M/$name-db" "$TMP/$name-db" "$@"
	trace_ng "$lf" "$M/$name-ng" "$TMP/$name-ng" "$@"
	d=$(grep -l '^kill(' "$TMP/$name-db".[0-9]* | head -1)
	n=$(grep -l '"clients/client0"' "$TMP/$name-ng".[0-9]* | head -1)
	[ -n "$d" ] && [ -n "$n" ] || fail "$name: no client trace"
	grep -q dbench-trace-end "$n" || fail "$name: dbench-ng never ran the end marker"
	awk -v side=dbench -v dir="$M/$name-db" -v lf="$lf" -f "$NORM" "$d" \
		>"$TMP/$name.dbl"
	awk -v side=ng -v dir=- -v lf=- -f "$NORM" "$n" | cut -f2- >"$TMP/$name.ng"
	cut -f2- "$TMP/$name.dbl" >"$TMP/$name.db"
	rm -rf "$M/$name-db" "$M/$name-ng" "$TMP/$name-db".* "$TMP/$name-ng".*
}

# same NAME LOADFILE MIN ARGS...: the streams are identical, and at least
# MIN calls long
same() {
	local name=$1 lf=$2 min=$3 at line
	shift 3
	streams "$name" "$lf" "$@"
	if ! cmp -s "$TMP/$name.db" "$TMP/$name.ng"; then
		at=$(diff "$TMP/$name.db" "$TMP/$name.ng" | head -1 | grep -Eo '^[0-9]+')
		line=$(sed -n "${at}p" "$TMP/$name.dbl" | cut -f1)
		echo "first difference at call $at, loadfile line $line:"
		sed -n "${line}p" "$lf"
		diff "$TMP/$name.db" "$TMP/$name.ng" | head -20
		fail "$name ($*): dbench-ng's calls differ from dbench 4.0's"
	fi
	n=$(wc -l <"$TMP/$name.ng")
	[ "$n" -ge "$min" ] || fail "$name: only $n calls compared (expected >= $min)"
	echo "ok: $name ($*): $n calls identical over $(tail -1 "$TMP/$name.dbl" | cut -f1) loadfile lines"
}

note "client.txt, first 50,000 lines, default options"
same plain "$(first 50000)" 100000

note "each option that changes the calls, first 6,000 lines"
F6=$(first 6000)
for opt in -s -S -F -x --stat-check --no-resolve --one-byte-write-fix --fake-io; do
	same "opt${opt//-/_}" "$F6" 8000 "$opt"
done
same "opt_all" "$F6" 10000 -s -S -F -x --stat-check --one-byte-write-fix

note "ops and paths client.txt lacks"
cat >"$TMP/edge.load" <<X
Deltree "\\clients\\client1" NT_STATUS_OK
Mkdir "\\clients" NT_STATUS_OK
NTCreateX "\\clients\\client1" 0x1 0x2 1 NT_STATUS_OK
Close 1 NT_STATUS_OK
QUERY_PATH_INFORMATION "\\clients" 1004 NT_STATUS_OK
Mkdir "\\clients\\client1\\a" NT_STATUS_OK
Mkdir "\\clients\\client1\\a\\b" NT_STATUS_OK
NTCreateX "\\clients\\client1\\a\\b\\one" 0x40 0x5 2 NT_STATUS_OK
WriteX 2 0 4096 4096 NT_STATUS_OK
WriteX 2 8191 1 1 NT_STATUS_OK
Close 2 NT_STATUS_OK
NTCreateX "\\clients\\client1\\a\\b\\one" 0x40 0x5 7 NT_STATUS_OK
WriteX 7 0 10 10 NT_STATUS_OK
Close 7 NT_STATUS_OK
NTCreateX "\\clients\\client1\\a\\b\\one" 0x40 0x4 8 NT_STATUS_OK
Close 8 NT_STATUS_OK
NTCreateX "\\clients\\client1\\a\\Two" 0x40 0x2 3 NT_STATUS_OK
SET_FILE_INFORMATION 3 1004 NT_STATUS_OK
QUERY_FILE_INFORMATION 3 1004 NT_STATUS_OK
Close 3 NT_STATUS_OK
NTCreateX "\\clients\\client1\\a" 0x0 0x1 4 NT_STATUS_OK
SET_FILE_INFORMATION 4 1004 NT_STATUS_OK
Close 4 NT_STATUS_OK
NTCreateX "\\clients\\client1\\a\\b" 0x1 0x1 5 NT_STATUS_OK
Close 5 NT_STATUS_OK
FIND_FIRST "\\clients\\client1\\a\\*" 260 2 0 NT_STATUS_OK
FIND_FIRST "\\clients\\client1\\a\\<.*" 260 0 0 NT_STATUS_OK
QUERY_PATH_INFORMATION "\\clients\\client1\\a\\two" 1004 NT_STATUS_OK
Rename "\\clients\\client1\\a\\Two" "\\clients\\client1\\a\\b\\three" NT_STATUS_OK
Rename "\\clients\\client1\\missing" "\\clients\\client1\\x" NT_STATUS_OBJECT_NAME_NOT_FOUND
NTCreateX "\\clients\\client1\\a\\b\\none" 0x40 0x1 6 NT_STATUS_OBJECT_NAME_NOT_FOUND
Unlink "\\clients\\client1\\a\\b\\three" 0x6 NT_STATUS_OK
Rmdir "\\clients\\client1\\a\\b" NT_STATUS_DIRECTORY_NOT_EMPTY
Deltree "\\clients\\client1\\a" NT_STATUS_OK
Rmdir "\\clients\\client1\\a\\b" NT_STATUS_OK
Rmdir "\\clients\\client1\\a" NT_STATUS_OK
QUERY_FS_INFORMATION 1 NT_STATUS_OK
$END
X
for args in "" -S --stat-check -x "-S --stat-check -x --no-resolve"; do
	# shellcheck disable=SC2086
	same "edge${args// /}" "$TMP/edge.load" 60 $args
done

note "the truncation rewrite is exactly open, fstat, ftruncate(fd, 0)"
# dbench-ng's stream of NTCreateX disposition 5 becomes dbench's; any
# other sequence (another length, a call between, a failed ftruncate, an
# open without O_CREAT) is left as it is
rew() {
	printf '%s\n' "$@" | awk -v side=ng -v dir=- -v lf=- -f "$NORM" | cut -f2-
}
O='openat2(AT_FDCWD, "clients/client0/f", {flags=O_RDWR|O_CREAT, mode=0600, resolve=RESOLVE_NO_SYMLINKS|RESOLVE_NO_MAGICLINKS}, 24) = 3'
S='newfstatat(3, "", {st_mode=S_IFREG|0600, st_size=8192, ...}, AT_EMPTY_PATH) = 0'
start='newfstatat(AT_FDCWD, "clients/client0", {st_mode=S_IFDIR|0755, st_size=60, ...}, AT_SYMLINK_NOFOLLOW) = 0'
got=$(rew "$start" "$O" "$S" 'ftruncate(3, 0) = 0' 'close(3) = 0')
want=$(printf '%s\n' 'newfstatat(AT_FDCWD, "clients/client0", {st_mode=S_IFDIR|0755, st_size=60, ...}, 0) = 0' \
	'openat(AT_FDCWD, "clients/client0/f", O_RDWR|O_CREAT|O_TRUNC, 0600) = F1' \
	'newfstatat(F1, "", {st_mode=S_IFREG|0600, st_size=0, ...}, AT_EMPTY_PATH) = 0' 'close(F1) = 0')
[ "$got" = "$want" ] || fail "the rewrite: $(diff <(echo "$want") <(echo "$got"))"
for case in "ftruncate(3, 1) = 0" "ftruncate(3, 0) = -1 EIO (Input/output error)" \
	"fgetxattr(3, \"user.DosAttrib\", 0xabcdef0, 44) = -1 ENODATA"; do
	rew "$start" "$O" "$S" "$case" | grep -q O_TRUNC &&
		fail "rewritten although followed by $case"
done
rew "$start" "$O" 'pread64(3, "", 1, 0) = 0' 'ftruncate(3, 0) = 0' | grep -q O_TRUNC &&
	fail "rewritten with a call between the open and the fstat"
rew "$start" "${O/O_CREAT/O_EXCL}" "$S" 'ftruncate(3, 0) = 0' | grep -q O_TRUNC &&
	fail "rewritten without O_CREAT"
echo "ok: the truncation rewrite is strict"

note "the comparison fails where the calls differ"
# dbench-ng with --no-resolve against plain dbench: the scans of missing
# names are missing
NG_EXTRA=--no-resolve streams mutant "$(first 2000)"
missing=$(diff "$TMP/mutant.db" "$TMP/mutant.ng" | grep -c '^<' || true)
scans=$(grep -c '^getdents64' "$TMP/mutant.db")
[ "$missing" -gt 100 ] ||
	fail "--no-resolve against plain dbench: $missing calls differ (the test cannot see a change)"
[ "$(grep -c '^getdents64' "$TMP/mutant.ng")" -lt "$scans" ] ||
	fail "--no-resolve: as many getdents64 as dbench's $scans"
echo "ok: seen to fail: dbench-ng --no-resolve lacks $missing of dbench's calls"
# --paths dirfd names no whole path at all
NG_EXTRA="--paths dirfd" trace_ng "$(first 2000)" "$M/dirfd" "$TMP/dirfd"
n=$(grep -l 'client0' "$TMP/dirfd".[0-9]* | head -1)
! grep -q '"clients/client0/' "$n" || fail "--paths dirfd named whole paths"
grep -Eq '^[a-z0-9]+\([0-9]+, "client0' "$n" ||
	fail "--paths dirfd: no call relative to a directory fd: $(grep -m3 client0 "$n")"
echo "ok: --paths dirfd works relative to directory fds"
