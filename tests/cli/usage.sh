# SPDX-License-Identifier: GPL-3.0-or-later
# Bad command lines and bad input: one clear line on stderr, exit 2, and
# nothing created.  --help and --version exit 0.
. "$(dirname "$0")/../lib.sh"

D=$TMP/d
mkdir -p "$D"

# bad_usage PATTERN ARGS...: exit 2, one stderr line matching PATTERN,
# nothing on stdout, DIR untouched
bad_usage() {
	local pat=$1 rc
	shift
	"$DBNG" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc = 2 ] || fail "exit $rc, expected 2: dbench-ng $*"
	[ "$(wc -l <"$TMP/err")" = 1 ] ||
		fail "expected one stderr line for '$*', got: $(cat "$TMP/err")"
	grep -q -- "$pat" "$TMP/err" ||
		fail "stderr of '$*' lacks '$pat': $(cat "$TMP/err")"
	[ ! -s "$TMP/out" ] || fail "stdout not empty for '$*'"
	[ -z "$(ls -A "$D")" ] || fail "'$*' created $(ls -A "$D")"
	echo "ok: $* -> $(cat "$TMP/err")"
}

bad_usage "missing NPROCS"
bad_usage "missing NPROCS" -D "$D" -t 5
bad_usage "NPROCS: '0' is out of range" -D "$D" 0
bad_usage "NPROCS: 'abc' is not a whole number" -D "$D" abc
bad_usage "unknown option '-1'" -D "$D" -1
bad_usage "unknown option '--frobnicate'" -D "$D" --frobnicate 2
bad_usage "unknown option '-q'" -D "$D" -q 2
bad_usage "option '--timelimit' needs a value" -D "$D" 2 --timelimit
bad_usage "-t: 'abc' is not a whole number" -D "$D" -t abc 2
bad_usage "-t: '0' is out of range" -D "$D" -t 0 2
bad_usage "--warmup: '-1' is out of range" -D "$D" --warmup -1 2
bad_usage "--clients-per-process: '0'" -D "$D" --clients-per-process 0 2
bad_usage "-R: '-2'" -D "$D" -R -2 2
# every floating-point option of every subcommand takes ordinary numbers
# only: no nan, inf, overflow, denormal (1e-320 ran, paced at a rate of
# nothing), underflow to 0 or negative zero
for v in nan inf -inf 1e309 1e-320 1e-400 -0 -0.0 -1e-320; do
	bad_usage "-R: '$v' is not a rate" -D "$D" -t 1 -R "$v" 2
	bad_usage "--percentiles: '$v' is not a percentile" \
		report --percentiles "50,$v" "$TMP/none.json"
	bad_usage "--alpha: '$v' is not a number" \
		compare --alpha "$v" "$TMP/a.json" -- "$TMP/b.json"
	bad_usage "--noise: '$v' is not a fraction" \
		compare --noise "$v" "$TMP/a.json" -- "$TMP/b.json"
	bad_usage "--noise: '$v%' is not a fraction" \
		compare --noise "$v%" "$TMP/a.json" -- "$TMP/b.json"
	bad_usage "--floor: '$v' is not a number" \
		compare --floor "$v" "$TMP/a.json" -- "$TMP/b.json"
done
bad_usage "-R: '1e301' is not a rate" -D "$D" -t 1 -R 1e301 2
bad_usage "--noise: '1e-310%' is not a fraction" \
	compare --noise 1e-310% "$TMP/a.json" -- "$TMP/b.json"
bad_usage "--paths: 'dir' is not one of full|dirfd" -D "$D" --paths dir 2
bad_usage "--paths: '' is not one of full|dirfd" -D "$D" --paths= 2
bad_usage "unexpected argument 'x'" -D "$D" 2 localhost x
bad_usage "unknown backend 'nfs4'" -D "$D" -B nfs4 2
bad_usage "-D $TMP/nonexistent: No such file or directory" \
	-D "$TMP/nonexistent" 2
touch "$TMP/file"
bad_usage "-D $TMP/file: not a directory" -D "$TMP/file" 2
bad_usage "$TMP/none.load: cannot open loadfile: No such file" \
	-D "$D" -c "$TMP/none.load" 2

# a malformed loadfile: file:line, before any client starts
printf 'Qfsinfo 1 NT_STATUS_OK\n# fine\nFrobnicate "\\clients\\x" NT_STATUS_OK\n' \
	>"$TMP/bad.load"
bad_usage "bad.load:3: unknown operation 'Frobnicate'" -D "$D" \
	-c "$TMP/bad.load" 2
printf 'Qfsinfo 1 NT_STATUS_OK\nUnlink "\\clients\\client1\\x" NT_STATUS_OK\n' \
	>"$TMP/bad2.load"
bad_usage "bad2.load:2: Unlink takes 2 arguments and a status, found 1" \
	-D "$D" -c "$TMP/bad2.load" 2
# the second file of a -c list is checked too
bad_usage "bad.load:3:" -D "$D" -c "$DATA/loadfiles/smoke.load,$TMP/bad.load" 2

