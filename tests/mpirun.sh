# SPDX-License-Identifier: GPL-3.0-or-later
# What tests/cli/mpi.sh and mpi_smb.sh share (source it after lib.sh, with
# MPI set to the dbench-ng-mpi binary):
#   mpi_ours NAME        the PIDs of this test's processes named NAME
#                        (mpirun, dbench-ng-mpi) still running, by the tag
#                        DBNG_TEST_MPI that they inherit: another suite's
#                        or a user's mpirun beside the test is not ours;
#                        not zombies: killed ranks' clients wait for the
#                        reaper of orphans, which is not ours
#   mpi_alive            mpi_ours dbench-ng-mpi, "PID CMDLINE" each
#   mpi_gone             wait (up to 60 s: a rank's clients clean up on
#                        their own after mpirun, slowly on a loaded
#                        machine) until no process of dbench-ng-mpi runs
#   mpi_rank_pid PARENT R
#                        the PID of rank R among PARENT's children (mpirun
#                        or what exec'd it)
#   mpi_kill_rank PARENT R
#                        SIGKILL the rank R among PARENT's children
#   mpi_no_trees DIR     after a rank was killed: no client tree left in
#                        DIR/clients; DIR/clients itself may stay, empty
#                        (every host removes it when its own clients are
#                        done, and none knows whether it is the last: the
#                        killed rank's clients may still be cleaning up)
#   mpi_interrupted OUT JSON
#                        after a rank was killed: mpirun named it, rank 0
#                        printed and wrote (JSON) partial results of every
#                        rank, marked interrupted by mpirun's SIGTERM
#   mpi_checkpoint JSON  the JSON is a checkpoint of the run (status
#                        running, the time it covers, when it was taken):
#                        what rank 0 left when mpirun's SIGKILL came
#                        before its final write, or rank 0 was killed;
#                        report and compare say it is partial
#   mpi_partial OUT JSON after a rank was killed, with mpirun's second
#                        between its SIGTERM and its SIGKILL: the JSON is
#                        rank 0's final partial result (mpi_interrupted)
#                        or, if the SIGKILL came first, its last
#                        checkpoint (mpi_checkpoint)
export DBNG_TEST_MPI=$$
mpi_ours() {
	local p st
	for p in $(pgrep -x "$1"); do
		tr '\0' '\n' 2>/dev/null <"/proc/$p/environ" |
			grep -qx "DBNG_TEST_MPI=$DBNG_TEST_MPI" || continue
		st=$(cut -d' ' -f3 "/proc/$p/stat" 2>/dev/null)
		[ -z "$st" ] || [ "$st" = Z ] || echo "$p"
	done
}

mpi_alive() {
	local p
	for p in $(mpi_ours dbench-ng-mpi); do
		echo "$p $(tr '\0' ' ' 2>/dev/null <"/proc/$p/cmdline")"
	done
}

mpi_gone() {
	# eval: mpi_alive asked again at every try, not once
	wait_until 60 eval '[ -z "$(mpi_alive)" ]' ||
		fail "processes left: $(mpi_alive)"
}

mpi_rank_pid() {
	local p victim=
	for p in $(pgrep -P "$1"); do
		grep -qxa "OMPI_COMM_WORLD_RANK=$2" <(tr '\0' '\n' <"/proc/$p/environ") &&
			victim=$p
	done
	[ -n "$victim" ] || fail "no rank $2 among mpirun's children"
	echo "$victim"
}

mpi_kill_rank() {
	local victim
	victim=$(mpi_rank_pid "$1" "$2") || exit 1
	kill -9 "$victim"
}

mpi_no_trees() {
	wait_until 60 eval "[ -z \"\$(ls -A '$1/clients' 2>/dev/null)\" ]" ||
		fail "client trees left in $1/clients: $(ls "$1/clients")"
	[ -e "$1/clients" ] && echo "$1/clients left, empty"
	return 0
}

mpi_interrupted() {
	grep -q "process rank 2 .* exited on signal 9" "$1" ||
		fail "mpirun did not name the dead rank: $(tail "$1")"
	grep -q '^Interrupted by signal 15 after ' "$1" ||
		fail "rank 0 printed no partial results: $(tail "$1")"
	grep -q '^Partial figures of an interrupted run: ' "$1" ||
		fail "no figures line"
	python3 - "$2" <<'PY' || fail "the JSON of the killed run"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "interrupted", d["status"]
assert d["signal"] == 15, d["signal"]
assert d["summary"]["measured_s"] > 0
assert sum(o["count"] for o in d["ops"]) > 0
print("ok: interrupted after %.1f s, %d ops of every rank"
      % (d["summary"]["measured_s"], sum(o["count"] for o in d["ops"])))
PY
}

mpi_checkpoint() {
	python3 - "$1" <<'PY' || fail "the JSON is not a checkpoint of the run"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "running", d["status"]
assert d["covers_s"] > 0 and d["summary"]["measured_s"] > 0, d["summary"]
assert d["summary"]["clients"] == 8, d["summary"]["clients"]
assert sum(o["count"] for o in d["ops"]) > 0, "no op counted"
assert d["time_series"]["points"][-1]["t"] == d["covers_s"]
# ISO 8601 UTC: as the start time's, same length, in order
assert len(d["checkpoint_time"]) == len(d["start_time"]), d["checkpoint_time"]
assert d["checkpoint_time"] >= d["start_time"], d["checkpoint_time"]
print("ok: a checkpoint of every rank's figures up to %.1f s (%s), %d ops"
      % (d["covers_s"], d["checkpoint_time"],
         sum(o["count"] for o in d["ops"])))
PY
	# the readers say what it is
	"$DBNG" report "$1" >"$TMP/ckrep" 2>&1 ||
		fail "report of the checkpoint: $(cat "$TMP/ckrep")"
	grep -q '^Checkpoint of a run still running or killed, after ' "$TMP/ckrep" ||
		fail "report does not call the checkpoint partial: $(head -3 "$TMP/ckrep")"
	"$DBNG" compare "$1" -- "$1" >"$TMP/ckrep" 2>&1
	grep -q 'is a checkpoint of a run that had not ended (still running, or killed): partial figures' "$TMP/ckrep" ||
		fail "compare does not note the checkpoint: $(cat "$TMP/ckrep")"
}

mpi_partial() {
	local st
	st=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["status"])' "$2") ||
		fail "no valid JSON left after a rank was killed: $(ls -l "$2" 2>&1)"
	if [ "$st" = running ]; then
		grep -q "process rank 2 .* exited on signal 9" "$1" ||
			fail "mpirun did not name the dead rank: $(tail "$1")"
		echo "rank 0 was killed before its final write: its checkpoint"
		mpi_checkpoint "$2"
	else
		mpi_interrupted "$1" "$2"
	fi
}
