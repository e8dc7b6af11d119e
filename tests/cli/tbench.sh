# SPDX-License-Identifier: GPL-3.0-or-later
# tbench: dbench-ng's client (-B sockio, "dbench-ng tbench") and server
# ("dbench-ng tbench_srv") with each other and with Debian's tbench and
# tbench_srv, in a network namespace of the test's own (loopback only):
#  1. dbench-ng against itself, one pass of the built-in workload: the
#     server counts exactly the exchanges and bytes of tbench's sizes
#     (docs/compat.md, "tbench"; written out once more below in Python), the
#     client exactly tbench's bytes (WriteX size, ReadX ret_size);
#  2. the same sizes, exchange by exchange, as Debian's tbench sends them
#     (the server's --trace of both clients, one pass of 3000 lines of
#     client.txt, -D of its own);
#  3. Debian's tbench against dbench-ng's server, dbench-ng's client
#     against Debian's tbench_srv;
#  4. IPv6, --bind, --port, the names tbench-ng and tbench-ng-srv, -T,
#     the SERVER operand, SIGINT and SIGTERM with the server's summary;
#  and no process left in the namespace.
. "$(dirname "$0")/../lib.sh"
enter_netns "$@"
command -v python3 >/dev/null || skip "python3 not installed"

LOAD=$ROOT/loadfiles/netbench.load
has_debian() { command -v tbench >/dev/null && command -v tbench_srv >/dev/null && [ -r "$CLIENT_TXT" ]; }

# expect LOADFILE DIR ID: what one pass of LOADFILE by client ID with -D
# DIR puts on the wire, the handshake included: "exchanges bytes_sent
# bytes_received write_bytes read_bytes", the sizes of §4.1
expect() {
	python3 - "$@" <<'PY'
import shlex, sys
load, d, cid = sys.argv[1], sys.argv[2], int(sys.argv[3])
def L(p):
    return len(d + p.replace("\\", "/").replace("client1", "client%d" % cid))
ex, sent, recv, wb, rb = 1, 8, 8, 0, 0
for line in open(load):
    t = shlex.split(line.replace("\\", "\\\\"))
    if not t or t[0].startswith("#"):
        continue
    if t[0][0].isdigit():
        t = t[1:]
    op, a = t[0], t[1:-1]
    if op in ("Unlink", "Mkdir", "Rmdir"):      s, r = 39 + 2 + 2 * L(a[0]) + 2, 39
    elif op == "NTCreateX":                     s, r = 70 + 2 + 2 * L(a[0]) + 2, 87
    elif op == "WriteX":                        s, r = 59 + int(a[2], 0), 55; wb += int(a[2], 0)
    elif op == "ReadX":                         s, r = 59, 59 + int(a[3], 0); rb += int(a[3], 0)
    elif op == "Close":                         s, r = 47, 39
    elif op == "Rename":                        s, r = 47 + 2 * L(a[0]) + 2 * L(a[1]), 39
    elif op == "Flush":                         s, r = 41, 39
    elif op == "QUERY_PATH_INFORMATION":        s, r = 55 + 2 * L(a[0]), 71
    elif op in ("QUERY_FILE_INFORMATION", "QUERY_FS_INFORMATION"): s, r = 59, 71
    elif op == "FIND_FIRST":                    s, r = 59 + 2 * L(a[0]), 39 + 90 * int(a[3], 0)
    elif op == "SET_FILE_INFORMATION":          s, r = 71, 47
    elif op in ("LockX", "UnlockX"):            s, r = 51, 39
    elif op in ("Deltree", "Sleep"):            continue
    else: sys.exit("unknown op " + op)
    ex, sent, recv = ex + 1, sent + s, recv + r
print(ex, sent, recv, wb, rb)
PY
}

