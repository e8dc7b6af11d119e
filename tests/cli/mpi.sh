# SPDX-License-Identifier: GPL-3.0-or-later
# dbench-ng-mpi: one run across MPI ranks, on this machine (docs/mpi.md).
# Four ranks of two clients each, every mpirun in a network namespace of
# its own with only lo, Open MPI's TCP transport forced, on one shared
# tmpfs directory:
#   - the merged result is exactly the sum of the ranks' (--rank-json):
#     op counts, bytes, errors, every histogram bin, min, max, sum; the
#     hosts section and the clients by id; the time series of every rank
#     has the same points, and the run's point i is the sum of the ranks'
#     points i (lines, bytes, calls per op): aligned on the barrier
#   - paced (-R): the run's response times (counts, late starts, bins) are
#     the sum of the ranks'
#   - a client failing on rank 2 stops every rank long before the time
#     limit, with its message named by host, rank and client, exit 1
#   - rank 2 killed with SIGKILL mid-run: mpirun ends the others, rank 0
#     prints and writes partial results (or, if mpirun's SIGKILL comes
#     first, its JSON is its last checkpoint), nothing is left behind;
#     the same with rank 0 frozen (a freezer cgroup) until mpirun has
#     sent it its SIGKILL: its last checkpoint is the JSON; and rank 0
#     itself killed with SIGKILL: its last checkpoint, which report and
#     compare call partial
#   - a usage error is said once (not by every rank), exit 2
#   - --version prints its one line, -h the usage with dbench-ng-mpi's own
# After each: no process of the run left, DIR/clients gone (after the
# kill: no client tree left in it).
# Not beside mpi_smb.sh (run.sh): each starts 4 ranks of 2 clients, and
# the two would add their ranks to each other's load (their processes are
# told apart by a tag, mpi_ours in tests/mpirun.sh).
# run.sh: lock mpi
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../mpirun.sh"

MPI=$ROOT/dbench-ng-mpi
command -v mpirun >/dev/null || skip "mpirun not installed (openmpi-bin)"
[ -x "$MPI" ] || skip "dbench-ng-mpi not built (libopenmpi-dev missing)"
need_root "a network namespace of its own and a tmpfs (unshare -n, mount)"
unshare -n true 2>/dev/null || skip "cannot make a network namespace"

# under SAN=1: Open MPI leaves allocations at exit, mostly in its plugins,
# unloaded by then, whose stacks LeakSanitizer cannot name; no leak check
# for the ranks (their clients exit with _exit, never checked; the engine
# and the merge are checked by the unit tests and dbench-ng's own tests)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

T=$TMP/t
mkdir -p "$T"
mount -t tmpfs -o size=512m tmpfs "$T" || skip "cannot mount a tmpfs"
at_exit "umount -l $T"

# mpi OUT ARGS...: mpirun -np 4 dbench-ng-mpi ARGS in a private network
# namespace with lo up, Open MPI's TCP transport forced on lo; stdout and
# stderr to OUT.  Its exit status.  unshare and sh exec mpirun: in the
# background, $! is mpirun.
mpi() {
	local out=$1
	shift
	unshare -n sh -c 'ip link set lo up && exec "$@"' sh \
		mpirun --allow-run-as-root --oversubscribe -np 4 \
		--mca btl self,tcp --mca btl_tcp_if_include lo \
		--mca oob_tcp_if_include lo $MPI_EXTRA "$MPI" "$@" \
		>"$out" 2>&1
}
MPI_EXTRA=

# none_left [killed]: no process of dbench-ng-mpi left, and DIR/clients
# gone (after a rank was killed: no tree left in it, mpi_no_trees)
none_left() {
	mpi_gone
	if [ "${1:-}" = killed ]; then
		mpi_no_trees "$T"
		rm -rf "$T/clients"
	else
		wait_until 60 test ! -e "$T/clients" ||
			fail "$T/clients left: $(ls -R "$T/clients" | head)"
	fi
	[ -z "$(mpi_ours mpirun)" ] || fail "mpirun left: $(mpi_ours mpirun)"
}

