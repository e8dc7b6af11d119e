# SPDX-License-Identifier: GPL-3.0-or-later
# The nfs backend against a real server: a private nfs-ganesha and rpcbind
# (tests/ganesha.sh: this test's own network and mount namespaces, files in
# $TMP), stopped by pid on every exit path.  Checks: one pass of the first
# lines of client.txt through NFS executes exactly the op mix fileio
# executes on the export's directory, with LockX and UnlockX counted as
# not run (text and JSON), and leaves fileio's tree, file by file and size
# by size, on the server's disk (--skip-cleanup); timed runs of the
# built-in workload and client.txt; --server/--export and -o spellings;
# a file and a folder beside clients/ on the export are never touched and
# clients/ is removed at the end; -s makes every write FILE_SYNC (ganesha
# fsyncs each, seen with strace) where without it only Close's COMMIT
# syncs; SIGTERM to a client mid-call is an interrupted run whose trees
# are removed, not a lost server; a missing export and a server that does not answer are refused
# with one message and the documented exit status; ganesha killed mid-run
# ends the run with one message (the same for every client), exit 1, and
# no process left.
. "$(dirname "$0")/../ganesha.sh"
ganesha_ns "$@"
. "$(dirname "$0")/../lib.sh"

ganesha_start "$TMP/nfs"
E=$NFS_EXPORT
U=--nfs=$NFS_URL

# beside clients/: a file and a folder no run may touch
keep_beside "$E" "the export"
# the tree below clients/: files with their size, directories
tree() { (cd "$1" && find clients \( -type f -printf 'f %s %p\n' \) -o -printf '%y %p\n' | sort); }

note "one pass of client.txt's first 3500 lines and a Deltree: fileio's op mix and tree, LockX/UnlockX not run"
{
	head -3500 "$CLIENT_TXT"
	# a Deltree of a tree with files (client.txt's first lines have only
	# one of an empty tree): files removed, directories kept, as fileio's
	echo 'Mkdir "\clients\client1\dt" NT_STATUS_OK'
	echo 'Mkdir "\clients\client1\dt\sub" NT_STATUS_OK'
	echo 'NTCreateX "\clients\client1\dt\sub\f" 0x0 0x5 99999 NT_STATUS_OK'
	echo 'WriteX 99999 0 100 100 NT_STATUS_OK'
	echo 'Close 99999 NT_STATUS_OK'
	echo 'NTCreateX "\clients\client1\dt\g" 0x0 0x5 99999 NT_STATUS_OK'
	echo 'Close 99999 NT_STATUS_OK'
	echo 'Deltree "\clients\client1\dt" NT_STATUS_OK'
} >"$TMP/c.load"
expect_rc 0 "$DBNG" --run-once -t 600 --warmup 0 -c "$TMP/c.load" -D "$E" \
	--skip-cleanup --json "$TMP/f.json" 2 >"$TMP/fout"
tree "$E" >"$TMP/ftree"
rm -rf "$E/clients"
expect_rc 0 "$DBNG" -B nfs "$U" --run-once -t 600 --warmup 0 \
	-c "$TMP/c.load" --skip-cleanup --json "$TMP/n.json" 2 >"$TMP/nout" 2>"$TMP/nerr"
[ ! -s "$TMP/nerr" ] || fail "stderr: $(cat "$TMP/nerr")"
python3 - "$TMP/f.json" "$TMP/n.json" <<'PY' || fail "the op mix through NFS is not fileio's"
import json, sys
f, n = (json.load(open(p)) for p in sys.argv[1:])
fo = {o["name"]: o for o in f["ops"]}
no = {o["name"]: o for o in n["ops"]}
skipped = {"LockX", "UnlockX"}
assert set(fo) == set(no), (sorted(fo), sorted(no))
assert all(fo[s]["count"] > 0 for s in skipped), "no locks in the loadfile"
for name, o in fo.items():
    x = no[name]
    if name in skipped:
        assert x["count"] == 0 and x["not_executed"] == o["count"], (name, x)
        assert "libnfs 4.0 has no NFSv3 lock call" in x["not_executed_reason"], x
    else:
        assert x["count"] == o["count"] and "not_executed" not in x, (name, o["count"], x)
    print("%-10s fileio %6d  nfs %6d  not run %d" % (name, o["count"], x["count"], x.get("not_executed", 0)))
