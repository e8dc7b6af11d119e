#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tbench-pair.sh OUT SERVER... -- CLIENT...: a tbench server and a client
# of it, in a network namespace of their own (loopback only), as the
# tests and bench/tbench.sh run them: the server (stdout OUT.srv.out,
# stderr OUT.srv.err) is started and waited for until it listens on port
# $PORT (7003), the client runs (stdout and stderr OUT, its exit status
# in OUT.rc), the server is stopped with SIGTERM (its exit status in
# OUT.srv.rc).  Exit 0, or 1 if the server did not listen or a process
# of the namespace outlived the two (it is then killed, and named in
# OUT.left); 3 if no namespace can be made.
set -u
if [ -z "${DBNG_NETNS:-}" ]; then
	exec unshare -n env DBNG_NETNS=1 bash "$0" "$@"
fi
ip link set lo up || exit 3
out=$1
shift
srv=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	srv+=("$1")
	shift
done
shift
port=${PORT:-7003}
"${srv[@]}" >"$out.srv.out" 2>"$out.srv.err" </dev/null &
S=$!
trap 'kill -KILL $S 2>/dev/null' EXIT
for _ in $(seq 1500); do
	[ -n "$(ss -Hltn "sport = :$port")" ] && break
	kill -0 $S 2>/dev/null || break
	sleep 0.02
done
if [ -z "$(ss -Hltn "sport = :$port")" ]; then
	echo "the server does not listen on port $port" >"$out"
	exit 1
fi
"$@" >"$out" 2>&1 </dev/null
echo $? >"$out.rc"
kill -TERM $S
wait $S
echo $? >"$out.srv.rc"
trap - EXIT
# nothing of the namespace but this shell may be left (tbench_srv's
# per-connection processes end when their client has gone); builtins
# only, so that the loop sees no process of its own
left() {
	local p c
	LEFT=()
	for p in /proc/[0-9]*; do
		[ "${p#/proc/}" = $$ ] && continue
		[ "$p/ns/net" -ef /proc/$$/ns/net ] || continue
		read -r c <"$p/comm" 2>/dev/null || continue
		LEFT+=("${p#/proc/} $c")
	done
}
for _ in $(seq 250); do
	left
	[ ${#LEFT[@]} = 0 ] && exit 0
	sleep 0.02
done
printf '%s\n' "${LEFT[@]}" >"$out.left"
for l in "${LEFT[@]}"; do
	kill -KILL "${l%% *}"
done
exit 1
