# SPDX-License-Identifier: GPL-3.0-or-later
# Bash completion (completion/dbench-ng.bash): sourced in a bash of its
# own, the completions of a few words of each of dbench-ng's names, its
# subcommands, backends and each backend's -o options, against what the
# binary's --help says.  tests/cli/package.sh checks the installed copy.
# COMPLETION=FILE and BINDIR=DIR test another copy (default: the tree's).
. "$(dirname "$0")/../lib.sh"

COMP=${COMPLETION:-$ROOT/completion/dbench-ng.bash}
[ -r "$COMP" ] || fail "no completion file $COMP"
# the programs completion runs, by their names, from BINDIR or the tree
BIN=$TMP/bin
mkdir -p "$BIN"
for n in dbench-ng tbench-ng tbench-ng-srv; do
	if [ -n "${BINDIR:-}" ]; then
		ln -s "$BINDIR/$n" "$BIN/$n"
	else
		ln -s "$DBNG" "$BIN/$n"
	fi
done
# under SAN=1 Open MPI leaves allocations at exit that LeakSanitizer
# reports (as in mpi.sh): dbench-ng-mpi's --help without the leak check,
# dbench-ng's with it
MPI=${BINDIR:-$ROOT}/dbench-ng-mpi
if [ -x "$MPI" ]; then
	printf '#!/bin/sh\nASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" exec %q "$@"\n' \
		"$MPI" >"$BIN/dbench-ng-mpi"
	chmod +x "$BIN/dbench-ng-mpi"
fi

# comp WORD...: what completing the last WORD gives, space-separated and
# sorted, as bash's programmable completion would (the line split at '='
# as COMP_WORDBREAKS does)
comp() {
	PATH=$BIN:$PATH bash --norc --noprofile -c '
		. "$1" || exit 1
		shift
		COMP_WORDS=("$@")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE}
		spec=$(complete -p "$1") || exit 1
		fn=${spec#*-F }
		fn=${fn%% *}
		"$fn" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' \
		comp "$COMP" "$@"
}

# expect "WORDS" "EXPECTED": completing WORDS ('' for an empty last word)
# gives exactly EXPECTED
expect() {
	local got
	# shellcheck disable=SC2086
	got=$(eval comp $1) || fail "completing '$1' failed"
	[ "$got" = "$2 " ] || fail "completing '$1': '$got', expected '$2'"
	echo "ok: $1 -> $2"
}
# has "WORDS" WORD...: completing WORDS offers each WORD (among others)
has() {
	local got w words=$1
	shift
	# shellcheck disable=SC2086
	got=" $(eval comp $words)"
	for w in "$@"; do
		[[ $got == *" $w "* ]] || fail "completing '$words' lacks $w: '$got'"
	done
	echo "ok: $words -> ... $*"
}

note "each name has the completion function"
for n in dbench-ng tbench-ng tbench-ng-srv dbench-ng-mpi; do
	bash --norc -c '. "$1" && complete -p "$2"' x "$COMP" "$n" >/dev/null ||
		fail "no completion for $n"
done

note "options and subcommands"
expect "dbench-ng --timel" "--timelimit="
expect "dbench-ng --show" "--show-exec"
expect "dbench-ng rep" "report"
expect "dbench-ng ''" "check compare record report run tbench tbench_srv"
expect "dbench-ng run --timel" "--timelimit="
expect "dbench-ng record --from" "--from-strace="
expect "dbench-ng record -- ech" "echo"
expect "dbench-ng compare --al" "--alpha="
expect "dbench-ng report --ht" "--html="
has "dbench-ng check --" --baseline --min-runs --timelimit= --directory=
expect "tbench-ng-srv --ma" "--max-length="
expect "dbench-ng --paths ''" "dirfd full"
expect "dbench-ng --paths = d" "dirfd"
# every long option of --help, and nothing else
want=$("$DBNG" --help | grep -Eo '^ +(-[A-Za-z], )?--[a-z][-a-z0-9]*=?' |
	grep -Eo -- '--[-a-z0-9]*=?' | sort | tr '\n' ' ')
got=$(comp dbench-ng --)
for o in $want; do
	[[ " $got" == *" $o "* ]] || fail "'dbench-ng --' lacks $o: $got"
done
echo "ok: dbench-ng -- offers the $(wc -w <<<"$want") long options of --help"

note "backends and their -o options"
has "dbench-ng -B ''" fileio null sockio
for be in nfs smb; do
	if "$DBNG" --help | grep -q "^ *$be: -o "; then
		has "dbench-ng -B ''" "$be"
	fi
done
expect "dbench-ng -o ''" "no-openat2"
expect "dbench-ng -B sockio -o p" "port="
expect "dbench-ng --backend = sockio -o ''" "port= server= tcp-options="
expect "dbench-ng -Bsockio --backend-option t" "tcp-options="
expect "tbench-ng -o s" "server="
expect "dbench-ng tbench -o ''" "port= server= tcp-options="
if "$DBNG" --help | grep -q "^ *nfs: -o "; then
	expect "dbench-ng -B nfs -o ''" "export= server= timeout= url="
fi

note "files and directories"
mkdir -p "$TMP/w/dir1" && touch "$TMP/w/file1.json"
cd "$TMP/w" || fail "cd $TMP/w"
expect "dbench-ng -D ''" "dir1"
expect "dbench-ng --json = f" "file1.json"
expect "dbench-ng -c b" "builtin:netbench"
expect "dbench-ng report ''" "dir1 file1.json"
expect "dbench-ng record -o f" "file1.json"
expect "dbench-ng record -r ''" "dir1"
[ -n "$(comp dbench-ng-mpi --js)" ] || fail "dbench-ng-mpi --js: nothing"
echo "all completion checks passed"
