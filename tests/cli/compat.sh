# SPDX-License-Identifier: GPL-3.0-or-later
# dbench 4.0 compatibility: run Debian's dbench and dbench-ng with the same
# loadfile and options and compare the output line by line in structure:
# Running line, launch lines, progress lines, cleanup lines, the classic
# table (header, rule, 41-column rows in dbench's order) and the final
# Throughput line with its suffixes; without -c both take client.txt, and
# name it in the same Running line.  Then replay client.txt once
# (--run-once) and check every op count equals the loadfile's.
# First (without dbench 4.0): what the parsers of dbench logs read from
# our output, with their own commands, for a good run, a failed one, an
# interrupted one, --runs 3, and --help, --version and a usage error in
# the same log.
. "$(dirname "$0")/../lib.sh"

# --- the parsers, as they read a log ------------------------------------
# mmtests (shellpack dbench-bench, parse-results): stdout and stderr in
# one log; "completed in" lines out, then every line with "execute" is a
# throughput sample ($6 s, $3 MB/s) and every line within 99 after one
# with "Operation", less rules, blanks and Throughput/Operation lines, an
# op row ("op-"$1, value $3)
mm_tput() { sed '/completed in/d' "$1" | grep execute | awk '{print $6, $3}'; }
mm_ops() {
	sed '/completed in/d' "$1" | grep -A 99 Operation |
		sed -e '/-----/d' -e '/^$/d' -e '/Throughput/d' -e '/Operation/d' |
		awk '{print "op-" $1, $3}'
}
# mmtests before 2026 (ExtractDbench4{tput,latency,opslatency}.pm): lines
# with "sec  execute" (fields 5 and 2 after the leading blanks) and with
# "execute" (field 9 of split(/\s+/)); op rows: after the first line with
# "Operation" any line whose field 1 of split(/\s+/) (the first word
# after leading blanks) is an op name -- a flag never reset, so on its
# second and third pass (avg, max) and in the logs of later client counts
# every such line of the log counts: here, every line
MM_OPS="NTCreateX Close Rename Unlink Deltree Mkdir Qpathinfo WriteX ReadX Qfileinfo Qfsinfo Flush Sfileinfo LockX UnlockX Find"
mm_legacy_tput() {
	awk '/sec  execute/ { s = $0; sub(/^[ \t]+/, "", s); split(s, e, /[ \t]+/); print e[6], e[3] }
	     /execute/ { split($0, e, /[ \t]+/); print "latency", e[10] }' "$1"
}
mm_legacy_ops() {
	awk -v ops="$MM_OPS" 'BEGIN { n = split(ops, o, " "); for (i = 1; i <= n; i++) op[o[i]] = 1 }
	     { split($0, e, /[ \t]+/); if (e[2] in op) print e[2], e[3], e[4], e[5] }' "$1"
}
# LKP (programs/dbench/parse): every line matching /^Throughput*/, the
# figures averaged; stats/dbench (awk): every line matching
# /Throughput.*MB\/.*/; autotest: re.findall("Throughput (.*?) MB/sec
# (.*?) procs") over the whole output
lkp_tput() { grep '^Throughpu' "$1" | awk '{print $2}'; }
lkp_awk() { grep -c 'Throughput.*MB/' "$1"; }
autotest() { grep -cE 'Throughput .* MB/sec .* procs' "$1"; }
# fsperf (PerfTest.py DbenchTest): from the first line containing "----"
# on, a line of 4 words is a row (its 4th word), one of more words sets
# the throughput to its 2nd word
fsperf() {
	awk '!p { if (/----/) p = 1; next }
	     NF == 4 { print "row", tolower($1), $4 }
	     NF > 4 { t = $2 }
	     END { if (t != "") print "throughput", t }' "$1"
}

isnum() { awk '{ for (i = 2 - (NF == 1); i <= NF; i++) if ($i !~ /^[0-9]+(\.[0-9]+)?(e[-+][0-9]+)?$/) { print; bad = 1 } } END { exit bad }'; }

# the rows of the last classic table of LOG: "label avglat"
last_table() {
	awk '/^ Operation      Count    AvgLat    MaxLat$/ { n = 0; t = 1; delete r; next }
	     t && /^ -+$/ { next } t && /^$/ { t = 0; next }
	     t { r[++n] = $1 " " $3 } END { for (i = 1; i <= n; i++) print r[i] }' "$1"
}

