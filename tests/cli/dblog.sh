# SPDX-License-Identifier: GPL-3.0-or-later
# Reading real dbench 4.0 logs back (src/results/dblog/): run Debian's dbench
# three times (plain, -s -S, --per-client-results), parse each log with
# tests/cli/dblogprobe.c and compare every figure it prints with what awk
# reads from the same log: Running line, Throughput line, the first table
# (count, AvgLat, MaxLat per op), per-client lines and tables, the number
# of warmup and execute progress lines, the total line count and bytes.
. "$(dirname "$0")/../lib.sh"

# the probe is built by make check, with the results layer only
PROBE=$ROOT/build/tests/cli/dblogprobe
[ -x "$PROBE" ] || fail "$PROBE not built (make check builds it)"

# dbench-ng's own logs of what is not a result: a failed run and an
# interrupted one print our table ("NTCreateX:" rows) and a "Partial
# figures of ..." line, no dbench table and no Throughput line; read
# back failed (or interrupted) with those figures, per client too
note "dbench-ng logs of a failed and an interrupted run"
mkdir -p "$TMP/ng"
printf '%s\n' 'NTCreateX "\clients\client1\f" 0x40 0x5 1 NT_STATUS_OK' \
	'WriteX 1 0 65536 65536 NT_STATUS_OK' 'Close 1 NT_STATUS_OK' \
	'Unlink "\clients\client1\nonexist" 0x6 NT_STATUS_OK' >"$TMP/fail.load"
expect_rc 1 "$DBNG" -t 10 --warmup 0 --per-client-results -c "$TMP/fail.load" \
	-D "$TMP/ng" 2 >"$TMP/ngfail.log" 2>/dev/null
