# SPDX-License-Identifier: GPL-3.0-or-later
# Hostile loadfiles, generated here: each is either refused before
# anything is created (exit 2, one line "FILE:LINE: why"), or run and
# handled inside DIR/clients.  Before every case a sibling of DIR, files
# in DIR beside DIR/clients and the targets of planted symlinks are
# recorded (names, sizes, times, modes and contents); after it any change
# fails the test.  Cases already in safety.sh and usage.sh are not
# repeated here.
. "$(dirname "$0")/../lib.sh"

D=$TMP/d
SIB=$TMP/sibling
OUT=$TMP/outside
mkdir -p "$D/other/dir" "$SIB/sub" "$OUT/sub"
echo keep >"$D/keep"
echo deep >"$D/other/dir/file"
echo sibling >"$SIB/a"
echo sub >"$SIB/sub/b"
echo target >"$OUT/file"
echo target2 >"$OUT/sub/f"
LF=$TMP/h.load
n=0

# everything outside DIR/clients that a case might touch (DIR's own
# time changes as DIR/clients comes and goes)
snapshot() {
	(cd "$TMP" && {
		find sibling outside -printf '%p %s %T@ %m\n'
		find d -mindepth 1 -path d/clients -prune -o \
			-printf '%p %s %T@ %m\n'
		find sibling outside d -path d/clients -prune -o -type f \
			-exec sha256sum {} +
	} | sort)
}
before=$(snapshot)
check_outside() {
	[ "$(snapshot)" = "$before" ] || {
		diff <(echo "$before") <(snapshot)
		fail "$1: something outside DIR/clients changed"
	}
}

# run [ARGS...]: dbench-ng on $LF, one pass, 1 client unless ARGS say
run() {
	# shellcheck disable=SC2086
	timeout 20 "$DBNG" --run-once -t 10 --warmup 0 -c "$LF" -D "$D" \
		${PATHS_ARGS:-} "${@:-1}" >"$TMP/out" 2>"$TMP/err"
}

# rejected LINE PATTERN [ARGS...]: the loadfile in $LF is refused at parse
# time with "dbench-ng: $LF:LINE: PATTERN" (a grep -E pattern) as the only
# output, exit 2, and nothing is created.  LINE "-" for whole-file errors.
rejected() {
	local line=$1 pat=$2 rc where
	shift 2
	n=$((n + 1))
	run "$@"
	rc=$?
	where=$LF:$line:
	[ "$line" = - ] && where=$LF:
	[ $rc = 2 ] || fail "case $n: exit $rc, expected 2 ($pat): $(cat "$TMP/err")"
	[ "$(wc -l <"$TMP/err")" = 1 ] ||
		fail "case $n: expected one line, got: $(cat "$TMP/err")"
	grep -qE -- "^dbench-ng: $where $pat" "$TMP/err" ||
		fail "case $n: wanted '$where $pat', got: $(cat "$TMP/err")"
	[ ! -s "$TMP/out" ] || fail "case $n: stdout: $(cat "$TMP/out")"
	[ ! -e "$D/clients" ] || fail "case $n: DIR/clients was created"
	check_outside "case $n ($pat)"
	echo "ok $n: rejected: $(cut -c1-150 "$TMP/err")"
}

# accepted RC WHAT [ARGS...]: the loadfile runs and exits RC; DIR/clients
# is gone afterwards (unless --skip-cleanup is in ARGS or KEEP is set)
accepted() {
	local want=$1 what=$2 rc
	shift 2
	n=$((n + 1))
	run "$@"
	rc=$?
	[ $rc = "$want" ] ||
		fail "case $n ($what): exit $rc, expected $want: $(head -3 "$TMP/err")"
	case " $* " in
	*" --skip-cleanup "*) ;;
	*) [ -n "${KEEP:-}" ] || [ ! -e "$D/clients" ] ||
		fail "case $n: left $(find "$D/clients")" ;;
	esac
	check_outside "case $n ($what)"
	echo "ok $n: accepted (exit $rc): $what"
}

