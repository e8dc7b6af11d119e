#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Install the Debian packages dbench-ng needs to build and test.
# Idempotent and quick: asks dpkg first and calls apt-get only for what is
# missing.  Usage: scripts/install-deps.sh [build|check|quick|lint]
set -e
what=${1:-build}

# build: compiler, pkg-config, libraries linked into dbench-ng (libnfs for
# the nfs backend; the SMB client library for the smb backend, built when
# it is found); libbpf, clang and bpftool for the BPF tracing of stalls
# (the build leaves it out without them, and the program then says BPF is
# unavailable); Open MPI (its development files and mpirun) for
# dbench-ng-mpi (docs/mpi.md)
pkgs="gcc make pkg-config libc6-dev zlib1g-dev libjansson-dev libnfs-dev \
      libsmbclient-dev libopenmpi-dev openmpi-bin libbpf-dev clang bpftool"
# lint: make lint's static analyser and the man page's linter
[ "$what" = lint ] && pkgs="cppcheck mandoc"
# quick: what make check-quick's tests need beyond the build (the unit
# tests' framework, python3, dbench 4.0's loadfile and program); without
# chromium html.sh is skipped
[ "$what" = quick ] && pkgs="$pkgs libcmocka-dev python3 dbench"
if [ "$what" = check ]; then
	# check: unit-test framework, the dbench 4.0 peer, filesystems for
	# the loop-mounted tests, mount/losetup/findmnt, pgrep, a headless
	# browser that renders the HTML pages (the tests read them over its
	# DevTools pipe: tests/cdp.py), FUSE for faultfs, clang and
	# its libFuzzer runtime for the fuzz targets and CI's second compiler,
	# python3 for the tests' checks of JSON results, cppcheck for make
	# lint (CI), iproute2 (ip, ss) for the network namespaces of the
	# MPI, tbench, NFS and SMB tests, a private NFS server (nfs-ganesha
	# with its VFS FSAL, the rpcbind NFSv3 needs), a private smbd, the
	# Debian packaging tools for the package test (make deb)
	pkgs="$pkgs libcmocka-dev dbench e2fsprogs btrfs-progs xfsprogs \
	      util-linux procps strace chromium libfuse3-dev fuse3 \
	      clang libclang-rt-14-dev python3 cppcheck mandoc \
	      nfs-ganesha nfs-ganesha-vfs rpcbind samba smbclient iproute2 \
	      dpkg-dev debhelper lintian"
fi

missing=""
for p in $pkgs; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*"install ok installed"*) ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing Debian packages:$missing" >&2
	echo "install-deps: run as root, or: sudo apt-get install$missing" >&2
	exit 1
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
# wait (up to 10 minutes) for another apt or dpkg run to finish instead of
# failing at once on its lock
lock=DPkg::Lock::Timeout=600
apt-get -o "$lock" update -qq >/dev/null || apt-get -o "$lock" update
apt-get -o "$lock" install -y -qq --no-install-recommends $missing >/dev/null ||
	apt-get -o "$lock" install -y --no-install-recommends $missing