# a good result: each parser reads the last table and the last line
parsed_good() {
	local log=$1 want tp
	want=$(tail -1 "$log" | awk '$1 == "Throughput" {print $2}')
	[ -n "$want" ] || fail "$log: the last line is not a Throughput line: $(tail -1 "$log")"
	[ "$(grep -c Operation "$log")" = 1 ] ||
		fail "$log: $(grep -c Operation "$log") lines with 'Operation': $(grep -n Operation "$log")"
	[ "$(mm_ops "$log" | sed 's/^op-//')" = "$(last_table "$log")" ] ||
		fail "$log: mmtests reads other op rows: $(mm_ops "$log" | head -30)"
	mm_tput "$log" | isnum >/dev/null || fail "$log: mmtests: non-numeric throughput samples: $(mm_tput "$log" | isnum)"
	[ "$(grep execute "$log" | grep -vcE '^ +[0-9]+ +[0-9]+ +[0-9.]+ MB/sec  execute +[0-9]+ sec  latency [0-9.]+ ms$')" = 0 ] ||
		fail "$log: lines with 'execute' that are not progress lines: $(grep execute "$log" | grep -vE ' MB/sec  execute ')"
	mm_legacy_tput "$log" | isnum >/dev/null || fail "$log: legacy mmtests: $(mm_legacy_tput "$log" | isnum)"
	[ "$(mm_legacy_ops "$log" | awk '{print $1, $3}')" = "$(last_table "$log" | grep -v '^Rmdir ')" ] ||
		fail "$log: legacy mmtests reads other op rows: $(mm_legacy_ops "$log" | head -30)"
	tp=$(lkp_tput "$log")
	[ "$tp" = "$want" ] || fail "$log: LKP reads Throughput '$(echo $tp)', the last line says $want"
	[ "$(lkp_awk "$log")" = 1 ] || fail "$log: LKP's awk reads $(lkp_awk "$log") Throughput lines"
	[ "$(autotest "$log")" = 1 ] || fail "$log: autotest reads $(autotest "$log") Throughput lines"
	[ "$(fsperf "$log" | awk '$1 == "throughput" {print $2}')" = "$want" ] ||
		fail "$log: fsperf reads throughput $(fsperf "$log" | grep throughput)"
	fsperf "$log" | awk -v ops="$MM_OPS Rmdir" 'BEGIN { n = split(ops, o, " "); for (i = 1; i <= n; i++) op[tolower(o[i])] = 1 }
		$1 == "row" && !($2 in op) { print; bad = 1 } END { exit bad }' ||
		fail "$log: fsperf reads rows that are not ops"
}

# not a result: no parser finds one (only the progress lines, samples as
# dbench 4.0 prints them before it fails)
parsed_none() {
	local log=$1
	[ "$(mm_ops "$log" | wc -l)" = 0 ] || fail "$log: mmtests reads op rows: $(mm_ops "$log" | head)"
	mm_tput "$log" | isnum >/dev/null || fail "$log: mmtests: $(mm_tput "$log" | isnum)"
	[ "$(mm_legacy_ops "$log" | wc -l)" = 0 ] ||
		fail "$log: legacy mmtests reads op rows: $(mm_legacy_ops "$log" | head)"
	[ "$(lkp_tput "$log" | wc -l)" = 0 ] || fail "$log: LKP reads a Throughput: $(grep '^Throughpu' "$log")"
	[ "$(lkp_awk "$log")" = 0 ] || fail "$log: LKP's awk reads a Throughput"
	[ "$(autotest "$log")" = 0 ] || fail "$log: autotest reads a Throughput"
	[ -z "$(fsperf "$log")" ] || fail "$log: fsperf reads $(fsperf "$log" | head)"
}

PD=$TMP/parsers
mkdir -p "$PD"
note "parsers: a good run"
"$DBNG" -t 3 --warmup 1 -D "$PD" 2 >"$TMP/p-good" 2>&1 || fail "run failed: $(tail "$TMP/p-good")"
parsed_good "$TMP/p-good"
echo "ok: $(tail -1 "$TMP/p-good")"

note "parsers: a paced run (-R): its response-time table is ours too"
"$DBNG" -t 2 --warmup 0 -R 20 -D "$PD" 2 >"$TMP/p-paced" 2>&1 || fail "run failed: $(tail "$TMP/p-paced")"
grep -q '^ Response ms ' "$TMP/p-paced" || fail "no response-time table: $(cat "$TMP/p-paced")"
parsed_good "$TMP/p-paced"
echo "ok: $(tail -1 "$TMP/p-paced")"

