# SPDX-License-Identifier: GPL-3.0-or-later
# The built-in workload: the committed loadfile is exactly what
# tools/gen_netbench.c generates, it is what the binary embeds, every op
# type is present, and each op's share of lines is within 2 % (relative)
# of dbench's client.txt, read from the Debian package (never copied);
# and what reaches the file system (I/O size means and shares, rewrites
# against allocating writes, appends, Flush per MB) is within a band
# around client.txt's (bench/loadfile-shape.awk, aggregates only).
. "$(dirname "$0")/../lib.sh"

LOAD=$ROOT/loadfiles/netbench.load
GEN=$ROOT/build/tools/gen_netbench
[ -x "$GEN" ] || fail "$GEN not built (make build/tools/gen_netbench)"
"$GEN" | cmp -s - "$LOAD" || fail "loadfiles/netbench.load differs from the generator's output"
echo "ok: generator output == loadfiles/netbench.load ($(wc -l <"$LOAD") lines)"

# the binary embeds that file: one pass with -B null executes its op counts
"$DBNG" -B null -c builtin:netbench --run-once --warmup 0 -t 600 -D "$TMP" 1 >"$TMP/out" ||
	fail "null run of the built-in workload failed"
for kw in NTCreateX:NTCreateX Close:Close Rename:Rename Unlink:Unlink \
	Deltree:Deltree Rmdir:Rmdir Mkdir:Mkdir QUERY_PATH_INFORMATION:Qpathinfo \
	QUERY_FILE_INFORMATION:Qfileinfo QUERY_FS_INFORMATION:Qfsinfo \
	SET_FILE_INFORMATION:Sfileinfo FIND_FIRST:Find WriteX:WriteX \
	ReadX:ReadX LockX:LockX UnlockX:UnlockX Flush:Flush; do
	want=$(grep -c "^${kw%%:*} " "$LOAD")
	got=$(op_count "$TMP/out" "${kw##*:}")
	[ "$want" -gt 0 ] || fail "the built-in workload has no ${kw%%:*}"
	[ "$want" = "$got" ] || fail "${kw##*:}: ran $got, the loadfile has $want"
done
grep -q '^Sleep ' "$LOAD" || fail "the built-in workload has no Sleep"
echo "ok: the binary runs the committed file, every op type present"

[ -r "$CLIENT_TXT" ] || skip "$CLIENT_TXT missing (apt-get install dbench)"
awk '
FNR == 1 { f++ }
/^#/ || NF < 2 { next }
{ n[f, $1]++; tot[f]++; ops[$1] = 1 }
END {
	bad = 0
	for (op in ops) {
		if (!n[1, op])
			continue	# absent from client.txt (Rmdir, Sleep)
		a = n[1, op] / tot[1]; b = n[2, op] / tot[2]
		exp_lines = a * tot[2]
		dev = (b - a) / a * 100
		ok = exp_lines < 50 ? (n[2, op] - exp_lines <= 1 && exp_lines - n[2, op] <= 1) \
				    : (dev <= 2 && dev >= -2)
		if (op == "Deltree" || op == "Mkdir")
			ok = 1	# a pass needs them whatever the proportion
		printf "%-24s client.txt %6.3f%%  built-in %6.3f%%  %+6.2f%% %s\n",
			op, a * 100, b * 100, dev, ok ? "ok" : "OUT OF BAND"
		if (!ok) bad = 1
	}
	exit bad
}' "$CLIENT_TXT" "$LOAD" || fail "the op mix is outside the 2 % band"
echo "ok: op mix within 2 % of client.txt's"

# what reaches the file system: bench/loadfile-shape.awk on both files
# (aggregate figures only); bands are relative % or percentage points
SHAPE=$ROOT/bench/loadfile-shape.awk
awk -v terse=1 -f "$SHAPE" "$CLIENT_TXT" >"$TMP/shape.client" &&
	awk -v terse=1 -f "$SHAPE" "$LOAD" >"$TMP/shape.builtin" ||
	fail "loadfile-shape.awk failed"
awk '
function val(s) { sub(/ %$/, "", s); return s + 0 }
{ k = $0; sub(/ [^ ]+( %)?$/, "", k); v = val(substr($0, length(k) + 2)) }
FNR == NR { ref[k] = v; next }
{ got[k] = v }
function rel(k, pct,   d) {
	d = (got[k] - ref[k]) / ref[k] * 100
	printf "%-32s client.txt %9.2f  built-in %9.2f  %+6.1f %%  (band %d %%) %s\n",
		k, ref[k], got[k], d, pct, (d <= pct && d >= -pct) ? "ok" : "OUT OF BAND"
	if (d > pct || d < -pct) bad = 1
}
function pts(k, band,   d) {
	d = got[k] - ref[k]
	printf "%-32s client.txt %8.1f%%  built-in %8.1f%%  %+6.1f pts (band %d) %s\n",
		k, ref[k], got[k], d, band, (d <= band && d >= -band) ? "ok" : "OUT OF BAND"
	if (d > band || d < -band) bad = 1
}
END {
	rel("writex.mean_bytes", 5); rel("readx.mean_ret_bytes", 5)
	rel("bytes_per_line", 5); rel("flush.per_MB_written", 5)
	pts("writex.size 1", 2); pts("writex.size 4096", 5)
	pts("writex.size >=65536", 5); pts("readx.size 4096", 5)
	pts("writex.rewriting_only", 8); pts("writex.allocating_only", 8)
	pts("writex.append", 5); pts("writex.below_eof", 5)
	exit bad
}' "$TMP/shape.client" "$TMP/shape.builtin" ||
	fail "the built-in's I/O shape is outside its band around client.txt's"
echo "all workload checks passed"