fs, ns = f["summary"], n["summary"]
assert ns["unexpected_results"] == fs["unexpected_results"], (fs, ns)
assert n["config"]["backend"] == "nfs", n["config"]
assert n["config"]["backend_options"].startswith("url=nfs://127.0.0.1/"), n["config"]
PY
sed -n '/^ Not run/,/^$/p' "$TMP/nout" >"$TMP/notrun"
cat "$TMP/notrun"
grep -Eq '^ Not run: [0-9]+ lines of ops the backend cannot do' "$TMP/notrun" ||
	fail "no 'Not run' section"
for op in LockX UnlockX; do
	grep -Eq "^ $op: +[0-9]+  libnfs 4.0 has no NFSv3 lock call \(NLM\)" "$TMP/notrun" ||
		fail "$op not shown as not run"
	[ -z "$(op_count "$TMP/nout" $op)" ] || fail "$op has a row in the classic table"
	[ -n "$(op_count "$TMP/fout" $op)" ] || fail "fileio did not run $op"
done
tail -1 "$TMP/nout" | grep -q '^Throughput ' || fail "Throughput is not the last line"
# the same tree on the server's disk as fileio's
tree "$E" >"$TMP/ntree"
[ "$(grep -c '^f' "$TMP/ftree")" -gt 20 ] || fail "fileio left too few files to compare"
diff "$TMP/ftree" "$TMP/ntree" || fail "the export's tree is not fileio's"
echo "ok: the same $(grep -c '^f' "$TMP/ntree") files and $(grep -c '^d' "$TMP/ntree") directories"
rm -rf "$E/clients"
untouched

note "timed runs: the built-in workload and client.txt, 2 clients; clients/ removed after"
for lf in builtin "$CLIENT_TXT"; do
	c=(-c "$lf")
	[ "$lf" = builtin ] && c=(-c builtin:netbench)
	expect_rc 0 "$DBNG" -B nfs "$U" -t 2 --warmup 1 "${c[@]}" 2 >"$TMP/out"
	grep -Eq '^   2 +[0-9]+ +[0-9.]+ MB/sec  execute   1 sec' "$TMP/out" || fail "no progress lines"
	# either loadfile's first ReadX is at its line 610 or so, which a
	# loaded machine may not reach in 2 s (a sanitized build beside
	# another suite did not); the reads were checked by the pass above
	[ -n "$(op_count "$TMP/out" NTCreateX)" ] || fail "no NTCreateX row"
	tail -1 "$TMP/out" | grep -Eq '^Throughput [0-9.]+ MB/sec  2 clients  2 procs' ||
		fail "no Throughput line"
	untouched
done

note "--server/--export and -o: the data written through NFS is on the server's disk"
{
	echo 'Mkdir "\clients\client1" NT_STATUS_OK'
	echo 'NTCreateX "\clients\client1\a.txt" 0x0 0x5 1 NT_STATUS_OK'
	for i in $(seq 0 15); do echo "WriteX 1 $((i * 65536)) 65536 65536 NT_STATUS_OK"; done
	echo 'WriteX 1 1048576 4464 4464 NT_STATUS_OK'
	echo 'Close 1 NT_STATUS_OK'
} >"$TMP/w.load"
expect_rc 0 "$DBNG" -B nfs --server=127.0.0.1 --export="$E" --run-once \
	-c "$TMP/w.load" --skip-cleanup 2 >"$TMP/out"
for i in 0 1; do
	[ "$(stat -c %s "$E/clients/client$i/a.txt")" = 1053040 ] ||
		fail "client$i's file is not 1053040 bytes on the server: $(ls -l "$E/clients/client$i")"
	cmp -s -n 1053040 "$E/clients/client$i/a.txt" /dev/zero || fail "client$i's file is not zeros"
done
rm -rf "$E/clients"
expect_rc 0 "$DBNG" -B nfs -o server=127.0.0.1 -o export="$E/" --run-once \
	-c "$TMP/w.load" 1 >"$TMP/out"
untouched

note "-s: every WriteX is FILE_SYNC (ganesha fsyncs each); without, Close's COMMIT syncs once"
command -v strace >/dev/null || skip "strace not installed (apt-get install strace)"
# the fsync/fdatasync calls of ganesha during a run of w.load (16 + 1
# writes, 1 client): ganesha_syncs (tests/ganesha.sh)
w=(--run-once -c "$TMP/w.load")
plain=$(ganesha_syncs "${w[@]}")
sync=$(ganesha_syncs "${w[@]}" -s)
fsync=$(ganesha_syncs "${w[@]}" -F)
echo "ganesha's syncs: $plain without -s, $sync with -s, $fsync with -F"
[ "$plain" -le 3 ] || fail "$plain syncs without -s: the writes were not UNSTABLE"
[ "$sync" -ge 17 ] || fail "only $sync syncs with -s: the writes were not FILE_SYNC"
[ "$fsync" -ge 17 ] || fail "only $fsync syncs with -F: no COMMIT after each write"
untouched

