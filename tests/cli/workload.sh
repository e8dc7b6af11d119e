# SPDX-License-Identifier: GPL-3.0-or-later
# The built-in workload: the committed loadfile is exactly what
# tools/gen_netbench.c generates, it is what the binary embeds, every op
# type is present, and each op's share of lines is within 2 % (relative)
# of dbench's client.txt, read from the Debian package (never copied).
. "$(dirname "$0")/../lib.sh"

LOAD=$ROOT/loadfiles/netbench.load
GEN=$ROOT/build/tools/gen_netbench
[ -x "$GEN" ] || fail "$GEN not built (make build/tools/gen_netbench)"
"$GEN" | cmp -s - "$LOAD" || fail "loadfiles/netbench.load differs from the generator's output"
echo "ok: generator output == loadfiles/netbench.load ($(wc -l <"$LOAD") lines)"

# the binary embeds that file: one pass with -B null executes its op counts
"$DBNG" -B null --run-once --warmup 0 -t 600 -D "$TMP" 1 >"$TMP/out" ||
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
echo "all workload checks passed"