# lf FORMAT [ARGS...]: write $LF with printf
lf() {
	# shellcheck disable=SC2059
	printf -- "$@" >"$LF"
}

# lines PREFIX LINE...: write $LF: PREFIX (a printf format), then each
# LINE as it is, ended by $EOL (default "\n")
lines() {
	local pre=$1
	shift
	# shellcheck disable=SC2059
	{
		printf -- "$pre"
		printf "%s${EOL:-\n}" "$@"
	} >"$LF"
}

# a client directory every accepted loadfile starts with
MK='Mkdir "\\clients" *\nMkdir "\\clients\\client1" *\n'
OPEN='NTCreateX "\\clients\\client1\\f" 0x0 0x5 1 NT_STATUS_OK\n'

note "paths"
lf "${MK}Qpathinfo \"..\\\\clients\\\\client1\" 1 *\n"
rejected 3 "path '../clients/client1' must start with a backslash"
lf "${MK}Qpathinfo \"\\\\..\\\\clients\\\\client1\" 1 *\n"
rejected 3 "path '/../clients/client1': '..' is not allowed"
lf "${MK}Qpathinfo \"/clients/client1/../../x\" 1 *\n"
rejected 3 "path '/clients/client1/../../x': '..' is not allowed"
lf "${MK}Qpathinfo \"\\\\clients/client1\\\\a/..\\\\..\" 1 *\n"
rejected 3 "path '/clients/client1/a/../..': '..' is not allowed"
lf '%s' 'Rename "\clients\client1\a" "\clients\client1\..\..\..\x" *'
rejected 1 "path '/clients/client1/../../../x': '..' is not allowed"
lf '%s\n' 'Find "\clients\client1\..\*" 260 1366 0 *'
rejected 1 "path '/clients/client1/\.\./\*': '..' is not allowed"
lf '%s\n' 'Unlink "\\server\clients\client1\x" 0 *'
rejected 1 "path '//server/clients/client1/x' is outside .clients"
lf '%s\n' 'Unlink "\\\\\clients\client1\x" 0 *' 'Unlink "\\\" 0 *'
rejected 2 "path '///' is outside .clients"
lf '%s\n' 'Mkdir "\tmp\x" *'
rejected 1 "path '/tmp/x' is outside .clients"

# "...", "...." and mixed separators are ordinary names under \clients
lines "${MK}" 'Mkdir "\clients\client1\..." *' \
	'Mkdir "/clients\client1//...\...." *' \
	'NTCreateX "\clients/client1\.\...\..../.x." 0 2 1 NT_STATUS_OK' \
	'Close 1 NT_STATUS_OK'
accepted 0 "'...' names, mixed slashes" --skip-cleanup 1
[ -f "$D/clients/client0/.../..../.x." ] || fail "no ..././.... file: $(find "$D")"
[ "$(find "$D/clients" | wc -l)" = 5 ] || fail "unexpected files: $(find "$D")"
rm -rf "$D/clients"

note "long names and lines"
c255=$(printf 'n%.0s' $(seq 255))
lines "${MK}" "Mkdir \"\\clients\\client1\\$c255\" NT_STATUS_OK" \
	"NTCreateX \"\\clients\\client1\\$c255\\$c255\" 0 2 1 NT_STATUS_OK" \
	'Close 1 *'
for mode in openat2 fallback; do
	if [ $mode = fallback ]; then export DBENCH_NG_NO_OPENAT2=1; fi
	accepted 0 "255-byte components ($mode)" --skip-cleanup 1
	[ -f "$D/clients/client0/$c255/$c255" ] || fail "255-byte name not created"
	! grep -q "Unexpected" "$TMP/out" || fail "$(cat "$TMP/out")"
	rm -rf "$D/clients"
