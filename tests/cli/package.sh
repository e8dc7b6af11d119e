# SPDX-License-Identifier: GPL-3.0-or-later
# The Debian packages (make deb, docs/install.md): built from the tree's
# tarball in the test's own directory, lintian-clean, unpacked with dpkg
# -x into a temporary root, and installed with dpkg -i, run and removed
# with dpkg -r in an overlay of / (nothing is installed on this machine); there
# the installed files are where docs/install.md says, the installed
# dbench-ng runs a benchmark, tbench-ng runs against tbench-ng-srv (in a
# network namespace of the test's own), the installed completion
# completes, and dpkg, --version and the JSON result name one version.
# Also make install and uninstall with DESTDIR.  Needs dpkg-dev and
# debhelper, and the build dependencies of debian/control.
. "$(dirname "$0")/../lib.sh"
command -v dpkg-buildpackage >/dev/null ||
	skip "dpkg-buildpackage not installed (apt-get install dpkg-dev)"
command -v dh >/dev/null || skip "dh not installed (apt-get install debhelper)"
command -v python3 >/dev/null || skip "python3 not installed"
git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
	skip "make dist needs the git tree"
(cd "$ROOT" && dpkg-checkbuilddeps) 2>"$TMP/bd.err" ||
	skip "build dependencies missing: $(cat "$TMP/bd.err")"
# the tbench part runs in a network namespace where one can be made
netns_ok && enter_netns "$@"

read -r V C < <("$ROOT/scripts/version.sh") || fail "scripts/version.sh failed"
want="dbench-ng $V${C:+ (commit $C)}"
# a release names its number twice: NEWS.md's top entry and
# debian/changelog's (docs/install.md, "Versions")
news=$(sed -n 's/^## \([0-9.]*\) .*/\1/p' "$ROOT/NEWS.md" | head -1)
ch=$(cd "$ROOT" && dpkg-parsechangelog -S Version) || fail "dpkg-parsechangelog"
[ "$news" = "$ch" ] || fail "NEWS.md's top version is $news, debian/changelog's $ch"

note "make deb (in $TMP)"
make -s -C "$ROOT" deb DIST_DIR="$TMP" DEB_DIR="$TMP/deb" \
	DEB_FLAGS="-us -uc -b -j2" >"$TMP/deb.log" 2>&1 ||
	fail "make deb: $(tail -20 "$TMP/deb.log")"
[ "$(cat "$TMP/deb/dbench-ng-$V/VERSION")" = "$V${C:+ $C}" ] ||
	fail "the tarball's VERSION: $(cat "$TMP/deb/dbench-ng-$V/VERSION")"
for p in dbench-ng dbench-ng-mpi; do
	deb=$(echo "$TMP/deb/${p}_${V}_"*.deb)
	[ -f "$deb" ] || fail "no $p package: $(ls "$TMP/deb")"
	[ "$(dpkg-deb -f "$deb" Version)" = "$V" ] ||
		fail "$p's version is $(dpkg-deb -f "$deb" Version), the tree's $V"
	dpkg -x "$deb" "$TMP/root" || fail "dpkg -x $deb"
done
if command -v lintian >/dev/null; then
	grep -q "^lintian " "$TMP/deb.log" || fail "make deb ran no lintian"
	! grep -E "^[EW]: " "$TMP/deb.log" || fail "lintian errors or warnings"
	echo "ok: lintian reports no error or warning"
fi
dpkg-deb -f "$TMP/deb/dbench-ng-mpi_${V}_"*.deb Depends | grep -q openmpi-bin ||
	fail "dbench-ng-mpi does not depend on openmpi-bin"
echo "ok: packages dbench-ng and dbench-ng-mpi $V"

note "the installed files"
R=$TMP/root
for f in usr/bin/dbench-ng usr/bin/dbench-ng-mpi usr/share/man/man1/dbench-ng.1.gz \
	usr/share/man/man1/tbench-ng.1.gz usr/share/man/man1/tbench-ng-srv.1.gz \
	usr/share/man/man1/dbench-ng-mpi.1.gz \
	usr/share/bash-completion/completions/dbench-ng \
	usr/share/doc/dbench-ng/copyright usr/share/doc/dbench-ng/NEWS.md.gz \
	usr/share/doc/dbench-ng/docs/install.md.gz \
	usr/share/doc/dbench-ng/examples/netbench.load; do
	[ -e "$R/$f" ] || fail "the packages have no /$f"
