#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""symlink_racer.py - plant symlinks under DIR during a run (tests/cli/racer.sh).

    symlink_racer.py DIR CANARY SECONDS GO

For SECONDS (or until SIGTERM), while the file GO exists (else it makes
GO.paused and waits: the test clears DIR between runs), over and over and
in a random order:
  * swaps a directory found anywhere under DIR/clients (a client's own
    directory too) for a symlink to a directory of CANARY: the directory is
    renamed aside within DIR, the link put in its place, and a moment
    later the link taken away and the directory put back (or removed, if
    the benchmark made it anew);
  * plants dangling symlinks into CANARY at the names the loadfile creates
    (an open(O_CREAT) or a mkdir that followed one would create in CANARY);
  * plants symlinks to CANARY's files at the names the loadfile writes,
    truncates, renames and unlinks.
It never writes in CANARY itself: whatever changes there was done by
someone following one of its links.  It prints how many links it planted.
"""
import os
import random
import shutil
import signal
import sys
import time

stop = False


def on_term(_sig, _frm):
    global stop
    stop = True


def quiet(fn, *args):
    try:
        fn(*args)
        return True
    except OSError:
        return False


def dirs_under(top):
    """Every directory below top (not top), deepest last."""
    out = []
    for root, dirs, _files in os.walk(top, followlinks=False):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for d in dirs:
            p = os.path.join(root, d)
            if not os.path.islink(p):
                out.append(p)
    return out


def main():
    top, canary, secs, go = sys.argv[1], sys.argv[2], float(sys.argv[3]), \
        sys.argv[4]
    paused = go + ".paused"
    clients = os.path.join(top, "clients")
    targets = sorted(os.path.join(canary, t) for t in os.listdir(canary)
                     if os.path.isdir(os.path.join(canary, t)))
    names = ["f", "g", "x", "sub", "e", "d"]
    signal.signal(signal.SIGTERM, on_term)
    end = time.monotonic() + secs
    planted = 0
    n = 0
    while not stop and time.monotonic() < end:
        if not os.path.exists(go):
            if not os.path.exists(paused):
                open(paused, "w").close()
            time.sleep(0.01)
            continue
        if os.path.exists(paused):
            os.unlink(paused)
        n += 1
        t = random.choice(targets)
        what = random.random()
        if what < 0.5:
            # a directory (a client's own, or one of the loadfile's)
            # swapped for a link to the canary
            ds = dirs_under(clients)
            if not ds:
                continue
            d = random.choice(ds)
            aside = os.path.join(clients, ".aside%d" % n)
            if not quiet(os.rename, d, aside):
                continue
            if quiet(os.symlink, t, d):
                planted += 1
                time.sleep(random.choice([0, 0.0005, 0.002]))
                quiet(os.unlink, d)
            if not quiet(os.rename, aside, d):
                # the benchmark made it anew: nothing of ours is left
                shutil.rmtree(aside, ignore_errors=True)
        else:
            # a link at a name the loadfile creates, writes or removes:
            # to a file of the canary, or dangling into it
            ds = dirs_under(clients)
            if not ds:
                continue
            d = random.choice(ds)
            name = random.choice(names)
            dest = os.path.join(t, name) if what < 0.75 else \
                os.path.join(t, "new-%d" % n)
            p = os.path.join(d, name)
            if quiet(os.symlink, dest, p):
                planted += 1
                time.sleep(random.choice([0, 0.001]))
                if os.path.islink(p):
                    quiet(os.unlink, p)
    print("planted %d links" % planted)


if __name__ == "__main__":
    main()