done
unset DBENCH_NG_NO_OPENAT2
lines "${MK}" "Mkdir \"\\clients\\client1\\${c255}x\" *"
rejected 3 "path '/clients/client1/n{40,}\.\.\.': a component is longer than 255 bytes \(256\)$"
long=$(printf '\\\\d123456789%.0s' $(seq 95))
lf "${MK}Mkdir \"\\\\clients$long\" *\n"
rejected 3 "path '/clients/d123456789/.{40,}\.\.\.' is too long \(more than 1024 bytes below .clients\)$"
long=$(printf '\\\\d123456789%.0s' $(seq 380))
lf "${MK}Mkdir \"\\\\clients$long\" *\n"
rejected 3 "line longer than 4096 bytes \(4[0-9]{3}\)$"
{
	printf "${MK}"
	head -c 1048576 /dev/zero | tr '\0' x
	printf '\nQfsinfo 1 *\n'
} >"$LF"
rejected 3 "line longer than 4096 bytes \(1048576\)$"
# "client1" grows with the client id: a 255-byte name becomes too long
# for client 10 at run time; that open fails (a counted warning) and the
# run goes on
c1=$(printf 'client1%.0s' $(seq 36))
lf "${MK}NTCreateX \"\\\\clients\\\\client1\\\\${c1}abc\" 0 2 1 NT_STATUS_OK\n"
accepted 0 "a name grows past 255 bytes with client ids >= 10" 11
grep -q "client10.*File name too long" "$TMP/out" ||
	fail "no ENAMETOOLONG warning: $(cat "$TMP/out")"

note "NUL bytes, control characters, UTF-8, line ends"
lf "${MK}Qfsinfo 1\0 NT_STATUS_OK\n"
rejected 3 "NUL byte in line \(column 10\)$"
lf "${MK}Qfsinfo 1 NT_STATUS_OK\n\0"
rejected 4 "NUL byte in line \(column 1\)$"
lf "${MK}Qfsinfo 1 NT_STATUS_OK\n\0\0\0\n"
rejected 4 "NUL byte in line"
lf "${MK}Mkdir \"\\\\clients\\\\client1\\\\a\033[2Jb\" *\n"
rejected 3 "control character 0x1b at column 26$"
lf "${MK}Mkdir \"\\\\clients\\\\client1\\\\a\001b\" *\n"
rejected 3 "control character 0x01 at column 26$"
lf "${MK}Mkdir \"\\\\clients\\\\client1\\\\a\177b\" *\n"
rejected 3 "control character 0x7f"
lf "${MK}Mkdir \"\\\\clients\\\\client1\\\\\302\233b\" *\n"
rejected 3 "control character U\+009B at column 25$"
lf "${MK}Mkdir \"\\\\clients\\\\client1\\\\caf\351\" *\n"
rejected 3 "invalid UTF-8 \(byte 0xe9 at column 28\)$"
lf "${MK}Mkdir \"\\\\clients\\\\client1\\\\\300\257\" *\n"
rejected 3 "invalid UTF-8 \(byte 0xc0"
lf "${MK}Mkdir \"\\\\clients\\\\client1\\\\\355\240\200\" *\n"
rejected 3 "invalid UTF-8 \(byte 0xed"
lf "${MK}Qfsinfo 1 NT_STATUS_OK\rQfsinfo 2 NT_STATUS_OK\n"
rejected 3 "carriage return at column 23 "
lf "${MK}Qfsinfo 1 NT_STATUS_OK\r\r\n"
rejected 3 "carriage return at column 23 "
# valid UTF-8 names, and any bytes in a comment
lines "# \033[31m \377 \r comment\n${MK}" \
	'Mkdir "\clients\client1\café 日本 😀" NT_STATUS_OK'
