# SPDX-License-Identifier: GPL-3.0-or-later
# Expected-status semantics (docs/compat.md): a mismatching Unlink,
# Rmdir or Rename and a missing handle end the run with exit 1 and a
# message naming client, op, file:line and errno; a mismatching NTCreateX
# is counted and reported, and the run goes on.
. "$(dirname "$0")/../lib.sh"

D=$TMP/d
mkdir -p "$D"

# fatal FILE PATTERN...: the run exits 1 at the failure, stderr has every
# PATTERN, the partial results are marked failed, DIR/clients removed.
# The failing line comes in the first pass, long before the 6 s warmup of
# -t 30 ends: the run's own clock says it stopped there ("during the
# warmup", no execute line); one that went on would reach the execute
# phase, and end only after 36 s (the wall-clock bound, with room).
fatal() {
	local lf=$1 rc start
	shift
	start=$(date +%s)
	"$DBNG" -t 30 -c "$lf" -D "$D" 2 >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc = 1 ] || fail "exit $rc, expected 1 for $lf: $(cat "$TMP/err")"
	[ $(($(date +%s) - start)) -lt 25 ] || fail "took $(($(date +%s) - start)) s"
	for p in "$@"; do
		grep -q -- "$p" "$TMP/err" || fail "stderr lacks '$p': $(cat "$TMP/err")"
	done
	grep -q "^Run failed during the warmup: " "$TMP/out" ||
		fail "no 'Run failed during the warmup' marker: $(cat "$TMP/out")"
	! grep -q " execute " "$TMP/out" || fail "the run went on after the failure"
	# what was measured, in a form no dbench log parser takes for a
	# result: no dbench table, no Throughput line (compat.sh checks the
	# parsers themselves)
	tail -1 "$TMP/out" | grep -q "^Partial figures of a failed run: " ||
		fail "no partial results: $(cat "$TMP/out")"
	! grep -q "Operation\|^Throughput" "$TMP/out" ||
		fail "a dbench table or Throughput line for a failed run: $(cat "$TMP/out")"
	[ ! -e "$D/clients" ] || fail "DIR/clients left behind: $(find "$D")"
	echo "ok: $(head -1 "$TMP/err")"
}

cat >"$TMP/unlink.load" <<'X'
NTCreateX "\clients\client1" 0x1 0x2 1 NT_STATUS_OK
Close 1 NT_STATUS_OK
# the next line must fail: the file does not exist
Unlink "\clients\client1\nonexist" 0x6 NT_STATUS_OK
X
fatal "$TMP/unlink.load" "client [01] at $TMP/unlink.load:4: Unlink" \
	"$D/clients/client[01]/nonexist failed (No such file or directory)" \
	"expected NT_STATUS_OK"

cat >"$TMP/rename.load" <<'X'
NTCreateX "\clients\client1" 0x1 0x2 1 NT_STATUS_OK
Close 1 NT_STATUS_OK
Rename "\clients\client1\a" "\clients\client1\b" NT_STATUS_OK
X
fatal "$TMP/rename.load" "rename.load:3: Rename" "No such file or directory"

cat >"$TMP/rmdir.load" <<'X'
NTCreateX "\clients\client1" 0x1 0x2 1 NT_STATUS_OK
Close 1 NT_STATUS_OK
Rmdir "\clients\client1" NT_STATUS_OBJECT_NAME_NOT_FOUND
X
fatal "$TMP/rmdir.load" "rmdir.load:3: Rmdir" "succeeded - expected NT_STATUS_OBJECT_NAME_NOT_FOUND"

cat >"$TMP/handle.load" <<'X'
NTCreateX "\clients\client1" 0x1 0x2 1 NT_STATUS_OK
Close 1 NT_STATUS_OK
NTCreateX "\clients\client1\missing" 0x40 0x1 77 NT_STATUS_OK
ReadX 77 0 10 10 NT_STATUS_OK
X
fatal "$TMP/handle.load" "handle.load:4: ReadX: handle 77 was not found"

# a warning only: the expected-success open fails, the run goes on
cat >"$TMP/warn.load" <<'X'
NTCreateX "\clients\client1" 0x1 0x2 1 NT_STATUS_OK
Close 1 NT_STATUS_OK
NTCreateX "\clients\client1\missing" 0x40 0x1 2 NT_STATUS_OK
NTCreateX "\clients\client1\new" 0x40 0x2 3 NT_STATUS_OK
WriteX 3 0 100 100 NT_STATUS_OK
Close 3 NT_STATUS_OK
Unlink "\clients\client1\new" 0x6 NT_STATUS_OK
X
expect_rc 0 "$DBNG" -t 2 -c "$TMP/warn.load" -D "$D" 1 >"$TMP/out" 2>"$TMP/err"
grep -q "^ Unexpected results: [1-9]" "$TMP/out" || fail "no warning section"
grep -q "warn.load:3: NTCreateX $D/clients/client0/missing failed (No such file or directory) - expected NT_STATUS_OK" \
	"$TMP/out" || fail "warning text: $(cat "$TMP/out")"
tail -1 "$TMP/out" | grep -q "^Throughput" || fail "Throughput not last"
[ ! -e "$D/clients" ] || fail "DIR/clients left behind"
echo "all fatal/warning checks passed"
