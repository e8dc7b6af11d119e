# SPDX-License-Identifier: GPL-3.0-or-later
# The workload of a run without -c: dbench 4.0's client.txt where dbench
# installed it (the first of /usr/local/share/client.txt,
# /usr/local/share/dbench/client.txt, /usr/share/dbench/client.txt that
# exists), else the built-in workload with a note on stderr; a client.txt
# that is there but cannot be read is refused (exit 2, one line naming
# it), never swapped for the built-in.  The Running line names it, the
# JSON records it (config.loadfile, loadfiles[].kind and sha256), one pass
# replays exactly its ops.  The search list is replaced for the tests by
# DBENCH_NG_TEST_CLIENT_TXT_PATH; as root the real list is also shown to
# fall back, in a mount namespace where those files are hidden.
. "$(dirname "$0")/../lib.sh"

D=$TMP/d
mkdir -p "$D"
STOCK="/usr/local/share/client.txt /usr/local/share/dbench/client.txt /usr/share/dbench/client.txt"
LOAD=$ROOT/loadfiles/netbench.load
NOTE_HEAD="dbench-ng: dbench 4.0's client.txt is not installed"

# once FILE ARGS...: one pass of the null backend (no I/O) with ARGS,
# stdout in FILE, stderr in FILE.err, the JSON in FILE.json
once() {
	local out=$1
	shift
	"$DBNG" -B null --run-once --warmup 0 -t 600 --json "$out.json" \
		-D "$D" "$@" 1 >"$out" 2>"$out.err" ||
		fail "exit $?: $(tail -3 "$out.err")"
}

# same_ops OUT LOADFILE: the classic table of OUT counts exactly the ops of
# LOADFILE (one pass)
same_ops() {
	local kw want got
	for kw in NTCreateX:NTCreateX Close:Close Rename:Rename Unlink:Unlink \
		QUERY_PATH_INFORMATION:Qpathinfo WriteX:WriteX ReadX:ReadX \
		FIND_FIRST:Find Flush:Flush; do
		want=$(grep -c "^${kw%%:*} " "$2")
		got=$(op_count "$1" "${kw##*:}")
		[ "$want" = "$got" ] || fail "$1: ${kw##*:}: $got ops, $2 has $want"
	done
}

# recorded JSON NAME KIND SHA256: what the result says of its loadfile
recorded() {
	local got
	got=$(jq -r '[.config.loadfile, (.environment.loadfiles | length),
		.environment.loadfiles[0].name, .environment.loadfiles[0].kind,
		.environment.loadfiles[0].sha256] | join(" ")' "$1")
	[ "$got" = "$2 1 $2 $3 $4" ] || fail "$1 records '$got', expected '$2 1 $2 $3 $4'"
}

builtin_sha=$(sha256sum <"$LOAD" | cut -d' ' -f1)

note "no client.txt where the list looks: the built-in workload, and a note"
export DBENCH_NG_TEST_CLIENT_TXT_PATH="$TMP/none/client.txt:$TMP/client.txt"
once "$TMP/b"
grep -qx "Running for 600 seconds with load 'builtin:netbench' and minimum warmup 0 secs" "$TMP/b" ||
	fail "Running line: $(grep Running "$TMP/b")"
[ "$(cat "$TMP/b.err")" = "$NOTE_HEAD (none of $TMP/none/client.txt, $TMP/client.txt): running the built-in workload, builtin:netbench, whose figures are not those of dbench 4.0's default (apt-get install dbench, or name a loadfile with -c)" ] ||
	fail "stderr: $(cat "$TMP/b.err")"
same_ops "$TMP/b" "$LOAD"
recorded "$TMP/b.json" builtin:netbench builtin "$builtin_sha"
echo "ok: $(grep Running "$TMP/b")"

note "a refused command line stays one line: the note comes after every check"
expect_rc 2 "$DBNG" -D "$TMP/nonexistent" 1 >/dev/null 2>"$TMP/err"
[ "$(wc -l <"$TMP/err")" = 1 ] || fail "more than one line: $(cat "$TMP/err")"

note "the first that exists, in the order of the list"
printf '%s\n' 'NTCreateX "\clients\client1\f" 0x0 0x2 1 NT_STATUS_OK' \
	'WriteX 1 0 4096 4096 NT_STATUS_OK' 'Close 1 NT_STATUS_OK' >"$TMP/client.txt"
once "$TMP/f"
grep -qx "Running for 600 seconds with load '$TMP/client.txt' and minimum warmup 0 secs" "$TMP/f" ||
	fail "Running line: $(grep Running "$TMP/f")"
[ ! -s "$TMP/f.err" ] || fail "stderr: $(cat "$TMP/f.err")"
[ "$(op_count "$TMP/f" WriteX)" = 1 ] || fail "not $TMP/client.txt's ops: $(cat "$TMP/f")"
# not dbench's by its content: a file of the user's
recorded "$TMP/f.json" "$TMP/client.txt" file "$(sha256sum <"$TMP/client.txt" | cut -d' ' -f1)"
mkdir -p "$TMP/none"
cp "$TMP/client.txt" "$TMP/none/client.txt"
echo 'QUERY_FS_INFORMATION 1007 NT_STATUS_OK' >>"$TMP/none/client.txt"
once "$TMP/f2"
grep -q "with load '$TMP/none/client.txt'" "$TMP/f2" || fail "not the first: $(grep Running "$TMP/f2")"
rm -r "$TMP/none"
echo "ok: the first of the list that exists"

