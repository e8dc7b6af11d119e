# SPDX-License-Identifier: GPL-3.0-or-later
# tbench's failures, each a clear message naming the client (and the op
# and FILE:LINE once the clients run), the documented exit status, the
# partial results of a failed run marked as for the fileio backend, and
# no process left, in a network namespace of the test's own:
#  1. no server: the clients cannot connect before the start (exit 3, the
#     environment);
#  2. the server killed in the middle of the run (exit 1);
#  3. a server that loses sync: a reply whose length word is not the one
#     asked for (exit 1, with the two lengths);
#  4. a server that closes the connection in the middle of a reply;
#  5. a server that stops answering, with -T SO_RCVTIMEO.
. "$(dirname "$0")/../lib.sh"
enter_netns "$@"
command -v python3 >/dev/null || skip "python3 not installed"

LOAD=$ROOT/loadfiles/netbench.load

no_procs() { netns_gone dbench-ng; }
failed() { failed_run "$1"; }

note "1. no server"
start=$SECONDS
expect_rc 3 "$DBNG" tbench -t 30 2 127.0.0.1 >"$TMP/o1" 2>"$TMP/e1"
grep -q "^dbench-ng: client [01]: cannot connect to the server at 127.0.0.1 port 7003: Connection refused\( (the same for client [01])\)\?$" "$TMP/e1" ||
	fail "$(cat "$TMP/e1")"
! grep -q "^Throughput\|releasing clients" "$TMP/o1" || fail "$(cat "$TMP/o1")"
[ $((SECONDS - start)) -lt 20 ] || fail "took $((SECONDS - start)) s"
no_procs
echo "ok: $(head -1 "$TMP/e1")"

note "2. the server killed in the middle of the run"
srv_start ng 7003 "$DBNG" tbench_srv --bind 127.0.0.1
start=$SECONDS
"$DBNG" tbench -t 60 --warmup 1 -c "$LOAD" 2 127.0.0.1 >"$TMP/o2" 2>"$TMP/e2" &
cl=$!
at_exit "kill -KILL $cl"
wait_for "$TMP/o2" " execute "
srv_stop KILL
rc=0
wait $cl || rc=$?
[ $rc = 1 ] || fail "exit $rc: $(cat "$TMP/e2")"
[ $((SECONDS - start)) -lt 40 ] || fail "took $((SECONDS - start)) s"
grep -q "^dbench-ng: client [01] at $LOAD:[0-9]*: [A-Za-z_]*: the server at 127.0.0.1 port 7003 closed the connection (" "$TMP/e2" ||
	fail "$(cat "$TMP/e2")"
failed "$TMP/o2"
no_procs
echo "ok: $(head -1 "$TMP/e2")"

# a server of the test's own that misbehaves at its exchange K: "sync"
# replies with a length word one too big, "cut" sends half the reply and
# closes, "stop" no longer answers; every other reply is right
cat >"$TMP/bad.py" <<'PY'
import struct, sys, time
from tbench_peer import listen, request
mode, k = sys.argv[1], int(sys.argv[2])
s = listen(8)
c, _ = s.accept()
n = 0
while True:
    m = request(c)
    if m is None:
        break
    n += 1
    if n == k and mode == "sync":
        c.sendall(struct.pack(">I", m + 1) + bytes(m + 1))
        continue
    if n == k and mode == "cut":
        c.sendall(struct.pack(">I", m) + bytes(m // 2))
        c.close()
        break
    if n == k and mode == "stop":
        time.sleep(60)
    c.sendall(struct.pack(">I", m) + bytes(m))
PY

# the loadfile line and op of exchange K (the handshake is the first;
# Deltree and Sleep make none)
line_of() {
	awk -v k="$1" '!/^#/ && $1 != "Deltree" && $1 != "Sleep" && ++n == k - 1 { print NR, $1; exit }' "$LOAD"
}

note "3. lost sync"
srv_start bad 7003 env PYTHONPATH="$ROOT/tests" python3 "$TMP/bad.py" sync 50
read -r ln op <<<"$(line_of 50)"
expect_rc 1 "$DBNG" tbench -t 30 --warmup 0 -c "$LOAD" 1 127.0.0.1 >"$TMP/o3" 2>"$TMP/e3"
grep -q "^dbench-ng: client 0 at $LOAD:$ln: $op: lost sync with the server at 127.0.0.1 port 7003: its reply's length word is \([0-9]*\), expected [0-9]*$" "$TMP/e3" ||
	fail "expected a lost sync at line $ln ($op): $(cat "$TMP/e3")"
failed "$TMP/o3"
srv_stop KILL
no_procs
echo "ok: $(head -1 "$TMP/e3")"

note "4. the server closes in the middle of a reply"
ln=$(grep -n '^ReadX [0-9]* [0-9]* 61440 61440 ' "$LOAD" | head -1 | cut -d: -f1)
k=$(awk -v l="$ln" '!/^#/ && $1 != "Deltree" && $1 != "Sleep" { n++ } NR == l { print n + 1; exit }' "$LOAD")
srv_start bad 7003 env PYTHONPATH="$ROOT/tests" python3 "$TMP/bad.py" cut "$k"
expect_rc 1 "$DBNG" tbench -t 30 --warmup 0 -c "$LOAD" 1 127.0.0.1 >"$TMP/o4" 2>"$TMP/e4"
grep -q "^dbench-ng: client 0 at $LOAD:$ln: ReadX: the server at 127.0.0.1 port 7003 closed the connection (end of file, [0-9]* of the 61499 bytes of the reply received)$" "$TMP/e4" ||
	fail "expected the cut at line $ln: $(cat "$TMP/e4")"
failed "$TMP/o4"
srv_stop KILL
no_procs
echo "ok: $(head -1 "$TMP/e4")"

note "5. a server that stops answering, with -T SO_RCVTIMEO=300"
srv_start bad 7003 env PYTHONPATH="$ROOT/tests" python3 "$TMP/bad.py" stop 20
read -r ln op <<<"$(line_of 20)"
expect_rc 1 "$DBNG" tbench -T "TCP_NODELAY SO_RCVTIMEO=300" -t 30 --warmup 0 -c "$LOAD" 1 127.0.0.1 >"$TMP/o5" 2>"$TMP/e5"
grep -q "^dbench-ng: client 0 at $LOAD:$ln: $op: no reply within the SO_RCVTIMEO of -T (0 of [0-9]* bytes received)$" "$TMP/e5" ||
	fail "$(cat "$TMP/e5")"
failed "$TMP/o5"
srv_stop KILL
no_procs
echo "ok: $(head -1 "$TMP/e5")"
echo "all tbench failure checks passed"
