# SPDX-License-Identifier: GPL-3.0-or-later
# dbench-ng's tbench client against hostile servers of the test's own, in
# a network namespace: each gets one clear message naming the client (the
# op and FILE:LINE once the clients run), the documented exit status, the
# figures of a failed run in our form, and no process left.
#   close   accepts and closes at once: exit 3, before the start
#   early   sends bytes before any request: lost sync in the handshake, 3
#   huge    a reply whose length word is 0xffffffff: lost sync, exit 1
#   extra   replies with 10 bytes more than asked: lost sync on the next
#   rst     resets the connection mid-run: exit 1
#   drip    sends each reply a byte at a time: a normal run, exit 0
#   silent  stops answering (no -T SO_RCVTIMEO): the op in flight runs to
#           its end, which never comes; past the time limit the run waits
#           on, a stall recorded; a signal hurries the clean-up, a
#           second kills the stuck client: the partial figures, exit 143
#   deaf    stops reading after the handshake: the client waits in send()
#           for room (a WriteX larger than the buffers), the same
. "$(dirname "$0")/../lib.sh"
enter_netns "$@"
command -v python3 >/dev/null || skip "python3 not installed"

cat >"$TMP/srv.py" <<'PY'
import socket, struct, sys, time
from tbench_peer import listen, request
mode = sys.argv[1]
s = listen()
keep = []
while True:
    c, _ = s.accept()
    keep.append(c)
    if mode == "close":
        c.close()
        continue
    if mode == "early":
        c.sendall(b"\xde\xad\xbe\xef" * 4)
    n = 0
    try:
        while True:
            m = request(c)
            if m is None:
                break
            n += 1
            r = struct.pack(">I", m) + bytes(m)
            if n > 1 and mode == "silent":
                time.sleep(3600)
            if n > 1 and mode == "deaf":
                c.sendall(r)
                time.sleep(3600)
            if n > 1 and mode == "huge":
                r = struct.pack(">I", 0xffffffff)
            if n > 1 and mode == "extra":
                r += b"x" * 10
            if n > 5 and mode == "rst":
                c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                             struct.pack("ii", 1, 0))
                c.close()
                break
            if mode == "drip":
                for i in range(len(r)):
                    c.send(r[i:i + 1])
            else:
                c.sendall(r)
    except ConnectionError:
        pass
PY
head -400 "$ROOT/loadfiles/netbench.load" >"$TMP/small.load"
# a WriteX larger than any socket buffer, as the first exchange after the
# handshake, for "deaf"
printf '%s\n' 'NTCreateX "\clients\client1\big" 0x0 0x2 1 NT_STATUS_OK' \
	'WriteX 1 0 16000000 16000000 NT_STATUS_OK' 'Close 1 NT_STATUS_OK' >"$TMP/big.load"

no_procs() { netns_gone dbench-ng; }
failed() { failed_run "$1"; }
W="the server at 127.0.0.1 port 7003"

# against MODE WANT_RC STDERR_ERE [LOADFILE]: a 3 s run against the
# server of MODE
against() {
	note "$1"
	srv_start "$1" 7003 env PYTHONPATH="$ROOT/tests" python3 "$TMP/srv.py" "$1" 2>/dev/null
	expect_rc "$2" "$DBNG" tbench -t 3 --warmup 0 -c "${4:-$TMP/small.load}" 1 127.0.0.1 \
		>"$TMP/o.$1" 2>"$TMP/e.$1"
	grep -Eq "$3" "$TMP/e.$1" || fail "$1: stderr: $(cat "$TMP/e.$1")"
	[ "$(wc -l <"$TMP/e.$1")" = 1 ] || fail "$1: more than one message: $(cat "$TMP/e.$1")"
	srv_stop KILL
	no_procs
	echo "ok: $(cat "$TMP/e.$1")"
}

