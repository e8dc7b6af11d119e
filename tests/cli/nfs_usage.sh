# SPDX-License-Identifier: GPL-3.0-or-later
# The nfs backend's command line, without a server: --help lists its
# options and their dbench 5 spellings; a missing or malformed export (a
# URL that is not one, a list of URLs, HOST:PORT, NFSv4, a query key
# libnfs does not know or a value that is not a number, --nfs beside
# --server), and what it cannot do (-S, -x, --paths dirfd, --stat-check)
# are each refused before anything starts: one message, exit 2.
. "$(dirname "$0")/../lib.sh"

"$DBNG" --help >"$TMP/help"
grep -q ' nfs (' "$TMP/help" ||
	skip "this build has no nfs backend (apt-get install libnfs-dev, then make)"
for o in "nfs: -o url=URL, --nfs=URL" "nfs: -o server=HOST, --server=HOST" \
	"nfs: -o export=PATH, --export=PATH" "nfs: -o timeout=S"; do
	grep -qF -- "$o" "$TMP/help" || fail "--help does not list '$o'"
done

refused() {
	local want=$1
	shift
	expect_rc 2 "$DBNG" -B nfs "$@" -t 2 2 >"$TMP/out" 2>"$TMP/err"
	[ "$(wc -l <"$TMP/err")" = 1 ] || fail "not one message for $*: $(cat "$TMP/err")"
	grep -qF -- "$want" "$TMP/err" || fail "message for $*: $(cat "$TMP/err"), want: $want"
	[ ! -s "$TMP/out" ] || fail "output for $*: $(head -3 "$TMP/out")"
	cat "$TMP/err"
}
refused "-B nfs needs the export: --nfs=nfs://SERVER/EXPORT, or --server=HOST --export=PATH"
refused "--server needs --export too" --server=127.0.0.1
refused "--export needs --server too" -o export=/srv
refused "--nfs names the server and the export: give it alone" \
	--nfs=nfs://h/e --server=h
refused "--nfs smb://h/e: not an nfs:// URL" --nfs=smb://h/e
refused "one URL (dbench 5's list of exports is not supported)" \
	--nfs=nfs://h/e,nfs://h/f
refused "--nfs: 'h:2049': give the ports in the URL's query" --nfs=nfs://h:2049/e
refused "--nfs nfs://h: no export" --nfs=nfs://h
refused "'version=4': the nfs backend speaks NFSv3 only" --nfs='nfs://h/e?version=4'
refused "--nfs: 'nfsprot=1' in the URL's query is not KEY=VALUE of libnfs" \
	--nfs='nfs://h/e?nfsport=2049&nfsprot=1'
refused "--nfs: 'mountport=x' in the URL's query: not a whole number" \
	--nfs='nfs://h/e?mountport=x'
refused "--export srv: the export's path on the server, from /" \
	--server=h --export=srv
refused "-o timeout=-1: '-1' is not a whole number in 0..3600" --nfs=nfs://h/e -o timeout=-1
refused "-S: backend 'nfs' cannot sync directories: NFSv3 has no call that syncs a directory" --nfs=nfs://h/e -S
refused "-x: backend 'nfs' cannot store DOS attributes in xattrs: NFSv3 has no extended attributes" --nfs=nfs://h/e -x
refused "--paths dirfd: backend 'nfs' cannot work through directory fds: it looks every path up" \
	--nfs=nfs://h/e --paths dirfd
refused "--stat-check: backend 'nfs' cannot skip calls after a stat" \
	--nfs=nfs://h/e --stat-check
# --export is not an option of fileio: refused naming the backend that has it
expect_rc 2 "$DBNG" --export=/srv -t 2 2 >"$TMP/out" 2>"$TMP/err"
grep -qF "backend 'fileio' has no option --export (an option of -B nfs)" "$TMP/err" ||
	fail "--export with fileio: $(cat "$TMP/err")"
echo "ok"