note "parsers: --help, --version and a usage error in the same log (LKP logs --help first)"
{ "$DBNG" --help; "$DBNG" --version; "$DBNG" --timelimit=abc 1; "$DBNG" --runs 0 1; "$DBNG" -t 1 --json - --runs 2 1
  "$DBNG" report --help; "$DBNG" compare --help; "$DBNG" check --help
  "$DBNG" tbench --help; "$DBNG" tbench_srv --help; "$DBNG" tbench_srv --bogus; "$DBNG" tbench
  cat "$TMP/p-good"; } >"$TMP/p-help" 2>&1 </dev/null
parsed_good "$TMP/p-help"
echo "ok"

note "parsers: a failed run"
printf '%s\n' 'NTCreateX "\clients\client1\f" 0x40 0x5 1 NT_STATUS_OK' \
	'WriteX 1 0 65536 65536 NT_STATUS_OK' 'Close 1 NT_STATUS_OK' \
	'Sleep 1200000 NT_STATUS_OK' 'Unlink "\clients\client1\nonexist" 0x6 NT_STATUS_OK' \
	>"$TMP/p-fail.load"
expect_rc 1 "$DBNG" -t 30 --warmup 0 -c "$TMP/p-fail.load" -D "$PD" 1 >"$TMP/p-fail" 2>&1
grep -q '^Run failed after ' "$TMP/p-fail" || fail "no marker: $(cat "$TMP/p-fail")"
parsed_none "$TMP/p-fail"
tail -1 "$TMP/p-fail" | grep -q '^Partial figures of a failed run: ' || fail "last line: $(tail -1 "$TMP/p-fail")"
echo "ok: $(tail -1 "$TMP/p-fail")"

note "parsers: an interrupted run (SIGINT)"
# job control on: a background job of a non-interactive shell starts with
# SIGINT ignored, and dbench-ng keeps an inherited SIG_IGN (process.sh)
set -m
"$DBNG" -t 60 --warmup 1 -D "$PD" 2 >"$TMP/p-int" 2>&1 &
PPID_RUN=$!
set +m
at_exit "kill $PPID_RUN"
wait_for "$TMP/p-int" " execute "
kill -INT $PPID_RUN
wait $PPID_RUN
rc=$?
[ $rc = 130 ] || fail "exit $rc after SIGINT"
grep -q '^Interrupted by signal 2 after ' "$TMP/p-int" || fail "no marker: $(cat "$TMP/p-int")"
parsed_none "$TMP/p-int"
tail -1 "$TMP/p-int" | grep -q '^Partial figures of an interrupted run: ' || fail "last line: $(tail -1 "$TMP/p-int")"
echo "ok: $(tail -1 "$TMP/p-int")"

note "parsers: --runs 3"
"$DBNG" --runs 3 -t 2 --warmup 0 -D "$PD" 2 >"$TMP/p-runs" 2>&1 || fail "runs failed: $(tail "$TMP/p-runs")"
[ "$(grep -c '^==> run [1-3] of 3$' "$TMP/p-runs")" = 3 ] || fail "not 3 runs"
parsed_good "$TMP/p-runs"
# the last line is the median of the 3 runs' figures
[ "$(grep '^Figures of run [1-3] of 3: ' "$TMP/p-runs" | awk '{print $7}' | sort -g | sed -n 2p)" = \
  "$(tail -1 "$TMP/p-runs" | awk '{print $2}')" ] || fail "the last line is not the median: $(grep -E '^(Figures|Throughput)' "$TMP/p-runs")"
echo "ok: $(tail -1 "$TMP/p-runs")"

note "parsers: tbench (dbench-ng tbench against dbench-ng tbench_srv, in a network namespace)"
# tbench's logs are read by the same parsers (mmtests' tbench4 uses
# dbench's parse-results: every line with "execute" is a sample, the
# table after "Operation"; LKP's tbench parse takes every line starting
# with "Throughput": the figure, clients, procs and max_latency)
if netns_ok; then
	"$ROOT/tests/tbench-pair.sh" "$TMP/p-tb" "$DBNG" tbench_srv --bind 127.0.0.1 -- \
		"$DBNG" tbench -t 3 --warmup 1 2 127.0.0.1 || fail "tbench-pair: $(cat "$TMP/p-tb"*)"
	[ "$(cat "$TMP/p-tb.rc")" = 0 ] || fail "tbench run failed: $(tail "$TMP/p-tb")"
	parsed_good "$TMP/p-tb"
	echo "ok: $(tail -1 "$TMP/p-tb")"
	# a failed one: a server whose limit refuses the first large WriteX
	# drops the connection in the middle of the run
	"$ROOT/tests/tbench-pair.sh" "$TMP/p-tbf" "$DBNG" tbench_srv --bind 127.0.0.1 --max-length 1000 -- \
		"$DBNG" tbench -t 30 --warmup 0 1 127.0.0.1 || fail "tbench-pair: $(cat "$TMP/p-tbf"*)"
	[ "$(cat "$TMP/p-tbf.rc")" = 1 ] || fail "exit $(cat "$TMP/p-tbf.rc"): $(tail "$TMP/p-tbf")"
	grep -q '^Run failed ' "$TMP/p-tbf" || fail "no marker: $(cat "$TMP/p-tbf")"
	parsed_none "$TMP/p-tbf"
	echo "ok: $(tail -1 "$TMP/p-tbf")"