done
for l in tbench-ng tbench-ng-srv; do
	[ "$(readlink "$R/usr/bin/$l")" = dbench-ng ] || fail "/usr/bin/$l is no link to dbench-ng"
done
echo "ok: binaries, links, man pages, completion, docs and example"

note "the installed programs"
B=$R/usr/bin
[ "$("$B/dbench-ng" --version)" = "$want" ] ||
	fail "installed --version: '$("$B/dbench-ng" --version)', expected '$want'"
# (under SAN=1 the packages' programs are sanitized too, and Open MPI
# leaves allocations at exit that LeakSanitizer reports: as in mpi.sh)
mpiv=$(ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$B/dbench-ng-mpi" --version)
[ "$mpiv" = "$want" ] || fail "installed dbench-ng-mpi --version: '$mpiv'"
mkdir -p "$TMP/d"
"$B/dbench-ng" -t 3 --warmup 0 -c "$R/usr/share/doc/dbench-ng/examples/netbench.load" \
	-D "$TMP/d" --json "$TMP/r.json" 2 >"$TMP/run.out" 2>&1 ||
	fail "installed dbench-ng -t 3 -D DIR 2: $(tail -5 "$TMP/run.out")"
grep -q "^Throughput .* 2 clients" "$TMP/run.out" || fail "no Throughput line: $(tail -3 "$TMP/run.out")"
[ -z "$(ls -A "$TMP/d")" ] || fail "the run left $(ls -A "$TMP/d") in DIR"
python3 - "$TMP/r.json" "$V" "$C" <<'PY' || fail "the JSON's version"
import json, sys
r = json.load(open(sys.argv[1]))
want = (sys.argv[2], sys.argv[3] or None)
if (r["version"], r["commit"]) != want:
    sys.exit("JSON version, commit %r, expected %r" % ((r["version"], r["commit"]), want))
PY
echo "ok: dbench-ng -t 3 -D DIR 2 ran; --version and the JSON say $V${C:+ $C}"
if [ -n "${DBNG_NETNS:-}" ]; then
	srv_start srv 7003 "$B/tbench-ng-srv"
	(cd "$TMP" && "$B/tbench-ng" -t 3 --warmup 0 2 127.0.0.1) >"$TMP/tb.out" 2>&1 ||
		fail "installed tbench-ng: $(tail -5 "$TMP/tb.out")"
	grep -q "^Throughput .* 2 clients" "$TMP/tb.out" || fail "tbench-ng: $(tail -3 "$TMP/tb.out")"
	srv_stop
	[ "$SRV_RC" = 0 ] || fail "tbench-ng-srv exit $SRV_RC: $(cat "$TMP/srv.err")"
	echo "ok: installed tbench-ng against installed tbench-ng-srv"
else
	echo "note: no network namespace here: tbench-ng against tbench-ng-srv not run"
fi

note "dpkg -i, a run, dpkg -r: in an overlay of / (this machine's / untouched)"
# The packages are installed for real, by dpkg, into a copy-on-write view
# of the machine's root in a mount namespace of the test's own: the
# overlay's upper layer is a tmpfs of that namespace, which goes with it
# on every exit path, so nothing lands in this machine's /usr or dpkg
# database.
if unshare -m true 2>/dev/null && grep -qw overlay /proc/filesystems; then
	O=$TMP/ovl
	mkdir -p "$O"
	# shellcheck disable=SC2016 # expanded by the inner shells
	unshare -m --propagation private sh -ec '
		O=$1 DEBS=$2
		mount -t tmpfs tmpfs "$O"
		mkdir "$O/up" "$O/work" "$O/root"
		mount -t overlay overlay \
			-o "lowerdir=/,upperdir=$O/up,workdir=$O/work" "$O/root"
		mount --rbind /dev "$O/root/dev"
		mount -t proc proc "$O/root/proc"
		mount -t tmpfs tmpfs "$O/root/tmp"
		mkdir "$O/root/tmp/debs" "$O/root/tmp/d"
		cp "$DEBS"/dbench-ng_*.deb "$DEBS"/dbench-ng-mpi_*.deb "$O/root/tmp/debs/"
		exec chroot "$O/root" sh -ec "
			dpkg -i /tmp/debs/*.deb
			dpkg -s dbench-ng dbench-ng-mpi | grep -c \"^Status: install ok installed\" | grep -qx 2
			command -v dbench-ng tbench-ng tbench-ng-srv dbench-ng-mpi
			dbench-ng -t 3 --warmup 0 -D /tmp/d 2 | tail -1
			[ -z \"\$(ls -A /tmp/d)\" ]
			tbench-ng --version
			[ -f /usr/share/bash-completion/completions/dbench-ng ]
			dpkg -r dbench-ng-mpi dbench-ng
			! dpkg -s dbench-ng 2>/dev/null | grep -q \"^Status: install ok installed\"
			! command -v dbench-ng
			[ ! -e /usr/share/man/man1/dbench-ng.1.gz ]
			echo removed"
	' sh "$O" "$TMP/deb" >"$TMP/dpkg.out" 2>&1 ||
		fail "dpkg -i / run / dpkg -r: $(tail -15 "$TMP/dpkg.out")"
	grep -q "^Throughput .* 2 clients" "$TMP/dpkg.out" ||
		fail "no Throughput line from the dpkg-installed dbench-ng: $(cat "$TMP/dpkg.out")"
	[ "$(tail -1 "$TMP/dpkg.out")" = removed ] || fail "dpkg -r: $(tail -5 "$TMP/dpkg.out")"
	! dpkg -s dbench-ng 2>/dev/null | grep -q "^Status: install ok installed" ||
		fail "dbench-ng is now installed on this machine"
	echo "ok: dpkg -i both packages, dbench-ng -t 3 -D DIR 2 from /usr/bin, dpkg -r: all gone"
else
	echo "note: no mount namespace or overlayfs here: dpkg -i and -r not run"
fi

note "the installed completion"
COMPLETION=$R/usr/share/bash-completion/completions/dbench-ng BINDIR=$B \
	bash "$ROOT/tests/cli/completion.sh" >"$TMP/comp.out" 2>&1 ||
	fail "the installed completion: $(grep FAIL "$TMP/comp.out")"
echo "ok: tests/cli/completion.sh passes with the installed files"

note "make install and uninstall, DESTDIR and PREFIX"
# in the tree dpkg-buildpackage built, with its flags (nothing rebuilt)
S=$TMP/deb/dbench-ng-$V
(cd "$S" && export DEB_BUILD_MAINT_OPTIONS=hardening=+all && eval "$(dpkg-buildflags --export=sh)" &&
	make -C "$S" install DESTDIR="$TMP/inst" PREFIX=/opt/dbng) >"$TMP/inst.log" 2>&1 ||
	fail "make install: $(tail -5 "$TMP/inst.log")"
! grep -q "^  \(CC\|LD\) " "$TMP/inst.log" || fail "make install rebuilt: $(grep -m3 "^  [CL]" "$TMP/inst.log")"
[ "$("$TMP/inst/opt/dbng/bin/tbench-ng" --version 2>&1 | head -1)" = "$want" ] ||
	fail "installed tbench-ng --version: $("$TMP/inst/opt/dbng/bin/tbench-ng" --version 2>&1)"
for f in bin/dbench-ng share/man/man1/dbench-ng.1 share/bash-completion/completions/tbench-ng \
	share/doc/dbench-ng/README.md; do
	[ -e "$TMP/inst/opt/dbng/$f" ] || fail "make install made no PREFIX/$f"
done
make -s -C "$S" uninstall DESTDIR="$TMP/inst" PREFIX=/opt/dbng >>"$TMP/inst.log" 2>&1 ||
	fail "make uninstall: $(tail -5 "$TMP/inst.log")"
left=$(find "$TMP/inst" ! -type d)
[ -z "$left" ] || fail "make uninstall left: $left"
[ ! -e "$TMP/inst/opt/dbng/share/doc/dbench-ng" ] || fail "make uninstall left DOCDIR"
echo "ok: make install PREFIX=/opt/dbng DESTDIR=..., then uninstall: nothing left"
echo "all package checks passed"
