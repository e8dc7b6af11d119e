# SPDX-License-Identifier: GPL-3.0-or-later
# The tbench server against hostile clients, in a network namespace of
# the test's own, a well-behaved connection served all along:
#  1. 3000 idle connections: a few hundred bytes of memory each;
#  2. slowloris: 1000 connections sending their requests a byte at a
#     time, in turns: every one answered once whole, the good one served
#     between the bytes;
#  3. length words at and past the limit (--max-length): at it taken,
#     past it dropped with a note, also 0xffffffff and the short ones;
#  4. 2000 clients that send 60 KB of requests asking for 16 MB replies
#     and never read: what the server keeps of them is bounded (64 MiB
#     for all, the excess dropped with a note), its peak memory too;
#     before, each kept 64 KiB, 2000 of them 125 MiB, with no bound but
#     the descriptors;
# and afterwards its memory is back down, one process of 3 threads.
. "$(dirname "$0")/../lib.sh"
enter_netns "$@"
command -v python3 >/dev/null || skip "python3 not installed"

# kib PID FIELD: a field of /proc/PID/status, in KiB
kib() { awk -v f="$2:" '$1 == f {print $2}' "/proc/$1/status"; }
# a sanitized build's allocator adds its own (redzones, a quarantine that
# keeps what was freed): the figures are then reported, not checked
SAN=
ldd "$DBNG" 2>/dev/null | grep -q libasan && SAN=1

cat >"$TMP/c.py" <<'PY'
import resource, socket, struct, sys, time
from tbench_peer import dropped, exchange, recvall
import tbench_peer
resource.setrlimit(resource.RLIMIT_NOFILE, (20000, 20000))
step = sys.argv[1]

def conn():
    return tbench_peer.conn(timeout=60)

def wait_line():
    # the shell says when it has looked at the server
    sys.stdout.flush()
    sys.stdin.readline()

good = conn()
exchange(good, 8, 8)
if step == "idle":
    cs = [conn() for _ in range(3000)]
    exchange(good, 59, 59 + 61440)
    print("ok: 3000 idle connections, the good one served")
    wait_line()
elif step == "slow":
    cs = [conn() for _ in range(1000)]
    req = struct.pack(">II", 12, 100) + bytes(8)
    for i in range(len(req)):
        for c in cs:
            c.send(req[i:i + 1])
        exchange(good, 59, 59 + 61440)
    for c in cs:
        h = recvall(c, 4)
        assert struct.unpack(">I", h)[0] == 100, h
        recvall(c, 100)
    print("ok: 1000 requests a byte at a time, all answered")
elif step == "limits":
    c = conn(); exchange(c, 1000000 + 4, 1000000 + 4)
    print("ok: a request and a reply of exactly the limit")
    for what, b in (("a request over the limit", struct.pack(">I", 1000001)),
                    ("0xffffffff", struct.pack(">I", 0xffffffff)),
                    ("a reply over the limit", struct.pack(">II", 4, 1000001)),
                    ("N = 0", struct.pack(">I", 0)),
                    ("N = 3", struct.pack(">I", 3) + bytes(3))):
        c = conn(); c.sendall(b); dropped(c, what)
    c = conn(); exchange(c, 8, 4)
    print("ok: a reply of its length word alone")
elif step == "lazy":
    cs = []
    junk = b"".join(struct.pack(">II", 4, 1000) for _ in range(7500))
    for i in range(2000):
        c = conn()
        c.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        c.sendall(struct.pack(">II", 4, 16000000) + junk)
        cs.append(c)
    time.sleep(1)
    exchange(good, 59, 59 + 61440)
    print("ok: 2000 clients that do not read, the good one served")
    wait_line()
exchange(good, 8, 8)
print("ok: done")
PY

# step NAME [SERVER OPTIONS]: run the clients' step NAME against a fresh
# server; $SRV is that server, and the script's lines are checked as they
# come
step() {
	srv_start "$1" 7003 "$DBNG" tbench_srv --bind 127.0.0.1 --threads 2 "${@:2}"
	RSS0=$(kib "$SRV" VmRSS)
	coproc PY { PYTHONPATH=$ROOT/tests python3 "$TMP/c.py" "$1" 2>&1; }
	at_exit "kill -KILL $PY_PID"
}
# line WANT: the next line of the step must start with WANT
line() {
	local l
	read -r -t 120 l <&"${PY[0]}" || fail "the step said nothing more"
	echo "$l"
	case $l in "$1"*) ;; *) fail "expected '$1'" ;; esac
}
# end_step: the step's last line; the server stopped, one process of 3
# threads, its summary
end_step() {
	line "ok: done"
	wait "$PY_PID" 2>/dev/null
	# its clients gone, the memory is given back
	wait_until 30 eval '[ -n "$SAN" ] || [ "$(kib "$SRV" VmRSS)" -lt $((RSS0 + 16384)) ]' ||
		fail "the server holds $(kib "$SRV" VmRSS) KiB after its clients left"
	[ "$(ls "/proc/$SRV/task" | wc -l)" = 3 ] || fail "threads: $(ls "/proc/$SRV/task")"
	[ -z "$(ps -o pid= --ppid "$SRV")" ] || fail "the server has children"
	srv_stop
	[ "$SRV_RC" = 0 ] || fail "server exit $SRV_RC"
	tail -2 "$TMP/$1.out"
}

note "1. idle connections"
step idle
line "ok: 3000 idle connections"
grow=$(($(kib "$SRV" VmRSS) - RSS0))
echo "memory: +$grow KiB for 3000 connections"
[ -n "$SAN" ] || [ "$grow" -lt 4096 ] || fail "3000 idle connections took $grow KiB"
echo >&"${PY[1]}"
end_step idle

note "2. slowloris"
step slow
line "ok: 1000 requests a byte at a time"
end_step slow
grep -q "^tbench_srv: served 1001 connections" "$TMP/slow.out" || fail "$(cat "$TMP/slow.out")"

note "3. length words at and past the limit"
step limits --max-length 1000000
line "ok: a request and a reply of exactly the limit"
for w in "a request over the limit" 0xffffffff "a reply over the limit" "N = 0" "N = 3"; do
	line "ok: dropped: $w"
done
line "ok: a reply of its length word alone"
end_step limits --max-length 1000000
for n in "a request over the limit (length word 1000001, limit 1000000)" \
	"a request over the limit (length word 4294967295, limit 1000000)" \
	"a reply asked for over the limit (length word 1000001, limit 1000000)" \
	"a request too short to hold its reply's length (length word 0, limit 1000000)" \
	"a request too short to hold its reply's length (length word 3, limit 1000000)"; do
	grep -qF "$n: connection dropped" "$TMP/limits.err" || fail "no note '$n': $(cat "$TMP/limits.err")"
done
echo "ok: the notes"

note "4. clients that never read"
step lazy
line "ok: 2000 clients that do not read"
peak=$(($(kib "$SRV" VmHWM) - RSS0))
echo "peak memory: +$peak KiB for 2000 such clients"
# 64 MiB kept at most, and the threads' buffers
[ -n "$SAN" ] || [ "$peak" -lt $((80 * 1024)) ] || fail "the server grew by $peak KiB"
echo >&"${PY[1]}"
end_step lazy
grep -q "sent [0-9]* bytes more while its replies wait, past the 64 MiB the server keeps for all such clients: connection dropped" \
	"$TMP/lazy.err" || fail "no note of the bound: $(head -30 "$TMP/lazy.err")"
echo "all hostile clients of the server handled"