note "a client.txt that is there but cannot be read: refused, naming it"
for what in directory garbage; do
	rm -rf "$TMP/client.txt"
	case $what in
	directory) mkdir "$TMP/client.txt"; want="$TMP/client.txt: cannot open loadfile: a directory" ;;
	garbage) echo 'NotAnOp 1 NT_STATUS_OK' >"$TMP/client.txt"; want="$TMP/client.txt:1: unknown operation 'NotAnOp'" ;;
	esac
	expect_rc 2 "$DBNG" -t 1 -D "$D" 1 >"$TMP/out" 2>"$TMP/err"
	[ "$(wc -l <"$TMP/err")" = 1 ] || fail "$what: not one line: $(cat "$TMP/err")"
	grep -qF "dbench-ng: $want" "$TMP/err" &&
		grep -qF "(the loadfile of a run without -c, found where dbench 4.0 installs its client.txt; -c builtin:netbench runs the built-in workload)" "$TMP/err" ||
		fail "$what: $(cat "$TMP/err")"
	[ ! -s "$TMP/out" ] && [ -z "$(ls -A "$D")" ] || fail "$what: something ran"
	echo "ok: $what: $(cat "$TMP/err")"
done
if [ "$(id -u)" != 0 ]; then
	rm -rf "$TMP/client.txt"
	echo 'Close 1 NT_STATUS_OK' >"$TMP/client.txt"
	chmod 000 "$TMP/client.txt"
	expect_rc 2 "$DBNG" -t 1 -D "$D" 1 >/dev/null 2>"$TMP/err"
	grep -q "^dbench-ng: $TMP/client.txt: cannot open loadfile: Permission denied (the loadfile of a run without -c" "$TMP/err" ||
		fail "unreadable: $(cat "$TMP/err")"
	echo "ok: unreadable: $(cat "$TMP/err")"
fi
rm -rf "$TMP/client.txt"

note "-c builtin:netbench names the built-in workload, whatever is installed"
touch "$TMP/client.txt"	# would be refused if it were read
once "$TMP/e" -c builtin:netbench
grep -q "with load 'builtin:netbench'" "$TMP/e" && [ ! -s "$TMP/e.err" ] ||
	fail "-c builtin:netbench: $(grep Running "$TMP/e") $(cat "$TMP/e.err")"
same_ops "$TMP/e" "$LOAD"
echo "ok: $(grep Running "$TMP/e")"
unset DBENCH_NG_TEST_CLIENT_TXT_PATH

# the real list
found=
for f in $STOCK; do
	[ -e "$f" ] && { found=$f; break; }
done
if [ -n "$found" ] && [ -r "$found" ]; then
	note "dbench's client.txt installed ($found): it is the default"
	once "$TMP/c"
	grep -qx "Running for 600 seconds with load '$found' and minimum warmup 0 secs" "$TMP/c" ||
		fail "Running line: $(grep Running "$TMP/c")"
	[ ! -s "$TMP/c.err" ] || fail "stderr: $(cat "$TMP/c.err")"
	same_ops "$TMP/c" "$found"
	sha=$(sha256sum <"$found" | cut -d' ' -f1)
	kind=file
	[ "$sha" != ec2792b86d74ff0c6d091a599ce3ec311fcce86c97f7be86a80fca80c24ce45c ] || kind=client.txt
	recorded "$TMP/c.json" "$found" "$kind" "$sha"
	echo "ok: $(grep Running "$TMP/c"), recorded as $kind"
else
	echo "dbench's client.txt is not installed: the default with it not tested (apt-get install dbench)"
fi

if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
	note "the real list, everything on it hidden (a mount namespace): the built-in"
	hide=
	for f in $STOCK; do
		[ -d "${f%/*}" ] && hide="$hide ${f%/*}"
	done
	# shellcheck disable=SC2086
	unshare -m --propagation private sh -c 'for d; do mount -t tmpfs tmpfs "$d" || exit 9; done
		exec "$0" -B null --run-once --warmup 0 -t 600 -D "'"$D"'" 1' "$DBNG" $hide \
		>"$TMP/h" 2>"$TMP/h.err" || fail "exit $?: $(cat "$TMP/h.err")"
	grep -q "with load 'builtin:netbench'" "$TMP/h" || fail "hidden: $(grep Running "$TMP/h")"
	[ "$(cat "$TMP/h.err")" = "$NOTE_HEAD (none of /usr/local/share/client.txt, /usr/local/share/dbench/client.txt, /usr/share/dbench/client.txt): running the built-in workload, builtin:netbench, whose figures are not those of dbench 4.0's default (apt-get install dbench, or name a loadfile with -c)" ] ||
		fail "hidden: stderr: $(cat "$TMP/h.err")"
	same_ops "$TMP/h" "$LOAD"
	echo "ok: $(cat "$TMP/h.err")"
else
	echo "the real list's fall-back not tested: needs root and unshare -m"
fi
echo "all default-workload checks passed"
