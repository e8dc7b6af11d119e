# SPDX-License-Identifier: GPL-3.0-or-later
# Stall forensics against injected delays: faultfs delays one rename every
# 3 s by 500 ms.  The run must show Rename MaxLat within 5 % of the delay
# (as logged by faultfs),
# exactly one stall event per injected delay, starting when the
# injection log says (within 50 ms), each with a kernel stack in the FUSE
# request wait, and no other op blamed.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/faultfs/lib.sh"

# ms ISO8601: milliseconds since the epoch
ms() { date -u -d "$1" +%s%3N; }

ffs_mount --rule 'rename delay=500 period=3000'
# threshold 250 ms: half the injected delay, and far above what a FUSE op
# costs even on a loaded machine (147 ms was seen at load average 27)
"$DBNG" -t 10 --warmup 0 --stall-threshold 250 --json "$TMP/r.json" -D "$MNT" 1 >"$TMP/out" 2>"$TMP/err" ||
	fail "exit $?: $(cat "$TMP/err")"
ffs_umount
sed -n '/^ Stalls/,/^$/p' "$TMP/out"

max=$(awk '/^ Operation/ {t=1; next} t && $1 == "Rename" {print $4; exit}' "$TMP/out")
# the longest delay as faultfs logged it (<ns> ... rename PATH delay=500
# start|end); faultfs may oversleep on a loaded machine, which dbench-ng
# must then measure too
dmax=$(awk '$3 == "rename" && $6 == "start" {s = $1}
	$3 == "rename" && $6 == "end" && ($1 - s) / 1e6 > d {d = ($1 - s) / 1e6}
	END {printf "%.3f", d}' "$LOG")
awk -v m="$max" -v d="$dmax" 'BEGIN {exit !(d >= 500 && m >= d && m < d * 1.05)}' ||
	fail "Rename MaxLat $max ms, injected 500 ms, logged $dmax ms"
echo "ok: Rename MaxLat $max ms for an injected 500 ms (logged $dmax ms)"

injected=$(grep -c ' rename .* delay=500 start$' "$LOG")
[ "$injected" -ge 3 ] || fail "only $injected delays injected: $(cat "$LOG")"
head -1 "$TMP/out" >/dev/null
summary=$(grep '^ Stalls:' "$TMP/out") || fail "no stall section"
echo "$summary" | grep -Eq "^ Stalls: $injected ops? ran longer than 250 ms \\(Rename $injected, max [0-9.]+ ms\\)$" ||
	fail "stalls '$summary' do not match $injected injected rename delays"
echo "ok: $injected injected delays, $injected stall events, all Rename"

# the start of each event against the injection log, in order
sed -n 's/^  #[0-9]* Rename [0-9.]* ms.*started at [0-9.]* s (\([^)]*\)).*/\1/p' \
	"$TMP/out" | sort >"$TMP/ev"
awk '/ rename .* start$/ {print $2}' "$LOG" | sort >"$TMP/inj"
[ "$(wc -l <"$TMP/ev")" = "$injected" ] || fail "events shown: $(cat "$TMP/ev")"
paste "$TMP/ev" "$TMP/inj" | while read -r e i; do
	d=$(($(ms "$e") - $(ms "$i")))
	[ ${d#-} -le 50 ] || fail "stall at $e, injection at $i ($d ms apart)"
	echo "ok: stall at $e, injected at $i ($d ms)"
done || exit 1

grep -q 'fuse' <(sed -n '/^ Stalls/,/^$/p' "$TMP/out") ||
	fail "no FUSE frame in the stall stacks"
grep -Eq 'request_wait_answer|fuse_simple_request|fuse_' "$TMP/r.json" ||
	fail "the JSON stacks lack the FUSE wait"
echo "ok: the stacks show the FUSE request wait"
echo "all FUSE stall checks passed"
