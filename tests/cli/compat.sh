# SPDX-License-Identifier: GPL-3.0-or-later
# dbench 4.0 compatibility: run Debian's dbench and dbench-ng with the same
# loadfile and options and compare the output line by line in structure:
# Running line, launch lines, progress lines, cleanup lines, the classic
# table (header, rule, 41-column rows in dbench's order) and the final
# Throughput line with its suffixes.  Then replay client.txt once
# (--run-once) and check every op count equals the loadfile's.
. "$(dirname "$0")/../lib.sh"

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
#   our extra sections are skipped: the percentile table, and the stalls,
#   which a busy machine may give any run (an op over 100 ms); ? anything
#   else
kinds() {
	awk '
	/^dbench(-ng)? version / { next }
	/^failed to create barrier semaphore/ { next }
	/^ Latency ms / { extra = 1; next }
	/^ Stalls: [0-9]+ ops? ran longer than / { extra = 1; next }
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

compare_runs plain -c "$CLIENT_TXT" -t 6 -D "$D" 2
compare_runs sync -c "$CLIENT_TXT" -t 5 -s -S -D "$D" 2
compare_runs perclient -c "$CLIENT_TXT" -t 5 --per-client-results -D "$D" 2

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