# a truncated gzip loadfile is an error, not a shorter loadfile
printf 'QUERY_FS_INFORMATION 259 NT_STATUS_OK\n%.0s' $(seq 20000) | gzip -c | head -c 2000 >"$TMP/t.gz"
bad_usage "t.gz: cannot read loadfile: unexpected end of file" -D "$D" -c "$TMP/t.gz" 2

# a second operand (tbench's server) is accepted and ignored, as in 4.0
expect_rc 0 "$DBNG" -B null -t 1 -D "$D" 1 localhost >/dev/null

# the commands: listed, help [COMMAND], a mistyped one or option named
# with the one it is close to; dbench's own messages where none is close
bad_usage "^dbench-ng: unknown command 'chek'; did you mean 'check'?\$" chek --baseline x -D "$D" 2
bad_usage "^dbench-ng: unknown command 'repot'; did you mean 'report'?\$" repot x
bad_usage "^dbench-ng: unknown command 'chek'; did you mean 'check'?\$" help chek
bad_usage "^dbench-ng: unknown command 'frob' (see dbench-ng --help)\$" help frob
bad_usage "^dbench-ng: unknown option '--timelimt'; did you mean '--timelimit'?\$" -D "$D" --timelimt 3 2
bad_usage "^dbench-ng compare: unknown option '--nosie'; did you mean '--noise'?\$" compare --nosie 3 a -- b
bad_usage "^tbench_srv: unknown option '--prot'; did you mean '--port'?\$" tbench_srv --prot 1
"$DBNG" check --basline x.json -D "$D" 2 >"$TMP/out" 2>"$TMP/err"
[ "$(cat "$TMP/err")" = "dbench-ng check: unknown option '--basline'; did you mean '--baseline'?" ] ||
	fail "check --basline: $(cat "$TMP/err")"
grep -q "^bad input: unknown option '--basline'" "$TMP/out" || fail "check --basline: $(cat "$TMP/out")"
[ -z "$(ls -A "$D")" ] || fail "check --basline created $(ls -A "$D")"
expect_rc 0 "$DBNG" help >"$TMP/h0"
expect_rc 0 "$DBNG" --help >"$TMP/h1"
cmp -s "$TMP/h0" "$TMP/h1" || fail "'dbench-ng help' is not --help"
for c in report compare check tbench tbench_srv record; do
	grep -q "^  $c " "$TMP/h1" || fail "--help does not list $c"
	expect_rc 0 "$DBNG" help $c >"$TMP/hc"
	expect_rc 0 "$DBNG" $c --help >"$TMP/hc2"
	cmp -s "$TMP/hc" "$TMP/hc2" || fail "'help $c' is not '$c --help'"
done
echo "ok: help, help COMMAND, mistyped commands and options"
expect_rc 0 "$DBNG" --help >"$TMP/help"
grep -q "Usage: dbench-ng \[OPTIONS\] NPROCS" "$TMP/help" || fail "help text"
for o in -t --warmup -c -D -B -R -s -S -F -x --no-resolve --stat-check \
	--one-byte-write-fix --fake-io --clients-per-process --run-once \
	--skip-cleanup --per-client-results --show-execute-time \
	--machine-readable; do
	# --help names --show-execute-time as --show-exec[ute-time]: a
	# log parser (mmtests) takes any line with "execute" for a sample
	h=$o
	[ "$o" = --show-execute-time ] && h="--show-exec[ute-time]"
	grep -qF -- "$h" "$TMP/help" || fail "--help does not mention $o"
	grep -qF -- "${o//-/\\-}" "$ROOT/docs/dbench-ng.1" ||
		fail "man page does not mention $o"
done
# and the short form it shows is accepted
expect_rc 0 "$DBNG" --show-exec --version >/dev/null
# no word of a parser in any text of ours that may land in a log: help,
# version, usage errors (LKP logs "dbench --help" before the run)
for args in --help --version "report --help" "compare --help" "check --help" \
	"-t abc 1" "--runs 0 1" "" "report" "compare" "check" "tbench --help" \
	"tbench_srv --help" "tbench" "tbench_srv --bogus" "tbench -T FOO 1" \
	"record --help" "record" "record --bogus" \
	help "help check" chek "check --basline x 1"; do
	# shellcheck disable=SC2086
	"$DBNG" $args >"$TMP/msg" 2>&1 </dev/null
	! grep -n "execute\|Operation\|Throughpu\|----" "$TMP/msg" ||
		fail "'dbench-ng $args' prints a word dbench log parsers look for"
done
expect_rc 0 "$DBNG" --version >"$TMP/ver"
grep -q "^dbench-ng " "$TMP/ver" || fail "--version prints '$(cat "$TMP/ver")'"
# the version is the tree's, not that of an earlier build
# (scripts/version.sh: "VERSION COMMIT", printed "VERSION (commit COMMIT)")
if vc=$("$ROOT/scripts/version.sh" 2>/dev/null); then
	read -r v c <<<"$vc"
	want="dbench-ng $v${c:+ (commit $c)}"
	[ "$(cat "$TMP/ver")" = "$want" ] ||
		fail "--version says '$(cat "$TMP/ver")', the tree is '$want'"
fi
echo "all usage checks passed"