accepted 0 "UTF-8 names" --skip-cleanup 1
[ -d "$D/clients/client0/café 日本 😀" ] || fail "UTF-8 name: $(find "$D")"
rm -rf "$D/clients"
# CRLF: accepted, the \r is not part of the status (dbench 4.0 reads
# every status of such a file as an expected failure)
EOL='\r\n' lines "${MK//\\n/\\r\\n}${OPEN//\\n/\\r\\n}" \
	'WriteX 1 0 10 10 NT_STATUS_OK' 'Close 1 NT_STATUS_OK' \
	'Qpathinfo "\clients\client1\none" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND' \
	'Unlink "\clients\client1\f" 0x6 NT_STATUS_OK'
accepted 0 "CRLF line ends"
! grep -q "Unexpected" "$TMP/out" || fail "CRLF: $(cat "$TMP/out")"
# a missing final newline: the last line still runs (it fails, naming
# its line)
lf "${MK}"'%s' 'Unlink "\clients\client1\none" 0 NT_STATUS_OK'
accepted 1 "no final newline"
grep -q "h.load:3: Unlink .*/none failed (No such file" "$TMP/err" ||
	fail "last line: $(cat "$TMP/err")"
# nothing to run
for text in '' '\n\n' '# only\n  # comments\n\t\n' '\r\n \r\n' '#'; do
	lf "$text"
	rejected - "no operations in loadfile$"
done

note "numbers"
# bad FIELD-LINE...: each line (after $MK and $OPEN) must be refused at 4
bad() {
	local pat=$1 l
	shift
	for l in "$@"; do
		lf "${MK}${OPEN}%s\n" "$l"
		rejected 4 "$pat"
	done
}
bad "handle '.*' is not a number" 'Close 1e3 *' 'Close 0x10x *' \
	'Close 12abc *' 'Close "" *' 'Close 08 *' 'Close 1.0 *'
bad "handle .* is out of range \(-2147483648..2147483647\)" \
	'Close 2147483648 *' 'Close -2147483649 *' \
	'Close 9223372036854775808 *' 'Close 18446744073709551616 *' \
	'Close 99999999999999999999999 *'
bad "size out of range \(0..16777216\)" 'WriteX 1 0 -1 0 *' \
	'ReadX 1 0 16777217 0 *' 'WriteX 1 0 2147483648 0 *' \
	'ReadX 1 0 0 -1 *' 'WriteX 1 0 10 4294967306 *'
bad "offset .* is out of range" 'WriteX 1 -1 1 1 *' \
	'ReadX 1 2305843009213693952 1 1 *' 'ReadX 1 -9223372036854775808 1 1 *'
bad "argument .* is out of range \(-9223372036854775808..9223372036854775807\)" \
	'ReadX 1 9223372036854775808 1 1 *' 'ReadX 1 0 18446744073709551616 1 *' \
	'ReadX 1 0 1 99999999999999999999999 *' 'Qfsinfo 18446744073709551615 *' \
	'NTCreateX "\clients\client1\g" 9223372036854775808 1 2 *' \
	'NTCreateX "\clients\client1\g" 0 -9223372036854775809 2 *' \
	'Unlink "\clients\client1\g" 18446744073709551616 *'
bad "argument '.*' is not a number" 'ReadX 1 1e3 1 1 *' \
	'NTCreateX "\clients\client1\g" 0x 1 2 *' \
	'NTCreateX "\clients\client1\g" 0 5x 2 *' 'Qfsinfo 1,0 *' \
	'Find "\clients\client1\*" 260 ++1 0 *' 'Sleep 10ms *'
bad "lock range must not be negative" 'LockX 1 -1 1 *' 'UnlockX 1 0 -1 *'
bad "sleep of .* us is out of range \(0..3600000000\)" 'Sleep -1 *' \
	'Sleep 3600000001 *' 'Sleep 9223372036854775807 *'
bad "bad timestamp '.*' \(seconds, a number from 0 to 10000000\)" \
	'-1 Qfsinfo 1 *' '+1 Qfsinfo 1 *' '1x Qfsinfo 1 *' \
	'1e99 Qfsinfo 1 *' '10000001 Qfsinfo 1 *' \
	'9223372036854775808 Qfsinfo 1 *' '.5 Qfsinfo 1 *'
