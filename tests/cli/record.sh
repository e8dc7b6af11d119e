# SPDX-License-Identifier: GPL-3.0-or-later
# dbench-ng record --from-strace (docs/record.md): strace a small program
# of known file-system calls (tests/cli/recwork.c), convert the log, and
# check the loadfile's operations one by one against what the program
# did; replay it once with one client on a tmpfs and check that every op
# ran as often as recorded, with the status the trace saw, and that the
# replay makes the reads, writes and fsyncs the program made (counted by
# strace -y, both times); strace a shell script and find each of its
# calls, and replay it.  Then a log of strace -f -tt -T -e
# trace=file,desc (no -y), and hostile logs and options: LOG:LINE, exit 2, no file
# written.
. "$(dirname "$0")/../lib.sh"

need_root "a tmpfs for the replay"
command -v strace >/dev/null ||
	skip "strace is not installed (scripts/install-deps.sh check)"
PROBE=$ROOT/build/tests/cli/recwork
[ -x "$PROBE" ] || fail "$PROBE not built (make check builds it)"
MNT=$TMP/mnt
mkdir -p "$MNT" "$TMP/w"
# strace ARGS: LeakSanitizer (SAN=1) cannot run under ptrace
st() { ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace "$@"; }
mount -t tmpfs -o size=64m tmpfs "$MNT" || skip "cannot mount a tmpfs"
at_exit "umount -l $MNT"

# the operations of the recorded calls (after the set-up), by keyword
ops() {
	sed -n '/^# the recorded calls/,/^# end of the recorded calls/p' "$1" |
		grep -v '^#' | awk '{ n[$2]++ } END { for (k in n) print k, n[k] }' |
		sort
}
expect_ops() {
	local got
	got=$(ops "$1")
	[ "$got" = "$2" ] || fail "$1: operations
$got
expected
$2"
}
# what recwork 5 does, as NetBench operations: 5 files created, written
# in 3 blocks, fsync'ed, fstat'ed; opened again, read 3 times; f0 opened
# for ftruncate (Sfileinfo) and a lock; a stat, a statfs, a listing (the
# directory's open and close become the FIND_FIRST), a rename, 5
# unlinks, a failed open, an rmdir
WANT="Close 11
FIND_FIRST 1
Flush 5
LockX 1
Mkdir 1
NTCreateX 12
QUERY_FILE_INFORMATION 5
QUERY_FS_INFORMATION 1
QUERY_PATH_INFORMATION 1
ReadX 15
Rename 1
Rmdir 1
SET_FILE_INFORMATION 1
Unlink 5
UnlockX 1
WriteX 15"

note "1. strace -f -tt -T -y of recwork, relative paths"
(cd "$TMP/w" && st -f -tt -T -y -e trace=file,desc -o "$TMP/log" \
	"$PROBE" .) || fail "recwork under strace failed"
expect_rc 0 "$DBNG" record --from-strace "$TMP/log" --root "$TMP/w" \
	-o "$TMP/w.load" 2>"$TMP/err"
cat "$TMP/err"
expect_ops "$TMP/w.load" "$WANT"
grep -q '^[0-9.]* NTCreateX "\\clients\\client1\\sub\\missing0" 0x40 0x1 [0-9]* NT_STATUS_OBJECT_NAME_NOT_FOUND$' \
	"$TMP/w.load" || fail "the failed open is not an NTCreateX expecting NOT_FOUND"
grep -q '^[0-9.]* NTCreateX "\\clients\\client1\\sub\\f0" 0x40 0x5 1 NT_STATUS_OK$' \
	"$TMP/w.load" || fail "O_CREAT|O_TRUNC is not disposition 5"
grep -q '^[0-9.]* ReadX [0-9]* 4096 4096 4096 NT_STATUS_OK$' "$TMP/w.load" ||
	fail "no pread at 4096"
grep -q '^[0-9.]* LockX [0-9]* 0 100 NT_STATUS_OK$' "$TMP/w.load" ||
	fail "no LockX of 0+100"
grep -q '^[0-9.]* SET_FILE_INFORMATION [0-9]* 1020 NT_STATUS_OK$' \
	"$TMP/w.load" || fail "ftruncate is not Sfileinfo level 1020"
grep -q 'operations (' "$TMP/err" || fail "no summary on stderr"
grep -q "log:[0-9]*: .* of /.*: outside --root $TMP/w, not recorded" \
	"$TMP/err" || fail "no path outside --root named with LOG:LINE"

note "1b. --anonymize: the same operations, no name left, stable hashes"
expect_rc 0 "$DBNG" record --from-strace "$TMP/log" --root "$TMP/w" \
	--anonymize -o "$TMP/a.load" 2>"$TMP/aerr"