# job control on: a background job of a non-interactive shell starts with
# SIGINT ignored, and dbench-ng keeps an inherited SIG_IGN (process.sh)
set -m
"$DBNG" -t 60 --warmup 0 -D "$TMP/ng" 1 >"$TMP/ngint.log" 2>/dev/null &
pid=$!
set +m
at_exit "kill $pid"
wait_for "$TMP/ngint.log" " execute "
kill -INT $pid
wait $pid
for log in ngfail ngint; do
	"$PROBE" "$TMP/$log.log" >"$TMP/$log.probe" || fail "probe failed on $log.log: $(cat "$TMP/$log.log")"
	want=$([ $log = ngfail ] && echo failed || echo interrupted)
	grep -q "^status=$want\$" "$TMP/$log.probe" || fail "$log: not $want: $(cat "$TMP/$log.probe")"
	# the ops of our table, as the probe prints them
	diff <(awk '/^ Per op/ { t = 1; next } t && /^ =+$/ { next } t && /^$/ { exit }
		    t { sub(/:$/, "", $1); print "op." $1 ".count=" $2; print "op." $1 ".avg=" $3; print "op." $1 ".max=" $4 }' "$TMP/$log.log") \
		<(grep '^op\.' "$TMP/$log.probe") || fail "$log: the table read differs"
	figs=$(tail -1 "$TMP/$log.log" | sed 's/^Partial figures of an\{0,1\} [a-z]* run: //')
	[ "$(grep -E '^(throughput|clients|procs|max_latency)=' "$TMP/$log.probe" | cut -d= -f2 | tr '\n' ' ')" = \
	  "$(echo "$figs" | awk '{ sub(/max_latency=/, "", $7); print $1, $3, $5, $7 " " }')" ] ||
		fail "$log: figures $(grep -E '^(throughput|clients|procs|max_latency)=' "$TMP/$log.probe" | tr '\n' ' ') vs '$figs'"
	echo "ok: $log read as $want ($(grep -c '^op\.' "$TMP/$log.probe") op fields)"
done
grep -q '^nclients=2$' "$TMP/ngfail.probe" || fail "ngfail: the per-client tables not read"
grep -q '^client\.1\.NTCreateX\.count=' "$TMP/ngfail.probe" ||
	fail "ngfail: no per-client rows: $(grep '^client' "$TMP/ngfail.probe")"

# a --runs log holds several runs (refused: split it); one run cut out of
# it, ending with "Figures of run 1 of 2: ...", reads as a result
note "a run cut out of a --runs log"
expect_rc 0 "$DBNG" --runs 2 -t 1 --warmup 0 -D "$TMP/ng" 1 >"$TMP/runs.log" 2>/dev/null
"$PROBE" "$TMP/runs.log" >/dev/null 2>"$TMP/runs.err" && fail "a log of 2 runs accepted"
grep -q "a second dbench run starts here" "$TMP/runs.err" || fail "runs log: $(cat "$TMP/runs.err")"
awk '/^==> run 2 of 2$/ { exit } { print }' "$TMP/runs.log" >"$TMP/run1.log"
"$PROBE" "$TMP/run1.log" >"$TMP/run1.probe" || fail "probe failed on run1.log"
grep -q '^status=ok$' "$TMP/run1.probe" || fail "run 1: $(cat "$TMP/run1.probe")"
[ "$(sed -n 's/^throughput=//p' "$TMP/run1.probe")" = \
  "$(sed -n 's/^Figures of run 1 of 2: \([^ ]*\) MB.sec.*/\1/p' "$TMP/run1.log")" ] ||
	fail "run 1: throughput $(grep throughput "$TMP/run1.probe")"
echo "ok: run 1 of a --runs log read as a result"

command -v dbench >/dev/null || skip "Debian package dbench is not installed"
[ -r "$CLIENT_TXT" ] || skip "$CLIENT_TXT missing"

# expected LOG: the probe's keys, read from LOG by awk (exec_bytes apart)
expected() {
	awk '
	function out(k, v) { print k "=" v }
	/^dbench version / { out("tool", "dbench"); out("version", $3); next }
	/^Running for [0-9]+ seconds with load / {
		s = $0
		sub(/^Running for [0-9]+ seconds with load \047/, "", s)
		sub(/\047 and minimum warmup [0-9]+ secs$/, "", s)
		out("timelimit", $3); out("warmup", $(NF - 1)); out("loadfile", s)
		next
	}
	NF == 10 && $4 == "MB/sec" && $5 == "warmup" { nw++; last = $2; next }
	NF == 10 && $4 == "MB/sec" && $5 == "execute" {
		ne++; last = $2; msec = $6; next
	}
	/^Per client results:$/ { pc = 1; next }
	/^Client [0-9]+ did [0-9]+ lines and [0-9]+ bytes$/ {
		cl = "client." $2 "."; ncl++
		out(cl "lines", $4); out(cl "bytes", $7); next
	}
	/^ Operation +Count +AvgLat +MaxLat$/ {
		tables++
		getline                 # the rule
		prefix = tables == 1 ? "op." : cl
		while ((getline) > 0 && NF == 4) {
			avg = $2 == 0 ? "0.000" : $3
			out(prefix $1 ".count", $2)
			out(prefix $1 ".avg", avg)
			out(prefix $1 ".max", $4)
		}
		next
	}
	/^Throughput / {
		out("throughput", $2)
		for (i = 1; i <= NF; i++) {
			if ($i == "clients") clients = $(i - 1)
			if ($i == "procs") out("procs", $(i - 1))
			if ($i ~ /^max_latency=/) {
				v = $i; sub(/^max_latency=/, "", v)
				out("max_latency", v)
			}
		}
		out("clients", clients)
		out("sync_open", /\(sync open\)/ ? 1 : 0)
		out("sync_dirs", /\(sync dirs\)/ ? 1 : 0)
	}
	END {
		out("detect", 1); out("status", "ok")
		out("per_client", pc + 0); out("nclients", ncl + 0)
		out("warmup_points", nw + 0); out("exec_points", ne + 0)
		out("measured_s", msec + 0)
		out("lines_total", last * clients)
	}' "$1"
}

# last_bytes LOG: bytes of the execute phase from its last progress line
last_bytes() {
	awk 'NF == 10 && $4 == "MB/sec" && $5 == "execute" { b = $3 * 1e6 * $6 }
	     END { printf "%.0f\n", b }' "$1"
}

# check NAME DBENCH-ARGS...: run dbench, parse its log, compare
check() {
	local name=$1 log=$TMP/$1.log got want
	shift
	note "dbench $* ($name)"
	rm -rf "$TMP/d"
	mkdir -p "$TMP/d"
	(cd "$TMP" && dbench -t 3 -c "$CLIENT_TXT" -D "$TMP/d" "$@" 2 \
		>"$log" 2>"$TMP/$name.err") ||
		fail "dbench $* failed: $(tail -5 "$log" "$TMP/$name.err")"
	grep -q '^Throughput ' "$log" || fail "dbench $*: no Throughput line"
	"$PROBE" "$log" >"$TMP/$name.probe" ||
		fail "probe failed on $name: $(cat "$TMP/$name.probe")"
	want=$(expected "$log" | sort)
	got=$(grep -v '^exec_bytes=' "$TMP/$name.probe" | sort)
	if [ "$want" != "$got" ]; then
		sed 's/^/      /' "$log"
		diff <(echo "$want") <(echo "$got")
		fail "$name: parsed fields differ from the log (< log, > parser)"
	fi
	# bytes are estimated per second from rounded MB/sec figures: their
	# execute total must match the last line's MB/sec x seconds (±1 %)
	got=$(sed -n 's/^exec_bytes=//p' "$TMP/$name.probe")
	want=$(last_bytes "$log")
	awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; if (d < 0) d = -d
		exit !(w > 0 && d <= w / 100) }' ||
		fail "$name: execute bytes $got, expected about $want"
	echo "ok: $name ($(grep -c '^op\.' "$TMP/$name.probe") op fields," \
		"$(grep -c '^client\.' "$TMP/$name.probe") client fields)"
}

check plain
check sync -s -S
check perclient --per-client-results --clients-per-process=2
grep -q '^per_client=1' "$TMP/perclient.probe" || fail "per-client not seen"
grep -q '^nclients=4' "$TMP/perclient.probe" || fail "expected 4 clients"
grep -q '^sync_open=1' "$TMP/sync.probe" || fail "(sync open) not seen"

# the same log cut before its Throughput line: a failed run with a table
note "truncated log"
sed '/^Throughput /d' "$TMP/plain.log" >"$TMP/cut.log"
"$PROBE" "$TMP/cut.log" >"$TMP/cut.probe" || fail "probe failed on cut.log"
grep -q '^status=failed$' "$TMP/cut.probe" || fail "cut log: not failed"
diff <(grep '^op\.' "$TMP/plain.probe") <(grep '^op\.' "$TMP/cut.probe") ||
	fail "cut log: different table"

# not a log
note "garbage"
printf '{"format_version": 1}\n' >"$TMP/j.json"
"$PROBE" "$TMP/j.json" >"$TMP/j.out" 2>"$TMP/j.err" && fail "JSON accepted"
grep -q '^detect=0$' "$TMP/j.out" || fail "JSON detected as a dbench log"
grep -qF "$TMP/j.json: no dbench result found" "$TMP/j.err" ||
	fail "JSON: wrong message: $(cat "$TMP/j.err")"
exit 0
