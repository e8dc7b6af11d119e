# SPDX-License-Identifier: GPL-3.0-or-later
# dbench 5's NFSv3 loadfile lines against a real server: a private
# nfs-ganesha and rpcbind (tests/ganesha.sh, stopped by pid on every exit
# path).  The test's own loadfile (tests/cli/nfs3.load: every NFSv3 op,
# REPEAT, offset expressions) is replayed once by 2 clients with
# --skip-cleanup: the per-op counts in the JSON are the loadfile's, and
# the tree on the export's disk is what the lines made (file sizes, the
# hard link, the symlink's text, the zeros written, nothing of what was
# removed).  Then a timed run of it: passes one after the other (Deltree
# removes the tree each time), clients/ removed at the end, nothing
# beside it touched; --fake-io writes nothing and counts the bytes; WRITE3 with stable 2 makes ganesha fsync each write
# (strace), with 0 only COMMIT3 does.  Without a server: fileio refuses
# it naming the line and -B nfs, null runs it.
. "$(dirname "$0")/../ganesha.sh"
ganesha_ns "$@"
. "$(dirname "$0")/../lib.sh"

L=$(dirname "$0")/nfs3.load

note "fileio refuses it, naming its first NFSv3 line and -B nfs; null runs it"
mkdir "$TMP/d"
expect_rc 2 "$DBNG" -c "$L" -D "$TMP/d" --run-once 1 >"$TMP/out" 2>"$TMP/err"
grep -qxF "dbench-ng: $L:6: backend 'fileio' cannot run 'MKDIR3' (an NFSv3 operation of dbench 5's nfs loadfiles: run it with -B nfs)" \
	"$TMP/err" || fail "fileio: $(cat "$TMP/err")"
[ -z "$(ls -A "$TMP/d")" ] || fail "fileio created something: $(ls -A "$TMP/d")"
expect_rc 0 "$DBNG" -B null -c "$L" --run-once 2 >"$TMP/out"
[ "$(op_count "$TMP/out" WRITE3)" = 40 ] || fail "null: WRITE3 $(op_count "$TMP/out" WRITE3)"

ganesha_start "$TMP/nfs"
E=$NFS_EXPORT
U=--nfs=$NFS_URL
keep_beside "$E" "the export"

note "one pass, 2 clients: the counts of every op, and the tree on the server's disk"
expect_rc 0 "$DBNG" -B nfs "$U" --run-once -t 600 --warmup 0 -c "$L" \
	--skip-cleanup --json "$TMP/n.json" 2 >"$TMP/out" 2>"$TMP/err"
[ ! -s "$TMP/err" ] || fail "stderr: $(cat "$TMP/err")"
python3 - "$TMP/n.json" <<'PY' || fail "the per-op counts are not the loadfile's"
import json, sys
d = json.load(open(sys.argv[1]))
got = {o["name"]: o["count"] for o in d["ops"]}
# per client: the lines of nfs3.load, REPEATs counted out
want = {"Deltree": 1, "GETATTR3": 2, "LOOKUP3": 2, "CREATE3": 3,
        "WRITE3": 20, "COMMIT3": 1, "READ3": 9, "REMOVE3": 1, "MKDIR3": 4,
        "RMDIR3": 1, "RENAME3": 1, "LINK3": 1, "SYMLINK3": 1,
        "READLINK3": 2, "READDIRPLUS3": 1, "ACCESS3": 1, "FSSTAT3": 1,
        "FSINFO3": 1, "PATHCONF3": 1, "SETATTR3": 1}
want = {k: 2 * v for k, v in want.items()}
assert got == want, (sorted(got.items()), sorted(want.items()))
by = {o["name"]: o for o in d["ops"]}
# each op its histogram, every call in it
assert all(sum(n for _, n in o["lat_ns"]["bins"]) + o["lat_ns"]["overflow"]
           == o["count"] for o in d["ops"]), d["ops"]
# the bytes: every WRITE3 and READ3 its size
w = 16 * 65536 + 2 * 8192 + 100 + 512
r = 9 * 4096
assert by["WRITE3"]["bytes"] == 2 * w, by["WRITE3"]
assert by["READ3"]["bytes"] == 2 * r, by["READ3"]
assert d["summary"]["bytes"] == 2 * (w + r) + 0, d["summary"]
assert d["summary"]["unexpected_results"] == 0, d["summary"]
for name, o in by.items():
    print("%-13s %4d" % (name, o["count"]))
PY
for op in WRITE3 READ3 READDIRPLUS3 SETATTR3; do
	[ -n "$(op_count "$TMP/out" $op)" ] || fail "no $op row in the table"