expect_ops "$TMP/a.load" "$WANT"
# no name of the recorded tree (recwork's sub, f0, missing0) or of the
# root survives, in a path or in the header
for n in sub f0 missing0 "$TMP"; do
	grep -F -q -- "$n" "$TMP/a.load" && fail "--anonymize left '$n' in: $(grep -F -- "$n" "$TMP/a.load" | head -2)"
done
# the paths keep their depth: each op line's path has as many
# components as the plain recording's line of the same number
paths() { awk '!/^#/ && $3 ~ /^"/ { print gsub(/\\/, "&", $3) }' "$1"; }
[ "$(paths "$TMP/w.load")" = "$(paths "$TMP/a.load")" ] ||
	fail "--anonymize changed the depth of paths"
# stable: a second conversion gives the same file
expect_rc 0 "$DBNG" record --from-strace "$TMP/log" --root "$TMP/w" \
	--anonymize -o "$TMP/a2.load" 2>/dev/null
cmp -s "$TMP/a.load" "$TMP/a2.load" || fail "--anonymize is not stable"
echo "ok: --anonymize: $(grep -c . "$TMP/a.load") lines, e.g. $(grep -m1 NTCreateX "$TMP/a.load")"

note "2. replay once on tmpfs, every op as often as recorded, none failing"
# what reaches the kernel on files of the tree, both times: the calls
# and the bytes of each family (strace -y names each descriptor's file)
st -f -y -e trace=pwrite64,pread64,write,read,fsync -o "$TMP/c.rec" \
	"$PROBE" "$TMP/w" || fail "recwork under strace failed"
expect_rc 0 st -f -y -e trace=pwrite64,pread64,write,read,fsync \
	-o "$TMP/c.rep" "$DBNG" -c "$TMP/w.load" -D "$MNT" --run-once \
	--no-resolve --json "$TMP/r.json" 1 >"$TMP/out" 2>"$TMP/rerr"
[ ! -s "$TMP/rerr" ] || fail "the replay said: $(cat "$TMP/rerr")"
python3 - "$TMP/r.json" "$TMP/w.load" <<'PY' || fail "replayed counts differ"
import json, sys
d = json.load(open(sys.argv[1]))
label = {"QUERY_PATH_INFORMATION": "Qpathinfo",
         "QUERY_FILE_INFORMATION": "Qfileinfo",
         "QUERY_FS_INFORMATION": "Qfsinfo", "SET_FILE_INFORMATION":
         "Sfileinfo", "FIND_FIRST": "Find"}
want = {}
for l in open(sys.argv[2]):
    t = l.split()
    if not t or t[0].startswith("#"):
        continue
    k = t[1] if t[0][0].isdigit() else t[0]
    want[label.get(k, k)] = want.get(label.get(k, k), 0) + 1
got = {o["name"]: o["count"] for o in d["ops"] if o["count"]}
bad = {o["name"]: o["errors"] for o in d["ops"] if o["errors"]}
assert got == want, (got, want)
assert not bad and not d["errors"], (bad, d["errors"])
print("ok: replayed", sum(got.values()), "ops as recorded, none failed")
PY
python3 - "$TMP/c.rec" "$TMP/w/sub/" "$TMP/c.rep" "$MNT/clients/" <<'PY' ||
import re, sys
def families(log, under):
    n = {"read": [0, 0], "write": [0, 0], "fsync": [0, 0]}
    call = re.compile(r'^\d+ +(\w+)\(\d+<([^>]*)>.*\) += (\d+)')
    for l in open(log):
        m = call.match(l)
        if not m or not m.group(2).startswith(under):
            continue
        f = {"pread64": "read", "pwrite64": "write"}.get(m.group(1),
                                                          m.group(1))
        n[f][0] += 1
        n[f][1] += int(m.group(3)) if f != "fsync" else 0
    return n
rec = families(sys.argv[1], sys.argv[2])
rep = families(sys.argv[3], sys.argv[4])
print("recwork:", rec, "replay:", rep)
assert rec == {"read": [15, 61440], "write": [15, 61440],
               "fsync": [5, 0]}, rec
assert rep == rec, "the replay's calls differ from recwork's"
PY
	fail "the replay's reads, writes and fsyncs differ from recwork's"

