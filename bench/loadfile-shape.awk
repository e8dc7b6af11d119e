# SPDX-License-Identifier: GPL-3.0-or-later
#
# loadfile-shape.awk: the distributions of a dbench 4.0 loadfile that reach
# the file system, computed by replaying the file's metadata in memory.
#
#	awk -f bench/loadfile-shape.awk /usr/share/dbench/client.txt
#	awk -f bench/loadfile-shape.awk loadfiles/netbench.load
#	awk -v terse=1 -f ...		(one "key value" line per figure)
#
# Only aggregate figures are printed, never a line or a name of the file,
# so it may be run on client.txt and its output published.
#
# File sizes are tracked per path: NTCreateX with disposition 0x0
# (supersede), 0x4 or 0x5 (overwrite) truncates, 0x2 creates empty; WriteX
# extends; Unlink, Rename and Deltree move or forget sizes.  A WriteX is an
# "append" when its offset is the file's current size, a "hole" when it
# starts past it (the gap is left unwritten), "below" when it starts under
# it (overwrite, or the filling of a hole a pre-extend left).  Written
# 4 KiB blocks are tracked per file (Rename moves them, truncation and
# Unlink drop them): a WriteX is "allocating" when all its blocks are
# written for the first time, "rewriting" when none is.  Handle lifetimes
# are in loadfile lines from NTCreateX to Close; file sizes are taken at
# the Close of a handle that wrote; files per directory is each
# directory's peak.  The op counts include every line, the other figures
# only lines whose status is NT_STATUS_OK.  POSIX awk (checked with mawk
# and nawk).

function tok(line,   n, c, i, t, q) {	# split on blanks, "..." groups
	n = 0; t = ""; q = 0; have = 0
	for (i = 1; i <= length(line); i++) {
		c = substr(line, i, 1)
		if (c == "\"") { q = !q; have = 1; continue }
		if (!q && (c == " " || c == "\t")) {
			if (have) { T[++n] = t; t = ""; have = 0 }
			continue
		}
		t = t c; have = 1
	}
	if (have) T[++n] = t
	return n
}
function dirof(p,   i) {
	for (i = length(p); i > 0 && substr(p, i, 1) != "\\"; i--) ;
	return substr(p, 1, i - 1)
}
function bucket(v) {	# size classes
	if (v <= 1) return "1"
	if (v < 512) return "2-511"
	if (v < 4096) return "512-4095"
	if (v == 4096) return "4096"
	if (v < 16384) return "4097-16383"
	if (v < 65536) return "16384-65535"
	return ">=65536"
}
function fbucket(v) {	# file size classes
	if (v < 4096) return "<4K"
	if (v < 65536) return "4K-64K"
	if (v < 262144) return "64K-256K"
	if (v < 1048576) return "256K-1M"
	return ">=1M"
}
function setfile(p, v,   d) {
	if (!(p in ino)) ino[p] = ++nino
	if (!(p in size)) {
		d = dirof(p); indir[d]++
		if (indir[d] > peakdir[d]) peakdir[d] = indir[d]
	}
	size[p] = v
}
function rmfile(p,   d) {
	if (p in size) { d = dirof(p); indir[d]--; delete size[p] }
	delete ino[p]
}
function closeh(f,   p) {
	p = hpath[f]
	nclosed++
	life_sum += lines - hopen[f]
	lh[lines - hopen[f]]++
	if (lines - hopen[f] > lmax) lmax = lines - hopen[f]
	if (hw[f] > 0) {
		nwh++
		wb_sum += hw[f]
		fsz = (p in size) ? size[p] : 0
		fs_sum += fsz
		fsb[fbucket(fsz)]++
		wbb[fbucket(hw[f])]++
		if (hfl[f]) nflushed_h++
	}
	delete hpath[f]; delete hw[f]; delete hfl[f]; delete hopen[f]
}
function p(k, v) {
	if (terse) printf "%s %s\n", k, v
	else printf "  %-34s %s\n", k, v
}
function pct(a, b) { return b ? sprintf("%.1f %%", 100 * a / b) : "-" }
function rank(q,   v, c) {	# the q-quantile of the handle lifetimes
	for (v = 0; v <= lmax; v++)
		if ((c += lh[v]) >= q * nclosed) return v
	return lmax
}

