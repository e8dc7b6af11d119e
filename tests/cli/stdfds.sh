# SPDX-License-Identifier: GPL-3.0-or-later
# Every program started with standard input, output or error closed
# (`>&-`, `2>&-`, `<&-`) gives the descriptor /dev/null before it opens
# anything, so no file it writes gets that number and its text: the JSON
# of a run, of compare and of check stays JSON, the page of report
# --html stays HTML, and the descriptor of a running dbench-ng, tbench,
# tbench_srv (also called tbench-ng and tbench-ng-srv) and dbench-ng-mpi
# is /dev/null.  Before, `dbench-ng --json r.json >&-` wrote the text
# report into r.json, with exit 0.
. "$(dirname "$0")/../lib.sh"
enter_netns "$@"
command -v python3 >/dev/null || skip "python3 not installed"

# closed FD CMD...: run CMD with descriptor FD closed, its stdout (if
# open) to /dev/null, its stderr (if open) to $TMP/err
closed() {
	local fd=$1
	shift
	case $fd in
	0) "$@" <&- >/dev/null 2>"$TMP/err" ;;
	1) "$@" >&- 2>"$TMP/err" ;;
	2) "$@" 2>&- >/dev/null ;;
	esac
}

# bg_closed FD CMD...: the same in the background, its pid in BG (killed
# on every exit path); its other output goes to /dev/null
bg_closed() {
	local fd=$1
	shift
	case $fd in
	0) "$@" <&- >/dev/null 2>&1 & ;;
	1) "$@" >&- 2>/dev/null & ;;
	2) "$@" 2>&- >/dev/null & ;;
	esac
	BG=$!
	at_exit "kill -KILL $BG"
}

# stop_bg SIG: stop $BG with SIG and wait for it (a background job of a
# script ignores SIGINT: TERM)
stop_bg() {
	kill "-$1" "$BG"
	wait "$BG" 2>/dev/null
}

# is_json FILE WHAT: FILE is one JSON document
is_json() {
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$1" 2>/dev/null ||
		fail "$2: $1 is not JSON: $(head -c 200 "$1")"
}

# null_fd PID FD WHAT [EXE]: descriptor FD of the running PID becomes
# /dev/null once PID runs EXE ($DBNG; exec done).  Waited for: the
# dynamic loader opens the libraries before main, and one of them gets
# a closed FD for a moment; before the fix the FD stayed another file.
null_fd() {
	local p=/proc/$1 l= exe=${4:-$DBNG}
	wait_until 20 eval '[ "$(readlink "$p/exe")" -ef "$exe" ] &&
		l=$(readlink "$p/fd/'"$2"'") && [ "$l" = /dev/null ]' ||
		fail "$3: descriptor $2 of pid $1 is ${l:-closed}, not /dev/null"
}

ln -s "$DBNG" "$TMP/tbench-ng"
ln -s "$DBNG" "$TMP/tbench-ng-srv"
# --no-bpf: a line on stderr, which a closed stderr's number would take
RUN=(-t 1 --warmup 0 -B null --no-bpf)
"$DBNG" "${RUN[@]}" --json "$TMP/base.json" 1 >/dev/null 2>&1 ||
	fail "the baseline run failed"
for fd in 0 1 2; do
	note "descriptor $fd closed"
	rm -f "$TMP/r.json"
	closed "$fd" "$DBNG" "${RUN[@]}" --json "$TMP/r.json" 1
	rc=$?
	[ $rc = 0 ] || fail "run: exit $rc: $(cat "$TMP/err")"
	is_json "$TMP/r.json" "run"
	echo "ok: run --json"

	rm -f "$TMP/p.html"
	expect_rc 0 closed "$fd" "$DBNG" report "$TMP/r.json" --html "$TMP/p.html"
	head -c 15 "$TMP/p.html" | grep -q '<!DOCTYPE html>' ||
		fail "report --html: $(head -c 200 "$TMP/p.html")"
	echo "ok: report --html"

	rm -f "$TMP/c.json"
	expect_rc 0 closed "$fd" "$DBNG" compare --json "$TMP/c.json" "$TMP/base.json" -- "$TMP/base.json"
	is_json "$TMP/c.json" "compare --json"
	echo "ok: compare --json"

	rm -f "$TMP"/k*.json
	closed "$fd" "$DBNG" check --baseline "$TMP/base.json" --min-runs 1 --max-runs 1 \
		--busy-ok --json "$TMP/k.json" "${RUN[@]}" 1
	rc=$?
	case $rc in 0 | 1 | 125) ;; *) fail "check: exit $rc" ;; esac
	is_json "$TMP/k.json" "check --json"
	echo "ok: check --json (exit $rc)"

	# programs that run long enough to look at their descriptors
	bg_closed "$fd" "$DBNG" -t 60 --warmup 0 -B null 1
	null_fd "$BG" "$fd" "run"
	stop_bg TERM
	echo "ok: a run's descriptor $fd is /dev/null"

	bg_closed "$fd" "$TMP/tbench-ng-srv" --bind 127.0.0.1
	srv=$BG
	wait_until 20 listening 7003 || fail "tbench-ng-srv does not listen"
	null_fd "$srv" "$fd" "tbench-ng-srv"
	rm -f "$TMP/t.json"
	closed "$fd" "$TMP/tbench-ng" -t 1 --warmup 0 --json "$TMP/t.json" 1 127.0.0.1 ||
		fail "tbench-ng: exit $?: $(cat "$TMP/err")"
	is_json "$TMP/t.json" "tbench-ng --json"
	bg_closed "$fd" "$DBNG" tbench -t 60 --warmup 0 1 127.0.0.1
	null_fd "$BG" "$fd" "tbench"
	stop_bg TERM
	BG=$srv
	stop_bg TERM
	echo "ok: tbench-ng-srv, tbench-ng and tbench"

	if [ -x "$ROOT/dbench-ng-mpi" ]; then
		# under SAN=1 no leak check: Open MPI's plugins leave
		# allocations at exit (as in mpi.sh)
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
		export ASAN_OPTIONS
		rm -f "$TMP/m.json"
		# a singleton: MPI_Init without mpirun
		closed "$fd" "$ROOT/dbench-ng-mpi" -t 1 --warmup 0 -B null \
			--json "$TMP/m.json" 1 ||
			fail "dbench-ng-mpi: exit $?: $(cat "$TMP/err")"
		is_json "$TMP/m.json" "dbench-ng-mpi --json"
		bg_closed "$fd" "$ROOT/dbench-ng-mpi" -t 60 --warmup 0 -B null 1
		null_fd "$BG" "$fd" "dbench-ng-mpi" "$ROOT/dbench-ng-mpi"
		stop_bg TERM
		echo "ok: dbench-ng-mpi"
	fi
done
echo "all programs give a closed standard descriptor /dev/null"