else
	echo "tbench parsers not checked: no network namespace can be made here"
fi

command -v dbench >/dev/null || skip "Debian package dbench is not installed"
[ -r "$CLIENT_TXT" ] || skip "$CLIENT_TXT missing"
D=$TMP/d
mkdir -p "$D"
if [ "$(id -u)" = 0 ]; then
	mount -t tmpfs -o size=2G tmpfs "$D" && at_exit "umount -l $D"
fi

# kinds FILE: one letter per output line, consecutive repeats folded
#   V Running line, P launch line, R releasing, W warmup, E execute,
#   C cleanup, B blank, H header, U rule, O op row, T Throughput,
#   our extra sections are skipped: the percentile table, and the stalls
#   and their per-second view, which a busy machine may give any run (an
#   op over 100 ms); ? anything
#   else
kinds() {
	awk '
	/^dbench(-ng)? version / { next }
	/^failed to create barrier semaphore/ { next }
	/^ Latency ms / { extra = 1; next }
	/^ Stalls: [0-9]+ ops? ran longer than / { extra = 1; next }
	/^ Per second, [A-Za-z]+: its largest latency / { extra = 1; next }
	/^ Busy machine: / { extra = 1; next }
	extra && /^$/ { extra = 0; next }
	extra { next }
	/^Running for [0-9]+ seconds with load .* and minimum warmup [0-9]+ secs$/ { k = "V" }
	/^[0-9]+ of [0-9]+ processes prepared for launch +[0-9]+ sec$/ { k = "P" }
	/^releasing clients$/ { k = "R" }
	/^ +[0-9]+ +[0-9]+ +[0-9]+\.[0-9][0-9] MB\/sec  warmup +[0-9]+ sec  latency [0-9]+\.[0-9][0-9][0-9] ms$/ { k = "W" }
	/^ +[0-9]+ +[0-9]+ +[0-9]+\.[0-9][0-9] MB\/sec  execute +[0-9]+ sec  latency [0-9]+\.[0-9][0-9][0-9] ms$/ { k = "E" }
	/^ +[0-9]+  cleanup +[0-9]+ sec$/ { k = "C" }
	/^$/ { k = "B" }
	/^ Operation      Count    AvgLat    MaxLat$/ { k = "H" }
	/^ ----------------------------------------$/ { k = "U" }
	/^ [A-Za-z]+ +[0-9]+ +[0-9]+\.[0-9][0-9][0-9] +[0-9]+\.[0-9][0-9][0-9]$/ && length($0) == 41 { k = "O" }
	# a per-client row of an op this client never ran but another did:
	# dbench 4.0 divides 0 by 0 there, we print 0.000 (docs/compat.md)
	/^ [A-Za-z]+ +0 +-?nan +0\.000$/ { k = "O" }
	/^Per client results:$/ { k = "Q" }
	/^Client [0-9]+ did [0-9]+ lines and [0-9]+ bytes$/ { k = "K" }
	/^Throughput [0-9.e+]+ MB\/sec( \(sync open\))?( \(sync dirs\))?  [0-9]+ clients  [0-9]+ procs  max_latency=[0-9]+\.[0-9][0-9][0-9] ms$/ { k = "T" }
	{ if (k == "") k = "?"; if (k != last) printf "%s", k; last = k; k = "" }
	END { print "" }' "$1"
}

# rows FILE: the op labels of the first classic table, in order
rows() {
	awk '/^ Operation/ {t = 1; next} t && /^$/ {exit}
	     t && NF == 4 && $1 !~ /^-/ {print $1}' "$1" | tr '\n' ' '
}

