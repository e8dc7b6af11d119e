# SPDX-License-Identifier: GPL-3.0-or-later
# 1000 tbench clients on one dbench-ng server, in a network namespace of
# the test's own: all connect before the start and are served together
# (1000 connections open at once, every client's exchanges answered, a
# complete run), by one process with its few threads: no process per
# connection, as tbench_srv forks.  The loadfile is light (a few
# exchanges and a 200 ms Sleep a pass), so that 1000 client processes
# fit a small machine; the server must hold 1000 descriptors (it raises
# its soft limit to the hard one).
. "$(dirname "$0")/../lib.sh"
enter_netns "$@"
N=1000
[ "$(ulimit -Hn)" = unlimited ] || [ "$(ulimit -Hn)" -gt $((N + 100)) ] ||
	skip "the hard limit of open files ($(ulimit -Hn)) is below $((N + 100))"

cat >"$TMP/light.load" <<'X'
NTCreateX "\clients\client1\f" 0x40 0x5 1 NT_STATUS_OK
WriteX 1 0 4096 4096 NT_STATUS_OK
ReadX 1 0 4096 4096 NT_STATUS_OK
QUERY_PATH_INFORMATION "\clients\client1\f" 1004 NT_STATUS_OK
Close 1 NT_STATUS_OK
Sleep 200000 NT_STATUS_OK
X

srv_start ng 7003 "$DBNG" tbench_srv --bind 127.0.0.1 --threads 2
"$DBNG" tbench -t 3 --warmup 0 --stall-threshold 0 -c "$TMP/light.load" $N 127.0.0.1 \
	>"$TMP/run" 2>&1 &
cl=$!
at_exit "kill -KILL $cl"
# while the clients run: every connection open, the server one process
# of 3 threads (the acceptor and 2 loops)
wait_for "$TMP/run" "^releasing clients$" 120
open=$(ss -Htn state established "( sport = :7003 )" | wc -l)
tasks=$(ls "/proc/$SRV/task" | wc -l)
kids=$(ps -o pid= --ppid "$SRV" | wc -l)
echo "during the run: $open connections open, the server has $tasks threads and $kids child processes"
[ "$open" = $N ] || fail "$open connections open, expected $N"
[ "$tasks" = 3 ] && [ "$kids" = 0 ] || fail "the server has $tasks threads and $kids children"
rc=0
wait $cl || rc=$?
[ $rc = 0 ] || fail "the run exited $rc: $(grep -v '^ ' "$TMP/run" | tail)"
tail -1 "$TMP/run" | grep -q "^Throughput [0-9.e+]* MB/sec  $N clients  $N procs  max_latency=" ||
	fail "$(tail "$TMP/run")"
srv_stop
cat "$TMP/ng.out"
grep -q "^tbench_srv: served $N connections (at most $N at once), [0-9]* exchanges, " "$TMP/ng.out" ||
	fail "$(cat "$TMP/ng.out")"
# every exchange answered: a handshake per client and one per op the
# clients counted (with no warmup the table holds every op of the run)
ex=$(sed -n 's/.* at once), \([0-9]*\) exchanges,.*/\1/p' "$TMP/ng.out")
ops=$(awk '/^ Operation/ {t = 1; next} t && NF == 4 && $1 !~ /^-/ {n += $2} t && /^$/ {exit} END {print n}' "$TMP/run")
[ "$ex" = $((N + ops)) ] || fail "the server answered $ex exchanges, the clients made $N handshakes and $ops ops"
echo "ok: $ex exchanges: $N handshakes and $ops ops"
! grep -q "dropped\|closed" "$TMP/ng.out" "$TMP/ng.err" || fail "$(cat "$TMP/ng.err")"
[ -z "$(netns_procs dbench-ng)" ] || fail "dbench-ng processes left: $(netns_procs dbench-ng | wc -l)"
echo "ok: $(tail -1 "$TMP/run")"
