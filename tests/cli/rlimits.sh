# SPDX-License-Identifier: GPL-3.0-or-later
# Resource limits: a clear message, the documented exit status, nothing
# left behind.
#  RLIMIT_FSIZE (ulimit -f): a WriteX past it fails with "File too large"
#    (exit 1, the op and FILE:LINE), the trees removed; a --json file past
#    it is "--json FILE: File too large" (exit 3), no file, no temporary.
#    Before, SIGXFSZ killed the client ("killed by signal 25") and, at the
#    JSON write, the parent silently (exit 153).
#  RLIMIT_NOFILE (ulimit -n 6 to 24): exit 0, 1 or 3 with "Too many open
#    files"; a tree left says so, not rmdir's "Directory not empty"; the
#    server pauses accepting and goes on when descriptors free up.
#  RLIMIT_AS (ulimit -v): "cannot allocate memory for N clients" (exit 3),
#    DIR/clients removed (it was left), the JSON says failed (it said ok);
#    report and compare either work or say out of memory (exit 2).
. "$(dirname "$0")/../lib.sh"
enter_netns "$@"
command -v python3 >/dev/null || skip "python3 not installed"
D=$TMP/d
mkdir -p "$D"

# limited LIMIT CMD...: CMD under the ulimit option LIMIT ("-f 20")
limited() {
	local l=$1
	shift
	# shellcheck disable=SC2086
	(ulimit $l && exec "$@")
}
# status JSON: its status
status() {
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["status"])' "$1"
}

note "RLIMIT_FSIZE"
limited "-f 20" "$DBNG" -t 2 --warmup 0 -D "$D" --no-bpf 1 >"$TMP/o" 2>"$TMP/e"
rc=$?
[ $rc = 1 ] || fail "exit $rc: $(cat "$TMP/e")"
grep -q "^dbench-ng: client 0 at [^ ]*:[0-9]*: WriteX .*(File too large)" "$TMP/e" ||
	fail "$(cat "$TMP/e")"
! grep -q "killed by signal" "$TMP/e" || fail "$(cat "$TMP/e")"
[ ! -e "$D/clients" ] || fail "DIR/clients left"
echo "ok: $(grep WriteX "$TMP/e")"
limited "-f 20" "$DBNG" -B null -t 1 --warmup 0 --json "$TMP/f.json" 1 >"$TMP/o" 2>"$TMP/e"
rc=$?
[ $rc = 3 ] || fail "exit $rc: $(cat "$TMP/e")"
grep -qx "dbench-ng: --json $TMP/f.json: File too large" "$TMP/e" || fail "$(cat "$TMP/e")"
[ -z "$(ls "$TMP" | grep 'f\.json')" ] || fail "left: $(ls "$TMP")"
echo "ok: $(cat "$TMP/e")"

note "RLIMIT_NOFILE"
for n in 6 7 8 9 10 12 16 24; do
	limited "-n $n" "$DBNG" -t 2 --warmup 0 -D "$D" --no-bpf 2 >"$TMP/o" 2>"$TMP/e"
	rc=$?
	case $rc in
	0) ;;
	1 | 3) grep -q "Too many open files" "$TMP/e" || fail "-n $n: exit $rc: $(cat "$TMP/e")" ;;
	*) fail "-n $n: exit $rc: $(cat "$TMP/e")" ;;
	esac
	if [ -e "$D/clients" ]; then
		grep -q "clean-up: [0-9]* client trees\? left in $D/clients (client[0-9]*: Too many open files)" "$TMP/e" ||
			fail "-n $n: a tree left, and: $(cat "$TMP/e")"
		rm -rf "$D/clients"
	fi
	echo "ok: -n $n: exit $rc $(grep -m1 -v BPF "$TMP/e")"
done
# the server: descriptors for 12 connections or so; 40 come
# (bash -c execs it: $SRV is the server's pid)
srv_start srv 7003 bash -c 'ulimit -n 16 && exec "$0" tbench_srv --bind 127.0.0.1 --threads 1' "$DBNG"
python3 - <<'PY' || fail "the server under ulimit -n 16"
import socket, struct
def exchange(c):
    c.sendall(struct.pack(">II", 4, 4))
    b = b""
    while len(b) < 8:
        x = c.recv(8 - len(b))
        assert x, "closed"
        b += x
cs = [socket.create_connection(("127.0.0.1", 7003)) for _ in range(40)]
for c in cs[:4]:
    c.settimeout(30)
    exchange(c)
for c in cs:
    c.close()
c = socket.create_connection(("127.0.0.1", 7003))
c.settimeout(30)
exchange(c)
print("ok: 40 connections on 16 descriptors; served again once they closed")
PY
srv_stop
[ "$SRV_RC" = 0 ] || fail "server exit $SRV_RC"
grep -q "accept: Too many open files: accepting paused for 100 ms" "$TMP/srv.err" ||
	fail "$(cat "$TMP/srv.err")"
echo "ok: $(grep -m1 accept "$TMP/srv.err")"

note "RLIMIT_AS"
# AddressSanitizer reserves terabytes of address space for its shadow: a
# sanitized build cannot start under ulimit -v at all
if ldd "$DBNG" 2>/dev/null | grep -q libasan; then
	echo "all resource limits handled (RLIMIT_AS not tried: a sanitized build)"
	exit 0
fi
# 5000 clients' shared slots take more than 300 MB
limited "-v 300000" "$DBNG" -t 1 --warmup 0 -D "$D" --no-bpf --json "$TMP/a.json" 5000 \
	>"$TMP/o" 2>"$TMP/e"
rc=$?
[ $rc = 3 ] || fail "exit $rc: $(cat "$TMP/e")"
grep -qx "dbench-ng: cannot allocate memory for 5000 clients: Cannot allocate memory" "$TMP/e" ||
	fail "$(cat "$TMP/e")"
[ ! -e "$D/clients" ] || fail "DIR/clients left"
[ "$(status "$TMP/a.json")" = failed ] || fail "the JSON says $(status "$TMP/a.json")"
echo "ok: $(cat "$TMP/e")"
"$DBNG" -B null -t 1 --warmup 0 --json "$TMP/r.json" 1 >/dev/null 2>&1 || fail "the run failed"
for v in 12000 16000 24000 32000; do
	for cmd in "report $TMP/r.json" "compare $TMP/r.json -- $TMP/r.json"; do
		# shellcheck disable=SC2086
		limited "-v $v" "$DBNG" $cmd >/dev/null 2>"$TMP/e"
		rc=$?
		case $rc in
		0) ;;
		2) grep -q "out of memory" "$TMP/e" || fail "-v $v $cmd: $(cat "$TMP/e")" ;;
		127) ;; # the loader itself had no room: not ours
		*) fail "-v $v $cmd: exit $rc: $(cat "$TMP/e")" ;;
		esac
	done
done
echo "ok: report and compare work or say out of memory"
echo "all resource limits handled"