compare_runs() {
	local tag=$1
	shift
	note "dbench 4.0 vs dbench-ng: $*"
	(cd "$D" && dbench "$@") >"$TMP/a-$tag" 2>&1 || fail "dbench 4.0 failed: $(tail "$TMP/a-$tag")"
	"$DBNG" "$@" >"$TMP/b-$tag" 2>&1 || fail "dbench-ng failed: $(tail "$TMP/b-$tag")"
	ka=$(kinds "$TMP/a-$tag")
	kb=$(kinds "$TMP/b-$tag")
	echo "dbench 4.0: $ka"
	echo "dbench-ng:  $kb"
	[ "$ka" = "$kb" ] || fail "line structure differs ($tag): $ka vs $kb:" \
		"$(sed -n '/ cleanup /,/^ Operation/p' "$TMP/b-$tag" | head -20)"
	case $ka in *\?*) fail "unrecognised line in dbench output: $(cat "$TMP/a-$tag")" ;; esac
	# the Running line is the same text
	[ "$(grep '^Running' "$TMP/a-$tag")" = "$(grep '^Running' "$TMP/b-$tag")" ] ||
		fail "Running lines differ"
	# the rows: same order, and every op dbench shows with a big count
	ra=$(rows "$TMP/a-$tag")
	rb=$(rows "$TMP/b-$tag")
	[ "$(echo $ra | tr ' ' '\n' | grep -vxE 'Deltree|Mkdir' | tr '\n' ' ')" = \
	  "$(echo $rb | tr ' ' '\n' | grep -vxE 'Deltree|Mkdir' | tr '\n' ' ')" ] ||
		fail "table rows differ: '$ra' vs '$rb'"
	# the suffixes and the client/proc counts of the Throughput line
	[ "$(tail -1 "$TMP/a-$tag" | sed 's/^Throughput [^ ]* MB.sec//; s/max_latency=.*//')" = \
	  "$(tail -1 "$TMP/b-$tag" | sed 's/^Throughput [^ ]* MB.sec//; s/max_latency=.*//')" ] ||
		fail "Throughput lines differ: $(tail -1 "$TMP/a-$tag") / $(tail -1 "$TMP/b-$tag")"
	# dbench's meaning: Throughput = the last execute line's MB/sec,
	# max_latency = the largest execute-line latency.  The line prints
	# the value with %.2f, Throughput with %g (6 significant digits):
	# the two roundings of one value differ by at most half a unit of
	# each's last digit (re-rounding the %g text to 2 decimals would not
	# always give the line's figure: 579.5649 prints as 579.56 and
	# 579.565)
	awk 'function abs(x) { return x < 0 ? -x : x }
	     function half_ulp_g(x) { return 0.5 * 10 ^ (int(log(x) / log(10)) - 5) }
	     / execute / {mb = $3; if ($(NF-1) > ml) ml = $(NF-1)}
	     /^Throughput/ {t = $2
	                    if (t > 0 ? abs(t - mb) > 0.005 + half_ulp_g(t) + 1e-9 : mb != 0) bad = 1
	                    split($0, a, "max_latency="); split(a[2], b, " ");
	                    if (sprintf("%.3f", b[1]) != sprintf("%.3f", ml)) bad = 2}
	     END {exit bad}' "$TMP/b-$tag" ||
		fail "Throughput/max_latency do not follow the execute lines:" \
			"$(grep -E ' execute |^Throughput' "$TMP/b-$tag" | tail -3)"
	echo "ok: $tag: $(tail -1 "$TMP/b-$tag")"
}

# no -c: dbench 4.0 and dbench-ng both replay client.txt, and say so in
# the same Running line (-c if a client.txt of a /usr/local install of
# dbench, which dbench-ng would find first, is also there)
DEF=()
[ -e /usr/local/share/client.txt ] || [ -e /usr/local/share/dbench/client.txt ] &&
	DEF=(-c "$CLIENT_TXT")
compare_runs plain "${DEF[@]}" -t 6 -D "$D" 2
grep -qx "Running for 6 seconds with load '$CLIENT_TXT' and minimum warmup 1 secs" "$TMP/b-plain" ||
	fail "the default is not $CLIENT_TXT: $(grep Running "$TMP/b-plain")"
compare_runs sync -c "$CLIENT_TXT" -t 5 -s -S -D "$D" 2
compare_runs perclient -c "$CLIENT_TXT" -t 5 --per-client-results -D "$D" 2

