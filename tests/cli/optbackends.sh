# SPDX-License-Identifier: GPL-3.0-or-later
# Backends that need a library (the Makefile's OPT_BACKENDS): one whose
# library pkg-config finds is built, the others are left out and named
# with the Debian package to install.  zlib (which dbench-ng links) stands
# for a library that is there, a made-up name for one that is not; only
# make's evaluation runs (make print-backends builds nothing).  What the
# program says of a backend left out is in tests/unit/test_registry.c.
. "$(dirname "$0")/../lib.sh"

command -v make >/dev/null || skip "make not installed"
out=$(make -s -C "$ROOT" --no-print-directory print-backends \
	OPT_BACKENDS="zb:zlib:zlib1g-dev demo:dbng-no-such-library:libdemo-dev") ||
	fail "make print-backends failed: $out"
want="built: zb
not built: demo (needs libdemo-dev)"
[ "$out" = "$want" ] || fail "make print-backends said '$out', want '$want'"
echo "ok: a backend whose library is found is built, one whose is not is named"
# the default list: nfs and smb, each built here exactly when its library
# is found, and then a backend of the program
out=$(make -s -C "$ROOT" --no-print-directory print-backends) ||
	fail "make print-backends failed: $out"
built= missing=
for b in nfs:libnfs:libnfs-dev smb:smbclient:libsmbclient-dev; do
	name=${b%%:*} deb=${b##*:} pc=${b#*:}
	pc=${pc%%:*}
	if pkg-config --exists "$pc"; then
		built="$built $name"
		"$DBNG" --help | grep -q " $name (" || fail "$name is not in --help"
	else
		missing="$missing${missing:+, }$name (needs $deb)"
		"$DBNG" --help | grep -q "not built here: .*$name (needs $deb)" ||
			fail "--help does not name the missing $name backend"
	fi
done
want="built:$built
not built:${missing:+ }${missing//, / }"
[ "$out" = "$want" ] || fail "the default OPT_BACKENDS gives '$out', want '$want'"
echo "ok: the default list: $(echo "$out" | tr '\n' ' ')"
