# SPDX-License-Identifier: GPL-3.0-or-later
# Stalls of the nfs backend: a private nfs-ganesha (tests/ganesha.sh)
# stopped (SIGSTOP) for 600 ms mid-run gives a stall event of the client
# that waited for it, whose kernel stack shows it waiting on its socket
# (libnfs polls it) and which carries the PSI readings; the events agree
# with the histograms (stall_check).  With -o timeout=1, a server that
# stays stopped ends the run with one message and exit 1 in seconds.
. "$(dirname "$0")/../ganesha.sh"
ganesha_ns "$@"
. "$(dirname "$0")/../lib.sh"

ganesha_start "$TMP/nfs"
U=--nfs=$NFS_URL
at_exit "kill -CONT $GANESHA"

note "ganesha stopped for 600 ms mid-run: a stall, the client waiting on its socket"
: >"$TMP/out" # now: the job truncates it later, and wait_for must not see the last run's lines
expect_rc 0 "$DBNG" -B nfs "$U" -c builtin:netbench -t 3 --warmup 0 --json "$TMP/st.json" 1 \
	>"$TMP/out" 2>&1 &
P=$!
wait_for "$TMP/out" 'execute +1 sec'
kill -STOP "$GANESHA"
sleep 0.6
kill -CONT "$GANESHA"
wait $P || fail "the run with ganesha stopped failed: $(tail -3 "$TMP/out")"
sed -n '/^ Stalls/,/^$/p' "$TMP/out"
python3 - "$TMP/st.json" <<'PY' || fail "no stall event of the client waiting for ganesha"
import json, os, sys
st = json.load(open(sys.argv[1]))["stalls"]
# the call in flight when ganesha stopped, or the next one, waited for the
# rest of the 600 ms: at least 250 ms even if the client was descheduled
ev = [e for e in st["events"] if e["duration_ms"] >= 250]
assert ev, "no event of 250 ms or more: %s" % [e["duration_ms"] for e in st["events"]]
stacks = " ".join(s["stack"] or "" for e in ev for s in e["samples"])
assert "poll" in stacks, "no socket wait in the stacks: %s" % stacks
if os.path.exists("/proc/pressure/io"):
    assert all(e["psi_start"]["io"] is not None and e["psi_end"]["cpu"] is not None
               for e in ev), "no PSI readings: %s" % ev[0]
print("ok: %s %.0f ms, waiting in %s" % (ev[0]["op"], ev[0]["duration_ms"],
      ev[0]["samples"][0]["stack"].split(";")[-1]))
PY
stall_check "$TMP/st.json"

note "-o timeout=1: ganesha stopped for good ends the run, one message, exit 1"
: >"$TMP/out" # now: the job truncates it later, and wait_for must not see the last run's lines
"$DBNG" -B nfs "$U" -c builtin:netbench -o timeout=1 -t 60 --warmup 0 2 >"$TMP/out" 2>"$TMP/err" &
P=$!
at_exit "kill $P"
wait_for "$TMP/out" 'execute +1 sec'
kill -STOP "$GANESHA"
wait_until 30 eval '! kill -0 $P 2>/dev/null' || fail "the run did not end 30 s after ganesha stopped"
wait $P
rc=$?
kill -CONT "$GANESHA"
cat "$TMP/err"
[ "$rc" = 1 ] || fail "exit $rc, expected 1"
sed -E 's/^dbench-ng: client [0-9]+ at .*:[0-9]+: //; s/ \(the same for client [0-9, ]+\)$//' "$TMP/err" | sort -u >"$TMP/bodies"
[ "$(wc -l <"$TMP/bodies")" = 1 ] || fail "more than one message: $(cat "$TMP/bodies")"
grep -qx 'the NFS server 127.0.0.1 did not answer within 1 s (-o timeout)' "$TMP/bodies" ||
	fail "not the message of a timeout: $(cat "$TMP/bodies")"
! pgrep -f -- "$U -o timeout=1" >/dev/null || fail "client processes left"
echo "ok"
