# SPDX-License-Identifier: GPL-3.0-or-later
# What dbench-ng adds to dbench, with the sockio backend (tbench), in a
# network namespace of the test's own: the percentile table of the
# exchanges; a stall while the server is stopped (SIGSTOP), with the
# kernel stack of a client waiting on its socket; --runs with --json;
# compare (which notes a run against another server or backend); check,
# which decides on sockio runs and skips (125) a commit whose run finds
# no server.
. "$(dirname "$0")/../lib.sh"
enter_netns "$@"
command -v python3 >/dev/null || skip "python3 not installed"

head -3000 "$ROOT/loadfiles/netbench.load" >"$TMP/small.load"
RUN=(-t 2 --warmup 0 -c "$TMP/small.load")
srv_start ng 7003 "$DBNG" tbench_srv --bind 127.0.0.1

note "percentiles"
"$DBNG" tbench "${RUN[@]}" 2 127.0.0.1 >"$TMP/p" 2>&1 || fail "$(tail "$TMP/p")"
grep -q '^ Latency ms        Count      Mean       p50       p90       p99     p99.9       Max$' "$TMP/p" ||
	fail "no percentile table: $(cat "$TMP/p")"
grep -Eq '^ ReadX: +[0-9]+ +[0-9.]+ +[0-9.]+ ' "$TMP/p" || fail "no ReadX percentiles"
tail -1 "$TMP/p" | grep -q '^Throughput ' || fail "$(tail -1 "$TMP/p")"
echo "ok: $(grep '^ ReadX:' "$TMP/p")"

note "a stall: the server stopped for 600 ms, the clients wait on their sockets"
"$DBNG" tbench -t 4 --warmup 0 -c "$TMP/small.load" --json "$TMP/s.json" 2 127.0.0.1 \
	>"$TMP/s" 2>&1 &
cl=$!
at_exit "kill -KILL $cl"
wait_for "$TMP/s" " execute "
kill -STOP "$SRV"
sleep 0.6
kill -CONT "$SRV"
wait $cl || fail "the run failed: $(tail "$TMP/s")"
sed -n '/^ Stalls/,/^$/p' "$TMP/s" >"$TMP/stalls"
cat "$TMP/stalls" | head -30
grep -Eq '^ Stalls: [0-9]+ ops? ran longer than 100 ms ' "$TMP/stalls" || fail "no stall: $(cat "$TMP/s")"
stall_check "$TMP/s.json"
if [ "$(id -u)" = 0 ] && [ -r /proc/self/stack ]; then
	grep -q 'tcp_recvmsg\|sk_wait_data\|inet_recvmsg\|sock_recvmsg' "$TMP/stalls" ||
		fail "no socket receive in the stall's kernel stacks"
	echo "ok: a client's kernel stack shows its socket: $(grep -m1 -o 'sk_wait_data\|tcp_recvmsg[a-z_]*' "$TMP/stalls")"
fi
tail -1 "$TMP/s" | grep -q '^Throughput ' || fail "Throughput not last"

note "--runs 2 --json, compare"
"$DBNG" tbench --runs 2 "${RUN[@]}" --json "$TMP/r.json" 1 127.0.0.1 >"$TMP/r" 2>&1 ||
	fail "$(tail "$TMP/r")"
[ "$(grep -c '^==> run [12] of 2$' "$TMP/r")" = 2 ] || fail "not 2 runs"
grep -q "^Run-to-run spread over 2 runs" "$TMP/r" || fail "no spread: $(cat "$TMP/r")"
tail -1 "$TMP/r" | grep -q '^Throughput ' || fail "$(tail -1 "$TMP/r")"
[ -s "$TMP/r-1.json" ] && [ -s "$TMP/r-2.json" ] || fail "no r-1.json, r-2.json"
# the result re-rendered, as text and as a page
"$DBNG" report "$TMP/r-1.json" --html "$TMP/r.html" >"$TMP/rep" 2>&1 || fail "report: $(cat "$TMP/rep")"
tail -1 "$TMP/rep" | grep -q '^Throughput ' || fail "report: $(tail -3 "$TMP/rep")"
grep -q 'sockio' "$TMP/r.html" || fail "the page does not name the backend"
rc=0
"$DBNG" compare "$TMP/r-1.json" -- "$TMP/r-2.json" >"$TMP/c" 2>&1 || rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || fail "compare exited $rc: $(cat "$TMP/c")"
! grep -q "another backend" "$TMP/c" || fail "compare notes a backend difference: $(cat "$TMP/c")"
# a run against another server is not the same experiment
"$DBNG" -B sockio --server ::1 "${RUN[@]}" --json "$TMP/v6.json" 1 >"$TMP/v6" 2>&1 ||
	"$DBNG" -B sockio --server localhost "${RUN[@]}" --json "$TMP/v6.json" 1 >"$TMP/v6" 2>&1 ||
	fail "$(tail "$TMP/v6")"
rc=0
"$DBNG" compare "$TMP/r-1.json" -- "$TMP/v6.json" >"$TMP/c2" 2>&1 || rc=$?
grep -q "ran another backend, backend version or backend options than baseline run 1 (sockio version 1, options server=127.0.0.1)" "$TMP/c2" ||
	fail "compare does not note the other server: $(cat "$TMP/c2")"
echo "ok: compare notes it: $(grep -o '[0-9]* of the [0-9]* runs ran another backend[^)]*)' "$TMP/c2")"

note "check"
rc=0
"$DBNG" check --busy-ok --no-keep --min-runs 1 --max-runs 1 --baseline "$TMP/r-1.json" "$TMP/r-2.json" \
	"${RUN[@]}" -B sockio 1 127.0.0.1 >"$TMP/k" 2>"$TMP/ke" || rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || fail "check exited $rc: $(cat "$TMP/k" "$TMP/ke")"
[ "$(wc -l <"$TMP/k")" = 1 ] || fail "check: $(cat "$TMP/k")"
echo "ok: check: $(cat "$TMP/k")"
srv_stop
rc=0
"$DBNG" check --busy-ok --no-keep --baseline "$TMP/r-1.json" "$TMP/r-2.json" \
	"${RUN[@]}" -B sockio 1 127.0.0.1 >"$TMP/k" 2>"$TMP/ke" || rc=$?
[ $rc = 125 ] || fail "check without a server exited $rc: $(cat "$TMP/k" "$TMP/ke")"
grep -q "^cannot decide: run 1 failed (exit 3)" "$TMP/k" || fail "$(cat "$TMP/k")"
grep -q "cannot connect to the server at 127.0.0.1 port 7003: Connection refused" "$TMP/ke" || fail "$(cat "$TMP/ke")"
echo "ok: no server: $(cat "$TMP/k")"
[ -z "$(netns_procs dbench-ng)" ] || fail "dbench-ng processes left"
