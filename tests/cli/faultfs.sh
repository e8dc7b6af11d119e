# SPDX-License-Identifier: GPL-3.0-or-later
# dbench-ng on faultfs (tests/faultfs), a FUSE pass-through that delays or
# fails chosen operations: clean runs when no fault is configured, a
# periodic rename delay seen exactly in the Rename MaxLat and in the
# injection log, and injected ENOSPC / EIO reported as fatal client errors.
. "$(dirname "$0")/../lib.sh"

. "$ROOT/tests/faultfs/lib.sh"

# bad rules: a clear message and exit 2, nothing mounted
"$FFS" "$BACK" "$MNT" --rule 'x delay=1' 2>"$TMP/err"
rc=$?
[ $rc = 2 ] || fail "bad rule: exit $rc, expected 2"
grep -qx "faultfs: --rule 'x delay=1': unknown op 'x'" "$TMP/err" ||
	fail "bad rule message: $(cat "$TMP/err")"
"$FFS" "$BACK" "$MNT" --rule 'write error=EFOO' 2>"$TMP/err"
rc=$?
[ $rc = 2 ] || fail "bad errno: exit $rc, expected 2"
grep -q "unknown errno 'EFOO'" "$TMP/err" || fail "bad errno: $(cat "$TMP/err")"
! mountpoint -q "$MNT" || fail "a bad rule mounted"

# op_max FILE OP: the MaxLat column (ms) of OP in the classic table of FILE
op_max() {
	awk -v op="$2" '/^ Operation/ {t=1; next} t && $1 == op {print $4; exit}' "$1"
}

# run_ok ARGS...: a run on the mount exits 0 with no warning section
run_ok() {
	"$DBNG" "$@" -D "$MNT" >"$TMP/out" 2>"$TMP/err" ||
		fail "exit $? on faultfs ($*): $(cat "$TMP/err")"
	! grep -q "Unexpected results" "$TMP/out" ||
		fail "unexpected results on faultfs ($*): $(cat "$TMP/out")"
	grep -q "^Throughput" "$TMP/out" || fail "no Throughput line ($*)"
}

note "(1) no rules: a pass-through"
ffs_mount
[ "$(cat "$TMP/ffs.pid")" = "$FFS_PID" ] || fail "pidfile: $(cat "$TMP/ffs.pid")"
run_ok -t 3 --warmup 0 2
run_ok -c "$CLIENT_TXT" -t 3 --warmup 0 2
run_ok -t 2 --warmup 0 -s -S -F -x 2
[ -z "$(find "$BACK" -mindepth 1)" ] ||
	fail "backing dir not clean: $(find "$BACK" -mindepth 1 | head)"
[ ! -s "$LOG" ] || fail "injections without a rule: $(head "$LOG")"
ffs_umount
echo "ok: builtin, client.txt and -s -S -F -x runs clean"

note "(2) rename delay=300 period=1000"
ffs_mount --rule 'rename delay=300 period=1000'
run_ok -t 5 --warmup 0 1
max=$(op_max "$TMP/out" Rename)
# other ops stay far from the injected delay (250 ms: room for a loaded
# machine, and still catches a delay applied to the wrong op)
awk '/^ Operation/ {t=1; next} t && NF == 4 && $1 != "Rename" && $4 >= 250 {
	print $1, $4; bad=1 } END { exit bad }' "$TMP/out" >"$TMP/slow" ||
	fail "ops other than Rename slow: $(cat "$TMP/slow")"