note "4 ranks x 2 clients, one tmpfs: the merged result is the ranks' sum"
mpi "$TMP/out" -c builtin:netbench -t 3 --warmup 1 -D "$T" --json "$TMP/run.json" \
	--rank-json "$TMP/rank-%r.json" 2 || {
	cat "$TMP/out"
	fail "exit $?"
}
none_left
grep -q '^Throughput .* 8 clients  8 procs ' "$TMP/out" ||
	fail "no Throughput line of 8 clients: $(tail -3 "$TMP/out")"
[ "$(grep -c ' execute ' "$TMP/out")" -ge 1 ] || fail "no progress lines"
grep -q '^Hosts: 4 ranks; slowest rank' "$TMP/out" ||
	fail "no imbalance line"
python3 "$ROOT/tests/mpi_sum.py" "$TMP" 4 2 ||
	fail "the merged result is not the sum of the ranks'"

note "paced (-R): the run's response times are the sum of the ranks'"
mpi "$TMP/out" -c builtin:netbench -R 2 -t 2 --warmup 0 -D "$T" --json "$TMP/run.json" \
	--rank-json "$TMP/rank-%r.json" 2 || {
	cat "$TMP/out"
	fail "exit $?"
}
none_left
grep -q '^ Response ms ' "$TMP/out" || fail "no response table of the run"
python3 - "$TMP" <<'PY' || fail "the run's response times are not the ranks' sum"
import json, sys
d = sys.argv[1]
run = json.load(open(d + "/run.json"))
ranks = [json.load(open("%s/rank-%d.json" % (d, r))) for r in range(4)]
bad = []
if run.get("response", {}).get("pacing") != "rate":
    sys.exit("no response object: %s" % run.get("response"))
n = 0
for m in run["ops"]:
    per = [o for r in ranks for o in r["ops"] if o["name"] == m["name"]]
    if "resp_ns" not in m:
        if any("resp_ns" in o for o in per):
            bad.append(m["name"] + " missing")
        continue
    rt = m["resp_ns"]
    for k in ("count", "late_starts", "sum"):
        if rt[k] != sum(o["resp_ns"][k] for o in per):
            bad.append("%s %s" % (m["name"], k))
    want = {}
    for o in per:
        for lo, c in o["resp_ns"]["bins"]:
            want[lo] = want.get(lo, 0) + c
    if dict((lo, c) for lo, c in rt["bins"]) != want:
        bad.append(m["name"] + " bins")
    n += rt["count"]
if not n or run["response"]["ops"] != n:
    bad.append("response.ops %s, ops %d" % (run["response"]["ops"], n))
if bad:
    sys.exit("; ".join(bad))
print("ok: %d responses" % n)
PY

note "a client of rank 2 fails: every rank stops, the client is named"
# clients 0-7 but 5 find their file; client 5 (rank 2) fails at once
printf '%s\n' 'Sleep 1500 NT_STATUS_OK' \
	'Unlink "\clients\client1\x" 0x6 NT_STATUS_OK' \
	'NTCreateX "\clients\client1\x" 0x40 0x5 100 NT_STATUS_OK' \
	'Close 100 NT_STATUS_OK' >"$TMP/fail.load"
for n in 0 1 2 3 4 6 7; do
	mkdir -p "$T/clients/client$n"
	: >"$T/clients/client$n/x"
done
start=$SECONDS
mpi "$TMP/out" -t 20 --warmup 0 -c "$TMP/fail.load" -D "$T" \
	--json "$TMP/fail.json" 2
rc=$?
[ "$rc" = 1 ] || { cat "$TMP/out"; fail "exit $rc, expected 1"; }
none_left
[ $((SECONDS - start)) -lt 20 ] || fail "the run was not stopped early"
grep -q '^dbench-ng: host .* rank 2: a client failed: stopping every rank' \
	"$TMP/out" || fail "no stop message: $(cat "$TMP/out")"
grep -q '^dbench-ng: host .* rank 2: client 5 at .*fail.load:2: Unlink .*client5/x failed' \
	"$TMP/out" || fail "no message naming host, rank and client"
grep -q '^Run failed after ' "$TMP/out" || fail "no partial results"
python3 - "$TMP/fail.json" <<'PY' || fail "the JSON of the failed run"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "failed", d["status"]
assert d["summary"]["measured_s"] < 20, d["summary"]["measured_s"]
assert [h["status"] for h in d["hosts"]] == ["ok", "ok", "failed", "ok"]
assert any("rank 2: client 5 at" in e for e in d["errors"]), d["errors"]
print("ok: failed after %.1f s of 20" % d["summary"]["measured_s"])
PY

