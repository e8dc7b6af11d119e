# SPDX-License-Identifier: GPL-3.0-or-later
# A private smbd for the smb backend's test and bench/smb.sh (source it
# first; its functions use lib.sh's at_exit, fail, skip and wait_until):
#   netns_enter "$@"   first thing in a script, before lib.sh: re-run the
#                      script inside a network namespace of its own
#                      (unshare -n), where another test's servers and ports
#                      are not; its loopback is brought up by netns_lo
#   netns_lo           after lib.sh: skip unless in that namespace, lo up
#   start_smbd DIR     smbd on 127.0.0.1:4450 with a config, state and a
#                      share (DIR/share, as //127.0.0.1:4450/share) all in
#                      DIR, user root, password in SMB_PW; SMBD its pid,
#                      SMB_SHARE the share's directory; stopped on exit
#   smb_test_share DIR for a test, after lib.sh: skip unless this build
#                      has the smb backend and the namespace is there, then
#                      start_smbd DIR; S and U the options naming the share
#                      and its user (--smb-share=..., --smb-user=root%PW)
#   stop_smbd          stop it now (by its pid) and wait until every smbd
#                      process of its config is gone
# Nothing is written outside DIR: no /etc/samba, /var/lib/samba,
# /var/cache/samba, /run/samba (docs/smb.md).

# a SAN=1 build: the client libraries' own lifelong allocations are no
# leak of ours
export LSAN_OPTIONS="suppressions=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lsan-smb.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

SMB_PW=dbng-pw
SMB_PORT=4450

netns_enter() {
	if [ -z "${DBNG_NETNS:-}" ] && [ "$(id -u)" = 0 ] &&
		unshare -n true 2>/dev/null; then
		DBNG_NETNS=$$ exec unshare -n bash "$0" "$@"
	fi
}

netns_lo() {
	[ "$(id -u)" = 0 ] || skip "needs root (a network namespace for a private server)"
	[ -n "${DBNG_NETNS:-}" ] ||
		skip "cannot make a network namespace (unshare -n failed)"
	ip link set lo up || skip "cannot bring up lo in the network namespace"
}

start_smbd() {
	local d=$1
	for t in smbd smbpasswd smbclient; do
		command -v "$t" >/dev/null ||
			skip "$t not installed (apt-get install samba smbclient)"
	done
	mkdir -p "$d"/{lock,state,cache,pid,private,ncalrpc,log,share}
	chmod 0777 "$d/share"
	SMB_CONF=$d/smb.conf
	SMB_SHARE=$d/share
	cat >"$SMB_CONF" <<EOF
[global]
  server role = standalone server
  interfaces = lo
  bind interfaces only = yes
  smb ports = $SMB_PORT
  disable netbios = yes
  lock directory = $d/lock
  state directory = $d/state
  cache directory = $d/cache
  pid directory = $d/pid
  private dir = $d/private
  ncalrpc dir = $d/ncalrpc
  passdb backend = tdbsam:$d/private/passdb.tdb
  log file = $d/log/log.%m
  load printers = no
  printcap name = /dev/null
  disable spoolss = yes
[share]
  path = $d/share
  read only = no
${SMB_SHARE_EXTRA:-}
EOF
	printf '%s\n%s\n' "$SMB_PW" "$SMB_PW" |
		smbpasswd -c "$SMB_CONF" -s -a root >/dev/null ||
		fail "smbpasswd could not add root"
	# not --no-process-group: smbd's shutdown would signal our group
	smbd -F -s "$SMB_CONF" >"$d/log/stdout" 2>&1 &
	SMBD=$!
	at_exit stop_smbd
	wait_until 30 smbclient -s "$SMB_CONF" "//127.0.0.1/share" \
		-p "$SMB_PORT" -U "root%$SMB_PW" -c ls >/dev/null 2>&1 ||
		fail "smbd did not answer in 30 s: $(tail -5 "$d/log/stdout")"
}

# every smbd of this test's config (its children exit by themselves)
smb_test_share() {
	"$DBNG" --help | grep -q ' smb (' ||
		skip "this build has no smb backend (apt-get install libsmbclient-dev, then make)"
	netns_lo
	start_smbd "$1"
	S=--smb-share=//127.0.0.1:$SMB_PORT/share
	U=--smb-user=root%$SMB_PW
}

smbd_pids() { pgrep -f -- "-s $SMB_CONF" 2>/dev/null; }
smbd_gone() { [ -z "$(smbd_pids)" ]; }

stop_smbd() {
	[ -n "${SMBD:-}" ] || return 0
	kill -TERM "$SMBD" 2>/dev/null
	wait "$SMBD" 2>/dev/null
	SMBD=
	wait_until 10 smbd_gone ||
		fail "smbd processes left after its stop: $(smbd_pids)"
}
