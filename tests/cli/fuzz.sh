# SPDX-License-Identifier: GPL-3.0-or-later
# A short fuzzing pass (libFuzzer with ASan and UBSan): the loadfile
# parser, the option parser, the readers of stored results (JSON and
# dbench text logs) and record's strace reader and writer get mutated
# inputs from the seed corpus; any crash,
# leak, sanitizer report or hang fails the test and names the input.
# By default the pass is reproducible (a fixed seed and a fixed number of
# inputs per target, about a minute in all, at most 30 s each on a slow
# machine), so that CI sees what was seen here; FUZZ_SECS=N fuzzes N seconds per target with a random seed.
# Longer runs by hand: see tests/fuzz/README.md.
. "$(dirname "$0")/../lib.sh"

command -v clang >/dev/null || skip "clang not installed (apt-get install clang)"
SECS=${FUZZ_SECS:-}
SRC=$ROOT/src
FLAGS="-std=gnu11 -g -O1 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"

# build NAME LAYER SOURCES...: the fuzzer binary $TMP/NAME, with the
# include path of LAYER
build() {
	local name=$1 layer=$2
	shift 2
	# shellcheck disable=SC2086,SC2046 # flags, one per word
	clang $FLAGS $(make -s --no-print-directory -C "$ROOT" print-incs-"$layer") -o "$TMP/$name" \
		"$ROOT/tests/fuzz/$name.c" "$@" \
		$(pkg-config --libs zlib jansson) -lm 2>"$TMP/$name.build" ||
		{ grep -q "fuzzer" "$TMP/$name.build" &&
			skip "clang has no libFuzzer runtime (apt-get install libclang-rt-14-dev)"
		  fail "cannot build $name: $(head -5 "$TMP/$name.build")"; }
}

# fuzz NAME [-FLAG...] SEED_DIRS...: run it; a crash leaves crash-* in
# $TMP.  New inputs go to the first directory given, a private one: the
# seed directories of the tree are only read.
fuzz() {
	local name=$1 corpus=$TMP/corpus-$1 flags=()
	shift
	while [ "${1:0:1}" = - ]; do
		flags+=("$1")
		shift
	done
	mkdir -p "$corpus"
	if [ -n "$SECS" ]; then
		flags+=(-max_total_time="$SECS")
	else
		# a cap keeps the pass within 2 minutes on a slow machine
		flags+=(-seed=1 -runs="$RUNS" -max_total_time=30)
	fi
	(cd "$TMP" && ASAN_OPTIONS=detect_leaks=1 "./$name" \
		-timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
		"${flags[@]}" "$corpus" "$@" >"$TMP/$name.log" 2>&1)
	rc=$?
	if [ $rc != 0 ]; then
		tail -30 "$TMP/$name.log"
		for c in "$TMP"/crash-* "$TMP"/leak-* "$TMP"/timeout-*; do
			[ -e "$c" ] && { echo "input: $c"; od -c "$c" | head -20; }
		done
		fail "$name found a problem (exit $rc)"
	fi
	n=$(grep -m1 'stat::number_of_executed_units' "$TMP/$name.log" | awk '{print $2}')
	echo "ok: $name: $n inputs, corpus $(ls "$corpus" | wc -l) files$(
		[ -z "$SECS" ] && [ "${n:-0}" -lt "$RUNS" ] &&
			echo " (stopped by the 30 s cap, short of $RUNS)")"
}

build fuzz_loadfile workload "$SRC"/workload/{loadfile,lf_read,lf_line,lf_paths,lf_expr,imap,ops}.c \
	"$SRC"/base/{sha256,num,utf8,input}.c
# options.c prints the backends' help lines and options from the registry
build fuzz_options cli "$SRC"/cli/{options,options_help,suggest}.c "$SRC/results/config.c" \
	"$SRC/base/version.c" "$SRC"/backends/*.c "$SRC"/backends/fileio/*.c \
	"$SRC"/backends/sockio/*.c \
	$(ls "$SRC"/workload/*.c | grep -v '/builtin\.c$') "$SRC"/base/{sha256,num,utf8,input,sockopt,iobuf}.c
# shellcheck disable=SC2046 # one word per file
build fuzz_json results $(find "$SRC/results" -name '*.c' | sort) \
	"$SRC/workload/ops.c" "$SRC/workload/stock.c" "$SRC/base/file_replace.c" \
	"$SRC/base/num.c" "$SRC/base/input.c" "$SRC/base/str_clean.c" \
	"$SRC/base/utf8.c"
# the strace reader and the writer of record, and the parser that checks
# what the writer makes
build fuzz_strace record "$SRC"/record/{strace,strace_args,rec_sys,writer,writer_files,writer_names,procs,tree,lines,emit,hmap}.c \
	"$SRC"/workload/{loadfile,lf_read,lf_line,lf_paths,lf_expr,imap,ops}.c \
	"$SRC"/base/{sha256,num,utf8,input,str_clean}.c

RUNS=600000 fuzz fuzz_loadfile "$DATA/loadfiles"
RUNS=2000000 fuzz fuzz_options -close_fd_mask=3 "$ROOT/tests/fuzz/seeds/options"
RUNS=150000 fuzz fuzz_json "$ROOT/tests/fuzz/seeds/json" "$DATA/dblog"
RUNS=2000 fuzz fuzz_strace "$ROOT/tests/fuzz/seeds/strace"
echo "all fuzz targets ran clean"