# tbench 4.0 against tbench_srv and dbench-ng's tbench against the same
# server, each pair in a network namespace of its own (tbench_srv binds
# 0.0.0.0:7003): the same line structure, Running line, rows and
# Throughput suffixes, and the parsers read dbench-ng's as a result
compare_tbench() {
	local tag=$1 ka kb
	shift
	note "tbench 4.0 vs dbench-ng tbench, against tbench_srv: $*"
	"$ROOT/tests/tbench-pair.sh" "$TMP/ta-$tag" tbench_srv -- tbench "$@" ||
		fail "tbench 4.0: $(cat "$TMP/ta-$tag"*)"
	"$ROOT/tests/tbench-pair.sh" "$TMP/tb-$tag" tbench_srv -- "$DBNG" tbench "$@" ||
		fail "dbench-ng: $(cat "$TMP/tb-$tag"*)"
	[ "$(cat "$TMP/ta-$tag.rc") $(cat "$TMP/tb-$tag.rc")" = "0 0" ] ||
		fail "exit $(cat "$TMP/ta-$tag.rc") / $(cat "$TMP/tb-$tag.rc"): $(tail "$TMP/ta-$tag" "$TMP/tb-$tag")"
	ka=$(kinds "$TMP/ta-$tag")
	kb=$(kinds "$TMP/tb-$tag")
	echo "tbench 4.0: $ka"
	echo "dbench-ng:  $kb"
	[ "$ka" = "$kb" ] || fail "line structure differs ($tag): $ka vs $kb"
	case $ka in *\?*) fail "unrecognised line in tbench output: $(cat "$TMP/ta-$tag")" ;; esac
	[ "$(grep '^Running' "$TMP/ta-$tag")" = "$(grep '^Running' "$TMP/tb-$tag")" ] ||
		fail "Running lines differ"
	[ "$(rows "$TMP/ta-$tag" | tr ' ' '\n' | grep -vxE 'Deltree|Mkdir' | tr '\n' ' ')" = \
	  "$(rows "$TMP/tb-$tag" | tr ' ' '\n' | grep -vxE 'Deltree|Mkdir' | tr '\n' ' ')" ] ||
		fail "table rows differ: '$(rows "$TMP/ta-$tag")' vs '$(rows "$TMP/tb-$tag")'"
	[ "$(tail -1 "$TMP/ta-$tag" | sed 's/^Throughput [^ ]* MB.sec//; s/max_latency=.*//')" = \
	  "$(tail -1 "$TMP/tb-$tag" | sed 's/^Throughput [^ ]* MB.sec//; s/max_latency=.*//')" ] ||
		fail "Throughput lines differ: $(tail -1 "$TMP/ta-$tag") / $(tail -1 "$TMP/tb-$tag")"
	[ "$tag" != plain ] || parsed_good "$TMP/tb-$tag"
	echo "ok: $tag: $(tail -1 "$TMP/ta-$tag") / $(tail -1 "$TMP/tb-$tag")"
}

if command -v tbench >/dev/null && command -v tbench_srv >/dev/null && netns_ok; then
	compare_tbench plain "${DEF[@]}" -t 5 2 127.0.0.1
	compare_tbench perclient -c "$CLIENT_TXT" -t 5 --per-client-results 1 127.0.0.1
else
	echo "tbench 4.0 not compared: tbench, tbench_srv or a network namespace is missing"
fi

note "client.txt replayed exactly once"
"$DBNG" --run-once --warmup 0 -t 600 -c "$CLIENT_TXT" -D "$D" 1 >"$TMP/once" 2>&1 ||
	fail "run-once failed: $(tail "$TMP/once")"
for kw in NTCreateX:NTCreateX Close:Close Rename:Rename Unlink:Unlink \
	Deltree:Deltree Mkdir:Mkdir QUERY_PATH_INFORMATION:Qpathinfo \
	QUERY_FILE_INFORMATION:Qfileinfo QUERY_FS_INFORMATION:Qfsinfo \
	SET_FILE_INFORMATION:Sfileinfo FIND_FIRST:Find WriteX:WriteX \
	ReadX:ReadX LockX:LockX UnlockX:UnlockX Flush:Flush; do
	want=$(grep -c "^${kw%%:*} " "$CLIENT_TXT")
	got=$(op_count "$TMP/once" "${kw##*:}")
	[ "$want" = "$got" ] || fail "${kw##*:}: $got ops, client.txt has $want"
	printf '%-10s %7s = %7s\n' "${kw##*:}" "$got" "$want"
done
! grep -q "Unexpected results" "$TMP/once" || fail "client.txt gave unexpected results"
echo "all compatibility checks passed"