# accepted: leading '+', hex, octal, -1 where the value is not a size;
# create options -1 has the directory bit, disposition -1 creates nothing,
# a negative Find maxcount reads nothing, huge lock ranges fail harmlessly
lines "${MK}" 'NTCreateX "\clients\client1\opt" -1 0x5 +0x10 NT_STATUS_OK' \
	'NTCreateX "\clients\client1\none" 0 -1 -1 NT_STATUS_OBJECT_NAME_NOT_FOUND' \
	'NTCreateX "\clients\client1\f" 010 0x5 -2147483648 NT_STATUS_OK' \
	'WriteX -2147483648 +0 +16 16 NT_STATUS_OK' \
	'ReadX -2147483648 2305843009213693951 16 0 NT_STATUS_OK' \
	'LockX -2147483648 9223372036854775807 9223372036854775807 *' \
	'UnlockX -2147483648 9223372036854775807 9223372036854775807 *' \
	'Find "\clients\client1\*" -1 -1 -9223372036854775808 *' \
	'Qpathinfo "\clients\client1\f" -9223372036854775808 *' \
	'Qfileinfo 16 9223372036854775807 *' 'Sleep +0 *' \
	'0x0 Close 16 *' '0.000001 Close -2147483648 *'
accepted 0 "edge numbers" --skip-cleanup 1
[ -d "$D/clients/client0/opt" ] || fail "create options -1: no directory"
[ ! -e "$D/clients/client0/none" ] || fail "disposition -1 created a file"
[ "$(stat -c %s "$D/clients/client0/f")" = 16 ] || fail "WriteX +16"
! grep -q "Unexpected" "$TMP/out" || fail "edge numbers: $(cat "$TMP/out")"
rm -rf "$D/clients"

note "handles"
lines "${MK}" 'ReadX 7 0 1 1 NT_STATUS_OK' \
	'NTCreateX "\clients\client1\f" 0 5 7 NT_STATUS_OK'
rejected 3 "ReadX: handle 7 is used before it is opened"
lines "${MK}${OPEN}" 'Close 1 NT_STATUS_OK' 'WriteX 1 0 1 1 NT_STATUS_OK'
rejected 5 "WriteX: handle 1 was closed at line 4 and not opened again"
lines "${MK}${OPEN}" 'Close 1 NT_STATUS_OK' '# twice' 'Close 1 NT_STATUS_OK'
rejected 6 "Close: handle 1 was closed at line 4 and not opened again"
lines "${MK}" 'NTCreateX "\clients\client1\x" 0 1 5 NT_STATUS_NO_SUCH_FILE' \
	'Flush 5 *'
rejected 4 "Flush: handle 5 is never opened: its NTCreateX at line 3 expects failure"

note "keywords and fields"
lf "${MK}%s\n" 'NTCreateXX "\clients\client1\x" 0 1 5 *'
rejected 3 "unknown operation 'NTCreateXX'"
lf "${MK}%s\n" 'WRITEPATTERN *'
rejected 3 "unknown operation 'WRITEPATTERN'"
lf "${MK}%s\n" 'NT_STATUS_OK'
rejected 3 "'NT_STATUS_OK' has no status field"
lf "${MK}${OPEN}%s\n" 'ReadX 1 0 1 NT_STATUS_OK'
rejected 4 "ReadX takes 4 arguments and a status, found 3"
lf "${MK}${OPEN}%s\n" 'Flush 1 1 NT_STATUS_OK'
rejected 4 "Flush takes 1 argument and a status, found 2"
lf "${MK}${OPEN}%s\n" '0.5 WriteX 1 0 1 1 2 3 4 NT_STATUS_OK'
rejected 4 "too many fields \(at most 8\)"
lf "${MK}${OPEN}%s\n" 'Close 1 NT_STATUS_OK NT_STATUS_OK'
rejected 4 "Close takes 1 argument and a status, found 2"

