# SPDX-License-Identifier: GPL-3.0-or-later
# When the stall watchdog cannot trace with BPF it says why, once, and
# explains stalls by /proc sampling as before; the JSON result records
# the method and the reason: --no-bpf; an unprivileged user (nobody); no
# kernel BTF (/dev/null bound over /sys/kernel/btf/vmlinux in a mount
# namespace of the run's own).  With CAP_BPF and CAP_PERFMON but not
# CAP_SYSLOG (nobody with those two) it traces, with raw addresses for
# stacks, and says so.  A build without libbpf says BPF is unavailable
# (make print-bpf here; the message itself is offcpu_bpf.c's).
. "$(dirname "$0")/../lib.sh"

need_bpf
command -v setpriv >/dev/null || skip "setpriv (util-linux) not installed"
command -v unshare >/dev/null || skip "unshare (util-linux) not installed"

# a lock held 300 ms at a time by one of two clients: every LockX of the
# other one is a stall
shared_lock_load
chmod 755 "$TMP"
chmod 644 "$TMP/lock.load"
mkdir -p "$TMP/d" "$TMP/nb"
chown 65534:65534 "$TMP/nb"

# method JSON: "METHOD NOTE" of its stalls, and whether events have
# off-CPU figures ("traced" / "sampled")
method() {
	python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))["stalls"]
ev = s["events"]
kind = "none" if not ev else "traced" if all(e["offcpu"] for e in ev) \
    else "sampled" if not any(e["offcpu"] for e in ev) else "mixed"
print(s["method"], kind, s["method_note"] or "")' "$1"
}

note "--no-bpf: said once, /proc sampling, recorded"
expect_rc 0 "$DBNG" -t 1 --warmup 0 --runs 2 --no-bpf -c "$TMP/lock.load" \
	--json "$TMP/nobpf.json" -D "$TMP/d" 2 >"$TMP/out" 2>"$TMP/err"
cat "$TMP/err"
[ "$(grep -c 'BPF' "$TMP/err")" = 1 ] || fail "not said once: $(cat "$TMP/err")"
grep -qx 'dbench-ng: BPF tracing off (--no-bpf): stalls get /proc sampling only' \
	"$TMP/err" || fail "the --no-bpf line is not the one expected"
m=$(method "$TMP/nobpf-2.json")
[ "$m" = "proc sampled --no-bpf" ] || fail "JSON says '$m'"
grep -q '"no_bpf": true' "$TMP/nobpf-2.json" || fail "no_bpf not in the config"
grep -q '^  no BPF tracing (--no-bpf): the stacks above are /proc samples only$' \
	"$TMP/out" || fail "the report does not say how stalls were explained"
grep -q 'fcntl_setlk' "$TMP/out" || fail "no /proc stack in the samples"

note "an unprivileged user: said once with the reason, /proc sampling"
setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	--ambient-caps=-all "$DBNG" -t 1 --warmup 0 --runs 2 \
	-c "$TMP/lock.load" --json "$TMP/nb/user.json" -D "$TMP/nb" 2 \
	>"$TMP/out" 2>"$TMP/err" || fail "exit $? as nobody: $(cat "$TMP/err")"
cat "$TMP/err"
[ "$(grep -c 'BPF' "$TMP/err")" = 1 ] || fail "not said once: $(cat "$TMP/err")"
# nobody runs --paths full in a user namespace of its own (docs/safety.md)
why='no privilege to load BPF programs (needs root, or CAP_BPF and CAP_PERFMON, which a run with --paths full gives up without root in its user namespace: --paths dirfd keeps them)'
grep -qxF "dbench-ng: BPF tracing unavailable: $why; stalls get /proc sampling only" \
	"$TMP/err" || fail "the line for no privilege is not the one expected"
m=$(method "$TMP/nb/user-2.json")
[ "$m" = "proc sampled $why" ] || fail "JSON says '$m'"

note "no kernel BTF: said with the reason, /proc sampling"
unshare -m --propagation private sh -c \
	'mount --bind /dev/null /sys/kernel/btf/vmlinux && exec "$@"' sh \
	"$DBNG" -t 1 --warmup 0 -c "$TMP/lock.load" --json "$TMP/nobtf.json" \
	-D "$TMP/d" 2 >"$TMP/out" 2>"$TMP/err" || fail "exit $?: $(cat "$TMP/err")"
cat "$TMP/err"
grep -qxF 'dbench-ng: BPF tracing unavailable: the kernel has no usable BTF (/sys/kernel/btf/vmlinux); stalls get /proc sampling only' \
	"$TMP/err" || fail "the line for no BTF is not the one expected"
m=$(method "$TMP/nobtf.json")
[ "${m%% *}" = proc ] || fail "JSON says '$m'"
[ -s /sys/kernel/btf/vmlinux ] || fail "the bind mount leaked out of its namespace"

note "CAP_BPF and CAP_PERFMON in --paths full: the run's user namespace drops them, said"
# without root, --paths full enters a user namespace of the run's own
# (docs/safety.md), where the capabilities count for nothing to bpf()
setpriv --reuid=65534 --regid=65534 --clear-groups \
	--inh-caps=-all,+bpf,+perfmon --ambient-caps=-all,+bpf,+perfmon \
	"$DBNG" -t 1 --warmup 0 -c "$TMP/lock.load" \
	-D "$TMP/nb" 2 >"$TMP/out" 2>"$TMP/err" ||
	fail "exit $? as nobody with caps, --paths full: $(cat "$TMP/err")"
grep -qxF "dbench-ng: BPF tracing unavailable: $why; stalls get /proc sampling only" \
	"$TMP/err" || fail "no reason naming the user namespace: $(cat "$TMP/err")"
echo "ok: $(grep BPF "$TMP/err")"

note "CAP_BPF and CAP_PERFMON without CAP_SYSLOG: traced, raw addresses"
setpriv --reuid=65534 --regid=65534 --clear-groups \
	--inh-caps=-all,+bpf,+perfmon --ambient-caps=-all,+bpf,+perfmon \
	"$DBNG" -t 2 --warmup 0 -c "$TMP/lock.load" --paths dirfd \
	--json "$TMP/nb/caps.json" -D "$TMP/nb" 2 >"$TMP/out" 2>"$TMP/err" ||
	fail "exit $? as nobody with caps: $(cat "$TMP/err")"
! grep -q BPF "$TMP/err" || fail "a BPF message: $(cat "$TMP/err")"
m=$(method "$TMP/nb/caps.json")
case $m in
"bpf traced BPF stacks are raw addresses: /proc/kallsyms shows no addresses (needs CAP_SYSLOG)") ;;
"bpf none "*) skip "no stall in 2 s as nobody: nothing to check (machine too slow?)" ;;
*) fail "JSON says '$m'" ;;
esac
grep -Eq 'woken by client [01] \(pid [0-9]+\) in 0x[0-9a-f]+;' "$TMP/out" ||
	fail "no waker with a raw stack: $(sed -n '/^ Stalls/,/^$/p' "$TMP/out")"

note "a build without libbpf says so"
out=$(make -s -C "$ROOT" --no-print-directory print-bpf BPF_PKG=dbng-no-such-lib)
[ "$out" = "bpf: not built (needs libbpf-dev, clang, bpftool)" ] ||
	fail "make print-bpf said '$out'"
out=$(make -s -C "$ROOT" --no-print-directory print-bpf NO_BPF=1)
[ "$out" = "bpf: not built (needs libbpf-dev, clang, bpftool)" ] ||
	fail "make print-bpf NO_BPF=1 said '$out'"
echo "all fallback checks passed"