# served OUT: "connections exchanges bytes_received bytes_sent" of the
# server's summary in OUT
served() {
	sed -n 's/^tbench_srv: served \([0-9]*\) connections (at most [0-9]* at once), \([0-9]*\) exchanges, \([0-9]*\) bytes received, \([0-9]*\) bytes sent$/\1 \2 \3 \4/p' "$1"
}

# good_run OUT: a complete run: a Throughput line last, no unexpected
# results, no message
good_run() {
	tail -1 "$1" | grep -q '^Throughput [0-9.e+]* MB/sec  [0-9]* clients  [0-9]* procs  max_latency=' ||
		fail "$1: not a complete run: $(tail -5 "$1")"
	! grep -q "Unexpected results" "$1" || fail "$1: unexpected results: $(grep -A5 Unexpected "$1")"
}

# ---------------------------------------------------------------------------
note "1. dbench-ng against itself: one pass of the built-in workload, counted by both"
srv_start ng 7003 "$DBNG" tbench_srv --bind 127.0.0.1
"$DBNG" tbench --run-once --warmup 0 -t 600 -D /srv/tb -c "$LOAD" \
	--json "$TMP/once.json" 1 127.0.0.1 >"$TMP/once" 2>&1 ||
	fail "run failed: $(tail "$TMP/once")"
good_run "$TMP/once"
srv_stop
[ "$SRV_RC" = 0 ] || fail "the server exited $SRV_RC after SIGTERM"
grep -q '^tbench_srv: stopped by signal 15 (Terminated) after ' "$TMP/ng.out" ||
	fail "no summary: $(cat "$TMP/ng.out")"
read -r ex sent recv wb rb <<<"$(expect "$LOAD" /srv/tb 0)"
read -r c sex sin sout <<<"$(served "$TMP/ng.out")"
echo "expected: $ex exchanges, $sent bytes sent, $recv received; server: $c connection, $sex, $sin, $sout"
[ "$c $sex $sin $sout" = "1 $ex $sent $recv" ] ||
	fail "the server counted $c connections, $sex exchanges, $sin bytes in, $sout out; expected 1 $ex $sent $recv"
python3 - "$TMP/once.json" "$wb" "$rb" <<'PY' || fail "the client's bytes are not tbench's"
import json, sys
d = json.load(open(sys.argv[1]))
ops = {o["name"]: o for o in d["ops"]}
w, r = ops["WriteX"]["bytes"], ops["ReadX"]["bytes"]
print("client: WriteX %d bytes, ReadX %d bytes (expected %s, %s)" % (w, r, sys.argv[2], sys.argv[3]))
assert (w, r) == (int(sys.argv[2]), int(sys.argv[3]))
assert d["config"]["backend"] == "sockio"
assert d["summary"]["bytes"] == w + r
PY
echo "ok: $(tail -1 "$TMP/once")"

