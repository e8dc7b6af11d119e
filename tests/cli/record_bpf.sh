# SPDX-License-Identifier: GPL-3.0-or-later
# dbench-ng record with BPF (src/record/launch.c, bpf/record.bpf.c), as
# root: record "sh -c" doing known file calls and find each of them in
# the loadfile; record tests/cli/recwork.c and get the operations the
# strace path makes of it (tests/cli/record.sh), and replay them once
# on tmpfs without a failure; record a running process with -p, released
# through a FIFO once the trace is on.  Skipped, with the reason, where
# the recorder cannot load its BPF program.
. "$(dirname "$0")/../lib.sh"

need_root "loading BPF programs"
[ -r /sys/kernel/btf/vmlinux ] ||
	skip "the kernel has no BTF (/sys/kernel/btf/vmlinux)"
PROBE=$ROOT/build/tests/cli/recwork
[ -x "$PROBE" ] || fail "$PROBE not built (make check builds it)"
W=$TMP/w
MNT=$TMP/mnt
mkdir -p "$W" "$MNT"
"$DBNG" record --root "$W" -o "$TMP/t.load" -- true 2>"$TMP/err"
rc=$?
[ "$rc" = 3 ] && skip "$(cat "$TMP/err")"
[ "$rc" = 1 ] || fail "record -- true: exit $rc, expected 1 (nothing under --root): $(cat "$TMP/err")"
grep -q 'no call under --root' "$TMP/err" || fail "record -- true: $(cat "$TMP/err")"

note "1. sh -c with known calls"
(cd "$W" && "$DBNG" record -o "$TMP/sh.load" -- sh -c 'mkdir d
echo hello >d/a.txt
cat d/a.txt >/dev/null
mv d/a.txt d/b.txt
ls d >/dev/null
rm d/b.txt
rmdir d') 2>"$TMP/err" || fail "record of sh -c: $(cat "$TMP/err")"
cat "$TMP/err"
has() {
	grep -q "^[0-9.]* $1\$" "$TMP/sh.load" || fail "no line '$1' in the loadfile:
$(grep -v '^#' "$TMP/sh.load")"
}
C='\\clients\\client1'
has "Mkdir \"$C\\\\d\" NT_STATUS_OK"
has "NTCreateX \"$C\\\\d\\\\a.txt\" 0x40 0x5 [0-9]* NT_STATUS_OK"
has "WriteX [0-9]* 0 6 6 NT_STATUS_OK"
has "NTCreateX \"$C\\\\d\\\\a.txt\" 0x40 0x1 [0-9]* NT_STATUS_OK"
has "ReadX [0-9]* 0 [0-9]* 6 NT_STATUS_OK"
has "Rename \"$C\\\\d\\\\a.txt\" \"$C\\\\d\\\\b.txt\" NT_STATUS_OK"
has "FIND_FIRST \"$C\\\\d\\\\\\*\" 260 1000000 [0-9]* NT_STATUS_OK"
has "Unlink \"$C\\\\d\\\\b.txt\" 0x6 NT_STATUS_OK"
has "Rmdir \"$C\\\\d\" NT_STATUS_OK"
grep -q '^# events lost: 0$' "$TMP/sh.load" || fail "events were lost"
grep -q "pid [0-9]* at [0-9.]* s: .* of /.*: outside --root $W, not recorded" \
	"$TMP/err" || fail "no path outside --root named"

note "2. recwork: the operations the strace path makes of it"
"$DBNG" record --root "$W" -o "$TMP/rw.load" -- "$PROBE" "$W" \
	2>"$TMP/err" || fail "record of recwork: $(cat "$TMP/err")"
got=$(sed -n '/^# the recorded calls/,/^# end of the recorded calls/p' \
	"$TMP/rw.load" | grep -v '^#' |
	awk '{ n[$2]++ } END { for (k in n) print k, n[k] }' | sort | tr '\n' ' ')
want="Close 11 FIND_FIRST 1 Flush 5 LockX 1 Mkdir 1 NTCreateX 12 \
QUERY_FILE_INFORMATION 5 QUERY_FS_INFORMATION 1 QUERY_PATH_INFORMATION 1 \
ReadX 15 Rename 1 Rmdir 1 SET_FILE_INFORMATION 1 Unlink 5 UnlockX 1 WriteX 15 "
[ "$got" = "$want" ] || fail "recwork with BPF:
$got
expected
$want"
mount -t tmpfs -o size=64m tmpfs "$MNT" || skip "cannot mount a tmpfs"
at_exit "umount -l $MNT"
expect_rc 0 "$DBNG" -c "$TMP/rw.load" -D "$MNT" --run-once --no-resolve \
	--json "$TMP/r.json" 1 >/dev/null 2>"$TMP/rerr"
[ ! -s "$TMP/rerr" ] || fail "the replay said: $(cat "$TMP/rerr")"
python3 - "$TMP/r.json" <<'PY' || fail "the replay had failures"
import json, sys
d = json.load(open(sys.argv[1]))
assert not d["errors"] and not any(o["errors"] for o in d["ops"]), d["errors"]
PY

note "3. -p PID: a running shell, released once the trace is on"
mkfifo "$TMP/go"
sh -c 'read x <"$1"; echo traced >"$2/p.txt"; exit 0' sh "$TMP/go" "$W" &
spid=$!
at_exit "kill $spid"
"$DBNG" record -p "$spid" --root "$W" -o "$TMP/p.load" 2>"$TMP/perr" &
rpid=$!
at_exit "kill $rpid"
wait_for "$TMP/perr" 'tracing 1 process' 30
echo go >"$TMP/go"
wait "$rpid" || fail "record -p: exit $?: $(cat "$TMP/perr")"
grep -q '^[0-9.]* NTCreateX "\\clients\\client1\\p.txt" 0x40 0x5 [0-9]* NT_STATUS_OK$' \
	"$TMP/p.load" || fail "record -p: no NTCreateX of p.txt:
$(grep -v '^#' "$TMP/p.load")"
grep -q '^[0-9.]* WriteX [0-9]* 0 7 7 NT_STATUS_OK$' "$TMP/p.load" ||
	fail "record -p: no WriteX of 7 bytes"
expect_rc 2 "$DBNG" record -p 999999999 -o "$TMP/x.load" 2>"$TMP/err"
grep -q -- '-p 999999999: no such process' "$TMP/err" || fail "$(cat "$TMP/err")"
[ ! -e "$TMP/x.load" ] || fail "a loadfile of no process"
expect_rc 2 "$DBNG" record -o "$TMP/x.load" -- /nonexistent/cmd 2>"$TMP/err"
grep -q 'cannot run /nonexistent/cmd: No such file or directory' "$TMP/err" ||
	fail "$(cat "$TMP/err")"
echo "ok"
