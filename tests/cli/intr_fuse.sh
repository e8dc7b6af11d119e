# SPDX-License-Identifier: GPL-3.0-or-later
# The first stop reason wins, and a signal that cuts an op short is not an
# error of the op.  faultfs holds a WriteX 60 s in an interruptible delay
# (intr=1: the caller's signal ends it with EINTR, as a filesystem that
# honours interrupts does), and signals come while the client waits in it:
#  1. SIGTERM to the client process, then SIGHUP: an interrupted run by
#     signal 15 (the first), exit 143, no op error, no EINTR message.
#     Before: the op's EINTR made the client fail over the signal, exit 1;
#  2. the time limit passes while the op waits (the run is complete, its
#     clean-up waits for the client), then SIGTERM to the parent and to
#     the client: status ok, exit 0, no op error.  Before: exit 1;
#  3. a failure first (EIO on a write), then SIGTERM to the client: a
#     failed run, exit 1, the EIO named.
# Nothing rests on timing: each signal waits for the log line of the
# delay or the cleanup line it needs.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/faultfs/lib.sh"
command -v python3 >/dev/null || skip "python3 not installed"

cat >"$TMP/w.load" <<'X'
Mkdir "\clients\client1" *
NTCreateX "\clients\client1\w" 0x40 0x5 1 NT_STATUS_OK
WriteX 1 0 4096 4096 NT_STATUS_OK
Close 1 NT_STATUS_OK
X
# bg ARGS...: dbench-ng ARGS... in the background: BG, its client CL
bg() {
	"$DBNG" -c "$TMP/w.load" --warmup 0 -D "$MNT" --json "$TMP/r.json" "$@" 1 \
		>"$TMP/o" 2>"$TMP/e" &
	BG=$!
	at_exit "kill -KILL $BG"
}
client() {
	CL=$(pgrep -P "$BG" | head -1)
	[ -n "$CL" ] || fail "no client process: $(cat "$TMP/e")"
}
bg_rc() {
	local rc=0
	wait "$BG" || rc=$?
	[ "$rc" = "$1" ] || fail "exit $rc, expected $1: $(cat "$TMP/e")"
}
# result STATUS SIGNAL [ERROR]: the JSON says so; no op error unless ERROR
result() {
	python3 - "$TMP/r.json" "$@" <<'PY' || fail "$(cat "$TMP/e")"
import json, sys
d = json.load(open(sys.argv[1]))
want, sig = sys.argv[2], sys.argv[3]
err = sys.argv[4] if len(sys.argv) > 4 else None
assert d["status"] == want, "status %s, expected %s" % (d["status"], want)
assert str(d["signal"]) == sig, "signal %s, expected %s" % (d["signal"], sig)
errs = sum(o.get("errors", 0) for o in d["ops"])
msgs = " ".join(d["errors"])
if err:
    assert err in msgs, "no %r in the errors: %s" % (err, d["errors"])
else:
    assert not errs and not d["errors"], "op errors: %d %s" % (errs, d["errors"])
print("ok: status %s, signal %s%s" % (want, sig, ", " + err if err else ""))
PY
	! grep -q "Interrupted system call" "$TMP/e" "$TMP/o" ||
		fail "EINTR leaked into the output: $(grep -h "Interrupted" "$TMP/e" "$TMP/o")"
}

ffs_mount --rule 'write:clients/client0/w delay=60000 intr=1'

note "1. SIGTERM, then SIGHUP, to a client inside an op"
bg -t 120
wait_for "$LOG" 'write .* start$'
client
kill -TERM "$CL"
kill -HUP "$CL"
bg_rc 143
grep -q "interrupted" "$LOG" || fail "faultfs saw no interrupt: $(cat "$LOG")"
grep -q "signal 15 (Terminated)" "$TMP/e" || fail "not the first signal: $(cat "$TMP/e")"
result interrupted 15

note "2. the time limit first, then SIGTERM to the parent and the client"
: >"$LOG"
bg -t 2
wait_for "$LOG" 'write .* start$'
client
wait_for "$TMP/o" 'cleanup' 60
kill -TERM "$BG"
wait_for "$TMP/e" 'after the time limit' 30
kill -TERM "$CL"
bg_rc 0
result ok None

note "3. a failure first, then SIGTERM"
ffs_umount
ffs_mount --rule 'write:clients/client0/w error=EIO' \
	--rule 'flush:clients/client0/w delay=60000 intr=1'
# the EIO fails the client (WriteX: any error is fatal); its Close then
# waits in the flush of the handle's release while SIGTERM comes
bg -t 120
wait_for "$LOG" 'flush .* start$'
client
kill -TERM "$CL"
bg_rc 1
result failed None "Input/output error"
ffs_umount