note "gzip"
{
	printf "${MK}"
	for i in $(seq 300); do printf "Qpathinfo \"\\\\clients\\\\client1\\\\f$i\" 1 *\n"; done
} | gzip -9 -c >"$TMP/good.gz"
sz=$(stat -c %s "$TMP/good.gz")
LF=$TMP/h.gz
corrupt() { # OFFSET BYTES: a copy of good.gz with BYTES written at OFFSET
	cp "$TMP/good.gz" "$LF"
	printf "$2" | dd of="$LF" bs=1 seek="$1" conv=notrunc 2>/dev/null
}
corrupt 40 '\377\377\377\377\377\377'
rejected - "cannot read loadfile: .* \(corrupt gzip file\)$"
corrupt $((sz - 8)) '\0\0\0\0'
rejected - "cannot read loadfile: incorrect data check \(corrupt gzip file\)$"
corrupt $((sz - 4)) '\1\0\0\0'
rejected - "cannot read loadfile: incorrect length check \(corrupt gzip file\)$"
head -c $((sz - 1)) "$TMP/good.gz" >"$LF"
rejected - "cannot read loadfile: unexpected end of file \(truncated gzip file\?\)$"
printf '\037\213' >"$LF"
rejected - "cannot read loadfile: unexpected end of file"
printf "${MK}Qfsinfo 1 *\nFrob\0\n" | gzip -c >"$LF"
rejected 4 "NUL byte in line \(column 5\)$"
# two gzip members are one loadfile, as for gunzip
cat "$TMP/good.gz" "$TMP/good.gz" >"$LF"
accepted 0 "two gzip members"
LF=$TMP/h.load

note "symlinks and special files planted in DIR/clients"
# the special files planted: a fifo and a socket; as root also device
# nodes, the block device a loop device on an image whose every byte is
# checked
NODES="fifo socket"
if [ "$(id -u)" = 0 ]; then
	NODES="$NODES chr"
	IMG=$TMP/loop.img
	head -c 1048576 /dev/urandom >"$IMG"
	if LOOPDEV=$(losetup -f --show "$IMG" 2>/dev/null); then
		at_exit "losetup -d $LOOPDEV"
		LOOPDEV_NR="$(stat -c '%t %T' "$LOOPDEV")"
		LOOPDEV_NR="$((0x${LOOPDEV_NR% *})) $((0x${LOOPDEV_NR#* }))"
		IMG_SUM=$(sha256sum <"$IMG")
		NODES="$NODES blk"
	else
		echo "note: no loop device: no block device case"
	fi
fi
# through.load: every path op through the planted names, statuses '*' so
# the run goes on whatever happens
lf '%s\n' 'Mkdir "\clients" *' \
	'Mkdir "\clients\client1\sub" *' \
	'NTCreateX "\clients\client1\file" 0 5 1 *' \
	'NTCreateX "\clients\client1\dir" 1 2 2 *' \
	'NTCreateX "\clients\client1\dir\new" 0 5 3 *' \
	'NTCreateX "\clients\client1\rel\d\file" 0 5 4 *' \
	'NTCreateX "\clients\client1\loop\x" 0 5 5 *' \
	'Mkdir "\clients\client1\dir\sub\mk" *' \
	'Qpathinfo "\clients\client1\dir\file" 1 *' \
	'Find "\clients\client1\dir\*" 260 100 0 *' \
	'Find "\clients\client1\rel\*" 260 100 0 *' \
	'Rename "\clients\client1\dir\file" "\clients\client1\stolen" *' \
	'Rename "\clients\client1\file" "\clients\client1\renamed" *' \
	'Unlink "\clients\client1\dir\file" 0 *' \
	'Rmdir "\clients\client1\dir\sub" *' \
	'Rmdir "\clients\client1\dir" *' \
	'Deltree "\clients\client1\dir" *' \
	'Deltree "\clients\client1\rel" *' \
	'Deltree "\clients\client1" *'
