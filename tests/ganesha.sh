# SPDX-License-Identifier: GPL-3.0-or-later
# A private NFSv3 server for the tests and bench/nfs.sh: nfs-ganesha
# (FSAL_VFS) and the rpcbind NFSv3 needs, in namespaces of the script's
# own.  Source it first, before lib.sh:
#   ganesha_ns "$@"      re-run the script in a new network namespace (its
#                        own port 111, 2049, 20048: other tests' servers
#                        are not there) and mount namespace (a private
#                        tmpfs on /run: rpcbind's socket /run/rpcbind.sock,
#                        its lock, the /run/ganesha ganesha makes; nothing
#                        of it reaches the host's /run); no-op if that
#                        cannot be done (ganesha_start then skips)
# then, after lib.sh:
#   ganesha_start DIR    skip (exit 77) unless root, the namespaces, the
#                        daemons and the nfs backend are there; else lo up,
#                        rpcbind, then ganesha exporting DIR/export, all its
#                        files in DIR (config, log, pid, recovery), and wait
#                        until both answer.  Sets RPCBIND and GANESHA (pids),
#                        NFS_EXPORT (the directory), NFS_URL
#                        (nfs://127.0.0.1/DIR/export).  Both are stopped by
#                        their pid on every exit path (at_exit)
#   ganesha_stop         stop ganesha now (TERM, then KILL), wait for it
#   ganesha_gone         no ganesha of this test's config is left
# Docs: docs/nfs.md.

ganesha_ns() {
	if [ -z "${DBNG_GANESHA_NS:-}" ] && [ "$(id -u)" = 0 ] &&
		unshare -n -m --propagation private true 2>/dev/null; then
		DBNG_GANESHA_NS=1 exec unshare -n -m --propagation private \
			bash "$0" "$@"
	fi
}

ganesha_start() {
	local d=$1 t
	[ "$(id -u)" = 0 ] || skip "needs root (a private NFS server in namespaces)"
	[ -n "${DBNG_GANESHA_NS:-}" ] ||
		skip "cannot make a network and mount namespace (unshare -n -m failed)"
	"$DBNG" --help | grep -q ' nfs (' ||
		skip "this build has no nfs backend (apt-get install libnfs-dev, then make)"
	for t in ganesha.nfsd rpcbind rpcinfo; do
		command -v "$t" >/dev/null ||
			skip "$t not installed (apt-get install nfs-ganesha nfs-ganesha-vfs rpcbind)"
	done
	[ -e /usr/lib/x86_64-linux-gnu/ganesha/libfsalvfs.so ] ||
		ls /usr/lib/*/ganesha/libfsalvfs.so >/dev/null 2>&1 ||
		skip "ganesha's VFS FSAL is not installed (apt-get install nfs-ganesha-vfs)"
	ip link set lo up || skip "cannot bring lo up in the network namespace"
	# the private /run: in this mount namespace only, gone with it
	mount -t tmpfs -o size=8m,mode=0755 dbng-run /run ||
		skip "cannot mount a private tmpfs on /run"
	mkdir -p "$d/export" "$d/recov"
	NFS_EXPORT=$d/export
	NFS_URL=nfs://127.0.0.1$NFS_EXPORT
	GANESHA_DIR=$d
	cat >"$d/ganesha.conf" <<EOF
NFS_CORE_PARAM {
	Protocols = 3;
	Enable_NLM = false;
	Enable_RQUOTA = false;
	Enable_UDP = false;
	Plugins_Dir = $(dirname "$(ls /usr/lib/*/ganesha/libfsalvfs.so | head -1)");
}
NFSV4 {
	RecoveryBackend = fs;
	RecoveryRoot = $d/recov;
	Graceless = true;
	Grace_Period = 0;
}
NFS_KRB5 { Active_krb5 = false; }
LOG { Default_Log_Level = EVENT; }
${GANESHA_CACHE:+#}MDCACHE { Dir_Chunk = 0; }
EXPORT {
	${GANESHA_CACHE:+#}Attr_Expiration_Time = 0;
	Export_Id = 1;
	Path = $NFS_EXPORT;
	Pseudo = /export;
	Access_Type = RW;
	Squash = No_Root_Squash;
	Protocols = 3;
	Transports = TCP;
	SecType = sys;
	FSAL { Name = VFS; }
}
EOF
	rpcbind -f >"$d/rpcbind.out" 2>&1 &
	RPCBIND=$!
	at_exit ganesha_stop_all
	wait_until 30 rpcinfo -p 127.0.0.1 >/dev/null 2>&1 ||
		fail "rpcbind did not answer in 30 s: $(cat "$d/rpcbind.out")"
	ganesha_run
}

# ganesha_run: start ganesha (again) on the config of ganesha_start
ganesha_run() {
	local d=$GANESHA_DIR
	: >"$d/ganesha.log"
	ganesha.nfsd -F -f "$d/ganesha.conf" -L "$d/ganesha.log" \
		-p "$d/ganesha.pid" -N NIV_EVENT >"$d/ganesha.out" 2>&1 &
	GANESHA=$!
	wait_until 30 ganesha_ready ||
		fail "ganesha did not answer in 30 s: $(tail -5 "$d/ganesha.log")"
}

ganesha_ready() {
	grep -q 'NFS SERVER INITIALIZED' "$GANESHA_DIR/ganesha.log" 2>/dev/null &&
		rpcinfo -p 127.0.0.1 2>/dev/null | grep -q ' nfs$'
}

ganesha_gone() { ! pgrep -f -- "-f $GANESHA_DIR/ganesha.conf" >/dev/null; }

ganesha_stop() {
	[ -n "${GANESHA:-}" ] || return 0
	kill -CONT "$GANESHA" 2>/dev/null
	kill -TERM "$GANESHA" 2>/dev/null
	wait_until 10 ganesha_exited || kill -KILL "$GANESHA" 2>/dev/null
	wait "$GANESHA" 2>/dev/null
	GANESHA=
}

# ganesha has exited (a zombie of ours counts: wait reaps it)
ganesha_exited() {
	local s
	s=$(awk '{print $3}' "/proc/$GANESHA/stat" 2>/dev/null) || return 0
	[ "$s" = Z ]
}

ganesha_stop_all() {
	ganesha_stop
	if [ -n "${RPCBIND:-}" ]; then
		kill -TERM "$RPCBIND" 2>/dev/null
		wait "$RPCBIND" 2>/dev/null
		RPCBIND=
	fi
}

# ganesha_syncs ARGS...: how many fsync/fdatasync calls ganesha made during
# "$DBNG -B nfs $U ARGS... 1" (which must exit 0), traced with strace
ganesha_traced() { ! grep -q '^TracerPid:[[:space:]]*0$' /proc/"$GANESHA"/task/*/status; }
ganesha_syncs() {
	local st
	strace -f -qq -e trace=fsync,fdatasync -o "$TMP/strace.out" -p "$GANESHA" 2>"$TMP/strace.err" &
	st=$!
	at_exit "kill $st"
	wait_until 30 ganesha_traced || fail "strace did not attach to ganesha: $(cat "$TMP/strace.err")"
	expect_rc 0 "$DBNG" -B nfs "$U" "$@" 1 >"$TMP/out"
	kill "$st"
	wait "$st" 2>/dev/null
	grep -cE '(fsync|fdatasync)\(' "$TMP/strace.out"
}
