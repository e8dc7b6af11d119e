# SPDX-License-Identifier: GPL-3.0-or-later
# dbench-ng's tbench server against clients that break the protocol, in a
# network namespace of the test's own: a request length over the limit,
# one too short to hold its reply's length, a reply asked for over the
# limit, a request cut by the client's close, each dropped (or closed)
# with a note on stderr while a well-behaved connection opened before
# them goes on; a client that sends 200 requests at once before it reads
# (pipelining) gets 200 right replies; one that never reads its replies
# stops being read but holds nobody up (a dbench-ng client runs beside
# it) and is closed with a note when it goes away; the summary at
# SIGTERM counts it all, and the server is one
# process with its threads, no process per connection.
. "$(dirname "$0")/../lib.sh"
enter_netns "$@"
command -v python3 >/dev/null || skip "python3 not installed"

srv_start ng 7003 "$DBNG" tbench_srv --bind 127.0.0.1 --threads 2 --max-length 1000000

cat >"$TMP/clients.py" <<'PY'
import struct, sys
from tbench_peer import conn, dropped, exchange, recvall

good = conn()
exchange(good, 8, 8)

c = conn(); c.sendall(struct.pack(">I", 0xffffffff)); dropped(c, "a length over the limit")
c = conn(); c.sendall(struct.pack(">II", 2, 0)); dropped(c, "a request too short")
c = conn(); c.sendall(struct.pack(">II", 4, 1000001)); dropped(c, "a reply over the limit")
c = conn(); exchange(c, 8, 8); c.sendall(struct.pack(">II", 100, 35) + bytes(20)); c.close()

# pipelining: 200 requests in one go, then the 200 replies
p = conn()
p.sendall(b"".join(struct.pack(">II", 55, 61495) + bytes(51) for _ in range(200)))
for i in range(200):
    h = recvall(p, 4)
    assert struct.unpack(">I", h)[0] == 61495, (i, h)
    recvall(p, 61495)
print("ok: 200 pipelined requests answered")

# a client that never reads: 64 replies of 900000 bytes each asked for
lazy = conn()
lazy.sendall(b"".join(struct.pack(">II", 4, 900000) for _ in range(64)))

for _ in range(100):
    exchange(good, 59 + 65536, 55)
    exchange(good, 59, 59 + 61440)
print("ok: the first connection goes on")
sys.stdout.flush()
# keep the lazy one open while the shell runs a client beside it
sys.stdin.read()
PY
coproc PY { PYTHONPATH=$ROOT/tests python3 "$TMP/clients.py" 2>&1; }
at_exit "kill -KILL $PY_PID"
while read -r -t 60 line <&"${PY[0]}"; do
	echo "$line"
	case $line in "ok: the first connection goes on") break ;; *Error* | *Traceback*) fail "$line" ;; esac
done
[ "$line" = "ok: the first connection goes on" ] || fail "the clients script did not finish: $line"

note "a dbench-ng client beside the one that does not read"
head -3000 "$ROOT/loadfiles/netbench.load" >"$TMP/small.load"
"$DBNG" tbench -t 2 --warmup 0 -c "$TMP/small.load" 2 127.0.0.1 >"$TMP/run" 2>&1 ||
	fail "run failed: $(tail "$TMP/run")"
tail -1 "$TMP/run" | grep -q "^Throughput " || fail "$(tail "$TMP/run")"
echo "ok: $(tail -1 "$TMP/run")"
[ -z "$(ps -o pid= --ppid "$SRV")" ] || fail "the server has child processes: $(ps -o pid,comm --ppid "$SRV")"
[ "$(ls /proc/$SRV/task | wc -l)" = 3 ] || fail "threads: $(ls /proc/$SRV/task)"
exec {PY[1]}>&-
wait "$PY_PID" 2>/dev/null

srv_stop
[ "$SRV_RC" = 0 ] || fail "exit $SRV_RC"
cat "$TMP/ng.err"
for n in "127.0.0.1:[0-9]*: a request over the limit (length word 4294967295, limit 1000000): connection dropped" \
	"127.0.0.1:[0-9]*: a request too short to hold its reply's length (length word 2, limit 1000000): connection dropped" \
	"127.0.0.1:[0-9]*: a reply asked for over the limit (length word 1000001, limit 1000000): connection dropped" \
	"127.0.0.1:[0-9]*: the client closed the connection inside a request (28 of 104 bytes of it received): connection closed" \
	"127.0.0.1:[0-9]*: the client \(closed the connection\|Connection reset by peer\) before it had its reply ([0-9]* of 900004 bytes of it sent): connection closed"; do
	grep -q "^tbench_srv: $n$" "$TMP/ng.err" || fail "no note '$n'"
done
cat "$TMP/ng.out"
grep -q "^tbench_srv: served 9 connections (at most [0-9]* at once), " "$TMP/ng.out" || fail "$(cat "$TMP/ng.out")"
grep -q "^tbench_srv: 3 connections dropped (a broken request or an error), 2 closed by their client in the middle of an exchange$" "$TMP/ng.out" ||
	fail "$(cat "$TMP/ng.out")"
[ -z "$(netns_procs dbench-ng)" ] || fail "dbench-ng processes left: $(netns_procs dbench-ng)"
echo "all server checks passed"
