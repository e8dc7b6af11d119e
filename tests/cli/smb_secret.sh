# SPDX-License-Identifier: GPL-3.0-or-later
# The SMB password never appears in any output, against a private smbd
# (tests/smbd.sh) in a network namespace of the test's own: not on
# stdout or stderr, in the JSON results, the text and HTML reports, the
# outputs of compare (text and JSON) and check (its lines, --verbose, the
# runs it keeps), whichever way the password came (--smb-user=U%PW, -o
# user=U%PW, DBENCH_NG_SMB_PASSWORD, a credentials file) and however the
# run ended (a result, --runs 2, a wrong password, a missing share, an
# unreachable server, bad options, a signal, smbd killed mid-run).
# Before, "-o password=PW" (no such option) and "--smb-user=U%PW" given to
# another backend echoed the password in the refusal.
. "$(dirname "$0")/../smbd.sh"
netns_enter "$@"
. "$(dirname "$0")/../lib.sh"

smb_test_share "$TMP/smb"
O=$TMP/out
mkdir -p "$O"
RUN=(-t 2 --warmup 0)
printf 'username = root\npassword = %s\n' "$SMB_PW" >"$TMP/cred"
printf 'username = root\npassword = wrong%s\n' "$SMB_PW" >"$TMP/badcred"
n=0

# out CMD...: run CMD, its stdout and stderr kept in $O; its exit in RC
out() {
	n=$((n + 1))
	"$@" >"$O/$n.out" 2>"$O/$n.err"
	RC=$?
	echo "$n: exit $RC: $(head -c 150 "$O/$n.err" | head -1)"
}

note "runs that give a result"
out "$DBNG" -B smb "$S" "$U" "${RUN[@]}" --json "$O/a.json" 2
[ "$RC" = 0 ] || fail "$(cat "$O/$n.err")"
out "$DBNG" -B smb "$S" -o "user=root%$SMB_PW" "${RUN[@]}" --json "$O/b.json" 2
[ "$RC" = 0 ] || fail "$(cat "$O/$n.err")"
DBENCH_NG_SMB_PASSWORD=$SMB_PW out "$DBNG" -B smb "$S" --smb-user=root "${RUN[@]}" \
	--json "$O/c.json" 1
[ "$RC" = 0 ] || fail "$(cat "$O/$n.err")"
out "$DBNG" -B smb "$S" -o "credentials=$TMP/cred" "${RUN[@]}" --runs 2 --json "$O/d.json" 1
[ "$RC" = 0 ] || fail "$(cat "$O/$n.err")"
out "$DBNG" report "$O/a.json" --html "$O/a.html"
out "$DBNG" report "$O/d-2.json" --html "$O/d.html"
out "$DBNG" compare --json "$O/cmp.json" "$O/a.json" "$O/b.json" -- "$O/c.json" "$O/d-1.json"
out "$DBNG" check --baseline "$O/a.json" "$O/b.json" --min-runs 1 --max-runs 1 --busy-ok \
	--verbose --json "$O/k.json" -B smb "$S" "$U" "${RUN[@]}" 2
case $RC in 0 | 1 | 125) ;; *) fail "check: exit $RC: $(cat "$O/$n.out")" ;; esac
out "$DBNG" report "$O/k.json"
[ "$RC" = 0 ] || fail "check kept no run: $(cat "$O/$n.err")"

note "runs that end otherwise"
out "$DBNG" -B smb "$S" --smb-user=root%wrong$SMB_PW "${RUN[@]}" 1
[ "$RC" = 2 ] || fail "a wrong password: exit $RC"
out "$DBNG" -B smb "$S" -o "credentials=$TMP/badcred" "${RUN[@]}" 1
[ "$RC" = 2 ] || fail "a wrong password in a file: exit $RC"
out "$DBNG" -B smb --smb-share=//127.0.0.1:$SMB_PORT/nosuch "$U" "${RUN[@]}" 1
out "$DBNG" -B smb --smb-share=//127.0.0.1:4451/share "$U" "${RUN[@]}" 1
out "$DBNG" -B smb "$S" "$U" -o "password=$SMB_PW" "${RUN[@]}" 1
[ "$RC" = 2 ] || fail "-o password: exit $RC"
out "$DBNG" -B null "$U" "${RUN[@]}" 1
[ "$RC" = 2 ] || fail "--smb-user to -B null: exit $RC"
out "$DBNG" -B null -o "user=root%$SMB_PW" "${RUN[@]}" 1
out "$DBNG" -B smb "$S" "$U" -t abc 1
out "$DBNG" -B smb "$S" "$U" -s "${RUN[@]}" 1
out "$DBNG" check --baseline "$O/a.json" --min-runs 1 --max-runs 1 --busy-ok -B smb "$S" \
	--smb-user=root%wrong$SMB_PW "${RUN[@]}" 2
grep -q "^bad input: .*refused the logon" "$O/$n.out" || fail "check: $(cat "$O/$n.out")"
# interrupted, with its JSON
"$DBNG" -B smb "$S" "$U" -t 60 --warmup 0 --json "$O/i.json" 1 >"$O/i.out" 2>"$O/i.err" &
P=$!
at_exit "kill -KILL $P"
wait_for "$O/i.out" 'execute +1 sec' 60
kill -TERM "$P"
wait "$P"
# smbd killed mid-run
"$DBNG" -B smb "$S" "$U" -t 60 --warmup 0 --json "$O/x.json" 1 >"$O/x.out" 2>"$O/x.err" &
P=$!
at_exit "kill -KILL $P"
wait_for "$O/x.out" 'execute +1 sec' 60
stop_smbd
wait "$P"
echo "x: exit $?: $(head -1 "$O/x.err")"

note "the password in nothing written"
ls "$O" | wc -l | sed 's/^/files: /'
if grep -rl -- "$SMB_PW" "$O"; then
	grep -r -- "$SMB_PW" "$O" | head -5
	fail "the password is in the files above"
fi
grep -rq "(secret)" "$O" || fail "no (secret) anywhere: were the options recorded?"
echo "ok: the password is in none of $(ls "$O" | wc -l) outputs"
