# SPDX-License-Identifier: GPL-3.0-or-later
# dbench-ng-mpi against a real file server (docs/mpi.md): four ranks of
# two clients each load one share of a private smbd (tests/smbd.sh: its
# config, state and share in $TMP, stopped by its pid on every exit path),
# mpirun and smbd in a network namespace of this test's own with only lo,
# Open MPI's TCP transport forced.
#   - the merged result is exactly the sum of the ranks' (tests/mpi_sum.py:
#     counts, bytes, histogram bins, hosts, clients by id, the series
#     aligned on the barrier), LockX/UnlockX/Flush not run on every rank
#   - client ids are unique across ranks: the share holds client0 to
#     client7, each with its own tree, and nothing else under clients/
#   - rank 2 killed (SIGKILL) mid-run: rank 0 prints and writes what every
#     rank measured, no process of the run is left, no client tree on the
#     share, smbd still serves and a new run works
# Not beside mpi.sh (run.sh): each starts 4 ranks of 2 clients, and rank 0
# must print within mpirun's 3 s after a rank is killed; the two would
# add their ranks to each other's load (their processes are told apart
# by a tag, mpi_ours in tests/mpirun.sh).
# run.sh: lock mpi
. "$(dirname "$0")/../smbd.sh"
netns_enter "$@"
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../mpirun.sh"

MPI=$ROOT/dbench-ng-mpi
command -v mpirun >/dev/null || skip "mpirun not installed (openmpi-bin)"
[ -x "$MPI" ] || skip "dbench-ng-mpi not built (libopenmpi-dev missing)"
# as in mpi.sh: Open MPI's plugins leave allocations LeakSanitizer cannot
# name (the smb backend's own leaks are checked by smb.sh)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
smb_test_share "$TMP/smb"

# mpi OUT ARGS...: mpirun -np 4 dbench-ng-mpi -B smb ARGS over lo, stdout
# and stderr to OUT; its exit status
mpi() {
	local out=$1
	shift
	mpirun --allow-run-as-root --oversubscribe -np 4 \
		--mca btl self,tcp --mca btl_tcp_if_include lo \
		--mca oob_tcp_if_include lo $MPI_EXTRA \
		"$MPI" -B smb "$S" "$U" -c builtin:netbench "$@" >"$out" 2>&1
}
MPI_EXTRA=

# no process of dbench-ng-mpi left, no mpirun
none_left() {
	mpi_gone
	[ -z "$(mpi_ours mpirun)" ] || fail "mpirun left: $(mpi_ours mpirun)"
}

note "4 ranks x 2 clients on one share: the merged result is the ranks' sum"
mpi "$TMP/out" -t 3 --warmup 1 --skip-cleanup --json "$TMP/run.json" \
	--rank-json "$TMP/rank-%r.json" 2 || {
	cat "$TMP/out"
	fail "exit $?"
}
none_left
grep -q '^Throughput .* 8 clients  8 procs ' "$TMP/out" ||
	fail "no Throughput line of 8 clients: $(tail -3 "$TMP/out")"
grep -q '^Hosts: 4 ranks; slowest rank' "$TMP/out" || fail "no imbalance line"
python3 "$ROOT/tests/mpi_sum.py" "$TMP" 4 2 ||
	fail "the merged result is not the sum of the ranks'"
python3 - "$TMP" <<'PY' || fail "the ops the share cannot do"
import json, sys
d = sys.argv[1]
run = json.load(open(d + "/run.json"))
ranks = [json.load(open("%s/rank-%d.json" % (d, r))) for r in range(4)]
# the server really was loaded, by every rank, through SMB
assert run["config"]["backend"] == "smb", run["config"]["backend"]
for r, rk in enumerate(ranks):
    n = sum(o["count"] for o in rk["ops"])
    assert n > 100, "rank %d ran %d ops" % (r, n)
# LockX, UnlockX, Flush: counted as not run, on every rank and in the sum
for m in run["ops"]:
    if m["name"] not in ("LockX", "UnlockX", "Flush"):
        continue
    per = [o for rk in ranks for o in rk["ops"] if o["name"] == m["name"]]
    assert m["count"] == 0, m
    assert m["not_executed"] == sum(o["not_executed"] for o in per) > 0, m
print("ok: %d ops over SMB, the ranks' not-run ops summed" %
      sum(o["count"] for o in run["ops"]))
PY

note "client ids unique across ranks: client0 to client7 on the share"
ls "$SMB_SHARE/clients" >"$TMP/ls"
[ "$(tr '\n' ' ' <"$TMP/ls")" = "client0 client1 client2 client3 client4 client5 client6 client7 " ] ||
	fail "the share's clients/: $(tr '\n' ' ' <"$TMP/ls")"
for n in 0 1 2 3 4 5 6 7; do
	[ -n "$(find "$SMB_SHARE/clients/client$n" -type f | head -1)" ] ||
		fail "client$n has no file on the share"
done
echo "ok: $(find "$SMB_SHARE/clients" -type f | wc -l) files in 8 client trees"
rm -rf "$SMB_SHARE/clients"

note "rank 2 killed (SIGKILL) mid-run: rank 0 reports what it has"
# as in mpi.sh: mpirun sends SIGTERM to the other ranks, and SIGKILL 3 s
# later on a loaded machine
: >"$TMP/out" # now: the job truncates it later, and wait_for must not see the last run's lines
MPI_EXTRA="--mca odls_base_sigkill_timeout 3"
mpi "$TMP/out" -t 60 --warmup 0 --json "$TMP/kill.json" 2 &
job=$!
at_exit "kill $job 2>/dev/null; sleep 2; kill -9 $job 2>/dev/null"
wait_for "$TMP/out" ' execute   1 sec ' 60
# rank 2: the child of mpirun (the child of the job's subshell) of that rank
launcher=$(pgrep -x -P "$job" mpirun) || fail "no mpirun in the job"
mpi_kill_rank "$launcher" 2
wait "$job"
rc=$?
MPI_EXTRA=
[ "$rc" != 0 ] || fail "mpirun exited 0 after a rank was killed"
none_left
mpi_interrupted "$TMP/out" "$TMP/kill.json"
mpi_no_trees "$SMB_SHARE"
rm -rf "$SMB_SHARE/clients"
echo "ok: mpirun exit $rc, no client tree left on the share"

note "smbd still serves: a new run on the same share"
mpi "$TMP/out" -t 2 --warmup 0 2 || {
	cat "$TMP/out"
	fail "exit $? after the killed run"
}
none_left
grep -q '^Throughput .* 8 clients  8 procs ' "$TMP/out" ||
	fail "no Throughput line: $(tail -3 "$TMP/out")"
[ ! -e "$SMB_SHARE/clients" ] ||
	fail "clients/ left on the share: $(ls "$SMB_SHARE/clients")"
echo "ok: $(grep '^Throughput' "$TMP/out")"