# A freezer cgroup of the test's own (cgroup v1's freezer, or a cgroup v2
# with cgroup.freeze), for rank 0: a frozen process runs nothing until it
# is thawed, whatever signal it is sent (mpirun sends SIGCONT before its
# SIGTERM, which wakes a SIGSTOP).  FRZ: its directory, or empty
FRZ=
for c in /sys/fs/cgroup/freezer $(awk '$3 == "cgroup2" {print $2}' /proc/mounts); do
	[ -d "$c" ] && mkdir "$c/dbng-mpi-$$" 2>/dev/null || continue
	if [ -e "$c/dbng-mpi-$$/freezer.state" ] || [ -e "$c/dbng-mpi-$$/cgroup.freeze" ]; then
		FRZ=$c/dbng-mpi-$$
		break
	fi
	rmdir "$c/dbng-mpi-$$"
done
[ -z "$FRZ" ] || at_exit "thaw; rmdir $FRZ"
freeze() {
	echo "$1" >"$FRZ/cgroup.procs" || return 1
	if [ -e "$FRZ/freezer.state" ]; then
		echo FROZEN >"$FRZ/freezer.state"
	else
		echo 1 >"$FRZ/cgroup.freeze"
	fi
}
thaw() {
	if [ -e "$FRZ/freezer.state" ]; then
		echo THAWED >"$FRZ/freezer.state"
	else
		echo 0 >"$FRZ/cgroup.freeze"
	fi
}
# killed_or_gone PID: PID has SIGKILL pending (a frozen process of cgroup
# v1 keeps it so until it is thawed), or is gone (v2 kills frozen ones)
killed_or_gone() {
	[ ! -e "/proc/$1" ] ||
		grep -Eq '^ShdPnd:[[:space:]]*[0-9a-f]*[13579bdf][0-9a-f]{2}$' "/proc/$1/status"
}

# kill_job RANK [FREEZE0]: a run of 60 s in the background whose rank
# RANK is killed (SIGKILL) once rank 0 has written a checkpoint; with
# FREEZE0 rank 0 is frozen first, and thawed once mpirun has sent it its
# SIGKILL.  mpirun's default settings: it sends SIGTERM to the other
# ranks and SIGKILL about a second later
kill_job() {
	local r0= victim=$1
	rm -f "$T/kill.json"
	: >"$TMP/out" # now: the job truncates it later, and wait_for must not see the last run's lines
	unshare -n sh -c 'ip link set lo up && exec "$@"' sh \
		mpirun --allow-run-as-root --oversubscribe -np 4 \
		--mca btl self,tcp --mca btl_tcp_if_include lo \
		--mca oob_tcp_if_include lo "$MPI" \
		-c builtin:netbench -t 60 --warmup 0 -D "$T" --json "$T/kill.json" 2 \
		>"$TMP/out" 2>&1 &
	job=$!
	at_exit "kill $job; sleep 2; kill -9 $job"
	wait_for "$TMP/out" ' execute   1 sec ' 60
	# the first checkpoint, of the first second, comes with that tick
	# (30 s: half the run; before the checkpoints the file came at its end)
	wait_until 30 test -e "$T/kill.json" || fail "no checkpoint after 30 s"
	# the children of mpirun ($job: unshare and sh exec it)
	if [ -n "${2:-}" ]; then
		r0=$(mpi_rank_pid "$job" 0) && freeze "$r0" ||
			fail "cannot freeze rank 0"
	fi
	mpi_kill_rank "$job" "$victim"
	if [ -n "$r0" ]; then
		wait_until 60 killed_or_gone "$r0" ||
			fail "mpirun sent rank 0 no SIGKILL: $(grep Pnd "/proc/$r0/status")"
		thaw
	fi
	wait "$job"
	rc=$?
	[ "$rc" != 0 ] || fail "mpirun exited 0 after a rank was killed"
	none_left killed
}

note "rank 2 killed (SIGKILL) mid-run: rank 0 reports what it has"
# rank 0 waits 300 ms for its clients, prints and writes its JSON (to the
# tmpfs, whose flush costs nothing) in the second mpirun gives it; if it
# cannot (a loaded machine), its last checkpoint is the JSON (docs/mpi.md)
kill_job 2
mpi_partial "$TMP/out" "$T/kill.json"
echo "ok: mpirun exit $rc"

