# SPDX-License-Identifier: GPL-3.0-or-later
# tbench_peer.py: tbench's protocol (docs/compat.md, "tbench") for the tests'
# own clients and servers on 127.0.0.1:7003 (tests/cli/tbench_fail.sh,
# tbench_srv.sh, tbench_hostile.sh, srv_hostile.sh; PYTHONPATH=tests).
# A request is a 4-byte big-endian length N and N bytes, the first 4 the
# length M of the reply asked for; the reply is M and M bytes.
import socket
import struct

PORT = 7003


def conn(timeout=None):
    """A client's connection to the server under test."""
    c = socket.create_connection(("127.0.0.1", PORT))
    if timeout:
        c.settimeout(timeout)
    return c


def recvall(c, n, eof=False):
    """@n bytes from @c; at the end of the stream before them, None with
    @eof, else EOFError."""
    b = b""
    while len(b) < n:
        x = c.recv(min(n - len(b), 1 << 20))
        if not x:
            if eof:
                return None
            raise EOFError("closed after %d of %d bytes" % (len(b), n))
        b += x
    return b


def exchange(c, s, r):
    """One exchange of a request of @s bytes asking for @r, checked."""
    c.sendall(struct.pack(">II", s - 4, r - 4) + bytes(s - 8))
    h = recvall(c, 4)
    assert struct.unpack(">I", h)[0] == r - 4, h
    recvall(c, r - 4)


def dropped(c, what):
    """The server closed @c (it broke the protocol): say so."""
    c.settimeout(20)
    try:
        x = c.recv(1)
    except ConnectionResetError:
        x = b""
    assert x == b"", "%s: not closed: %r" % (what, x)
    print("ok: dropped:", what)


def listen(backlog=64):
    """A server's listening socket."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", PORT))
    s.listen(backlog)
    return s


def request(c):
    """The next request on @c: the length M of the reply it asks for, or
    None at the end of the stream."""
    h = recvall(c, 4, eof=True)
    if h is None:
        return None
    body = recvall(c, struct.unpack(">I", h)[0], eof=True)
    return None if body is None else struct.unpack(">I", body[:4])[0]
