# SPDX-License-Identifier: GPL-3.0-or-later
# --paths full (the default) names whole paths, as dbench's calls do, and
# the kernel follows a symlink met in the middle of one: a process of the
# same user (or root) that plants one during the run must not get a call
# to act outside DIR.  tests/symlink_racer.py plants links to a canary
# directory outside DIR, and dangling ones into it, anywhere under DIR
# while runs go through every op kind (Mkdir, NTCreateX creating and
# truncating, WriteX, Sfileinfo, Qpathinfo, Rename, Unlink, Rmdir,
# Deltree, the clean-up); the canary (files and directories) must be
# exactly as before.  The clients run in a private mount namespace with
# DIR mounted nosymfollow there: the mount is not seen outside it.  Where
# no namespace can be had (DBENCH_NG_NO_MOUNTNS=1 says so) full mode is
# refused, exit 3, naming --paths dirfd and --allow-symlink-races; with
# the latter it runs.  As an unprivileged user, through a user namespace.
. "$(dirname "$0")/../lib.sh"

command -v python3 >/dev/null || skip "python3 not installed"
RACER=$ROOT/tests/symlink_racer.py
D=$TMP/d
CANARY=$TMP/canary
mkdir -p "$D" "$CANARY"
# the canary: targets with the names the loadfile uses, one level down
# too (a client's own directory swapped for a link), files and dirs
for t in 0 1 2 3 4 5 6 7; do
	for p in "$CANARY/t$t" "$CANARY/t$t/d"; do
		mkdir -p "$p/sub" "$p/e"
		echo "canary $p f" >"$p/f"
		echo "canary $p g" >"$p/g"
		echo "canary $p x" >"$p/sub/x"
	done
done
listing() {
	(cd "$TMP" && find canary -printf '%p %y %s %m %n %T@ %C@\n' | sort &&
		find canary -type f -exec md5sum {} + | sort)
}
listing >"$TMP/canary.before"
check_canary() {
	listing >"$TMP/canary.now"
	cmp -s "$TMP/canary.before" "$TMP/canary.now" && return 0
	diff "$TMP/canary.before" "$TMP/canary.now" | head -8
	fail "$1: the canary outside DIR changed (a planted symlink was followed)"
}

cat >"$TMP/race.load" <<'X'
Mkdir "\clients\client1" *
Mkdir "\clients\client1\d" *
Mkdir "\clients\client1\d\sub" *
NTCreateX "\clients\client1\d\f" 0x40 0x2 1 *
WriteX 1 0 4096 4096 *
SET_FILE_INFORMATION 1 1004 *
Close 1 *
NTCreateX "\clients\client1\d\f" 0x40 0x5 2 *
Close 2 *
QUERY_PATH_INFORMATION "\clients\client1\d\f" 1004 *
Rename "\clients\client1\d\f" "\clients\client1\d\g" *
Unlink "\clients\client1\d\g" 0x6 *
NTCreateX "\clients\client1\d\sub\x" 0x40 0x2 3 *
Close 3 *
Mkdir "\clients\client1\d\e" *
Rmdir "\clients\client1\d\e" *
Deltree "\clients\client1\d" *
X

# not root and no user namespaces: full mode is refused here
"$DBNG" -t 1 --warmup 0 -c "$TMP/race.load" -D "$D" 1 >"$TMP/out" 2>"$TMP/err" ||
	{ grep -q "needs a mount namespace" "$TMP/err" && skip "$(cat "$TMP/err")"; } ||
	fail "a plain run: $(cat "$TMP/err")"

# race SECS [OPTION...]: runs of 2 s beside the racer for SECS seconds;
# no run may touch the canary.  Between runs the racer pauses and DIR is
# cleared of what it left (links, directories it moved aside)
race() {
	local secs=$1 end rc runs=0 racer
	shift
	rm -f "$TMP/go"
	python3 "$RACER" "$D" "$CANARY" $((secs + 30)) "$TMP/go" >"$TMP/racer.out" 2>&1 &
	racer=$!
	at_exit "kill $racer"
	end=$((SECONDS + secs))
	while [ $SECONDS -lt $end ]; do
		wait_until 10 test -e "$TMP/go.paused" || fail "the racer does not pause"
		rm -rf "$D/clients"
		touch "$TMP/go"
		"$DBNG" -t 2 --warmup 0 -c "$TMP/race.load" -D "$D" "$@" 2 \
			>"$TMP/out" 2>"$TMP/err"
		rc=$?
		rm -f "$TMP/go"
		runs=$((runs + 1))
		# 1: an op refused with ELOOP (a handle whose open was refused
		# is fatal); 2: a link planted before the start is refused
		case $rc in
		0 | 1) ;;
		2) grep -q "is a symbolic link" "$TMP/err" ||
			fail "run $runs: exit 2: $(tail -3 "$TMP/err")" ;;
		*) fail "run $runs: exit $rc: $(tail -3 "$TMP/err")" ;;
		esac
		check_canary "run $runs ($*)"
	done
	kill $racer
	wait $racer
	check_canary "after the racer ($*)"
	rm -rf "$D/clients"
	echo "ok: $runs runs, racer $(cat "$TMP/racer.out")"
}

