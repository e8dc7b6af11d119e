# SPDX-License-Identifier: GPL-3.0-or-later
# The engine's handle table (src/engine/client.c) on a real backend: an
# NTCreateX over a slot that is open closes the file it replaces and the
# slot's later ops go to the new file; an open the loadfile expected to
# fail that succeeds is closed again (and warned about), not kept; a
# failed open leaves its slot closed and a later use names the cause.
# The open files are read from the client's /proc/PID/fd while a Sleep
# holds it, after its WriteX is seen on disk, so no step races the check.
. "$(dirname "$0")/../lib.sh"

D=$TMP/d
mkdir "$D"
head='Mkdir "\clients" NT_STATUS_OK
NTCreateX "\clients\client1" 0x1 0x2 100 NT_STATUS_OK
Close 100 NT_STATUS_OK'
cat >"$TMP/replace.load" <<X
$head
NTCreateX "\\clients\\client1\\a" 0x40 0x5 7 NT_STATUS_OK
NTCreateX "\\clients\\client1\\b" 0x40 0x5 7 NT_STATUS_OK
NTCreateX "\\clients\\client1\\a" 0x40 0x1 8 NT_STATUS_OBJECT_NAME_NOT_FOUND
WriteX 7 0 100 100 NT_STATUS_OK
Sleep 600000000 NT_STATUS_OK
Close 7 NT_STATUS_OK
X

# the regular files of DIR/clients that process $1 has open, one per line
open_files() {
	local f t
	for f in /proc/"$1"/fd/*; do
		t=$(readlink "$f" 2>/dev/null) || continue
		case $t in "$D"/clients/*) [ -f "$t" ] && echo "${t#"$D"/clients/}" ;; esac
	done | sort
}

# job control on: a background job of a non-interactive shell starts with
# SIGINT ignored, and dbench-ng keeps an inherited SIG_IGN (process.sh)
set -m
"$DBNG" --run-once --warmup 0 -t 600 --skip-cleanup -c "$TMP/replace.load" \
	-D "$D" 1 >"$TMP/out" 2>&1 &
pid=$!
set +m
at_exit "kill -9 $pid"
size() { stat -c %s "$D/clients/client0/$1" 2>/dev/null; }
wrote_b() { [ "$(size b)" = 100 ] || ! kill -0 "$pid" 2>/dev/null; }
wait_until 30 wrote_b && kill -0 "$pid" 2>/dev/null ||
	fail "the WriteX to slot 7 never reached b: $(ls -l "$D/clients/client0" 2>&1)"
child=$(pgrep -P "$pid" | head -n 1)
[ -n "$child" ] || fail "no client process under $pid"
files=$(open_files "$child")
[ "$files" = "client0/b" ] ||
	fail "open in the client during the Sleep: '$(echo $files)', want only client0/b (a replaced or an unwanted open was not closed)"
[ "$(size a)" = 0 ] || fail "a was written: $(size a) bytes"
echo "ok: the replaced handle and the unwanted open are closed, slot 7 writes to b"
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" = 130 ] || [ "$rc" = 0 ] || fail "interrupted run exited $rc: $(tail -5 "$TMP/out")"
grep -q 'replace.load:6: NTCreateX .*client0/a succeeded - expected NT_STATUS_OBJECT_NAME_NOT_FOUND' "$TMP/out" ||
	fail "no warning for the unwanted open: $(grep -i expected "$TMP/out")"
echo "ok: the unwanted open is reported (exit $rc)"

rm -rf "${D:?}"/clients
cat >"$TMP/failed.load" <<X
$head
NTCreateX "\\clients\\client1\\nope\\x" 0x40 0x1 9 NT_STATUS_OK
ReadX 9 0 10 10 NT_STATUS_OK
X
expect_rc 1 "$DBNG" --run-once --warmup 0 -t 600 -c "$TMP/failed.load" -D "$D" 1 \
	>"$TMP/out2" 2>&1
grep -q 'failed.load:5: ReadX: handle 9 was not found (its open failed: No such file or directory)' "$TMP/out2" ||
	fail "the use of a handle whose open failed: $(grep -i handle "$TMP/out2")"
echo "ok: a use of a handle whose open failed names the cause"
