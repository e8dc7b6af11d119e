#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# make lint: no tracked file names a path of the machine it was made on.
# Refused: home and work directories (/home/NAME, /root/, /Users/,
# /work/) and the names mktemp gave on a build machine (/tmp/NAME.SUFFIX,
# SUFFIX six or more random letters or digits): write /path/to/dbench-ng,
# $TMP, or mktemp's template (/tmp/dbng-bench.XXXXXX) instead.  Every
# other absolute path is allowed: /usr/share/dbench/client.txt, /proc,
# /sys, /dev, /etc, /tmp/NAME of an example ..., and the placeholder
# /home/USER (or /home/user, /home/u).  Usage: scripts/lint-paths.sh [FILE...]
# (default: the files git tracks); exit 1 with FILE:LINE for each.
cd "$(dirname "$0")/.." || exit 2
[ $# -gt 0 ] || set -- $(git ls-files | grep -vx scripts/lint-paths.sh)
# a path begins after a blank, a quote, a bracket, '=', ':' or ','
pre='(^|[][[:space:]"'"'"'`(=:,])'
home='/(home/[A-Za-z0-9_.-]+|root|Users|work)/'
tmp='/tmp/[A-Za-z0-9_-]+\.[A-Za-z0-9]{6,}'
found=$({
	grep -nIE -- "$pre$home" "$@" | grep -vE -- "$pre/home/(USER|user|[a-z])/"
	grep -nIE -- "$pre$tmp" "$@" |
		grep -vE -- "$pre/tmp/[A-Za-z0-9_-]+\.X{6,}([^A-Za-z0-9]|\$)"
} 2>/dev/null)
[ -z "$found" ] && exit 0
echo "$found" | cut -c1-200 >&2
echo "lint-paths: paths of a build machine in tracked files (above)" >&2
exit 1