note "--paths full (the default), links planted during the run"
race 12
note "--paths dirfd, links planted during the run"
race 4 --paths dirfd

note "the clients' namespace: DIR is nosymfollow there, not here"
cat >"$TMP/sleep.load" <<'X'
Mkdir "\clients\client1" *
Mkdir "\clients\client1\d" *
Sleep 200 *
X
# with --json: the result file, begun before the namespace, is written
"$DBNG" -t 4 --warmup 0 -c "$TMP/sleep.load" -D "$D" --json "$TMP/ns.json" 1 \
	>"$TMP/out" 2>"$TMP/err" &
run=$!
at_exit "kill $run"
wait_for "$TMP/out" 'execute' 30
kids=$(pgrep -P $run | head -1)
[ -n "$kids" ] || fail "no client process"
if [ -r /proc/$kids/ns/mnt ] && [ "$(id -u)" = 0 ]; then
	[ "$(readlink /proc/$kids/ns/mnt)" != "$(readlink /proc/self/ns/mnt)" ] ||
		fail "the client runs in the test's mount namespace"
	grep -q " $D " /proc/$kids/mountinfo ||
		fail "no mount of DIR in the clients' namespace"
	grep " $D " /proc/$kids/mountinfo | grep -q nosymfollow ||
		fail "DIR is not nosymfollow for the clients: $(grep " $D " /proc/$kids/mountinfo)"
	! grep -q " $D " /proc/self/mountinfo ||
		fail "the bind mount of DIR propagated out of the namespace"
fi
wait $run || fail "the run in the namespace failed: $(cat "$TMP/err")"
! grep -q " $D " /proc/self/mountinfo || fail "a mount of DIR is left"
grep -q '"status": "ok"' "$TMP/ns.json" || fail "no result: $(cat "$TMP/err")"
# -D . (DIR is the working directory: reached through the new mount)
(cd "$D" && "$DBNG" -t 1 --warmup 0 -c "$TMP/race.load" --json "$TMP/dot.json" 1) \
	>"$TMP/out" 2>"$TMP/err" || fail "-D .: $(cat "$TMP/err")"
grep -q '"status": "ok"' "$TMP/dot.json" || fail "-D .: no result"
[ -z "$(ls -A "$D")" ] || fail "-D .: left $(ls -A "$D")"

note "no namespace to be had: full mode refused, the override runs"
expect_rc 3 env DBENCH_NG_NO_MOUNTNS=1 "$DBNG" -t 1 --warmup 0 \
	-c "$TMP/race.load" -D "$D" 1 >"$TMP/out" 2>"$TMP/err"
grep -q -- "--paths dirfd" "$TMP/err" && grep -q -- "--allow-symlink-races" "$TMP/err" ||
	fail "refusal message: $(cat "$TMP/err")"
[ ! -e "$D/clients" ] || fail "the refusal created $(find "$D/clients")"
echo "ok: $(cat "$TMP/err")"
expect_rc 0 env DBENCH_NG_NO_MOUNTNS=1 "$DBNG" -t 1 --warmup 0 \
	--allow-symlink-races -c "$TMP/race.load" -D "$D" 1 >"$TMP/out" 2>"$TMP/err"
grep -q "symlink" "$TMP/err" || fail "the override is not said: $(cat "$TMP/err")"
expect_rc 0 env DBENCH_NG_NO_MOUNTNS=1 "$DBNG" -t 1 --warmup 0 \
	--paths dirfd -c "$TMP/race.load" -D "$D" 1 >"$TMP/out" 2>"$TMP/err"
check_canary "override"

note "an unprivileged user: through a user namespace"
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	echo "not root or no setpriv: not tried"
elif ! setpriv --reuid=65534 --regid=65534 --clear-groups \
	unshare --user --mount true 2>/dev/null; then
	echo "no unprivileged user namespaces here: not tried"
else
	chmod 755 "$TMP"
	U=$TMP/u
	mkdir -p "$U"
	chown 65534:65534 "$U"
	chmod 755 "$ROOT" 2>/dev/null
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$DBNG" -t 1 --warmup 0 -c "$TMP/race.load" -D "$U" 1 \
		>"$TMP/out" 2>"$TMP/err" ||
		fail "unprivileged run: $(cat "$TMP/err")"
	[ ! -e "$U/clients" ] || fail "unprivileged run left $U/clients"
	echo "ok"
fi
check_canary "the end"