# ---------------------------------------------------------------------------
if has_debian; then
	note "2. the same sizes as Debian's tbench, exchange by exchange"
	head -3000 "$CLIENT_TXT" >"$TMP/first.load"
	srv_start trace 7003 "$DBNG" tbench_srv --bind 127.0.0.1 --trace
	# tbench 4.0 replays the file over and over for -t 1 (and warms
	# up for none): its first pass is enough
	timeout 120 tbench -t 1 -c "$TMP/first.load" -D /srv/x 1 127.0.0.1 \
		>"$TMP/deb-trace" 2>&1 || fail "tbench failed: $(tail "$TMP/deb-trace")"
	srv_stop
	awk '$2 == "trace" {print $4, $5}' "$TMP/trace.err" >"$TMP/deb.sizes"
	srv_start trace 7003 "$DBNG" tbench_srv --bind 127.0.0.1 --trace
	"$DBNG" tbench --run-once --warmup 0 -t 600 -c "$TMP/first.load" \
		-D /srv/x 1 127.0.0.1 >"$TMP/ng-trace" 2>&1 ||
		fail "run failed: $(tail "$TMP/ng-trace")"
	srv_stop
	awk '$2 == "trace" {print $4, $5}' "$TMP/trace.err" >"$TMP/ng.sizes"
	n=$(wc -l <"$TMP/ng.sizes")
	[ "$n" -gt 2900 ] || fail "only $n exchanges traced"
	[ "$(wc -l <"$TMP/deb.sizes")" -ge "$n" ] ||
		fail "tbench made only $(wc -l <"$TMP/deb.sizes") exchanges"
	head -n "$n" "$TMP/deb.sizes" | cmp -s - "$TMP/ng.sizes" ||
		fail "the sizes differ from tbench's: $(head -n "$n" "$TMP/deb.sizes" | diff - "$TMP/ng.sizes" | head)"
	echo "ok: $n exchanges of the same sizes (first: $(head -1 "$TMP/ng.sizes"), the handshake)"

	note "3a. Debian's tbench against dbench-ng's server"
	srv_start ng 7003 "$DBNG" tbench_srv --bind 127.0.0.1
	timeout 120 tbench -t 3 2 127.0.0.1 >"$TMP/deb-ng" 2>&1 ||
		fail "tbench failed: $(tail "$TMP/deb-ng")"
	good_run "$TMP/deb-ng"
	srv_stop
	read -r c sex sin sout <<<"$(served "$TMP/ng.out")"
	[ "$c" = 2 ] && [ "$sex" -gt 1000 ] || fail "served: $(cat "$TMP/ng.out")"
	# dbench-ng report reads tbench's log as a dbench log
	"$DBNG" report "$TMP/deb-ng" >"$TMP/rep" 2>&1 || fail "report: $(cat "$TMP/rep")"
	[ "$(tail -1 "$TMP/rep" | cut -d' ' -f2)" = "$(tail -1 "$TMP/deb-ng" | cut -d' ' -f2)" ] ||
		fail "report reads another Throughput: $(tail -1 "$TMP/rep")"
	echo "ok: $(tail -1 "$TMP/deb-ng"); server: $c connections, $sex exchanges"

	note "3b. dbench-ng's client against Debian's tbench_srv"
	srv_start deb 7003 tbench_srv
	"$DBNG" tbench -t 3 --warmup 1 -c "$CLIENT_TXT" 2 127.0.0.1 >"$TMP/ng-deb" 2>&1 ||
		fail "run failed: $(tail "$TMP/ng-deb")"
	good_run "$TMP/ng-deb"
	srv_stop
	wait_until 10 eval '[ -z "$(netns_procs tbench_srv)" ]' ||
		fail "tbench_srv processes left: $(netns_procs tbench_srv)"
	echo "ok: $(tail -1 "$TMP/ng-deb")"
else
	note "2, 3: skipped: Debian's dbench package (tbench, tbench_srv, $CLIENT_TXT) is not installed"
fi

