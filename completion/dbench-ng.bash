# SPDX-License-Identifier: GPL-3.0-or-later
# dbench-ng.bash - bash completion of dbench-ng, dbench-ng-mpi, tbench-ng
# and tbench-ng-srv (docs/install.md, "Shell completion").
#
# The options, the backends and each backend's -o options are read from
# the program's own --help (once per program and subcommand in a shell),
# so the completion is that of the binary being completed, with the
# backends it was built with.  It needs bash alone, not the
# bash-completion package, which loads it by command name from
# .../share/bash-completion/completions/.

# _dbng_help PROG [SUB]: "PROG [SUB] --help", kept in _dbng_cache
_dbng_help()
{
	local key="$*"
	declare -gA _dbng_cache
	if [[ -z ${_dbng_cache[$key]+set} ]]; then
		_dbng_cache[$key]=$("$@" --help 2>/dev/null </dev/null)
	fi
	printf '%s\n' "${_dbng_cache[$key]}"
}

# _dbng_opts: the options of a --help text on stdin, one a line: every
# leading -x and --long of an option line, a value-taking long one as
# --long=, and the long aliases of the backends' -o options
_dbng_opts()
{
	awk '
	function take(w) {
		sub(/,$/, "", w)
		if (w ~ /^--[A-Za-z0-9][-A-Za-z0-9]*\[/)
			sub(/\[.*/, "", w)
		if (w ~ /^--[A-Za-z0-9][-A-Za-z0-9]*=/)
			sub(/=.*/, "=", w)
		if (w ~ /^-[A-Za-z0-9]$/ || w ~ /^--[A-Za-z0-9][-A-Za-z0-9]*=?$/)
			print w
	}
	/^ +-/ {
		for (i = 1; i <= NF && $i ~ /^-/; i++)
			take($i)
	}
	/^ +[a-z0-9_]+: -o / {
		for (i = 4; i <= NF; i++)
			if ($i ~ /^--/)
				take($i)
	}'
}

# _dbng_backends: the backend names of the -B line of a --help text
_dbng_backends()
{
	awk '/--backend=NAME/ {
		s = $0
		sub(/.*--backend=NAME */, "", s)
		while (match(s, /[a-z0-9_]+ \(/)) {
			print substr(s, RSTART, RLENGTH - 2)
			s = substr(s, RSTART + RLENGTH)
			depth = 1
			while (depth > 0 && length(s) > 0) {
				c = substr(s, 1, 1)
				s = substr(s, 2)
				if (c == "(")
					depth++
				else if (c == ")")
					depth--
			}
		}
	}'
}

# _dbng_bopts BACKEND: that backend's -o options (NAME or NAME=)
_dbng_bopts()
{
	awk -v be="$1" '$1 == be ":" && $2 == "-o" {
		w = $3
		sub(/,$/, "", w)
		sub(/=.*/, "=", w)
		print w
	}'
}

# _dbng_reply CUR WORD...: COMPREPLY gets the WORDs that start with CUR;
# no space after one that ends in '='
_dbng_reply()
{
	local cur=$1 w
	shift
	COMPREPLY=()
	for w in "$@"; do
		[[ $w == "$cur"* ]] || continue
		COMPREPLY+=("$w")
		[[ $w == *= ]] && compopt -o nospace 2>/dev/null
	done
}

# _dbng_files CUR [-d]: file (or, with -d, directory) names
_dbng_files()
{
	local IFS=$'\n'
	compopt -o filenames 2>/dev/null
	# shellcheck disable=SC2207
	COMPREPLY=($(compgen "${2:--f}" -- "$1"))
}

_dbench_ng()
{
	local prog=$1 cur prev i help sub="" backend=""
	local words=("${COMP_WORDS[@]:0:COMP_CWORD+1}")
	cur=${words[COMP_CWORD]}
	prev=${words[COMP_CWORD - 1]}
	# --opt=VALUE: bash splits at '=' (COMP_WORDBREAKS)
	if [[ $cur == = ]]; then
		prev=${words[COMP_CWORD - 1]}=
		cur=""
	elif [[ $prev == = && $COMP_CWORD -ge 2 ]]; then
		prev=${words[COMP_CWORD - 2]}=
	fi
	case ${prog##*/} in
	tbench-ng) sub=tbench ;;
	tbench-ng-srv) sub=tbench_srv ;;
	esac
	# the subcommand, and the backend chosen so far
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${words[i]} in
		run | report | compare | check | tbench | tbench_srv | record)
			[[ $i == 1 && -z $sub ]] && sub=${words[i]} ;;
		-B | --backend)
			if [[ ${words[i + 1]} == = ]]; then
				backend=${words[i + 2]}
			else
				backend=${words[i + 1]}
			fi ;;
		--backend=?*) backend=${words[i]#--backend=} ;;
		-B?*) backend=${words[i]#-B} ;;
		esac
	done
	[[ -n $backend ]] || backend=fileio
	[[ $sub == tbench && $backend == fileio ]] && backend=sockio
	[[ $sub == run ]] && sub=""
	help=$(_dbng_help "$prog" ${sub:+"$sub"})
	[[ $sub == check ]] && help+=$'\n'$(_dbng_help "$prog")

	# record: its own -o and -r, and a command after --
	if [[ $sub == record ]]; then
		for ((i = 2; i < COMP_CWORD; i++)); do
			if [[ ${words[i]} == -- ]]; then
				if ((i == COMP_CWORD - 1)); then
					# shellcheck disable=SC2207
					COMPREPLY=($(compgen -c -- "$cur" | sort -u))
				else
					_dbng_files "$cur"
				fi
				return
			fi
		done
		case $prev in
		-o | --output | --output= | --from-strace | --from-strace= | \
			--setup | --setup=)
			_dbng_files "$cur"
			return ;;
		-r | --root | --root= | --cwd | --cwd=)
			_dbng_files "$cur" -d
			return ;;
		-p | --pid | --pid= | --buffer | --buffer=)
			COMPREPLY=()
			return ;;
		esac
	fi
	case $prev in
	-D | --directory | --directory=)
		_dbng_files "$cur" -d
		return ;;
	-c | --loadfile | --loadfile=)
		_dbng_files "$cur"
		[[ builtin:netbench == "$cur"* ]] && COMPREPLY+=(builtin:netbench)
		return ;;
	--json | --json= | -j | --html | --html= | --baseline | \
		--baseline= | --credentials=)
		_dbng_files "$cur"
		return ;;
	-B | --backend | --backend=)
		# shellcheck disable=SC2046
		_dbng_reply "$cur" $(_dbng_backends <<<"$help")
		return ;;
	-o | --backend-option | --backend-option=)
		# shellcheck disable=SC2046
		_dbng_reply "$cur" $(_dbng_bopts "$backend" <<<"$help")
		return ;;
	--paths | --paths=)
		_dbng_reply "$cur" full dirfd
		return ;;
	-t | --timelimit | --timelimit= | --warmup | --warmup= | -R | \
		--target-rate | --target-rate= | --runs | --runs= | -p | \
		--port | --port= | --threads | --threads= | -b | --bind | \
		--bind= | --server | --server= | --nfs | --nfs= | --export | \
		--export= | --smb-share | --smb-share= | --smb-user | \
		--smb-user= | -T | --tcp-options | --tcp-options= | \
		--stall-threshold | --stall-threshold= | --percentiles | \
		--percentiles= | --clients-per-process | --clients-per-process=)
		COMPREPLY=()
		return ;;
	esac
	if [[ $cur == -* ]]; then
		# shellcheck disable=SC2046
		_dbng_reply "$cur" $(_dbng_opts <<<"$help" | sort -u)
	elif [[ $COMP_CWORD == 1 && -z $sub && ${prog##*/} == dbench-ng ]]; then
		_dbng_reply "$cur" run report compare check tbench tbench_srv record
	elif [[ $sub == report || $sub == compare || $prev == --baseline ]]; then
		_dbng_files "$cur"
	else
		COMPREPLY=()
	fi
}

complete -F _dbench_ng dbench-ng dbench-ng-mpi tbench-ng tbench-ng-srv
