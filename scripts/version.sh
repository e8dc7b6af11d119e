#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# version.sh - the version of a dbench-ng source tree, printed as
# "VERSION COMMIT" (COMMIT left out when it is not known); docs/install.md.
#   VERSION  X.Y.Z, the release: from the newest tag vX.Y.Z that HEAD
#            descends from, X.Y.Z+N when HEAD is N commits past it;
#            without such a tag, the top entry of NEWS.md ("## X.Y.Z ...")
#   COMMIT   HEAD's abbreviated commit id, with -dirty when a tracked
#            file differs from it
# A tree without git (a tarball of make dist, the copy make deb builds)
# has both in its file VERSION, which make dist writes and git never
# tracks: that file, when present, is the answer.
# Usage: scripts/version.sh [SRCDIR]   (default: the tree of this script)
set -eu
src=${1:-$(cd "$(dirname "$0")/.." && pwd)}

if [ -f "$src/VERSION" ]; then
	read -r v c <"$src/VERSION" || true
	[ -n "${v:-}" ] || { echo "version.sh: $src/VERSION is empty" >&2; exit 1; }
	echo "$v${c:+ $c}"
	exit 0
fi

# the release of the top entry of NEWS.md
news=$(sed -n 's/^## \([0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*\)\([^0-9.].*\)*$/\1/p' \
	"$src/NEWS.md" 2>/dev/null | head -1)

# git, only if SRCDIR is the top of its own work tree (not a tarball
# unpacked inside some other repository)
top=$(git -C "$src" rev-parse --show-toplevel 2>/dev/null || true)
if [ -n "$top" ] && [ "$(cd "$top" && pwd -P)" = "$(cd "$src" && pwd -P)" ]; then
	c=$(git -C "$src" rev-parse --short=7 HEAD 2>/dev/null || true)
	if [ -n "$c" ] &&
		[ -n "$(git -C "$src" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
		c=$c-dirty
	fi
	# vX.Y.Z-N-gHASH
	d=$(git -C "$src" describe --tags --long --match 'v[0-9]*.[0-9]*.[0-9]*' HEAD 2>/dev/null || true)
	n=${d%-g*}
	n=${n##*-}
	t=${d%-*-g*}
	t=${t#v}
	if printf '%s\n' "$t" | grep -Eqx '[0-9]+\.[0-9]+\.[0-9]+'; then
		v=$t
		[ "$n" = 0 ] || v=$v+$n
	else
		v=$news
	fi
else
	c=
	v=$news
fi
[ -n "$v" ] || { echo "version.sh: no tag vX.Y.Z and no '## X.Y.Z' entry in $src/NEWS.md" >&2; exit 1; }
echo "$v${c:+ $c}"