note "2b. a shell script: each of its calls found, replayed once without a failure"
mkdir -p "$TMP/s"
(cd "$TMP/s" && st -f -tt -T -y -e trace=file,desc -o "$TMP/slog" sh -c 'mkdir d
echo hello >d/a.txt
cat d/a.txt >/dev/null
mv d/a.txt d/b.txt
ls d >/dev/null
echo more >>d/b.txt
rm d/b.txt
rmdir d') || fail "the script under strace failed"
expect_rc 0 "$DBNG" record --from-strace "$TMP/slog" --root "$TMP/s" \
	-o "$TMP/s.load" 2>/dev/null
has() {
	[ "$(grep -c "^[0-9.]* $1\$" "$TMP/s.load")" = "${2:-1}" ] ||
		fail "not ${2:-1} line(s) '$1' in the loadfile:
$(grep -v '^#' "$TMP/s.load")"
}
C='\\clients\\client1'
has "Mkdir \"$C\\\\d\" NT_STATUS_OK"
has "NTCreateX \"$C\\\\d\\\\a.txt\" 0x40 0x5 [0-9]* NT_STATUS_OK"
has "WriteX [0-9]* 0 6 6 NT_STATUS_OK"
has "NTCreateX \"$C\\\\d\\\\a.txt\" 0x40 0x1 [0-9]* NT_STATUS_OK"
has "ReadX [0-9]* 0 [0-9]* 6 NT_STATUS_OK"
has "Rename \"$C\\\\d\\\\a.txt\" \"$C\\\\d\\\\b.txt\" NT_STATUS_OK"
has "FIND_FIRST \"$C\\\\d\\\\\\*\" 260 1000000 [0-9]* NT_STATUS_OK"
# >> is O_APPEND: the write lands at the end the trace knows (6 bytes)
has "NTCreateX \"$C\\\\d\\\\b.txt\" 0x40 0x2 [0-9]* NT_STATUS_OK"
has "WriteX [0-9]* 6 5 5 NT_STATUS_OK"
has "Unlink \"$C\\\\d\\\\b.txt\" 0x6 NT_STATUS_OK"
has "Rmdir \"$C\\\\d\" NT_STATUS_OK"
expect_rc 0 "$DBNG" -c "$TMP/s.load" -D "$MNT" --run-once --no-resolve \
	--json "$TMP/s.json" 1 >/dev/null 2>"$TMP/serr"
[ ! -s "$TMP/serr" ] || fail "the replay said: $(cat "$TMP/serr")"
python3 - "$TMP/s.json" "$TMP/s.load" <<'PY' || fail "replayed counts differ"
import json, sys
d = json.load(open(sys.argv[1]))
n = sum(1 for l in open(sys.argv[2]) if l.strip() and not l.startswith("#"))
got = sum(o["count"] for o in d["ops"])
assert got == n, (got, n)
assert not d["errors"] and not any(o["errors"] for o in d["ops"]), d["errors"]
print("ok: the script's", n, "ops replayed, none failed")
PY

note "3. no -y: strace -f -tt -T -e trace=file,desc (no -y)"
st -f -tt -T -e trace=file,desc -o "$TMP/log2" "$PROBE" "$TMP/w" ||
	fail "recwork under strace failed"
expect_rc 0 "$DBNG" record --from-strace "$TMP/log2" --root "$TMP/w" \
	-o "$TMP/w2.load" 2>/dev/null
expect_ops "$TMP/w2.load" "$WANT"
# the loadfile reads back: a run of it checks it whole
expect_rc 0 "$DBNG" -c "$TMP/w2.load" -D "$MNT" --run-once 1 >/dev/null
# no times: no timestamps, and said so
sed -E 's/^([0-9]+ +)[0-9:.]+ /\1/' "$TMP/log2" >"$TMP/log3"
expect_rc 0 "$DBNG" record --from-strace "$TMP/log3" --root "$TMP/w" \
	-o "$TMP/w3.load" 2>"$TMP/err"
grep -q 'has no times' "$TMP/err" || fail "a log without times not said"
! grep -q '^[0-9]' "$TMP/w3.load" || fail "timestamps from a log without times"

note "4. hostile logs: LOG:LINE, exit 2, nothing written"
hostile() {
	local name=$1 want=$2
	rm -f "$TMP/h.load"
	printf '%b' "$3" >"$TMP/$name"
	expect_rc 2 "$DBNG" record --from-strace "$TMP/$name" --root "$TMP/w" \
		-o "$TMP/h.load" 2>"$TMP/herr"
	grep -qF "dbench-ng record: $TMP/$name:$want" "$TMP/herr" ||
		fail "$name: $(cat "$TMP/herr") (expected :$want)"
	[ ! -e "$TMP/h.load" ] || fail "$name: a loadfile was written"
	[ "$(wc -l <"$TMP/herr")" = 1 ] || fail "$name: more than one line"
}
hostile garbage "1: no system call name" 'garbage\n'
hostile huge "2: a number out of range" \
	'1 close(3) = 0\n1 read(3, "", 123456789012345678901234567890) = 0\n'
hostile hugeret "1: a call without a result, or one out of range" \
	'1 read(3, "", 10) = 99999999999999999999\n'
hostile quote "1: an unterminated string" \
	'1 openat(AT_FDCWD, "a\\", O_RDONLY) = 3\n'
hostile notutf8 "1: a byte strace does not write (0xe9 at column 24)" \
	'1 openat(AT_FDCWD, "caf\xe9", O_RDONLY) = 3\n'
hostile escape "1: a byte strace does not write (0x1b at column 21)" \
	'1 openat(AT_FDCWD, "\x1b[2Jx", O_RDONLY) = 3\n'
hostile nul "2: a NUL byte in the line" '1 close(3) = 0\n1 close(4\x00) = 0\n'
# the same with --skip-bad: skipped, counted, named
printf '1 close(3) = 0\ngarbage\n' >"$TMP/skip"
expect_rc 1 "$DBNG" record --from-strace "$TMP/skip" --skip-bad \
	--root "$TMP/w" -o "$TMP/h.load" 2>"$TMP/herr"
grep -qF "$TMP/skip:2: no system call name: skipped" "$TMP/herr" ||
	fail "--skip-bad: $(cat "$TMP/herr")"
grep -q '^# lines of the strace log skipped (--skip-bad): 1$' "$TMP/h.load" ||
	fail "--skip-bad: the skipped line is not counted in the loadfile"
# odd names: quotes, backslashes, not UTF-8, "client1": hashes that parse
W=$TMP/w
printf '%s\n' \
	"1 openat(AT_FDCWD, \"$W/a\\\"b\", O_WRONLY|O_CREAT, 0644) = 3" \
	"1 close(3) = 0" \
	"1 mkdir(\"$W/caf\\303\\251\", 0755) = 0" \
	"1 mkdir(\"$W/\\377x.txt\", 0755) = 0" \
	"1 mkdir(\"$W/my client1\", 0755) = 0" \
	"1 mkdir(\"$W/sp ace\", 0755) = 0" >"$TMP/names"
expect_rc 0 "$DBNG" record --from-strace "$TMP/names" --root "$W" \
	-o "$TMP/n.load" 2>/dev/null
grep -q '^Mkdir "\\clients\\client1\\caf'"$(printf '\303\251')"'" NT_STATUS_OK' \
	"$TMP/n.load" || fail "a UTF-8 name is not kept"
grep -q '^Mkdir "\\clients\\client1\\sp ace" NT_STATUS_OK' \
	"$TMP/n.load" || fail "a name with a space is not kept"
[ "$(grep -c '^Mkdir "\\clients\\client1\\[0-9a-f]\{12\}\(\.txt\)\?"' "$TMP/n.load")" = 2 ] ||
	fail "a name that is not UTF-8, or holds client1, is not a hash"
expect_rc 0 "$DBNG" -c "$TMP/n.load" -D "$MNT" --run-once 1 >/dev/null

note "5. bad options and inputs: exit 2, one line"
bad() {
	local want=$1
	shift
	expect_rc 2 "$DBNG" record "$@" 2>"$TMP/berr"
	grep -qF -- "$want" "$TMP/berr" || fail "$*: $(cat "$TMP/berr")"
}
bad "--root $TMP/nope: No such file or directory" --root "$TMP/nope" -- true
bad "--root nope: No such file or directory" --from-strace "$TMP/log" \
	--root nope
# a log of another machine: an absolute --root that is not here is text
expect_rc 0 "$DBNG" record --from-strace "$TMP/log" \
	--root "$TMP/nope/../w" -o "$TMP/o.load" 2>/dev/null
expect_ops "$TMP/o.load" "$WANT"
grep -q "the tree under $TMP/w is" "$TMP/o.load" || fail "--root as text"
bad "--root $TMP/log: not a directory" --from-strace "$TMP/log" --root "$TMP/log"
bad "$TMP/nolog: cannot open strace log" --from-strace "$TMP/nolog"
: >"$TMP/empty"
bad "no line of strace output" --from-strace "$TMP/empty"
bad "a character device, not a regular file" --from-strace /dev/null
bad "nothing to record" -o "$TMP/x.load"
bad "name one of" --from-strace "$TMP/log" -p 1
bad "-p 'x': not a process id" -p x
bad "--cwd is for --from-strace" --cwd / -- true
bad "-o $TMP/nodir/x.load" --from-strace "$TMP/log" -o "$TMP/nodir/x.load"
[ ! -e "$TMP/x.load" ] || fail "a bad command line wrote a file"
echo "ok"
