#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# tbench-idle.py N HOST PORT: open N connections to a tbench server, make
# tbench's handshake on each (8 bytes there: N=4, M=4; 8 back), say
# "ready N" on stdout, then hold them all, idle, until stdin closes or a
# signal ends it (bench/tbench-idle.sh).  The soft limit of open files is
# raised as far as N needs and the hard limit allows; if it cannot be,
# it says so and exits 3.
import resource
import socket
import struct
import sys


def main():
    if len(sys.argv) != 4:
        sys.stderr.write("usage: tbench-idle.py N HOST PORT\n")
        return 2
    n, host, port = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    need = n + 64
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < need:
        sys.stderr.write("tbench-idle.py: %d connections need %d open "
                         "files, the hard limit is %d\n" % (n, need, hard))
        return 3
    if soft != resource.RLIM_INFINITY and soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (need, hard))
    socks = []
    hello = struct.pack(">II", 4, 4)
    for i in range(n):
        try:
            s = socket.create_connection((host, port))
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            s.sendall(hello)
            got = b""
            while len(got) < 8:
                b = s.recv(8 - len(got))
                if not b:
                    raise OSError("the server closed connection %d" % i)
                got += b
            if struct.unpack(">I", got[:4])[0] != 4:
                raise OSError("connection %d: bad handshake reply" % i)
        except OSError as e:
            sys.stderr.write("tbench-idle.py: after %d connections: %s\n"
                             % (i, e))
            return 3
        socks.append(s)
    print("ready %d" % n, flush=True)
    sys.stdin.read()  # until the script closes it
    return 0


if __name__ == "__main__":
    sys.exit(main())
