# SPDX-License-Identifier: GPL-3.0-or-later
# Normalise the strace -ff stream of one dbench 4.0 client (side=dbench)
# or one dbench-ng client (side=ng) so the two can be diffed: the system
# calls of the loadfile lines, from the first call on clients/client0 up to
# the end marker (a stat of clients/client0/dbench-trace-end).  What is
# changed is exactly what docs/compat.md lists under "The system calls":
#
#   both   harness calls dropped (dbench's kill() of every line, its
#          read()s of the loadfile; allocations: brk, mmap, munmap);
#          fd numbers become the order of opening (F1, F2, ...);
#          addresses, utimensat times, statfs figures and xattr values
#          masked; ST_NOSYMFOLLOW in statfs's f_flags dropped (dbench-ng's
#          clients see DIR bound nosymfollow, fileio/mountns.c)
#   dbench "DIR/" prefixes dropped (dbench-ng names paths from DIR);
#          statfs("DIR") is statfs(".")
#   ng     openat2(AT_FDCWD, P, {flags=F, resolve=...}) is open(P, F);
#          AT_SYMLINK_NOFOLLOW of stat and utimensat, lgetxattr;
#          NTCreateX's truncation: an open with O_CREAT and no O_TRUNC,
#          right after it the fstat of that fd, right after that
#          ftruncate(fd, 0) = 0 are dbench's open with O_CREAT|O_TRUNC
#          and its fstat, which shows st_size=0 (it comes after the
#          truncation); the ftruncate is dropped.  Nothing else about
#          them changes, and any other ftruncate stays.
#
# Each output line is "LINE<TAB>CALL", LINE the loadfile line (dbench
# only, from its kill() count; 0 for dbench-ng).  Variables: side, dir
# (DIR as dbench was given it), lf (the loadfile path).
# out(LINE): print LINE, holding back (side ng) an open with O_CREAT and
# no O_TRUNC and the fstat of its fd until the next line shows whether
# they are NTCreateX's truncation (see above)
function flush() {
	if (npend >= 1)
		print pend[1]
	if (npend >= 2)
		print pend[2]
	npend = 0
}
function out(line,    fd) {
	if (side == "ng" && npend == 2) {
		if (line == "0\tftruncate(" pfd ", 0) = 0") {
			sub(/\|O_CREAT/, "|O_CREAT|O_TRUNC", pend[1])
			sub(/st_size=[0-9]+,/, "st_size=0,", pend[2])
			flush()
			return
		}
		flush()
	}
	if (side == "ng" && npend == 1) {
		if (index(line, "0\tnewfstatat(" pfd ", \"\", ") == 1 ||
		    index(line, "0\tfstat(" pfd ", ") == 1) {
			pend[++npend] = line
			return
		}
		flush()
	}
	if (side == "ng" && line ~ /^0\topenat\(AT_FDCWD, .*\|O_CREAT[|,]/ &&
	    line !~ /O_TRUNC/ && match(line, /\) = F[0-9]+$/)) {
		pfd = substr(line, RSTART + 4)
		pend[++npend] = line
		return
	}
	print line
}
END { flush() }
function label(fd) {
	if (!(fd in lab))
		return "F?" fd
	return lab[fd]
}
BEGIN {
	npend = 0
	started = 0
	nline = 0
	lffd = -1
	nopen = 0
}
side == "dbench" && !started && index($0, "\"" lf "\"") && /^openat\(/ {
	if (match($0, /= [0-9]+$/))
		lffd = substr($0, RSTART + 2) + 0
}
/^(\+\+\+|---) / { next }
{
	if (side == "dbench") {
		if (/^kill\(/) {
			nline++
			next
		}
		if (lffd >= 0 && index($0, "read(" lffd ",") == 1)
			next
		n = split($0, parts, "\"" dir "/")
		if (n > 1) {
			s = parts[1]
			for (i = 2; i <= n; i++)
				s = s "\"" parts[i]
			$0 = s
		}
		gsub("\"" dir "\"", "\".\"")
	}
	if (!started) {
		if (!index($0, "\"clients/client0\""))
			next
		started = 1
	}
	if (index($0, "clients/client0/dbench-trace-end"))
		exit
	if (/^(brk|mmap|munmap|mremap)\(/)
		next
	if (side == "ng") {
		if (/^openat2\(AT_FDCWD, /) {
			# openat2(AT_FDCWD, "P", {flags=F[, mode=M], resolve=R}, 24) = X
			p = $0
			sub(/^openat2\(AT_FDCWD, /, "", p)
			path = substr(p, 1, index(p, ", {") - 1)
			fl = p
			sub(/^.*\{flags=/, "", fl)
			sub(/[,}].*$/, "", fl)
			mode = ""
			if (match(p, /mode=0[0-7]+/))
				mode = ", " substr(p, RSTART + 5, RLENGTH - 5)
			ret = p
			sub(/^.*\) = /, "", ret)
			$0 = "openat(AT_FDCWD, " path ", " fl mode ") = " ret
		}
		if (/^(newfstatat|utimensat)\(AT_FDCWD, /)
			sub(/, AT_SYMLINK_NOFOLLOW\) = /, ", 0) = ")
		sub(/^lgetxattr\(/, "getxattr(")
	}
	# fds: named by the order of their opening
	if (/^openat\(/ && match($0, /\) = [0-9]+$/)) {
		fd = substr($0, RSTART + 4) + 0
		lab[fd] = "F" (++nopen)
		sub(/\) = [0-9]+$/, ") = " lab[fd])
	} else if (match($0, /^[a-z0-9_]+\([0-9]+[,)]/)) {
		call = substr($0, 1, index($0, "(") - 1)
		rest = substr($0, index($0, "(") + 1)
		fd = rest + 0
		sub(/^[0-9]+/, "", rest)
		$0 = call "(" label(fd) rest
		if (call == "close")
			delete lab[fd]
	}
	gsub(/0x[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]+/, "ADDR")
	gsub(/\[\{tv_sec=[^]]*\]/, "[TIMES]")
	if (/^f?statv?fs\(/) {
		sub(/\{f_type=.*\}, /, "{STATFS}, ")
		# ng: DIR is bound nosymfollow in the run's mount namespace
		sub(/\|ST_NOSYMFOLLOW/, "")
	}
	if (/^[lf]?[gs]etxattr\(/ && match($0, /"user\.DosAttrib", "/)) {
		pre = substr($0, 1, RSTART + RLENGTH - 2)
		post = substr($0, RSTART + RLENGTH - 1)
		sub(/^"([^"\\]|\\.)*"(\.\.\.)?/, "VAL", post)
		$0 = pre post
	}
	gsub(/\) +=/, ") =")
	out(nline "\t" $0)
}