# ---------------------------------------------------------------------------
note "4. IPv6, --bind, --port, the installed names, -T, the SERVER operand"
ln -s "$DBNG" "$TMP/tbench-ng"
ln -s "$DBNG" "$TMP/tbench-ng-srv"
small=$TMP/small.load
head -2000 "$LOAD" >"$small"
if [ -e /proc/sys/net/ipv6 ] && ip -6 addr show dev lo | grep -q '::1'; then
	srv_start v6 7010 "$TMP/tbench-ng-srv" --bind ::1 --port 7010 -t "TCP_NODELAY SO_RCVBUF=262144"
	grep -q '^tbench_srv: listening on \[::1\]:7010, ' "$TMP/v6.err" || fail "$(cat "$TMP/v6.err")"
	"$TMP/tbench-ng" -t 2 --warmup 0 -c "$small" --port 7010 \
		-T "TCP_NODELAY,so_sndbuf=65536" 1 ::1 >"$TMP/v6" 2>&1 ||
		fail "IPv6 run failed: $(tail "$TMP/v6")"
	good_run "$TMP/v6"
	# bound to ::1 only: not on 127.0.0.1
	expect_rc 3 "$DBNG" tbench -t 2 -c "$small" --port 7010 1 127.0.0.1 >"$TMP/v4" 2>"$TMP/v4.err"
	grep -q "^dbench-ng: client 0: cannot connect to the server at 127.0.0.1 port 7010: Connection refused$" "$TMP/v4.err" ||
		fail "$(cat "$TMP/v4.err")"
	srv_stop INT
	[ "$SRV_RC" = 0 ] || fail "the server exited $SRV_RC after SIGINT"
	grep -q '^tbench_srv: stopped by signal 2 (Interrupt) ' "$TMP/v6.out" || fail "$(cat "$TMP/v6.out")"
	echo "ok: IPv6: $(tail -1 "$TMP/v6")"
	# the default binds every address, IPv6 and IPv4
	srv_start all 7003 "$DBNG" tbench_srv
	"$DBNG" -B sockio --server ::1 -t 2 --warmup 0 -c "$small" 1 >"$TMP/a6" 2>&1 || fail "$(tail "$TMP/a6")"
	"$DBNG" -B sockio -o server=127.0.0.1 -t 2 --warmup 0 -c "$small" 1 >"$TMP/a4" 2>&1 || fail "$(tail "$TMP/a4")"
	good_run "$TMP/a6"
	good_run "$TMP/a4"
	srv_stop
	[ "$(served "$TMP/all.out" | cut -d' ' -f1)" = 2 ] || fail "$(cat "$TMP/all.out")"
	echo "ok: one server, an IPv6 and an IPv4 client"
else
	note "IPv6: skipped, no ::1 here"
fi

# -T is tbench's: refused names are named; the other backends ignore it
expect_rc 2 "$DBNG" tbench -T "TCP_NODELAY SO_FOO" -t 2 1 >/dev/null 2>"$TMP/e1"
grep -q "^dbench-ng: -T: unknown socket option 'SO_FOO' (known: SO_KEEPALIVE, " "$TMP/e1" || fail "$(cat "$TMP/e1")"
expect_rc 2 "$DBNG" tbench -T "SO_SNDBUF" -t 2 1 >/dev/null 2>"$TMP/e2"
grep -q "^dbench-ng: -T: socket option SO_SNDBUF needs a value (SO_SNDBUF=N)$" "$TMP/e2" || fail "$(cat "$TMP/e2")"
expect_rc 2 "$DBNG" tbench --server a -t 2 1 b >/dev/null 2>"$TMP/e3"
grep -q "^dbench-ng: the server is given twice, by --server and by the operand 'b' after NPROCS$" "$TMP/e3" || fail "$(cat "$TMP/e3")"
expect_rc 2 "$DBNG" tbench_srv -t FOO >/dev/null 2>"$TMP/e4"
grep -q "^tbench_srv: -t: unknown socket option 'FOO'" "$TMP/e4" || fail "$(cat "$TMP/e4")"
expect_rc 2 "$DBNG" tbench_srv extra >/dev/null 2>"$TMP/e5"
expect_rc 2 "$DBNG" -B null --port 1 -t 2 1 >/dev/null 2>"$TMP/e6"
grep -q "^dbench-ng: --port=1: backend 'null' has no option --port (an option of -B sockio)$" "$TMP/e6" || fail "$(cat "$TMP/e6")"
# the fileio backend takes -T and a second operand and ignores them, as
# dbench does
"$DBNG" -B null -T FOO -t 1 --warmup 0 -c "$small" 1 somehost >"$TMP/null" 2>&1 || fail "$(cat "$TMP/null")"
echo "ok: option errors"

# nothing left in the namespace
[ -z "$(netns_procs dbench-ng)" ] || fail "dbench-ng processes left: $(netns_procs dbench-ng)"
echo "all tbench checks passed"