# refused_tree WHAT: --paths full refuses the planted link before the run:
# exit 2, one line naming it, nothing outside changed
refused_tree() {
	local rc
	n=$((n + 1))
	run
	rc=$?
	[ $rc = 2 ] || fail "case $n ($1): exit $rc, expected 2: $(head -3 "$TMP/err")"
	grep -q "is a symbolic link: --paths full" "$TMP/err" ||
		fail "case $n ($1): $(cat "$TMP/err")"
	check_outside "case $n ($1)"
	echo "ok $n: refused: $1: $(cut -c1-120 "$TMP/err")"
}
for mode in full full-fallback dirfd dirfd-fallback; do
	unset DBENCH_NG_NO_OPENAT2
	case $mode in *fallback) export DBENCH_NG_NO_OPENAT2=1 ;; esac
	PATHS_ARGS=
	case $mode in dirfd*) PATHS_ARGS="--paths dirfd" ;; esac
	# the client's own directory is a link: to a directory outside, to
	# DIR (relative), to a file outside, to itself
	for target in "$OUT" ../.. "$OUT/file" client0; do
		mkdir -p "$D/clients"
		ln -s "$target" "$D/clients/client0"
		case $mode in
		full*) refused_tree "client0 -> $target ($mode)" ;;
		*) KEEP=1 accepted 0 "client0 -> $target ($mode)" ;;
		esac
		[ -L "$D/clients/client0" ] || fail "the planted link went away"
		rm "$D/clients/client0"
		rmdir "$D/clients"
	done
	# links inside the client's directory
	mkdir -p "$D/clients/client0"
	ln -s "$OUT" "$D/clients/client0/dir"
	ln -s "$OUT/file" "$D/clients/client0/file"
	ln -s ../../.. "$D/clients/client0/rel"
	ln -s loop "$D/clients/client0/loop"
	case $mode in
	full*)
		refused_tree "links in client0 ($mode)"
		[ "$(find "$D/clients" -type l | wc -l)" = 4 ] ||
			fail "the refusal changed the tree: $(find "$D/clients")"
		rm -rf "$D/clients"
		;;
	*) accepted 0 "links in client0 ($mode)" ;;
	esac
	[ ! -e "$D/clients/client0/stolen" ] || fail "Rename followed a link"
	# a fifo, a socket, a character device (/dev/null's numbers), a
	# block device (a loop device on an image of ours) where a file is
	# opened to overwrite (5) or to open (1), then written, read and
	# flushed: refused before any open or write (exit 1), no hang
	for node in $NODES; do
		for disp in 5 1; do
			mkdir -p "$D/clients/client0"
			case $node in
			fifo) mkfifo "$D/clients/client0/$node" ;;
			socket) python3 -c 'import socket, sys
socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$D/clients/client0/$node" ;;
			chr) mknod "$D/clients/client0/$node" c 1 3 ;;
			blk) mknod "$D/clients/client0/$node" b "${LOOPDEV_NR% *}" "${LOOPDEV_NR#* }" ;;
			esac
			printf '%s\n' "NTCreateX \"\\clients\\client1\\$node\" 0 $disp 1 *" \
				'WriteX 1 0 10 10 NT_STATUS_OK' 'ReadX 1 0 10 10 *' \
				'Flush 1 *' 'Close 1 *' \
				"NTCreateX \"\\clients\\client1\\$node\" 1 1 2 *" >"$TMP/node.load"
			LF=$TMP/node.load accepted 1 "a $node as a file, disposition $disp ($mode)"
			grep -q "$node: refusing a [a-z ]*\(fifo\|socket\|device\) (only regular files" "$TMP/err" ||
				fail "$node: $(cat "$TMP/err")"
			[ -z "${IMG_SUM:-}" ] || [ "$(sha256sum <"$IMG")" = "$IMG_SUM" ] ||
				fail "$node ($mode): the loop device's image was written"
		done
	done
	# a hard link to a file outside: neither truncated nor written
	# through, whether opened to overwrite (5) or to open (1)
	for disp in 5 1; do
		mkdir -p "$D/clients/client0"
		ln "$OUT/file" "$D/clients/client0/hl"
		printf '%s\n' "NTCreateX \"\\clients\\client1\\hl\" 0 $disp 1 NT_STATUS_OK" \
			'WriteX 1 0 10 10 NT_STATUS_OK' 'Close 1 NT_STATUS_OK' \
			>"$TMP/hl.load"
		LF=$TMP/hl.load accepted 1 "a hard link, disposition $disp ($mode)"
		grep -q 'hl: refusing a file with 2 hard links' "$TMP/err" ||
			fail "hard link: $(cat "$TMP/err")"
		[ "$(cat "$OUT/file")" = target ] || fail "the outside file changed"
	done
	# the race of a hard link renamed into place between NTCreateX's
	# lookup and its open: the lookup misses (no "f"), scans the big
	# directory for a case-only match (the window, a few ms), and
	# meanwhile a hard link to the outside file becomes "f".  Truncating
	# by O_TRUNC would empty the outside file; the truncation happens
	# only once the fd is checked, so the link is refused (exit 1).
	for try in 1 2 3; do
		mkdir -p "$D/clients/client0"
		[ -d "$D/clients/client0/big" ] || {
			mkdir "$D/clients/client0/big"
			(cd "$D/clients/client0/big" && seq -f n%05g 20000 | xargs touch)
		}
		rm -f "$D/clients/client0/go" "$D/clients/client0/big/f" \
			"$D/clients/client0/big/tmp" "$TMP/stop"
		{
			printf '%s\n' 'NTCreateX "\clients\client1\go" 0 5 1 *' 'Close 1 *'
			for i in $(seq 300); do
				printf '%s\n' 'NTCreateX "\clients\client1\big\f" 0 5 2 *' \
					'Close 2 *' 'Unlink "\clients\client1\big\f" 0 *'
			done
		} >"$TMP/race.load"
		# the attacker: once the client has started, renames a fresh
		# hard link of the outside file onto big/f, again and again,
		# until the run is over
		python3 - "$D/clients/client0" "$OUT/file" "$TMP/stop" <<'P' &
import os, sys, time
c, victim, stop = sys.argv[1:]
end = time.time() + 60
while not os.path.exists(c + "/go") and time.time() < end:
    time.sleep(0.001)
while not os.path.exists(stop) and time.time() < end:
    try:
        os.link(victim, c + "/big/tmp")
    except FileExistsError:
        pass
    os.rename(c + "/big/tmp", c + "/big/f")
P
		apid=$!
		n=$((n + 1))
		LF=$TMP/race.load run --skip-cleanup 1
		rc=$?
		touch "$TMP/stop"
		wait $apid || fail "case $n: the attacker failed"
		[ "$(cat "$OUT/file")" = target ] ||
			fail "case $n: the hard-link race truncated the outside file ($mode, try $try)"
		[ $rc = 1 ] && grep -q 'big/f: refusing a file with [23] hard links' "$TMP/err" ||
			fail "case $n: exit $rc, no hard-link refusal: $(cat "$TMP/err")"
		check_outside "case $n (hard-link race)"
		echo "ok $n: hard-link race ($mode, try $try): refused, the outside file intact"
	done
	rm -rf "$D/clients"
	LF=$TMP/h.load
done
unset DBENCH_NG_NO_OPENAT2
PATHS_ARGS=
[ "$(ls -A "$D")" = "$(printf 'keep\nother')" ] || fail "DIR has $(ls -A "$D")"
echo "all $n hostile cases passed"