if [ -n "$FRZ" ]; then
	note "rank 2 killed while rank 0 cannot write in time: its checkpoint"
	# rank 0 frozen until mpirun's SIGKILL, a second after its SIGTERM,
	# has come, as it comes for a rank 0 that needs more than that second
	# to write (seen on a loaded machine: partial figures printed, no
	# JSON file)
	kill_job 2 freeze0
	mpi_checkpoint "$T/kill.json"
	echo "ok: mpirun exit $rc"
else
	echo "(no freezer cgroup here: rank 0 too slow to write not tried)"
fi

note "rank 0 killed (SIGKILL) mid-run: its last checkpoint is the JSON"
# nobody is left to write the run's result: the file rank 0 replaced at
# its last checkpoint holds every rank's figures up to it
kill_job 0
grep -q "process rank 0 .* exited on signal 9" "$TMP/out" ||
	fail "mpirun did not name the dead rank: $(tail "$TMP/out")"
mpi_checkpoint "$T/kill.json"
[ -z "$(find "$T" -maxdepth 1 -name 'kill.json.*')" ] ||
	fail "a temporary file left: $(ls "$T")"
echo "ok: mpirun exit $rc"

note "ranks of other workloads (a host without dbench's client.txt): exit 2"
# no -c: ranks 0 and 1 find no client.txt (the built-in workload), ranks 2
# and 3 find one of their own; refused before anything is created
unshare -n sh -c 'ip link set lo up && exec "$@"' sh \
	mpirun --allow-run-as-root --oversubscribe \
	--mca btl self,tcp --mca btl_tcp_if_include lo \
	--mca oob_tcp_if_include lo \
	-np 2 env DBENCH_NG_TEST_CLIENT_TXT_PATH= "$MPI" -t 2 --warmup 0 -D "$T" 1 : \
	-np 2 env DBENCH_NG_TEST_CLIENT_TXT_PATH="$TMP/fail.load" "$MPI" \
	-t 2 --warmup 0 -D "$T" 1 >"$TMP/out" 2>&1
rc=$?
[ "$rc" = 2 ] || fail "exit $rc, expected 2: $(cat "$TMP/out")"
grep -q "^dbench-ng: host .* rank 2 replays other loadfiles than rank 0 ('builtin:netbench', by their SHA-256): every rank must run the same workload" \
	"$TMP/out" || fail "no message naming rank 2: $(cat "$TMP/out")"
! grep -q 'Running for' "$TMP/out" || fail "a run started: $(cat "$TMP/out")"
[ ! -e "$T/clients" ] || fail "$T/clients was created"
none_left
echo "ok: $(grep 'replays other' "$TMP/out")"

note "a usage error: said once, exit 2"
mpi "$TMP/out" -t nope 2
rc=$?
[ "$rc" = 2 ] || fail "exit $rc, expected 2: $(cat "$TMP/out")"
[ "$(grep -c '^dbench-ng: ' "$TMP/out")" = 1 ] ||
	fail "not said once: $(cat "$TMP/out")"
none_left
echo "ok: $(grep '^dbench-ng: ' "$TMP/out")"

note "--version: one line, from rank 0 alone; -h: the usage and its own"
mpi "$TMP/out" --version
rc=$?
[ "$rc" = 0 ] || fail "--version: exit $rc: $(cat "$TMP/out")"
grep -Eqx 'dbench-ng [0-9][^ ]* \(commit [0-9a-f]+(-dirty)?\)|dbench-ng [0-9][^ ]*' \
	"$TMP/out" && [ "$(wc -l <"$TMP/out")" = 1 ] ||
	fail "--version printed more or other than its line: $(cat "$TMP/out")"
mpi "$TMP/out" -h
rc=$?
[ "$rc" = 0 ] || fail "-h: exit $rc: $(cat "$TMP/out")"
[ "$(grep -c '^dbench-ng-mpi: mpirun' "$TMP/out")" = 1 ] ||
	fail "-h: dbench-ng-mpi's usage not there once: $(cat "$TMP/out")"
none_left
echo "ok: $(head -1 "$TMP/out") ..."
