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
#   mpi_kill_rank PARENT R
#                        SIGKILL the rank R among PARENT's children (mpirun
#                        or what exec'd it)
#   mpi_no_trees DIR     after a rank was killed: no client tree left in
#                        DIR/clients; DIR/clients itself may stay, empty
#                        (every host removes it when its own clients are
#                        done, and none knows whether it is the last: the
#                        killed rank's clients may still be cleaning up)
#   mpi_interrupted OUT JSON
#                        after a rank was killed: mpirun named it, rank 0
#                        printed and wrote (JSON) partial results of every
#                        rank, marked interrupted by mpirun's SIGTERM
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

mpi_kill_rank() {
	local p victim=
	for p in $(pgrep -P "$1"); do
		grep -qxa "OMPI_COMM_WORLD_RANK=$2" <(tr '\0' '\n' <"/proc/$p/environ") &&
			victim=$p
	done
	[ -n "$victim" ] || fail "no rank $2 among mpirun's children"
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