against close 3 "^dbench-ng: client 0: handshake: $W closed the connection \(Connection reset by peer|end of file"
! grep -q "releasing clients" "$TMP/o.close" || fail "released after a failed handshake"
against early 3 "^dbench-ng: client 0: handshake: lost sync with $W: its reply's length word is 3735928559, expected 4$"
against huge 1 "^dbench-ng: client 0 at $TMP/small.load:[0-9]+: [A-Za-z]+: lost sync with $W: its reply's length word is 4294967295, expected [0-9]+$"
failed "$TMP/o.huge"
against extra 1 "^dbench-ng: client 0 at $TMP/small.load:[0-9]+: [A-Za-z]+: lost sync with $W: its reply's length word is 2021161080, expected [0-9]+$"
failed "$TMP/o.extra"
against rst 1 "^dbench-ng: client 0 at $TMP/small.load:[0-9]+: [A-Za-z]+: $W closed the connection \(Connection reset by peer, 0 of the [0-9]+ bytes of the reply received\)$"
failed "$TMP/o.rst"

note "drip"
srv_start drip 7003 env PYTHONPATH="$ROOT/tests" python3 "$TMP/srv.py" drip
expect_rc 0 "$DBNG" tbench -t 3 --warmup 0 -c "$TMP/small.load" 1 127.0.0.1 >"$TMP/o.drip" 2>"$TMP/e.drip"
tail -1 "$TMP/o.drip" | grep -q "^Throughput " || fail "drip: $(tail -3 "$TMP/o.drip")"
[ ! -s "$TMP/e.drip" ] || fail "drip: $(cat "$TMP/e.drip")"
srv_stop KILL
no_procs
echo "ok: $(tail -1 "$TMP/o.drip")"

# stuck MODE LOADFILE: the run outlives its -t 2 while the server of
# MODE holds its client; two signals end it
stuck() {
	note "$1"
	srv_start "$1" 7003 env PYTHONPATH="$ROOT/tests" python3 "$TMP/srv.py" "$1" 2>/dev/null
	"$DBNG" tbench -t 2 --warmup 0 -c "$2" --json "$TMP/$1.json" 1 127.0.0.1 \
		>"$TMP/o.$1" 2>"$TMP/e.$1" &
	pid=$!
	at_exit "kill -KILL $pid"
	# past the time limit: it waits for the op in flight
	wait_for "$TMP/o.$1" "^   1  cleanup   4 sec$"
	kill -TERM "$pid"
	# the time limit came first: the first signal only hurries the
	# clean-up; the second, which kills the stuck client, cuts it short
	wait_for "$TMP/e.$1" "signal 15 \(Terminated\) after the time limit: the run is complete, its clean-up goes on"
	# still waiting: the op does not end by itself
	wait_for "$TMP/o.$1" "^   1  cleanup   6 sec$"
	kill -0 "$pid" || fail "$1: the run ended on its own"
	kill -TERM "$pid"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" = 143 ] || fail "$1: exit $rc: $(cat "$TMP/e.$1")"
	grep -q "again: killing the clients" "$TMP/e.$1" || fail "$1: $(cat "$TMP/e.$1")"
	tail -1 "$TMP/o.$1" | grep -q "^Partial figures of an interrupted run: " ||
		fail "$1: last line: $(tail -1 "$TMP/o.$1")"
	python3 - "$TMP/$1.json" <<'PY' || fail "$1: the stuck op is not a stall of the JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "interrupted", d["status"]
ev = [e for e in d["stalls"]["events"] if not e["ended"]]
assert ev, d["stalls"]
print("ok: still stuck at the end: %s at %s:%s for %.0f ms"
      % (ev[0]["op"], ev[0]["file"], ev[0]["line"], ev[0]["duration_ms"]))
PY
	srv_stop KILL
	no_procs
	echo "ok: $1: two signals end it, exit 143"
}
stuck silent "$TMP/small.load"
stuck deaf "$TMP/big.load"
echo "all hostile servers handled"