done
[ -z "$(op_count "$TMP/out" WriteX)" ] || fail "a WriteX row"
for i in 0 1; do
	c=$E/clients/client$i
	[ "$(stat -c %s "$c/data/log")" = 1048576 ] || fail "client$i: data/log is $(stat -c %s "$c/data/log") bytes"
	cmp -s -n 1048576 "$c/data/log" /dev/zero || fail "client$i: data/log is not zeros"
	[ "$(stat -c %h "$c/data/log")" = 2 ] || fail "client$i: data/log has $(stat -c %h "$c/data/log") links"
	[ "$(stat -c %i "$c/data/log")" = "$(stat -c %i "$c/data/hard")" ] ||
		fail "client$i: data/hard is not a hard link of data/log"
	[ "$(readlink "$c/data/soft")" = "../../../clients/client$i/data/sync" ] ||
		fail "client$i: data/soft is '$(readlink "$c/data/soft")'"
	[ "$(stat -c %s "$c/data/synced")" = 16484 ] || fail "client$i: data/synced is $(stat -c %s "$c/data/synced") bytes"
	[ ! -e "$c/data/sync" ] && [ ! -e "$c/tmp" ] || fail "client$i: sync or tmp left: $(ls "$c" "$c/data")"
	[ "$(cd "$c" && find . | sort | tr '\n' ' ')" = ". ./data ./data/hard ./data/log ./data/soft ./data/synced " ] ||
		fail "client$i's tree: $(cd "$c" && find . | sort)"
done
echo "ok: the tree of both clients on the export"
rm -rf "$E/clients"

note "a timed run: pass after pass (Deltree removes the tree), clients/ removed after"
expect_rc 0 "$DBNG" -B nfs "$U" -t 3 --warmup 0 -c "$L" --json "$TMP/t.json" 2 \
	>"$TMP/out" 2>"$TMP/err"
[ ! -s "$TMP/err" ] || fail "stderr: $(cat "$TMP/err")"
python3 - "$TMP/t.json" <<'PY' || fail "the timed run"
import json, sys
d = json.load(open(sys.argv[1]))
by = {o["name"]: o["count"] for o in d["ops"]}
assert by.get("Deltree", 0) >= 2, by  # a pass and the next one started
assert d["summary"]["unexpected_results"] == 0, d["summary"]
print("Deltree %d, WRITE3 %d in 3 s" % (by["Deltree"], by["WRITE3"]))
PY
tail -1 "$TMP/out" | grep -Eq '^Throughput [0-9.]+ MB/sec  2 clients  2 procs' || fail "no Throughput line"
untouched

note "--fake-io: READ3 and WRITE3 move no data, their bytes are counted"
expect_rc 0 "$DBNG" -B nfs "$U" --fake-io --run-once -c "$L" --skip-cleanup \
	--json "$TMP/f.json" 1 >"$TMP/out"
[ "$(stat -c %s "$E/clients/client0/data/log")" = 0 ] ||
	fail "--fake-io wrote $(stat -c %s "$E/clients/client0/data/log") bytes to data/log"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["summary"]["bytes"] == 16*65536+2*8192+100+512+9*4096, d["summary"]' \
	"$TMP/f.json" || fail "--fake-io: the bytes are not counted"
rm -rf "$E/clients"

note "WRITE3's stable: 2 is FILE_SYNC (ganesha fsyncs each), 0 UNSTABLE (COMMIT3 syncs once)"
command -v strace >/dev/null || skip "strace not installed (apt-get install strace)"
for st in 0 2; do
	{
		echo 'MKDIR3 "/clients/client1" *'
		echo 'CREATE3 "/clients/client1/w" 0x00000000'
		echo "REPEAT 16"
		echo "WRITE3 \"/clients/client1/w\" +4096 4096 $st 0x00000000"
		echo 'COMMIT3 "/clients/client1/w" 0x00000000'
	} >"$TMP/w$st.load"
done
unstable=$(ganesha_syncs --run-once -c "$TMP/w0.load")
filesync=$(ganesha_syncs --run-once -c "$TMP/w2.load")
echo "ganesha's syncs for 16 WRITE3 and a COMMIT3: $unstable with stable 0, $filesync with stable 2"
[ "$unstable" -le 3 ] || fail "$unstable syncs with stable 0: the writes were not UNSTABLE"
[ "$filesync" -ge 16 ] || fail "only $filesync syncs with stable 2: the writes were not FILE_SYNC"
untouched
echo "ok"