ffs_umount
# <ns> <iso> rename <old->new> delay=300 start|end.  Each delay lasts at
# least 300 ms (a loaded machine may oversleep: < 450); the measured
# Rename MaxLat is the longest delay as faultfs logged it, plus at most
# 5 % for the FUSE round trip.
awk -v max="$max" '
	$3 == "rename" && $5 == "delay=300" && $6 == "start" {s[n++] = $1}
	$3 == "rename" && $5 == "delay=300" && $6 == "end" {e[m++] = $1}
	END {
		if (n < 4 || n > 6 || m != n) {
			print n " starts, " m " ends, expected 4 to 6"; exit 1
		}
		for (i = 0; i < n; i++) {
			d = (e[i] - s[i]) / 1e6
			if (d > dmax)
				dmax = d
			if (d < 300 || d >= 450) {
				print "delay " i " lasted " d " ms"; exit 1
			}
			if (i && ((s[i] - s[i-1]) / 1e9 < 0.8 ||
				  (s[i] - s[i-1]) / 1e9 > 1.5)) {
				print "starts " i-1 " and " i " are " \
					(s[i] - s[i-1]) / 1e9 " s apart"
				exit 1
			}
		}
		if (max < dmax || max >= dmax * 1.05) {
			printf "Rename MaxLat %s ms, longest delay %.3f ms\n",
				max, dmax
			exit 1
		}
		printf "%d delays about 1 s apart, the longest %.3f ms\n", n, dmax
	}' "$LOG" >"$TMP/chk" || fail "injection log: $(cat "$TMP/chk"): $(cat "$LOG")"
echo "ok: Rename MaxLat $max ms, others < 250 ms, $(cat "$TMP/chk")"

# fails_on OP ERROR: a run on faultfs exits 1, naming OP and ERROR;
# faultfs is unmounted after it
fails_on() {
	"$DBNG" -t 5 --warmup 0 -D "$MNT" 1 >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc = 1 ] || fail "exit $rc, expected 1: $(cat "$TMP/err")"
	grep "$1" "$TMP/err" | grep -q "$2" ||
		fail "no $1 '$2' message: $(cat "$TMP/err")"
	ffs_umount
}

note "(3) write error=ENOSPC count=1"
ffs_mount --rule 'write:*/~wr* error=ENOSPC count=1'
fails_on WriteX "No space left on device"
if [ "$(grep -c ' error=ENOSPC start$' "$LOG")" != 1 ] ||
	[ "$(wc -l <"$LOG")" != 1 ]; then
	fail "injection log: $(cat "$LOG")"
fi
grep -q '^[0-9]* [0-9T:.-]*Z write clients/client0/.*/~wr[^/]* ' "$LOG" ||
	fail "log line: $(cat "$LOG")"
echo "ok: $(head -1 "$TMP/err")"

note "(4) unlink error=EIO"
ffs_mount --rule 'unlink error=EIO'
fails_on Unlink "Input/output error"
grep -q ' unlink .* error=EIO start$' "$LOG" || fail "injection log: $(cat "$LOG")"
echo "ok: $(head -1 "$TMP/err")"
rm -rf "${BACK:?}"/*

note "(5) --rules FILE, re-read on SIGHUP"
echo 'statfs error=EROFS' >"$TMP/rules"
ffs_mount --rules "$TMP/rules"
df "$MNT" >/dev/null 2>&1 && fail "statfs error=EROFS not injected"
printf '# now only mkdir\nmkdir:no* error=EDQUOT\n' >"$TMP/rules"
kill -HUP "$FFS_PID"
for _ in $(seq 100); do
	grep -q "1 rules from" "$TMP/ffs.err" && break
	sleep 0.05
done
df "$MNT" >/dev/null || fail "statfs still failing after SIGHUP"
mkdir "$MNT/yes" || fail "mkdir yes failed"
mkdir "$MNT/no" 2>"$TMP/err" && fail "mkdir no succeeded"
grep -q "Disk quota exceeded" "$TMP/err" || fail "mkdir no: $(cat "$TMP/err")"
ffs_umount
[ -d "$BACK/yes" ] || fail "mkdir yes: not in the backing dir"
[ ! -e "$BACK/no" ] || fail "mkdir no: in the backing dir"
echo "ok: rules file and SIGHUP reload"

! grep -q " $MNT " /proc/mounts || fail "$MNT still mounted"
echo "all faultfs checks passed"
