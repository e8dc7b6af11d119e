# SPDX-License-Identifier: GPL-3.0-or-later
# 1000 tbench clients on one dbench-ng server, in a network namespace of
# the test's own: all connect before the start and are served together
# (1000 connections open at once, every client's exchanges answered), by
# one process with its few threads: no process per connection, as
# tbench_srv forks.  Each client makes one pass of a few exchanges and
# then sleeps until the run is stopped (SIGINT), so that 1000 client
# processes fit a small machine and the connections stay open however
# late the test looks; the server must hold 1000 descriptors (it raises
# its soft limit to the hard one).
. "$(dirname "$0")/../lib.sh"
enter_netns "$@"
command -v python3 >/dev/null || skip "python3 not installed"
N=1000
[ "$(ulimit -Hn)" = unlimited ] || [ "$(ulimit -Hn)" -gt $((N + 100)) ] ||
	skip "the hard limit of open files ($(ulimit -Hn)) is below $((N + 100))"

cat >"$TMP/light.load" <<'X'
NTCreateX "\clients\client1\f" 0x40 0x5 1 NT_STATUS_OK
WriteX 1 0 4096 4096 NT_STATUS_OK
ReadX 1 0 4096 4096 NT_STATUS_OK
QUERY_PATH_INFORMATION "\clients\client1\f" 1004 NT_STATUS_OK
Close 1 NT_STATUS_OK
Sleep 600000000 NT_STATUS_OK
X

srv_start ng 7003 "$DBNG" tbench_srv --bind 127.0.0.1 --threads 2
# job control: the run's SIGINT must not be ignored (a background job of
# a script starts with SIGINT ignored, which dbench-ng keeps)
set -m
"$DBNG" tbench -t 600 --warmup 0 --stall-threshold 0 -c "$TMP/light.load" \
	--json "$TMP/r.json" $N 127.0.0.1 >"$TMP/run" 2>&1 &
cl=$!
set +m
at_exit "kill -KILL $cl"
# every client connects before the start and holds its connection until
# it is stopped (it sleeps after its pass): the 1000 connections are
# open at once, whenever the test gets to look
established() { [ "$(ss -Htn state established "( sport = :7003 )" | wc -l)" = $N ]; }
wait_for "$TMP/run" "^releasing clients$" 300
wait_until 300 established ||
	fail "$(ss -Htn state established "( sport = :7003 )" | wc -l) connections open, expected $N"
tasks=$(ls "/proc/$SRV/task" | wc -l)
kids=$(ps -o pid= --ppid "$SRV" | wc -l)
echo "during the run: $N connections open, the server has $tasks threads and $kids child processes"
[ "$tasks" = 3 ] && [ "$kids" = 0 ] || fail "the server has $tasks threads and $kids children"
kill -INT $cl
rc=0
wait $cl || rc=$?
[ $rc = 130 ] || fail "the run exited $rc after SIGINT: $(grep -v '^ ' "$TMP/run" | tail)"
srv_stop
cat "$TMP/ng.out"
grep -q "^tbench_srv: served $N connections (at most $N at once), [0-9]* exchanges, " "$TMP/ng.out" ||
	fail "$(cat "$TMP/ng.out")"
# every exchange answered: a handshake per client and one per op the
# clients counted (with no warmup they counted every op of the run)
ex=$(sed -n 's/.* at once), \([0-9]*\) exchanges,.*/\1/p' "$TMP/ng.out")
ops=$(python3 -c 'import json, sys; print(sum(o["count"] for o in json.load(open(sys.argv[1]))["ops"]))' "$TMP/r.json")
[ "$ex" = $((N + ops)) ] || fail "the server answered $ex exchanges, the clients made $N handshakes and $ops ops"
echo "ok: $ex exchanges: $N handshakes and $ops ops"
! grep -q "dropped\|closed" "$TMP/ng.out" "$TMP/ng.err" || fail "$(cat "$TMP/ng.err")"
[ -z "$(netns_procs dbench-ng)" ] || fail "dbench-ng processes left: $(netns_procs dbench-ng | wc -l)"
echo "ok: $N clients served at once by one process of 3 threads"