note "a missing export, a server that does not answer: one message each, nothing made"
refused() { be_refused nfs "$@"; }
refused 2 "nfs://127.0.0.1$E/nosuch: the server 127.0.0.1 refused to mount the export" \
	--nfs="$NFS_URL/nosuch"
untouched
refused 3 "cannot reach the NFS server 127.0.0.1" --nfs="$NFS_URL?nfsport=2050&mountport=20050"
untouched
# what clients/ or a link in it would lead the calls to is refused
ln -s keep "$E/clients"
refused 2 "clients: not a directory (refusing to work through a symlink" "$U"
rm "$E/clients"
mkdir -p "$E/clients/client0"
ln -s ../../keep "$E/clients/client0/dir"
refused 2 "export/clients/client0/dir is a symbolic link" "$U"
rm -r "$E/clients"
untouched
# one planted during the run is never followed: not by a Deltree of it,
# not by the clean-up (it is planted while the client sleeps, 2 s before
# its Deltree; on a machine so slow that it comes later, nothing is there
# to follow and the check holds all the same)
printf '%s\n' 'Mkdir "\clients\client1" NT_STATUS_OK' 'Sleep 3000000 NT_STATUS_OK' \
	'Deltree "\clients\client1\x" NT_STATUS_OK' 'Deltree "\clients\client1" NT_STATUS_OK' \
	>"$TMP/link.load"
: >"$TMP/out" # now: the job truncates it later, and wait_for must not see the last run's lines
"$DBNG" -B nfs "$U" --run-once -t 60 --warmup 0 -c "$TMP/link.load" 1 >"$TMP/out" 2>&1 &
P=$!
at_exit "kill $P"
wait_for "$TMP/out" 'execute +1 sec'
ln -s ../../keep "$E/clients/client0/x"
wait $P || fail "the run with a planted link failed: $(tail -3 "$TMP/out")"
untouched

note "SIGTERM to a client waiting for an answer: an interrupted run (143), its tree removed"
# the client spends most of its time in libnfs's poll for an answer: the
# signal cuts that wait short, which is no lost server
for i in 1 2 3; do
	: >"$TMP/out" # now: the job truncates it later, and wait_for must not see the last run's lines
	"$DBNG" -B nfs "$U" -c builtin:netbench -t 60 --warmup 0 2 >"$TMP/out" 2>"$TMP/err" &
	P=$!
	wait_for "$TMP/out" 'execute +1 sec'
	kill -TERM "$(pgrep -P $P | head -1)"
	wait $P
	rc=$?
	[ "$rc" = 143 ] || fail "exit $rc after SIGTERM to a client, expected 143: $(cat "$TMP/err")"
	[ "$(cat "$TMP/err")" = "dbench-ng: a client process received signal 15 (Terminated): the run was stopped" ] ||
		fail "messages: $(cat "$TMP/err")"
	untouched
done
echo "ok: 3 times"

note "ganesha killed mid-run: one message, exit 1, no process left"
: >"$TMP/out" # now: the job truncates it later, and wait_for must not see the last run's lines
"$DBNG" -B nfs "$U" -t 60 --warmup 0 -c "$CLIENT_TXT" 3 >"$TMP/out" 2>"$TMP/err" &
P=$!
at_exit "kill $P"
wait_for "$TMP/out" 'execute +1 sec'
kill -KILL "$GANESHA"
wait "$GANESHA" 2>/dev/null
GANESHA=
wait_until 30 eval '! kill -0 $P 2>/dev/null' || fail "the run did not end 30 s after ganesha died"
wait $P
rc=$?
cat "$TMP/err"
[ "$rc" = 1 ] || fail "exit $rc after ganesha was killed, expected 1"
# one message: every client that saw it says the same
sed -E 's/^dbench-ng: client [0-9]+ at .*:[0-9]+: //' "$TMP/err" | sort -u >"$TMP/bodies"
[ "$(wc -l <"$TMP/bodies")" = 1 ] || fail "more than one message: $(cat "$TMP/bodies")"
grep -qx 'lost the connection to the NFS server 127.0.0.1.*' "$TMP/bodies" ||
	fail "not the message of a lost server: $(cat "$TMP/bodies")"
grep -q '^Partial figures of a failed run' "$TMP/out" || fail "no partial figures"
! pgrep -f -- "$U -t 60 --warmup 0" >/dev/null || fail "client processes left: $(pgrep -af -- "$U -t 60")"
ganesha_gone || fail "ganesha left"
echo "ok"
