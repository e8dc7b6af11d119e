# SPDX-License-Identifier: GPL-3.0-or-later
# The options really change what reaches the kernel (strace of one pass):
# -s opens with O_SYNC, -S fdatasyncs the directory after Unlink, Rmdir
# and Rename (also a failing one, as dbench), -F fsyncs after each write,
# --one-byte-write-fix truncates instead of writing a zero byte past EOF,
# --no-resolve drops the case-insensitive scans, --stat-check skips the
# pointless mkdir; NTCreateX looks the name up first, as dbench does, and
# truncates (disposition 5) with ftruncate(fd, 0) once fstat has shown a
# regular file with one link, never with O_TRUNC.
# All in --paths dirfd: the default, --paths full, makes dbench 4.0's very
# calls, which samecalls.sh diffs against dbench itself.
. "$(dirname "$0")/../lib.sh"

command -v strace >/dev/null || skip "strace not installed"
D=$TMP/d
mkdir -p "$D"
cat >"$TMP/s.load" <<'X'
NTCreateX "\clients\client1" 0x1 0x2 1 NT_STATUS_OK
Close 1 NT_STATUS_OK
NTCreateX "\clients\client1\f" 0x40 0x5 2 NT_STATUS_OK
WriteX 2 0 1 1 NT_STATUS_OK
WriteX 2 4096 4096 4096 NT_STATUS_OK
Close 2 NT_STATUS_OK
Rename "\clients\client1\f" "\clients\client1\g" NT_STATUS_OK
Unlink "\clients\client1\g" 0x6 NT_STATUS_OK
Unlink "\clients\client1\g" 0x6 NT_STATUS_OBJECT_NAME_NOT_FOUND
Mkdir "\clients\client1\sub" NT_STATUS_OK
Mkdir "\clients\client1\sub" NT_STATUS_OK
Rmdir "\clients\client1\sub" NT_STATUS_OK
QUERY_PATH_INFORMATION "\clients\client1\MISSING" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND
X

# trace ARGS...: one pass under strace; the trace in $TMP/trace
trace() {
	# LeakSanitizer cannot run under ptrace (a SAN=1 build)
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" strace -f -qq -o "$TMP/all" -e trace=openat,fdatasync,fsync,pwrite64,ftruncate,getdents64,mkdirat,newfstatat,fstat,memfd_create \
		"$DBNG" --paths dirfd --run-once --warmup 0 -t 60 -c "$TMP/s.load" -D "$D" "$@" 1 \
		>"$TMP/out" 2>&1 || fail "run $* failed: $(cat "$TMP/out")"
	# the parent sizes the shared memory of the slots, a memfd (shm.c):
	# not the workload's, left out (and the memfd must be there)
	awk '/ memfd_create\("dbench-ng"/ { m[$1 " " $NF] = 1; next }
	     { if (match($0, / ftruncate\([0-9]+,/)) {
		     fd = substr($0, RSTART + 11, RLENGTH - 12)
		     if (($1 " " fd) in m) { seen = 1; next }
	       }
	       print }
	     END { exit !seen }' "$TMP/all" >"$TMP/trace" ||
		fail "no memfd of the slots sized: $(grep memfd "$TMP/all")"
	grep -q "Unexpected results" "$TMP/out" && fail "unexpected results with $*"
	return 0
}
count() { grep -c -- "$1" "$TMP/trace" || true; }

trace
base_sync=$(count 'O_SYNC')
base_fdatasync=$(count 'fdatasync(')
base_fsync=$(count ' fsync(')
base_pwrite=$(count 'pwrite64(')
base_trunc=$(grep -Ec -- 'ftruncate\([0-9]+, [1-9]' "$TMP/trace" || true)
base_dents=$(count 'getdents64(')
base_mkdir=$(count 'mkdirat(')
[ "$base_sync$base_fdatasync$base_fsync$base_trunc" = 0000 ] ||
	fail "plain run: O_SYNC $base_sync fdatasync $base_fdatasync fsync $base_fsync ftruncate $base_trunc"
[ "$base_pwrite" = 2 ] || fail "plain run: $base_pwrite pwrites, expected 2"
# NTCreateX of the new file: looked up first (a miss, then a scan)
grep -Eq 'newfstatat\([0-9]+, "f", .*ENOENT' "$TMP/trace" ||
	fail "NTCreateX did not look the name up first"
# disposition 5: no O_TRUNC; the open, its fstat, then ftruncate(fd, 0)
! grep -q O_TRUNC "$TMP/trace" || fail "an open with O_TRUNC: $(grep O_TRUNC "$TMP/trace")"
awk '/openat\([0-9]+, "f", O_RDWR\|O_CREAT/ { fd = $NF; k = 1; next }
	k == 1 { k = /(fstat|newfstatat)\(/ && index($0, "(" fd ",") ? 2 : 0; next }
	k == 2 { if (index($0, "ftruncate(" fd ", 0)")) ok = 1; k = 0 }
	END { exit !ok }' "$TMP/trace" ||
	fail "NTCreateX disposition 5: not open, fstat, ftruncate: $(grep -A2 '"f", O_RDWR' "$TMP/trace")"
[ "$(count 'ftruncate([0-9]*, 0)')" = 1 ] || fail "plain run: $(count 'ftruncate(') ftruncate"
echo "ok: plain: 2 pwrite, $base_dents getdents64, $base_mkdir mkdirat"

trace -s
[ "$(count 'O_RDWR.*O_SYNC')" -ge 1 ] || fail "-s: no O_SYNC open"
echo "ok: -s opens files with O_SYNC"

trace -S
n=$(count 'fdatasync(')
[ "$n" = 4 ] || fail "-S: $n fdatasync calls, expected 4 (Rename, 2 Unlink, Rmdir)"
echo "ok: -S: 4 directory fdatasyncs"

trace -F
n=$(count ' fsync(')
[ "$n" = 2 ] || fail "-F: $n fsync calls, expected 2"
echo "ok: -F: an fsync after each of the 2 writes"

trace --one-byte-write-fix
[ "$(grep -Ec 'ftruncate\([0-9]+, 1\)' "$TMP/trace")" = 1 ] || fail "--one-byte-write-fix: no ftruncate"
[ "$(count 'pwrite64(')" = 1 ] || fail "--one-byte-write-fix: the zero byte was written"
echo "ok: --one-byte-write-fix truncates instead of writing"

trace --no-resolve
n=$(count 'getdents64(')
[ "$n" -lt "$base_dents" ] || fail "--no-resolve: $n getdents64, plain $base_dents"
echo "ok: --no-resolve: $n getdents64 instead of $base_dents"

trace --stat-check
n=$(count 'mkdirat(')
[ "$n" -lt "$base_mkdir" ] || fail "--stat-check: $n mkdirat, plain $base_mkdir"
echo "ok: --stat-check: $n mkdirat instead of $base_mkdir"
echo "all syscall checks passed"