/^[ \t]*#/ { next }
{
	n = tok($0)
	if (!n) next
	i = 1
	if (T[1] ~ /^[0-9]/) i = 2		# timestamp
	op = T[i]; st = T[n]; lines++
	ops[op]++; total++
	if (st != "NT_STATUS_OK") { fails[op]++; next }
	if (op == "NTCreateX") {
		path = T[i + 1]; disp = T[i + 3] + 0; f = T[i + 4]
		if (T[i + 3] ~ /^0x/) disp = substr(T[i + 3], 3) + 0
		if (disp == 2 || disp == 0 || disp == 4 || disp == 5 ||
		    (disp == 3 && !(path in size))) {
			delete ino[path]
			setfile(path, 0)
		}
		else if (!(path in size) && T[i + 2] != "0x1")
			setfile(path, 0)	# opened, size unknown: 0
		if (f in hpath) closeh(f)
		hpath[f] = path; hopen[f] = lines; hw[f] = 0; nopen_h++
	} else if (op == "Close") {
		if (T[i + 1] in hpath) closeh(T[i + 1])
	} else if (op == "WriteX") {
		f = T[i + 1]; off = T[i + 2] + 0; len = T[i + 3] + 0
		path = hpath[f]; cur = (path in size) ? size[path] : 0
		nw++; wsum += len; wsz[bucket(len)]++
		if (off == cur) { app++; appb += len }
		else if (off > cur) { hole++; holeb += len }
		else { below++; belowb += len; if (off + len > cur) straddle++ }
		if (off + len > cur) setfile(path, off + len)
		hw[f] += len
		if (!(path in ino)) ino[path] = ++nino
		nb = 0; fresh = 0
		for (b = int(off / 4096); b <= int((off + len - 1) / 4096); b++) {
			nb++
			if (!((ino[path], b) in blk)) { blk[ino[path], b] = 1; fresh++ }
		}
		newblk += fresh; allblk += nb
		if (fresh == nb) wnew++
		else if (!fresh) wold++
		else wmixed++
	} else if (op == "ReadX") {
		len = T[i + 3] + 0
		nr++; rsum += len; rsz[bucket(len)]++
		rret += T[i + 4]
	} else if (op == "Flush") {
		nflush++; hfl[T[i + 1]] = 1
	} else if (op == "Unlink") {
		rmfile(T[i + 1])
	} else if (op == "Rename") {
		if (T[i + 1] in size) {
			v = size[T[i + 1]]; id = ino[T[i + 1]]; rmfile(T[i + 1])
			rmfile(T[i + 2]); ino[T[i + 2]] = id; setfile(T[i + 2], v)
		}
	} else if (op == "Deltree") {
		pre = T[i + 1] "\\"
		for (k in size)
			if (substr(k, 1, length(pre)) == pre) rmfile(k)
	}
}
END {
	if (!terse) print "ops (lines " total ")"
	for (o in ops) p("op." o, sprintf("%d (%s)", ops[o], pct(ops[o], total)))
	if (!terse) print "WriteX (OK lines)"
	p("writex.count", nw)
	p("writex.mean_bytes", sprintf("%.0f", nw ? wsum / nw : 0))
	p("writex.append", pct(app, nw))
	p("writex.hole", pct(hole, nw))
	p("writex.below_eof", pct(below, nw))
	p("writex.below_eof_extending", pct(straddle, nw))
	p("writex.allocating_only", pct(wnew, nw))
	p("writex.rewriting_only", pct(wold, nw))
	p("writex.mixed", pct(wmixed, nw))
	p("writex.blocks_newly_allocated", pct(newblk, allblk))
	p("writex.bytes_append", pct(appb, wsum))
	p("writex.bytes_hole", pct(holeb, wsum))
	p("writex.bytes_below_eof", pct(belowb, wsum))
	split("1 2-511 512-4095 4096 4097-16383 16384-65535 >=65536", B, " ")
	for (j = 1; j in B; j++) p("writex.size " B[j], pct(wsz[B[j]], nw))
	if (!terse) print "ReadX (OK lines)"
	p("readx.count", nr)
	p("readx.mean_bytes", sprintf("%.0f", nr ? rsum / nr : 0))
	p("readx.mean_ret_bytes", sprintf("%.0f", nr ? rret / nr : 0))
	for (j = 1; j in B; j++) p("readx.size " B[j], pct(rsz[B[j]], nr))
	p("bytes_per_line", sprintf("%.0f", (rsum + wsum) / total))
	p("read_write_bytes_ratio", sprintf("%.2f", wsum ? rsum / wsum : 0))
	if (!terse) print "handles"
	p("handles.closed", nclosed)
	p("handles.mean_lines_open", sprintf("%.1f", nclosed ? life_sum / nclosed : 0))
	p("handles.median_lines_open", rank(0.5))
	p("handles.p90_lines_open", rank(0.9))
	p("handles.writing", pct(nwh, nclosed))
	p("handles.mean_bytes_written", sprintf("%.0f", nwh ? wb_sum / nwh : 0))
	p("handles.writes_per_writing_handle", sprintf("%.2f", nwh ? nw / nwh : 0))
	p("handles.writing_flushed", pct(nflushed_h, nwh))
	split("<4K 4K-64K 64K-256K 256K-1M >=1M", F, " ")
	for (j = 1; j in F; j++) p("handles.bytes_written " F[j], pct(wbb[F[j]], nwh))
	if (!terse) print "file size at close of a writing handle"
	p("filesize.mean_bytes", sprintf("%.0f", nwh ? fs_sum / nwh : 0))
	for (j = 1; j in F; j++) p("filesize " F[j], pct(fsb[F[j]], nwh))
	if (!terse) print "sync points"
	p("flush.count", nflush)
	p("flush.per_MB_written", sprintf("%.2f", wsum ? nflush / (wsum / 1048576) : 0))
	p("flush.per_100_writex", sprintf("%.1f", nw ? 100 * nflush / nw : 0))
	if (!terse) print "directories"
	nd = 0; tf = 0; mx = 0
	for (d in peakdir) { nd++; tf += peakdir[d]; if (peakdir[d] > mx) mx = peakdir[d] }
	p("dirs.with_files", nd)
	p("dirs.mean_peak_files", sprintf("%.1f", nd ? tf / nd : 0))
	p("dirs.max_peak_files", mx)
}
